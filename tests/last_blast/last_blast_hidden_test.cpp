// The Last Blast: hidden information — the knowledge model, what a seat sees
// of the others' blind draws (ruling 2), and the reshuffled third deal.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>

#include "encoders/last_blast/last_blast_encoder.h"
#include "tests/last_blast/last_blast_test_util.h"

using namespace rocketgym;
using namespace rocketgym::last_blast;
using namespace rocketgym::last_blast::test;

namespace {

std::vector<float> encoding(const State& s, int viewer) {
  std::vector<float> out(static_cast<std::size_t>(Encoder::size(s.num_players())));
  Encoder::encode(s, viewer, out.data());
  return out;
}

std::map<int, int> place_by_card(const CardPlaces& places) {
  std::map<int, int> out;
  for (const CardPlace& cp : places) out[cp.card] = cp.place;
  return out;
}

// Every player takes the first card of their hand (never a blind draw).
void pick_round(State& s) {
  for (int p = 0; p < s.num_players(); ++p) s.apply(first_legal(s));
}

}  // namespace

TEST_CASE("knowledge: every card has one place; a seat knows its hand, the hands it held and the rockets",
          "[last_blast][hidden][knowledge]") {
  State s(standard_config(), 3, 41);
  pick_round(s);  // the hands went left: player 1 holds what player 0 held
  CardPlaces truth, known0;
  s.card_places(truth);
  s.known_card_places(0, known0);
  REQUIRE(truth.size() == 48u);
  const auto place = place_by_card(truth);
  REQUIRE(place.size() == 48u);  // each card once
  const auto known = place_by_card(known0);
  for (int i = 0; i < s.hand_size(0); ++i) REQUIRE(known.at(s.hand_card(0, i)) == kPlaceHand + 0);
  for (int i = 0; i < s.hand_size(1); ++i) REQUIRE(known.at(s.hand_card(1, i)) == kPlaceHand + 1);
  for (int i = 0; i < s.hand_size(2); ++i) REQUIRE(known.count(s.hand_card(2, i)) == 0);
  for (int p = 0; p < 3; ++p) REQUIRE(known.at(s.rocket(p).front()) == kPlaceRocket + p);
  // The deck is known to nobody; what is known is true.
  REQUIRE(known0.size() == 3u + 4u + 4u);
  CardPlaces truth_copy = truth;
  REQUIRE(first_unsupported(known0, truth_copy) == nullptr);
}

TEST_CASE("knowledge: a hidden pick stays in its hand's place; a blind draw is in the undrafted pile",
          "[last_blast][hidden][knowledge]") {
  State s(standard_config(), 2, 42);
  play_until(s, first_legal, [](const State& t) { return t.pick_number() == 3; });
  // Player 0 picks from the hand player 1 passed: player 1 still knows the
  // card is in player 0's hand (or picked from it), not which one was taken.
  State from_hand = s;
  const int taken = s.hand_card(0, 0);
  from_hand.apply(kPickBase + 2 * taken + kBack);
  CardPlaces known1;
  from_hand.known_card_places(1, known1);
  REQUIRE(place_by_card(known1).at(taken) == kPlaceHand + 0);
  // A blind draw: the drawer knows the card; it is in the undrafted pile.
  State blind = s;
  blind.apply(kDrawBlind);
  const int drawn = blind.pick(0).card;
  CardPlaces known0, truth;
  blind.known_card_places(0, known0);
  blind.card_places(truth);
  REQUIRE(place_by_card(known0).at(drawn) == kPlaceUndrafted);
  REQUIRE(place_by_card(truth).at(drawn) == kPlaceUndrafted);
  CardPlaces known1_blind;
  blind.known_card_places(1, known1_blind);
  REQUIRE(place_by_card(known1_blind).count(drawn) == 0);
}

TEST_CASE("blind draw (ruling 2): while a player places a blind card, the others see what they saw before",
          "[last_blast][hidden][blind]") {
  for (int n = 2; n <= 3; ++n) {
    INFO(n << " players");
    State s(standard_config(), n, 43);
    play_until(s, first_legal, [](const State& t) { return t.pick_number() == 3; });
    const State before = s;
    s.apply(kDrawBlind);
    REQUIRE(s.current_player() == 0);  // the picks go in seat order: who is to decide is public
    for (int viewer = 1; viewer < n; ++viewer) {
      INFO("viewer " << viewer);
      REQUIRE(encoding(s, viewer) == encoding(before, viewer));
      REQUIRE(s.observation_string(viewer) == before.observation_string(viewer));
      REQUIRE_THAT(s.observation_string(viewer), !Catch::Contains("blind"));
    }
    // The drawer sees the card and the decision.
    REQUIRE(encoding(s, 0) != encoding(before, 0));
    REQUIRE_THAT(s.observation_string(0), Catch::Contains("placing the blind card"));
    REQUIRE_THAT(s.observation_string(0),
                 Catch::Contains("hidden pick: " + standard_config().card_names[s.pick(0).card]));
  }
}

TEST_CASE("blind draw: the draft decisions are secret actions; the flight's are public",
          "[last_blast][hidden]") {
  const State s(standard_config(), 2, 44);
  for (Action a = 0; a < kMoveBase; ++a) REQUIRE_FALSE(s.is_public_action(a));
  for (Action a = kMoveBase; a < kNumActions; ++a) REQUIRE(s.is_public_action(a));
}
