// Bad input users type that the topic tests did not reach (issue 30: the
// coverage of training/, models/ and python/): agents written in YAML with
// another kind's keys, devices, run folders. Each is refused with a message
// naming the file, line and key (or the value), never accepted or crashed on;
// a plot that cannot be drawn is a warning, never a failed run.
#include <torch/torch.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "envs/core/config.h"
#include "envs/core/errors.h"
#include "training/players/kinds/torch/zoo.h"
#include "training/players/player_spec.h"
#include "training/run_support.h"

using namespace rocketgym;

namespace {

// The agent of an arena config's `agents:` list, written as `entry` on line 2 of agents.yaml.
players::PlayerSpec agent_from(const std::string& entry) {
  return players::parse_player(
      ConfigNode::parse("agents:\n  - " + entry + "\n", "agents.yaml").child("agents").items()[0]);
}

// ROCKETGYM_PLOT_SCRIPT set for the life of this object (the plot script run_plot_script runs),
// then back to what it was.
struct PlotScript {
  explicit PlotScript(const std::string& path) {
    if (const char* old = std::getenv("ROCKETGYM_PLOT_SCRIPT")) before = old;
    ::setenv("ROCKETGYM_PLOT_SCRIPT", path.c_str(), 1);
  }
  ~PlotScript() {
    if (before.empty())
      ::unsetenv("ROCKETGYM_PLOT_SCRIPT");
    else
      ::setenv("ROCKETGYM_PLOT_SCRIPT", before.c_str(), 1);
  }
  std::string before;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("an agent in YAML is a mapping of a known kind", "[players][errors]") {
  CHECK_THROWS_WITH(agent_from("random"), Catch::Contains("agents.yaml:2") &&
                                              Catch::Contains("an agent is a mapping with at least 'kind'"));
  CHECK_THROWS_WITH(agent_from("{kind: randm}"),
                    Catch::Contains("agents.yaml:2") && Catch::Contains("kind") &&
                        Catch::Contains("'randm' is not one of: random, heuristic, "
                                        "checkpoint, ismcts, search, zoo"));
  CHECK_THROWS_WITH(agent_from("{name: x}"), Catch::Contains("'' is not one of"));
  CHECK_THROWS_WITH(agent_from("{kind: random, seed: 3}"),
                    Catch::Contains("agents.yaml:2") && Catch::Contains("seed"));
}

TEST_CASE("an agent in YAML refuses the keys of another kind, naming whose they are", "[players][errors]") {
  // Each kind names the keys it takes, and the kinds a foreign key belongs to
  // (from the kinds' rows, training/players/kinds/).
  CHECK_THROWS_WITH(agent_from("{kind: random, game: launchpad23}"),
                    Catch::Contains("agents.yaml:2") &&
                        Catch::Contains("a random agent takes only 'name' and 'kind': 'game' belongs to zoo "
                                        "agents"));
  CHECK_THROWS_WITH(agent_from("{kind: checkpoint, path: a.ckpt, simulations: 8}"),
                    Catch::Contains("a checkpoint agent takes only 'path' and 'mode': 'simulations' belongs "
                                    "to search and zoo agents"));
  CHECK_THROWS_WITH(agent_from("{kind: search, path: a.ckpt, game: launchpad23}"),
                    Catch::Contains("'game' belongs to zoo agents"));
  CHECK_THROWS_WITH(agent_from("{kind: heuristic, path: a.ckpt}"),
                    Catch::Contains("'path' belongs to checkpoint and search agents"));
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, mode: sample}"),
                    Catch::Contains("an ismcts agent takes only 'mcts' and 'checkpoint': 'mode' belongs to "
                                    "checkpoint agents"));
  CHECK_THROWS_WITH(agent_from("{kind: checkpoint, path: a.ckpt, mcts: {simulations: 8}}"),
                    Catch::Contains("'mcts' belongs to ismcts agents"));
  CHECK_THROWS_WITH(agent_from("{kind: random, checkpoint: a.ckpt}"),
                    Catch::Contains("'checkpoint' belongs to ismcts agents"));
  CHECK_THROWS_WITH(agent_from("{kind: search, path: a.ckpt, mode: greedy}"),
                    Catch::Contains("agents.yaml:2") &&
                        Catch::Contains("a search agent takes only 'path' and 'simulations'"));
  CHECK_THROWS_WITH(agent_from("{kind: search, path: a.ckpt, mcts: {simulations: 8}}"),
                    Catch::Contains("a search agent takes only"));
  CHECK_THROWS_WITH(agent_from("{kind: zoo, game: launchpad23, path: a.ckpt}"),
                    Catch::Contains("a zoo agent takes only 'game' and 'simulations'"));
  CHECK_THROWS_WITH(agent_from("{kind: zoo, game: launchpad23, checkpoint: a.ckpt}"),
                    Catch::Contains("a zoo agent takes only"));
  // What each kind takes is read back (the refusals above are not of every key).
  const players::PlayerSpec zoo = agent_from("{kind: zoo, game: launchpad23, simulations: 0}");
  CHECK(zoo.as<players::Zoo>().game == "launchpad23");
  CHECK(zoo.as<players::Zoo>().simulations == 0);
  const players::PlayerSpec search = agent_from("{kind: search, path: a.ckpt, simulations: 12}");
  CHECK(search.as<players::Search>().path == "a.ckpt");
  CHECK(search.as<players::Search>().simulations == 12);
}

TEST_CASE("an agent in YAML refuses a zoo game that is a path and a path with a NUL", "[players][errors]") {
  CHECK_THROWS_WITH(agent_from("{kind: zoo, game: ../../etc/passwd}"),
                    Catch::Contains("agents.yaml:2") && Catch::Contains("game") &&
                        Catch::Contains("name it by a game id (letters, digits and '_'), not a path"));
  CHECK_THROWS_WITH(agent_from("{kind: zoo}"), Catch::Contains("game"));
  CHECK_THROWS_WITH(agent_from("{kind: checkpoint, path: \"a\\0b.ckpt\"}"),
                    Catch::Contains("path") && Catch::Contains("the path contains a NUL character"));
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, checkpoint: \"a\\0b.ckpt\"}"),
                    Catch::Contains("checkpoint") && Catch::Contains("the path contains a NUL character"));
  CHECK_THROWS_WITH(agent_from("{kind: search, path: \"a\\0b.ckpt\"}"),
                    Catch::Contains("the path contains a NUL character"));
  CHECK_THROWS_WITH(agent_from("{kind: checkpoint, path: a.ckpt, mode: argmax}"), Catch::Contains("mode"));
}

TEST_CASE("an ismcts agent's search options that contradict each other are refused on its mcts key",
          "[players][errors]") {
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, mcts: {root: gumbel, dirichlet_fraction: 0.25}}"),
                    Catch::Contains("agents.yaml:2") && Catch::Contains("mcts") &&
                        Catch::Contains("dirichlet_fraction must be 0 with the gumbel root"));
  CHECK_THROWS_WITH(agent_from("{kind: ismcts, mcts: {root: gumbel, temperature: 1}}"),
                    Catch::Contains("temperature must be 0 with the gumbel root"));
}

TEST_CASE("a device is cpu or, where LibTorch has one, cuda", "[run][errors]") {
  CHECK(parse_device("cpu") == torch::Device(torch::kCPU));
  CHECK_THROWS_WITH(parse_device("gpu"), Catch::Contains("device 'gpu' is not cpu or cuda"));
  CHECK_THROWS_WITH(parse_device("CPU"), Catch::Contains("device 'CPU' is not cpu or cuda"));
  if (torch::cuda::is_available())
    CHECK(parse_device("cuda") == torch::Device(torch::kCUDA));
  else
    CHECK_THROWS_WITH(parse_device("cuda"),
                      Catch::Contains("device 'cuda' requested") && Catch::Contains("(use device: cpu)"));
}

TEST_CASE("a run folder that cannot hold its lock file is refused, naming the file", "[run][errors]") {
  const std::string missing =
      (std::filesystem::temp_directory_path() / ("rocketgym_no_such_dir_" + std::to_string(::getpid())))
          .string();
  CHECK_THROWS_WITH(RunFolderLock(missing, "arena output folder"),
                    Catch::Contains("cannot open the run folder lock '" + missing + "/.lock'") &&
                        Catch::Contains("No such file or directory"));
}

TEST_CASE("the plot script runs on the run's files; a missing or failing one is only a warning",
          "[run][errors]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("rocketgym_plot_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // A path with a quote and a space: the command line quotes every path.
  const std::string input = (dir / "it's metrics.csv").string(), output = (dir / "it's curve.png").string();
  std::ofstream(input) << "update\n";
  SECTION("the script is given the kind, the input and the output") {
    const std::string script = (dir / "plot.py").string();
    std::ofstream(script) << "import sys\nopen(sys.argv[3], 'w').write(sys.argv[1] + '|' + sys.argv[2])\n";
    const PlotScript use(script);
    CHECK(run_plot_script("curve", input, output));
    CHECK(read_file(output) == "curve|" + input);
  }
  SECTION("a missing script draws nothing") {
    const PlotScript use((dir / "missing.py").string());
    CHECK_FALSE(run_plot_script("curve", input, output));
    CHECK_FALSE(std::filesystem::exists(output));
  }
  SECTION("a script that fails draws nothing") {
    const std::string script = (dir / "fails.py").string();
    std::ofstream(script) << "import sys\nsys.exit(3)\n";
    const PlotScript use(script);
    CHECK_FALSE(run_plot_script("arena", input, output));
    CHECK_FALSE(std::filesystem::exists(output));
  }
  std::filesystem::remove_all(dir);
}

namespace {

// A run's checkpoint as check_resumable sees it, without a file: a PPO run of a small conv network
// over a 3-d observation, with optimizer state, trained under `rules` (its extra.game_config).
LoadedCheckpoint run_checkpoint(const std::string& rules) {
  LoadedCheckpoint c;
  c.meta.game = "launchpad23";
  c.meta.observation_shape = {2, 3, 3};
  c.meta.num_actions = 5;
  c.meta.num_players = 2;
  c.meta.net.kind = "conv";
  c.meta.net.hidden = 16;
  c.meta.net.blocks = 1;
  c.meta.net.channels = 8;
  c.meta.extra["algorithm"] = "ppo";
  c.meta.extra["seed"] = uint64_t{7};
  c.meta.extra["elapsed_seconds"] = 12.5;
  c.meta.extra["eval_vs_random"] = -1.0;
  c.meta.extra["eval_vs_heuristic"] = -1.0;
  if (!rules.empty()) c.meta.extra["game_config"] = rules;
  c.optimizer_state = "state";  // not read by the check: only whether there is one
  return c;
}

RunIdentity same_run_as(const LoadedCheckpoint& c, const std::string& rules) {
  return {"ppo", c.meta.net_spec(), rules, c.meta.extra.value("seed", uint64_t{1})};
}

}  // namespace

TEST_CASE("a resume names what differs from the run's checkpoint", "[run][resume][errors]") {
  const std::string rules = "max_turns: 200\nvariants: {short: false}\n";
  const LoadedCheckpoint saved = run_checkpoint(rules);
  const std::string path = "runs/a/checkpoints/latest.ckpt";
  CHECK_NOTHROW(check_resumable(saved, path, same_run_as(saved, rules)));

  SECTION("another trainer's checkpoint") {
    RunIdentity run = same_run_as(saved, rules);
    run.algorithm = "alphazero";
    CHECK_THROWS_WITH(
        check_resumable(saved, path, run),
        Catch::Contains(path) && Catch::Contains("belongs to a PPO run (algorithm: ppo)") &&
            Catch::Contains("the search-based trainer (algorithm: alphazero) cannot resume it"));
  }
  SECTION("a conv network's channels") {
    RunIdentity run = same_run_as(saved, rules);
    run.net.config.channels = 16;
    CHECK_THROWS_WITH(check_resumable(saved, path, run),
                      Catch::Contains("model.channels (the checkpoint: 8, the config: 16)"));
  }
  SECTION("the trunk's kind") {
    RunIdentity run = same_run_as(saved, rules);
    run.net.config.kind = "mlp";
    CHECK_THROWS_WITH(check_resumable(saved, path, run),
                      Catch::Contains("model.kind (the checkpoint: conv, the config: mlp)"));
  }
  SECTION("many rules at once: the first four, then how many more") {
    const std::string other = "max_turns: 50\nvariants: {short: true, a: 1, b: 2, c: 3}\nextra_key: 1\n";
    CHECK_THROWS_WITH(check_resumable(saved, path, same_run_as(saved, other)),
                      Catch::Contains("other game rules") &&
                          Catch::Contains("max_turns (the checkpoint: 200, the config: 50)") &&
                          Catch::Contains("variants.short (the checkpoint: false, the config: true)") &&
                          Catch::Contains("; and 2 more"));
  }
  SECTION("a list of another length, a mapping in place of a number") {
    const LoadedCheckpoint listed = run_checkpoint("order: [1, 2, 3]\nmax_turns: 200\n");
    CHECK_THROWS_WITH(
        check_resumable(listed, path, same_run_as(listed, "order: [1, 2]\nmax_turns: {a: 1}\n")),
        Catch::Contains("order (the checkpoint: [1, 2, 3], the config: [1, 2])") &&
            Catch::Contains("max_turns (the checkpoint: 200, the config: {a: 1})"));
  }
  SECTION("edited rules in the checkpoint that are not YAML") {
    const LoadedCheckpoint edited = run_checkpoint("max_turns: [200");
    CHECK_THROWS_WITH(check_resumable(edited, path, same_run_as(edited, rules)),
                      Catch::Contains(path) && Catch::Contains("extra.game_config is not readable YAML"));
  }
  SECTION("another run.seed (issue 55)") {
    RunIdentity run = same_run_as(saved, rules);
    run.seed = 8;
    CHECK_THROWS_WITH(check_resumable(saved, path, run),
                      Catch::Contains(path) && Catch::Contains("started with run.seed 7") &&
                          Catch::Contains("the config gives 8") && Catch::Contains("set run.seed back to 7"));
  }
  SECTION("bookkeeping every run's checkpoint records, missing or edited") {
    for (const char* key : {"seed", "elapsed_seconds", "eval_vs_random", "eval_vs_heuristic"}) {
      LoadedCheckpoint edited = saved;
      edited.meta.source = path;
      edited.meta.extra.erase(key);
      CHECK_THROWS_WITH(check_resumable(edited, path, same_run_as(saved, rules)),
                        Catch::Contains("checkpoint '" + path + "': extra." + key + " is missing"));
    }
    LoadedCheckpoint edited = saved;
    edited.meta.extra["seed"] = "seven";  // was ignored, so any run.seed resumed it
    CHECK_THROWS_WITH(check_resumable(edited, path, same_run_as(saved, rules)),
                      Catch::Contains("extra.seed") && Catch::Contains("a whole number >= 0"));
  }
  SECTION("a checkpoint from before the rules were recorded is not checked for them") {
    const LoadedCheckpoint old = run_checkpoint("");
    CHECK_NOTHROW(check_resumable(old, path, same_run_as(old, "max_turns: 50\n")));
  }
}
