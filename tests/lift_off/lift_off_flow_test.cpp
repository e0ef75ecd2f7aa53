// The round structure, the contract details and bad input.
#include <cmath>
#include <limits>

#include "tests/common/conformance.h"
#include "tests/lift_off/lift_off_test_util.h"

using namespace lift_off_test;

TEST_CASE("the specialist deck empties exactly at the end of rounds 4 and 8", "[lift_off][flow]") {
  for (int n = 2; n <= 4; ++n) {
    for (uint64_t seed = 0; seed < 5; ++seed) {
      State s(cfg(), n, seed);
      Rng rng(seed);
      std::array<int, 9> deck_at_launch{};
      deck_at_launch.fill(-1);
      std::array<int, 9> phase_of_round{};
      int last_round = 1;
      while (!s.is_terminal()) {
        if (s.step() == Step::kLaunch || s.step() == Step::kChooseDeck) {
          deck_at_launch[static_cast<std::size_t>(s.round())] = s.specialist_deck_size();
          phase_of_round[static_cast<std::size_t>(s.round())] = s.phase();
        }
        last_round = s.round();
        s.apply(heuristic_action(s, rng));
      }
      INFO(n << " players, seed " << seed);
      CHECK(last_round == 8);
      for (int r = 1; r <= 8; ++r) {
        const int expected = 2 * n * (3 - (r - 1) % 4);  // 6N, 4N, 2N, 0 in each phase
        CHECK(deck_at_launch[static_cast<std::size_t>(r)] == expected);
        CHECK(phase_of_round[static_cast<std::size_t>(r)] == (r <= 4 ? 1 : 2));
      }
    }
  }
}

TEST_CASE("set-up follows the player count: cards, station spaces, start scores", "[lift_off][flow]") {
  const int specialists[3] = {18, 27, 36};
  const int missions[3][4] = {{12, 12, 10, 8}, {18, 18, 14, 11}, {24, 24, 18, 14}};
  for (int n = 2; n <= 4; ++n) {
    State s(cfg(), n, 1);
    CHECK(s.specialist_deck_size() == specialists[n - 2]);
    for (int level = 1; level <= 4; ++level) CHECK(s.mission_deck_size(level) == missions[n - 2][level - 1]);
    for (int p = 0; p < n; ++p) {
      CHECK(s.player(p).vp == 2 + 2 * p);
      CHECK(s.player(p).num_objectives == 3);
      CHECK(s.player(p).income == 5);
      CHECK(s.launch_cost(p) == 5);
      CHECK(s.capacity(p) == 1);
      CHECK(s.player(p).lab_level == 1);
    }
    CHECK(s.step() == Step::kObjectiveKeep);
    CHECK(s.current_player() == 0);
  }
}

TEST_CASE("an illegal action throws IllegalAction and changes nothing", "[lift_off][flow]") {
  State s(cfg(), 2, 9);
  const std::string before = s.to_json().dump();
  CHECK_THROWS_AS(s.apply(A::kLiftOff), IllegalAction);
  CHECK_THROWS_AS(s.apply(-1), IllegalAction);
  CHECK_THROWS_AS(s.apply(A::kNumActions), IllegalAction);
  const int other = s.player(1).objectives[0];
  CHECK_THROWS_WITH(s.apply(A::kKeepObjective + other), Catch::Contains("not legal"));
  CHECK(s.to_json().dump() == before);
}

TEST_CASE("actions read in the rulebook's words", "[lift_off][flow]") {
  State s(cfg(), 2, 9);
  CHECK(s.action_to_string(A::kPlaySpecialist + spec("S01")) == "play specialist Propulsion Engineer (S01)");
  CHECK(s.action_to_string(A::kLoadMission + mis("M2-01")) == "load mission Supply Ship (L2) on the rocket");
  CHECK(s.action_to_string(A::kBuyTwoDifferent + 1) == "buy red + blue techs for 6");
  CHECK(s.action_to_string(A::kDrawFromDeck + 2) == "draw from the level 3 mission deck");
  CHECK(s.action_to_string(A::kKeepMission + 63) == "keep mission mission #63");
  for (Action a = 0; a < A::kNumActions; ++a) CHECK(!s.action_to_string(a).empty());
}

TEST_CASE("the observation string hides other hands and objectives", "[lift_off][flow]") {
  State s(cfg(), 2, 9);
  const std::string mine = s.observation_string(0);
  const std::string all = s.to_string();
  const std::string other = cfg().objectives[s.player(1).objectives[0]].id;
  CHECK(all.find(other) != std::string::npos);
  CHECK(mine.find(other) == std::string::npos);
  CHECK(mine.find(cfg().objectives[s.player(0).objectives[0]].id) != std::string::npos);
  // A seat sees its own hidden pick; the others see only that it has picked.
  State t = s;
  act(t, A::kKeepObjective + t.player(0).objectives[1]);
  const std::string pick = "(keeping " + cfg().objectives[t.player(0).objectives[1]].id + ")";
  CHECK(t.observation_string(0).find(pick) != std::string::npos);
  CHECK(t.observation_string(1).find("keeping") == std::string::npos);
  CHECK(t.observation_string(1).find("(has picked)") != std::string::npos);
}

TEST_CASE("the encoder writes exactly its shape, finite values", "[lift_off][flow]") {
  State s(cfg(), 4, 2);
  Rng rng(4);
  std::vector<float> buf(Encoder::kSize + 1, std::numeric_limits<float>::quiet_NaN());
  for (int step = 0; step < 400 && !s.is_terminal(); ++step) {
    Encoder::encode(s, step % 4, buf.data());
    for (int i = 0; i < Encoder::kSize; ++i) REQUIRE(std::isfinite(buf[static_cast<std::size_t>(i)]));
    REQUIRE(std::isnan(buf.back()));
    s.apply(heuristic_action(s, rng));
  }
  CHECK(Encoder::shape(cfg(), 3) == std::vector<int>{Encoder::kSize});
}

TEST_CASE("JSON documents round-trip and bad ones are SerializationErrors", "[lift_off][flow]") {
  State s(cfg(), 3, 4);
  const Json doc = s.to_json();
  CHECK(State::from_json(doc, cfg()).to_json() == doc);
  auto broken = [&](auto edit) {
    Json d = doc;
    edit(d);
    return d;
  };
  CHECK_THROWS_AS(State::from_json(broken([](Json& d) { d.erase("round"); }), cfg()), SerializationError);
  CHECK_THROWS_AS(State::from_json(broken([](Json& d) { d["round"] = 9; }), cfg()), SerializationError);
  CHECK_THROWS_AS(State::from_json(broken([](Json& d) { d["step"] = "dance"; }), cfg()), SerializationError);
  CHECK_THROWS_AS(State::from_json(broken([](Json& d) { d["seats"][0]["hand"] = {"S99"}; }), cfg()),
                  SerializationError);
  CHECK_THROWS_AS(State::from_json(broken([](Json& d) { d["seats"][0]["hand"] = "S01"; }), cfg()),
                  SerializationError);
  CHECK_THROWS_AS(State::from_json(broken([](Json& d) { d["seats"][0]["lab_level"] = 7; }), cfg()),
                  SerializationError);
  // A card in two places breaks conservation.
  CHECK_THROWS_WITH(
      State::from_json(broken([](Json& d) { d["specialist_deck"][1] = d["specialist_deck"][0]; }), cfg()),
      Catch::Contains("exactly one place"));
  CHECK_THROWS_AS(State::from_json(broken([](Json& d) { d["seats"] = Json::array(); }), cfg()),
                  SerializationError);
  CHECK_THROWS_AS(State::from_json(Json::array(), cfg()), SerializationError);
}

TEST_CASE("config errors name the file, line and key", "[lift_off][flow]") {
  const std::string text = builtin_game_config("lift_off");
  auto load = [](const std::string& yaml) { return load_config(ConfigNode::parse(yaml, "lift_off.yaml")); };
  CHECK_NOTHROW(load(text));
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  CHECK_THROWS_WITH(load(replaced("start_money: 10", "start_mony: 10")),
                    Catch::Contains("lift_off.yaml:") && Catch::Contains("setup.start_mony"));
  CHECK_THROWS_WITH(
      load(replaced("banner: vp5,           actions: [money6]", "banner: vp6, actions: [money6]")),
      Catch::Contains("banner") && Catch::Contains("vp6"));
  CHECK_THROWS_WITH(load(replaced("actions: [money6],                       marker: none",
                                  "actions: [money7], marker: none")),
                    Catch::Contains("money7"));
  CHECK_THROWS_WITH(load(replaced("{colour: yellow, vp: 3}", "{colour: purple, vp: 3}")),
                    Catch::Contains("purple"));
  CHECK_THROWS_WITH(load(replaced("marker: \"4\"}", "marker: \"3\"}")), Catch::Contains("specialists"));
  CHECK_THROWS_WITH(load(replaced("weight: 1, vp: 3, effect: null", "weight: 0, vp: 3, effect: null")),
                    Catch::Contains("weight"));
  CHECK_THROWS_WITH(load(replaced("tiers: [[3,3,3],[4,6,11]", "tiers: [[3,2,3],[4,6,11]")),
                    Catch::Contains("tier"));
  CHECK_THROWS_AS(load_game("lift_off", "", "reward: best"), ConfigError);
}

// Each table of lift_off.yaml is checked as it is read: a value out of range,
// a list of the wrong length, a repeated id or too many cards is refused with
// the key named, never loaded as a broken game.
TEST_CASE("config errors: every table of the card data is checked", "[lift_off][flow]") {
  const std::string text = builtin_game_config("lift_off");
  auto load = [](const std::string& yaml) { return load_config(ConfigNode::parse(yaml, "lift_off.yaml")); };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  // `count` copies of the card line starting with `line`, ids numbered on from `first`.
  auto with_copies = [&](const std::string& line, const std::string& prefix, int first, int count,
                         const std::string& yaml) {
    const auto at = yaml.find(line);
    REQUIRE(at != std::string::npos);
    const auto end = yaml.find('\n', at) + 1;
    const std::string card = yaml.substr(at, end - at);
    std::string extra;
    for (int i = 0; i < count; ++i) {
      std::string copy = card;
      const auto id = copy.find("{id: ") + 5;
      copy.replace(id, copy.find(',', id) - id, prefix + std::to_string(first + i));
      extra += copy;
    }
    return std::string(yaml).insert(end, extra);
  };
  const std::string m101 = "copies: {none: 1, \"3\": 1, \"4\": 0}}";
  const std::pair<std::string, std::string> refused[] = {
      {replaced("lab: [3, 5, 7]", "lab: [3, 5, 700]"), "value 700 out of range [0, 100]"},
      {replaced("lab: [3, 5, 7]", "lab: [3, 5]"), "expected a list of 3 integers"},
      {replaced("1: [{red: 1}, {yellow: 1}]", "1: []"), "expected 1 to 4 alternatives"},
      {replaced("spaces: [3, 4, 5, 6, 6, 7, 8, 9, 10, 11]", "spaces: []"), "expected 1 to 16 spaces"},
      {replaced("spaces: [3, 4, 5, 6, 6, 7, 8, 9, 10, 11]", "spaces: [3, 4, 5, 6, 6, 7, 8, 9, 10, 101]"),
       "cost out of range [0, 100]"},
      {replaced("2: [3, 4, 6]", "2: [3, 4, 60]"), "space index 60 out of range"},
      {replaced("{id: S02,", "{id: S01,"), "duplicate card id 'S01'"},
      {replaced("actions: [lab_cheap],", "actions: [],"), "a specialist has one or two actions"},
      {replaced("actions: [propulsion, capacity],", "actions: [propulsion, propulsion],"),
       "the two actions of a specialist must differ"},
      {with_copies("  - {id: S36,", "S", 37, 13, text), "at most 48 specialist cards"},
      {replaced(m101, "copies: {none: 0, \"3\": 0, \"4\": 0}}"), "a mission needs a copy"},
      {with_copies("    - {id: M4-01,", "M4-", 10, 40, text), "the deck for 2 players must hold 1 to"},
      {with_copies("    - {id: M4-07,", "M4-", 10, 4, with_copies("    - {id: M3-10,", "M3-", 11, 20, text)),
       "at most 64 mission titles"},  // 24 more titles, each deck within its 40 cards
      {replaced("counts: {upgrades: [capacity]}", "counts: {upgrades: [wings]}"), "unknown upgrade 'wings'"},
      {replaced("counts: {upgrades: [capacity]}", "counts: {}"), "names nothing to count"},
      // A flag must say true, and an objective counts one thing: either slip
      // was read as tech sets counted anyway.
      {replaced("counts: {tech_sets: true}", "counts: {tech_sets: false}"),
       "must be true: it names what the objective counts"},
      {replaced("counts: {tech_sets: true}", "counts: {tech_sets: 3}"), "expected true or false"},
      {replaced("counts: {tech_sets: true}", "counts: {tech_sets: true, money: true}"),
       "names 2 things to count"},
      {replaced("counts: {missions_in_space: [2,3]", "counts: {missions_in_space: [2,5]"),
       "levels are 1 to 4"},
      {with_copies("  - {id: O01,", "O", 21, 13, text), "at most 32 objective cards"},
  };
  for (const auto& [yaml, message] : refused) {
    INFO(message);
    CHECK_THROWS_WITH(load(yaml), Catch::Contains("lift_off.yaml:") && Catch::Contains(message));
  }
  // Fewer than 12 objectives cannot deal three to each of four players.
  std::string few = text;
  for (int i = 1; i <= 9; ++i) {
    const auto at = few.find("  - {id: O0" + std::to_string(i) + ",");
    REQUIRE(at != std::string::npos);
    few.erase(at, few.find('\n', at) + 1 - at);
  }
  CHECK_THROWS_WITH(load(few),
                    Catch::Contains("objectives") && Catch::Contains("at least 12 objective cards"));
}

TEST_CASE("edited card data is used without recompiling", "[lift_off][flow]") {
  auto game = load_game("lift_off", "", "prices: {buy_tech: 1}\nspecialist_rules: {money_instead: 7}");
  auto s = game->new_state(2, 1);
  CHECK(s->action_to_string(A::kBuyTech) == "buy 1 red tech for 1");
  CHECK(s->action_to_string(A::kTakeMoney) == "use no action: take 7 money");
}

TEST_CASE("conformance with the win and score reward modes", "[lift_off][flow]") {
  testing::ConformanceOptions options;
  options.num_games = 4;
  options.deep_games = 2;
  options.overrides = "reward: win";
  testing::run_conformance("lift_off", 3, options);
  options.overrides = "reward: score";
  testing::run_conformance("lift_off", 2, options);
}

namespace {
// Plays the objective draft with each player's first cards and the direction choice.
State at_specialist_draft(int players, uint64_t seed) {
  State s(cfg(), players, seed);
  while (s.step() == Step::kObjectiveKeep)
    act(s, A::kKeepObjective + s.player(s.current_player()).objectives[0]);
  while (s.step() == Step::kObjectivePass)
    act(s, A::kPassObjective + s.player(s.current_player()).objectives[0]);
  act(s, A::kDraftLeft);
  return s;
}
}  // namespace

TEST_CASE("hidden simultaneous picks: another player's choice does not show in the encoding",
          "[lift_off][flow]") {
  const State s = at_specialist_draft(3, 8);
  State a = s, b = s;
  act(a, A::kKeepSpecialist + s.player(0).hand[0]);
  act(b, A::kKeepSpecialist + s.player(0).hand[1]);
  std::vector<float> ea(Encoder::kSize), eb(Encoder::kSize);
  for (int viewer = 1; viewer < 3; ++viewer) {
    Encoder::encode(a, viewer, ea.data());
    Encoder::encode(b, viewer, eb.data());
    CHECK(ea == eb);
  }
  Encoder::encode(a, 0, ea.data());
  Encoder::encode(b, 0, eb.data());
  CHECK(ea != eb);  // the picker sees their own pick
}

TEST_CASE("two players: what each saw while drafting specialists is remembered exactly", "[lift_off][flow]") {
  State s = at_specialist_draft(2, 4);
  const auto hand0 = s.player(0).hand;
  act(s, A::kKeepSpecialist + hand0[0]);
  act(s, A::kKeepSpecialist + s.player(1).hand[0]);
  // Player 0 passed hand0[1], hand0[2] to player 1 and knows they are there.
  const uint64_t passed = (uint64_t{1} << hand0[1]) | (uint64_t{1} << hand0[2]);
  CHECK(s.known_specialists(0, 1) == passed);
  // Player 1 now passes one of them back: player 0 sees it come back and knows the other stays.
  const int passed_back = s.player(0).hand[0];  // and player 0 passes this one on
  act(s, A::kPassSpecialist + passed_back);
  act(s, A::kPassSpecialist + hand0[1]);
  CHECK(in_hand(s, 0, cfg().specialists[hand0[1]].id));
  CHECK(s.known_specialists(0, 1) == ((uint64_t{1} << hand0[2]) | (uint64_t{1} << passed_back)));
  // Player 1 passed two cards to player 0, saw which card came back, so knows the whole hand.
  uint64_t hand_of_0 = 0;
  for (int i = 0; i < 3; ++i) hand_of_0 |= uint64_t{1} << s.player(0).hand[static_cast<std::size_t>(i)];
  CHECK(s.known_specialists(1, 0) == hand_of_0);
  CHECK(in_hand(s, 1, cfg().specialists[hand0[2]].id));
  // Once player 1 plays that card it is public and no longer remembered in the hand.
  if (s.current_player() == 0) act(s, A::kPlaySpecialist + s.player(0).hand[0]);
  if (s.step() == Step::kSpecialistActions) act(s, A::kEndSpecialist);
  REQUIRE(s.current_player() == 1);
  act(s, A::kPlaySpecialist + hand0[2]);
  CHECK(s.known_specialists(0, 1) == uint64_t{1} << passed_back);
}

// legal_actions_mask marks the cards of a step's list and a played specialist's available
// actions from the state (State::mark_specialist_actions) instead of asking legal() id by id:
// both must agree on every id, at every decision of random games with 2, 3 and 4 players,
// heuristic moves mixed in so that the players have money and tech to spend.
TEST_CASE("legal mask: every id as is_legal says, in random and heuristic games", "[lift_off][mask]") {
  std::array<uint8_t, A::kNumActions> mask{};
  std::vector<Action> legal;
  // The station's reward (ruling 16), with income to gain and at its limit (ruling 18): random
  // games seldom get there.
  for (int income : {5, 9}) {
    Position station = play_position(2, {"S14"}, 3);
    station.set(0, "income", income);
    State t = station.state();
    act(t, A::kPlaySpecialist + spec("S14"));
    act(t, A::kStationInvest);
    REQUIRE(t.step() == Step::kStationReward);
    t.legal_actions_mask(mask.data());
    for (Action a = 0; a < A::kNumActions; ++a) {
      INFO("income " << income << ", id " << a << " (" << t.action_to_string(a) << ")");
      CHECK((mask[static_cast<std::size_t>(a)] != 0) == t.is_legal(a));
    }
    CHECK(mask[A::kStationIncome] == (income < 9 ? 1 : 0));
  }
  int specialist_ids = 0, mission_ids = 0;  // legal ids seen in the ranges the mask builds itself
  std::array<int, 32> steps_seen{};
  for (int players = 2; players <= 4; ++players)
    for (uint64_t game = 0; game < 10; ++game) {
      State s(cfg(), players, derive_seed(5610 + static_cast<uint64_t>(players), game));
      Rng bot(derive_seed(5710, game)), pick(derive_seed(5711, game));
      for (int decision = 0; !s.is_terminal(); ++decision) {
        s.legal_actions_mask(mask.data());
        ++steps_seen[static_cast<std::size_t>(s.step())];
        legal.clear();
        for (Action a = 0; a < A::kNumActions; ++a) {
          const uint8_t m = mask[static_cast<std::size_t>(a)];
          if ((m != 0) != s.is_legal(a) || m > 1)
            FAIL(players << " players, game " << game << ", decision " << decision << ": id " << a << " ("
                         << s.action_to_string(a) << ") is " << (s.is_legal(a) ? "" : "not ")
                         << "legal, the mask says " << int(m));
          if (!m) continue;
          legal.push_back(a);
          specialist_ids += a > A::kEndSpecialist && a < A::kStationGreen;
          mission_ids += (a >= A::kKeepMission && a < A::kStopKeeping) ||
                         (a >= A::kLoadMission && a < A::kApplyCapacity);
        }
        s.apply(decision % 2 ? heuristic_action(s, bot)
                             : legal[pick.below(static_cast<uint32_t>(legal.size()))]);
      }
    }
  INFO("specialist action ids " << specialist_ids << ", mission ids " << mission_ids);
  CHECK(specialist_ids > 0);
  CHECK(mission_ids > 0);
  // Every step but the exchange's second half and the station's reward (above) comes up.
  for (int step = 0; step < static_cast<int>(Step::kGameOver); ++step) {
    if (step == static_cast<int>(Step::kExchangeTake) || step == static_cast<int>(Step::kStationReward))
      continue;
    INFO("step " << step_name(static_cast<Step>(step)));
    CHECK(steps_seen[static_cast<std::size_t>(step)] > 0);
  }
}
