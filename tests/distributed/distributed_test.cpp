// Runs across processes (training/distributed): the launch environment, the
// one-process context, and jobs of 2 and 3 ranks on 127.0.0.1 started by a
// test-only launcher (launcher.h) or by torchrun: the data-parallel update
// against the one-process update on the union, the arena table against the
// one-process table, same seed same result, resuming with another number of
// ranks, and a rank that is killed or hangs.
#include "training/distributed/distributed.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "models/checkpoint.h"
#include "tests/distributed/launcher.h"
#include "training/distributed/same_config.h"

using namespace rocketgym;
using namespace rocketgym::testing;
namespace fs = std::filesystem;

namespace {

const std::string kRankProgram = ROCKETGYM_RANK_PROGRAM;

// A fresh folder for one test.
fs::path folder(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("rocketgym_dist_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string all_logs(const Job& job) {
  std::string text;
  for (std::size_t r = 0; r < job.logs.size(); ++r)
    text += "--- rank " + std::to_string(r) + " ---\n" + read_text(job.logs[r]);
  return text;
}

// Runs a job to its end; every rank must fail with an error (exit status 1,
// not a crash) whose message contains each of `words`.
void run_refused(const std::vector<std::string>& args, int ranks, const fs::path& logs,
                 const std::vector<std::string>& words) {
  const Job job = launch(kRankProgram, args, ranks, logs.string());
  const std::vector<int> statuses = wait_all(job, 120);
  INFO(all_logs(job));
  for (std::size_t r = 0; r < statuses.size(); ++r) {
    CHECK(statuses[r] == 1);
    for (const std::string& word : words) CHECK(read_text(job.logs[r]).find(word) != std::string::npos);
  }
}

// Runs a job to its end; every rank must succeed.
// `seconds`: a hang guard only, far beyond what a loaded machine needs.
Job run_ok(const std::vector<std::string>& args, int ranks, const fs::path& logs, double seconds = 1800) {
  const Job job = launch(kRankProgram, args, ranks, logs.string());
  const std::vector<int> statuses = wait_all(job, seconds);
  INFO(all_logs(job));
  for (int status : statuses) REQUIRE(status == 0);
  return job;
}

// "key value..." lines.
std::map<std::string, std::string> read_keys(const fs::path& file) {
  std::map<std::string, std::string> keys;
  std::istringstream in(read_text(file.string()));
  std::string line;
  while (std::getline(in, line)) {
    const auto space = line.find(' ');
    if (space != std::string::npos) keys[line.substr(0, space)] = line.substr(space + 1);
  }
  return keys;
}

bool wait_until_exists(const fs::path& file, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!fs::exists(file)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

torch::Tensor weights(const fs::path& checkpoint) {
  LoadedCheckpoint loaded = load_checkpoint(checkpoint.string());
  std::vector<torch::Tensor> parts;
  for (const auto& p : loaded.net->parameters()) parts.push_back(p.detach().reshape(-1));
  return torch::cat(parts);
}

// A PPO run of a few small updates that exercises every part the ranks share:
// imitation warm start, opponent pool, evaluation, checkpoints.
fs::path write_ppo_config(const fs::path& dir, int64_t steps) {
  const fs::path file = dir / "ppo.yaml";
  std::ofstream(file)
      << "game: {id: launchpad23, players: 2}\n"
         "model: {kind: mlp, hidden: 32, blocks: 1}\n"
         "ppo: {envs: 6, steps_per_update: 64, epochs: 2, minibatch: 32, shaping: 0.05}\n"
         "opponents: {self_play: 1, pool: 1, agents: {random: 1, heuristic: 1}, snapshot_every: 1, "
         "pool_size: 2}\n"
         "imitation: {steps: 64}\n"
         "budget: {steps: "
      << steps
      << ", minutes: 0}\n"
         "run: {threads: 1, checkpoint_every: 1, eval_every: 2, eval_games: 6, plot: false}\n";
  return file;
}

std::vector<std::string> train_args(const fs::path& config, const fs::path& run, int64_t steps,
                                    int timeout = 60) {
  return {"train",   config.string(),       "--run-dir",      run.string(),
          "--steps", std::to_string(steps), "--rank-timeout", std::to_string(timeout)};
}

// Unsets torchrun's variables for the length of a test, restoring them after.
struct CleanLaunchEnvironment {
  std::map<std::string, std::string> saved;
  CleanLaunchEnvironment() {
    for (const char* name : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT",
                             "TORCHELASTIC_USE_AGENT_STORE", "TORCHELASTIC_RESTART_COUNT"}) {
      if (const char* value = std::getenv(name)) saved[name] = value;
      ::unsetenv(name);
    }
  }
  ~CleanLaunchEnvironment() {
    for (const char* name : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT",
                             "TORCHELASTIC_USE_AGENT_STORE", "TORCHELASTIC_RESTART_COUNT"})
      ::unsetenv(name);
    for (const auto& [name, value] : saved) ::setenv(name.c_str(), value.c_str(), 1);
  }
};

}  // namespace

TEST_CASE("shares split a total evenly over the ranks and add up to it", "[distributed]") {
  for (int ranks : {1, 2, 3, 7})
    for (int64_t total : {0, 1, 5, 64, 4096, 4097}) {
      int64_t sum = 0;
      for (int r = 0; r < ranks; ++r) {
        CHECK(dist::share_offset(total, r, ranks) == sum);
        const int64_t mine = dist::share(total, r, ranks);
        CHECK(mine >= total / ranks);
        CHECK(mine <= total / ranks + 1);
        sum += mine;
      }
      CHECK(sum == total);
    }
  CHECK(dist::share(64, 0, 3) == 22);
  CHECK(dist::share(64, 2, 3) == 21);
}

TEST_CASE("rank 0 keeps the run's seed, the other ranks get streams of their own", "[distributed]") {
  CHECK(dist::rank_seed(42, 0) == 42);
  CHECK(dist::rank_seed(42, 1) != 42);
  CHECK(dist::rank_seed(42, 1) != dist::rank_seed(42, 2));
  CHECK(dist::rank_seed(42, 1) != dist::rank_seed(43, 1));
}

TEST_CASE("the launch is read from torchrun's variables", "[distributed]") {
  CleanLaunchEnvironment clean;
  dist::Launch alone = dist::Launch::from_environment();
  CHECK(alone.world_size == 1);
  CHECK(alone.rank == 0);

  ::setenv("WORLD_SIZE", "4", 1);
  ::setenv("RANK", "3", 1);
  ::setenv("LOCAL_RANK", "1", 1);
  ::setenv("MASTER_ADDR", "10.0.0.7", 1);
  ::setenv("MASTER_PORT", "29511", 1);
  ::setenv("TORCHELASTIC_USE_AGENT_STORE", "True", 1);
  ::setenv("TORCHELASTIC_RESTART_COUNT", "2", 1);
  const dist::Launch launch = dist::Launch::from_environment();
  CHECK(launch.world_size == 4);
  CHECK(launch.rank == 3);
  CHECK(launch.local_rank == 1);
  CHECK(launch.master_addr == "10.0.0.7");
  CHECK(launch.master_port == 29511);
  CHECK(launch.agent_store);
  CHECK(launch.restart == 2);

  ::setenv("TORCHELASTIC_USE_AGENT_STORE", "False", 1);
  CHECK_FALSE(dist::Launch::from_environment().agent_store);
  ::setenv("RANK", "4", 1);  // out of range for 4 ranks
  CHECK_THROWS_WITH(dist::Launch::from_environment(), Catch::Contains("RANK"));
  ::setenv("RANK", "x", 1);
  CHECK_THROWS_AS(dist::Launch::from_environment(), ConfigError);
  ::setenv("RANK", "1", 1);
  ::unsetenv("MASTER_PORT");
  CHECK_THROWS_WITH(dist::Launch::from_environment(), Catch::Contains("MASTER_PORT"));
  ::unsetenv("RANK");
  ::setenv("MASTER_PORT", "29511", 1);
  CHECK_THROWS_WITH(dist::Launch::from_environment(), Catch::Contains("RANK"));
  ::setenv("WORLD_SIZE", "1", 1);  // one rank: nothing else is needed
  CHECK(dist::Launch::from_environment().world_size == 1);
}

TEST_CASE("a one-process context needs no store and its collectives change nothing", "[distributed]") {
  CleanLaunchEnvironment clean;
  const dist::Context alone = dist::Context::from_environment(std::chrono::seconds(1));
  CHECK(alone.single());
  CHECK(alone.is_root());
  CHECK(alone.describe() == "rank 0 of 1");
  std::vector<double> values{1.5, -2.0};
  alone.all_reduce_sum(values, "test");
  CHECK(values == std::vector<double>{1.5, -2.0});
  CHECK(alone.any(true, "test"));
  CHECK_FALSE(alone.any(false, "test"));
  CHECK(alone.all_gather(7, "test") == std::vector<int64_t>{7});
  CHECK(alone.broadcast_bytes("abc", "test") == "abc");
  CHECK(alone.gather_to_root("abc", "test") == std::vector<std::string>{"abc"});
  alone.barrier("test");
  const fs::path dir = folder("single");
  std::ofstream(dir / "file.txt") << "text";
  CHECK(alone.file_from_root((dir / "file.txt").string()) == (dir / "file.txt").string());
  CHECK_FALSE(alone.file_from_root((dir / "missing.txt").string()).has_value());
  fs::remove_all(dir);
}

TEST_CASE("rank 0 names the keys on which another rank's config differs", "[distributed]") {
  const std::vector<std::string> local{"run.threads"};
  const YAML::Node base = YAML::Load("model: {hidden: 32}\nppo: {learning_rate: 0.001}\nrun: {threads: 1}\n");
  YAML::Node other = YAML::Clone(base);
  other["run"]["threads"] = 4;  // rank-local: may differ
  const std::string zero = dist::shared_config_text(base, local);
  CHECK(dist::config_mismatch({zero, dist::shared_config_text(other, local)}, local).empty());
  other["ppo"]["learning_rate"] = 0.01;
  other["model"]["blocks"] = 3;
  const std::string message =
      dist::config_mismatch({zero, zero, dist::shared_config_text(other, local)}, local);
  CHECK_THAT(message, Catch::Contains("rank 2's config differs from rank 0's") &&
                          Catch::Contains("ppo.learning_rate (rank 0: 0.001, rank 2: 0.01)") &&
                          Catch::Contains("model.blocks (rank 0: (absent), rank 2: 3)") &&
                          Catch::Contains("only run.threads may differ"));
  CHECK(message.find("rank 1") == std::string::npos);
}

TEST_CASE("ranks whose configs differ all stop with an error naming the key", "[distributed][ranks]") {
  const fs::path dir = folder("differ");
  const fs::path base = write_ppo_config(dir, 64);
  const std::string text = read_text(base.string());
  auto per_rank = [&](const std::vector<std::pair<std::string, std::string>>& replacements) {
    std::string changed = text;
    for (const auto& [replaced, by] : replacements)
      changed.replace(changed.find(replaced), replaced.size(), by);
    std::ofstream(dir / "ppo0.yaml") << text;
    std::ofstream(dir / "ppo1.yaml") << changed;
    return train_args(dir / "ppo{rank}.yaml", dir / "run", 64);
  };
  // Another network: rank 1 died in the first collective (gloo::EnforceNotMet).
  run_refused(per_rank({{"hidden: 32", "hidden: 48"}}), 2, dir / "model",
              {"rank 1's config differs from rank 0's", "model.hidden (rank 0: 32, rank 1: 48)"});
  // Another learning rate: the ranks trained diverging replicas without a word.
  run_refused(per_rank({{"epochs: 2", "epochs: 2, learning_rate: 0.001"}}), 2, dir / "rate",
              {"ppo.learning_rate (rank 0: ", "rank 1: 0.001)"});
  CHECK_FALSE(fs::exists(dir / "run/checkpoints/latest.ckpt"));
  // Only rank 0's run folder and plot are used, and threads are each process's own.
  run_ok(per_rank({{"threads: 1", "threads: 2"}, {"plot: false", "plot: true"}}), 2, dir / "local");

  // An arena rank given other rules merged that game's results into the table.
  std::ofstream(dir / "arena0.yaml") << "game: {id: launchpad23}\n";
  std::ofstream(dir / "arena1.yaml") << "game: {id: launchpad23, overrides: {max_turns: 50}}\n";
  run_refused({"arena", (dir / "arena{rank}.yaml").string(), "--agent", "random", "--agent", "heuristic",
               "--games", "2", "--threads", "1", "--no-plot", "--output", (dir / "arena").string()},
              2, dir / "arena", {"game.overrides (rank 0: (absent), rank 1: {max_turns: 50})"});
  run_refused({"arena", "--game", "launchpad23", "--agent", "random", "--agent", "heuristic", "--agent",
               "{rank}=random", "--games", "2", "--no-plot", "--output", (dir / "arena").string()},
              2, dir / "agents", {"agents[2] (rank 0: 0=random, rank 1: 1=random)"});
  fs::remove_all(dir);
}

TEST_CASE("one update on 2 ranks with half the data each equals the 1-rank update on the union",
          "[distributed][ranks]") {
  const fs::path dir = folder("update");
  run_ok({"update-check", (dir / "result.txt").string()}, 2, dir / "update");
  const auto keys = read_keys(dir / "result.txt");
  for (const char* update : {"ppo", "imitation"}) {
    INFO(update);
    const std::string name = update;
    REQUIRE(keys.count(name + "_diff"));
    // The update moved the weights by much more than the two runs differ.
    CHECK(std::stod(keys.at(name + "_moved")) > 1e-3);
    CHECK(std::stod(keys.at(name + "_diff")) < 2e-6);
    CHECK(std::stod(keys.at(name + "_loss_diff")) < 1e-5);
    CHECK(std::stod(keys.at(name + "_ranks")) == 0.0);  // both ranks hold the same weights
    std::istringstream samples(keys.at(name + "_samples"));
    int split = 0, whole = 0;
    samples >> split >> whole;
    CHECK(split == whole);
    CHECK(split > 40);
  }
  fs::remove_all(dir);
}

TEST_CASE("the arena table and records on 2 and 3 ranks equal the 1-process ones", "[distributed][ranks]") {
  const fs::path dir = folder("arena");
  const std::string checkpoint = (dir / "net.ckpt").string();
  run_ok({"checkpoint", "launchpad23", checkpoint}, 0, dir / "checkpoint");
  auto arena = [&](const std::string& output) {
    return std::vector<std::string>{"arena",
                                    "--game",
                                    "launchpad23",
                                    "--agent",
                                    "random",
                                    "--agent",
                                    "heuristic",
                                    "--agent",
                                    "net=checkpoint:" + checkpoint,
                                    "--agent",
                                    "netsample=checkpoint:" + checkpoint + ":sample",
                                    "--games",
                                    "5",
                                    "--seed",
                                    "3",
                                    "--parallel",
                                    "4",
                                    "--threads",
                                    "1",
                                    "--no-plot",
                                    "--output",
                                    (dir / output).string(),
                                    "--records",
                                    (dir / (output + ".jsonl")).string()};
  };
  run_ok(arena("one"), 0, dir / "one");
  const Job two = run_ok(arena("two"), 2, dir / "two");
  run_ok(arena("three"), 3, dir / "three");
  const std::string table = read_text((dir / "one/table.txt").string());
  REQUIRE(table.find("netsample") != std::string::npos);
  CHECK(read_text((dir / "two/table.txt").string()) == table);
  CHECK(read_text((dir / "three/table.txt").string()) == table);
  const std::string games = read_text((dir / "one/games.csv").string());
  CHECK(read_text((dir / "two/games.csv").string()) == games);
  CHECK(read_text((dir / "three/games.csv").string()) == games);
  // Rank 0 gathers every game's moves: the same records as one process.
  const std::string records = read_text((dir / "one.jsonl").string());
  CHECK(std::count(records.begin(), records.end(), '\n') == 6 * 5 * 2);  // 6 pairs x 5 seeds x 2 seats
  CHECK(read_text((dir / "two.jsonl").string()) == records);
  CHECK(read_text((dir / "three.jsonl").string()) == records);
  CHECK(read_text(two.logs[0]).find("ranks: 2") != std::string::npos);
  CHECK(read_text(two.logs[1]).find("results in") == std::string::npos);  // rank 0 alone reports
  fs::remove_all(dir);
}

TEST_CASE("the same seed gives the same run on 2 ranks, and a run resumes on another number of ranks",
          "[distributed][ranks]") {
  const fs::path dir = folder("train");
  // Launchpad 23's first games run to hundreds of decisions: a few updates.
  const fs::path config = write_ppo_config(dir, 1200);
  const Job first = run_ok(train_args(config, dir / "a", 1200), 2, dir / "a");
  run_ok(train_args(config, dir / "b", 1200), 2, dir / "b");
  const fs::path a = dir / "a/checkpoints/latest.ckpt", b = dir / "b/checkpoints/latest.ckpt";
  const CheckpointMeta meta = read_checkpoint_meta(a.string());
  CHECK(meta.iteration >= 2);
  CHECK(meta.extra["pool"].size() == 2);
  CHECK(torch::equal(weights(a), weights(b)));
  CHECK(read_checkpoint_meta(b.string()).step == meta.step);
  CHECK(read_text((dir / "a/config.yaml").string()).find("ranks: 2") != std::string::npos);
  CHECK(read_text(first.logs[0]).find("ranks: 2") != std::string::npos);
  // Rank 0 alone writes: nothing but the run folder's files, no rank-1 copies.
  CHECK_FALSE(fs::exists(dir / "a/checkpoints/latest.ckpt.tmp"));

  // One process goes on from the 2-rank checkpoint, then 3 ranks.
  const Job one = run_ok(train_args(config, dir / "a", meta.step + 100), 0, dir / "a1");
  CHECK(read_text(one.logs[0]).find("resuming") != std::string::npos);
  const CheckpointMeta after_one = read_checkpoint_meta(a.string());
  CHECK(after_one.iteration > meta.iteration);
  CHECK(read_text((dir / "a/config.yaml").string()).find("ranks: 1") != std::string::npos);
  run_ok(train_args(config, dir / "a", after_one.step + 100), 3, dir / "a3");
  const CheckpointMeta after_three = read_checkpoint_meta(a.string());
  CHECK(after_three.iteration > after_one.iteration);
  CHECK(after_three.extra["pool"].size() == 2);
  CHECK(read_text((dir / "a/config.yaml").string()).find("ranks: 3") != std::string::npos);
  // One metrics row per update, in order, across the three invocations.
  std::istringstream rows(read_text((dir / "a/metrics.csv").string()));
  std::string row;
  std::getline(rows, row);
  int64_t update = 0;
  while (std::getline(rows, row)) CHECK(std::stoll(row.substr(0, row.find(','))) == ++update);
  CHECK(update == after_three.iteration);
  fs::remove_all(dir);
}

TEST_CASE("search-based training runs on 2 ranks and resumes on 1, its gating matches too",
          "[distributed][ranks]") {
  const fs::path dir = folder("az");
  const fs::path config = dir / "az.yaml";
  std::ofstream(config)
      << "algorithm: alphazero\n"
         "game: {id: launchpad23, players: 2}\n"
         "model: {kind: mlp, hidden: 32, blocks: 1}\n"
         "search: {simulations: 8, gumbel_considered: 4}\n"
         "selfplay: {games: 6, samples_per_iteration: 64}\n"
         "replay: {capacity: 4096, min_samples: 32}\n"
         "train: {batch: 32, replay_ratio: 1}\n"
         "imitation: {steps: 128, epochs: 1}\n"
         "gating: {every: 1, games: 4, simulations: 2}\n"  // a match split over the ranks
         "run: {threads: 1, checkpoint_every: 1, eval_every: 1, eval_games: 4, plot: false}\n";
  const std::vector<std::string> args{
      "train", config.string(), "--run-dir", (dir / "run").string(), "--steps", "100"};
  run_ok(args, 2, dir / "two");
  run_ok(args, 2, dir / "again");  // resumes at once: the budget is spent
  const fs::path ckpt = dir / "run/checkpoints/latest.ckpt";
  const CheckpointMeta meta = read_checkpoint_meta(ckpt.string());
  CHECK(meta.iteration >= 1);
  CHECK(meta.extra_count("gating_matches", 0) == meta.iteration);
  CHECK(fs::exists(dir / "run/checkpoints/best.ckpt"));
  CHECK(read_text((dir / "run/config.yaml").string()).find("ranks: 2") != std::string::npos);
  std::vector<std::string> more = args;
  more[5] = std::to_string(meta.step + 64);
  run_ok(more, 0, dir / "one");
  CHECK(read_checkpoint_meta(ckpt.string()).iteration > meta.iteration);
  CHECK(read_text((dir / "run/config.yaml").string()).find("ranks: 1") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("killing one rank ends the other with an error and leaves the checkpoint intact",
          "[distributed][ranks][faults]") {
  const fs::path dir = folder("kill");
  const fs::path config = write_ppo_config(dir, 100'000'000);
  // A rank timeout far beyond the wait below: rank 0 can only stop in time
  // by seeing the peer's socket close, which its log says (no clock is read).
  const Job job = launch(kRankProgram, train_args(config, dir / "run", 100'000'000, 24 * 3600), 2,
                         (dir / "job").string());
  const fs::path ckpt = dir / "run/checkpoints/latest.ckpt";
  const bool saved = wait_until_exists(ckpt, 1800);              // a hang guard only
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // a few more updates
  ::kill(job.pids[1], SIGKILL);
  const int status = wait_for(job.pids[0], 600);  // a hang guard only
  const std::vector<int> statuses = wait_all(job, 10);
  const std::string log = read_text(job.logs[0]);
  INFO(all_logs(job));
  REQUIRE(saved);
  CHECK(status == 1);  // an error, not a crash or a hang
  CHECK(log.find("error: rank 0 of 2") != std::string::npos);
  CHECK(log.find("another rank stopped") != std::string::npos);
  CHECK(log.find("no answer from another rank") == std::string::npos);  // the socket, not the timeout
  CHECK(statuses[1] == 128 + SIGKILL);
  // The checkpoint loads, and the run resumes from it in one process.
  const CheckpointMeta meta = read_checkpoint_meta(ckpt.string());
  CHECK(meta.iteration >= 1);
  REQUIRE_NOTHROW(load_checkpoint(ckpt.string()));
  const Job resumed = run_ok(train_args(config, dir / "run", meta.step + 64), 0, dir / "resume");
  CHECK(read_text(resumed.logs[0]).find("resuming") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a rank that hangs makes the others stop with an error after the timeout",
          "[distributed][ranks][faults]") {
  const fs::path dir = folder("hang");
  const fs::path config = write_ppo_config(dir, 100'000'000);
  const Job job =
      launch(kRankProgram, train_args(config, dir / "run", 100'000'000, 10), 2, (dir / "job").string());
  const fs::path ckpt = dir / "run/checkpoints/latest.ckpt";
  const bool saved = wait_until_exists(ckpt, 1800);  // a hang guard only
  ::kill(job.pids[1], SIGSTOP);                      // alive, sockets open, silent
  const int status = wait_for(job.pids[0], 600);     // a hang guard only
  ::kill(job.pids[1], SIGKILL);
  wait_all(job, 10);
  INFO(all_logs(job));
  REQUIRE(saved);
  CHECK(status == 1);
  // The log, not a clock, says why it stopped: the peer went silent past the timeout.
  CHECK(read_text(job.logs[0]).find("within the 10 s timeout") != std::string::npos);
  REQUIRE_NOTHROW(load_checkpoint(ckpt.string()));
  fs::remove_all(dir);
}

TEST_CASE("torchrun starts the ranks (its agent serves the store)", "[distributed][ranks][torchrun]") {
  const std::string torchrun = "/usr/bin/torchrun";
  if (!fs::exists(torchrun)) {
    WARN("torchrun not installed (python3-torch, scripts/setup.sh): skipped");
    return;
  }
  const fs::path dir = folder("torchrun");
  auto arena = [&](const std::string& output) {
    return std::vector<std::string>{
        "arena",   "--game", "launchpad23", "--agent", "random",    "--agent",  "heuristic",
        "--games", "4",      "--threads",   "1",       "--no-plot", "--output", (dir / output).string()};
  };
  run_ok(arena("one"), 0, dir / "one");
  // -r 1 -t 1: Debian's torchrun (Python 3.11) fails at start without them.
  std::vector<std::string> args{"-r",
                                "1",
                                "-t",
                                "1",
                                "--nproc_per_node=2",
                                "--master_addr=127.0.0.1",
                                "--master_port=" + std::to_string(free_port()),
                                "--no_python",
                                kRankProgram};
  for (const auto& a : arena("two")) args.push_back(a);
  const Job job = launch(torchrun, args, 0, (dir / "torchrun").string());
  const std::vector<int> statuses = wait_all(job, 300);
  INFO(all_logs(job));
  REQUIRE(statuses[0] == 0);
  CHECK(read_text((dir / "two/table.txt").string()) == read_text((dir / "one/table.txt").string()));
  fs::remove_all(dir);
}
