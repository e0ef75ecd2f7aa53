// Trainer<G>: search-based self-play (AlphaZero-style) for one game type.
//
// One network plays every seat through SelfPlay<G> (Gumbel ISMCTS with the
// network as evaluator); its positions go to a replay buffer with the search's
// improved policy and, at the game's end, the outcome for every seat. Each
// iteration plays selfplay.samples_per_iteration new positions, then takes
// enough gradient steps on uniform minibatches from the buffer that each new
// position is trained on train.replay_ratio times on average.
//
// The run's life (folder and lock, start or resume, checkpoints, minute
// snapshots, metrics.csv, plot, progress, ranks) is run::RunHarness's
// (training/run/run_harness.h), shared with PPO; this file says how
// search-based self-play collects and updates.
// Run folder (run.dir): config.yaml (resolved), metrics.csv (one row per
// iteration), checkpoints/latest.ckpt (weights, optimizer, counters),
// checkpoints/minute_<m>.ckpt (run.snapshot_minutes), learning_curve.png.
// With gating (gating.every > 0), self-play plays checkpoints/best.ckpt's
// network, the best so far, and the network under training replaces it only
// by beating it in a gating match (end_iteration).
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

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "envs/core/vector_env.h"
#include "models/checkpoint.h"
#include "training/alphazero/alphazero_update.h"
#include "training/alphazero/replay_buffer.h"
#include "training/alphazero/self_play.h"
#include "training/alphazero/train_config.h"
#include "training/arena/evaluate.h"
#include "training/distributed/distributed.h"
#include "training/mixed_vector_env.h"
#include "training/players/player_spec.h"
#include "training/policy_runner.h"
#include "training/run/run_harness.h"
#include "training/run_support.h"

namespace rocketgym::alphazero {

template <class G>
class Trainer : public run::Algorithm {
 public:
  using State = typename G::State;

  Trainer(const TrainConfig& config, std::shared_ptr<AnyGame> game, dist::Context context = {})
      : cfg_(config),
        run_("alphazero", cfg_, cfg_.net, {cfg_.total_steps, cfg_.minutes}, cfg_.game.resolved_config_text(),
             std::move(game), config.game.player_counts(), std::move(context)) {}

  TrainSummary run(bool verbose) { return run_.run(*this, verbose); }

 private:
  // --- start, resume, save (run::Algorithm) ---------------------------------

  std::string resolved_config() const override { return cfg_.to_yaml(); }

  void make_optimizer() override {
    optimizer_ = std::make_unique<torch::optim::AdamW>(
        run_.net()->parameters(),
        torch::optim::AdamWOptions(cfg_.learning_rate).weight_decay(cfg_.weight_decay));
  }
  torch::optim::Optimizer& optimizer() override { return *optimizer_; }

  void resume(const CheckpointMeta& saved, bool verbose) override {
    saved.require_extra({"games"});  // written since the first run; gating_matches only with gating
    games_ = saved.extra_count("games", 0);
    gates_ = saved.extra_count("gating_matches", 0);
    if (verbose && ctx_.is_root())
      std::fprintf(stderr,
                   "resuming %s at iteration %lld, %lld positions (the replay buffer refills first)\n",
                   run_.latest_path().c_str(), static_cast<long long>(run_.iteration()),
                   static_cast<long long>(run_.steps()));
  }

  Json checkpoint_extra() const override {
    Json extra{{"games", games_}};
    if (cfg_.gating()) extra["gating_matches"] = gates_;
    return extra;
  }

  // From here on cfg_'s self-play, replay and imitation sizes are this rank's
  // shares of the job's totals (config.yaml keeps the totals; the gradient
  // steps per iteration and the batch stay the job's), and run_.rank_seed() seeds its
  // own streams.
  void take_rank_share(bool verbose) override {
    const int rank = ctx_.rank(), ranks = ctx_.size();
    train_steps_ = cfg_.train_steps_per_iteration();
    total_batch_ = cfg_.batch;
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

  // --- collect and update (run::Algorithm) ----------------------------------

  void begin(bool warm_start, bool verbose) override {
    run_.net()->eval();  // self-play and evaluation; az_update switches to training mode and back
    const auto iterations = static_cast<uint64_t>(run_.iteration());
    buffer_ = std::make_unique<ReplayBuffer>(cfg_.capacity, obs_size_, num_actions_, run_.spec().num_players);
    train_rng_.reseed(derive_seed(run_.rank_seed() ^ 0x7A1EULL, iterations));
    torch::manual_seed(derive_seed(cfg_.seed, iterations + 1));
    if (warm_start && cfg_.imitation_steps > 0) imitate(*buffer_, verbose);
    if (cfg_.gating()) start_gating(verbose);
    runner_ = std::make_unique<PolicyRunner>(cfg_.gating() ? best_ : run_.net(), device_, cfg_.games);
    runner_->use_sparse_rows();  // the leaves' forward passes in plain C++ (an mlp on the CPU)
    self_play_ =
        std::make_unique<SelfPlay<G>>(typed_config<G>(*run_.game()), cfg_.game.tables, cfg_, *runner_,
                                      derive_seed(run_.rank_seed() ^ 0x5E1FULL, iterations));
  }

  std::optional<int64_t> iterate() override {
    last_play_ = self_play_->play(cfg_.samples_per_iteration, *buffer_);
    sum_over_ranks(last_play_);
    games_ += last_play_.games;
    last_update_ = UpdateStats{};
    // Every rank trains from its own buffer: all of them must be ready.
    if (!ctx_.any(buffer_->ready_count() < std::max(1, cfg_.min_samples), "agreeing whether to train")) {
      UpdateSettings settings{train_steps_, total_batch_, cfg_.value_coef, cfg_.max_grad_norm};
      last_update_ =
          az_update(run_.net(), *optimizer_, *buffer_, settings, train_rng_, device_, drawn_, ctx_);
    }
    return last_play_.positions;
  }

  // --- gating ------------------------------------------------------------------

  std::string best_path() const { return run_.in_run_dir("checkpoints/best.ckpt"); }

  // The best network so far: a resumed run's checkpoints/best.ckpt (rank
  // 0's, sent to the others), else a copy of the network as it starts (after
  // the warm start, or where a run that had no gating stopped).
  void start_gating(bool verbose) {
    best_ = PolicyValueNet(run_.spec());
    best_->to(device_);
    best_->eval();
    std::optional<LoadedCheckpoint> saved;
    if (run_.iteration() > 0) saved = run_.load_run_file(best_path());
    if (saved) {
      copy_weights(best_, saved->net, best_path());
      best_iteration_ = saved->meta.iteration;
      best_step_ = saved->meta.step;
    } else {
      copy_weights(best_, run_.net(), "the network under training");
      best_iteration_ = run_.iteration();
      best_step_ = run_.steps();
    }
    best_written_ = saved ? best_iteration_ : -1;
    if (verbose && ctx_.is_root())
      std::fprintf(stderr, "gating: self-play plays the best network so far (iteration %lld)\n",
                   static_cast<long long>(best_iteration_));
  }

  // How a side of the gating match plays (TrainConfig::gate_search).
  players::PlayerSpec gate_player(const char* name, PolicyValueNet net) const {
    if (cfg_.gate_simulations == 0) return {name, players::Checkpoint{}, std::move(net)};
    return {name, players::Ismcts{cfg_.gate_search()}, std::move(net)};
  }

  // Every gating.every iterations (every rank, after the update): the
  // network under training ("latest") in one seat, the best so far in the
  // others, gating.games at each table size over seeds of this match's own;
  // its win share over the fair share, averaged over the sizes, is the score.
  void end_iteration() override {
    last_gate_ = -1.0;
    const int64_t iteration = run_.iteration();
    if (!cfg_.gating() || iteration % cfg_.gate_every != 0) return;
    torch::NoGradGuard no_grad;
    const auto config = typed_config<G>(*run_.game());
    const uint64_t seed = derive_seed(cfg_.seed ^ 0x6A7EULL, static_cast<uint64_t>(iteration));
    double score = 0.0;
    for (int players : run_.player_counts())
      score +=
          players * arena::win_share<G>(gate_player("latest", run_.net()), gate_player("best", best_), config,
                                        players, cfg_.gate_games, seed, cfg_.threads, device_, ctx_);
    last_gate_ = score / static_cast<double>(run_.player_counts().size());
    ++gates_;
    if (last_gate_ < cfg_.gate_margin) return;
    copy_weights(best_, run_.net(), "the network under training");
    best_iteration_ = iteration;
    best_step_ = run_.steps();
  }

  // best.ckpt beside latest.ckpt, whenever the best network changed: both
  // are written together, so a resume finds the pair it stopped with.
  void after_save(const CheckpointMeta& saved) override {
    if (!cfg_.gating() || best_written_ == best_iteration_) return;
    CheckpointMeta meta = saved;
    meta.step = best_step_;
    meta.iteration = best_iteration_;
    meta.extra["eval_vs_random"] = -1.0;  // the evaluations were of the latest network
    meta.extra["eval_vs_heuristic"] = -1.0;
    save_checkpoint(best_path(), meta, best_, nullptr);
    best_written_ = best_iteration_;
  }

  // --- imitation warm start -------------------------------------------------

  // Heuristic bots play every seat; their moves become one-hot policy
  // targets and the outcomes value targets, in the replay buffer, and the
  // network trains on them for imitation.epochs passes. The positions stay
  // in the buffer until self-play pushes them out.
  void imitate(ReplayBuffer& buffer, bool verbose) {
    const auto started = std::chrono::steady_clock::now();
    MixedVectorEnv<G> env(typed_config<G>(*run_.game()), cfg_.game.tables, cfg_.games,
                          derive_seed(run_.rank_seed() ^ 0x1A17ULL, 0), cfg_.threads, "selfplay.games");
    std::vector<Action> actions(static_cast<std::size_t>(cfg_.games));
    std::vector<std::vector<std::pair<ReplayBuffer::Ticket, int>>> pending(
        static_cast<std::size_t>(cfg_.games));
    std::vector<float> relative(static_cast<std::size_t>(G::info().max_players));
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
        const uint8_t* mask = env.action_mask(i);
        int legal = 0;
        for (int a = 0; a < num_actions_; ++a) legal += mask[a];
        if (legal < 2) continue;  // a forced move teaches nothing
        const ReplayBuffer::Ticket t = buffer.add();
        std::memcpy(buffer.observation(t.slot), env.observation(i), sizeof(float) * obs_size_);
        std::memcpy(buffer.mask(t.slot), mask, static_cast<std::size_t>(num_actions_));
        float* policy = buffer.policy(t.slot);
        std::fill(policy, policy + num_actions_, 0.0f);
        policy[actions[static_cast<std::size_t>(i)]] = 1.0f;
        pending[static_cast<std::size_t>(i)].push_back({t, env.current_player(i)});
        ++recorded;
      }
      env.step(actions.data());
      for (int i = 0; i < cfg_.games; ++i) {
        if (!env.finished(i)) continue;
        const float* returns = env.returns(i);
        const int players = env.players(i);
        for (const auto& [ticket, player] : pending[static_cast<std::size_t>(i)]) {
          for (int j = 0; j < players; ++j)
            relative[static_cast<std::size_t>(j)] = returns[(player + j) % players];
          buffer.finish(ticket, relative.data(), players);
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
    UpdateSettings settings{std::max(1, steps), total_batch_, cfg_.value_coef, cfg_.max_grad_norm};
    const UpdateStats stats =
        az_update(run_.net(), *optimizer_, buffer, settings, train_rng_, device_, drawn_, ctx_);
    if (verbose && ctx_.is_root())
      std::fprintf(
          stderr,
          "imitation: %lld heuristic positions, %d steps | cross-entropy %.3f | value loss %.3f | %s\n",
          static_cast<long long>(recorded), stats.steps, stats.policy_loss, stats.value_loss,
          format_duration(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count())
              .c_str());
  }

  // --- metrics, progress ------------------------------------------------------

  std::string metrics_header() const override {
    return "update,step,games,elapsed_s,samples_per_s,simulations_per_s,leaves_per_s,network_share,"
           "policy_loss,value_loss,entropy,replay_ready,eval_win_vs_random,eval_win_vs_heuristic,"
           "gating_score,best_update";
  }

  // Every rank adds its replay buffer's count; rank 0 writes the row.
  void write_metrics_row(CsvWriter* out, const run::IterationReport& r) override {
    std::vector<double> ready{static_cast<double>(buffer_->ready_count())};
    ctx_.all_reduce_sum(ready, "summing the ranks' replay buffers");
    if (!out) return;
    const SelfPlayStats& play = last_play_;
    const UpdateStats& update = last_update_;
    const double t = std::max(play.seconds, 1e-9);
    auto if_trained = [&](double value) { return update.steps ? std::to_string(value) : std::string(); };
    out->row(r.iteration, r.steps, games_, r.elapsed_seconds, play.positions / t, play.simulations / t,
             play.leaves / t, play.network_seconds / t, if_trained(update.policy_loss),
             if_trained(update.value_loss), if_trained(update.policy_entropy),
             static_cast<int64_t>(ready[0] + 0.5), r.evaluated ? std::to_string(run_.eval_vs_random()) : "",
             r.evaluated ? std::to_string(run_.eval_vs_heuristic()) : "",
             last_gate_ >= 0.0 ? std::to_string(last_gate_) : "",
             cfg_.gating() ? std::to_string(best_iteration_) : "");
  }

  std::string progress_text(const run::IterationReport& r) const override {
    const double t = std::max(last_play_.seconds, 1e-9);
    char text[400];
    std::snprintf(
        text, sizeof(text),
        "iteration %lld | %.2fM/%.2fM positions | %.0f positions/s | %.0f leaves/s (network %.0f%%) | "
        "policy loss %.3f value loss %.3f | eval (raw network, iteration %lld) vs random %s "
        "heuristic %s",
        static_cast<long long>(r.iteration), r.steps / 1e6, cfg_.total_steps / 1e6, r.rate,
        last_play_.leaves / t, 100.0 * last_play_.network_seconds / t, last_update_.policy_loss,
        last_update_.value_loss, static_cast<long long>(run_.last_eval_iteration()),
        run::percent(run_.eval_vs_random()).c_str(), run::percent(run_.eval_vs_heuristic()).c_str());
    if (!cfg_.gating()) return text;
    char gate[120];
    std::snprintf(gate, sizeof(gate), " | self-play: best (iteration %lld%s)",
                  static_cast<long long>(best_iteration_),
                  last_gate_ < 0.0                 ? ""
                  : last_gate_ >= cfg_.gate_margin ? ", replaced now"
                                                   : ", kept now");
    return std::string(text) + gate;
  }

  void finish(TrainSummary& summary) const override { summary.episodes = games_; }

  TrainConfig cfg_;
  run::RunHarness<G> run_;
  const dist::Context& ctx_ = run_.ctx();
  const torch::Device& device_ = run_.device();
  const int num_actions_ = run_.num_actions(), obs_size_ = run_.obs_size();
  int train_steps_ = 1, total_batch_ = 1;  // per iteration, over all ranks
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  std::unique_ptr<ReplayBuffer> buffer_;
  std::unique_ptr<PolicyRunner> runner_;
  std::unique_ptr<SelfPlay<G>> self_play_;
  PolicyValueNet best_{nullptr};  // gating: the network self-play plays
  int64_t gates_ = 0, best_iteration_ = 0, best_step_ = 0, best_written_ = -1;
  double last_gate_ = -1.0;  // this iteration's gating score; -1: no match
  SelfPlayStats last_play_;
  UpdateStats last_update_;
  Rng train_rng_;
  std::vector<int32_t> drawn_;
  int64_t games_ = 0;
};

// Loads the game and runs Trainer<G> for the configured game, as one rank
// of `context`'s job.
TrainSummary run_alphazero(const TrainConfig& config, bool verbose, const dist::Context& context = {});

}  // namespace rocketgym::alphazero
