// The rocketgym command line refuses bad arguments and files at once, with a
// message naming the option, file or --set (issue 16). These tests run the
// built binary (ROCKETGYM_CLI in the environment runs another one), each
// command under a time limit so that a hang is a failure, not a stuck test,
// and a memory limit so that reading without end fails fast.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "generated/source_tree.h"
#include "tests/common/run_cli.h"
#include "tests/common/temp_dir.h"
#include "training/run_support.h"

namespace {

using testing::cli_binary;
using testing::CliResult;
using testing::run_shell;

CliResult run_cli(const std::string& arguments, int seconds = 60) {
  return run_shell("ulimit -v 3000000; timeout " + std::to_string(seconds) + " '" + cli_binary() + "' " +
                   arguments + " </dev/null 2>&1");
}

using testing::TempDir;

// A training config that would finish in a second, so that a flag the old
// binary ignored shows up as a run instead of an error.
std::string tiny_train_config(const TempDir& dir) {
  const std::string file = dir / "train.yaml";
  std::ofstream(file) << "game: {id: launchpad23}\n"
                         "model: {hidden: 16, blocks: 1, channels: 4}\n"
                         "ppo: {envs: 4, steps_per_update: 16, epochs: 1, minibatch: 16}\n"
                         "budget: {steps: 1, minutes: 0}\n"
                         "run: {dir: \""
                      << (dir / "run") << "\", eval_every: 0, plot: false}\n";
  return file;
}

bool have_cli() {
  if (!cli_binary().empty() && std::filesystem::exists(cli_binary())) return true;
  WARN("the rocketgym binary is not built: command-line tests skipped");
  return false;
}

}  // namespace

TEST_CASE("numeric options out of range are refused, naming the option", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("numbers");
  const std::string train = "train " + tiny_train_config(dir) + " --quiet ";
  const std::string arena =
      "arena --game launchpad23 --agent random --agent random --quiet --no-plot --output '" +
      (dir / "arena") + "' ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {train + "--minutes -1", "--minutes"},
      {train + "--steps -5", "--steps"},
      {train + "--seed -1", "--seed"},
      {train + "--threads -2", "--threads"},
      {train + "--threads 0", "--threads"},
      {train + "--envs -3", "--envs"},
      {arena + "--games -1", "--games"},
      {arena + "--games 0", "--games"},
      {arena + "--players -1", "--players"},
      {arena + "--seed -1", "--seed"},
      {arena + "--threads -1", "--threads"},
      {arena + "--parallel 0", "--parallel"},
      {"bench launchpad23 --steps -5", "--steps"},
      {"bench launchpad23 --steps 1000 --envs -1", "--envs"},
      {"bench launchpad23 --steps 1000 --seed -1", "--seed"},
      {"bench launchpad23 --steps 1000 --players -2", "--players"},
      {"play launchpad23 --seats random,random --seed -1", "--seed"},
      {"play launchpad23 --seats random,random --seed 1.5", "--seed"},
      {"play launchpad23 --seats random,random --players -1", "--players"},
  };
  for (const auto& [arguments, option] : cases) {
    INFO("rocketgym " << arguments);
    const CliResult r = run_cli(arguments, 30);
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK(r.status != 124);
    CHECK_THAT(r.output, Catch::Contains(option + ": must be"));
  }
  CHECK_FALSE(std::filesystem::exists(dir / "run"));  // no training started
  CHECK_FALSE(std::filesystem::exists(dir / "arena"));
}

TEST_CASE("config files must be regular text files", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("config_files");
  const CliResult random = run_cli("play launchpad23 --seats random,random --config /dev/urandom", 20);
  INFO(random.output);
  CHECK(random.status == 1);
  CHECK_THAT(random.output, Catch::Contains("/dev/urandom: not a regular file"));

  const std::string fifo = dir / "fifo.yaml";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const CliResult blocked = run_cli("bench launchpad23 --steps 100 --config '" + fifo + "'", 20);
  INFO(blocked.output);
  CHECK(blocked.status == 1);
  CHECK_THAT(blocked.output, Catch::Contains("not a regular file"));

  const std::string garbage = dir / "garbage.yaml";
  std::ofstream(garbage, std::ios::binary) << std::string(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0",
      10);
  const CliResult binary = run_cli("train '" + garbage + "'", 20);
  INFO(binary.output);
  CHECK(binary.status == 1);
  CHECK_THAT(binary.output, Catch::Contains("not a YAML text file"));
}

TEST_CASE("--set errors name the argument, and an empty value is refused", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("set");
  const CliResult play = run_cli("play launchpad23 --seats random,random --set max_turns=0");
  INFO(play.output);
  CHECK(play.status == 1);
  CHECK_THAT(play.output, Catch::Contains("--set max_turns=0") && Catch::Contains("max_turns"));
  CHECK_THAT(play.output, !Catch::Contains(".yaml:1:"));

  const CliResult empty = run_cli("play launchpad23 --seats random,random --set max_turns=");
  INFO(empty.output);
  CHECK(empty.status == 1);
  CHECK_THAT(empty.output, Catch::Contains("--set max_turns=") && Catch::Contains("no value"));

  const CliResult train =
      run_cli("train " + tiny_train_config(dir) + " --quiet --set game.overrides.max_turns=0");
  INFO(train.output);
  CHECK(train.status == 1);
  CHECK_THAT(train.output, Catch::Contains("--set game.overrides.max_turns=0"));
  CHECK_FALSE(std::filesystem::exists(dir / "run/checkpoints/latest.ckpt"));

  const CliResult arena = run_cli(
      "arena --game launchpad23 --players 5 --agent random --agent random --quiet "
      "--no-plot --output '" +
      (dir / "arena") + "'");
  INFO(arena.output);
  CHECK(arena.status == 1);
  CHECK_THAT(arena.output, Catch::Contains("--players 5") && Catch::Contains("game.players"));
}

TEST_CASE("numbers are plain decimal on the command line, in --set and in files", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("decimal");
  const std::string train = "train " + tiny_train_config(dir) + " --quiet ";
  const std::string arena =
      "arena --game launchpad23 --agent random --agent random --quiet --no-plot --output '" +
      (dir / "arena") + "' ";
  // 010 was read as 8 (octal), 0x1F as 31 (hex); now each names its option or --set.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"play launchpad23 --seats random,random --seed 010", "--seed: must be a whole number in decimal"},
      {"play launchpad23 --seats random,random --seed 0x10", "--seed: must be a whole number in decimal"},
      {"bench launchpad23 --steps 10 --seed 010", "--seed: must be a whole number in decimal"},
      {train + "--seed 010", "--seed: must be a whole number in decimal"},
      {train + "--set run.seed=010", "--set run.seed=010"},
      {train + "--set run.seed=0x1F", "--set run.seed=0x1F"},
      {arena + "--games 010", "--games: must be a whole number in decimal"},
      {arena + "--set games=09", "--set games=09"},
  };
  for (const auto& [arguments, expected] : cases) {
    INFO("rocketgym " << arguments);
    const CliResult r = run_cli(arguments, 30);
    INFO(r.output);
    CHECK(r.status != 0);  // 1, or CLI11's code for a bad option
    CHECK(r.status != 124);
    CHECK_THAT(r.output, Catch::Contains(expected));
    CHECK_THAT(r.output, !Catch::Contains("out of range"));
  }
  // The widest seed is one range everywhere: 2^64 - 1.
  const CliResult largest = run_cli("play launchpad23 --seats random,random --seed 18446744073709551615", 30);
  INFO(largest.output);
  CHECK(largest.status == 0);
  CHECK_THAT(largest.output, Catch::Contains("seed 18446744073709551615"));
  const CliResult past = run_cli("bench launchpad23 --steps 10 --seed 18446744073709551616", 30);
  CHECK_THAT(past.output, Catch::Contains("--seed: must be a whole number from 0 to 18446744073709551615"));
  // An arena config with a second document is refused, not played.
  const std::string config = dir / "arena.yaml";
  std::ofstream(config) << "game: {id: launchpad23}\nagents: [random, random]\ngames: 1\noutput: '"
                        << (dir / "arena2") << "'\nplot: false\n---\ngames: 100000000000\nbogus: [\n";
  const CliResult two = run_cli("arena '" + config + "' --quiet", 30);
  INFO(two.output);
  CHECK(two.status == 1);
  CHECK_THAT(two.output, Catch::Contains(config + ":") && Catch::Contains("YAML syntax error"));
  CHECK_FALSE(std::filesystem::exists(dir / "arena2"));
}

TEST_CASE("the arena checks its output folder before playing", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("arena_output");
  std::ofstream(dir / "a_file") << "a file, not a folder";
  const CliResult r = run_cli(
      "arena --game launchpad23 --agent random --agent heuristic --games 300 --no-plot "
      "--output '" +
      (dir / "a_file") + "/results'");
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("a_file/results"));
  CHECK_THAT(r.output, !Catch::Contains("games/s"));  // no game was played
}

TEST_CASE("checkpoint agents must be regular files", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("checkpoint_files");
  const std::string arena =
      "arena --game launchpad23 --agent random --games 1 --quiet --no-plot --output '" + (dir / "out") + "' ";
  const CliResult zero = run_cli(arena + "--agent checkpoint:/dev/zero", 20);
  INFO(zero.output);
  CHECK(zero.status == 1);
  CHECK_THAT(zero.output, Catch::Contains("/dev/zero: not a regular file"));  // the file rule's words

  const std::string fifo = dir / "pipe.ckpt";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const CliResult blocked = run_cli(arena + "--agent 'checkpoint:" + fifo + "'", 20);
  INFO(blocked.output);
  CHECK(blocked.status == 1);
  CHECK_THAT(blocked.output, Catch::Contains("not a regular file"));
}

TEST_CASE("agent counts beyond the YAML's range are refused on the command line too", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("agent_counts");
  const std::string arena = "arena --game launchpad23 --agent random --games 1 --quiet --no-plot --output '" +
                            (dir / "out") + "' --agent ";
  // Each used to die of std::bad_alloc (or search without end) instead.
  for (const char* agent : {"ismcts:2147483647", "ismcts:4:heuristic:2147483647", "search:x.ckpt:2147483647",
                            "zoo:last_blast:2147483647"}) {
    INFO(agent);
    const CliResult r = run_cli(arena + agent, 30);
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains(agent) && Catch::Contains("must be a whole number from"));
    CHECK_THAT(r.output, !Catch::Contains("bad_alloc"));
  }
  const CliResult play = run_cli("play launchpad23 --seats random,ismcts:2147483647", 30);
  INFO(play.output);
  CHECK(play.status == 1);
  CHECK_THAT(play.output, Catch::Contains("1 to 10000000"));
}

TEST_CASE("an empty --output is refused, not read as the default folder", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("empty_output");
  const CliResult r =
      run_cli("arena --game launchpad23 --agent random --agent random --games 1 --no-plot --output ''");
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("--output") && Catch::Contains("empty"));
  CHECK_THAT(r.output, !Catch::Contains("games/s"));  // no game was played
}

TEST_CASE("an arena stops at once on an output folder another arena is using", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("busy_output");
  const std::string output = dir / "results";
  std::filesystem::create_directories(output);
  const rocketgym::RunFolderLock other_arena(output);  // as the first arena holds it while it plays
  const CliResult r = run_cli(
      "arena --game launchpad23 --agent random --agent heuristic --games 2 --no-plot "
      "--output '" +
      output + "'");
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("arena output folder '" + output + "'") && Catch::Contains("in use"));
  CHECK_FALSE(std::filesystem::exists(output + "/report.json"));
}

TEST_CASE("play takes a checkpoint file as a seat, as its help says", "[cli]") {
  if (!have_cli()) return;
  const std::string zoo = std::string(ROCKETGYM_SOURCE_DIR) + "/models/zoo/last_blast.ckpt";
  if (!std::filesystem::exists(zoo)) return;
  const CliResult r = run_cli("play last_blast --seed 3 --seats 'random," + zoo + "'");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("player 1 (" + zoo + "): score"));
}

namespace {

// A search-based config small enough for bench-search to start at once.
std::string tiny_search_config(const TempDir& dir) {
  const std::string file = dir / "az.yaml";
  std::ofstream(file) << "algorithm: alphazero\n"
                         "game: {id: launchpad23, players: 2}\n"
                         "model: {hidden: 16, blocks: 1, channels: 4}\n"
                         "search: {simulations: 4, gumbel_considered: 2}\n"
                         "selfplay: {games: 2, samples_per_iteration: 16}\n"
                         "run: {dir: \""
                      << (dir / "az_run") << "\", threads: 1, plot: false}\n";
  return file;
}

}  // namespace

TEST_CASE("every path option of every command refuses an empty value, naming the option", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("empty_paths");
  const std::string train = tiny_train_config(dir);
  const std::string search = tiny_search_config(dir);
  const std::string arena =
      "arena --game launchpad23 --agent random --agent random --games 1 --quiet --no-plot ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"train ''", "config"},
      {"train " + train + " --quiet --run-dir ''", "--run-dir"},  // was read as "not given"
      {"arena '' --agent random --agent random --games 1 --quiet --no-plot", "config"},
      {arena + "--output ''", "--output"},
      {"export '' " + (dir / "out.ckpt"), "checkpoint"},
      {"export " + (dir / "in.ckpt") + " ''", "output"},
      {"bench-search ''", "config"},
      {"bench-search " + search + " --checkpoint '' --seconds 1", "--checkpoint"},
      {"play launchpad23 --seats random,random --config ''", "--config"},
      {"bench launchpad23 --steps 10 --config ''", "--config"},
  };
  for (const auto& [arguments, option] : cases) {
    INFO("rocketgym " << arguments);
    const CliResult r = run_cli(arguments, 30);
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains(option + ": the path is empty"));
  }
  CHECK_FALSE(std::filesystem::exists(dir / "run"));  // no training started
  CHECK_FALSE(std::filesystem::exists(dir / "az_run"));
}

TEST_CASE("renamed flags keep working for one release, with a warning naming the new one", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("renamed_flags");
  const std::string arena =
      "arena --game launchpad23 --agent random --agent random --games 1 --quiet --no-plot ";
  const CliResult old_name = run_cli(arena + "--parallel 2 --output '" + (dir / "a") + "'");
  INFO(old_name.output);
  CHECK(old_name.status == 0);
  CHECK_THAT(old_name.output,
             Catch::Contains("warning: --parallel is deprecated") && Catch::Contains("--envs"));

  const CliResult new_name = run_cli(arena + "--envs 2 --output '" + (dir / "b") + "'");
  INFO(new_name.output);
  CHECK(new_name.status == 0);
  CHECK_THAT(new_name.output, !Catch::Contains("deprecated"));
  // Same games, same table, whichever name set it.
  std::ifstream a(dir / "a/games.csv"), b(dir / "b/games.csv");
  const std::string games_a((std::istreambuf_iterator<char>(a)), std::istreambuf_iterator<char>());
  const std::string games_b((std::istreambuf_iterator<char>(b)), std::istreambuf_iterator<char>());
  CHECK(!games_a.empty());
  CHECK(games_a == games_b);

  const CliResult both = run_cli(arena + "--envs 2 --parallel 2 --output '" + (dir / "c") + "'");
  INFO(both.output);
  CHECK(both.status != 0);
  CHECK_THAT(both.output, Catch::Contains("--parallel") && Catch::Contains("--envs"));

  // The old name keeps the checks of the new one.
  const std::string search = tiny_search_config(dir);
  const CliResult bad = run_cli("bench-search " + search + " --games 0", 30);
  INFO(bad.output);
  CHECK(bad.status != 0);
  CHECK_THAT(bad.output, Catch::Contains("--games: must be"));
  const CliResult bench = run_cli("bench-search " + search + " --games 2 --seconds 1 --warmup 0 --json", 60);
  INFO(bench.output);
  CHECK(bench.status == 0);
  CHECK_THAT(bench.output,
             Catch::Contains("warning: --games is deprecated") && Catch::Contains("\"games\": 2"));
}

TEST_CASE("train and arena show their progress as plain lines when stderr is not a terminal", "[cli]") {
  if (!have_cli()) return;
  const TempDir dir("progress");
  // The tiny config stops after its first update: one status line.
  const CliResult shown = run_cli("train " + tiny_train_config(dir));
  INFO(shown.output);
  CHECK(shown.status == 0);
  CHECK_THAT(shown.output,
             Catch::Contains("update 1 | ") && Catch::Contains("samples/s") && Catch::Contains("ETA"));
  CHECK(shown.output.find('\r') == std::string::npos);  // no in-place rewriting in a pipe
  std::filesystem::remove_all(dir / "run");
  const CliResult quiet = run_cli("train " + tiny_train_config(dir) + " --quiet");
  INFO(quiet.output);
  CHECK(quiet.status == 0);
  CHECK_THAT(quiet.output, !Catch::Contains("update 1 | "));

  const std::string arena = "arena --game launchpad23 --agent random --agent random --games 1 --no-plot ";
  const CliResult played = run_cli(arena + "--output '" + (dir / "a") + "'");
  INFO(played.output);
  CHECK(played.status == 0);
  CHECK_THAT(played.output, Catch::Contains("arena: 2/2 games"));  // the last status is always shown
  CHECK(played.output.find('\r') == std::string::npos);
  const CliResult silent = run_cli(arena + "--quiet --output '" + (dir / "b") + "'");
  CHECK(silent.status == 0);
  CHECK_THAT(silent.output, !Catch::Contains("games/s"));
}
