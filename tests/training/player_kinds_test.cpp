// The kinds of player are listed once (training/players/kinds.h): the spec
// reader, its errors and the generated docs follow the list; the human is a
// kind but no agent. The seat loop (seat_round.h) asks each player once per
// round, and the arena's keys are one table (ArenaConfig::keys).
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "games/launchpad23/launchpad23_game.h"
#include "training/arena/arena_run.h"
#include "training/players/kinds.h"
#include "training/players/player_spec.h"
#include "training/players/seat_round.h"

using namespace rocketgym;
using players::KindId;
using G = launchpad23::Game;

namespace {

players::PlayerSpec agent_yaml(const std::string& text) {
  return players::parse_player(ConfigNode::parse(text, "p.yaml"));
}

}  // namespace

TEST_CASE("every agent kind of the list is read, named and written by its name", "[players][kinds]") {
  int agents = 0;
  for (const players::KindInfo& k : players::player_kinds()) {
    INFO(k.name);
    CHECK(players::find_kind(k.name) == &k);
    CHECK(players::kind_name(k.id) == std::string(k.name));
    if (k.agent)
      CHECK_THAT(players::agent_grammar(), Catch::Contains(k.form));
    else
      CHECK_THAT(players::agent_grammar(), !Catch::Contains(k.form));
    CHECK_THAT(players::kinds_markdown(), Catch::Contains(k.name));
    if (!k.agent) continue;
    ++agents;
    // The YAML form's kind word is the kind's name; the error for a wrong
    // word lists exactly the agent kinds.
    std::string read;
    try {
      read = players::kind_name(agent_yaml(std::string("{kind: ") + k.name + "}"));
    } catch (const ConfigError& e) {
      CHECK_THAT(e.what(), !Catch::Contains("is not one of"));  // a kind that needs more keys
      continue;
    }
    CHECK(read == k.name);
  }
  CHECK(agents == static_cast<int>(std::variant_size_v<players::Kind>));
  CHECK_THROWS_WITH(agent_yaml("{kind: nobody}"), Catch::Contains(players::agent_kind_names()));
  // The command line's error shows the grammar, from the same list.
  CHECK_THROWS_WITH(players::parse_player("nobody"), Catch::Contains(players::agent_grammar()));
  for (KindId id : {KindId::kRandom, KindId::kHeuristic, KindId::kIsmcts}) {
    const players::PlayerSpec spec = players::default_player(id);
    CHECK(spec.kind_id() == id);
    CHECK(spec.name == players::kind_name(id));
    CHECK(players::to_string(spec) == players::to_string(players::parse_player(players::to_string(spec))));
  }
}

TEST_CASE("the human is a kind of seat, not an agent", "[players][kinds]") {
  const players::KindInfo* human = players::find_kind("human");
  REQUIRE(human != nullptr);
  CHECK_FALSE(human->agent);
  CHECK(players::is_human("human"));
  CHECK_FALSE(players::is_human("heuristic"));
  // Where an agent is read (the arena, Python, the opponents), a human seat is
  // refused saying why, never as an unknown kind.
  CHECK_THROWS_WITH(players::parse_player("human"), Catch::Contains("agent 'human'") &&
                                                        Catch::Contains("a person") &&
                                                        !Catch::Contains("unknown kind"));
  CHECK_THROWS_WITH(players::parse_player("me=human"), Catch::Contains("a person"));
  CHECK_THROWS_WITH(agent_yaml("{kind: human}"), Catch::Contains("is not one of"));
  CHECK_THROWS_AS(players::default_player(KindId::kHuman), Error);
}

namespace {

// Records each act() call's decisions and answers with a number of its own.
class RoundRecorder final : public players::Player<G> {
 public:
  explicit RoundRecorder(Action answer) : answer_(answer) {}
  void act(players::Decision<G>* d, int count) override {
    calls.push_back(count);
    for (int k = 0; k < count; ++k) {
      seeds.push_back(d[k].search_seed);
      d[k].action = answer_ + static_cast<Action>(d[k].search_seed);
    }
  }
  std::vector<int> calls;
  std::vector<uint64_t> seeds;

 private:
  Action answer_;
};

}  // namespace

TEST_CASE("a round of the seat loop asks each waiting player once and answers by slot", "[players][kinds]") {
  std::vector<std::unique_ptr<players::Player<G>>> seated;
  seated.push_back(std::make_unique<RoundRecorder>(100));
  seated.push_back(std::make_unique<RoundRecorder>(200));
  seated.push_back(std::make_unique<RoundRecorder>(300));
  players::SeatRound<G> round;
  round.reserve(seated.size(), 8);
  std::vector<Action> answers(8, -1);
  for (int turn = 0; turn < 2; ++turn) {
    round.clear();
    // Slots 0..5: players 0, 2, 0, 2, 0, 2 (player 1 waits for nothing).
    for (int slot = 0; slot < 6; ++slot)
      round.add(static_cast<std::size_t>(slot % 2 == 0 ? 0 : 2), slot,
                {nullptr, 0, nullptr, static_cast<uint64_t>(slot)});
    CHECK(round.waits_for(0));
    CHECK_FALSE(round.waits_for(1));
    round.ask(seated, [&](int slot, Action a) { answers[static_cast<std::size_t>(slot)] = a; });
  }
  const auto& first = static_cast<RoundRecorder&>(*seated[0]);
  const auto& second = static_cast<RoundRecorder&>(*seated[1]);
  const auto& third = static_cast<RoundRecorder&>(*seated[2]);
  CHECK((first.calls == std::vector<int>{3, 3}));  // one call per round with all its decisions
  CHECK(second.calls.empty());
  CHECK((third.calls == std::vector<int>{3, 3}));
  CHECK((first.seeds == std::vector<uint64_t>{0, 2, 4, 0, 2, 4}));  // in the order added
  CHECK((answers == std::vector<Action>{100, 301, 102, 303, 104, 305, -1, -1}));
}

TEST_CASE("the arena's keys are one table: read, refused and documented from it", "[players][kinds]") {
  const auto& keys = arena::ArenaConfig::keys();
  for (const char* key : {"games", "seed", "parallel", "threads", "device", "output", "plot", "records",
                          "continue_records", "one_vs_each"})
    CHECK(keys.find(key) != nullptr);
  const arena::ArenaConfig defaults;
  CHECK(defaults.parallel == arena::kDefaultParallel);
  CHECK(keys.docs(defaults).size() == keys.names().size());
  const std::string head = "game: {id: launchpad23, players: 2}\n";
  CHECK(arena::ArenaConfig::from_yaml(ConfigNode::parse(head + "games: 7\nparallel: 5\n", "a.yaml")).games ==
        7);
  CHECK_THROWS_WITH(arena::ArenaConfig::from_yaml(ConfigNode::parse(head + "games: 0\n", "a.yaml")),
                    Catch::Contains("a.yaml:2") && Catch::Contains("games"));
  CHECK_THROWS_WITH(arena::ArenaConfig::from_yaml(ConfigNode::parse(head + "gamez: 3\n", "a.yaml")),
                    Catch::Contains("gamez"));
  CHECK_THROWS_WITH(arena::ArenaConfig::from_yaml(ConfigNode::parse(head + "device: tpu\n", "a.yaml")),
                    Catch::Contains("'tpu' is not one of: cpu, cuda"));
}
