// The Last Blast: state documents are validated completely (issue 16). Each
// kind of broken document is refused with the field named; every document
// that loads is a position the game can reach, and plays to the end.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>

#include "envs/last_blast/last_blast_bot.h"
#include "tests/last_blast/last_blast_test_util.h"

using namespace rocketgym;
using namespace rocketgym::last_blast;
using namespace rocketgym::last_blast::test;

namespace {

using Edit = std::function<void(Json&)>;

struct Broken {
  const char* what;
  Edit edit;
  std::string field;  // the message names it
};

std::vector<Action> legal_actions(const State& s) {
  std::vector<Action> out;
  for (Action a = 0; a < kNumActions; ++a)
    if (s.is_legal(a)) out.push_back(a);
  return out;
}

// Plays `s` to the end with random legal actions, checking it at each step.
void play_to_end(State s, uint64_t seed) {
  Rng rng(seed);
  for (int step = 0; !s.is_terminal(); ++step) {
    REQUIRE(step < game_info().max_decisions);
    REQUIRE_NOTHROW(s.check_invariants());
    const auto legal = legal_actions(s);
    REQUIRE(!legal.empty());
    REQUIRE(s.current_player() >= 0);
    const Action a =
        step % 2 ? heuristic_action(s, rng) : legal[rng.below(static_cast<uint32_t>(legal.size()))];
    REQUIRE(s.is_legal(a));
    s.apply(a);
  }
  REQUIRE_NOTHROW(s.check_invariants());
  REQUIRE(s.current_player() == -1);
}

Action blind_when_possible(const State& s) {
  if (s.awaiting_blind_placement()) return kPlaceBlindFront;
  return s.is_legal(kDrawBlind) ? kDrawBlind : first_legal(s);
}

// Positions of every phase and decision.
State mid_draft() {  // 3 players, hand 1, pick 2, player 1 to pick
  State s(standard_config(), 3, 61);
  play_until(s, first_legal, [](const State& t) {
    return t.hand_number() == 1 && t.pick_number() == 2 && t.current_player() == 1;
  });
  return s;
}
State first_pick() {  // 2 players, player 1 to make the very first pick
  State s(standard_config(), 2, 62);
  s.apply(first_legal(s));
  return s;
}
State placing_blind() {  // 2 players, fourth pick, player 0 placing a blind card
  State s(standard_config(), 2, 63);
  play_until(s, first_legal, [](const State& t) { return t.pick_number() == 3; });
  s.apply(kDrawBlind);
  return s;
}
State reshuffled_third_hand() {  // 3 players, the third hand dealt from reshuffled discards
  State s(standard_config(), 3, 64);
  play_until(s, blind_when_possible, [](const State& t) { return t.hand_number() == 2; });
  return s;
}
State mid_flight() {  // 3 players, second round, one rocket has moved
  State s(standard_config(), 3, 65);
  Rng rng(1);
  play_until(
      s, [&](const State& t) { return heuristic_action(t, rng); },
      [](const State& t) {
        return t.round() == 1 && t.moved_this_round(t.start_player()) && !t.awaiting_removal_choice();
      });
  REQUIRE(s.phase() == Phase::kFlight);
  return s;
}
State removing_damage() {  // 2 players, a player choosing which end to lose
  FlightSetup f{{"DHCBWAD", "HCBWADH", "CBWADHC"}, {{"amber 4 arrow"}, {"amber 6 drop"}}, {12, 12}};
  f.cubes = {{{0, 0}}, {{2, 0}}};
  f.round = 1;
  State s = f.build();
  s.apply(move_to_row(2));  // two rows jumped + arrow (6) on bricks (4): 4 damage
  REQUIRE(s.awaiting_removal_choice());
  return s;
}
State over() {
  State s(standard_config(), 2, 66);
  Rng rng(2);
  play_until(
      s, [&](const State& t) { return heuristic_action(t, rng); },
      [](const State& t) { return t.is_terminal(); });
  REQUIRE(s.is_terminal());
  return s;
}

void expect_refused(const State& base, const std::vector<Broken>& kinds) {
  const Json good = base.to_json();
  REQUIRE_NOTHROW(State::from_json(good, standard_config()));
  for (const Broken& kind : kinds) {
    INFO(kind.what);
    Json doc = good;
    kind.edit(doc);
    REQUIRE(doc != good);
    CHECK_THROWS_WITH(State::from_json(doc, standard_config()), Catch::Contains(kind.field));
  }
}

// Moves the first card of list `from` to the end of list `to` (JSON pointers).
Edit move_card(const std::string& from, const std::string& to) {
  return [=](Json& d) {
    Json& a = d[Json::json_pointer(from)];
    d[Json::json_pointer(to)].push_back(a[0]);
    a.erase(0);
  };
}

Edit set(const std::string& pointer, Json value) {
  return [=](Json& d) { d[Json::json_pointer(pointer)] = value; };
}

}  // namespace

TEST_CASE("documents: during the draft the flight fields hold their starting values", "[last_blast][json]") {
  expect_refused(
      mid_draft(),
      {
          {"a rocket that moved", set("/flight/players/0/moved", true), "flight.players[0].moved"},
          {"a cube on the field", set("/flight/players/1/row", 0), "flight.players[1].row"},
          {"a cube in a column", set("/flight/players/2/column", 3), "flight.players[2].column"},
          {"an exploded rocket", set("/flight/players/0/status", "exploded"), "flight.players[0].status"},
          {"an exited rocket", set("/flight/players/2/status", "exited"), "flight.players[2].status"},
          {"a round under way", set("/flight/round", 2), "flight.round"},
          {"a Start Player", set("/flight/start_player", 1), "flight.start_player"},
          {"a mover", set("/flight/mover", 0), "flight.mover"},
          {"damage to remove", set("/flight/damage_left", 1), "flight.damage_left"},
          {"cards removed", set("/flight/removed_this_turn", 2), "flight.removed_this_turn"},
          {"a lost card", move_card("/deck", "/lost"), "lost"},
      });
}

TEST_CASE("documents: the draft's picks, hands, piles and knowledge must agree", "[last_blast][json]") {
  expect_refused(
      mid_draft(),
      {
          {"the picker after an unpicked player", set("/draft/picker", 2), "draft.picks[1]"},
          {"a player before the picker without a pick",
           [](Json& d) {
             d["draft"]["hands"][0].push_back(d["draft"]["picks"][0]["card"]);
             d["draft"]["picks"][0] = nullptr;
           },
           "draft.picks[0]"},
          {"a player after the picker with a pick", move_card("/deck", "/draft/hands/2"), "draft.hands[2]"},
          {"a finished pick without an end", set("/draft/picks/0/end", "undecided"), "draft.picks[0]"},
          {"a blind draw before the fourth pick", set("/draft/picks/0/blind", true), "draft.picks[0].blind"},
          {"a hand one card short", move_card("/draft/hands/1", "/deck"), "draft.hands[1]"},
          {"the pick number", set("/draft/pick", 1), "rockets[0]"},
          {"the hand number", set("/draft/hand", 2), "rockets[0]"},
          {"a rocket one card short", move_card("/rockets/2", "/deck"), "rockets[2]"},
          {"too many discards", move_card("/deck", "/discard"), "discard"},
          {"too few discards", move_card("/discard", "/deck"), "discard"},
          {"a card counted twice", [](Json& d) { d["deck"].push_back(d["rockets"][0][0]); },
           "appears 2 times"},
          {"a card missing", [](Json& d) { d["deck"].erase(0); }, "appears 0 times"},
          {"a hand seen by a player who never held it", move_card("/seen/0", "/seen/1"), "seen"},
          {"a deck card seen", [](Json& d) { d["seen"][0].push_back(d["deck"][0]); }, "seen"},
          {"an own card unseen", [](Json& d) { d["seen"][1] = Json::array(); }, "seen"},
          {"a discard unseen",
           [](Json& d) {
             Json& seen = d["seen"][2];
             seen.erase(std::find(seen.begin(), seen.end(), d["discard"][0]) - seen.begin());
           },
           "seen"},
          {"a card seen twice", [](Json& d) { d["seen"][1].push_back(d["seen"][1][0]); }, "seen[1]["},
          {"a reshuffled card before the third hand", [](Json& d) { d["reshuffled"] = {d["deck"][0]}; },
           "reshuffled"},
      });
  // The very first pick: a rocket starts at its front.
  expect_refused(first_pick(),
                 {{"the first card at the back", set("/draft/picks/0/end", "back"), "draft.picks[0].end"}});
  // A blind card waits for its end only while its drawer is to decide.
  expect_refused(
      placing_blind(),
      {
          {"the picker placed its card", set("/draft/picks/0/end", "front"), "draft.picks[0]"},
          {"an end waiting for a card from the hand", set("/draft/picks/0/blind", false), "draft.picks[0]"},
          {"a deck the others know", [](Json& d) { d["seen"][1].push_back(d["deck"][0]); }, "seen"},
          {"a blind card the others know",
           [](Json& d) { d["seen"][1].push_back(d["draft"]["picks"][0]["card"]); }, "seen"},
      });
  // After a reshuffled deal the deck holds reshuffled cards, known to nobody.
  expect_refused(reshuffled_third_hand(),
                 {
                     {"a deck card not reshuffled", [](Json& d) { d["reshuffled"].erase(0); }, "reshuffled"},
                     {"a reshuffled card known in the deck",
                      [](Json& d) { d["seen"][0].push_back(d["deck"][0]); }, "seen"},
                     {"a discard after the reshuffle", move_card("/deck", "/discard"), "discard"},
                 });
}

TEST_CASE("documents: during the flight the draft fields hold their final values", "[last_blast][json]") {
  expect_refused(mid_flight(),
                 {
                     {"a hand number", set("/draft/hand", 1), "draft.hand"},
                     {"a pick number", set("/draft/pick", 3), "draft.pick"},
                     {"a picker", set("/draft/picker", 1), "draft.picker"},
                     {"a hand", move_card("/deck", "/draft/hands/0"), "draft.hands[0]"},
                     {"a pick",
                      [](Json& d) {
                        d["draft"]["picks"][1] = {{"card", d["deck"][0]}, {"end", "front"}, {"blind", false}};
                        d["deck"].erase(0);
                      },
                      "draft.picks[1]"},
                     {"a deck card that was lost", move_card("/lost", "/deck"), "deck"},
                 });
}

TEST_CASE("documents: the flight's statuses, cubes, turn order and damage must agree", "[last_blast][json]") {
  const State s = mid_flight();
  const int start = s.start_player(), next = (start + 1) % 3;
  const std::string moved = "/flight/players/" + std::to_string(start) + "/moved";
  const std::string waiting = "/flight/players/" + std::to_string(next);
  REQUIRE(s.status(next) == Status::kFlying);
  expect_refused(
      s, {
             {"an exited rocket mid-game", set(waiting + "/status", "exited"), "status"},
             {"an exploded rocket with cards", set(waiting + "/status", "exploded"), "status"},
             {"the Start Player has not moved, the next one has",
              [&](Json& d) {
                d[Json::json_pointer(moved)] = false;
                d[Json::json_pointer(waiting + "/moved")] = true;
              },
              "flight.players"},
             {"the wrong mover", set("/flight/mover", start), "flight.mover"},
             {"a cube a column ahead",
              [&](Json& d) {
                Json& c = d[Json::json_pointer(waiting + "/column")];
                c = c.get<int>() + 1;
              },
              "column"},
             {"a cube off the field", set(waiting + "/row", -1), "row"},
             {"two cubes on one tile",
              [&](Json& d) {
                const std::string mover = "/flight/players/" + std::to_string(start);
                d[Json::json_pointer(waiting + "/row")] = d[Json::json_pointer(mover + "/row")];
                d[Json::json_pointer(waiting + "/column")] = d[Json::json_pointer(mover + "/column")];
                d[Json::json_pointer(waiting + "/moved")] = true;
              },
              "flight.players"},
             {"damage left without the two fixed losses", set("/flight/damage_left", 1), "removed_this_turn"},
             {"cards removed between turns", set("/flight/removed_this_turn", 2), "removed_this_turn"},
             {"no cards left in a flying rocket",
              [&](Json& d) {
                Json& rocket = d["rockets"][next];
                for (auto& card : rocket) d["lost"].push_back(card);
                rocket = Json::array();
              },
              "status"},
         });
  // Turns go clockwise from the Start Player.
  FlightSetup order{{"DHCBWAH", "DCBWAHC", "DBWAHCB", "DWAHCBW"},
                    {{"amber 4 drop"}, {"amber 5 drop"}, {"amber 6 drop"}},
                    {12, 12, 12},
                    {{{0, 0}}, {{1, 1}}, {{2, 0}}},
                    {},
                    {false, true, false}};
  order.round = 1;
  REQUIRE_THROWS_WITH(order.build(), Catch::Contains("flight.players[1].moved"));
  order.start_player = 1;
  order.mover = 2;
  REQUIRE_NOTHROW(order.build());
  // Before anyone has moved, the Start Player is one the rules allow.
  FlightSetup f{{"DHCBWAD", "HCBWADH", "CBWADHC"}, {{"amber 4 drop"}, {"amber 5 drop"}}, {12, 12}};
  REQUIRE_NOTHROW(f.build());
  f.start_player = f.mover = 1;
  REQUIRE_THROWS_WITH(f.build(), Catch::Contains("flight.start_player"));
  f.round = 2;
  f.cubes = {{{0, 1}}, {{1, 1}}};
  f.sizes = {12, 11};  // fewest cards first
  REQUIRE_NOTHROW(f.build());
  f.start_player = f.mover = 0;
  REQUIRE_THROWS_WITH(f.build(), Catch::Contains("flight.start_player"));
  // Removing damage: the choice comes only while cards will remain.
  expect_refused(
      removing_damage(),
      {
          {"all the rest would go", set("/flight/damage_left", 11), "flight.damage_left"},
          {"the first two losses are not chosen", set("/flight/removed_this_turn", 1),
           "flight.removed_this_turn"},
          {"a mover who has not moved", set("/flight/players/0/moved", false), "flight.players[0]"},
      });
}

TEST_CASE("documents: a finished game has finished", "[last_blast][json]") {
  const State s = over();
  const Json doc = s.to_json();
  int standing = -1;
  for (int p = 0; p < 2; ++p)
    if (s.status(p) != Status::kExploded) standing = p;
  REQUIRE(standing >= 0);
  const std::string player = "/flight/players/" + std::to_string(standing);
  expect_refused(s, {
                        {"a mover", set("/flight/mover", standing), "flight.mover"},
                        {"damage left", set("/flight/damage_left", 1), "flight.damage_left"},
                        {"a rocket that did not move in the last round", set(player + "/moved", false),
                         "flight.players[" + std::to_string(standing) + "]"},
                    });
  if (s.round() < kColumns - 1)
    expect_refused(s, {{"an exit before column 7", set(player + "/status", "exited"), "flight.players"}});
}

TEST_CASE("documents: the fields must be known, typed and in range", "[last_blast][json]") {
  expect_refused(
      mid_draft(),
      {
          {"an unknown field", set("/colour", "red"), "colour: unknown field"},
          {"a misspelt field", [](Json& d) { d["flight"]["players"][0]["moevd"] = false; },
           "flight.players[0].moevd"},
          {"another game", set("/game", "launch_pad"), "game"},
          {"an RNG that cannot move", set("/rng", Json::array({0, 0, 0, 0})), "rng"},
          {"a player count that is not the field's", set("/players", 2), "field"},
          {"a number for a bool", set("/flight/players/1/moved", 0), "flight.players[1].moved"},
          {"a wrapped integer", set("/draft/picker", 4294967297ull), "draft.picker"},
          {"a fraction", set("/draft/pick", 2.5), "draft.pick"},
          {"a row off the field", set("/flight/players/0/row", 4), "flight.players[0].row"},
          {"an unknown card", set("/deck/0", "purple 9 moon"), "deck[0]"},
          {"an unknown end", set("/draft/picks/0/end", "middle"), "draft.picks[0].end"},
          {"an unknown tile", set("/field/1/3", "comet"), "field[1][3]"},
          {"a short field row", [](Json& d) { d["field"][0].erase(0); }, "field[0]"},
          {"a tile too many", [](Json& d) { d["set_aside_tiles"].push_back("drop"); }, "set_aside_tiles"},
      });
}

TEST_CASE("documents: without \"seen\", each seat knows what the position shows it", "[last_blast][json]") {
  for (const State& s : {mid_draft(), first_pick(), placing_blind(), mid_flight()}) {
    Json doc = s.to_json();
    doc.erase("seen");
    REQUIRE(State::from_json(doc, standard_config()).to_json() == s.to_json());
  }
}

TEST_CASE("documents: every damaged document is refused or plays to the end", "[last_blast][json]") {
  // Every leaf of documents from each phase, replaced by nearby and far
  // values; moved cards and flipped flags. What loads must play to the end.
  std::vector<State> bases = {mid_draft(),  first_pick(),      placing_blind(), reshuffled_third_hand(),
                              mid_flight(), removing_damage(), over()};
  // And positions of random games, 2 to 4 players.
  Rng rng(67);
  for (int n = 2; n <= 4; ++n)
    for (int k = 0; k < 3; ++k) {
      State s(standard_config(), n, rng.next());
      const int steps = static_cast<int>(rng.below(90));
      for (int step = 0; step < steps && !s.is_terminal(); ++step) {
        const auto legal = legal_actions(s);
        s.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      }
      bases.push_back(s);
    }
  const auto& names = standard_config().card_names;
  int loaded = 0, refused = 0;
  uint64_t seed = 0;
  for (const State& base : bases) {
    const Json doc = base.to_json();
    std::vector<Json> variants;
    const Json flat = doc.flatten();
    for (const auto& leaf : flat.items()) {
      const Json& v = leaf.value();
      std::vector<Json> values = {nullptr,
                                  Json::array(),
                                  -1,
                                  0,
                                  1,
                                  2,
                                  3,
                                  6,
                                  99,
                                  true,
                                  false,
                                  "front",
                                  "back",
                                  "undecided",
                                  "flying",
                                  "exploded",
                                  "exited",
                                  "draft",
                                  "flight",
                                  "over",
                                  names[static_cast<std::size_t>(seed % names.size())]};
      if (v.is_number_integer() && !v.is_number_unsigned())
        values.insert(values.end(), {v.get<int64_t>() - 1, v.get<int64_t>() + 1});
      for (const Json& value : values) {
        Json damaged = doc;
        damaged[Json::json_pointer(leaf.key())] = value;
        variants.push_back(damaged);
      }
      ++seed;
    }
    // Cards moved from one list to another.
    const std::vector<std::string> lists = {"/deck",          "/discard",   "/lost",      "/draft/hands/0",
                                            "/draft/hands/1", "/rockets/0", "/rockets/1", "/seen/0",
                                            "/seen/1",        "/reshuffled"};
    for (const auto& from : lists)
      for (const auto& to : lists) {
        if (from == to || doc[Json::json_pointer(from)].empty()) continue;
        Json moved = doc;
        move_card(from, to)(moved);
        variants.push_back(moved);
      }
    for (const Json& damaged : variants) {
      if (damaged == doc) continue;
      State s = base;
      try {
        s = State::from_json(damaged, standard_config());
      } catch (const SerializationError&) {
        ++refused;
        continue;
      }
      ++loaded;
      INFO("loaded:\n" << damaged.dump());
      play_to_end(s, ++seed);
    }
  }
  WARN("damaged documents: " << loaded << " loaded and played to the end, " << refused << " refused");
  REQUIRE(loaded > 0);
  REQUIRE(refused > loaded);
}

TEST_CASE("documents: per-player lists hold one entry per player", "[last_blast][json]") {
  expect_refused(mid_draft(),
                 {
                     {"a rocket for a fourth player", [](Json& d) { d["rockets"].push_back(Json::array()); },
                      "rockets: needs one entry per player (3), has 4"},
                     {"rockets for five players",
                      [](Json& d) {
                        d["rockets"].push_back(Json::array());
                        d["rockets"].push_back(Json::array());
                      },
                      "rockets: has 5 entries, at most 4 fit"},
                     {"what two of three players saw", [](Json& d) { d["seen"].erase(2); },
                      "seen: needs one entry per player (3), has 2"},
                 });
}

TEST_CASE("documents: a player after the picker has not picked yet (ruling 2)", "[last_blast][json]") {
  const State s = mid_draft();
  REQUIRE(s.current_player() == 1);
  Json doc = s.to_json();
  doc.erase("seen");  // what each seat knows follows from the position
  doc["draft"]["picks"][2] = {{"card", doc["deck"][0]}, {"end", "front"}, {"blind", false}};
  doc["deck"].erase(0);
  REQUIRE_THROWS_WITH(State::from_json(doc, standard_config()),
                      Catch::Contains("draft.picks[2]") && Catch::Contains("comes after the picker"));
}

// Rulings 4 and 7: a rocket that exploded in an earlier round takes no turn,
// holds no Start Player token and has no cube on the field (the alternate rule
// keeps its cube in the column of the round, blocking that tile).
TEST_CASE("documents: a rocket exploded in an earlier round sits out", "[last_blast][json]") {
  // Round 2 of 3 players: player 0 exploded in round 1, 1 and 2 are to move.
  FlightSetup f{{"DHCBWAH", "DCBWAHC", "DBWAHCB", "DWAHCBW"},
                {{}, {"amber 5 drop"}, {"amber 6 drop"}},
                {0, 12, 12},
                {{{-1, -1}}, {{1, 0}}, {{2, 0}}},
                {"exploded", "flying", "flying"}};
  f.round = 1;
  f.start_player = f.mover = 1;
  REQUIRE_NOTHROW(f.build());
  FlightSetup start = f;
  start.start_player = 0;
  REQUIRE_THROWS_WITH(start.build(), Catch::Contains("flight.start_player") &&
                                         Catch::Contains("the Start Player's rocket is in flight"));
  FlightSetup on_field = f;
  on_field.cubes[0] = {3, 0};
  REQUIRE_THROWS_WITH(on_field.build(), Catch::Contains("flight.players[0].row") &&
                                            Catch::Contains("an exploded cube leaves the field"));
  // The alternate rule: the exploded cube keeps pace with the round.
  FlightSetup alternate = f;
  alternate.cubes[0] = {3, 1};
  REQUIRE_NOTHROW(alternate.build(alternate_config()));
  REQUIRE_THROWS_WITH(f.build(alternate_config()), Catch::Contains("flight.players[0].column") &&
                                                       Catch::Contains("moves on with the round"));
}

TEST_CASE("documents: damage that takes the whole rocket leaves no choice (ruling 6)", "[last_blast][json]") {
  // Player 0 has moved, lost its front and back, and has two cards left.
  FlightSetup f{{"DHCBWAD", "HCBWADH", "CBWADHC"}, {{"amber 4 arrow"}, {"amber 6 drop"}}, {2, 12}};
  f.cubes = {{{2, 1}}, {{0, 0}}};
  f.moved = {true, false};
  f.round = 1;
  auto with_damage = [&](int damage_left) {
    Json doc = f.document();
    doc["flight"]["damage_left"] = damage_left;
    doc["flight"]["removed_this_turn"] = 2;
    return State::from_json(doc, standard_config());
  };
  const State choosing = with_damage(1);
  REQUIRE(choosing.awaiting_removal_choice());
  REQUIRE(choosing.current_player() == 0);
  REQUIRE_THROWS_WITH(with_damage(2), Catch::Contains("flight.damage_left") && Catch::Contains("no choice"));
}

TEST_CASE("documents: at the end every rocket in flight has flown the last round", "[last_blast][json]") {
  // Over after round 2 of 3 players: player 0 exploded in round 1, player 1 in
  // round 2; player 2 is the last rocket in flight.
  FlightSetup f{
      {"DHCBWAH", "DCBWAHC", "DBWAHCB", "DWAHCBW"}, {{}, {}, {"amber 6 drop"}},         {0, 0, 12},
      {{{-1, -1}}, {{-1, -1}}, {{2, 1}}},           {"exploded", "exploded", "flying"}, {false, true, true}};
  f.phase = "over";
  f.round = 1;
  f.start_player = 1;
  f.mover = -1;
  REQUIRE_NOTHROW(f.build());
  FlightSetup start = f;
  start.start_player = 0;
  REQUIRE_THROWS_WITH(start.build(), Catch::Contains("flight.start_player") &&
                                         Catch::Contains("was in flight in the last round"));
  FlightSetup unmoved = f;
  unmoved.moved[2] = false;
  unmoved.cubes[2] = {2, 0};
  REQUIRE_THROWS_WITH(unmoved.build(), Catch::Contains("flight.players[2].moved") &&
                                           Catch::Contains("every rocket in flight moved in the last round"));
}
