// Trainer<G>: PPO self-play for one concrete game type.
//
// One shared policy acts for every learner seat. Each episode of each env
// draws who sits at the table (TrainConfig opponents, ppo/opponents.h): the
// learner at every seat (self-play), or the learner at one random seat and a
// single opponent (an earlier snapshot from the pool, or an agent of
// opponents.agents) at the others. Only learner decisions are trained on. Rollouts step a
// MixedVectorEnv<G> (one VectorEnv per table size of game.players, the envs
// split over the sizes by weight; no allocation per step); per step, envs are
// grouped by who is to move and each network runs one batched forward pass
// over every table size. The value head has an output per seat of the
// game's largest table; a decision's value targets fill its own table's
// seats and the value loss reads only those.
//
// The run's life (folder and lock, start or resume, checkpoints, minute
// snapshots, metrics.csv, plot, progress, ranks) is run::RunHarness's
// (training/run/run_harness.h); this file says how PPO collects and updates.
// Run folder (run.dir): config.yaml (resolved), metrics.csv (one row per
// update), checkpoints/latest.ckpt, checkpoints/pool/update_NNNNNN.ckpt
// (opponent snapshots), learning_curve.png, .lock (held while training).
// Starting a run whose folder already has checkpoints/latest.ckpt resumes
// it: weights, optimizer, counters and the opponent pool come back; the env
// streams are re-seeded from (seed, update), and metrics rows after the
// checkpoint are dropped. The agents' weights may change on a resume, the
// list of their names may not (metrics.csv has a column per name: the resume
// is refused naming both lists). latest.ckpt lists the pool by paths relative to
// the run folder, so a run folder can be moved; every snapshot is checked
// like latest.ckpt (game, players, shapes). After each save the pool folder
// holds exactly the listed snapshots: dropped ones are deleted once a saved
// latest.ckpt no longer lists them, and files a killed run left behind
// (temp files, unlisted snapshots) are deleted when the run starts again.
//
// Distributed (several ranks, training/distributed): ppo.envs and
// ppo.steps_per_update are the job's totals, split evenly over the ranks; each
// rank steps its own envs with its own seed streams (dist::rank_seed) and
// collects its share of the batch; ppo_update trains on the union of the
// ranks' batches with all-reduced gradients, so every rank keeps the same
// weights, optimizer state and opponent pool. Counters (steps, episodes,
// training win rates) are summed over the ranks, the greedy evaluation's
// games are split among them, the decision to stop is taken together, and
// rank 0 alone writes (and locks) the run folder. A resumed run reads rank
// 0's files (sent to the other ranks), whatever the number of ranks before.
#pragma once

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "envs/core/vector_env.h"
#include "models/checkpoint.h"
#include "training/distributed/distributed.h"
#include "training/mixed_vector_env.h"
#include "training/policy_runner.h"
#include "training/ppo/opponents.h"
#include "training/ppo/ppo_update.h"
#include "training/ppo/train_config.h"
#include "training/ppo/trajectory_store.h"
#include "training/run/phase_times.h"
#include "training/run/run_harness.h"
#include "training/seed_streams.h"

namespace rocketgym::ppo {

// Games may define `static float shaping_potential(const State&, int seat)`:
// how far the seat has come toward winning, in the game's own units, for
// potential-based shaping (ppo.shaping, gae.h). Training only.
template <class G, class = void>
struct HasShapingPotential : std::false_type {};
template <class G>
struct HasShapingPotential<
    G, std::void_t<decltype(G::shaping_potential(std::declval<const typename G::State&>(), 0))>>
    : std::true_type {};

template <class G>
class Trainer : public run::Algorithm {
 public:
  using State = typename G::State;

  // Resolves the opponents' agents (their networks loaded once, here).
  Trainer(const TrainConfig& config, std::shared_ptr<AnyGame> game, dist::Context context = {})
      : cfg_(config),
        run_("ppo", cfg_, cfg_.net, {cfg_.total_steps, cfg_.minutes}, cfg_.game.resolved_config_text(),
             std::move(game), config.game.player_counts(), std::move(context)),
        opponents_(cfg_, run_.player_counts(), run_.spec().observation_shape, run_.device(), run_.ctx()) {
    if (cfg_.shaping != 0.0 && !HasShapingPotential<G>::value)
      throw ConfigError("ppo.shaping: " + G::info().id +
                        " defines no shaping_potential; set ppo.shaping to 0 for this game");
  }

  TrainSummary run(bool verbose) { return run_.run(*this, verbose); }

 private:
  static constexpr int kLearner = Opponents<G>::kLearner;

  std::string pool_dir() const { return run_.in_run_dir("checkpoints/pool"); }

  // --- start, resume, save (run::Algorithm) ---------------------------------

  std::string resolved_config() const override { return cfg_.to_yaml(); }

  void make_optimizer() override {
    optimizer_ = std::make_unique<torch::optim::Adam>(
        run_.net()->parameters(), torch::optim::AdamOptions(cfg_.learning_rate).eps(1e-5));
  }
  torch::optim::Optimizer& optimizer() override { return *optimizer_; }

  void resume(const CheckpointMeta& saved, bool verbose) override {
    saved.require_extra({"episodes", "env_steps", "pool"});  // written since the first PPO run
    episodes_ = saved.extra_count("episodes", 0);
    env_steps_ = saved.extra_count("env_steps", 0);
    check_agents(saved);
    load_pool(saved.extra_texts("pool"));
    if (verbose && ctx_.is_root())
      std::fprintf(stderr, "resuming %s at update %lld, %lld learner steps, %zu snapshots in the pool\n",
                   run_.latest_path().c_str(), static_cast<long long>(run_.iteration()),
                   static_cast<long long>(run_.steps()), opponents_.pool_size());
  }

  // The names of opponents.agents, in order: metrics.csv's train_win_vs_<name>
  // columns, so a resume keeps them (the weights may change; a weight of 0
  // stops playing an agent). Checkpoints written before they were recorded
  // are not checked.
  std::vector<std::string> agent_names() const {
    std::vector<std::string> names = opponents_.names();
    names.erase(names.begin());  // the pool's
    return names;
  }
  void check_agents(const CheckpointMeta& saved) const {
    if (!saved.extra.contains("agents")) return;
    const std::vector<std::string> before = saved.extra_texts("agents"), now = agent_names();
    if (before == now) return;
    auto list = [](const std::vector<std::string>& names) {
      std::string text;
      for (const std::string& name : names) text += (text.empty() ? "" : ", ") + files::printable(name);
      return names.empty() ? std::string("none") : text;
    };
    throw CheckpointError("'" + run_.latest_path() + "' was trained against the agents " + list(before) +
                          " (opponents.agents, in this order) and the config gives " + list(now) +
                          ". metrics.csv has a column for each; a resumed run keeps them (their weights may "
                          "change, 0 stops playing one). Start a new run in another run.dir, or give "
                          "opponents.agents those agents again");
  }

  // The snapshots latest.ckpt lists, newest pool_size of them (the config
  // may have a smaller pool now). Runs before this version listed them by
  // the path training was started with; only the file name counts
  // (snapshots always live in checkpoints/pool).
  void load_pool(const std::vector<std::string>& listed) {
    const std::size_t first = listed.size() > static_cast<std::size_t>(cfg_.pool_size)
                                  ? listed.size() - static_cast<std::size_t>(cfg_.pool_size)
                                  : 0;
    for (std::size_t k = 0; k < listed.size(); ++k) {
      const std::string name = std::filesystem::path(listed[k]).filename().string();
      const std::string relative = "checkpoints/pool/" + name;
      const std::string file = run_.in_run_dir(relative);
      if (k < first) {
        dropped_files_.push_back(relative);
        continue;
      }
      // Every rank reads rank 0's file (a collective: the list is the same
      // on every rank, so they all ask for the same files).
      try {
        std::optional<LoadedCheckpoint> snapshot;
        if (!name.empty()) snapshot = run_.load_run_file(file);
        if (!snapshot) {
          if (ctx_.is_root())
            std::fprintf(stderr,
                         "warning: opponent snapshot '%s' listed in %s is missing; resuming without it\n",
                         file.c_str(), run_.latest_path().c_str());
          continue;
        }
        opponents_.add_snapshot(snapshot->net);
        pool_files_.push_back(relative);
      } catch (const CheckpointError& e) {
        throw CheckpointError(std::string("opponent snapshot of this run's pool: ") + e.what() +
                              " (delete the file to resume without it)");
      }
    }
  }

  // Deletes what a killed run may have left in checkpoints/: temp files of
  // interrupted saves and snapshots latest.ckpt does not list. Only files
  // named as this trainer names them are touched; the run folder is locked.
  void clean_run_folder(bool verbose) override {
    std::filesystem::create_directories(pool_dir());
    std::vector<std::filesystem::path> stale;
    const std::string latest = run_.latest_path();
    if (std::filesystem::exists(latest + ".tmp")) stale.emplace_back(latest + ".tmp");
    for (const auto& entry : std::filesystem::directory_iterator(pool_dir())) {
      const std::string name = entry.path().filename().string();
      const bool ours =
          name.rfind("update_", 0) == 0 && (ends_with(name, ".ckpt") || ends_with(name, ".ckpt.tmp"));
      auto in = [&](const std::vector<std::string>& files) {
        return std::find(files.begin(), files.end(), "checkpoints/pool/" + name) != files.end();
      };
      const bool listed = in(pool_files_) || in(dropped_files_);  // dropped: deleted after the next save
      if (ours && !listed && entry.is_regular_file()) stale.push_back(entry.path());
    }
    for (const auto& file : stale) {
      std::error_code error;
      std::filesystem::remove(file, error);
      if (error)
        std::fprintf(stderr, "warning: cannot delete %s: %s\n", file.c_str(), error.message().c_str());
      else if (verbose)
        std::fprintf(stderr, "deleted %s (left by an interrupted run)\n", file.c_str());
    }
  }

  static bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
  }

  Json checkpoint_extra() const override {
    return Json{
        {"episodes", episodes_}, {"env_steps", env_steps_}, {"pool", pool_files_}, {"agents", agent_names()}};
  }

  // Snapshots dropped from the pool are deleted only once latest.ckpt no
  // longer lists them, so a run killed at any moment resumes with its pool.
  void after_save(const CheckpointMeta& /*saved*/) override {
    for (const std::string& relative : dropped_files_) {
      std::error_code error;
      std::filesystem::remove(run_.in_run_dir(relative), error);
      if (error)
        std::fprintf(stderr, "warning: cannot delete the old opponent snapshot %s: %s\n",
                     run_.in_run_dir(relative).c_str(), error.message().c_str());
    }
    dropped_files_.clear();
  }

  // From here on cfg_.envs and cfg_.steps_per_update are this rank's shares
  // of the job's totals (config.yaml keeps the totals), and run_.rank_seed() seeds its
  // own streams.
  void take_rank_share(bool verbose) override {
    const int rank = ctx_.rank(), ranks = ctx_.size();
    if (cfg_.envs < ranks || cfg_.steps_per_update < ranks)
      throw ConfigError("ppo.envs (" + std::to_string(cfg_.envs) + ") and ppo.steps_per_update (" +
                        std::to_string(cfg_.steps_per_update) + ") are split over the " +
                        std::to_string(ranks) + " ranks: each must be at least the number of ranks");
    if (ranks == 1) return;
    if (verbose && rank == 0)
      std::fprintf(stderr, "ranks: %d (%d envs and %d of the %d decisions of each update on rank 0)\n", ranks,
                   static_cast<int>(dist::share(cfg_.envs, 0, ranks)),
                   static_cast<int>(dist::share(cfg_.steps_per_update, 0, ranks)), cfg_.steps_per_update);
    cfg_.envs = static_cast<int>(dist::share(cfg_.envs, rank, ranks));
    cfg_.steps_per_update = static_cast<int>(dist::share(cfg_.steps_per_update, rank, ranks));
  }

  // Each rank counts its own episodes and training games; the run's
  // counters (metrics, progress, checkpoint) are their sums over the ranks.
  void sum_counters_over_ranks() {
    if (ctx_.single()) return;
    std::vector<double> counts{static_cast<double>(episodes_ - episodes_summed_),
                               static_cast<double>(env_steps_ - env_steps_summed_)};
    opponents_.append_counts(counts);
    ctx_.all_reduce_sum(counts, "summing the ranks' counters");
    episodes_ = episodes_summed_ += static_cast<int64_t>(counts[0] + 0.5);
    env_steps_ = env_steps_summed_ += static_cast<int64_t>(counts[1] + 0.5);
    opponents_.set_counts(counts.data() + 2);
  }

  // A frozen copy of the current network joins the opponent pool (and its
  // file, so that a resumed run gets the same pool back).
  void add_snapshot() {
    PolicyValueNet copy(run_.spec());
    copy_weights(copy, run_.net(), "the network under training");
    copy->to(device_);
    copy->eval();
    char name[64];
    std::snprintf(name, sizeof(name), "checkpoints/pool/update_%06lld.ckpt",
                  static_cast<long long>(run_.iteration()));
    if (ctx_.is_root())
      save_checkpoint(run_.in_run_dir(name), run_.meta(0.0, checkpoint_extra()), copy, nullptr);
    pool_files_.push_back(name);
    if (opponents_.add_snapshot(copy)) {  // the oldest left the pool
      dropped_files_.push_back(pool_files_.front());
      pool_files_.erase(pool_files_.begin());
    }
  }

  // --- collect and update (run::Algorithm) ----------------------------------

  void begin(bool warm_start, bool verbose) override {
    const int64_t updates = run_.iteration();
    const uint64_t seed = run_.rank_seed();
    if (verbose && ctx_.is_root())  // the FLOP limit of scripts/profile_ppo.sh is computed from this
      std::fprintf(stderr, "network: %lld multiply-adds a decision, %lld of them in the first layer\n",
                   static_cast<long long>(run_.net()->multiply_adds()),
                   static_cast<long long>(run_.net()->first_layer_multiply_adds()));
    value_seats_ = run_.spec().num_players;
    env_ = make_env(derive_seed(seed, updates));
    store_ = make_store(*env_);
    learner_ = std::make_unique<PolicyRunner>(run_.net(), device_, cfg_.envs);
    // The collection's forward passes (64 rows a step) in plain C++: LibTorch's dozen
    // operators per pass do not split over threads at that size (docs/benchmarks.md,
    // "Where PPO's time goes"); the update keeps LibTorch. No effect off the CPU or on conv.
    learner_->use_sparse_rows();
    env_rngs_.clear();
    for (int i = 0; i < cfg_.envs; ++i)
      env_rngs_.emplace_back(derive_seed(seed ^ 0x7EA7ULL, static_cast<uint64_t>(updates) * 65536 + i));
    opponents_.begin(*env_, cfg_.envs, seed, updates);
    torch::manual_seed(derive_seed(cfg_.seed, static_cast<uint64_t>(updates) + 1));
    if (warm_start && cfg_.imitation_steps > 0) imitate(verbose);
    episodes_at_start_ = episodes_summed_ = episodes_;
    env_steps_summed_ = env_steps_;
    actions_.assign(static_cast<std::size_t>(cfg_.envs), Action{});
    group_.reserve(static_cast<std::size_t>(cfg_.envs));
  }

  std::optional<int64_t> iterate() override {
    MixedVectorEnv<G>& env = *env_;
    TrajectoryStore& store = *store_;
    // --- collect finished episodes until the batch is full ---------------
    times_.clear();
    while (store.ready_count() < cfg_.steps_per_update && !stop_requested.load()) {
      choose_actions(env, store, *learner_, actions_, group_);
      run::PhaseTimer timer(&times_, run::Phase::kEnvStep);
      env.step(actions_.data());
      ++env_steps_;
      for (int i = 0; i < cfg_.envs; ++i)
        if (env.finished(i)) end_episode(env, store, i);
    }
    // Ctrl-C: save what the last update learned (with several ranks, the
    // others are mid-batch: this update goes ahead with what there is).
    if (stop_requested.load() && ctx_.single()) return std::nullopt;
    // --- learn ----------------------------------------------------------
    UpdateSettings settings{cfg_.epochs,     cfg_.minibatch,    cfg_.clip,
                            cfg_.value_coef, cfg_.entropy_coef, cfg_.max_grad_norm};
    last_update_ =
        ppo_update(run_.net(), *optimizer_, store, settings, device_, ctx_,
                   derive_seed(cfg_.seed ^ 0x5A0FF1EULL, static_cast<uint64_t>(run_.iteration())), &times_);
    store.compact();
    return last_update_.samples;
  }

  void end_iteration() override {
    sum_counters_over_ranks();
    if (run_.iteration() % cfg_.snapshot_every == 0) add_snapshot();
  }

  // --- imitation warm start -------------------------------------------------

  // Heuristic bots play every seat in their own envs; the network learns
  // their moves (cross-entropy) and the outcomes (value loss, Monte Carlo
  // returns). Uses its own env and store so PPO starts on fresh episodes.
  void imitate(bool verbose) {
    const std::unique_ptr<MixedVectorEnv<G>> mixed_env =
        make_env(derive_seed(run_.rank_seed() ^ 0x1A17ULL, 0));
    MixedVectorEnv<G>& env = *mixed_env;
    const std::unique_ptr<TrajectoryStore> mixed_store = make_store(env);
    TrajectoryStore& store = *mixed_store;
    torch::optim::Adam adam(run_.net()->parameters(),
                            torch::optim::AdamOptions(cfg_.imitation_learning_rate));
    const UpdateSettings settings{cfg_.epochs, cfg_.minibatch,    cfg_.clip, cfg_.value_coef,
                                  0.0,         cfg_.max_grad_norm};
    std::vector<Action> actions(static_cast<std::size_t>(cfg_.envs));
    const std::vector<float> no_values(static_cast<std::size_t>(value_seats_), 0.0f);
    const auto started = std::chrono::steady_clock::now();
    int64_t done = 0;
    while (done < cfg_.imitation_steps && !ctx_.any(stop_requested.load(), "agreeing whether to stop")) {
      while (store.ready_count() < cfg_.steps_per_update) {
        env.heuristic_actions(actions.data());
        for (int i = 0; i < cfg_.envs; ++i) {
          const int slot = store.add(i, env.current_player(i), actions[static_cast<std::size_t>(i)], 0.0f,
                                     no_values.data());
          std::memcpy(store.observation(slot), env.observation(i), sizeof(float) * obs_size_);
          std::memcpy(store.mask(slot), env.action_mask(i), static_cast<std::size_t>(num_actions_));
        }
        env.step(actions.data());
        for (int i = 0; i < cfg_.envs; ++i)
          if (env.finished(i))  // lambda = 1: value targets are the final returns
            store.finish_episode(i, env.returns(i), 1.0f, 1.0f);
      }
      const UpdateStats stats =
          imitation_update(run_.net(), adam, store, settings, device_, ctx_,
                           derive_seed(cfg_.seed ^ 0x1A17ULL, static_cast<uint64_t>(done)));
      store.compact();
      done += stats.samples;  // over all ranks
      if (verbose && ctx_.is_root()) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(
            stderr,
            "imitation %.2fM/%.2fM decisions | cross-entropy %.3f | accuracy %.0f%% | value loss %.3f | "
            "%.0f samples/s\n",
            done / 1e6, cfg_.imitation_steps / 1e6, stats.policy_loss, 100 * stats.clip_fraction,
            stats.value_loss, done / std::max(seconds, 1e-9));
      }
    }
  }

  // --- rollouts -------------------------------------------------------------

  // The envs of every table size of game.players (mixed_vector_env.h).
  std::unique_ptr<MixedVectorEnv<G>> make_env(uint64_t seed) const {
    return std::make_unique<MixedVectorEnv<G>>(typed_config<G>(*run_.game()), cfg_.game.tables, cfg_.envs,
                                               seed, cfg_.threads, "ppo.envs");
  }

  // A store of value rows as wide as the network's value head, each env's
  // table size set.
  std::unique_ptr<TrajectoryStore> make_store(const MixedVectorEnv<G>& env) const {
    auto store = std::make_unique<TrajectoryStore>(cfg_.envs, value_seats_, obs_size_, num_actions_,
                                                   2 * cfg_.steps_per_update);
    for (int i = 0; i < cfg_.envs; ++i) store->set_table_players(i, env.players(i));
    return store;
  }

  void choose_actions(MixedVectorEnv<G>& env, TrajectoryStore& store, PolicyRunner& learner,
                      std::vector<Action>& actions, std::vector<int>& group) {
    {
      run::PhaseTimer timer(&times_, run::Phase::kPolicy);
      gather_learner(env, learner, group);
    }
    record_learner(env, store, learner, actions, group);
    // The opponents, in one round of the seat loop (ppo/opponents.h).
    run::PhaseTimer timer(&times_, run::Phase::kOpponents);
    opponents_.act(env, env_rngs_, env_steps_, actions);
  }

  // The learner's sampled actions, and its decisions in the store.
  void record_learner(MixedVectorEnv<G>& env, TrajectoryStore& store, PolicyRunner& learner,
                      std::vector<Action>& actions, const std::vector<int>& group) {
    run::PhaseTimer timer(&times_, run::Phase::kRecord);
    for (std::size_t k = 0; k < group.size(); ++k) {
      const int i = group[k];
      const Action a = learner.choose(static_cast<int>(k), false, env_rngs_[static_cast<std::size_t>(i)]);
      actions[static_cast<std::size_t>(i)] = a;
      const int seat = env.current_player(i);
      const int slot = store.add(i, seat, a, learner.log_prob(static_cast<int>(k), a),
                                 learner.values(static_cast<int>(k)), potential(env.state(i), seat));
      std::memcpy(store.observation(slot), env.observation(i), sizeof(float) * obs_size_);
      std::memcpy(store.mask(slot), env.action_mask(i), static_cast<std::size_t>(num_actions_));
    }
  }

  // The envs where the learner is to move, their rows evaluated in one batch.
  void gather_learner(MixedVectorEnv<G>& env, PolicyRunner& learner, std::vector<int>& group) {
    group.clear();
    for (int i = 0; i < cfg_.envs; ++i)
      if (opponents_.controller(i, env.current_player(i)) == kLearner) group.push_back(i);
    for (std::size_t k = 0; k < group.size(); ++k) {
      std::memcpy(learner.observation_row(static_cast<int>(k)), env.observation(group[k]),
                  sizeof(float) * obs_size_);
      std::memcpy(learner.mask_row(static_cast<int>(k)), env.action_mask(group[k]),
                  static_cast<std::size_t>(num_actions_));
    }
    learner.evaluate(static_cast<int>(group.size()));
  }

  float potential(const State& state, int seat) const {
    if constexpr (HasShapingPotential<G>::value) {
      if (cfg_.shaping != 0.0) return G::shaping_potential(state, seat);
    }
    (void)state, (void)seat;
    return 0.0f;
  }

  void end_episode(MixedVectorEnv<G>& env, TrajectoryStore& store, int i) {
    const float* returns = env.returns(i);
    const int players = env.players(i);
    store.finish_episode(i, returns, static_cast<float>(cfg_.gamma), static_cast<float>(cfg_.gae_lambda),
                         static_cast<float>(cfg_.shaping));
    ++episodes_;
    opponents_.count(i, returns, players);
    opponents_.seat(i, players);
  }

  // --- metrics, progress ------------------------------------------------------

  // The columns train_win_vs_<name>: the pool's, then each agent's.
  std::string metrics_header() const override {
    CsvWriter header;
    for (const char* column : {"update", "step", "env_steps", "episodes", "elapsed_s", "samples_per_s",
                               "policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction"})
      header << column;
    for (const std::string& name : opponents_.names()) header << "train_win_vs_" + name;
    header << "eval_win_vs_random"
           << "eval_win_vs_heuristic";
    for (int phase = 0; phase < run::kPhases; ++phase) header << run::PhaseTimes::column(phase);
    header.end_row();
    std::string text = header.str();
    text.pop_back();  // the harness ends the line
    return text;
  }

  // Rank 0 writes the row; every rank starts counting the next update's games.
  void write_metrics_row(CsvWriter* out, const run::IterationReport& r) override {
    const UpdateStats& s = last_update_;
    if (out) {
      *out << r.iteration << r.steps << env_steps_ << episodes_ << r.elapsed_seconds << r.rate
           << s.policy_loss << s.value_loss << s.entropy << s.approx_kl << s.clip_fraction;
      for (std::size_t c = 0; c < opponents_.columns(); ++c) *out << opponents_.rate_text(c);
      *out << (r.evaluated ? std::to_string(run_.eval_vs_random()) : "")
           << (r.evaluated ? std::to_string(run_.eval_vs_heuristic()) : "");
      for (double seconds : times_.seconds) *out << seconds;
      out->end_row();
    }
    opponents_.close_update();
  }

  // "train vs <agent> 40% ... pool 55%": the agents in order, then the pool.
  std::string progress_text(const run::IterationReport& r) const override {
    const double games_per_second = (episodes_ - episodes_at_start_) / std::max(r.session_seconds, 1e-9);
    char text[200];
    std::snprintf(text, sizeof(text),
                  "update %lld | %.2fM/%.2fM steps | %.0f samples/s | %.1f games/s | entropy %.2f",
                  static_cast<long long>(r.iteration), r.steps / 1e6, cfg_.total_steps / 1e6, r.rate,
                  games_per_second, last_update_.entropy);
    std::string line = std::string(text) + " | train vs";
    const std::vector<std::string> names = opponents_.names();
    for (std::size_t c = 1; c <= names.size(); ++c) {
      const std::size_t column = c % names.size();  // the agents (1..), then the pool (0)
      line += " " + files::printable(names[column]) + " " + run::percent(opponents_.last_rate(column));
    }
    return line + " | eval (greedy, update " + std::to_string(run_.last_eval_iteration()) + ") vs random " +
           run::percent(run_.eval_vs_random()) + " heuristic " + run::percent(run_.eval_vs_heuristic());
  }

  void finish(TrainSummary& summary) const override {
    summary.episodes = episodes_;
    summary.pool_snapshots = static_cast<int>(opponents_.pool_size());
  }

  TrainConfig cfg_;
  run::RunHarness<G> run_;
  Opponents<G> opponents_;
  const dist::Context& ctx_ = run_.ctx();
  const torch::Device& device_ = run_.device();
  const int num_actions_ = run_.num_actions(), obs_size_ = run_.obs_size();
  // The value head's outputs (set in begin: a resumed run keeps its network's).
  int value_seats_ = 0;
  std::unique_ptr<torch::optim::Adam> optimizer_;
  std::unique_ptr<MixedVectorEnv<G>> env_;
  std::unique_ptr<TrajectoryStore> store_;
  std::unique_ptr<PolicyRunner> learner_;
  std::vector<Action> actions_;
  std::vector<int> group_;
  UpdateStats last_update_;
  run::PhaseTimes times_;                   // of the last iteration: metrics.csv's seconds_<phase>
  std::vector<std::string> pool_files_;     // relative to the run folder, as latest.ckpt lists them
  std::vector<std::string> dropped_files_;  // left the pool; deleted after the next save
  std::vector<Rng> env_rngs_;
  int64_t episodes_ = 0, env_steps_ = 0, episodes_at_start_ = 0;
  int64_t episodes_summed_ = 0, env_steps_summed_ = 0;  // counters as last summed over the ranks
};

// Loads the game and runs Trainer<G> for the configured game, as one rank of
// `context`'s job.
TrainSummary run_training(const TrainConfig& config, bool verbose, const dist::Context& context = {});

}  // namespace rocketgym::ppo
