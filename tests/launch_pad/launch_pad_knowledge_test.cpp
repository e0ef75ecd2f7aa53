// Launch Pad hidden information (issue 14): what each seat may see
// (observation_string), which decisions are public, and the knowledge model:
// every card a seat saw enter another hand or the draw pile stays there in
// every resample for that seat (redeterminize), and a seat that did not see
// it may be dealt something else.
#include <catch2/catch.hpp>
#include <functional>

#include "encoders/launch_pad/launch_pad_encoder.h"
#include "envs/launch_pad/launch_pad_bot.h"
#include "tests/launch_pad/launch_pad_position.h"

using namespace launch_pad_test;

namespace {

constexpr int kTrials = 60;

State resample(const State& s, int viewer, int trial) {
  State r = s;
  Rng rng(derive_seed(4242, static_cast<uint64_t>(trial)));
  r.redeterminize(viewer, rng);
  r.check_invariants();
  return r;
}

// The fewest copies of `card` in `seat`'s hand over many resamples for `viewer`.
int fewest_in_hand(const State& s, int viewer, int seat, int card) {
  int fewest = 1 << 20;
  for (int t = 0; t < kTrials; ++t) fewest = std::min(fewest, hand(resample(s, viewer, t), seat, card));
  return fewest;
}

// Whether some resample for `viewer` deals `seat` a different hand.
bool hand_may_change(const State& s, int viewer, int seat) {
  for (int t = 0; t < kTrials; ++t)
    if (resample(s, viewer, t).area(seat).hand != s.area(seat).hand) return true;
  return false;
}

int draw_pile_count(const State& s, int card) {
  int n = 0;
  for (int i = 0; i < s.draw_pile_size(); ++i) n += s.draw_pile_card(i) == card;
  return n;
}

// The fewest copies of `card` in the draw pile over many resamples for `viewer`.
int fewest_in_draw_pile(const State& s, int viewer, int card) {
  int fewest = 1 << 20;
  for (int t = 0; t < kTrials; ++t) fewest = std::min(fewest, draw_pile_count(resample(s, viewer, t), card));
  return fewest;
}

int known_in_hand(const State& s, int viewer, int seat, int card) {
  return s.known_count(viewer, kPlaceHand + seat, card);
}

std::vector<float> encode(const State& s, int viewer) {
  std::vector<float> out(Encoder::kSize);
  Encoder::encode(s, viewer, out.data());
  return out;
}

// The observation's "known hand" block of the seat `relative` seats after the viewer.
float known_hand_feature(const std::vector<float>& obs, int relative, int card) {
  const int at = (relative + 1) * Encoder::kSeatFeatures - kNumCardTypes + card;
  return obs[static_cast<std::size_t>(at)];
}

// The observation's "draw pile known" block.
float draw_pile_feature(const std::vector<float>& obs, int card) {
  const int at = kMaxPlayers * Encoder::kSeatFeatures + Encoder::kGlobalFeatures - kNumCardTypes + card;
  return obs[static_cast<std::size_t>(at)];
}

// Ends the turn of the seat before `seat` so that `seat`'s turn begins (steps 1-3 run).
State start_turn(const Config& config, int players, int seat, const std::string& patch) {
  Json p = Json::parse(patch);
  p["turn"] = (seat + players - 1) % players;
  p["step"] = "discard";
  State s = position(config, players, p.dump());
  s.apply(act::kEndTurn);
  return s;
}

// Player 1 of 3 takes the discard pile's top card (an Oxygen) in step 3.
State oxygen_taken_from_discard_pile() {
  State s =
      start_turn(standard(), 3, 1, R"({"hands": [{}, {"metal": 2, "fuel": 3}, {"thief": 1, "engineer": 5}],
      "discard_pile": ["vacuum", "oxygen"]})");
  REQUIRE(s.step() == Step::kDrawChoice);
  s.apply(act::kTakeDiscardTop);
  REQUIRE(hand(s, 1, kOxygen) == 1);
  return s;
}

}  // namespace

// ---------------------------------------------------------------- the text view and public actions

TEST_CASE("observation_string: own hand, the others' hand sizes, the table; never another hand") {
  State s = position(2, R"({"hands": [{"thief": 1, "galactic": 1}, {"overtime": 1}],
      "discard_pile": ["recycle_bin", "oxygen"]})");
  REQUIRE(s.current_player() == 0);
  const std::string seen_by_1 = s.observation_string(1);
  INFO(seen_by_1);
  CHECK_THAT(seen_by_1, Catch::Contains("You are player 1"));
  CHECK_THAT(seen_by_1, Catch::Contains("Player 1 (you): score -10, hand 1/6: Overtime"));
  CHECK_THAT(seen_by_1, Catch::Contains("Player 0 (to move): score -10, hand 2/6\n"));
  CHECK_THAT(seen_by_1, !Catch::Contains("Thief") && !Catch::Contains("Galactic"));
  CHECK_THAT(seen_by_1, Catch::Contains("Discard pile holds: Oxygen, Recycle Bin"));
  CHECK_THAT(seen_by_1, Catch::Contains("Draw pile, known to hold: Launch Pad x4"));
  const std::string seen_by_0 = s.observation_string(0);
  CHECK_THAT(seen_by_0, Catch::Contains("Galactic, Thief"));
  CHECK_THAT(seen_by_0, !Catch::Contains("Overtime"));
}

TEST_CASE("observation_string: the cards a seat knows in another hand, and nothing it does not") {
  const State s = oxygen_taken_from_discard_pile();
  CHECK_THAT(s.observation_string(0), Catch::Contains("hand 6/6, known to hold: Oxygen\n"));
  CHECK_THAT(s.observation_string(2), Catch::Contains("hand 6/6, known to hold: Oxygen\n"));
  CHECK_THAT(s.observation_string(0), !Catch::Contains("Metal x") && !Catch::Contains("Engineer x2"));
  // Unchanged by a resample for that seat.
  for (int t = 0; t < 10; ++t) REQUIRE(resample(s, 0, t).observation_string(0) == s.observation_string(0));
}

TEST_CASE("observation: the cards a seat knows in another hand, and nothing it does not") {
  const State s = oxygen_taken_from_discard_pile();
  const auto seen_by_0 = encode(s, 0), seen_by_1 = encode(s, 1), seen_by_2 = encode(s, 2);
  for (int t = 0; t < kNumCardTypes; ++t) {
    INFO(card_name(t));
    const float oxygen = t == kOxygen ? 1.0f : 0.0f;
    CHECK(known_hand_feature(seen_by_0, 1, t) == oxygen);  // player 1 is seat +1 of player 0
    CHECK(known_hand_feature(seen_by_2, 2, t) == oxygen);  // and seat +2 of player 2
    CHECK(known_hand_feature(seen_by_1, 0, t) == 0.0f);    // its own hand is the "own hand" block
    CHECK(known_hand_feature(seen_by_0, 2, t) == 0.0f);    // player 2's hand: nothing seen
    CHECK(known_hand_feature(seen_by_0, 3, t) == 0.0f);    // no fourth player
  }
  // Unchanged by a resample for that seat.
  for (int t = 0; t < 10; ++t) REQUIRE(encode(resample(s, 0, t), 0) == seen_by_0);
}

TEST_CASE("is_public_action: every Launch Pad decision is taken in view of the table") {
  const State s = position(3, R"({"hands": [{"thief": 1, "metal": 1}]})");
  for (int a = 0; a < act::kNumActions; ++a) REQUIRE(s.is_public_action(a));
  REQUIRE_FALSE(s.is_public_action(-1));
  REQUIRE_FALSE(s.is_public_action(act::kNumActions));
}

// ---------------------------------------------------------------- the knowledge model

TEST_CASE("knowledge: at the deal a seat knows its hand, the table and where the Launch Pad cards are") {
  const State s(standard(), 3, 17);
  for (int viewer = 0; viewer < 3; ++viewer) {
    CardPlaces known;
    s.known_card_places(viewer, known);
    int own = 0, in_other_hands = 0, in_draw_pile = 0;
    for (const CardPlace& c : known) {
      own += c.place == kPlaceHand + viewer;
      in_other_hands += c.place < kMaxPlayers && c.place != kPlaceHand + viewer;
      if (c.place == kPlaceDrawPile) {
        REQUIRE(c.card == kLaunchPad);
        ++in_draw_pile;
      }
    }
    REQUIRE(own == 6);
    REQUIRE(in_other_hands == 0);
    REQUIRE(in_draw_pile == 4);
  }
  CardPlaces truth;
  s.card_places(truth);
  REQUIRE(truth.size() == 140);
}

TEST_CASE("knowledge: the discard pile's top card taken in step 3 stays in the taker's hand") {
  const State s = oxygen_taken_from_discard_pile();
  for (int viewer : {0, 2}) {
    REQUIRE(known_in_hand(s, viewer, 1, kOxygen) == 1);
    REQUIRE(fewest_in_hand(s, viewer, 1, kOxygen) == 1);
    REQUIRE(hand_may_change(s, viewer, 1));  // the five cards drawn blind are not known
  }
  REQUIRE(known_in_hand(s, 0, 1, kMetal) == 0);
}

TEST_CASE("knowledge: a card retrieved with Salvage stays in its taker's hand") {
  State s = position(3, R"({"turn": 1, "hands": [{}, {"salvage": 1, "metal": 2}, {"fuel": 3}],
      "discard_pile": ["jack_of_all_trades", "metal"]})");
  s.apply(act::salvage(kJackOfAllTrades));
  for (int viewer : {0, 2}) {
    REQUIRE(fewest_in_hand(s, viewer, 1, kJackOfAllTrades) == 1);
    REQUIRE(hand_may_change(s, viewer, 1));
  }
}

TEST_CASE("knowledge: a Component stolen with Sabotage stays in the thief's hand") {
  State s = position(3, R"({"turn": 1, "hands": [{}, {"sabotage": 1, "fuel": 2}, {"fuel": 3}],
      "zones": [{"rockets": [{"slot": 0, "kind": "galactic"}]}]})");
  s.apply(act::sabotage(2, 0, kMetal));  // player 0 is two seats after player 1
  REQUIRE(fewest_in_hand(s, 0, 1, kMetal) == 1);
  REQUIRE(fewest_in_hand(s, 2, 1, kMetal) == 1);
  REQUIRE(hand_may_change(s, 0, 1));
}

TEST_CASE("knowledge: an Oxygen stolen with Vacuum stays in the thief's hand") {
  State s = position(3, R"({"turn": 1, "hands": [{}, {"vacuum": 1, "fuel": 2}, {"fuel": 3}],
      "zones": [{"rockets": [{"slot": 0, "kind": "observer", "zone": "launch", "bonuses": ["oxygen"]}]}]})");
  s.apply(act::vacuum(2, 0));
  for (int viewer : {0, 2}) REQUIRE(fewest_in_hand(s, viewer, 1, kOxygen) == 1);
}

TEST_CASE("knowledge: an expert taken with Recruitment stays in the recruiter's hand") {
  State s = position(3, R"({"turn": 1, "hands": [{}, {"recruitment": 1, "fuel": 2}, {"fuel": 3}],
      "zones": [{"experts": {"launch": "jack_of_all_trades"}}]})");
  s.apply(act::recruitment(2, kLaunchZone));
  for (int viewer : {0, 2}) REQUIRE(fewest_in_hand(s, viewer, 1, kJackOfAllTrades) == 1);
}

TEST_CASE("knowledge: Specialty cards taken with Budget Cuts stay in the taker's hand (super powers: all)") {
  const Config config = load("variants: {super_powers: true}\n");
  State s = position(config, 3, R"({"turn": 1, "hands": [{}, {"budget_cuts": 1, "fuel": 2}, {"fuel": 3}],
      "zones": [{"specialties": ["overtime", "security_system"]}]})");
  s.apply(act::budget_cuts(2));
  for (int viewer : {0, 2}) {
    REQUIRE(fewest_in_hand(s, viewer, 1, kOvertime) == 1);
    REQUIRE(fewest_in_hand(s, viewer, 1, kSecuritySystem) == 1);
  }
}

TEST_CASE(
    "knowledge: negotiations: an accepted card stays with the receiver, a rejected one with the giver") {
  const Config config = load("variants: {negotiations: true}\n");
  State s = position(config, 3, R"({"hands": [{"galactic": 1, "metal": 2}, {"fuel": 3}, {"fuel": 3}]})");
  s.apply(act::offer(1, kGalactic));
  State accepted = s, rejected = s;
  accepted.apply(act::kAcceptOffer);
  for (int viewer : {0, 2}) REQUIRE(fewest_in_hand(accepted, viewer, 1, kGalactic) == 1);
  rejected.apply(act::kRejectOffer);
  for (int viewer : {1, 2}) {
    REQUIRE(fewest_in_hand(rejected, viewer, 0, kGalactic) == 1);
    REQUIRE(hand_may_change(rejected, viewer, 0));  // the Metal the giver kept were never shown
  }
}

TEST_CASE("knowledge: Thief: the thief and the victim know the cards taken; the third player does not") {
  State s = position(3, R"({"turn": 1, "hands": [{"metal": 2}, {"thief": 1},
      {"overtime": 1, "security_system": 1, "recycle_bin": 1}]})");
  s.apply(act::thief_one(1));  // two cards from player 2
  REQUIRE(s.area(1).hand_size == 2);
  for (int card : {kOvertime, kSecuritySystem, kRecycleBin}) {
    if (hand(s, 1, card) == 0) continue;
    REQUIRE(known_in_hand(s, 2, 1, card) == 1);  // the victim saw it go
    REQUIRE(known_in_hand(s, 0, 1, card) == 0);
    REQUIRE(fewest_in_hand(s, 2, 1, card) == 1);
    REQUIRE(fewest_in_hand(s, 0, 1, card) == 0);  // player 0 may be dealt another world
  }
  REQUIRE(hand_may_change(s, 0, 1));
  REQUIRE_FALSE(hand_may_change(s, 2, 1));  // the victim knows both stolen cards
}

TEST_CASE("knowledge: a known card that may have left the hand unseen is known no more") {
  // Player 1 takes an Oxygen in view of all; then player 2's Thief takes two of
  // player 1's cards at random. Player 0 did not see which.
  State s = oxygen_taken_from_discard_pile();
  s.apply(act::kStopPlaying);
  s.apply(act::kEndTurn);
  REQUIRE(s.turn_player() == 2);
  REQUIRE(s.step() == Step::kPlay);  // a full hand: nothing to draw
  REQUIRE(known_in_hand(s, 0, 1, kOxygen) == 1);
  s.apply(act::thief_one(2));  // player 1 is two seats after player 2
  REQUIRE(known_in_hand(s, 0, 1, kOxygen) == 0);
  // The thief and the victim saw which cards went: what they know is exact.
  REQUIRE(known_in_hand(s, 2, 1, kOxygen) == hand(s, 1, kOxygen));
  REQUIRE(known_in_hand(s, 1, 2, kOxygen) == hand(s, 2, kOxygen));
  if (hand(s, 1, kOxygen) == 1) REQUIRE(fewest_in_hand(s, 0, 1, kOxygen) == 0);
  if (hand(s, 2, kOxygen) == 1) REQUIRE(fewest_in_hand(s, 1, 2, kOxygen) == 1);
}

TEST_CASE("knowledge: a card played or discarded from a hand lowers only that card's count") {
  State s = oxygen_taken_from_discard_pile();  // player 1: Oxygen (known), Metal x2, Fuel x3
  s.apply(act::kStopPlaying);
  s.apply(act::discard(kMetal));
  REQUIRE(known_in_hand(s, 0, 1, kOxygen) == 1);
  s.apply(act::discard(kOxygen));
  REQUIRE(known_in_hand(s, 0, 1, kOxygen) == 0);
  REQUIRE(s.discard_top() == kOxygen);
}

// Every card not placed elsewhere moves from the draw pile to the discard pile
// (the Launch Pad cards go to player 1's Construction Zone).
static Json everything_discarded(Json doc) {
  Json discard = doc["discard_pile"];
  int pads = 0;
  for (const auto& c : doc["draw_pile"]) {
    if (c == "launch_pad")
      ++pads;
    else
      discard.push_back(c);
  }
  doc["zones"][1]["launch_pads"] = {pads, 0, 0};
  doc["draw_pile"] = Json::array();
  doc["launch_pad_region"] = 0;
  doc["discard_pile"] = discard;
  return doc;
}

// Player 0 of 2 begins its turn with an empty draw pile and every card not in
// a hand on the discard pile.
static State refill_ahead() {
  const Json doc = everything_discarded(complete_document(
      standard(), 2,
      R"({"turn": 1, "step": "discard", "hands": [{"metal": 3}, {"thief": 1, "abort_mission": 1}]})"));
  State s = State::from_json(doc, standard());
  s.apply(act::kEndTurn);
  REQUIRE(s.step() == Step::kDrawChoice);
  return s;
}

TEST_CASE("knowledge: the discard pile shuffled into a new draw pile is known to be there until drawn") {
  State s = refill_ahead();
  std::array<int, kNumCardTypes> before{};  // the discard pile, all of which becomes the draw pile
  for (int i = 0; i < s.discard_pile_size(); ++i) ++before[static_cast<std::size_t>(s.discard_pile_card(i))];
  s.apply(act::kDrawFromPile);  // the draw pile is empty: the discard pile becomes it, then 3 cards are drawn
  REQUIRE(s.discard_pile_size() == 0);
  for (int t = 0; t < kNumCardTypes; ++t) {
    INFO(card_name(t));
    const int left = draw_pile_count(s, t);
    // Player 0 drew the three cards: it knows the draw pile exactly.
    REQUIRE(s.known_count(0, kPlaceDrawPile, t) == left);
    // Player 1 saw three cards go, not which: any type may have lost up to three.
    REQUIRE(s.known_count(1, kPlaceDrawPile, t) == std::max(0, before[static_cast<std::size_t>(t)] - 3));
    REQUIRE(fewest_in_draw_pile(s, 0, t) == left);
    REQUIRE(fewest_in_draw_pile(s, 1, t) >= s.known_count(1, kPlaceDrawPile, t));
  }
  // Knowing the draw pile, player 0 knows player 1's hand too: every resample deals it again.
  REQUIRE_FALSE(hand_may_change(s, 0, 1));
  REQUIRE(hand_may_change(s, 1, 0));  // player 1 did not see what player 0 drew
}

TEST_CASE("observation: the cards a seat knows in the draw pile, as the knowledge model counts them") {
  State s = refill_ahead();
  s.apply(act::kDrawFromPile);  // the discard pile becomes the draw pile, then player 0 draws 3
  for (int viewer = 0; viewer < 2; ++viewer) {
    const auto obs = encode(s, viewer);
    int known = 0;
    for (int t = 0; t < kNumCardTypes; ++t) {
      INFO("viewer " << viewer << ", " << card_name(t));
      CHECK(draw_pile_feature(obs, t) == static_cast<float>(s.known_count(viewer, kPlaceDrawPile, t)));
      known += s.known_count(viewer, kPlaceDrawPile, t);
    }
    if (viewer == 0)
      CHECK(known == s.draw_pile_size());  // it drew the three: it knows the pile
    else
      CHECK(known > 0);  // any type may have lost up to three, not all
    for (int t = 0; t < 10; ++t) REQUIRE(encode(resample(s, viewer, t), viewer) == obs);
  }
}

TEST_CASE(
    "knowledge: a refilled draw pile and the cards drawn from it unseen hold exactly the refill (ruling 6)") {
  // Players 0 and 1 hold every Mission Controller and Jack of All Trades; all
  // other cards but player 2's Metal are in the discard pile. Player 1's turn:
  // the empty draw pile is refilled from the discard pile, and player 1 draws
  // three cards from it that player 2 does not see.
  const Json doc = everything_discarded(complete_document(standard(), 3, R"({"turn": 0, "step": "discard",
      "hands": [{"mission_controller": 5}, {"jack_of_all_trades": 3}, {"metal": 1}]})"));
  State s = State::from_json(doc, standard());
  s.apply(act::kEndTurn);
  REQUIRE(s.step() == Step::kDrawChoice);
  std::array<int, kNumCardTypes> refill{};
  for (int i = 0; i < s.discard_pile_size(); ++i) ++refill[static_cast<std::size_t>(s.discard_pile_card(i))];
  s.apply(act::kDrawFromPile);
  REQUIRE(s.area(1).hand_size == 6);
  REQUIRE(s.discard_pile_size() == 0);
  const auto before_refill = [](int card) { return card == kMissionController || card == kJackOfAllTrades; };
  bool draws_vary = false;
  for (int trial = 0; trial < 200; ++trial) {
    const State w = resample(s, 2, trial);
    // The pile and the cards of the other hands not held before the refill.
    std::array<int, kNumCardTypes> from_refill{};
    for (int i = 0; i < w.draw_pile_size(); ++i) ++from_refill[static_cast<std::size_t>(w.draw_pile_card(i))];
    std::array<int, 2> drawn{};  // per hand, the cards of the refill
    for (int seat = 0; seat < 2; ++seat)
      for (int t = 0; t < kNumCardTypes; ++t)
        if (!before_refill(t)) {
          from_refill[static_cast<std::size_t>(t)] += hand(w, seat, t);
          drawn[static_cast<std::size_t>(seat)] += hand(w, seat, t);
        }
    from_refill[kLaunchPad] = 0;
    INFO("trial " << trial);
    REQUIRE(from_refill == refill);
    REQUIRE(drawn[0] == 0);  // player 0 drew nothing since the refill
    REQUIRE(drawn[1] == 3);  // player 1's three unseen draws
    draws_vary = draws_vary || w.area(1).hand != s.area(1).hand;
  }
  REQUIRE(draws_vary);  // player 2 does not know which three cards player 1 drew
  // Player 1 knows its draws: its resamples hold the rest of the refill in the pile.
  for (int trial = 0; trial < 20; ++trial)
    for (int t = 0; t < kNumCardTypes; ++t)
      if (t != kLaunchPad)
        REQUIRE(draw_pile_count(resample(s, 1, trial), t) ==
                refill[static_cast<std::size_t>(t)] - (before_refill(t) ? 0 : hand(s, 1, t)));
}

TEST_CASE("knowledge: Recycle Bin's ten cards are known to be in the draw pile") {
  State s = position(2, R"({"hands": [{"recycle_bin": 1, "metal": 1}, {"fuel": 2}],
      "discard_pile": ["fuel", "fuel", "overtime", "security_system", "galactic", "galactic", "intrepid",
                       "jack_of_all_trades", "jack_of_all_trades", "vacuum", "thief", "big_red_button"]})");
  s.apply(act::kRecycleBin);
  for (int card : {kOvertime, kSecuritySystem, kVacuum, kThief, kBigRedButton, kIntrepid}) {
    REQUIRE(s.known_count(1, kPlaceDrawPile, card) == 1);
    REQUIRE(fewest_in_draw_pile(s, 1, card) >= 1);
  }
  REQUIRE(s.known_count(1, kPlaceDrawPile, kGalactic) == 2);
  REQUIRE(fewest_in_draw_pile(s, 1, kGalactic) == 2);
  REQUIRE(s.known_count(1, kPlaceDrawPile, kFuel) == 0);  // the two at the bottom stayed in the discard pile
}

TEST_CASE("knowledge: cards a player draws are known to that player only") {
  State s = start_turn(standard(), 2, 1, R"({"hands": [{"metal": 6}, {"fuel": 1}]})");
  REQUIRE(s.area(1).hand_size == 6);
  for (int t = 0; t < kNumCardTypes; ++t) REQUIRE(known_in_hand(s, 0, 1, t) == 0);
  REQUIRE(hand_may_change(s, 0, 1));
  REQUIRE_FALSE(hand_may_change(s, 1, 1));  // a seat's own hand never changes in its resamples
}

TEST_CASE("knowledge: what a seat knows survives the state document; impossible knowledge is refused") {
  const State s = oxygen_taken_from_discard_pile();
  const Json doc = s.to_json();
  REQUIRE(doc["knowledge"][0]["hands"][1] == Json{{"oxygen", 1}});
  const State loaded = State::from_json(doc, standard());
  REQUIRE(loaded.to_json() == doc);
  REQUIRE(known_in_hand(loaded, 2, 1, kOxygen) == 1);
  auto load = [&](const std::function<void(Json&)>& edit) {
    Json d = doc;
    edit(d);
    return State::from_json(d, standard());
  };
  // Left out (a document from before the knowledge model): nobody knows anything.
  const State old = load([](Json& d) { d.erase("knowledge"); });
  REQUIRE(known_in_hand(old, 0, 1, kOxygen) == 0);
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][0]["hands"][1]["oxygen"] = 2; }),
                      Catch::Contains("'knowledge[0].hands[1].oxygen'") && Catch::Contains("holds 1"));
  REQUIRE_THROWS_WITH(load([](Json& d) {
                        d["knowledge"][1]["hands"][1] = {{"metal", 1}};
                      }),
                      Catch::Contains("'knowledge[1].hands[1]'") && Catch::Contains("own hand"));
  REQUIRE_THROWS_WITH(load([](Json& d) {
                        d["knowledge"][2]["draw_pile"] = {{"launch_pad", 1}};
                      }),
                      Catch::Contains("'knowledge[2].draw_pile'"));
  REQUIRE_THROWS_WITH(load([](Json& d) {
                        d["knowledge"][2]["draw_pile"] = {{"surplus", 2}};
                      }),
                      Catch::Contains("'knowledge[2].draw_pile.surplus'"));
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"].erase(2); }),
                      Catch::Contains("'knowledge'") && Catch::Contains("one entry per player"));
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][0]["hands"].push_back(Json::object()); }),
                      Catch::Contains("'knowledge[0].hands'"));
  REQUIRE_THROWS_WITH(load([](Json& d) {
                        d["knowledge"][0]["hands"][2] = {{"unicorn", 1}};
                      }),
                      Catch::Contains("'knowledge[0].hands[2]'") && Catch::Contains("unicorn"));
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][0].erase("draw_pile"); }),
                      Catch::Contains("'knowledge[0].draw_pile'") && Catch::Contains("missing"));
}

TEST_CASE("knowledge: deck cards played face up or taken by Thief from a hand of unseen draws only") {
  // From the deal, every card a seat cannot place is an unseen draw of the deck.
  State s = position(3, R"({"hands": [{"thief": 1, "metal": 1}, {"fuel": 3}, {"oxygen": 2}]})");
  REQUIRE(s.deck_in_hand(2, 0) == 2);
  REQUIRE(s.deck_in_hand(2, 1) == 3);
  const int thieves = s.deck_cards(2, kThief);
  s.apply(act::thief_one(1));  // two cards from player 1, unseen by player 2
  // The Thief card was one of player 0's draws; the two stolen cards stay unseen draws, now in player 0's
  // hand.
  REQUIRE(s.deck_cards(2, kThief) == thieves - 1);
  REQUIRE(s.deck_in_hand(2, 0) == 3);
  REQUIRE(s.deck_in_hand(2, 1) == 1);
  REQUIRE(s.deck_untracked(2) == 0);
  // Player 1 saw its cards go: they are no deck cards to it, they are named in player 0's hand.
  REQUIRE(s.deck_in_hand(1, 0) == 1);
  REQUIRE(known_in_hand(s, 1, 0, kFuel) == 2);
  // A hand mixing unseen draws with named cards plays a card of a type it names: player 2 loses track.
  State t = oxygen_taken_from_discard_pile();  // player 1: the Oxygen named, five cards unseen
  REQUIRE(t.deck_in_hand(2, 1) == 5);
  t.apply(act::kStopPlaying);
  t.apply(act::discard(kOxygen));
  REQUIRE(t.deck_in_hand(2, 1) == 0);
  REQUIRE(t.deck_untracked(2) == 5);
}

TEST_CASE("knowledge: the deck each seat follows survives the state document; impossible decks are refused") {
  // After a refill player 1 drew three cards unseen (as in the test above).
  const Json start = everything_discarded(complete_document(standard(), 3, R"({"turn": 0, "step": "discard",
      "hands": [{"mission_controller": 5}, {"jack_of_all_trades": 3}, {"metal": 1}]})"));
  State s = State::from_json(start, standard());
  s.apply(act::kEndTurn);
  s.apply(act::kDrawFromPile);
  REQUIRE(s.deck_in_hand(2, 1) == 3);
  REQUIRE(s.deck_in_hand(2, 0) == 0);
  REQUIRE(s.deck_in_hand(1, 1) == 0);  // a seat names its own draws
  REQUIRE(s.deck_untracked(2) == 0);
  const Json doc = s.to_json();
  REQUIRE(doc["knowledge"][2]["deck"]["in_hands"] == Json{0, 3, 0});
  const State loaded = State::from_json(doc, standard());
  REQUIRE(loaded.to_json() == doc);
  auto load = [&](const std::function<void(Json&)>& edit) {
    Json d = doc;
    edit(d);
    return State::from_json(d, standard());
  };
  // Left out (a document from before the deck was followed): every card a seat
  // cannot place is a deck card, the other hands' cards unseen draws.
  const State old = load([](Json& d) {
    for (auto& k : d["knowledge"]) k.erase("deck");
  });
  REQUIRE(old.deck_in_hand(2, 0) == 5);
  REQUIRE(old.deck_in_hand(2, 1) == 6);
  REQUIRE(old.deck_cards(2, kMissionController) == 5);
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][2]["deck"]["in_hands"][2] = 1; }),
                      Catch::Contains("'knowledge[2].deck.in_hands[2]'") && Catch::Contains("own draws"));
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][2]["deck"]["in_hands"][1] = 7; }),
                      Catch::Contains("'knowledge[2].deck.in_hands[1]'") && Catch::Contains("out of range"));
  REQUIRE_THROWS_WITH(
      load([](Json& d) {
        d["knowledge"][2]["deck"]["in_hands"] = Json{0, 3};
      }),
      Catch::Contains("'knowledge[2].deck.in_hands'") && Catch::Contains("one entry per player"));
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][2]["deck"]["cards"]["launch_pad"] = 1; }),
                      Catch::Contains("'knowledge[2].deck.cards'"));
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][2]["deck"]["cards"]["metal"] = 500; }),
                      Catch::Contains("'knowledge[2].deck.cards.metal'") && Catch::Contains("out of range"));
  // A deck that does not add up to the pile, the unseen draws and the untracked cards.
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][2]["deck"]["untracked"] = 2; }),
                      Catch::Contains("'knowledge[2].deck'") && Catch::Contains("holds"));
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][2]["deck"]["untracked"] = -1; }),
                      Catch::Contains("'knowledge[2].deck.untracked'"));
  // The pile holding more of a card than the deck.
  REQUIRE_THROWS_WITH(load([](Json& d) {
                        d["knowledge"][2]["deck"]["cards"]["fuel"] = 0;
                        d["knowledge"][2]["deck"]["untracked"] = 30;
                      }),
                      Catch::Contains("'knowledge[2].deck'") && Catch::Contains("more Fuel than the deck"));
  // Deck cards that are neither hidden from player 2 nor untracked (player 2 holds the 28th Metal).
  REQUIRE_THROWS_WITH(
      load([](Json& d) {
        d["knowledge"][2]["deck"]["cards"]["metal"] =
            d["knowledge"][2]["deck"]["cards"]["metal"].get<int>() + 2;
        d["knowledge"][2]["deck"]["in_hands"] = Json{2, 3, 0};
      }),
      Catch::Contains("'knowledge[2].deck'") && Catch::Contains("neither hidden nor untracked"));
  REQUIRE_THROWS_WITH(load([](Json& d) { d["knowledge"][2]["deck"].erase("cards"); }),
                      Catch::Contains("'knowledge[2].deck.cards'") && Catch::Contains("missing"));
}

TEST_CASE("knowledge: resamples keep every seat's knowledge true, in random games of every variant") {
  for (const char* variant : {"", "variants: {super_powers: true}\n", "variants: {negotiations: true}\n",
                              "variants: {long_game: true}\n", "variants: {short_game: true}\n"}) {
    const Config config = load(variant);
    for (int players = 2; players <= 4; ++players) {
      State s(config, players, 1000 + static_cast<uint64_t>(players));
      Rng rng(players);
      int known_elsewhere = 0;
      for (int step = 0; !s.is_terminal(); ++step) {
        if (step % 7 == 0) {
          const int viewer = static_cast<int>(rng.below(static_cast<uint32_t>(players)));
          CardPlaces known;
          s.known_card_places(viewer, known);
          const State r = resample(s, viewer, step);
          CardPlaces truth;
          r.card_places(truth);
          REQUIRE(first_unsupported(known, truth) == nullptr);
          for (const CardPlace& c : known)
            known_elsewhere += c.place < kMaxPlayers && c.place != kPlaceHand + viewer;
        }
        s.apply(heuristic_action(s, rng));
      }
      INFO(variant << players << " players");
      REQUIRE(known_elsewhere > 0);  // the games did show cards entering other hands
    }
  }
}

// Issue 55 (ruling 16, ruling 20): Recycle Bin shuffles face-up discards into
// the draw pile. Until they are drawn, every seat knows they are in the pile
// or among the cards that went into a hand unseen since: a hand that took no
// card unseen holds none of them in any resample.
TEST_CASE("knowledge: Recycle Bin's cards are in the pile or in a hand that drew since, in every resample") {
  State s = position(3, R"({"turn": 0, "step": "play",
      "hands": [{"recycle_bin": 1, "engineer": 1, "metal": 2, "fuel": 1},
                {"fuel": 2, "oxygen": 1, "thief": 1},
                {"fuel": 1, "explorer": 1, "astronaut": 1, "metal": 1, "inspector": 1, "salvage": 1}],
      "discard_pile": ["observer", "metal", "fuel", "galactic", "oxygen", "fuel", "galactic", "metal",
                       "intrepid", "fuel", "astronaut"]})");
  s.apply(act::kRecycleBin);
  for (int v = 0; v < 3; ++v) {
    REQUIRE(s.deck_recycled(v, kGalactic) == 2);
    REQUIRE(s.deck_recycled(v, kFuel) == 3);
    REQUIRE(s.deck_fresh_in_hand(v, 1) == 0);
  }
  s.apply(act::kStopPlaying);
  s.apply(act::kEndTurn);
  REQUIRE(s.turn_player() == 1);
  s.apply(act::kDrawFromPile);  // seat 1 draws two cards, unseen by seats 0 and 2
  REQUIRE(s.area(1).hand_size == 6);
  REQUIRE(s.deck_fresh_in_hand(2, 1) == 2);
  REQUIRE(s.deck_fresh_in_hand(2, 0) == 0);
  REQUIRE(s.deck_fresh_in_hand(1, 1) == 0);  // a seat sees its own draws
  // Seat 2 follows the Galactics: in the pile or among seat 1's two draws,
  // never in seat 0's hand, which took nothing unseen since.
  int in_seat_1 = 0;
  for (int t = 0; t < kTrials; ++t) {
    const State world = resample(s, 2, t);
    REQUIRE(hand(world, 0, kGalactic) == 0);
    REQUIRE(draw_pile_count(world, kGalactic) + hand(world, 1, kGalactic) == 2 - hand(s, 2, kGalactic));
    in_seat_1 += hand(world, 1, kGalactic);
  }
  CHECK(in_seat_1 > 0);  // the draws may hold them
  // The document keeps what each seat follows; one that claims the impossible is refused.
  const Json doc = s.to_json();
  REQUIRE(doc["knowledge"][2]["deck"]["recycled"]["galactic"] == s.deck_recycled(2, kGalactic));
  REQUIRE(doc["knowledge"][2]["deck"]["fresh_in_hands"] == Json{0, 2, 0});
  REQUIRE(State::from_json(doc, standard()).to_json() == doc);
  Json own = doc;
  own["knowledge"][2]["deck"]["fresh_in_hands"][2] = 1;
  REQUIRE_THROWS_WITH(
      State::from_json(own, standard()),
      Catch::Contains("'knowledge[2].deck.fresh_in_hands[2]'") && Catch::Contains("own hand"));
  Json more = doc;
  more["knowledge"][2]["deck"]["recycled"]["galactic"] = 40;
  REQUIRE_THROWS_WITH(State::from_json(more, standard()),
                      Catch::Contains("'knowledge[2].deck'") && Catch::Contains("more recycled Galactic"));
}
