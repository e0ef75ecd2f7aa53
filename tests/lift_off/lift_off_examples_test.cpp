// The rulebook's worked examples, reproduced as positions.
#include "tests/lift_off/lift_off_test_util.h"

using namespace lift_off_test;

TEST_CASE("rulebook launch example: Supply Ship and Solar Collector on one launch in phase 2",
          "[lift_off][example]") {
  // Lab level 3, three capacity upgrades (capacity 4) and two propulsion
  // upgrades (cost 5 + 3 - 2 = 6). The Propulsion Engineer (extra launch,
  // -2 cost) and a +1 capacity banner were played this round. Four money.
  Position pos(2);
  pos.at("launch", 0, 5)
      .set(0, "lab_level", 3)
      .set(0, "capacity_upgrades", 3)
      .set(0, "propulsion_upgrades", 2)
      .set(0, "money", 4)
      .set(0, "vp", 50)
      .tech(0, 3, 3, 2, 1)
      .mission(0, "M2-01", "earth")
      .mission(0, "M3-01", "earth")
      .specialist(0, "S01", "played")
      .specialist(0, "S08", "played");
  // Player 1 can launch too, so the round pauses at their launch.
  pos.set(1, "money", 10).tech(1, 1, 0, 0, 0).mission(1, "M1-01", "earth");
  State s = pos.state();
  REQUIRE(s.capacity(0) == 4);
  REQUIRE(s.launch_cost(0) == 6);
  REQUIRE_FALSE(s.is_legal(A::kLaunchWithLab));  // 6 money needed, 4 held
  act(s, A::kLaunchWithExtra);                   // 6 - 2 = 4
  act(s, A::kLoadMission + mis("M2-01"));        // level 2 <= lab 3; 3 red + 1 yellow
  act(s, A::kLoadMission + mis("M3-01"));        // 3 yellow + 2 blue + 1 green; 3 + 2 = 5 with the banner
  REQUIRE_FALSE(s.is_legal(A::kLiftOff));        // 5 > capacity 4 until the banner is used
  act(s, A::kApplyCapacity + 0);
  act(s, A::kLiftOff);
  const Player& p = s.player(0);
  CHECK(p.money == 0);
  CHECK(p.vp == 50 + 5 + 5 + 4);  // level 3 lab in phase 2 = 5; Supply Ship 5; Solar Collector 4
  CHECK(p.tech[kBlue] == 3);      // Supply Ship: +1 blue
  CHECK(in_space(s, 0, "M2-01") == 1);
  CHECK(in_space(s, 0, "M3-01") == 1);
  CHECK(p.num_earth == 0);
  // The lab's launch symbol is left, but a launch costs 6 and the money is gone.
  CHECK_FALSE(p.lab_symbol_used);
  CHECK(s.current_player() == 1);
  CHECK(s.step() == Step::kLaunch);
  // Solar Collector at final scoring: 3 VP per yellow.
  CHECK(s.hourglass_points(0) == 9);
}

TEST_CASE("rulebook final scoring example: 59 + 36 + 12 + 2", "[lift_off][example]") {
  Position pos(2);
  pos.at("launch", 0, 8).set(0, "income", 8).set(0, "money", 11).tech(0, 0, 5, 0, 4);
  for (const char* id : {"M3-01", "M2-02", "M2-02", "M2-03", "M2-05", "M2-06", "M2-07", "M4-01"})
    pos.mission(0, id, "space");
  pos.objectives(0, {"O01", "O06"}).discard_objective(0, "O20");  // one discarded at phase 2
  pos.mission(0, "M1-01", "earth");  // something to launch, so the position is a decision
  State s = pos.state();
  // 1. Hourglass missions: Solar Collector 5 yellow x 3 = 15; two Trading
  //    Posts at income 8: 2 x 3 x (8 - 4) = 24; Colony Ship 4 green x 5 = 20.
  CHECK(s.hourglass_points(0) == 15 + 24 + 20);
  // 2. Objectives: five yellow = 11; seven level 2/3 missions with a level 3 = 25.
  CHECK(s.objective_points(0, obj("O01")) == 11);
  CHECK(s.objective_points(0, obj("O06")) == 25);
  // 3. Four green x 3 = 12; 11 money = 2.
  CHECK(s.final_score(0) == 59 + 36 + 12 + 2);
}

TEST_CASE("rulebook objective example: Orbital Operations counts level 2 and 3, needs a level 3",
          "[lift_off][example]") {
  Position pos(4);
  for (const char* id : {"M2-01", "M2-03", "M2-04", "M2-05", "M2-06"}) pos.mission(0, id, "space");
  CHECK(pos.state().objective_points(0, obj("O06")) == 0);  // five, but no level 3
  pos.mission(0, "M3-01", "space");
  CHECK(pos.state().objective_points(0, obj("O06")) == 12);  // six with a level 3
  pos.mission(0, "M3-02", "space");
  CHECK(pos.state().objective_points(0, obj("O06")) == 25);  // seven or more
  pos.mission(0, "M4-01", "space").mission(0, "M1-01", "space");
  CHECK(pos.state().objective_points(0, obj("O06")) == 25);  // levels 1 and 4 do not count
}

TEST_CASE("rulebook objective example: Station Builder 2 / 3 / 4+ investments", "[lift_off][example]") {
  Position pos(2);
  const int expected[] = {0, 0, 6, 18, 30, 30};
  for (int n = 0; n <= 5; ++n) {
    pos.set(0, "station_investments", n);
    CHECK(pos.state().objective_points(0, obj("O08")) == expected[n]);
  }
}

TEST_CASE("rulebook objective example: Energy Grid 3 / 4-6 / 7+ yellow", "[lift_off][example]") {
  Position pos(2);
  const int expected[] = {0, 0, 0, 3, 11, 11, 11, 25, 25};
  for (int n = 0; n <= 8; ++n) {
    pos.tech(0, 9, n, 9, 9);  // other colours do not count
    CHECK(pos.state().objective_points(0, obj("O01")) == expected[n]);
  }
}

TEST_CASE("rulebook objective example: Rocket Engineering counts capacity + propulsion upgrades",
          "[lift_off][example]") {
  Position pos(2);
  const int expected[] = {0, 0, 0, 0, 5, 15, 15, 20, 20, 20, 20};
  for (int cap = 0; cap <= 5; ++cap)
    for (int prop = 0; prop <= 5; ++prop) {
      pos.set(0, "capacity_upgrades", cap).set(0, "propulsion_upgrades", prop);
      INFO("capacity " << cap << " propulsion " << prop);
      CHECK(pos.state().objective_points(0, obj("O09")) == expected[cap + prop]);
    }
}
