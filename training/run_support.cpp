#include "training/run_support.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "envs/core/errors.h"
#include "envs/core/files.h"
#include "envs/core/quoted.h"
#include "envs/core/rng.h"
#include "envs/core/yaml_document.h"
#include "generated/source_tree.h"
#include "training/game_setup.h"

namespace rocketgym {

std::atomic<bool> stop_requested{false};

void truncate_metrics(const std::string& file, int64_t last_update) {
  if (!std::filesystem::exists(std::filesystem::symlink_status(file))) return;
  std::string text;
  try {  // the file rule (envs/core/files.h): read and written as a regular file only
    text = files::read_input_file(file, files::kMaxMetricsBytes, "metrics file");
  } catch (const files::FileError& e) {
    throw Error(e.what());
  }
  std::istringstream in(text);
  std::ostringstream kept;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      kept << line << "\n";
      header = false;
      continue;
    }
    try {
      if (std::stoll(line.substr(0, line.find(','))) <= last_update) kept << line << "\n";
    } catch (const std::exception&) {
      // a half-written last line from an interrupted run: dropped
    }
  }
  try {
    files::write_file_atomically(file, kept.str(), "metrics file");
  } catch (const files::FileError& e) {
    throw Error(e.what());
  }
}

torch::Device parse_device(const std::string& name) {
  if (name == "cpu") return torch::kCPU;
  if (name == "cuda") {
    if (!torch::cuda::is_available())
      throw Error(
          "device 'cuda' requested, but this LibTorch build has no usable CUDA device (use device: cpu)");
    return torch::kCUDA;
  }
  throw Error("device " + quote(name) + " is not cpu or cuda");
}

void set_torch_threads(int threads) {
  at::set_num_threads(std::max(1, threads));
  // One inter-op thread: our batches are small and the env has its own threads.
  static bool inter_op_set = false;
  if (!inter_op_set) {
    at::set_num_interop_threads(1);
    inter_op_set = true;
  }
}

namespace {

// extra.seed: any seed (0 to kMaxSeed, envs/core/seed_range.h), where
// extra_count stops at 2^63 - 1; extra_count refuses what is no seed, naming it.
uint64_t recorded_seed(const CheckpointMeta& meta) {
  const auto found = meta.extra.find("seed");
  if (found != meta.extra.end() && found->is_number_unsigned()) return found->get<uint64_t>();
  return static_cast<uint64_t>(meta.extra_count("seed", 0));
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string plot_script() {
  if (const char* env = std::getenv("ROCKETGYM_PLOT_SCRIPT")) return env;
  return ROCKETGYM_SOURCE_DIR "/training/plot.py";
}

}  // namespace

bool run_plot_script(const std::string& kind, const std::string& input, const std::string& output) {
  const std::string script = plot_script();
  const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  if (!std::filesystem::exists(script)) {
    std::cerr << "warning: plot script " << script << " not found (set ROCKETGYM_PLOT_SCRIPT); no plot\n";
    return false;
  }
  const std::string command =
      python + " " + shell_quote(script) + " " + kind + " " + shell_quote(input) + " " + shell_quote(output);
  if (std::system(command.c_str()) != 0) {
    std::cerr << "warning: plotting failed (" << command << "); the CSV/JSON results are complete\n";
    return false;
  }
  return true;
}

std::string format_duration(double seconds) {
  if (!(seconds >= 0) || seconds > 1e8) return "?";
  const long s = static_cast<long>(seconds + 0.5);
  char buffer[32];
  if (s >= 3600)
    std::snprintf(buffer, sizeof(buffer), "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else if (s >= 60)
    std::snprintf(buffer, sizeof(buffer), "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(buffer, sizeof(buffer), "%lds", s);
  return buffer;
}

RunFolderLock::RunFolderLock(const std::string& dir, const std::string& what) {
  const std::string file = dir + "/.lock";
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);  // the file rule
  if (fd_ < 0) throw Error("cannot open the run folder lock '" + file + "' (" + std::strerror(errno) + ")");
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    throw Error(error == EWOULDBLOCK
                    ? what + " '" + dir + "' is in use by another rocketgym train or arena (it holds " +
                          file + ")"
                    : "cannot lock the " + what + " '" + dir + "' (" + std::strerror(error) + ")");
  }
}

RunFolderLock::~RunFolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

void save_due_snapshots(MinuteSnapshots& snapshots, const std::string& run_dir, double elapsed_seconds,
                        const CheckpointMeta& meta, PolicyValueNet& net) {
  for (std::string name = snapshots.next_due(elapsed_seconds); !name.empty();
       name = snapshots.next_due(elapsed_seconds))
    save_checkpoint(run_dir + "/" + name, meta, net, nullptr);
}

namespace {

std::string trainer_name(const std::string& algorithm) {
  return algorithm == "alphazero" ? "the search-based trainer (algorithm: alphazero)" : "the PPO trainer";
}

std::string run_name(const std::string& algorithm) {
  return algorithm == "alphazero" ? "a search-based run (algorithm: alphazero)"
                                  : "a PPO run (algorithm: ppo)";
}

// The model keys on which two networks differ (channels only for conv trunks).
std::vector<ConfigDifference> network_differences(const NetSpec& saved, const NetSpec& wanted) {
  std::vector<ConfigDifference> out;
  auto compare = [&](const char* key, const std::string& a, const std::string& b) {
    if (a != b) out.push_back({std::string("model.") + key, a, b});
  };
  compare("kind", saved.resolved_kind(), wanted.resolved_kind());
  compare("hidden", std::to_string(saved.config.hidden), std::to_string(wanted.config.hidden));
  compare("blocks", std::to_string(saved.config.blocks), std::to_string(wanted.config.blocks));
  if (saved.resolved_kind() == "conv" && wanted.resolved_kind() == "conv")
    compare("channels", std::to_string(saved.config.channels), std::to_string(wanted.config.channels));
  return out;
}

}  // namespace

void check_resumable(const LoadedCheckpoint& checkpoint, const std::string& path, const RunIdentity& run) {
  const CheckpointMeta& meta = checkpoint.meta;
  const std::string restart = " Start a new run in another run.dir, or";
  if (checkpoint.optimizer_state.empty())
    throw CheckpointError(
        quote(path) +
        " is a weights-only checkpoint (written by rocketgym export, or a minute snapshot): it has no "
        "optimizer state, counters or opponent pool, so a run cannot resume from it. Put the run's own "
        "latest.ckpt back, or train in another run.dir; the file itself plays as an arena agent "
        "(--agent checkpoint:" +
        path + " or search:" + path + ")");
  // What every version of both trainers wrote (the harness's bookkeeping);
  // each trainer's resume requires its own keys.
  meta.require_extra({"seed", "elapsed_seconds", "eval_vs_random", "eval_vs_heuristic"});
  // PPO checkpoints written before extra.algorithm existed have none.
  const std::string algorithm = meta.extra_text("algorithm", "ppo");
  if (algorithm != run.algorithm)
    throw CheckpointError(quote(path) + " belongs to " + run_name(algorithm) + ", so " +
                          trainer_name(run.algorithm) + " cannot resume it." + restart +
                          " resume it with its own config (config.yaml next to checkpoints/)");
  const std::vector<ConfigDifference> net = network_differences(meta.net_spec(), run.net);
  if (!net.empty())
    throw CheckpointError(quote(path) + " holds another network than the config describes: " +
                          describe_differences(net, "the checkpoint", "the config") +
                          ". A resumed run keeps its network." + restart +
                          " set the model block back to the checkpoint's");
  // The seed the run began with (every checkpoint records it): a resumed run
  // keeps it, or nothing would record the seed that reproduces the run.
  if (const uint64_t seed = recorded_seed(meta); seed != run.seed)
    throw CheckpointError(quote(path) + " belongs to a run started with run.seed " + std::to_string(seed) +
                          ", and the config gives " + std::to_string(run.seed) +
                          ". A resumed run keeps its seed (with another, nothing would record the seed "
                          "that reproduces the run)." +
                          restart + " set run.seed back to " + std::to_string(seed));
  const std::string saved_rules = meta.extra_text("game_config", "");
  if (saved_rules.empty()) return;  // written before the rules were recorded
  std::vector<ConfigDifference> rules;
  try {
    rules = config_differences(load_yaml_document(saved_rules, "extra.game_config"),
                               load_yaml_document(run.game_config, "the game config"));
  } catch (const std::exception& e) {  // ConfigError from load_yaml_document, or YAML::Exception
    throw CheckpointError(quote(path) + ": extra.game_config is not readable YAML (" + e.what() + ")");
  }
  if (!rules.empty())
    throw CheckpointError(quote(path) + " was trained under other game rules than the config gives: " +
                          describe_differences(rules, "the checkpoint", "the config") +
                          " (game.overrides or the game's config file changed). Resuming would train on "
                          "other rules and overwrite config.yaml." +
                          restart + " set the game's config back to the checkpoint's");
}

NetSpec net_spec_for(const AnyGame& game, const std::vector<int>& player_counts, const NetConfig& net) {
  NetSpec spec;
  spec.config = net;
  spec.observation_shape = observation_shape_for(game, player_counts);
  spec.num_actions = game.info().num_actions;
  spec.num_players = game.info().max_players;
  return spec;
}

PolicyValueNet fresh_network(const NetSpec& spec, uint64_t run_seed) {
  torch::manual_seed(derive_seed(run_seed ^ 0x1E7ULL, 0));
  return PolicyValueNet(spec);
}

void copy_weights(PolicyValueNet& to, const PolicyValueNet& from, const std::string& what) {
  torch::NoGradGuard no_grad;
  auto copy = [&](const std::vector<torch::Tensor>& target, const std::vector<torch::Tensor>& source) {
    bool same = target.size() == source.size();
    for (std::size_t i = 0; same && i < target.size(); ++i)
      same = target[i].sizes().equals(source[i].sizes());
    if (!same) throw CheckpointError(what + ": its network is not the one this run trains (model block)");
    for (std::size_t i = 0; i < target.size(); ++i) target[i].copy_(source[i]);  // bumps each version
  };
  copy(to->parameters(), from->parameters());
  copy(to->buffers(), from->buffers());
}

void make_output_folder(const std::string& dir, const std::string& what) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (!std::filesystem::is_directory(dir))
    throw Error(what + " '" + dir + "' cannot be created" +
                (error ? ": " + error.message() : std::string(": it is not a folder")));
}

}  // namespace rocketgym
