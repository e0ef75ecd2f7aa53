// One test per ruling of Lift Off's rulings (and the rules they settle).
#include "tests/lift_off/lift_off_test_util.h"

using namespace lift_off_test;

TEST_CASE("ruling 1: bulk buy is 3 money per card, one to three cards, any mix", "[lift_off][ruling]") {
  State s = play_position(2, {"S15"}, 20).state();
  act(s, A::kPlaySpecialist + spec("S15"));
  act(s, A::kBulkBuy + kRed);
  act(s, A::kBulkBuy + kYellow);
  act(s, A::kBulkBuy + kRed);
  CHECK_FALSE(s.is_legal(A::kBulkBuy + kBlue));  // three at most
  CHECK(s.player(0).money == 20 - 9);
  CHECK(s.player(0).tech[kRed] == 2);
  CHECK(s.player(0).tech[kYellow] == 1);
  act(s, A::kBulkFinish);
  CHECK(s.current_player() == 1);  // the card's only action is spent: the turn passes
}

TEST_CASE("ruling 2: lab costs by target level, one level per effect, twice in a round",
          "[lift_off][ruling]") {
  Position pos = play_position(2, {"S04", "S12"}, 10);
  pos.specialist(1, "S09", "hand");
  State s = pos.state();
  act(s, A::kPlaySpecialist + spec("S04"));  // Test Pilot: propulsion + lab (3/5/7)
  CHECK_FALSE(s.is_legal(A::kLabUpgradeCheap));
  act(s, A::kLabUpgrade);
  CHECK(s.player(0).lab_level == 2);
  CHECK(s.player(0).money == 7);
  CHECK_FALSE(s.is_legal(A::kLabUpgrade));  // one level per effect
  act(s, A::kEndSpecialist);
  act(s, A::kPlaySpecialist + spec("S18"));
  act(s, A::kTakeMoney);
  act(s, A::kPlaySpecialist + spec("S12"));  // Lab Director: money3 banner, lab_cheap (2/4/6)
  act(s, A::kLabUpgradeCheap);               // to level 3 costs 4
  CHECK(s.player(0).lab_level == 3);
  CHECK(s.player(0).money == 7 + 3 - 4);
  // Level 3 -> 4 with the two-action lab costs 7.
  Position rich = play_position(2, {"S07"}, 6);
  rich.set(0, "lab_level", 3);
  State t = rich.state();
  act(t, A::kPlaySpecialist + spec("S07"));
  CHECK_FALSE(t.is_legal(A::kLabUpgrade));
  rich.set(0, "money", 7);
  t = rich.state();
  act(t, A::kPlaySpecialist + spec("S07"));
  act(t, A::kLabUpgrade);
  CHECK(t.player(0).lab_level == 4);
  CHECK(t.player(0).money == 0);
}

TEST_CASE("ruling 3: the '5' side is display only: selling from five leaves four", "[lift_off][ruling]") {
  Position pos = play_position(2, {"S09"}, 0);
  pos.tech(0, 5, 0, 0, 0);
  State s = pos.state();
  act(s, A::kPlaySpecialist + spec("S09"));  // Trader: money3, station + sell
  act(s, A::kSellTech + kRed);
  CHECK(s.player(0).tech[kRed] == 4);
  CHECK(s.player(0).money == 3 + 6);
}

TEST_CASE("ruling 4: every launch carries a mission; no launch without a launchable mission",
          "[lift_off][ruling]") {
  Position pos(2);
  pos.at("launch", 0, 2).set(0, "money", 10).tech(0, 1, 0, 0, 0).mission(0, "M1-01", "earth");
  State s = pos.state();
  act(s, A::kLaunchWithLab);
  CHECK_FALSE(s.is_legal(A::kLiftOff));  // nothing loaded yet
  act(s, A::kLoadMission + mis("M1-01"));
  CHECK(s.is_legal(A::kLiftOff));
  // A level-2 mission with a level-1 lab cannot go up, so no launch can start:
  // when the launch step comes, player 0 is skipped (and so is player 1, with
  // no tech for the mission just kept), and the round ends.
  Position none(2);
  none.at("choose_deck", 1, 2, 1).set(0, "money", 10).tech(0, 3, 3, 3, 0).mission(0, "M2-05", "earth");
  none.stack(1, {"M1-01", "M1-02", "M1-03"});
  State t = none.state();
  act(t, A::kDrawFromDeck + 0);
  act(t, A::kKeepMission + mis("M1-01"));
  CHECK(t.step() == Step::kChooseDirection);
  CHECK(t.round() == 3);
  CHECK(on_earth(t, 0, "M2-05") == 1);
  CHECK(t.player(0).money == 10 + 5);  // income only: nothing was paid for a launch
}

TEST_CASE("ruling 5: at most three missions per round over all launches", "[lift_off][ruling]") {
  Position pos(2);
  pos.at("launch", 0, 2).set(0, "money", 20).set(0, "capacity_upgrades", 2).tech(0, 1, 0, 0, 0);
  for (const char* id : {"M1-01", "M1-02", "M1-03", "M1-04"}) pos.mission(0, id, "earth");
  pos.specialist(0, "S01", "played").can_launch(1);
  State s = pos.state();
  act(s, A::kLaunchWithLab);
  act(s, A::kLoadMission + mis("M1-01"));
  act(s, A::kLoadMission + mis("M1-02"));
  act(s, A::kLiftOff);
  act(s, A::kLaunchWithExtra);
  act(s, A::kLoadMission + mis("M1-03"));
  CHECK_FALSE(s.is_legal(A::kLoadMission + mis("M1-04")));  // the third mission of the round is loaded
  act(s, A::kLiftOff);
  CHECK(s.player(0).missions_launched == 3);
  CHECK(s.current_player() == 1);  // nothing more to launch this round: player 0 is done
  CHECK(s.step() == Step::kLaunch);
  CHECK(on_earth(s, 0, "M1-04") == 1);
}

TEST_CASE("ruling 6: an empty mission deck is rebuilt from its discard, not from this turn's cards",
          "[lift_off][ruling]") {
  Position pos(2);
  pos.at("choose_deck", 0, 1);
  Json& deck = pos.d["mission_decks"][0];
  for (std::size_t i = 0; i + 1 < deck.size(); ++i) pos.d["mission_discards"][0].push_back(deck[i]);
  const std::string last = deck.back();
  deck = Json::array({last});
  State s = pos.state();
  act(s, A::kDrawFromDeck + 0);
  CHECK(s.num_drawn() == 3);
  CHECK(s.drawn_count(mis(last)) == 1);
  CHECK(s.mission_deck_size(1) == 11 - 2);  // 11 reshuffled, 2 of them drawn
  CHECK(s.mission_discard_count(mis(last)) == 0);
}

TEST_CASE("ruling 6: decks without a card the player may take cannot be chosen; no deck means skip",
          "[lift_off][ruling]") {
  Position pos(2);
  // Every level-1 card is owned (6 each); player 0 also holds seven level-2 cards.
  const char* l1[12] = {"M1-01", "M1-02", "M1-03", "M1-04", "M1-05", "M1-06",
                        "M1-07", "M1-08", "M1-09", "M1-10", "M1-11", "M1-12"};
  for (int i = 0; i < 12; ++i) pos.mission(i < 6 ? 0 : 1, l1[i], "earth");
  for (const char* id : {"M2-01", "M2-02", "M2-03", "M2-04", "M2-05", "M2-06", "M2-07"})
    pos.mission(0, id, "earth");
  pos.at("play_specialist", 1, 1, 1);
  pos.d["play_pass"] = 1;
  pos.specialist(1, "S16", "hand");
  State s = pos.state();
  act(s, A::kPlaySpecialist + spec("S16"));
  act(s, A::kTakeMoney);
  // The mission step starts with player 0, who has no deck: player 1 draws.
  CHECK(s.step() == Step::kChooseDeck);
  CHECK(s.current_player() == 1);
  CHECK_FALSE(s.is_legal(A::kDrawFromDeck + 0));  // level 1: nothing left to take
  CHECK(s.is_legal(A::kDrawFromDeck + 1));
  CHECK_FALSE(s.is_legal(A::kDrawFromDeck + 2));  // level 3 opens in phase 2
}

TEST_CASE("ruling 7: with no eligible card drawn, draw one by one and keep only that one",
          "[lift_off][ruling]") {
  Position pos(3);  // three players: two copies of M1-01..M1-06
  for (const char* id : {"M1-01", "M1-02", "M1-03", "M1-04"}) pos.mission(0, id, "earth");
  pos.stack(1, {"M1-01", "M1-02", "M1-03", "M1-04", "M1-05", "M1-06"});
  pos.specialist(0, "S05", "played");  // extra mission banner: draw 4
  pos.at("choose_deck", 0, 1);
  State s = pos.state();
  act(s, A::kDrawFromDeck + 0);
  CHECK(s.num_drawn() == 5);   // 4 owned titles, then M1-05
  CHECK(s.keeps_left() == 1);  // the banner's extra keep is not refilled
  CHECK_FALSE(s.is_legal(A::kKeepMission + mis("M1-01")));
  CHECK_FALSE(s.is_legal(A::kStopKeeping));
  act(s, A::kKeepMission + mis("M1-05"));
  CHECK(on_earth(s, 0, "M1-05") == 1);
  CHECK(s.mission_discard_count(mis("M1-01")) == 1);
  CHECK(s.mission_discard_count(mis("M1-06")) == 0);  // never drawn
  CHECK(s.current_player() == 1);
}

TEST_CASE("ruling 8: k extra-mission banners draw 3 + k and keep up to 1 + k", "[lift_off][ruling]") {
  Position pos(2);
  pos.specialist(0, "S05", "played").specialist(0, "S07", "played");
  pos.stack(1, {"M1-01", "M1-02", "M1-03", "M1-04", "M1-05"});
  pos.at("choose_deck", 0, 1);
  State s = pos.state();
  act(s, A::kDrawFromDeck + 0);
  CHECK(s.num_drawn() == 5);
  CHECK(s.keeps_left() == 3);
  act(s, A::kKeepMission + mis("M1-02"));
  act(s, A::kKeepMission + mis("M1-04"));
  CHECK(s.is_legal(A::kStopKeeping));
  act(s, A::kKeepMission + mis("M1-05"));
  CHECK(s.player(0).num_earth == 3);
  CHECK(s.mission_discard_count(mis("M1-01")) + s.mission_discard_count(mis("M1-03")) == 2);
  CHECK(s.current_player() == 1);
}

TEST_CASE("ruling 9: requirements are checked at launch, not at draw; Earth missions stay",
          "[lift_off][ruling]") {
  Position pos(2);
  pos.at("choose_deck", 0, 1).stack(2, {"M2-05", "M2-03", "M2-06"});
  State s = pos.state();
  CHECK(s.is_legal(A::kDrawFromDeck + 1));  // lab 1 and no tech may still draw level 2
  act(s, A::kDrawFromDeck + 1);
  act(s, A::kKeepMission + mis("M2-05"));
  CHECK(on_earth(s, 0, "M2-05") == 1);
  // At the end of the round the mission is still on Earth and scored nothing.
  Position end(2);
  end.at("launch", 1, 1, 1).mission(0, "M2-05", "earth").mission(1, "M1-01", "earth").tech(1, 1, 0, 0, 0);
  end.set(1, "money", 10);
  State t = end.state();
  const int vp = t.player(0).vp;
  act(t, A::kEndLaunches);
  CHECK(t.round() == 2);
  CHECK(on_earth(t, 0, "M2-05") == 1);
  CHECK(t.player(0).vp == vp);
}

TEST_CASE(
    "ruling 10: objective draft passes left; specialist draft and play order follow the chosen direction",
    "[lift_off][ruling]") {
  State s(cfg(), 3, 11);
  std::array<std::array<uint8_t, 3>, 3> dealt{};
  for (int p = 0; p < 3; ++p) dealt[static_cast<std::size_t>(p)] = s.player(p).objectives;
  for (int p = 0; p < 3; ++p) act(s, A::kKeepObjective + s.player(p).objectives[0]);
  // Player 0's two other objectives went to player 1 (left), who knows nothing of player 0's hand.
  for (int k = 1; k < 3; ++k) {
    const int card = dealt[0][static_cast<std::size_t>(k)];
    const Player& p1 = s.player(1);
    CHECK(std::count(p1.objectives.begin(), p1.objectives.begin() + p1.num_objectives, card) == 1);
    CHECK((s.known_objectives(0, 1) >> card & 1) == 1);
  }
  for (int p = 0; p < 3; ++p) act(s, A::kPassObjective + s.player(p).objectives[2]);
  CHECK(s.step() == Step::kChooseDirection);
  CHECK(s.current_player() == 0);
  act(s, A::kDraftRight);
  std::array<std::array<uint8_t, 3>, 3> hands{};
  for (int p = 0; p < 3; ++p) hands[static_cast<std::size_t>(p)] = s.player(p).hand;
  for (int p = 0; p < 3; ++p) act(s, A::kKeepSpecialist + s.player(p).hand[0]);
  // Passing right: player 0's other two cards went to player 2.
  CHECK(in_hand(s, 2, cfg().specialists[hands[0][1]].id));
  CHECK(in_hand(s, 2, cfg().specialists[hands[0][2]].id));
  for (int p = 0; p < 3; ++p) act(s, A::kPassSpecialist + s.player(p).hand[2]);
  CHECK(s.step() == Step::kPlaySpecialist);
  CHECK(s.current_player() == 0);
  act(s, A::kPlaySpecialist + s.player(0).hand[0]);
  if (s.current_player() == 0) act(s, A::kEndSpecialist);
  CHECK(s.current_player() == 2);  // then the next player to the right
}

// The rulebook's mission draws and launches go clockwise from the start
// player; only the specialist draft and plays follow the chosen direction.
TEST_CASE("ruling 10: mission draws and launches go clockwise even when specialists went right",
          "[lift_off][ruling]") {
  Position draw(3);
  draw.at("choose_deck", 0, 2).stack(1, {"M1-01", "M1-02", "M1-03"});
  draw.d["direction"] = "right";
  State s = draw.state();
  act(s, A::kDrawFromDeck + 0);
  act(s, A::kKeepMission + mis("M1-01"));
  CHECK(s.step() == Step::kChooseDeck);
  CHECK(s.current_player() == 1);
  Position launch(3);
  launch.at("launch", 0, 2).can_launch(0).can_launch(1, "M1-02").can_launch(2, "M1-04");
  launch.d["direction"] = "right";
  State t = launch.state();
  act(t, A::kEndLaunches);
  CHECK(t.current_player() == 1);
  act(t, A::kEndLaunches);
  CHECK(t.current_player() == 2);
}

TEST_CASE("ruling 11: the start player marker passes left at the end of every round", "[lift_off][ruling]") {
  Position pos(3);
  pos.at("launch", 2, 1, 2).mission(2, "M1-01", "earth").tech(2, 1, 0, 0, 0).set(2, "money", 10);
  for (int p = 0; p < 3; ++p) pos.specialist(p, cfg().specialists[static_cast<std::size_t>(p)].id, "hand");
  State s = pos.state();
  act(s, A::kEndLaunches);
  CHECK(s.round() == 2);
  CHECK(s.start_player() == 1);
  CHECK(s.step() == Step::kChooseDirection);
  CHECK(s.current_player() == 1);
}

TEST_CASE("ruling 12: reward actions pay for level 1, 2 and 3 missions in space", "[lift_off][ruling]") {
  Position pos = play_position(3, {"S08"}, 0);
  pos.mission(0, "M2-01", "space").mission(0, "M2-03", "space").mission(1, "M2-06", "space");
  pos.mission(0, "M1-01", "space");
  const int vp0 = pos.seat(0)["vp"], vp1 = pos.seat(1)["vp"], vp2 = pos.seat(2)["vp"];
  State s = pos.state();
  act(s, A::kPlaySpecialist + spec("S08"));  // Electrical Engineer: buy_tech + reward_l2
  CHECK_FALSE(s.is_legal(A::kRewardL1));
  act(s, A::kRewardL1 + 1);
  CHECK(s.player(0).vp == vp0 + 3 * 2);  // level-1 mission in space does not count
  CHECK(s.player(0).money == 2);
  CHECK(s.player(1).vp == vp1 + 2);
  CHECK(s.player(2).vp == vp2);
  // Level 1: 2 VP + 1 money each, others 1 VP; level 3: 4 VP + 2 money, others 3 VP.
  Position l1 = play_position(2, {"S06"}, 0);
  l1.mission(0, "M1-01", "space").mission(1, "M1-02", "space");
  State t = l1.state();
  const int t0 = t.player(0).vp + 5, t1 = t.player(1).vp;  // + the vp5 banner
  act(t, A::kPlaySpecialist + spec("S06"));
  act(t, A::kRewardL1);
  CHECK(t.player(0).vp == t0 + 2);
  CHECK(t.player(0).money == 1);
  CHECK(t.player(1).vp == t1 + 1);
  Position l3 = play_position(2, {"S10"}, 0, 5);
  l3.mission(0, "M3-01", "space").mission(1, "M3-02", "space");
  State u = l3.state();
  const int u0 = u.player(0).vp + 5, u1 = u.player(1).vp;
  act(u, A::kPlaySpecialist + spec("S10"));
  act(u, A::kRewardL1 + 2);
  CHECK(u.player(0).vp == u0 + 4);
  CHECK(u.player(0).money == 2);
  CHECK(u.player(1).vp == u1 + 3);
}

TEST_CASE("ruling 13: two money only instead of every action; the banner still applies",
          "[lift_off][ruling]") {
  State s = play_position(2, {"S03"}, 0).state();
  act(s, A::kPlaySpecialist + spec("S03"));  // Rocket Designer: money3, propulsion + capacity
  CHECK(s.player(0).money == 3);
  CHECK(s.is_legal(A::kTakeMoney));  // allowed even though propulsion is affordable
  act(s, A::kTakeMoney);
  CHECK(s.player(0).money == 5);
  CHECK(s.current_player() == 1);
  State t = play_position(2, {"S03"}, 0).state();
  act(t, A::kPlaySpecialist + spec("S03"));
  act(t, A::kPropulsionUpgrade);
  CHECK_FALSE(t.is_legal(A::kTakeMoney));
}

TEST_CASE("ruling 14: capacity banners stack on one launch and are lost at the end of the round",
          "[lift_off][ruling]") {
  Position pos(2);
  pos.at("launch", 0, 5).set(0, "lab_level", 3).set(0, "money", 10).tech(0, 0, 3, 2, 1);
  pos.mission(0, "M3-02", "earth").mission(0, "M1-01", "earth");                    // weights 4 + 1
  pos.specialist(0, "S11", "played").specialist(0, "S08", "played").can_launch(1);  // +3 and +1
  State s = pos.state();
  act(s, A::kLaunchWithLab);
  act(s, A::kLoadMission + mis("M3-02"));
  act(s, A::kLoadMission + mis("M1-01"));
  act(s, A::kApplyCapacity + 2);
  CHECK_FALSE(s.is_legal(A::kLiftOff));  // 1 + 3 = 4 < 5
  act(s, A::kApplyCapacity + 0);
  act(s, A::kLiftOff);
  CHECK(s.player(0).money == 10 - 5);  // the lab symbol pays the full cost
  CHECK(s.player(0).banner_used[0]);
  CHECK(s.player(0).banner_used[1]);
  // Unused yellow banners go with their cards at the end of the round.
  Position unused(2);
  unused.at("launch", 1, 1, 1).specialist(0, "S11", "played").mission(1, "M1-01", "earth");
  unused.tech(1, 1, 0, 0, 0).set(1, "money", 10);
  for (int p = 0; p < 2; ++p) unused.specialist(p, p == 0 ? "S02" : "S03", "hand");
  State t = unused.state();
  act(t, A::kEndLaunches);
  CHECK(t.player(0).num_played == 0);
  CHECK(t.unused_capacity_banners(0) == 0);
  CHECK((t.specialist_discard_mask() >> spec("S11") & 1) == 1);
}

TEST_CASE("ruling 15: the station's red 12 space is repeatable and each investment counts",
          "[lift_off][ruling]") {
  const std::vector<int> costs[3] = {{3, 4, 5, 7, 9, 10, 11, 12, 12},
                                     {3, 4, 5, 6, 7, 9, 10, 11, 12, 12},
                                     {3, 4, 5, 6, 6, 7, 8, 9, 10, 11, 12, 12}};
  for (int n = 2; n <= 4; ++n) {
    Position pos(n);
    const auto& expected = costs[n - 2];
    for (std::size_t k = 0; k < expected.size(); ++k) {
      pos.set(1, "station_investments", static_cast<int>(k));
      INFO(n << " players, " << k << " investments");
      CHECK(pos.state().station_next_cost() == expected[k]);
    }
  }
  Position pos = play_position(2, {"S14"}, 12);
  pos.set(1, "station_investments", 7);
  State s = pos.state();
  act(s, A::kPlaySpecialist + spec("S14"));
  act(s, A::kStationInvest);
  CHECK(s.player(0).money == 0);
  CHECK(s.player(0).station_investments == 1);
  CHECK(s.station_next_cost() == 12);
}

TEST_CASE("ruling 16: the station pays 5 VP + 1 per mission in space (not on Earth), then green or income",
          "[lift_off][ruling]") {
  Position pos = play_position(2, {"S14"}, 3);
  pos.mission(0, "M1-01", "space").mission(0, "M1-02", "space").mission(0, "M1-03", "earth");
  State s = pos.state();
  const int vp = s.player(0).vp;
  act(s, A::kPlaySpecialist + spec("S14"));  // Station Architect: vp5 banner
  act(s, A::kStationInvest);
  CHECK(s.player(0).vp == vp + 5 + 5 + 2);
  CHECK(s.step() == Step::kStationReward);
  act(s, A::kStationIncome);
  CHECK(s.player(0).income == 6);
  CHECK(s.player(0).tech[kGreen] == 0);
}

TEST_CASE("ruling 17: five tokens of each upgrade; a free upgrade with none left is lost",
          "[lift_off][ruling]") {
  Position pos = play_position(2, {"S03"}, 10);
  pos.set(0, "capacity_upgrades", 5);
  State s = pos.state();
  act(s, A::kPlaySpecialist + spec("S03"));
  CHECK_FALSE(s.is_legal(A::kCapacityUpgrade));
  CHECK(s.is_legal(A::kPropulsionUpgrade));
  Position launch(2);
  launch.at("launch", 0, 2)
      .set(0, "capacity_upgrades", 5)
      .set(0, "propulsion_upgrades", 5)
      .set(0, "money", 10);
  launch.tech(0, 1, 0, 0, 0).mission(0, "M1-12", "earth").mission(0, "M1-07", "earth");
  State t = launch.state();
  act(t, A::kLaunchWithLab);
  act(t, A::kLoadMission + mis("M1-12"));  // Cargo Test: free capacity
  act(t, A::kLoadMission + mis("M1-07"));  // Test Flight: free propulsion
  act(t, A::kLiftOff);
  CHECK(t.player(0).capacity_upgrades == 5);
  CHECK(t.player(0).propulsion_upgrades == 5);
  CHECK(t.launch_cost(0) == 5);
}

TEST_CASE("ruling 18: income stops at 9; the station's income option is then unavailable",
          "[lift_off][ruling]") {
  Position pos(2);
  pos.at("launch", 0, 2)
      .set(0, "income", 9)
      .set(0, "money", 10)
      .tech(0, 1, 0, 0, 0)
      .mission(0, "M1-03", "earth");
  State s = pos.state();
  act(s, A::kLaunchWithLab);
  act(s, A::kLoadMission + mis("M1-03"));  // Communications Satellite: income +1
  act(s, A::kLiftOff);
  CHECK(s.player(0).income == 9);
  Position station = play_position(2, {"S14"}, 3);
  station.set(0, "income", 9);
  State t = station.state();
  act(t, A::kPlaySpecialist + spec("S14"));
  act(t, A::kStationInvest);
  CHECK_FALSE(t.is_legal(A::kStationIncome));
  act(t, A::kStationGreen);
  CHECK(t.player(0).tech[kGreen] == 1);
}

TEST_CASE(
    "ruling 19-20: phase 2 set-up reshuffles the discard, keeps carried cards, then objectives for money",
    "[lift_off][ruling]") {
  Position pos(2);
  pos.at("launch", 1, 4, 1).empty_specialist_deck();
  pos.specialist(0, "S02", "hand").specialist(1, "S03", "hand");
  pos.specialist(0, "S05", "played").specialist(1, "S06", "played");
  pos.mission(1, "M1-01", "earth").tech(1, 1, 0, 0, 0).set(1, "money", 10);
  pos.set(0, "money", 1).set(1, "money", 10);
  const int discard = static_cast<int>(pos.d["specialist_discard"].size());
  State s = pos.state();
  act(s, A::kEndLaunches);
  CHECK(s.phase() == 2);
  CHECK(s.round() == 5);
  CHECK(s.specialist_deck_size() == discard + 2);  // this round's played cards included
  CHECK(s.specialist_discard_size() == 0);
  CHECK(in_hand(s, 0, "S02"));
  CHECK(in_hand(s, 1, "S03"));
  // Objective discard: round 5's start player (1) first, then clockwise.
  CHECK(s.step() == Step::kDiscardObjectives);
  CHECK(s.current_player() == 1);
  act(s, A::kDiscardObjective + s.player(1).objectives[0]);
  CHECK(s.player(1).money == 15);
  act(s, A::kKeepObjectives);
  CHECK(s.current_player() == 0);
  for (int k = 0; k < 3; ++k) act(s, A::kDiscardObjective + s.player(0).objectives[0]);
  // All three discarded: round 5 begins (income 5 paid, two specialists drawn).
  CHECK(s.player(0).num_objectives == 0);
  CHECK(s.player(0).num_discarded_objectives == 3);
  CHECK(s.player(0).money == 1 + 15 + 5);
  CHECK(s.player(0).hand_size == 3);
  CHECK(s.step() == Step::kChooseDirection);
  CHECK(s.current_player() == 1);
}

TEST_CASE("ruling 21: Trading Post copies may be owned together, each counts toward the seven",
          "[lift_off][ruling]") {
  Position pos(2);
  pos.mission(0, "M2-02", "space");
  for (const char* id : {"M2-01", "M2-03", "M2-04", "M2-05"}) pos.mission(0, id, "earth");
  pos.stack(2, {"M2-02", "M2-06", "M2-07"}).at("choose_deck", 0, 2);
  State s = pos.state();
  act(s, A::kDrawFromDeck + 1);
  CHECK(s.is_legal(A::kKeepMission + mis("M2-02")));
  act(s, A::kKeepMission + mis("M2-02"));
  CHECK(s.owned_from_level(0, 2) == 6);
  // Three players: a second Supply Ship is not allowed.
  Position three(3);
  three.mission(0, "M2-01", "earth").stack(2, {"M2-01", "M2-03", "M2-06"}).at("choose_deck", 0, 2);
  State t = three.state();
  act(t, A::kDrawFromDeck + 1);
  CHECK_FALSE(t.is_legal(A::kKeepMission + mis("M2-01")));
  CHECK(t.is_legal(A::kKeepMission + mis("M2-03")));
}

TEST_CASE("ruling 22: exchange swaps one or two techs of any colour, green included, equal numbers",
          "[lift_off][ruling]") {
  Position pos = play_position(2, {"S11"}, 0);
  pos.tech(0, 1, 0, 0, 1);
  State s = pos.state();
  act(s, A::kPlaySpecialist + spec("S11"));  // Quartermaster: exchange + buy_two_different
  act(s, A::kExchangeGive + kGreen);
  act(s, A::kExchangeGive + kRed);
  CHECK_FALSE(s.is_legal(A::kExchangeGive + kRed));  // two at most (and none left)
  act(s, A::kExchangeTake + kYellow);
  CHECK_FALSE(s.is_legal(A::kEndSpecialist));  // the swap must be completed
  act(s, A::kExchangeTake + kYellow);
  CHECK(s.player(0).tech == std::array<int, 4>{0, 2, 0, 0});
  CHECK(s.step() == Step::kSpecialistActions);
  // Taking green and swapping a colour for itself are allowed.
  Position same = play_position(2, {"S11"}, 0);
  same.tech(0, 1, 0, 0, 0);
  State t = same.state();
  act(t, A::kPlaySpecialist + spec("S11"));
  act(t, A::kExchangeGive + kRed);
  act(t, A::kExchangeTake + kGreen);
  CHECK(t.player(0).tech == std::array<int, 4>{0, 0, 0, 1});
}

TEST_CASE("ruling 23: selling may drop below a requirement met earlier; green cannot be sold",
          "[lift_off][ruling]") {
  Position pos = play_position(2, {"S09"}, 0);
  pos.tech(0, 1, 0, 0, 2).mission(0, "M1-01", "earth");
  State s = pos.state();
  act(s, A::kPlaySpecialist + spec("S09"));
  for (int col = 0; col < 3; ++col) CHECK(s.is_legal(A::kSellTech + col) == (col == kRed));
  act(s, A::kSellTech + kRed);
  CHECK(s.player(0).tech[kRed] == 0);
  CHECK_FALSE(s.meets_requirements(0, mis("M1-01")));
  CHECK(s.player(0).tech[kGreen] == 2);
}

TEST_CASE("ruling 24: ties go to the most level-4 missions in space, then the win is shared",
          "[lift_off][ruling]") {
  Position pos(2);
  pos.at("game_over", -1, 8).set(0, "vp", 50).set(1, "vp", 50);
  pos.d["phase"] = 2;
  pos.mission(1, "M4-02", "space");
  std::array<float, 2> r{};
  pos.state().returns(r.data());
  CHECK(r[0] == -1.0f);
  CHECK(r[1] == 1.0f);
  pos.mission(0, "M4-04", "space");
  pos.state().returns(r.data());
  CHECK(r[0] == 0.0f);
  CHECK(r[1] == 0.0f);
}

TEST_CASE("ruling 25: final scoring adds hourglass, objectives, green, money; hand cards score nothing",
          "[lift_off][ruling]") {
  Position pos(2);
  pos.at("launch", 1, 8, 1).empty_specialist_deck();
  pos.objectives(0, {"O19"}).set(0, "money", 27).tech(0, 0, 0, 0, 2).mission(0, "M1-08", "space");
  pos.mission(0, "M1-01", "space").specialist(0, "S16", "hand");
  pos.mission(1, "M1-02", "earth").tech(1, 1, 0, 0, 0).set(1, "money", 10);
  State s = pos.state();
  const int vp = s.player(0).vp;
  act(s, A::kEndLaunches);
  REQUIRE(s.is_terminal());
  // Relay Satellite 1 x 2 level-1 missions, War Chest at 27 money (before the
  // conversion) 12, two green 6, 27 money 5.
  CHECK(s.final_vp(0) == 2 + 12 + 6 + 5);
  std::array<int, 2> sc{};
  s.scores(sc.data());
  CHECK(sc[0] == vp + 25);
}

TEST_CASE("ruling 26: redeterminize keeps what the viewer saw and resamples the rest", "[lift_off][ruling]") {
  State s(cfg(), 3, 5);
  for (int p = 0; p < 3; ++p) act(s, A::kKeepObjective + s.player(p).objectives[0]);
  const uint32_t known = s.known_objectives(0, 1);
  REQUIRE(known != 0);
  bool changed = false;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    State t = s;
    Rng rng(seed);
    t.redeterminize(0, rng);
    REQUIRE_NOTHROW(t.check_invariants());
    CHECK(t.player(0).objectives == s.player(0).objectives);
    uint32_t held = 0;
    for (int i = 0; i < t.player(1).num_objectives; ++i)
      held |= 1u << t.player(1).objectives[static_cast<std::size_t>(i)];
    CHECK((held & known) == known);  // the two cards player 0 passed are still there
    changed = changed || t.player(2).objectives != s.player(2).objectives;
    std::vector<float> a(Encoder::kSize), b(Encoder::kSize);
    Encoder::encode(s, 0, a.data());
    Encoder::encode(t, 0, b.data());
    CHECK(a == b);
  }
  CHECK(changed);
}

TEST_CASE("ruling 27: round 1 has no income and no draw; set-up gives 10 money and 3 specialists",
          "[lift_off][ruling]") {
  State s(cfg(), 2, 3);
  for (int p = 0; p < 2; ++p) act(s, A::kKeepObjective + s.player(p).objectives[0]);
  for (int p = 0; p < 2; ++p) act(s, A::kPassObjective + s.player(p).objectives[0]);
  CHECK(s.round() == 1);
  for (int p = 0; p < 2; ++p) {
    CHECK(s.player(p).money == 10);
    CHECK(s.player(p).hand_size == 3);
    CHECK(s.player(p).num_objectives == 3);
  }
  CHECK(s.specialist_deck_size() == 18 - 6);
}

TEST_CASE("ruling 28: money6 pays every other player two money at once", "[lift_off][ruling]") {
  State s = play_position(3, {"S16"}, 0).state();
  act(s, A::kPlaySpecialist + spec("S16"));  // Financier: vp5, money6
  act(s, A::kMoney6);
  CHECK(s.player(0).money == 6);
  CHECK(s.player(1).money == 2);
  CHECK(s.player(2).money == 2);
}

TEST_CASE("ruling 29: the banner comes first, so its money can pay for the action", "[lift_off][ruling]") {
  State s = play_position(2, {"S12"}, 0).state();
  act(s, A::kPlaySpecialist + spec("S12"));  // Lab Director: money3, lab_cheap (2 to level 2)
  act(s, A::kLabUpgradeCheap);
  CHECK(s.player(0).lab_level == 2);
  CHECK(s.player(0).money == 1);
}

TEST_CASE(
    "ruling 30: symbols: the level-4 lab's +1 capacity goes with the lab symbol only; earlier launches count",
    "[lift_off][ruling]") {
  Position pos(2);
  pos.at("launch", 0, 5).set(0, "lab_level", 4).set(0, "money", 10).tech(0, 1, 0, 0, 0);
  pos.mission(0, "M1-06", "earth").specialist(0, "S01", "played");  // weight 2, capacity 1
  State s = pos.state();
  CHECK_FALSE(s.is_legal(A::kLaunchWithExtra));
  act(s, A::kLaunchWithLab);
  CHECK(s.rocket_capacity_now() == 2);
  act(s, A::kLoadMission + mis("M1-06"));
  act(s, A::kLiftOff);
  // A tech gained by the first launch opens the second.
  Position chain(2);
  chain.at("launch", 0, 2).set(0, "lab_level", 2).set(0, "money", 10).tech(0, 2, 0, 0, 0);
  chain.mission(0, "M1-02", "earth")
      .mission(0, "M2-05", "earth")
      .specialist(0, "S01", "played")
      .can_launch(1);
  State t = chain.state();
  act(t, A::kLaunchWithLab);
  CHECK_FALSE(t.is_legal(A::kLoadMission + mis("M2-05")));  // 2 red + 1 yellow needed
  act(t, A::kLoadMission + mis("M1-02"));                   // Weather Satellite: +1 yellow
  act(t, A::kLiftOff);
  act(t, A::kLaunchWithExtra);
  act(t, A::kLoadMission + mis("M2-05"));
  act(t, A::kLiftOff);
  CHECK(in_space(t, 0, "M2-05") == 1);
  CHECK(t.player(0).money == 10 - 5 - 3);
}

TEST_CASE("ruling 31: keeps are capped by the seven-per-deck limit", "[lift_off][ruling]") {
  Position pos(2);
  for (const char* id : {"M1-01", "M1-02", "M1-03", "M1-04", "M1-05", "M1-06"}) pos.mission(0, id, "earth");
  pos.specialist(0, "S05", "played").at("choose_deck", 0, 1);
  State s = pos.state();
  act(s, A::kDrawFromDeck + 0);
  CHECK(s.num_drawn() == 4);
  CHECK(s.keeps_left() == 1);
}
