// Loading is validation: every field in range, every card in one place, the
// round, phase, turn, picks and pending decision in agreement, the knowledge
// true, final points right. A document that loads plays to its end.
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>

#include "tests/lift_off/lift_off_test_util.h"

using namespace lift_off_test;

namespace {

// A document one edit away from a position reached in play, or the edit's
// failure to load.
Json edited(const Json& doc, const std::function<void(Json&)>& edit) {
  Json d = doc;
  edit(d);
  return d;
}

std::string load_error(const Json& doc) {
  try {
    State::from_json(doc, cfg());
  } catch (const SerializationError& e) {
    return e.what();
  }
  return "";
}

// Plays on from a loaded position to the end with random legal moves,
// checking at every decision what a loaded position promises.
void play_to_end(State s, uint64_t seed) {
  Rng rng(seed);
  std::array<uint8_t, A::kNumActions> mask{};
  for (int moves = 0; !s.is_terminal(); ++moves) {
    INFO("move " << moves << "\n" << s.to_string());
    REQUIRE(moves < Game::info().max_decisions);
    s.check_invariants();
    s.legal_actions_mask(mask.data());
    std::vector<Action> legal;
    for (Action a = 0; a < A::kNumActions; ++a)
      if (mask[static_cast<std::size_t>(a)]) legal.push_back(a);
    REQUIRE(!legal.empty());
    Rng bot_rng(seed + static_cast<uint64_t>(moves));
    const Action h = heuristic_action(s, bot_rng);
    REQUIRE(s.is_legal(h));
    s.apply(rng.below(2) ? h : legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  }
  s.check_invariants();
  std::array<int, kMaxPlayers> scores{};
  s.scores(scores.data());
  for (int p = 0; p < s.num_players(); ++p) CHECK(scores[static_cast<std::size_t>(p)] < 100000);
}

// Positions from random games, at random points.
std::vector<Json> sample_documents(int players, int games, int per_game, uint64_t seed) {
  std::vector<Json> docs;
  Rng rng(seed);
  for (int g = 0; g < games; ++g) {
    State s(cfg(), players, rng.next());
    std::array<uint8_t, A::kNumActions> mask{};
    while (!s.is_terminal()) {
      if (rng.below(100) < static_cast<uint32_t>(per_game)) docs.push_back(s.to_json());
      s.legal_actions_mask(mask.data());
      std::vector<Action> legal;
      for (Action a = 0; a < A::kNumActions; ++a)
        if (mask[static_cast<std::size_t>(a)]) legal.push_back(a);
      Rng bot(rng.next());
      s.apply(rng.below(2) ? heuristic_action(s, bot)
                           : legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    docs.push_back(s.to_json());
  }
  return docs;
}

// Every leaf and list of a document, as JSON pointers.
void leaves(const Json& j, const std::string& at, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) leaves(it.value(), at + "/" + it.key(), out);
  } else if (j.is_array()) {
    out.push_back(at);
    for (std::size_t i = 0; i < j.size(); ++i) leaves(j[i], at + "/" + std::to_string(i), out);
  } else {
    out.push_back(at);
  }
}

// One random edit of one field: numbers nudged or replaced, flags flipped,
// names swapped for other names of the same kind, cards moved between lists.
void mutate(Json& doc, Rng& rng) {
  std::vector<std::string> paths;
  leaves(doc, "", paths);
  const std::string path = paths[rng.below(static_cast<uint32_t>(paths.size()))];
  Json& x = doc[Json::json_pointer(path)];
  if (x.is_boolean()) {
    x = !x.get<bool>();
  } else if (x.is_number_unsigned() && x.get<uint64_t>() > static_cast<uint64_t>(1) << 40) {
    const uint64_t v = x.get<uint64_t>();  // a generator word
    const uint64_t options[] = {0, 1, v - 1, v ^ 1};
    x = options[rng.below(4)];
  } else if (x.is_number_integer()) {
    const int64_t v = x.get<int64_t>();
    const int64_t options[] = {v - 1, v + 1, v + 2, -1, 0, 1, 3, 7, 2147483647, v * 2, 9, 100001};
    x = options[rng.below(12)];
  } else if (x.is_string()) {
    const std::string v = x;
    std::vector<std::string> names;
    if (cfg().specialist_index(v) >= 0)
      for (const auto& c : cfg().specialists) names.push_back(c.id);
    else if (cfg().mission_index(v) >= 0)
      for (const auto& c : cfg().missions) names.push_back(c.id);
    else if (cfg().objective_index(v) >= 0)
      for (const auto& c : cfg().objectives) names.push_back(c.id);
    else if (v.rfind("hand", 0) == 0 || v == "deck" || v == "box" || v.rfind("discarded", 0) == 0)
      names = {"hand0", "hand1", "hand2", "hand3", "deck", "box", "discarded0", "discarded1"};
    else if (v == "left" || v == "right")
      names = {"left", "right"};
    else
      for (const char* step : {"objective_keep", "objective_pass", "choose_direction", "specialist_keep",
                               "specialist_pass", "play_specialist", "specialist_actions", "bulk_buy",
                               "exchange_give", "exchange_take", "station_reward", "choose_deck",
                               "keep_missions", "launch", "load_rocket", "discard_objectives", "game_over"})
        names.push_back(step);
    x = names[rng.below(static_cast<uint32_t>(names.size()))];
  } else if (x.is_array() && !x.empty() && x[0].is_string()) {
    // Move a card to another list of cards (or drop it, or copy it).
    const std::size_t i = rng.below(static_cast<uint32_t>(x.size()));
    const Json card = x[i];
    const uint32_t how = rng.below(3);
    if (how != 2) x.erase(i);
    if (how != 1) {
      std::vector<std::string> lists;
      for (const auto& p : paths) {
        const Json& l = doc[Json::json_pointer(p)];
        if (l.is_array() && (l.empty() || l[0].is_string())) lists.push_back(p);
      }
      doc[Json::json_pointer(lists[rng.below(static_cast<uint32_t>(lists.size()))])].push_back(card);
    }
  } else if (x.is_null()) {
    x = cfg().specialists[rng.below(static_cast<uint32_t>(cfg().specialists.size()))].id;
  }
}

}  // namespace

TEST_CASE("validation: edited documents either fail to load or play to the end", "[lift_off][validation]") {
  int accepted = 0, rejected = 0;
  // LIFT_OFF_EDIT_GAMES=<n> plays more games for a longer search (default 6).
  const char* more = std::getenv("LIFT_OFF_EDIT_GAMES");
  const int games = more ? std::atoi(more) : 6;
  for (int players = 2; players <= 4; ++players) {
    const auto docs = sample_documents(players, games, 3,
                                       1000 + static_cast<uint64_t>(players) + static_cast<uint64_t>(games));
    Rng rng(77 + static_cast<uint64_t>(players));
    for (const Json& doc : docs) {
      for (int k = 0; k < 25; ++k) {
        Json d = doc;
        const int edits = 1 + static_cast<int>(rng.below(2));
        for (int e = 0; e < edits; ++e) mutate(d, rng);
        if (d == doc) continue;
        std::optional<State> s;
        try {
          s.emplace(State::from_json(d, cfg()));
        } catch (const SerializationError&) {
          ++rejected;
          continue;
        }
        ++accepted;
        INFO(players << " players, edited document:\n" << d.dump());
        play_to_end(*s, rng.next());
      }
    }
  }
  WARN("edited documents: " << accepted << " loaded and played to the end, " << rejected << " rejected");
  CHECK(accepted > 0);
  CHECK(rejected > 0);
}

namespace {

// A document of a position reached in play where `pick` holds.
Json reached(int players, uint64_t seed, const std::function<bool(const State&)>& pick) {
  State s(cfg(), players, seed);
  Rng rng(seed);
  std::array<uint8_t, A::kNumActions> mask{};
  while (!pick(s)) {
    REQUIRE(!s.is_terminal());
    s.legal_actions_mask(mask.data());
    std::vector<Action> legal;
    for (Action a = 0; a < A::kNumActions; ++a)
      if (mask[static_cast<std::size_t>(a)]) legal.push_back(a);
    s.apply(rng.below(3) ? heuristic_action(s, rng) : legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  }
  return s.to_json();
}

Json at_step(int players, Step step, uint64_t seed = 3) {
  return reached(players, seed, [step](const State& s) { return s.step() == step; });
}

// The document loads, and with the edit it fails naming `field`.
void rejects(const Json& doc, const std::function<void(Json&)>& edit, const std::string& field) {
  REQUIRE(load_error(doc).empty());
  const std::string error = load_error(edited(doc, edit));
  INFO("expected a rejection naming '" << field << "'");
  CHECK_THAT(error, Catch::Contains("'" + field));
}

Json& seat_of(Json& d, int seat) { return d["seats"][static_cast<std::size_t>(seat)]; }

}  // namespace

TEST_CASE("validation: a mission draw with no keep left is rejected (it left the actor no legal action)",
          "[lift_off][validation]") {
  const Json doc = at_step(2, Step::kKeepMissions);
  rejects(
      doc, [](Json& d) { d["mission_draw"]["keeps_left"] = 0; }, "mission_draw.keeps_left");
  rejects(
      doc, [](Json& d) { d["mission_draw"]["kept"] = 3; }, "mission_draw.keeps_left");
  rejects(
      doc, [](Json& d) { d["mission_draw"]["level"] = 4; }, "mission_draw.");
  // The engine-wide check (a live game needs a legal action) and ours agree.
  auto game = load_game("lift_off");
  Json broken = doc;
  broken["mission_draw"]["keeps_left"] = 0;
  CHECK_THROWS_WITH(game->state_from_json(broken.dump()), Catch::Contains("mission_draw.keeps_left"));
}

TEST_CASE("validation: final points are the final scoring's, so scores cannot overflow",
          "[lift_off][validation]") {
  const Json over = at_step(2, Step::kGameOver);
  State end = State::from_json(over, cfg());
  std::array<int, kMaxPlayers> scores{};
  end.scores(scores.data());
  CHECK(scores[0] == end.player(0).vp + end.final_vp(0));
  rejects(
      over,
      [](Json& d) {
        d["final_vp"] = {2147483647, 0};
      },
      "final_vp[0]");
  rejects(
      over, [&](Json& d) { d["final_vp"][1] = end.final_vp(1) + 1; }, "final_vp[1]");
  rejects(
      over, [](Json& d) { seat_of(d, 0)["vp"] = 2147483647; }, "seats[0].vp");
  const Json live = at_step(3, Step::kLaunch);
  rejects(
      live, [](Json& d) { d["final_vp"][2] = 5; }, "final_vp[2]");
}

TEST_CASE("validation: round, phase, turn, actor, start player, picks and play pass must agree",
          "[lift_off][validation]") {
  for (int players = 2; players <= 4; ++players) {
    INFO(players << " players");
    // Halfway through a specialist draft: some seats have picked.
    const Json draft = reached(players, 8, [](const State& s) {
      return s.step() == Step::kSpecialistPass && s.round() == 2 && s.current_player() != s.start_player();
    });
    const int turn = draft["turn"];
    const int picked = draft["start_player"], waiting = draft["actor"];
    rejects(
        draft, [](Json& d) { d["round"] = d["round"].get<int>() + 1; }, "specialist_deck");
    rejects(
        draft, [](Json& d) { d["phase"] = 2; }, "phase");
    rejects(
        draft, [](Json& d) { d["turn"] = 0; }, "actor");
    if (players > 2)
      rejects(
          draft, [&](Json& d) { d["actor"] = (waiting + 1) % players; }, "actor");
    rejects(
        draft,
        [](Json& d) { d["start_player"] = (d["start_player"].get<int>() + 1) % d["players"].get<int>(); },
        "actor");
    rejects(
        draft, [&](Json& d) { seat_of(d, picked)["pick"] = -1; },
        "seats[" + std::to_string(picked) + "].pick");
    rejects(
        draft, [&](Json& d) { seat_of(d, waiting)["pick"] = 1; },
        "seats[" + std::to_string(waiting) + "].pick");
    rejects(
        draft, [](Json& d) { d["play_pass"] = 0; }, "play_pass");
    rejects(
        draft, [](Json& d) { d["step"] = "choose_direction"; }, "turn");
    CHECK(turn >= 1);
    // Playing specialists: the second pass, after the first seat has played.
    const Json play = reached(players, 8, [](const State& s) {
      return s.step() == Step::kPlaySpecialist && s.play_pass() == 1 &&
             s.current_player() != s.start_player();
    });
    rejects(
        play, [](Json& d) { d["play_pass"] = 0; }, "seats[");
    rejects(
        play, [](Json& d) { d["play_pass"] = 2; }, "play_pass");
    if (players > 2)
      rejects(
          play, [](Json& d) { d["direction"] = d["direction"] == "left" ? "right" : "left"; }, "actor");
    rejects(
        play, [](Json& d) { d["step"] = "choose_deck"; }, "");
    // The launch step in round 8, and the end of the game.
    const Json last =
        reached(players, 8, [](const State& s) { return s.step() == Step::kLaunch && s.round() == 8; });
    rejects(
        last, [](Json& d) { d["round"] = 7; }, "specialist_deck");
    rejects(
        last,
        [](Json& d) {
          d["step"] = "game_over";
          d["actor"] = -1;
          d["turn"] = d["players"];
        },
        "");
    const Json over = at_step(players, Step::kGameOver, 8);
    rejects(
        over, [](Json& d) { d["turn"] = 0; }, "turn");
    rejects(
        over,
        [](Json& d) {
          d["round"] = 7;
          d["phase"] = 2;
        },
        "round");
  }
}

TEST_CASE("validation: every number is an integer in its range", "[lift_off][validation]") {
  const Json doc = at_step(3, Step::kPlaySpecialist);
  rejects(
      doc, [](Json& d) { seat_of(d, 0)["vp"] = 10001; }, "seats[0].vp");
  rejects(
      doc, [](Json& d) { seat_of(d, 1)["money"] = -1; }, "seats[1].money");
  rejects(
      doc, [](Json& d) { seat_of(d, 1)["money"] = (uint64_t{1} << 32) + 2; }, "seats[1].money");
  rejects(
      doc, [](Json& d) { seat_of(d, 1)["money"] = 2.7; }, "seats[1].money");
  rejects(
      doc, [](Json& d) { seat_of(d, 1)["money"] = true; }, "seats[1].money");
  rejects(
      doc, [](Json& d) { seat_of(d, 2)["tech"]["red"] = 1001; }, "seats[2].tech.red");
  rejects(
      doc, [](Json& d) { seat_of(d, 2)["income"] = 4; }, "seats[2].income");
  rejects(
      doc, [](Json& d) { seat_of(d, 2)["station_investments"] = 101; }, "seats[2].station_investments");
  rejects(
      doc, [](Json& d) { seat_of(d, 0)["lab_symbol_used"] = 1; }, "seats[0].lab_symbol_used");
  rejects(
      doc, [](Json& d) { d["turn"] = 7; }, "turn");
  rejects(
      doc,
      [](Json& d) {
        d["rng"] = {0, 0, 0, 0};
      },
      "rng");
}

TEST_CASE("validation: every place holds the cards it holds at that point of the round",
          "[lift_off][validation]") {
  const Json doc = at_step(3, Step::kChooseDeck);
  rejects(
      doc,
      [](Json& d) {
        d["specialist_discard"].push_back(d["specialist_deck"].back());
        d["specialist_deck"].erase(d["specialist_deck"].size() - 1);
      },
      "specialist_deck");
  rejects(
      doc,
      [](Json& d) {
        seat_of(d, 1)["hand"].push_back(seat_of(d, 0)["hand"][0]);
        seat_of(d, 0)["hand"].erase(0);
      },
      "seats[0].hand");
  rejects(
      doc,
      [](Json& d) {
        seat_of(d, 1)["played"].erase(0);
        d["specialist_discard"].push_back("S01");
      },
      "");
  rejects(
      doc, [](Json& d) { d["specialist_deck"][0] = d["specialist_deck"][1]; }, "specialist ");
  rejects(
      doc,
      [](Json& d) {
        seat_of(d, 2)["discarded_objectives"].push_back(seat_of(d, 2)["objectives"][0]);
        seat_of(d, 2)["objectives"].erase(0);
      },
      "seats[2].discarded_objectives");
  rejects(
      doc, [](Json& d) { d["mission_decks"][0].erase(0); }, "mission ");
}

TEST_CASE("validation: what is left of a finished decision must be cleared", "[lift_off][validation]") {
  const Json deck = at_step(2, Step::kChooseDeck);
  rejects(
      deck, [](Json& d) { d["specialist_play"]["card"] = seat_of(d, 0)["played"][0]; }, "specialist_play");
  rejects(
      deck, [](Json& d) { d["launch"]["applied_capacity"] = 1; }, "launch");
  rejects(
      deck, [](Json& d) { d["mission_draw"]["kept"] = 1; }, "mission_draw");
  rejects(
      deck, [](Json& d) { seat_of(d, 1)["missions_launched"] = 1; }, "seats[1].missions_launched");
  const Json actions = at_step(2, Step::kSpecialistActions);
  rejects(
      actions, [](Json& d) { d["specialist_play"]["took_money"] = true; }, "specialist_play.took_money");
  rejects(
      actions, [](Json& d) { d["specialist_play"]["used_actions"] = 3; }, "specialist_play.used_actions");
  rejects(
      actions, [](Json& d) { d["specialist_play"]["card"] = nullptr; }, "specialist_play.card");
  rejects(
      actions, [](Json& d) { d["specialist_play"]["exchange_given"] = 1; }, "specialist_play.exchange");
}

TEST_CASE("validation: a launch being built has its symbol, its money and a load", "[lift_off][validation]") {
  const Json load =
      reached(2, 11, [](const State& s) { return s.step() == Step::kLoadRocket && s.launch_uses_lab(); });
  const int actor = load["actor"];
  rejects(
      load, [&](Json& d) { seat_of(d, actor)["lab_symbol_used"] = false; }, "launch.uses_lab");
  rejects(
      load, [&](Json& d) { seat_of(d, actor)["money"] = 0; }, "seats[" + std::to_string(actor) + "].money");
  rejects(
      load, [](Json& d) { d["launch"]["applied_capacity"] = 2; }, "launch.applied_capacity");
}

TEST_CASE("validation: a seat the game would skip cannot be the one to move", "[lift_off][validation]") {
  // No launchable mission: the launch step skips the seat.
  Position none(2);
  none.at("launch", 0, 2).set(0, "money", 10).tech(0, 3, 3, 3, 0).mission(0, "M2-05", "earth");
  CHECK_THROWS_WITH(none.state(), Catch::Contains("'actor' cannot launch"));
  // Every level-1 and -2 card the seat may take is owned: no deck to draw from.
  Position full(2);
  const char* l1[12] = {"M1-01", "M1-02", "M1-03", "M1-04", "M1-05", "M1-06",
                        "M1-07", "M1-08", "M1-09", "M1-10", "M1-11", "M1-12"};
  for (int i = 0; i < 12; ++i) full.mission(i < 6 ? 0 : 1, l1[i], "earth");
  for (const char* id : {"M2-01", "M2-02", "M2-03", "M2-04", "M2-05", "M2-06", "M2-07"})
    full.mission(0, id, "earth");
  full.at("choose_deck", 0, 1);
  CHECK_THROWS_WITH(full.state(), Catch::Contains("'actor' has no deck"));
  // The phase-2 objective discard skips a seat with no objective left.
  const Json discard = at_step(2, Step::kDiscardObjectives);
  rejects(
      discard,
      [](Json& d) {
        Json& s = seat_of(d, d["actor"].get<int>());
        for (const auto& o : s["objectives"]) s["discarded_objectives"].push_back(o);
        s["objectives"] = Json::array();
        s.erase("knowledge");
        for (auto& t : d["seats"]) t.erase("knowledge");
      },
      "actor");
}

TEST_CASE("validation: knowledge must be true: own cards exactly, the true place always listed",
          "[lift_off][validation]") {
  const Json doc = at_step(3, Step::kSpecialistPass);
  const std::string own = seat_of(const_cast<Json&>(doc), 1)["hand"][0];
  const std::string other = seat_of(const_cast<Json&>(doc), 2)["hand"][0];
  const std::string played_id = "S01";
  rejects(
      doc,
      [&](Json& d) {
        seat_of(d, 1)["knowledge"]["specialists"][own] = {"hand1", "deck"};
      },
      "seats[1].knowledge.specialists." + own);
  rejects(
      doc, [&](Json& d) { seat_of(d, 1)["knowledge"]["specialists"][other] = {"deck"}; },
      "seats[1].knowledge.specialists." + other);
  rejects(
      doc,
      [&](Json& d) {
        seat_of(d, 0)["knowledge"]["specialists"][other] = {"hand0", "hand2"};
      },
      "seats[0].knowledge.specialists." + other);
  rejects(
      doc, [&](Json& d) { seat_of(d, 0)["knowledge"]["specialists"].erase(other); },
      "seats[0].knowledge.specialists." + other);
  rejects(
      doc,
      [&](Json& d) {
        seat_of(d, 0)["knowledge"]["specialists"][other] = {"hand2", "hand3"};
      },
      "seats[0].knowledge.specialists." + other);
  rejects(
      doc, [&](Json& d) { seat_of(d, 0)["knowledge"]["objectives"]["O01"] = {"pocket"}; },
      "seats[0].knowledge.objectives.O01");
}

TEST_CASE("validation: documents from before the knowledge model still load", "[lift_off][validation]") {
  const Json doc = at_step(3, Step::kSpecialistPass);
  Json old = doc;
  for (auto& s : old["seats"]) s.erase("knowledge");
  const State s = State::from_json(old, cfg());
  // Each seat knows its own hand, and what the counts tell; the old lists are honoured.
  CHECK(s.known_specialists(1, 1) != 0);
  const std::string card = seat_of(old, 2)["hand"][1];
  seat_of(old, 0)["knows_specialists"] = {Json::array(), Json::array(), {card}};
  CHECK(State::from_json(old, cfg()).specialist_may_be(0, spec(card)) == 1u << 2);
  seat_of(old, 0)["knows_specialists"] = {Json::array(), {card}, Json::array()};
  CHECK_THROWS_WITH(State::from_json(old, cfg()), Catch::Contains("'seats[0].knows_specialists[1]'"));
  // Knowledge for some seats and not others is an error.
  Json mixed = doc;
  seat_of(mixed, 1).erase("knowledge");
  CHECK_THROWS_WITH(State::from_json(mixed, cfg()), Catch::Contains("'seats'"));
}

TEST_CASE("bot: the heuristic never returns an illegal action (2-4 players, every decision)",
          "[lift_off][bot]") {
  for (int players = 2; players <= 4; ++players)
    for (uint64_t seed = 0; seed < 6; ++seed) {
      State s(cfg(), players, seed);
      Rng rng(seed), pick(seed + 100);
      std::array<uint8_t, A::kNumActions> mask{};
      while (!s.is_terminal()) {
        const Action h = heuristic_action(s, rng);
        REQUIRE(s.is_legal(h));
        s.legal_actions_mask(mask.data());
        std::vector<Action> legal;
        for (Action a = 0; a < A::kNumActions; ++a)
          if (mask[static_cast<std::size_t>(a)]) legal.push_back(a);
        s.apply(pick.below(2) ? h : legal[pick.below(static_cast<uint32_t>(legal.size()))]);
      }
      Rng rng2(1);
      CHECK(heuristic_action(s, rng2) == -1);
    }
}

TEST_CASE("validation: links must be true and name another seat's hand", "[lift_off][validation]") {
  const Json doc = reached(3, 5, [](const State& s) {
    return s.step() == Step::kPlaySpecialist && s.specialist_links(0)[0].cards != 0;
  });
  auto link_of = [](Json& d) -> Json& {
    for (auto& link : seat_of(d, 0)["knowledge"]["links"])
      if (link["of"] == "specialists") return link;
    FAIL("no specialist link");
    return d;
  };
  const Json hand2 = const_cast<Json&>(doc)["seats"][2]["hand"];
  rejects(
      doc,
      [&](Json& d) {
        link_of(d)["cards"] = {hand2[0], hand2[1]};
        link_of(d)["places"] = {"hand2"};
      },
      "seats[0].knowledge.links");
  rejects(
      doc, [&](Json& d) { link_of(d)["places"] = {"hand0"}; }, "seats[0].knowledge.links");
  rejects(
      doc,
      [&](Json& d) {
        link_of(d)["places"] = {"hand1", "deck"};
      },
      "seats[0].knowledge.links");
  rejects(
      doc, [&](Json& d) { link_of(d)["at_most"] = 0; }, "seats[0].knowledge.links[");
  rejects(
      doc, [&](Json& d) { link_of(d)["at_most"] = 2; }, "seats[0].knowledge.links");
  rejects(
      doc, [&](Json& d) { link_of(d)["of"] = "missions"; }, "seats[0].knowledge.links[");
  // Found by the edit search: a card in the deck added to a link is true for
  // now, but a draw can bring it into the linked hand. Linked cards were in a hand.
  rejects(
      doc, [&](Json& d) { link_of(d)["cards"].push_back(d["specialist_deck"][0]); },
      "seats[0].knowledge.links");
}

TEST_CASE("validation: the cards a seat passed round-trip, and their layouts must be true",
          "[lift_off][validation]") {
  const Json doc = reached(4, 5, [](const State& s) {
    return s.step() == Step::kSpecialistPass && s.specialists_passed(0).num_cards >= 2 &&
           s.specialists_passed(0).num_layouts >= 2;
  });
  const State s = State::from_json(doc, cfg());
  for (int v = 0; v < 4; ++v) {
    CHECK(s.specialists_passed(v) == State::from_json(doc, cfg()).specialists_passed(v));
    CHECK(s.objectives_passed(v) == State::from_json(doc, cfg()).objectives_passed(v));
  }
  CHECK(State::from_json(doc, cfg()).to_json() == doc);
  auto passed = [](Json& d) -> Json& { return seat_of(d, 0)["knowledge"]["passed"]["specialists"]; };
  // The layout the cards are in is one of them: leaving it out is an error.
  const PassedCards& p = s.specialists_passed(0);
  std::vector<int> truth;
  for (int i = 0; i < p.num_cards; ++i)
    for (int w = 0; w < 4; ++w)
      if (in_hand(s, w, cfg().specialists[p.cards[static_cast<std::size_t>(i)]].id)) truth.push_back(w);
  rejects(
      doc,
      [&](Json& d) {
        Json kept = Json::array();
        for (const auto& layout : passed(d)["layouts"])
          if (layout.get<std::vector<int>>() != truth) kept.push_back(layout);
        passed(d)["layouts"] = kept;
      },
      "seats[0].knowledge.passed");
  rejects(
      doc, [&](Json& d) { passed(d)["layouts"][0][0] = 0; },
      "seats[0].knowledge.passed.specialists.layouts[0]");
  rejects(
      doc, [&](Json& d) { passed(d)["layouts"][0][0] = 7; },
      "seats[0].knowledge.passed.specialists.layouts[0][0]");
  rejects(
      doc, [&](Json& d) { passed(d)["layouts"][0].push_back(1); },
      "seats[0].knowledge.passed.specialists.layouts[0]");
  rejects(
      doc, [&](Json& d) { passed(d)["layouts"].push_back(passed(d)["layouts"][0]); },
      "seats[0].knowledge.passed.specialists.layouts[");
  rejects(
      doc, [&](Json& d) { passed(d)["cards"][0] = d["specialist_deck"][0]; }, "seats[0].knowledge.passed");
  rejects(
      doc, [&](Json& d) { passed(d)["cards"][1] = passed(d)["cards"][0]; },
      "seats[0].knowledge.passed.specialists.cards[1]");
  rejects(
      doc, [&](Json& d) { passed(d)["cards"] = Json::array(); },
      "seats[0].knowledge.passed.specialists.cards");
  rejects(
      doc, [&](Json& d) { seat_of(d, 0)["knowledge"]["passed"]["missions"] = passed(d); },
      "seats[0].knowledge.passed.missions");
  rejects(
      doc, [&](Json& d) { passed(d)["layouts"] = "all"; }, "seats[0].knowledge.passed.specialists.layouts");
  // Without the entry the seat simply follows no passed cards.
  Json plain = doc;
  seat_of(plain, 0)["knowledge"].erase("passed");
  CHECK(State::from_json(plain, cfg()).specialists_passed(0).num_cards == 0);
}

TEST_CASE("validation: lists of a fixed shape, the first draft's direction, old objective lists",
          "[lift_off][validation]") {
  const Json doc = at_step(3, Step::kPlaySpecialist);
  rejects(
      doc, [](Json& d) { seat_of(d, 0)["banner_used"] = {true}; }, "seats[0].banner_used");
  rejects(
      doc,
      [](Json& d) {
        seat_of(d, 1)["banner_used"] = {true, 1};
      },
      "seats[1].banner_used");
  rejects(
      doc, [](Json& d) { d["mission_decks"].erase(0); }, "mission_decks");
  rejects(
      doc, [](Json& d) { d["mission_discards"] = Json::object(); }, "mission_discards");
  // The specialist draft passes left in round 1: the direction is chosen from round 2 on.
  const Json objective_draft = at_step(3, Step::kObjectiveKeep);
  REQUIRE(objective_draft["direction"] == "left");
  rejects(
      objective_draft, [](Json& d) { d["direction"] = "right"; }, "direction");
  // Documents from before the knowledge model: 'knows_objectives' names
  // objectives held by the seat it lists them under.
  Json old = at_step(3, Step::kSpecialistPass);
  for (auto& seat : old["seats"]) seat.erase("knowledge");
  const std::string card = seat_of(old, 2)["objectives"][0];
  seat_of(old, 0)["knows_objectives"] = {Json::array(), Json::array(), {card}};
  CHECK(State::from_json(old, cfg()).objective_may_be(0, obj(card)) == 1u << 2);
  seat_of(old, 0)["knows_objectives"] = {Json::array(), {card}, Json::array()};
  CHECK_THROWS_WITH(State::from_json(old, cfg()), Catch::Contains("'seats[0].knows_objectives[1]'") &&
                                                      Catch::Contains("not in that seat's hand"));
  seat_of(old, 0)["knows_objectives"] = {Json::array()};
  CHECK_THROWS_WITH(State::from_json(old, cfg()), Catch::Contains("'seats[0].knows_objectives'") &&
                                                      Catch::Contains("needs one list per player"));
}
