// The Last Blast: FLIGHT PHASE, DAMAGE REDUCTION, the end and the ALTERNATE
// RULE (rulings 4-9), each on a hand-written position.
#include <catch2/catch.hpp>
#include <set>

#include "encoders/last_blast/last_blast_encoder.h"
#include "tests/last_blast/last_blast_test_util.h"

using namespace rocketgym;
using namespace rocketgym::last_blast;
using namespace rocketgym::last_blast::test;

namespace {

// Two players (3 rows). Columns: 1 D,H,C  2 H,C,B  3 C,B,W  4 B,W,A
// 5 W,A,D  6 A,D,H  7 D,H,C (rows 1-3, D drop=1 H hammers=2 C circles=3
// B bricks=4 W wheel=5 A arrow=6).
const std::vector<std::string> kField2 = {"DHCBWAD", "HCBWADH", "CBWADHC"};
// Three players (4 rows). Column 1 is all drop; column 2 H,C,B,W; column 3
// C,B,W,A; column 7 H,C,B,W.
const std::vector<std::string> kField3 = {"DHCBWAH", "DCBWAHC", "DBWAHCB", "DWAHCBW"};

std::vector<Action> legal_actions(const State& s) {
  std::vector<Action> out;
  for (Action a = 0; a < kNumActions; ++a)
    if (s.is_legal(a)) out.push_back(a);
  return out;
}

std::vector<float> returns_of(const State& s) {
  std::vector<float> out(static_cast<std::size_t>(s.num_players()));
  s.returns(out.data());
  return out;
}

// The last pick of the draft: every rocket has 11 cards (front given), every
// hand two cards. Each player then adds their first card at the back.
State start_of_flight(const std::vector<std::string>& fronts, uint64_t rng_word) {
  FlightSetup f;
  f.field = fronts.size() == 2 ? kField2 : kField3;
  for (const auto& front : fronts) {
    f.rockets.push_back({front});
    f.sizes.push_back(11);
  }
  Json doc = f.document();
  doc["phase"] = "draft";
  doc["rng"] = rng_to_json(Rng(rng_word));
  for (const auto& card : doc["lost"]) doc["deck"].push_back(card);  // nothing lost yet
  doc["lost"] = Json::array();
  Json hands = Json::array();
  for (std::size_t p = 0; p < fronts.size(); ++p) {
    Json hand = Json::array();
    for (int k = 0; k < 2; ++k) {
      hand.push_back(doc["deck"].back());
      doc["deck"].erase(doc["deck"].size() - 1);
    }
    hands.push_back(hand);
  }
  doc["draft"]["hands"] = hands;
  doc["draft"]["pick"] = 3;
  doc["flight"]["mover"] = -1;
  State s = State::from_json(doc, standard_config());
  for (std::size_t p = 0; p < fronts.size(); ++p)
    s.apply(kPickBase + 2 * s.hand_card(static_cast<int>(p), 0) + kBack);
  REQUIRE(s.phase() == Phase::kFlight);
  return s;
}

// Round 2 of a two-player flight: player 1, the Start Player ("red 2 circles"
// in front), has moved into column 2, row 1; player 0 (`front` in front), still
// in column 1, row 1, is to move.
State player_1_moved_into_column_2(const std::string& front) {
  FlightSetup f{kField2, {{front}, {"red 2 circles"}}, {12, 12}, {{{0, 0}}, {{0, 1}}}, {}, {false, true}};
  f.round = 1;
  f.start_player = 1;
  return f.build();
}

}  // namespace

TEST_CASE("flight: the smallest printed number on a front card takes the Start Player token",
          "[last_blast][flight]") {
  const State s = start_of_flight({"amber 5 drop", "red 2 wheel", "green 1 arrow"}, 1);
  REQUIRE(s.start_player() == 2);
  REQUIRE(s.current_player() == 2);
  REQUIRE(s.round() == 0);
  for (int p = 0; p < 3; ++p) REQUIRE(s.rocket(p).size == 12);
}

TEST_CASE("flight: a tie for the Start Player is broken at random among the tied", "[last_blast][flight]") {
  std::set<int> starts;
  for (uint64_t word = 1; word <= 60; ++word)
    starts.insert(start_of_flight({"red 1 drop", "green 1 wheel", "amber 4 drop"}, word).start_player());
  REQUIRE(starts == std::set<int>{0, 1});
}

TEST_CASE("flight: entering column 1 costs no jump damage, only collision damage", "[last_blast][flight]") {
  FlightSetup f{kField2, {{"amber 4 wheel"}, {"amber 4 drop"}}, {12, 12}};
  const State s = f.build();
  // Wheel (5) against drop (1): 4; against hammers (2): 3; circles (3): 2.
  REQUIRE(s.jump_damage(0, 2) == 0);
  REQUIRE(s.move_damage(0, 0) == 4);
  REQUIRE(s.move_damage(0, 1) == 3);
  REQUIRE(s.move_damage(0, 2) == 2);
}

TEST_CASE("flight: matching symbols mean no damage", "[last_blast][flight]") {
  State s = FlightSetup{kField2, {{"amber 4 drop"}, {"amber 4 hammers"}}, {12, 12}}.build();
  s.apply(move_to_row(0));
  REQUIRE(s.rocket(0).size == 12);
  REQUIRE(s.current_player() == 1);
  REQUIRE(s.cube_row(0) == 0);
  REQUIRE(s.cube_column(0) == 0);
}

TEST_CASE("flight: jump damage is one per row changed", "[last_blast][flight]") {
  // Column 2 holds hammers, circles, bricks. The rocket is in row 1.
  FlightSetup f{kField2, {{"amber 4 circles"}, {"amber 4 drop"}}, {12, 12}, {{{0, 0}}, {{2, 0}}}};
  f.round = 1;
  const State s = f.build();
  REQUIRE(s.jump_damage(0, 0) == 0);
  REQUIRE(s.move_damage(0, 0) == 0 + 1);  // circles vs hammers
  REQUIRE(s.jump_damage(0, 1) == 1);
  REQUIRE(s.move_damage(0, 1) == 1 + 0);
  REQUIRE(s.jump_damage(0, 2) == 2);
  REQUIRE(s.move_damage(0, 2) == 2 + 1);  // circles vs bricks
}

TEST_CASE("flight: a red Jump Boost front card takes its number off the jump damage only",
          "[last_blast][flight]") {
  // Player 1, the Start Player, has moved; player 0 is to move.
  const State s = player_1_moved_into_column_2("red 1 drop");
  // Player 0: from row 1 to row 3 (bricks): jump 2 - 1, collision 3 in full.
  REQUIRE(s.jump_damage(0, 2) == 1);
  REQUIRE(s.collision_damage(0, 2) == 3);
  REQUIRE(s.move_damage(0, 2) == 4);
  // A boost bigger than the jump leaves no jump damage (minimum 0).
  REQUIRE(player_1_moved_into_column_2("red 3 drop").jump_damage(0, 2) == 0);
}

TEST_CASE("flight: a green Shield front card takes its number off the collision damage only",
          "[last_blast][flight]") {
  FlightSetup f{kField2, {{"green 1 drop"}, {"green 2 drop"}}, {12, 12}, {{{0, 0}}, {{1, 0}}}};
  f.round = 1;
  const State s = f.build();
  // Drop (1) vs bricks (4) in row 3: 3 - 1 = 2; the jump of 2 in full.
  REQUIRE(s.collision_damage(0, 2) == 2);
  REQUIRE(s.jump_damage(0, 2) == 2);
  REQUIRE(s.move_damage(0, 2) == 4);
  // Green 2 against hammers (1 apart): nothing left.
  REQUIRE(s.collision_damage(1, 0) == 0);
}

TEST_CASE("flight: an amber science front card reduces nothing", "[last_blast][flight]") {
  FlightSetup f{kField2, {{"amber 6 drop"}, {"amber 4 drop"}}, {12, 12}, {{{0, 0}}, {{1, 0}}}};
  f.round = 1;
  f.start_player = f.mover = 1;  // the lower front number
  const State s = f.build();
  REQUIRE(s.jump_damage(0, 2) == 2);
  REQUIRE(s.collision_damage(0, 2) == 3);
}

TEST_CASE("flight: damage is worked out with the front card at the start of the turn",
          "[last_blast][flight]") {
  // The shield is the first card lost, yet it still reduces this turn's damage.
  FlightSetup f{
      kField2, {{"green 1 drop", "amber 6 arrow"}, {"amber 4 drop"}}, {12, 12}, {{{0, 0}}, {{1, 0}}}};
  f.round = 1;
  State s = f.build();
  s.apply(move_to_row(2));  // jump 2 + (3 - 1) collision = 4, not 2 + 5
  REQUIRE(s.rocket(0).size == 10);
  REQUIRE(s.damage_left() == 2);
}

TEST_CASE("flight: the 1st card lost is the front, the 2nd the back, then the player chooses",
          "[last_blast][flight]") {
  FlightSetup f{kField2, {{"amber 4 wheel", "amber 5 wheel", "amber 6 wheel"}, {"amber 4 drop"}}, {12, 12}};
  State s = f.build();
  const Rocket before = s.rocket(0);
  s.apply(move_to_row(0));  // wheel vs drop: 4 damage
  REQUIRE(s.rocket(0).size == 10);
  REQUIRE(s.rocket(0).front() == card("amber 5 wheel"));
  REQUIRE(s.rocket(0).back() == before.card[10]);
  REQUIRE(s.current_player() == 0);
  REQUIRE(s.awaiting_removal_choice());
  REQUIRE(legal_actions(s) == std::vector<Action>{kRemoveFront, kRemoveBack});
  s.apply(kRemoveBack);
  REQUIRE(s.rocket(0).back() == before.card[9]);
  s.apply(kRemoveFront);
  REQUIRE(s.rocket(0).front() == card("amber 6 wheel"));
  REQUIRE(s.rocket(0).size == 8);
  REQUIRE(s.lost_size() == 4);
  REQUIRE(s.current_player() == 1);
}

TEST_CASE("flight: losing the last card explodes the rocket, which leaves the field",
          "[last_blast][flight]") {
  // Three players; player 0's 3-card rocket takes 5 damage entering column 1.
  FlightSetup f{kField3,
                {{"amber 4 arrow", "amber 5 arrow", "amber 6 arrow"}, {"amber 5 drop"}, {"amber 6 drop"}},
                {0, 12, 12}};
  State s = f.build();
  s.apply(move_to_row(0));  // no removal choice is asked: everything goes
  REQUIRE(s.status(0) == Status::kExploded);
  REQUIRE(s.rocket(0).size == 0);
  REQUIRE(s.cube_row(0) == -1);
  REQUIRE(s.current_player() == 1);
  // The tile is free again.
  REQUIRE(s.is_legal(move_to_row(0)));
  s.apply(move_to_row(0));
  s.apply(move_to_row(1));
  // Next round: only players 1 and 2 take turns.
  REQUIRE(s.round() == 1);
  REQUIRE(s.start_player() != 0);
  const int first = s.current_player();
  s.apply(move_to_row(first == 1 ? 0 : 1));
  REQUIRE(s.current_player() == 3 - first);
}

TEST_CASE("flight: a tile taken this round is not free; the rocket behind must change rows",
          "[last_blast][flight]") {
  // Player 0 has moved into row 2 of column 2, right in front of player 1.
  FlightSetup f{kField2,      {{"amber 4 hammers"}, {"amber 4 circles"}}, {12, 12}, {{{1, 1}}, {{1, 0}}}, {},
                {true, false}};
  f.round = 1;
  f.mover = 1;
  const State s = f.build();
  REQUIRE_FALSE(s.is_legal(move_to_row(1)));
  REQUIRE(s.is_legal(move_to_row(0)));
  REQUIRE(s.is_legal(move_to_row(2)));
  REQUIRE(s.jump_damage(1, 0) == 1);
  // In column 1 too, two cubes never share a tile.
  FlightSetup g{kField2,      {{"amber 4 drop"}, {"amber 5 drop"}}, {12, 12}, {{{0, 0}}, {{-1, -1}}}, {},
                {true, false}};
  g.mover = 1;
  REQUIRE_FALSE(g.build().is_legal(move_to_row(0)));
}

TEST_CASE("flight: turns go clockwise from the Start Player", "[last_blast][flight]") {
  FlightSetup f{kField3, {{"amber 6 drop"}, {"amber 5 drop"}, {"amber 4 drop"}}, {12, 12, 12}};
  f.start_player = 2;  // the lowest front number
  f.mover = 2;
  State s = f.build();
  std::vector<int> order;
  for (int k = 0; k < 3; ++k) {
    order.push_back(s.current_player());
    s.apply(move_to_row(k));
  }
  REQUIRE(order == std::vector<int>{2, 0, 1});
}

TEST_CASE("flight: after a round the token goes to fewest cards, then lowest front number, then clockwise",
          "[last_blast][flight]") {
  // Round 1 ends with the move of the player before the holder (no damage:
  // their front card matches the drop tiles of column 1, or shields it).
  const auto after_round = [](std::vector<int> sizes, int holder, std::vector<std::string> fronts = {}) {
    if (fronts.empty()) fronts = {"amber 5 hammers", "amber 5 circles", "amber 5 drop"};
    FlightSetup f{kField3, {{fronts[0]}, {fronts[1]}, {fronts[2]}}, sizes};
    const int last = (holder + 2) % 3;
    for (int p = 0; p < 3; ++p) {
      f.cubes.push_back(p == last ? std::array<int, 2>{-1, -1} : std::array<int, 2>{p, 0});
      f.moved.push_back(p != last);
    }
    f.start_player = holder;
    f.mover = last;
    State s = f.build();
    s.apply(move_to_row(last));
    REQUIRE(s.round() == 1);
    return s.start_player();
  };
  SECTION("fewest cards") { REQUIRE(after_round({10, 8, 12}, 0) == 1); }
  SECTION("then the lowest printed number on the front card") {
    REQUIRE(after_round({9, 9, 12}, 0, {"amber 5 hammers", "red 2 circles", "amber 4 drop"}) == 1);
    REQUIRE(after_round({9, 9, 12}, 0, {"red 1 hammers", "red 2 circles", "amber 4 drop"}) == 0);
  }
  SECTION("then the next tied player clockwise from the holder, the holder last") {
    const std::vector<std::string> ones = {"green 1 hammers", "red 1 drop", "green 1 drop"};
    REQUIRE(after_round({9, 9, 9}, 0, ones) == 1);
    REQUIRE(after_round({9, 9, 9}, 1, ones) == 2);
    REQUIRE(after_round({9, 12, 9}, 2, ones) == 0);
    REQUIRE(after_round({9, 12, 9}, 0, ones) == 2);
  }
}

TEST_CASE("flight: the last rocket standing after a whole round wins at once", "[last_blast][flight][end]") {
  // Column 3: circles, bricks, wheel, arrow. Players 0 and 1 have one card
  // left and will collide; player 2 (fewest points) flies on.
  FlightSetup f{kField3, {{"amber 6 drop"}, {"amber 6 hammers"}, {"red 1 wheel", "red 1 arrow"}}};
  f.cubes = {{{0, 1}}, {{1, 1}}, {{2, 1}}};
  f.round = 2;
  State s = f.build();
  s.apply(move_to_row(0));
  REQUIRE(s.status(0) == Status::kExploded);
  REQUIRE_FALSE(s.is_terminal());  // player 2 has not yet had a turn
  s.apply(move_to_row(1));
  s.apply(move_to_row(2));
  REQUIRE(s.is_terminal());
  REQUIRE(s.current_player() == -1);
  const auto r = returns_of(s);
  REQUIRE(r[2] == Approx(1.0));
  REQUIRE(r[0] == Approx(-0.5));
  REQUIRE(r[1] == Approx(-0.5));
}

TEST_CASE("flight: if the last rockets all explode in the same round, the game is a draw",
          "[last_blast][flight][end]") {
  FlightSetup f{kField2, {{"amber 5 drop"}, {"amber 6 drop"}}};
  f.cubes = {{{0, 1}}, {{1, 1}}};
  f.round = 2;
  State s = f.build();
  s.apply(move_to_row(0));  // drop vs circles: explodes
  REQUIRE_FALSE(s.is_terminal());
  s.apply(move_to_row(1));  // drop vs bricks: explodes
  REQUIRE(s.is_terminal());
  REQUIRE(returns_of(s) == std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("end: after column 7 the rockets exit and the highest printed total wins", "[last_blast][end]") {
  // Column 7: drop, hammers, circles. Player 0 has exited the last column's
  // turn already; player 1 moves without damage.
  const auto finish = [](std::vector<std::string> rocket1) {
    FlightSetup f{kField2, {{"amber 6 drop", "amber 6 wheel"}, rocket1}};
    f.cubes = {{{0, 6}}, {{1, 5}}};
    f.moved = {true, false};
    f.round = 6;
    f.mover = 1;
    State s = f.build();
    s.apply(move_to_row(1));
    REQUIRE(s.is_terminal());
    REQUIRE(s.status(0) == Status::kExited);
    REQUIRE(s.status(1) == Status::kExited);
    return s;
  };
  SECTION("12 points beat 9") {
    const State s = finish({"amber 5 hammers", "amber 4 drop"});
    std::vector<int> scores(2);
    s.scores(scores.data());
    REQUIRE(scores == std::vector<int>{12, 9});
    REQUIRE(returns_of(s) == std::vector<float>{1.0f, -1.0f});
  }
  SECTION("equal totals share the win") {
    REQUIRE(returns_of(finish({"amber 6 hammers", "amber 6 arrow"})) == std::vector<float>{0.0f, 0.0f});
  }
}

TEST_CASE("end: exploded rockets rank below every rocket that exited", "[last_blast][end]") {
  // Column 7 (3 players): hammers, circles, bricks, wheel.
  FlightSetup f{kField3, {{"red 1 hammers"}, {"amber 6 circles", "amber 6 arrow"}, {}}};
  f.status = {"flying", "flying", "exploded"};
  f.cubes = {{{0, 5}}, {{1, 5}}, {{-1, -1}}};
  f.round = 6;
  State s = f.build();
  s.apply(move_to_row(0));
  s.apply(move_to_row(1));
  REQUIRE(s.is_terminal());
  const auto r = returns_of(s);
  REQUIRE(r[1] == Approx(1.0));  // 12 points
  REQUIRE(r[0] == Approx(0.0));  // 1 point, beats the exploded player
  REQUIRE(r[2] == Approx(-1.0));
}

TEST_CASE("alternate rule: an exploded cube moves on each round and blocks its row",
          "[last_blast][alternate]") {
  FlightSetup f{
      kField3, {{"amber 4 arrow", "amber 5 arrow"}, {"amber 5 drop"}, {"amber 6 drop"}}, {0, 12, 12}};
  SECTION("off by default: the cube leaves the field") {
    State s = f.build();
    s.apply(move_to_row(0));
    REQUIRE(s.cube_row(0) == -1);
    REQUIRE(s.is_legal(move_to_row(0)));
  }
  SECTION("on: the cube stays, moves forward before the Start Player's turn, and blocks") {
    State s = f.build(alternate_config());
    s.apply(move_to_row(0));
    REQUIRE(s.status(0) == Status::kExploded);
    REQUIRE(s.cube_row(0) == 0);
    REQUIRE(s.cube_column(0) == 0);
    REQUIRE_FALSE(s.is_legal(move_to_row(0)));
    s.apply(move_to_row(1));
    s.apply(move_to_row(2));
    REQUIRE(s.round() == 1);
    REQUIRE(s.cube_row(0) == 0);
    REQUIRE(s.cube_column(0) == 1);
    // No cards left: player 0 cannot take the Start Player token.
    REQUIRE(s.start_player() != 0);
    REQUIRE_FALSE(s.is_legal(move_to_row(0)));
    // The row still counts for jump damage: row 2 to row 4 is 2 rows.
    REQUIRE(s.jump_damage(1, 3) == 2);
  }
}

TEST_CASE("alternate rule: an exploded cube blocks column 7 too, and cannot win", "[last_blast][alternate]") {
  // Player 0's cube has moved on into column 7 (row 4) before this round.
  FlightSetup f{kField3, {{}, {"amber 4 hammers"}, {"amber 5 circles"}}};
  f.status = {"exploded", "flying", "flying"};
  f.cubes = {{{3, 6}}, {{0, 5}}, {{1, 5}}};
  f.round = 6;
  f.start_player = 1;
  f.mover = 1;
  State s = f.build(alternate_config());
  REQUIRE_FALSE(s.is_legal(move_to_row(3)));
  s.apply(move_to_row(0));
  s.apply(move_to_row(1));
  REQUIRE(s.is_terminal());
  REQUIRE(s.status(1) == Status::kExited);
  std::vector<float> r(3);
  s.returns(r.data());
  REQUIRE(r[0] == Approx(-1.0));
}

TEST_CASE("encoder: the next-step block gives each seat's damage per row of its next column",
          "[last_blast][flight]") {
  // Player 1 has moved into column 2 (row 1); player 0, still in column 1, is to move.
  const State s = player_1_moved_into_column_2("red 1 drop");
  std::vector<float> obs(static_cast<std::size_t>(Encoder::kSize));
  Encoder::encode(s, 0, obs.data());
  // The block is 4 seats × 5 rows (issue 31: the layout of a 4-player table); 3 rows are used here.
  const int per_seat = kMaxRows * Encoder::kNextStepFeatures;
  const int next_at = Encoder::kSize - kPlayerCountFeatures - kMaxPlayers * per_seat;
  const float* next = obs.data() + next_at;
  // The viewer enters column 2: the rule's move damage, and row 1 is taken by player 1.
  for (int r = 0; r < 3; ++r) {
    CHECK(next[r * 2] == s.move_damage(0, r) / 12.0f);
    CHECK(next[r * 2 + 1] == (r == 0 ? 1.0f : 0.0f));
  }
  // Player 1 (offset 1) next enters column 3 (circles, bricks, wheel) from row 1 with a
  // Jump Boost of 2: damage 0, 0 + 1, 0 + 2.
  const float* other = next + per_seat;
  CHECK(other[0] == 0.0f);
  CHECK(other[2] == 1.0f / 12.0f);
  CHECK(other[4] == 2.0f / 12.0f);
  // Seen from player 1, the blocks swap places.
  std::vector<float> theirs(obs.size());
  Encoder::encode(s, 1, theirs.data());
  const float* their_next = theirs.data() + next_at;
  for (int i = 0; i < per_seat; ++i) CHECK(their_next[i] == other[i]);
  // Rows 3 and 4 and seats +2 and +3 are not at a 2-player table: zero.
  for (int i = 3 * Encoder::kNextStepFeatures; i < per_seat; ++i) CHECK(next[i] == 0.0f);
  for (int i = 2 * per_seat; i < kMaxPlayers * per_seat; ++i) CHECK(next[i] == 0.0f);
}

TEST_CASE(
    "flight: the rulebook's examples: row 4 to row 1 is 3 Jump Damage, lost front, back, then by choice",
    "[last_blast][flight]") {
  // Three players (4 rows). Player 0 is in row 4 of column 1 and jumps to row 1 of column 2
  // (hammers, matching the front card: no collision damage).
  FlightSetup f{kField3,
                {{"amber 4 hammers"}, {"amber 5 drop"}, {"amber 6 drop"}},
                {12, 12, 12},
                {{{3, 0}}, {{1, 0}}, {{2, 0}}}};
  f.round = 1;
  State s = f.build();
  REQUIRE(s.jump_damage(0, 0) == 3);
  REQUIRE(s.collision_damage(0, 0) == 0);
  const Rocket before = s.rocket(0);
  s.apply(move_to_row(0));
  // "removes the card from the front, the card from the back, and then chooses"
  REQUIRE(s.rocket(0).size == 10);
  REQUIRE(s.rocket(0).front() == before.card[1]);
  REQUIRE(s.rocket(0).back() == before.card[10]);
  REQUIRE(legal_actions(s) == std::vector<Action>{kRemoveFront, kRemoveBack});
  s.apply(kRemoveBack);
  REQUIRE(s.rocket(0).back() == before.card[9]);
  REQUIRE(s.current_player() == 1);
  // A red Jump Boost 2 in front takes 2 off the same jump.
  FlightSetup g = f;
  g.rockets[0] = {"red 2 hammers"};
  REQUIRE(g.build().jump_damage(0, 0) == 1);
}
