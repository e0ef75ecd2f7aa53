// The kinds of player are one registry (training/players/kinds.h), each kind
// one file (kinds/<kind>.cpp): the spec reader, its errors and the generated
// docs follow the registry; the human is a kind but no agent. The seat loop (seat_round.h) asks each player
// once per round, and the arena's keys are one table (ArenaConfig::keys).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "games/launchpad23/launchpad23_game.h"
#include "generated/source_tree.h"
#include "training/arena/arena_run.h"
#include "training/players/kinds.h"
#include "training/players/player_spec.h"
#include "training/players/seat_round.h"

using namespace rocketgym;
using G = launchpad23::Game;

namespace {

players::PlayerSpec agent_yaml(const std::string& text) {
  return players::parse_player(ConfigNode::parse(text, "p.yaml"));
}

}  // namespace

TEST_CASE("the kinds are found from their files and listed by their places", "[players][kinds]") {
  // One kind per file of training/players/kinds/ and kinds/torch/ (this test links the training
  // library, which has both): CMake lists the files, no source does.
  std::vector<std::string> files, names;
  for (const char* folder : {"/training/players/kinds", "/training/players/kinds/torch"})
    for (const auto& entry : std::filesystem::directory_iterator(std::string(ROCKETGYM_SOURCE_DIR) + folder))
      if (entry.path().extension() == ".cpp") files.push_back(entry.path().stem().string());
  const auto& kinds = players::player_kinds();
  for (const players::PlayerKind* kind : kinds) names.emplace_back(kind->info().name);
  std::sort(files.begin(), files.end());
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == files);
  for (std::size_t k = 1; k < kinds.size(); ++k) CHECK(kinds[k - 1]->info().place < kinds[k]->info().place);
  // The order of the docs' table, the help and Python's list.
  CHECK(names ==
        std::vector<std::string>{"random", "heuristic", "checkpoint", "ismcts", "search", "zoo", "human"});
}

TEST_CASE("every agent kind of the list is read, named and written by its name", "[players][kinds]") {
  std::string agents;
  for (const players::PlayerKind* kind : players::player_kinds()) {
    const players::KindInfo& k = kind->info();
    INFO(k.name);
    CHECK(players::find_kind(k.name) == kind);
    if (k.agent)
      CHECK_THAT(players::agent_grammar(), Catch::Contains(k.form));
    else
      CHECK_THAT(players::agent_grammar(), !Catch::Contains(k.form));
    CHECK_THAT(players::kinds_markdown(), Catch::Contains(k.name));
    if (!k.agent) continue;
    agents += (agents.empty() ? "" : ", ") + std::string(k.name);
    // Every YAML key of the kind is an agent key (the mapping's allowed keys).
    for (const std::string& key : k.keys) CHECK_THAT(players::agent_keys(), Catch::VectorContains(key));
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
  CHECK(agents == players::agent_kind_names());
  for (const char* name : {"random", "heuristic", "checkpoint", "ismcts", "search", "zoo"})
    CHECK_THAT(agents, Catch::Contains(name));
  CHECK_THROWS_WITH(agent_yaml("{kind: nobody}"), Catch::Contains(players::agent_kind_names()));
  // The command line's error shows the grammar, from the same list.
  CHECK_THROWS_WITH(players::parse_player("nobody"), Catch::Contains(players::agent_grammar()));
  for (const players::PlayerSpec& spec :
       {players::default_player<players::Random>(), players::default_player<players::Heuristic>(),
        players::default_player<players::Ismcts>()}) {
    CHECK(spec.name == players::kind_name(spec));
    CHECK(players::to_string(spec) == players::to_string(players::parse_player(players::to_string(spec))));
  }
  CHECK(players::default_player<players::Random>().is<players::Random>());
}

TEST_CASE("a kind's settings are copied with the spec, and only its own kind reads them",
          "[players][kinds]") {
  players::PlayerSpec spec = players::parse_player("search:a.ckpt:12");
  players::PlayerSpec copy = spec;
  spec.as<players::Search>().path = "b.ckpt";  // the copy keeps its own settings
  CHECK(copy.as<players::Search>().path == "a.ckpt");
  CHECK(copy.get_if<players::Ismcts>() == nullptr);
  CHECK_THROWS_WITH(copy.as<players::Checkpoint>(), Catch::Contains("not of the kind checkpoint"));
  // A search spec plays as the ismcts player it stands for.
  players::resolve_kind(copy, 2);
  REQUIRE(copy.is<players::Ismcts>());
  CHECK(copy.as<players::Ismcts>().network == "a.ckpt");
  CHECK(players::playing_kind_name(spec) == players::kind_name<players::Ismcts>());
}

TEST_CASE("the human is a kind of seat, not an agent", "[players][kinds]") {
  const players::PlayerKind* human = players::find_kind("human");
  REQUIRE(human != nullptr);
  CHECK_FALSE(human->info().agent);
  CHECK(players::is_person_seat("human"));
  CHECK_FALSE(players::is_person_seat("heuristic"));
  CHECK_FALSE(players::is_person_seat("me=human"));
  CHECK(players::person_kinds() == std::vector<std::string>{"human"});
  // Where an agent is read (the arena, Python, the opponents), a human seat is
  // refused saying why, never as an unknown kind.
  CHECK_THROWS_WITH(players::parse_player("human"), Catch::Contains("agent 'human'") &&
                                                        Catch::Contains("a person") &&
                                                        !Catch::Contains("unknown kind"));
  CHECK_THROWS_WITH(players::parse_player("me=human"), Catch::Contains("a person"));
  CHECK_THROWS_WITH(agent_yaml("{kind: human}"), Catch::Contains("is not one of"));
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
    round.ask(
        seated, [](std::size_t) { return std::string("recorder"); },
        [&](int slot, Action a) { answers[static_cast<std::size_t>(slot)] = a; });
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
