// The card data and board tables in play: prices of the specialist actions,
// the rocket tracks, launch points, the phase-2 overlay, hourglass missions
// and objective cards, each checked against the rulebook's wording.
#include "tests/lift_off/lift_off_test_util.h"

using namespace lift_off_test;

TEST_CASE("cards: the phase-2 overlay covers only level 2 (three red + one yellow)", "[lift_off][cards]") {
  // Round 2 is phase 1, round 5 phase 2; a level-4 lab so only technology decides.
  const auto meets = [](int round, int red, int yellow, int blue, int green, const char* id) {
    Position pos(2);
    pos.at("choose_deck", 0, round).set(0, "lab_level", 4).tech(0, red, yellow, blue, green);
    return pos.state().meets_requirements(0, mis(id));
  };
  CHECK(meets(2, 2, 1, 0, 0, "M2-01"));  // phase 1: 2 red + 1 yellow ...
  CHECK(meets(2, 0, 2, 1, 0, "M2-01"));  // ... or 2 yellow + 1 blue
  CHECK_FALSE(meets(5, 2, 1, 0, 0, "M2-01"));
  CHECK_FALSE(meets(5, 0, 2, 1, 0, "M2-01"));
  CHECK(meets(5, 3, 1, 0, 0, "M2-01"));
  // Levels 1, 3 and 4 are printed on the board and stay.
  CHECK(meets(5, 0, 1, 0, 0, "M1-01"));
  CHECK(meets(5, 0, 3, 2, 1, "M3-01"));
  CHECK_FALSE(meets(5, 0, 3, 2, 0, "M3-01"));
  CHECK(meets(5, 0, 0, 4, 2, "M4-01"));
  CHECK(meets(5, 3, 3, 0, 2, "M4-01"));
  // Requirements are not nested: 4 blue + 2 green meets level 4, not level 1.
  CHECK_FALSE(meets(5, 0, 0, 4, 2, "M1-01"));
}

TEST_CASE("cards: a launch scores by lab level, more in phase 1 than in phase 2", "[lift_off][cards]") {
  const int phase1[4] = {3, 5, 7, 9}, phase2[4] = {1, 3, 5, 7};
  for (int lab = 1; lab <= 4; ++lab)
    for (int round : {2, 5}) {
      Position pos(2);
      pos.at("launch", 0, round).set(0, "lab_level", lab).set(0, "money", 10).tech(0, 1, 0, 0, 0);
      pos.set(0, "capacity_upgrades", 1);  // room for both missions
      pos.mission(0, "M1-01", "earth").mission(0, "M1-02", "earth").can_launch(1);
      State s = pos.state();
      const int vp = s.player(0).vp;
      act(s, A::kLaunchWithLab);
      act(s, A::kLoadMission + mis("M1-01"));
      act(s, A::kLoadMission + mis("M1-02"));
      act(s, A::kLiftOff);
      INFO("lab " << lab << ", round " << round);
      // Once per launch, whatever the number of missions: + Sounding Rocket 3 + Weather Satellite 2.
      CHECK(s.player(0).vp == vp + (round == 2 ? phase1 : phase2)[lab - 1] + 3 + 2);
    }
}

TEST_CASE("cards: the extra launch symbol costs two less, never below zero", "[lift_off][cards]") {
  Position pos(2);
  pos.at("launch", 0, 2).set(0, "propulsion_upgrades", 4).set(0, "money", 0).tech(0, 1, 0, 0, 0);
  pos.mission(0, "M1-01", "earth").specialist(0, "S18", "played").can_launch(1);
  State s = pos.state();
  REQUIRE(s.launch_cost(0) == 1);
  CHECK_FALSE(s.is_legal(A::kLaunchWithLab));  // the lab's symbol pays the full 1
  act(s, A::kLaunchWithExtra);
  act(s, A::kLoadMission + mis("M1-01"));
  act(s, A::kLiftOff);
  CHECK(s.player(0).money == 0);
  CHECK(in_space(s, 0, "M1-01") == 1);
}

TEST_CASE("cards: a capacity upgrade moves weight and cost up one; propulsion moves cost down one",
          "[lift_off][cards]") {
  State s = play_position(2, {"S03"}, 10).state();
  act(s, A::kPlaySpecialist + spec("S03"));  // Rocket Designer: money3, propulsion + capacity
  act(s, A::kCapacityUpgrade);
  CHECK(s.capacity(0) == 2);
  CHECK(s.launch_cost(0) == 6);
  CHECK(s.player(0).money == 10 + 3 - 4);
  act(s, A::kPropulsionUpgrade);
  CHECK(s.capacity(0) == 2);
  CHECK(s.launch_cost(0) == 5);
  CHECK(s.player(0).money == 10 + 3 - 4 - 2);
  CHECK(s.current_player() == 1);  // both actions used: the turn passes
}

TEST_CASE("cards: technology prices: one for 4, two different for 6, green for 4, two green for 7",
          "[lift_off][cards]") {
  State one = play_position(2, {"S02"}, 4).state();
  act(one, A::kPlaySpecialist + spec("S02"));  // Fuel Chemist: propulsion + buy_tech
  act(one, A::kBuyTech + kBlue);
  CHECK(one.player(0).tech == std::array<int, 4>{0, 0, 1, 0});
  CHECK(one.player(0).money == 0);
  // Chemist (four players): two different of red / yellow / blue, and one green.
  State two = play_position(4, {"S32"}, 10).state();
  act(two, A::kPlaySpecialist + spec("S32"));
  act(two, A::kBuyTwoDifferent + 2);  // yellow + blue
  CHECK(two.player(0).tech == std::array<int, 4>{0, 1, 1, 0});
  CHECK(two.player(0).money == 4);
  act(two, A::kBuyGreen);
  CHECK(two.player(0).tech[kGreen] == 1);
  CHECK(two.player(0).money == 0);
  // Botanist: one or two green for 4 or 7 (after its money3 banner).
  State green = play_position(2, {"S17"}, 4).state();
  act(green, A::kPlaySpecialist + spec("S17"));
  CHECK(green.is_legal(A::kBuyGreenBulk + 1));
  act(green, A::kBuyGreenBulk + 1);
  CHECK(green.player(0).tech[kGreen] == 2);
  CHECK(green.player(0).money == 0);
}

TEST_CASE("cards: Orbital Shipyard's free capacity and propulsion leave the cost as it was",
          "[lift_off][cards]") {
  Position pos(2);
  pos.at("launch", 0, 5).set(0, "lab_level", 3).set(0, "capacity_upgrades", 3).set(0, "money", 8);
  pos.tech(0, 0, 3, 2, 1).mission(0, "M3-07", "earth").can_launch(1);
  State s = pos.state();
  REQUIRE(s.launch_cost(0) == 8);
  act(s, A::kLaunchWithLab);
  act(s, A::kLoadMission + mis("M3-07"));
  act(s, A::kLiftOff);
  CHECK(s.player(0).capacity_upgrades == 4);
  CHECK(s.player(0).propulsion_upgrades == 1);
  CHECK(s.capacity(0) == 5);
  CHECK(s.launch_cost(0) == 8);
}

TEST_CASE("cards: hourglass missions score only in space, by their own count", "[lift_off][cards]") {
  Position pos(2);
  pos.at("launch", 1, 8, 1).set(0, "capacity_upgrades", 2).set(0, "propulsion_upgrades", 3);
  pos.tech(0, 1, 2, 3, 4).set(0, "station_investments", 2);
  pos.mission(0, "M1-01", "space").mission(0, "M1-02", "space");  // two level 1
  pos.mission(0, "M2-03", "space");                               // one more level 2
  pos.mission(0, "M3-02", "space").mission(0, "M3-04", "space");  // two level 3
  pos.mission(0, "M2-08", "earth").can_launch(1);                 // Space Telescope still on Earth: nothing
  State base = pos.state();
  const int before = base.hourglass_points(0);
  CHECK(before == 0);
  const auto with = [&pos](const char* id) {
    Position p = pos;
    p.mission(0, id, "space");
    return p.state().hourglass_points(0);
  };
  CHECK(with("M4-07") == 2 * (2 + 3));          // Space Elevator: 2 per upgrade
  CHECK(with("M4-05") == 1 * (1 + 2 + 3 + 4));  // Asteroid Mining: every tech, green included
  CHECK(with("M3-10") == 3 * 2);                // Station Module: 3 per investment
  CHECK(with("M4-06") == 3 * 2);                // Deep Space Observatory: 3 per level 3
  CHECK(with("M2-09") == 2 * 2);                // Satellite Constellation: 2 per level 1
  CHECK(with("M3-05") == 2 * 3);                // Space Hotel: 2 per blue
  CHECK(with("M3-09") == 2 * 1);                // Orbital Fuel Depot: 2 per red
}

TEST_CASE("cards: objectives count by their own rule; only the highest tier scores", "[lift_off][cards]") {
  Position pos(2);
  pos.at("launch", 1, 8, 1).tech(0, 2, 3, 4, 2).set(0, "income", 8).set(0, "lab_level", 3);
  pos.set(0, "capacity_upgrades", 3).set(0, "propulsion_upgrades", 1);
  for (const char* id : {"M1-01", "M1-02", "M1-08", "M2-02", "M2-03", "M2-05", "M3-01", "M4-01", "M4-04"})
    pos.mission(0, id, "space");
  pos.mission(0, "M1-03", "earth").can_launch(1);
  State s = pos.state();
  CHECK(s.objective_points(0, obj("O05")) == 5);   // sets of all four colours: 2
  CHECK(s.objective_points(0, obj("O04")) == 3);   // 2 green
  CHECK(s.objective_points(0, obj("O14")) == 8);   // one level-3: one full set of levels
  CHECK(s.objective_points(0, obj("O07")) == 10);  // 3 level 1 + 3 level 2 (Earth not counted)
  CHECK(s.objective_points(0, obj("O10")) == 8);   // 1 level 3 + 2 level 4
  CHECK(s.objective_points(0, obj("O11")) == 0);   // 3 level 1 < 4
  CHECK(s.objective_points(0, obj("O12")) == 10);  // 2 level 4
  CHECK(s.objective_points(0, obj("O13")) == 6);   // 9 missions in space
  CHECK(s.objective_points(0, obj("O15")) == 5);   // 3 capacity
  CHECK(s.objective_points(0, obj("O16")) == 0);   // 1 propulsion
  CHECK(s.objective_points(0, obj("O17")) == 14);  // income 8
  CHECK(s.objective_points(0, obj("O18")) == 5);   // lab 3
  CHECK(s.objective_points(0, obj("O20")) == 22);  // Relay, Trading Post, Solar Collector, Colony Ship
  // Near-Earth Program and Deep Space Program need one of their higher level.
  Position low(2);
  for (const char* id : {"M1-01", "M1-02", "M1-03", "M1-04", "M1-05", "M1-06", "M1-07"})
    low.mission(0, id, "space");
  CHECK(low.state().objective_points(0, obj("O07")) == 0);
  CHECK(low.state().objective_points(0, obj("O11")) == 20);
}

TEST_CASE("cards: the second specialist pick may pass the card kept at the first", "[lift_off][cards]") {
  State s(cfg(), 3, 7);
  for (int p = 0; p < 3; ++p) act(s, A::kKeepObjective + s.player(p).objectives[0]);
  for (int p = 0; p < 3; ++p) act(s, A::kPassObjective + s.player(p).objectives[0]);
  act(s, A::kDraftLeft);
  std::array<int, 3> kept{};
  for (int p = 0; p < 3; ++p) {
    kept[static_cast<std::size_t>(p)] = s.player(p).hand[0];
    act(s, A::kKeepSpecialist + kept[static_cast<std::size_t>(p)]);
  }
  for (int p = 0; p < 3; ++p) act(s, A::kPassSpecialist + kept[static_cast<std::size_t>(p)]);
  for (int p = 0; p < 3; ++p) {
    CHECK(s.player(p).hand_size == 3);
    CHECK(in_hand(s, (p + 1) % 3,
                  cfg().specialists[static_cast<std::size_t>(kept[static_cast<std::size_t>(p)])].id));
  }
}
