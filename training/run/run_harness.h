// RunHarness<G>: the life of a training run, the same for PPO
// (training/ppo/trainer.h) and search-based self-play
// (training/alphazero/trainer.h). A trainer is a run::Algorithm: it says how
// it collects and how it updates; the harness does the rest, in this order:
//
//   1. every rank checks that the ranks agree on the resolved config; rank 0
//      creates the run folder (run.dir) and locks it (.lock);
//   2. start or resume: checkpoints/latest.ckpt (rank 0's file, sent to the
//      other ranks) brings back the network, the optimizer, the counters and
//      what the trainer keeps (Algorithm::resume), after check_resumable has
//      refused a folder that another trainer, network or rule set wrote;
//      without it a fresh network (seeded from run.seed) starts;
//   3. rank 0 writes config.yaml and opens metrics.csv (a resume first drops
//      the rows after its checkpoint); each rank takes its share of the job;
//   4. the imitation warm start of a fresh run (Algorithm::begin);
//   5. iterations until the budget (budget.steps, budget.minutes, Ctrl-C) is
//      spent on any rank (the ranks stop together): collect and update,
//      greedy evaluation vs random and heuristic every run.eval_every
//      iterations, one metrics.csv row, checkpoints/latest.ckpt every
//      run.checkpoint_every iterations, checkpoints/minute_<m>.ckpt
//      (run.snapshot_minutes), the progress line;
//   6. a last checkpoint and snapshot, learning_curve.png (run.plot).
//
// Times: the minutes budget, the minute snapshots and the elapsed_s of
// metrics.csv and of checkpoints count the warm start and earlier sessions;
// the samples-per-second rate counts this session's iterations only.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "envs/core/describe.h"
#include "envs/core/files.h"
#include "envs/core/json.h"
#include "envs/core/quoted.h"
#include "envs/core/yaml_document.h"
#include "models/checkpoint.h"
#include "models/warm_start.h"
#include "training/arena/evaluate.h"
#include "training/config_yaml.h"
#include "training/csv_writer.h"
#include "training/distributed/distributed.h"
#include "training/distributed/same_config.h"
#include "training/progress_line.h"
#include "training/run_support.h"

namespace rocketgym::run {

// One finished iteration, as the harness hands it to the trainer's metrics
// row and progress line.
struct IterationReport {
  int64_t iteration = 0, steps = 0;
  double elapsed_seconds = 0.0;  // of the run: earlier sessions and the warm start included
  double session_seconds = 0.0;  // since this session's first iteration began
  double rate = 0.0;             // steps per second over this session's iterations
  double eta_seconds = 0.0;      // until budget.steps or budget.minutes
  bool evaluated = false;        // the greedy evaluation ran in this iteration
};

// "42%" for a win rate, "-" when there is none yet (negative).
inline std::string percent(double rate) {
  return rate < 0 ? std::string("-") : std::to_string(static_cast<int>(100 * rate + 0.5)) + "%";
}

// What a trainer supplies: everything the two trainers do differently.
class Algorithm {
 public:
  virtual ~Algorithm() = default;

  // The resolved config (config.yaml's text), as it stands when called.
  virtual std::string resolved_config() const = 0;
  // The optimizer of the harness's network (after start or resume).
  virtual void make_optimizer() = 0;
  virtual torch::optim::Optimizer& optimizer() = 0;
  // Restores what the trainer keeps in latest.ckpt's extra fields.
  virtual void resume(const CheckpointMeta& saved, bool verbose) = 0;
  // Rank 0, once started: removes what a killed run of this trainer left.
  virtual void clean_run_folder(bool /*verbose*/) {}
  // From here on the config holds this rank's share of the job's totals.
  virtual void take_rank_share(bool verbose) = 0;
  // Sets up collection; `warm_start`: a fresh run (imitation, if configured).
  virtual void begin(bool warm_start, bool verbose) = 0;
  // Collects and updates once: the steps learned from (summed over the
  // ranks), or nothing when interrupted before an update.
  virtual std::optional<int64_t> iterate() = 0;
  // After the harness counted the iteration (every rank).
  virtual void end_iteration() {}
  // latest.ckpt's extra fields besides those of the harness.
  virtual Json checkpoint_extra() const = 0;
  // Rank 0, after latest.ckpt was saved with `saved`.
  virtual void after_save(const CheckpointMeta& /*saved*/) {}
  virtual std::string metrics_header() const = 0;
  // Every rank (some rows need collectives); `out`: rank 0's metrics row.
  virtual void write_metrics_row(CsvWriter* out, const IterationReport& report) = 0;
  virtual std::string progress_text(const IterationReport& report) const = 0;
  // Adds what only this trainer reports.
  virtual void finish(TrainSummary& /*summary*/) const {}
};

// The run's settings the harness reads besides RunSettings.
struct Budget {
  int64_t total_steps = 0;
  double minutes = 0.0;  // 0: no time limit
};

template <class G>
class RunHarness {
 public:
  // `algorithm`: "ppo" | "alphazero" (latest.ckpt's extra.algorithm).
  // `settings` and `net` are the trainer's config (its run: and model:
  // blocks), kept by reference: a resume writes the checkpoint's network
  // into `net`, start writes the number of ranks into `settings`.
  // `game_config`: the game's rules as this run reads them
  // (GameSetup::resolved_config_text).
  RunHarness(const char* algorithm, RunSettings& settings, NetConfig& net, Budget budget,
             std::string game_config, std::shared_ptr<AnyGame> game, std::vector<int> player_counts,
             dist::Context context)
      : algorithm_(algorithm),
        settings_(settings),
        net_config_(net),
        budget_(budget),
        game_(std::move(game)),
        ctx_(std::move(context)),
        device_(parse_device(settings.device)),
        players_(std::move(player_counts)),
        spec_(net_spec_for(*game_, players_, net_config_)),
        layout_(layout_of(players_.front())),
        snapshots_(settings_.snapshot_minutes, 0.0),  // a resume skips those passed
        game_config_(std::move(game_config)) {}

  TrainSummary run(Algorithm& algo, bool verbose) {
    set_torch_threads(settings_.threads);
    dist::require_same_config(ctx_, load_yaml_document(algo.resolved_config(), "the resolved config"),
                              RunSettings::rank_local_keys());
    // Rank 0 alone owns the run folder (its lock, its files); a second
    // training there (of either trainer) is refused instead of overwriting it.
    std::optional<RunFolderLock> lock;
    if (ctx_.is_root()) {
      make_output_folder(settings_.run_dir, "run.dir (--run-dir)");
      make_output_folder(settings_.run_dir + "/checkpoints", "run.dir's checkpoints folder");
      lock.emplace(settings_.run_dir);
    }
    TrainSummary summary;
    summary.resumed = start_or_resume(algo, verbose);
    settings_.ranks = ctx_.size();
    std::ofstream metrics;
    if (ctx_.is_root()) {
      algo.clean_run_folder(verbose);
      write_run_file("config.yaml", algo.resolved_config());
      metrics = open_metrics(algo.metrics_header());
    }
    seed_ = dist::rank_seed(settings_.seed, ctx_.rank());
    algo.take_rank_share(verbose);

    // The minutes budget covers the imitation warm start too (not run after
    // a run.warm_start: that network has learned more than imitation gives).
    const auto budget_started = std::chrono::steady_clock::now();
    algo.begin(!summary.resumed && settings_.warm_start.empty(), verbose);
    const auto started = std::chrono::steady_clock::now();
    auto seconds_since = [](std::chrono::steady_clock::time_point t) {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };
    const double seconds_before = elapsed_before_;
    const int64_t steps_at_start = steps_;
    auto out_of_budget = [&] {
      return steps_ >= budget_.total_steps ||
             (budget_.minutes > 0 && seconds_since(budget_started) >= budget_.minutes * 60.0) ||
             stop_requested.load();
    };
    ProgressLine progress(verbose && ctx_.is_root() ? ProgressLine::mode_for(stderr)
                                                    : ProgressLine::Mode::kQuiet);

    // The ranks stop together: when any of them is out of time or interrupted.
    while (!ctx_.any(out_of_budget(), "agreeing whether to stop")) {
      const std::optional<int64_t> samples = algo.iterate();
      if (!samples) break;
      steps_ += *samples;
      ++iteration_;
      algo.end_iteration();
      IterationReport report;
      report.iteration = iteration_;
      report.steps = steps_;
      report.evaluated = settings_.eval_every > 0 && iteration_ % settings_.eval_every == 0;
      if (report.evaluated) evaluate();
      const double budget_seconds = seconds_since(budget_started);
      report.elapsed_seconds = seconds_before + budget_seconds;
      report.session_seconds = seconds_since(started);
      report.rate = (steps_ - steps_at_start) / std::max(report.session_seconds, 1e-9);
      report.eta_seconds = (budget_.total_steps - steps_) / std::max(report.rate, 1e-9);
      if (budget_.minutes > 0)
        report.eta_seconds = std::min(report.eta_seconds, budget_.minutes * 60.0 - budget_seconds);
      CsvWriter row;
      algo.write_metrics_row(ctx_.is_root() ? &row : nullptr, report);
      if (metrics.is_open()) metrics << row.str() << std::flush;
      if (iteration_ % settings_.checkpoint_every == 0) save(algo, report.elapsed_seconds);
      save_minute_snapshots(algo, report.elapsed_seconds);
      progress.show(algo.progress_text(report) + " | ETA " + format_duration(report.eta_seconds));
    }
    progress.finish();
    const double seconds = seconds_since(started);
    const double elapsed = seconds_before + seconds_since(budget_started);
    save(algo, elapsed);
    save_minute_snapshots(algo, elapsed);
    metrics.close();
    if (settings_.plot && ctx_.is_root())
      run_plot_script("curve", in_run_dir("metrics.csv"), in_run_dir("learning_curve.png"));

    summary.steps = steps_;
    summary.updates = iteration_;
    summary.seconds = seconds;
    summary.samples_per_second = (steps_ - steps_at_start) / std::max(seconds, 1e-9);
    summary.eval_vs_random = eval_random_;
    summary.eval_vs_heuristic = eval_heuristic_;
    summary.checkpoint = latest_path();
    algo.finish(summary);
    return summary;
  }

  // --- what the trainers read ------------------------------------------------
  const dist::Context& ctx() const { return ctx_; }
  const torch::Device& device() const { return device_; }
  const std::shared_ptr<AnyGame>& game() const { return game_; }
  const NetSpec& spec() const { return spec_; }
  PolicyValueNet& net() { return net_; }
  // The table sizes the run plays (game.players), ascending.
  const std::vector<int>& player_counts() const { return players_; }
  int num_actions() const { return G::info().num_actions; }
  int obs_size() const { return spec_.observation_size(); }
  uint64_t rank_seed() const { return seed_; }  // of this rank's streams (dist::rank_seed)
  int64_t steps() const { return steps_; }
  int64_t iteration() const { return iteration_; }  // PPO updates, search-based iterations
  int64_t last_eval_iteration() const { return last_eval_iteration_; }
  double eval_vs_random() const { return eval_random_; }
  double eval_vs_heuristic() const { return eval_heuristic_; }
  std::string latest_path() const { return in_run_dir("checkpoints/latest.ckpt"); }
  std::string in_run_dir(const std::string& relative) const { return settings_.run_dir + "/" + relative; }

  // The checkpoint metadata of the network now (`extra`: the trainer's fields).
  CheckpointMeta meta(double elapsed_seconds, const Json& extra) const {
    CheckpointMeta m;
    m.game = G::info().id;
    m.game_version = G::info().version;
    m.num_players = spec_.num_players;  // the value head's outputs
    m.players = players_;
    m.observation_shape = spec_.observation_shape;
    m.layout = layout_;
    m.num_actions = num_actions();
    m.net = spec_.config;
    m.step = steps_;
    m.iteration = iteration_;
    m.extra = Json{{"algorithm", algorithm_}};
    m.extra.update(extra);
    m.extra.update(Json{{"elapsed_seconds", elapsed_seconds},
                        {"eval_vs_random", eval_random_},
                        {"eval_vs_heuristic", eval_heuristic_},
                        {"seed", settings_.seed},
                        {"game_config", game_config_}});
    return m;
  }

  // A checkpoint this run reads (rank 0's file, sent to the other ranks: a
  // collective), checked like latest.ckpt (game, every table size of the
  // run, shapes); nothing when rank 0 has no such file.
  std::optional<LoadedCheckpoint> load_run_file(const std::string& path) const {
    const std::optional<std::string> local = ctx_.file_from_root(path);
    if (!local) return std::nullopt;
    LoadedCheckpoint ckpt = load_checkpoint(*local, device_);
    for (int players : players_)
      check_checkpoint_matches(ckpt.meta, path, G::info().id, players, spec_.observation_shape,
                               num_actions());
    return ckpt;
  }

 private:
  bool start_or_resume(Algorithm& algo, bool verbose) {
    const std::string path = latest_path();
    std::optional<LoadedCheckpoint> ckpt = load_run_file(path);
    if (!ckpt) {
      net_ = fresh_network(spec_, settings_.seed);  // rank 0's seed, sent to the others
      if (!settings_.warm_start.empty() && ctx_.is_root()) warm_start(verbose);  // sent to the others too
      net_->to(device_);
      dist::broadcast_parameters(ctx_, net_->parameters());
      algo.make_optimizer();
      return false;
    }
    check_resumable(*ckpt, path, {algorithm_, spec_, game_config_, settings_.seed});
    net_ = ckpt->net;
    spec_ = ckpt->meta.net_spec();  // the same network as the config's model block ("auto" resolved)
    net_config_ = spec_.config;
    algo.make_optimizer();
    load_optimizer_state(*ckpt, algo.optimizer());
    const CheckpointMeta& saved = ckpt->meta;
    steps_ = saved.step;
    iteration_ = saved.iteration;
    elapsed_before_ = saved.extra_number("elapsed_seconds", 0.0, 0.0, 1e12);
    snapshots_ = MinuteSnapshots(settings_.snapshot_minutes, elapsed_before_);
    eval_random_ = saved.extra_number("eval_vs_random", -1.0, -1.0, 1.0);  // -1: not evaluated yet
    eval_heuristic_ = saved.extra_number("eval_vs_heuristic", -1.0, -1.0, 1.0);
    algo.resume(saved, verbose);  // checks the trainer's keys first: a refused resume changes no file
    if (ctx_.is_root()) truncate_metrics(in_run_dir("metrics.csv"), iteration_);
    return true;
  }

  // The observation's blocks at this table size (envs/core/describe.h).
  static std::vector<LayoutBlock> layout_of(int players) {
    std::vector<LayoutBlock> out;
    for (const FeatureBlock& b : observation_layout(G::info().id, players))
      out.push_back({b.name, b.offset, b.size});
    return out;
  }

  // run.warm_start: the fresh network takes what carries over from an older
  // checkpoint of this game (models/warm_start.h).
  void warm_start(bool verbose) {
    const std::string& path = settings_.warm_start;
    LoadedCheckpoint old = load_checkpoint(path);
    if (old.meta.game != G::info().id)
      throw CheckpointError("run.warm_start: " + quote(path) + " was trained for game " +
                            quote(old.meta.game) + ", not '" + G::info().id + "'");
    std::vector<LayoutBlock> old_layout = old.meta.layout;
    const std::string& layout_file = settings_.warm_start_layout;
    if (!layout_file.empty()) {
      std::string text;
      try {  // the file rule (envs/core/files.h)
        text = files::read_input_file(layout_file, files::kMaxLayoutBytes, "layout file");
      } catch (const files::FileError& e) {
        throw ConfigError(std::string("run.warm_start_layout: ") + e.what());
      }
      Json doc;
      try {
        doc = parse_json(text);
      } catch (const SerializationError& e) {
        throw ConfigError("run.warm_start_layout: '" + layout_file + "' is not a layout (" + e.what() + ")");
      }
      old_layout = layout_from_describe_json(doc, old.meta.served_players().front(), layout_file);
    } else if (old_layout.empty()) {
      if (old.meta.observation_shape != spec_.observation_shape)
        throw ConfigError(
            "run.warm_start: " + quote(path) + " records no observation layout and its observation (" +
            std::to_string(old.meta.net_spec().observation_size()) + " numbers) is not the game's now (" +
            std::to_string(spec_.observation_size()) +
            "): set run.warm_start_layout to the layout it was trained with (`rocketgym describe " +
            G::info().id + "` JSON of that version)");
      old_layout = layout_;  // the same size: taken to be the same encoding
    }
    WarmStartReport report;
    net_ = warm_start_network(old.net, old_layout, spec_, layout_, path, &report);
    if (verbose) std::fprintf(stderr, "warm start from %s: %s\n", path.c_str(), report.summary().c_str());
  }

  // The run folder's files follow the file rule (envs/core/files.h): never
  // written through a symbolic link or over a FIFO or a device.
  void write_run_file(const std::string& name, const std::string& text) const {
    try {
      files::write_file_atomically(in_run_dir(name), text, "run file");
    } catch (const files::FileError& e) {
      throw Error(e.what());
    }
  }

  std::ofstream open_metrics(const std::string& header) const {
    const std::string file = in_run_dir("metrics.csv");
    try {
      files::check_output_path(file, "metrics file");
    } catch (const files::FileError& e) {
      throw Error(e.what());
    }
    const bool fresh = !std::filesystem::exists(file) || std::filesystem::file_size(file) == 0;
    std::ofstream out(file, std::ios::app);
    if (fresh) out << header << "\n";
    return out;
  }

  // Greedy play against random and heuristic opponents over the same seeds
  // in every seat (the arena's schedule, its games split over the ranks).
  // With mixed tables: run.eval_games at each table size, and the mean of
  // the win rates.
  void evaluate() {
    torch::NoGradGuard no_grad;
    const auto config = typed_config<G>(*game_);
    const uint64_t seed = derive_seed(settings_.seed ^ 0xE7A1ULL, 0);
    auto win_rate = [&](const players::PlayerSpec& opponent) {
      double sum = 0.0;
      for (int players : players_)
        sum += arena::evaluate_network<G>(net_, config, players, opponent, settings_.eval_games, seed,
                                          settings_.threads, device_, ctx_);
      return sum / static_cast<double>(players_.size());
    };
    eval_random_ = win_rate(players::default_player<players::Random>());
    eval_heuristic_ = win_rate(players::default_player<players::Heuristic>());
    last_eval_iteration_ = iteration_;
  }

  void save(Algorithm& algo, double elapsed_seconds) {
    if (!ctx_.is_root()) return;
    const CheckpointMeta saved = meta(elapsed_seconds, algo.checkpoint_extra());
    save_checkpoint(latest_path(), saved, net_, &algo.optimizer());
    algo.after_save(saved);
  }

  // Weights-only copies after the configured minutes of training (the
  // strength-against-compute curve is measured on these).
  void save_minute_snapshots(Algorithm& algo, double elapsed_seconds) {
    if (ctx_.is_root())
      save_due_snapshots(snapshots_, settings_.run_dir, elapsed_seconds,
                         meta(elapsed_seconds, algo.checkpoint_extra()), net_);
  }

  std::string algorithm_;
  RunSettings& settings_;
  NetConfig& net_config_;
  Budget budget_;
  std::shared_ptr<AnyGame> game_;
  dist::Context ctx_;
  torch::Device device_;
  std::vector<int> players_;  // the table sizes played
  NetSpec spec_;
  std::vector<LayoutBlock> layout_;  // the observation's blocks, recorded in every checkpoint
  PolicyValueNet net_{nullptr};
  MinuteSnapshots snapshots_;
  std::string game_config_;
  uint64_t seed_ = 0;
  int64_t steps_ = 0, iteration_ = 0, last_eval_iteration_ = 0;
  double elapsed_before_ = 0.0, eval_random_ = -1.0, eval_heuristic_ = -1.0;
};

}  // namespace rocketgym::run
