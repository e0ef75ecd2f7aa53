// The Last Blast: hidden information — the knowledge model, what a seat sees
// of the others' blind draws (ruling 2), and the reshuffled third deal.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "encoders/last_blast/last_blast_encoder.h"
#include "tests/last_blast/last_blast_test_util.h"

using namespace rocketgym;
using namespace rocketgym::last_blast;
using namespace rocketgym::last_blast::test;

namespace {

std::vector<float> encoding(const State& s, int viewer) {
  std::vector<float> out(static_cast<std::size_t>(Encoder::kSize));
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

namespace {

// Draws blind on every fourth pick (placing the card at the front), else
// takes the first card: with three players six blind draws leave the deck
// too short for the third hand, whose deal then reshuffles the discards.
Action blind_when_possible(const State& s) {
  if (s.awaiting_blind_placement()) return kPlaceBlindFront;
  return s.is_legal(kDrawBlind) ? kDrawBlind : first_legal(s);
}

// A 3-player game just before the last pick of the second hand.
State before_reshuffled_deal(uint64_t seed) {
  State s(standard_config(), 3, seed);
  play_until(s, blind_when_possible, [](const State& t) {
    return t.hand_number() == 1 && t.pick_number() == 3 && t.current_player() == 2;
  });
  return s;
}

// The same position with another chance state (so another reshuffle).
State with_rng(const State& s, uint64_t seed) {
  Json doc = s.to_json();
  doc["rng"] = rng_to_json(Rng(seed));
  return State::from_json(doc, standard_config());
}

// Plays the last pick of the second hand: the third hand is dealt.
State deal_third_hand(State s) {
  s.apply(blind_when_possible(s));
  s.apply(blind_when_possible(s));
  REQUIRE(s.hand_number() == 2);
  return s;
}

// The cards of the third deal that were not in the deck before it: the
// discards, reshuffled.
std::set<int> reshuffled_cards(const State& before, const State& after) {
  const Json old_doc = before.to_json(), new_doc = after.to_json();
  std::set<int> old_deck;
  for (const auto& name : old_doc["deck"]) old_deck.insert(card(name.get<std::string>()));
  std::set<int> out;
  for (int p = 0; p < after.num_players(); ++p)
    for (int i = 0; i < after.hand_size(p); ++i)
      if (!old_deck.count(after.hand_card(p, i))) out.insert(after.hand_card(p, i));
  for (const auto& name : new_doc["deck"])
    if (!old_deck.count(card(name.get<std::string>()))) out.insert(card(name.get<std::string>()));
  return out;
}

std::vector<int> in_hand(const State& s, int p, const std::set<int>& cards) {
  std::vector<int> out;
  for (int i = 0; i < s.hand_size(p); ++i)
    if (cards.count(s.hand_card(p, i))) out.push_back(s.hand_card(p, i));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("reshuffled deal: the others cannot tell which reshuffled cards went to which hand",
          "[last_blast][hidden][reshuffle]") {
  const State s = before_reshuffled_deal(45);
  REQUIRE(s.deck_size() < 15);  // the third hand needs the discards
  // Deal the third hand with different shuffles of the discards until two
  // deals give player 0 the same cards but player 1 different ones.
  std::map<std::vector<int>, State> by_own_hand;
  bool compared = false;
  for (uint64_t seed = 1; seed < 200 && !compared; ++seed) {
    const State t = deal_third_hand(with_rng(s, seed));
    const std::set<int> reshuffled = reshuffled_cards(s, t);
    REQUIRE(reshuffled.size() == 12u);
    std::vector<int> own;
    for (int i = 0; i < 5; ++i) own.push_back(t.hand_card(0, i));
    std::sort(own.begin(), own.end());
    const auto seen = by_own_hand.find(own);
    if (seen == by_own_hand.end()) {
      by_own_hand.emplace(own, t);
      continue;
    }
    const State& u = seen->second;
    if (in_hand(u, 1, reshuffled) == in_hand(t, 1, reshuffled)) continue;
    // Player 0 sees the same: the deck and the other hands hold the other
    // reshuffled cards, in some order nobody knows.
    REQUIRE(encoding(t, 0) == encoding(u, 0));
    REQUIRE(t.observation_string(0) == u.observation_string(0));
    compared = true;
  }
  REQUIRE(compared);
}

TEST_CASE("reshuffled deal: a reshuffled card is in the deck or another hand, not known to be anywhere",
          "[last_blast][hidden][reshuffle]") {
  const State before = before_reshuffled_deal(46);
  const State s = deal_third_hand(before);
  const std::set<int> reshuffled = reshuffled_cards(before, s);
  REQUIRE(reshuffled.size() == 12u);
  CardPlaces known;
  s.known_card_places(0, known);
  const auto place = place_by_card(known);
  const auto x = encoding(s, 0);
  // The planes' offsets, from the layout the docs print (the same for every player count).
  int known_elsewhere = -1, reshuffled_plane = -1;
  for (const FeatureBlock& b : observation_layout(3)) {
    if (b.name == "known elsewhere") known_elsewhere = b.offset;
    if (b.name == "reshuffled") reshuffled_plane = b.offset;
  }
  REQUIRE(known_elsewhere >= 0);
  REQUIRE(reshuffled_plane == known_elsewhere + kMaxCards);
  const std::vector<int> own = in_hand(s, 0, reshuffled);
  REQUIRE(own.size() == 1u);
  for (int c : reshuffled) {
    const bool mine = c == own[0];
    INFO("card " << c);
    REQUIRE(x[known_elsewhere + c] == 0.0f);
    REQUIRE(x[reshuffled_plane + c] == (mine ? 0.0f : 1.0f));
    REQUIRE(s.knows(0, c) == mine);
    REQUIRE(place.count(c) == (mine ? 1u : 0u));
  }
  REQUIRE_THAT(s.observation_string(0), Catch::Contains("Reshuffled, in the deck or another hand: "));
}

TEST_CASE("reshuffled deal: a resample moves reshuffled cards between the deck and the other hands only",
          "[last_blast][hidden][reshuffle]") {
  const State before = before_reshuffled_deal(47);
  const State s = deal_third_hand(before);
  const std::set<int> reshuffled = reshuffled_cards(before, s);
  // The deal order is public: each player got exactly one reshuffled card.
  for (int p = 0; p < 3; ++p) REQUIRE(in_hand(s, p, reshuffled).size() == 1u);
  const auto seen = encoding(s, 0);
  bool moved = false;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    State t = s;
    Rng rng(seed);
    t.redeterminize(0, rng);
    REQUIRE_NOTHROW(t.check_invariants());
    REQUIRE(encoding(t, 0) == seen);
    REQUIRE(in_hand(t, 0, reshuffled) == in_hand(s, 0, reshuffled));
    for (int p = 1; p < 3; ++p) REQUIRE(in_hand(t, p, reshuffled).size() == 1u);
    moved = moved || in_hand(t, 1, reshuffled) != in_hand(s, 1, reshuffled);
  }
  REQUIRE(moved);  // a card the deck kept may be in player 1's hand, for player 0
}

TEST_CASE("reshuffled deal: the state document names the reshuffled cards",
          "[last_blast][hidden][reshuffle]") {
  const State before = before_reshuffled_deal(48);
  const State s = deal_third_hand(before);
  const std::set<int> reshuffled = reshuffled_cards(before, s);
  for (int c = 0; c < 48; ++c) REQUIRE(s.is_reshuffled(c) == (reshuffled.count(c) > 0));
  const Json doc = s.to_json();
  REQUIRE(doc["reshuffled"].size() == 12u);
  const State loaded = State::from_json(doc, standard_config());
  for (int c = 0; c < 48; ++c) REQUIRE(loaded.is_reshuffled(c) == s.is_reshuffled(c));
  REQUIRE(encoding(loaded, 1) == encoding(s, 1));
}

TEST_CASE("blind draw: a resample for another seat may make a fourth pick blind or not, at either end",
          "[last_blast][hidden][blind]") {
  State s(standard_config(), 3, 49);
  play_until(s, first_legal, [](const State& t) { return t.hand_number() == 1 && t.pick_number() == 3; });
  State picked = s;
  picked.apply(kPickBase + 2 * s.hand_card(0, 0) + kBack);  // player 0 picks from the hand
  picked.apply(kDrawBlind);                                 // player 1 draws blind...
  const int drawn = picked.pick(1).card;                    // ...and is placing it
  std::set<std::pair<bool, int>> kinds_seen;                // player 0's pick: blind?, end
  std::set<bool> placing_seen;                              // player 1 placing a blind card?
  for (uint64_t seed = 0; seed < 60; ++seed) {
    State t = picked;
    Rng rng(seed);
    t.redeterminize(2, rng);
    REQUIRE_NOTHROW(t.check_invariants());
    REQUIRE(encoding(t, 2) == encoding(picked, 2));
    REQUIRE(t.observation_string(2) == picked.observation_string(2));
    REQUIRE(t.current_player() == 1);
    kinds_seen.insert({t.pick(0).blind, t.pick(0).end});
    placing_seen.insert(t.awaiting_blind_placement());
    // The drawer's own resample keeps its card and decision.
    State u = picked;
    u.redeterminize(1, rng);
    REQUIRE(u.pick(1).card == drawn);
    REQUIRE(u.awaiting_blind_placement());
  }
  REQUIRE(kinds_seen.size() == 4u);
  REQUIRE(placing_seen.size() == 2u);
}

TEST_CASE("hidden: over playouts full of blind draws, a resample keeps every seat's view and knowledge",
          "[last_blast][hidden]") {
  // Random play rarely draws blind; here most fourth picks are blind draws, so
  // that the reshuffled deals and blind draws from reshuffled discards (3 and
  // 4 players) come up often.
  int reshuffled_deals = 0, resamples = 0;
  for (int n = 2; n <= 4; ++n)
    for (uint64_t game = 0; game < 30; ++game) {
      State s(standard_config(), n, 1000 * n + game);
      Rng rng(game);
      while (s.phase() == Phase::kDraft) {
        for (int viewer = 0; viewer < n; ++viewer) {
          State t = s;
          Rng r(rng.next());
          t.redeterminize(viewer, r);
          ++resamples;
          INFO(n << " players, game " << game << ", viewer " << viewer << "\n" << s.to_string());
          REQUIRE_NOTHROW(t.check_invariants());
          REQUIRE(encoding(t, viewer) == encoding(s, viewer));
          REQUIRE(t.observation_string(viewer) == s.observation_string(viewer));
          REQUIRE(t.current_player() == s.current_player());
          CardPlaces known, known_after, truth_after;
          s.known_card_places(viewer, known);
          t.known_card_places(viewer, known_after);
          t.card_places(truth_after);
          std::sort(known.begin(), known.end());
          std::sort(known_after.begin(), known_after.end());
          REQUIRE(known_after == known);
          REQUIRE(first_unsupported(known, truth_after) == nullptr);
        }
        std::vector<Action> legal;
        for (Action a = 0; a < kNumActions; ++a)
          if (s.is_legal(a)) legal.push_back(a);
        const bool blind = s.is_legal(kDrawBlind) && rng.below(4) != 0;
        s.apply(blind ? kDrawBlind : legal[rng.below(static_cast<uint32_t>(legal.size()))]);
        REQUIRE_NOTHROW(s.check_invariants());
        reshuffled_deals += s.hand_number() == 2 && s.pick_number() == 0 && s.current_player() == 0 &&
                            s.to_json()["reshuffled"].size() > 0;
      }
    }
  REQUIRE(reshuffled_deals > 10);
  REQUIRE(resamples > 1000);
}
