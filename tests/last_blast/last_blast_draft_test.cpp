// The Last Blast: set-up and CONSTRUCTION PHASE (the draft), rulings 1-3.
#include <algorithm>
#include <catch2/catch.hpp>

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

std::vector<int> sorted_hand(const State& s, int p) {
  std::vector<int> hand;
  for (int i = 0; i < s.hand_size(p); ++i) hand.push_back(s.hand_card(p, i));
  std::sort(hand.begin(), hand.end());
  return hand;
}

std::vector<int> rocket_cards(const State& s, int p) {
  const Rocket& r = s.rocket(p);
  return std::vector<int>(r.card.begin(), r.card.begin() + r.size);
}

// Every player picks their first legal card; checks that each hand then
// moved `step` seats clockwise, less the card picked from it.
void check_one_pick_round_passes(State& s, int step) {
  const int n = s.num_players();
  std::vector<std::vector<int>> before(n);
  for (int p = 0; p < n; ++p) before[p] = sorted_hand(s, p);
  for (int p = 0; p < n; ++p) {
    REQUIRE(s.current_player() == p);
    const Action a = first_legal(s);
    REQUIRE(a < kDrawBlind);
    auto& hand = before[p];
    hand.erase(std::find(hand.begin(), hand.end(), a / 2));
    s.apply(a);
  }
  for (int p = 0; p < n; ++p) REQUIRE(sorted_hand(s, (p + step) % n) == before[p]);
}

}  // namespace

TEST_CASE("set-up: the field is (players + 1) x 7 tiles; the other tiles are set aside",
          "[last_blast][setup]") {
  for (int n = 2; n <= 4; ++n) {
    const State s(standard_config(), n, 7);
    const Json doc = s.to_json();
    REQUIRE(s.rows() == n + 1);
    REQUIRE(doc["field"].size() == static_cast<std::size_t>(n + 1));
    for (const auto& row : doc["field"]) REQUIRE(row.size() == 7u);
    REQUIRE(doc["set_aside_tiles"].size() == static_cast<std::size_t>(36 - 7 * (n + 1)));
    REQUIRE_NOTHROW(s.check_invariants());  // field + set aside = the 36 tiles
  }
  // The tiles are drawn at random.
  REQUIRE(State(standard_config(), 2, 1).to_json()["field"] !=
          State(standard_config(), 2, 2).to_json()["field"]);
}

TEST_CASE("set-up: each player is dealt a hand of 5 that only they know", "[last_blast][setup]") {
  const State s(standard_config(), 3, 8);
  REQUIRE(s.phase() == Phase::kDraft);
  REQUIRE(s.deck_size() == 48 - 15);
  for (int p = 0; p < 3; ++p) {
    REQUIRE(s.hand_size(p) == 5);
    REQUIRE(s.rocket(p).size == 0);
    for (int i = 0; i < 5; ++i)
      for (int q = 0; q < 3; ++q) REQUIRE(s.knows(q, s.hand_card(p, i)) == (p == q));
  }
}

TEST_CASE("draft: a pick stays hidden until every player has picked", "[last_blast][draft]") {
  const State s(standard_config(), 3, 11);
  const int first = s.hand_card(0, 0), second = s.hand_card(0, 1);
  State a = s, b = s;
  a.apply(kPickBase + 2 * first + kFront);
  b.apply(kPickBase + 2 * second + kFront);
  REQUIRE(a.rocket(0).size == 0);
  REQUIRE(a.pick(0).card == first);
  // The other players cannot tell which card player 0 took...
  REQUIRE(encoding(a, 1) == encoding(b, 1));
  REQUIRE(encoding(a, 2) == encoding(b, 2));
  REQUIRE(encoding(a, 0) != encoding(b, 0));
  // ...until everybody has picked: then every pick joins its rocket at once.
  a.apply(first_legal(a));
  REQUIRE(a.rocket(0).size == 0);
  a.apply(first_legal(a));
  for (int p = 0; p < 3; ++p) REQUIRE(a.rocket(p).size == 1);
  REQUIRE(a.rocket(0).front() == first);
  REQUIRE(a.pick_number() == 1);
}

TEST_CASE("draft: each pick joins the front or back of the rocket, never the middle", "[last_blast][draft]") {
  State s(standard_config(), 2, 5);
  const int first = s.hand_card(0, 0);
  // The first card starts the rocket: one action, not two equal ones.
  REQUIRE(s.is_legal(kPickBase + 2 * first + kFront));
  REQUIRE_FALSE(s.is_legal(kPickBase + 2 * first + kBack));
  s.apply(kPickBase + 2 * first + kFront);
  s.apply(first_legal(s));
  const int second = s.hand_card(0, 0);
  REQUIRE(s.is_legal(kPickBase + 2 * second + kBack));
  s.apply(kPickBase + 2 * second + kBack);
  s.apply(first_legal(s));
  const int third = s.hand_card(0, 0);
  s.apply(kPickBase + 2 * third + kFront);
  s.apply(first_legal(s));
  REQUIRE(rocket_cards(s, 0) == std::vector<int>{third, first, second});
  // A card not in the hand cannot be picked.
  REQUIRE_FALSE(s.is_legal(kPickBase + 2 * first + kFront));
}

TEST_CASE("draft: hands pass left, then right, then left (3 players)", "[last_blast][draft]") {
  State s(standard_config(), 3, 21);
  SECTION("first hand: to the left (the next seat clockwise)") { check_one_pick_round_passes(s, 1); }
  SECTION("second hand: to the right") {
    play_until(s, first_legal, [](const State& t) { return t.hand_number() == 1; });
    check_one_pick_round_passes(s, 2);
    check_one_pick_round_passes(s, 2);
  }
  SECTION("third hand: to the left again") {
    play_until(s, first_legal, [](const State& t) { return t.hand_number() == 2; });
    check_one_pick_round_passes(s, 1);
  }
}

TEST_CASE("draft: with two players the hands are swapped", "[last_blast][draft]") {
  State s(standard_config(), 2, 22);
  check_one_pick_round_passes(s, 1);
  play_until(s, first_legal, [](const State& t) { return t.hand_number() == 1; });
  check_one_pick_round_passes(s, 1);
}

TEST_CASE("draft: the blind draw is offered on the fourth pick only", "[last_blast][draft]") {
  State s(standard_config(), 2, 23);
  for (int k = 0; k < 3; ++k) {
    REQUIRE(s.pick_number() == k);
    REQUIRE_FALSE(s.is_legal(kDrawBlind));
    s.apply(first_legal(s));
    s.apply(first_legal(s));
  }
  REQUIRE(s.pick_number() == 3);
  REQUIRE(s.hand_size(0) == 2);
  REQUIRE(s.is_legal(kDrawBlind));
}

TEST_CASE("draft: a blind draw is seen by the drawer, who then chooses its end", "[last_blast][draft]") {
  State s(standard_config(), 2, 24);
  play_until(s, first_legal, [](const State& t) { return t.pick_number() == 3; });
  const int top = standard_config().card_id(s.to_json()["deck"].back().get<std::string>());
  const int discards = s.discard_size();
  s.apply(kDrawBlind);
  REQUIRE(s.current_player() == 0);
  REQUIRE(s.awaiting_blind_placement());
  REQUIRE(s.pick(0).card == top);
  REQUIRE(s.knows(0, top));
  REQUIRE_FALSE(s.knows(1, top));
  for (Action a = 0; a < kNumActions; ++a)
    REQUIRE(s.is_legal(a) == (a == kPlaceBlindFront || a == kPlaceBlindBack));
  s.apply(kPlaceBlindBack);
  s.apply(first_legal(s));  // player 1 takes a card from the hand
  REQUIRE(s.rocket(0).back() == top);
  REQUIRE(s.rocket(0).size == 4);
  // Player 0 discards both cards of the hand, player 1 the one left.
  REQUIRE(s.discard_size() == discards + 3);
  REQUIRE(s.hand_number() == 1);
}

TEST_CASE("draft: after the fourth pick the last card is discarded and 5 new cards dealt",
          "[last_blast][draft]") {
  State s(standard_config(), 2, 25);
  play_until(s, first_legal, [](const State& t) { return t.hand_number() == 1; });
  REQUIRE(s.discard_size() == 2);
  REQUIRE(s.deck_size() == 48 - 10 - 10);
  for (int p = 0; p < 2; ++p) {
    REQUIRE(s.rocket(p).size == 4);
    REQUIRE(s.hand_size(p) == 5);
  }
  REQUIRE(s.pick_number() == 0);
}

TEST_CASE("draft: when the deck runs out while dealing, the discards become a new deck",
          "[last_blast][draft]") {
  // Three players who draw blind on most fourth picks leave too few cards in
  // the deck for the third hand.
  State s(standard_config(), 3, 26);
  const auto blind = [](const State& t) {
    if (t.awaiting_blind_placement()) return kPlaceBlindFront;
    return t.is_legal(kDrawBlind) ? kDrawBlind : first_legal(t);
  };
  play_until(s, blind, [](const State& t) {
    return t.hand_number() == 1 && t.pick_number() == 3 && t.current_player() == 2;
  });
  const Json before = s.to_json();
  REQUIRE(before["deck"].size() == 13u);
  s.apply(first_legal(s));  // the last pick of the second hand: the third is dealt
  REQUIRE(s.hand_number() == 2);
  for (int p = 0; p < 3; ++p) REQUIRE(s.hand_size(p) == 5);
  // The old deck was dealt first, then the reshuffled discards.
  for (const auto& name : before["deck"]) {
    const int c = card(name.get<std::string>());
    bool dealt = false;
    for (int p = 0; p < 3; ++p)
      for (int i = 0; i < 5; ++i) dealt = dealt || s.hand_card(p, i) == c;
    REQUIRE(dealt);
  }
  REQUIRE(s.discard_size() == 0);
  REQUIRE(s.deck_size() == 48 - 3 * 8 - 15);
  REQUIRE_NOTHROW(s.check_invariants());
}

TEST_CASE("draft: four players get a third hand of 4 cards and every rocket ends with 12",
          "[last_blast][draft]") {
  // 48 cards cannot fill three hands of five for four players (ruling in
  // State::deal_hand): the third hand is all the cards left, 4 each.
  for (uint64_t seed = 0; seed < 20; ++seed) {
    State s(standard_config(), 4, seed);
    Rng rng(seed);
    const auto random_legal = [&](const State& t) {
      std::vector<Action> legal;
      for (Action a = 0; a < kNumActions; ++a)
        if (t.is_legal(a)) legal.push_back(a);
      return legal[rng.below(static_cast<uint32_t>(legal.size()))];
    };
    play_until(s, random_legal, [](const State& t) { return t.hand_number() == 2; });
    for (int p = 0; p < 4; ++p) REQUIRE(s.hand_size(p) == 4);
    REQUIRE(s.deck_size() + s.discard_size() == 0);
    play_until(s, random_legal, [](const State& t) { return t.phase() != Phase::kDraft; });
    for (int p = 0; p < 4; ++p) REQUIRE(s.rocket(p).size == 12);
  }
  // Two and three players keep hands of five.
  for (int n = 2; n <= 3; ++n) {
    State s(standard_config(), n, 3);
    play_until(s, first_legal, [](const State& t) { return t.hand_number() == 2; });
    for (int p = 0; p < n; ++p) REQUIRE(s.hand_size(p) == 5);
  }
}

TEST_CASE("draft: redeterminize keeps what the viewer saw of passed hands", "[last_blast][draft][hidden]") {
  State s(standard_config(), 3, 33);
  check_one_pick_round_passes(s, 1);
  // Player 1 now holds what player 0 passed: player 0 knows it. Player 2's
  // hand came from player 1: player 0 has never seen it.
  const auto own = sorted_hand(s, 0), seen = sorted_hand(s, 1), unseen = sorted_hand(s, 2);
  bool unseen_changed = false;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    State t = s;
    Rng rng(seed);
    t.redeterminize(0, rng);
    REQUIRE_NOTHROW(t.check_invariants());
    REQUIRE(sorted_hand(t, 0) == own);
    REQUIRE(sorted_hand(t, 1) == seen);
    for (int p = 0; p < 3; ++p) REQUIRE(rocket_cards(t, p) == rocket_cards(s, p));
    unseen_changed = unseen_changed || sorted_hand(t, 2) != unseen;
    REQUIRE(encoding(t, 0) == encoding(s, 0));
  }
  REQUIRE(unseen_changed);
}

TEST_CASE("draft: redeterminize hides which card another player picked", "[last_blast][draft][hidden]") {
  State s(standard_config(), 2, 34);
  check_one_pick_round_passes(s, 1);
  // Player 0 holds player 1's old hand, picks from it; player 1 knows the
  // hand but not the pick.
  s.apply(first_legal(s));
  auto unit = sorted_hand(s, 0);
  unit.push_back(s.pick(0).card);
  std::sort(unit.begin(), unit.end());
  std::set<int> picks_seen;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    State t = s;
    Rng rng(seed);
    t.redeterminize(1, rng);
    auto t_unit = sorted_hand(t, 0);
    t_unit.push_back(t.pick(0).card);
    std::sort(t_unit.begin(), t_unit.end());
    REQUIRE(t_unit == unit);
    picks_seen.insert(t.pick(0).card);
    // Player 0's own view never changes.
    State u = s;
    u.redeterminize(0, rng);
    REQUIRE(u.pick(0).card == s.pick(0).card);
    REQUIRE(sorted_hand(u, 0) == sorted_hand(s, 0));
  }
  REQUIRE(picks_seen.size() > 1);
}

TEST_CASE("draft: the others cannot tell a blind draw from a pick out of the hand",
          "[last_blast][draft][hidden]") {
  State s(standard_config(), 2, 35);
  play_until(s, first_legal, [](const State& t) { return t.pick_number() == 3; });
  State blind = s, from_hand = s;
  blind.apply(kDrawBlind);
  blind.apply(kPlaceBlindFront);
  from_hand.apply(kPickBase + 2 * s.hand_card(0, 0) + kFront);
  REQUIRE(blind.current_player() == 1);
  REQUIRE(encoding(blind, 1) == encoding(from_hand, 1));
  REQUIRE(encoding(blind, 0) != encoding(from_hand, 0));
  // The blind card is the drawer's secret until the reveal.
  const int drawn = blind.pick(0).card;
  bool changed = false;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    State t = blind;
    Rng rng(seed);
    t.redeterminize(1, rng);
    REQUIRE_NOTHROW(t.check_invariants());
    changed = changed || t.pick(0).card != drawn;
    State u = blind;
    u.redeterminize(0, rng);
    REQUIRE(u.pick(0).card == drawn);
  }
  REQUIRE(changed);
}

TEST_CASE("draft: a hand the viewer passed on stays known as it travels on", "[last_blast][draft][hidden]") {
  // Three players, first hand: player 0's hand goes to player 1, then on to
  // player 2. Player 0 saw every card of it; the card player 1 took is public.
  State s(standard_config(), 3, 36);
  check_one_pick_round_passes(s, 1);
  check_one_pick_round_passes(s, 1);
  const auto travelled = sorted_hand(s, 2);
  for (int c : travelled) REQUIRE(s.knows(0, c));
  for (uint64_t seed = 0; seed < 10; ++seed) {
    State t = s;
    Rng rng(seed);
    t.redeterminize(0, rng);
    REQUIRE(sorted_hand(t, 2) == travelled);
  }
}

TEST_CASE("draft: the text a player sees hides the others' picks and unseen cards",
          "[last_blast][draft][hidden]") {
  State s(standard_config(), 2, 37);
  check_one_pick_round_passes(s, 1);
  s.apply(first_legal(s));  // player 0 picks from the hand player 1 passed
  const std::string picked = standard_config().card_names[s.pick(0).card];
  const std::string view = s.observation_string(1);
  REQUIRE(view.find("You are player 1") != std::string::npos);
  REQUIRE(view.find("hidden pick") == std::string::npos);
  REQUIRE(view.find("has picked; you saw in it: ") != std::string::npos);
  REQUIRE(view.find(picked) != std::string::npos);  // seen in the hand, not known as the pick
  REQUIRE(s.observation_string(0).find("hidden pick: " + picked) != std::string::npos);
  REQUIRE(s.to_string().find("hidden pick: " + picked) != std::string::npos);
  for (uint64_t seed = 0; seed < 10; ++seed) {
    State t = s;
    Rng rng(seed);
    t.redeterminize(1, rng);
    REQUIRE(t.observation_string(1) == view);
  }
}
