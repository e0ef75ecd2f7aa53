// AzTrainer<G>: search-based self-play (AlphaZero-style) for one game type.
//
// One network plays every seat through SelfPlay<G> (Gumbel ISMCTS with the
// network as evaluator); its positions go to a replay buffer with the search's
// improved policy and, at the game's end, the outcome for every seat. Each
// iteration plays selfplay.samples_per_iteration new positions, then takes
// enough gradient steps on uniform minibatches from the buffer that each new
// position is trained on train.replay_ratio times on average.
//
// Run folder (run.dir): config.yaml (resolved), metrics.csv (one row per
// iteration), checkpoints/latest.ckpt (weights, optimizer, counters),
// checkpoints/minute_<m>.ckpt (run.snapshot_minutes), learning_curve.png.
// Starting a run whose folder has checkpoints/latest.ckpt resumes it; the
// replay buffer is not kept (see replay_buffer.h), self-play streams are
// re-seeded from (seed, iteration), and metrics rows after the checkpoint are
// dropped.
//
// Distributed (several ranks, training/distributed): each rank plays its own
// share of the self-play games with its own seed streams (dist::rank_seed)
// into its own replay buffer (its share of the capacity); every training step
// draws the rank's share of the batch from its own buffer and the gradients
// are all-reduced, so every rank keeps the same weights and optimizer state.
// Counters are summed over the ranks, the evaluation's games are split among
// them, the decision to stop is taken together, and rank 0 alone writes the
// run folder and holds its lock, as PPO does. A resumed run reads rank 0's
// checkpoint (sent to the other ranks), whatever the number of ranks before.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <vector>

#include "envs/core/vector_env.h"
#include "models/checkpoint.h"
#include "training/alphazero/az_config.h"
#include "training/alphazero/az_update.h"
#include "training/alphazero/replay_buffer.h"
#include "training/alphazero/self_play.h"
#include "training/arena/evaluate.h"
#include "training/distributed/distributed.h"
#include "training/distributed/same_config.h"
#include "training/policy_runner.h"
#include "training/run_support.h"

namespace rocketgym::alphazero {

template <class G>
class AzTrainer {
 public:
  using State = typename G::State;

  AzTrainer(const AzConfig& config, std::shared_ptr<AnyGame> game, dist::Context context = {})
      : cfg_(config),
        game_(std::move(game)),
        ctx_(std::move(context)),
        device_(parse_device(config.device)),
        players_(config.game.players),
        num_actions_(G::info().num_actions) {
    spec_ = net_spec_for(*game_, players_, cfg_.net);
    obs_size_ = spec_.observation_size();
    game_config_ = cfg_.game.resolved_config_text();
    snapshots_ = MinuteSnapshots(cfg_.snapshot_minutes, 0.0);  // a resume skips those passed
  }

  TrainSummary run(bool verbose) {
    set_torch_threads(cfg_.threads);
    dist::require_same_config(ctx_, YAML::Load(cfg_.to_yaml()), RunSettings::rank_local_keys());
    // Rank 0 alone owns the run folder; a second training there (of either
    // algorithm) is refused instead of overwriting this one's files.
    std::optional<RunFolderLock> lock;
    if (ctx_.is_root()) {
      std::filesystem::create_directories(cfg_.run_dir + "/checkpoints");
      lock.emplace(cfg_.run_dir);
    }
    TrainSummary summary;
    summary.resumed = start_or_resume(verbose);
    cfg_.ranks = ctx_.size();
    if (ctx_.is_root()) {
      std::ofstream(cfg_.run_dir + "/config.yaml") << cfg_.to_yaml();
      open_metrics();
    }
    take_rank_share(verbose);
    const auto started = std::chrono::steady_clock::now();
    auto elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    auto out_of_budget = [&] {
      return steps_ >= cfg_.total_steps || (cfg_.minutes > 0 && elapsed() >= cfg_.minutes * 60.0) ||
             stop_requested.load();
    };

    ReplayBuffer buffer(cfg_.capacity, obs_size_, num_actions_, players_);
    train_rng_.reseed(derive_seed(seed_ ^ 0x7A1EULL, static_cast<uint64_t>(iterations_)));
    torch::manual_seed(derive_seed(cfg_.seed, static_cast<uint64_t>(iterations_) + 1));
    if (!summary.resumed && cfg_.imitation_steps > 0) imitate(buffer, verbose);

    PolicyRunner runner(net_, device_, cfg_.games);
    SelfPlay<G> self_play(typed_config<G>(*game_), players_, cfg_, runner,
                          derive_seed(seed_ ^ 0x5E1FULL, static_cast<uint64_t>(iterations_)));
    const double seconds_before = elapsed_before_;
    const int64_t steps_at_start = steps_;
    // The ranks stop together: when any of them is out of time or interrupted.
    while (!ctx_.any(out_of_budget(), "agreeing whether to stop")) {
      SelfPlayStats play = self_play.play(cfg_.samples_per_iteration, buffer);
      sum_over_ranks(play);
      steps_ += play.positions;
      games_ += play.games;
      AzUpdateStats update;
      // Every rank trains from its own buffer: all of them must be ready.
      if (!ctx_.any(buffer.ready_count() < std::max(1, cfg_.min_samples), "agreeing whether to train")) {
        AzUpdateSettings settings{train_steps_, total_batch_, cfg_.value_coef, cfg_.max_grad_norm};
        update = az_update(net_, *optimizer_, buffer, settings, train_rng_, device_, drawn_, ctx_);
      }
      ++iterations_;
      const bool evaluate = cfg_.eval_every > 0 && iterations_ % cfg_.eval_every == 0;
      if (evaluate) run_evaluation();
      const double seconds = elapsed();
      std::vector<double> ready{static_cast<double>(buffer.ready_count())};
      ctx_.all_reduce_sum(ready, "summing the ranks' replay buffers");
      write_metrics_row(play, update, static_cast<int64_t>(ready[0] + 0.5), seconds_before + seconds,
                        evaluate);
      if (iterations_ % cfg_.checkpoint_every == 0) save(seconds_before + seconds);
      save_minute_snapshots(seconds_before + seconds);
      if (verbose && ctx_.is_root())
        print_progress(play, update, seconds, (steps_ - steps_at_start) / std::max(seconds, 1e-9));
    }
    const double seconds = elapsed();
    save(seconds_before + seconds);
    save_minute_snapshots(seconds_before + seconds);
    metrics_.close();
    if (cfg_.plot && ctx_.is_root())
      run_plot_script("curve", cfg_.run_dir + "/metrics.csv", cfg_.run_dir + "/learning_curve.png");

    summary.steps = steps_;
    summary.updates = iterations_;
    summary.episodes = games_;
    summary.seconds = seconds;
    summary.samples_per_second = (steps_ - steps_at_start) / std::max(seconds, 1e-9);
    summary.eval_vs_random = eval_random_;
    summary.eval_vs_heuristic = eval_heuristic_;
    summary.checkpoint = latest_path();
    return summary;
  }

 private:
  std::string latest_path() const { return cfg_.run_dir + "/checkpoints/latest.ckpt"; }

  // --- start, resume, save ------------------------------------------------

  bool start_or_resume(bool verbose) {
    const std::string path = latest_path();
    const std::optional<std::string> local = ctx_.file_from_root(path);  // rank 0's, on every rank
    if (!local) {
      net_ = fresh_network(spec_, cfg_.seed);  // rank 0's seed, sent to the others
      net_->to(device_);
      net_->eval();
      dist::broadcast_parameters(ctx_, net_->parameters());
      make_optimizer();
      return false;
    }
    LoadedCheckpoint ckpt = load_checkpoint(*local, device_);
    check_checkpoint_matches(ckpt.meta, path, G::info().id, players_, spec_.observation_shape, num_actions_);
    check_resumable(ckpt, path, {"alphazero", spec_, game_config_});
    net_ = ckpt.net;
    net_->eval();
    spec_ = ckpt.meta.net_spec();  // the same network as the config's model block ("auto" resolved)
    cfg_.net = spec_.config;
    make_optimizer();
    load_optimizer_state(ckpt, *optimizer_);
    steps_ = ckpt.meta.step;
    iterations_ = ckpt.meta.iteration;
    const CheckpointMeta& saved = ckpt.meta;
    games_ = saved.extra_count("games", 0);
    elapsed_before_ = saved.extra_number("elapsed_seconds", 0.0, 0.0, 1e12);
    eval_random_ = saved.extra_number("eval_vs_random", -1.0, -1.0, 1.0);  // -1: not evaluated yet
    eval_heuristic_ = saved.extra_number("eval_vs_heuristic", -1.0, -1.0, 1.0);
    if (ctx_.is_root()) truncate_metrics(cfg_.run_dir + "/metrics.csv", iterations_);
    snapshots_ = MinuteSnapshots(cfg_.snapshot_minutes, elapsed_before_);
    if (verbose && ctx_.is_root())
      std::fprintf(stderr,
                   "resuming %s at iteration %lld, %lld positions (the replay buffer refills first)\n",
                   path.c_str(), static_cast<long long>(iterations_), static_cast<long long>(steps_));
    return true;
  }

  void make_optimizer() {
    optimizer_ = std::make_unique<torch::optim::AdamW>(
        net_->parameters(), torch::optim::AdamWOptions(cfg_.learning_rate).weight_decay(cfg_.weight_decay));
  }

  CheckpointMeta meta(double elapsed_seconds) const {
    CheckpointMeta m;
    m.game = G::info().id;
    m.game_version = G::info().version;
    m.num_players = players_;
    m.observation_shape = spec_.observation_shape;
    m.num_actions = num_actions_;
    m.net = spec_.config;
    m.step = steps_;
    m.iteration = iterations_;
    m.extra = Json{{"algorithm", "alphazero"},
                   {"games", games_},
                   {"elapsed_seconds", elapsed_seconds},
                   {"eval_vs_random", eval_random_},
                   {"eval_vs_heuristic", eval_heuristic_},
                   {"seed", cfg_.seed},
                   {"game_config", game_config_}};
    return m;
  }

  void save(double elapsed_seconds) {
    if (ctx_.is_root()) save_checkpoint(latest_path(), meta(elapsed_seconds), net_, optimizer_.get());
  }

  // From here on cfg_'s self-play, replay and imitation sizes are this rank's
  // shares of the job's totals (config.yaml keeps the totals; the gradient
  // steps per iteration and the batch stay the job's), and seed_ seeds its
  // own streams.
  void take_rank_share(bool verbose) {
    const int rank = ctx_.rank(), ranks = ctx_.size();
    train_steps_ = cfg_.train_steps_per_iteration();
    total_batch_ = cfg_.batch;
    seed_ = dist::rank_seed(cfg_.seed, rank);
    if (ranks == 1) return;
    if (cfg_.games < ranks || cfg_.samples_per_iteration < ranks || cfg_.capacity < ranks)
      throw ConfigError(
          "selfplay.games, selfplay.samples_per_iteration and replay.capacity are split over the " +
          std::to_string(ranks) + " ranks: each must be at least the number of ranks");
    auto mine = [&](int64_t total) { return dist::share(total, rank, ranks); };
    if (verbose && rank == 0)
      std::fprintf(stderr, "ranks: %d (%lld games in flight and %lld positions per iteration on rank 0)\n",
                   ranks, static_cast<long long>(dist::share(cfg_.games, 0, ranks)),
                   static_cast<long long>(dist::share(cfg_.samples_per_iteration, 0, ranks)));
    cfg_.games = static_cast<int>(mine(cfg_.games));
    cfg_.samples_per_iteration = static_cast<int>(mine(cfg_.samples_per_iteration));
    cfg_.capacity = static_cast<int>(mine(cfg_.capacity));
    cfg_.min_samples = static_cast<int>(mine(cfg_.min_samples));
    cfg_.imitation_steps = mine(cfg_.imitation_steps);
  }

  // The iteration's self-play counts of every rank (its rates: this rank's
  // time, the job's positions).
  void sum_over_ranks(SelfPlayStats& play) const {
    if (ctx_.single()) return;
    std::vector<double> counts{static_cast<double>(play.positions), static_cast<double>(play.decisions),
                               static_cast<double>(play.games), static_cast<double>(play.simulations),
                               static_cast<double>(play.leaves)};
    ctx_.all_reduce_sum(counts, "summing the ranks' self-play counts");
    play.positions = static_cast<int64_t>(counts[0] + 0.5);
    play.decisions = static_cast<int64_t>(counts[1] + 0.5);
    play.games = static_cast<int64_t>(counts[2] + 0.5);
    play.simulations = static_cast<int64_t>(counts[3] + 0.5);
    play.leaves = static_cast<int64_t>(counts[4] + 0.5);
  }

  // Weights-only copies after the configured minutes of training (the
  // strength-against-compute curve is measured on these).
  void save_minute_snapshots(double elapsed_seconds) {
    if (ctx_.is_root())
      save_due_snapshots(snapshots_, cfg_.run_dir, elapsed_seconds, meta(elapsed_seconds), net_);
  }

  // --- imitation warm start -------------------------------------------------

  // Heuristic bots play every seat; their moves become one-hot policy
  // targets and the outcomes value targets, in the replay buffer, and the
  // network trains on them for imitation.epochs passes. The positions stay
  // in the buffer until self-play pushes them out.
  void imitate(ReplayBuffer& buffer, bool verbose) {
    const auto started = std::chrono::steady_clock::now();
    VectorEnv<G> env(typed_config<G>(*game_), cfg_.games, players_, derive_seed(seed_ ^ 0x1A17ULL, 0),
                     cfg_.threads);
    std::vector<Action> actions(static_cast<std::size_t>(cfg_.games));
    std::vector<std::vector<std::pair<ReplayBuffer::Ticket, int>>> pending(
        static_cast<std::size_t>(cfg_.games));
    std::vector<float> relative(static_cast<std::size_t>(players_));
    int64_t recorded = 0;
    auto waiting = [&] {
      for (const auto& p : pending)
        if (!p.empty()) return true;
      return false;
    };
    // Record until enough positions, then play the games under way to their
    // end, so that every recorded position gets its outcome.
    while (recorded < cfg_.imitation_steps || waiting()) {
      env.heuristic_actions(actions.data());
      for (int i = 0; i < cfg_.games && recorded < cfg_.imitation_steps; ++i) {
        const uint8_t* mask = env.action_masks() + static_cast<std::size_t>(i) * num_actions_;
        int legal = 0;
        for (int a = 0; a < num_actions_; ++a) legal += mask[a];
        if (legal < 2) continue;  // a forced move teaches nothing
        const ReplayBuffer::Ticket t = buffer.add();
        std::memcpy(buffer.observation(t.slot), env.observations() + static_cast<std::size_t>(i) * obs_size_,
                    sizeof(float) * obs_size_);
        std::memcpy(buffer.mask(t.slot), mask, static_cast<std::size_t>(num_actions_));
        float* policy = buffer.policy(t.slot);
        std::fill(policy, policy + num_actions_, 0.0f);
        policy[actions[static_cast<std::size_t>(i)]] = 1.0f;
        pending[static_cast<std::size_t>(i)].push_back({t, env.current_players()[i]});
        ++recorded;
      }
      env.step(actions.data());
      for (int i = 0; i < cfg_.games; ++i) {
        if (!env.terminated()[i] && !env.truncated()[i]) continue;
        const float* returns = env.rewards() + static_cast<std::size_t>(i) * players_;
        for (const auto& [ticket, player] : pending[static_cast<std::size_t>(i)]) {
          for (int j = 0; j < players_; ++j)
            relative[static_cast<std::size_t>(j)] = returns[(player + j) % players_];
          buffer.finish(ticket, relative.data());
        }
        pending[static_cast<std::size_t>(i)].clear();
      }
    }
    if (ctx_.any(buffer.ready_count() == 0, "agreeing whether to imitate")) return;
    // Positions over all ranks (each buffer holds its rank's share).
    std::vector<double> kept{static_cast<double>(std::min<int64_t>(recorded, buffer.capacity()))};
    ctx_.all_reduce_sum(kept, "counting the imitation positions");
    const int steps =
        static_cast<int>(cfg_.imitation_epochs * static_cast<int64_t>(kept[0] + 0.5) / total_batch_);
    AzUpdateSettings settings{std::max(1, steps), total_batch_, cfg_.value_coef, cfg_.max_grad_norm};
    const AzUpdateStats stats =
        az_update(net_, *optimizer_, buffer, settings, train_rng_, device_, drawn_, ctx_);
    if (verbose && ctx_.is_root())
      std::fprintf(
          stderr,
          "imitation: %lld heuristic positions, %d steps | cross-entropy %.3f | value loss %.3f | %s\n",
          static_cast<long long>(recorded), stats.steps, stats.policy_loss, stats.value_loss,
          format_duration(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count())
              .c_str());
  }

  // --- evaluation, metrics, progress ----------------------------------------

  void run_evaluation() {
    torch::NoGradGuard no_grad;
    auto config = typed_config<G>(*game_);
    const uint64_t seed = derive_seed(cfg_.seed ^ 0xE7A1ULL, 0);
    eval_random_ = arena::evaluate_network<G>(net_, config, players_, "random", cfg_.eval_games, seed,
                                              cfg_.threads, device_, ctx_);
    eval_heuristic_ = arena::evaluate_network<G>(net_, config, players_, "heuristic", cfg_.eval_games, seed,
                                                 cfg_.threads, device_, ctx_);
    last_eval_iteration_ = iterations_;
  }

  void open_metrics() {
    const std::string file = cfg_.run_dir + "/metrics.csv";
    const bool fresh = !std::filesystem::exists(file) || std::filesystem::file_size(file) == 0;
    metrics_.open(file, std::ios::app);
    if (fresh)
      metrics_ << "update,step,games,elapsed_s,samples_per_s,simulations_per_s,leaves_per_s,network_share,"
                  "policy_loss,value_loss,entropy,replay_ready,eval_win_vs_random,eval_win_vs_heuristic\n";
  }

  void write_metrics_row(const SelfPlayStats& play, const AzUpdateStats& update, int64_t replay_ready,
                         double elapsed_seconds, bool evaluated) {
    if (!metrics_.is_open()) return;  // rank 0 writes
    const double t = std::max(play.seconds, 1e-9);
    metrics_ << iterations_ << "," << steps_ << "," << games_ << "," << elapsed_seconds << ","
             << play.positions / t << "," << play.simulations / t << "," << play.leaves / t << ","
             << play.network_seconds / t << "," << (update.steps ? std::to_string(update.policy_loss) : "")
             << "," << (update.steps ? std::to_string(update.value_loss) : "") << ","
             << (update.steps ? std::to_string(update.policy_entropy) : "") << "," << replay_ready << ","
             << (evaluated ? std::to_string(eval_random_) : "") << ","
             << (evaluated ? std::to_string(eval_heuristic_) : "") << "\n";
    metrics_.flush();
  }

  void print_progress(const SelfPlayStats& play, const AzUpdateStats& update, double seconds,
                      double rate) const {
    double eta = (cfg_.total_steps - steps_) / std::max(rate, 1e-9);
    if (cfg_.minutes > 0) eta = std::min(eta, cfg_.minutes * 60.0 - seconds);
    auto pct = [](double v) {
      return v < 0 ? std::string("-") : std::to_string(static_cast<int>(100 * v + 0.5)) + "%";
    };
    const double t = std::max(play.seconds, 1e-9);
    std::fprintf(
        stderr,
        "iteration %lld | %.2fM positions | %.0f positions/s | %.0f leaves/s (network %.0f%%) | "
        "policy loss %.3f value loss %.3f | eval (raw network, iteration %lld) vs random %s heuristic %s "
        "| ETA %s\n",
        static_cast<long long>(iterations_), steps_ / 1e6, rate, play.leaves / t,
        100.0 * play.network_seconds / t, update.policy_loss, update.value_loss,
        static_cast<long long>(last_eval_iteration_), pct(eval_random_).c_str(), pct(eval_heuristic_).c_str(),
        format_duration(eta).c_str());
  }

  AzConfig cfg_;
  std::shared_ptr<AnyGame> game_;
  dist::Context ctx_;
  uint64_t seed_ = 0;                      // of this rank's streams (dist::rank_seed)
  int train_steps_ = 1, total_batch_ = 1;  // per iteration, over all ranks
  torch::Device device_;
  int players_, num_actions_, obs_size_ = 0;
  NetSpec spec_;
  PolicyValueNet net_{nullptr};
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  Rng train_rng_;
  std::vector<int32_t> drawn_;
  std::ofstream metrics_;
  int64_t steps_ = 0, iterations_ = 0, games_ = 0, last_eval_iteration_ = 0;
  MinuteSnapshots snapshots_;
  std::string game_config_;  // the game's rules as this run reads them (GameSetup::resolved_config_text)
  double elapsed_before_ = 0.0, eval_random_ = -1.0, eval_heuristic_ = -1.0;
};

// Loads the game and runs AzTrainer<G> for the configured game, as one rank
// of `context`'s job.
TrainSummary run_alphazero(const AzConfig& config, bool verbose, const dist::Context& context = {});

}  // namespace rocketgym::alphazero
