// AsyncVectorEnv<G>: N games stepped by threads that never wait for each
// other; the caller takes the first batch_size envs that are ready (EnvPool's
// async mode, docs/python.md).
//
//   recv()                  waits until batch_size envs are ready and makes
//                           them the batch: batch() holds their ids and, in
//                           the same rows, what the sync VectorEnv's step
//                           gives (observation, mask, player to move,
//                           rewards, terminated/truncated, final views)
//   send(actions, ids, k)   queues one action for each of k envs of a
//                           batch (any subset of the envs awaiting an action)
//
// Each env's games depend only on the seed and the actions it is sent
// (envs/core/env_games.h), never on which thread stepped it or when: only
// which envs share a batch does. After a reset every env is ready at once,
// in env id order. With batch_size == num_envs each batch is every env in id
// order, as the sync env's rows.
//
// Threads: num_threads - 1 workers and the caller, which steps queued envs
// while it waits in recv(). A thread takes up to kMaxClaim envs at a time
// from the queue that send() fills, steps each and writes its outcome
// straight into a row of a ring of batches (blocks of batch_size rows, enough
// of them for every env to be ready while the caller holds a batch). A batch
// is the next block in ring order once all its rows are written, so "ready"
// is the order in which envs were taken from the queue. Every wait spins
// briefly, then sleeps (Doorbell, envs/core/worker_pool.h). Nothing allocates
// after construction.
//
// Errors: send() and recv() check their arguments and the envs' states
// first and throw an Error naming the argument, changing nothing. An
// exception of game code in a worker (a broken invariant) is thrown by the
// next recv() and every one after, until reset().
#pragma once

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "envs/core/env_games.h"
#include "envs/core/game.h"
#include "envs/core/parallel.h"
#include "envs/core/worker_pool.h"

namespace rocketgym {

// The one rule for a batch size (C++, Python and `rocketgym bench` alike).
inline std::string batch_size_rule(int num_envs) {
  return "batch_size must be in [1, num_envs (" + std::to_string(num_envs) + ")]";
}
inline int checked_batch_size(int64_t batch_size, int num_envs) {
  if (batch_size < 1 || batch_size > num_envs)
    throw Error(batch_size_rule(num_envs) + ", got " + std::to_string(batch_size));
  return static_cast<int>(batch_size);
}

template <class G>
class AsyncVectorEnv {
 public:
  using Config = typename G::Config;
  using State = typename G::State;

  // Tests only: start = false leaves the workers unstarted until
  // start_workers(): the caller alone steps the envs, in the order they were sent.
  AsyncVectorEnv(std::shared_ptr<const Config> config, int num_envs, int num_players, uint64_t seed,
                 int num_threads, int batch_size, bool start = true)
      : games_(std::move(config), checked_envs(num_envs), num_players),
        n_(num_envs),
        k_(checked_batch_size(batch_size, num_envs)),
        players_(num_players),
        threads_(checked_threads(num_threads)),
        blocks_((n_ + k_ - 1) / k_ + 1),
        rows_(static_cast<std::size_t>(blocks_) * static_cast<std::size_t>(k_)) {
    obs_size_ = games_.observation_size();
    actions_ = G::info().num_actions;
    const std::size_t n = static_cast<std::size_t>(n_), obs = static_cast<std::size_t>(obs_size_);
    const std::size_t a = static_cast<std::size_t>(actions_), p = static_cast<std::size_t>(players_);
    ids_.assign(rows_, 0);
    obs_.assign(rows_ * obs, 0.0f);
    mask_.assign(rows_ * a, 0);
    current_.assign(rows_, 0);
    rewards_.assign(rows_ * p, 0.0f);
    terminated_.assign(rows_, 0);
    truncated_.assign(rows_, 0);
    steps_.assign(rows_, 0);
    final_obs_.assign(rows_ * p * obs, 0.0f);
    final_steps_.assign(rows_, 0);
    filled_ = std::make_unique<Filled[]>(static_cast<std::size_t>(blocks_));
    queue_ = std::make_unique<std::atomic<int32_t>[]>(n);
    row_of_.assign(n, 0);
    action_.assign(n, 0);
    awaiting_.assign(n, 0);
    reset(seed);
    if (start) start_workers();
  }
  AsyncVectorEnv(const AsyncVectorEnv&) = delete;
  AsyncVectorEnv& operator=(const AsyncVectorEnv&) = delete;
  ~AsyncVectorEnv() { shutdown(); }

  void start_workers() {
    if (!workers_.empty() || stop_.load()) return;
    try {
      for (int t = 1; t < threads_; ++t) workers_.emplace_back([this] { work(); });
    } catch (...) {
      shutdown();  // the threads already started
      throw;
    }
  }

  // Ends the worker threads (the caller alone steps envs from then on).
  void shutdown() {
    stop_.store(true);
    work_bell_.ring();
    for (std::thread& w : workers_) w.join();
    workers_.clear();
  }

  // Waits for the envs being stepped, then restarts every env from `seed`
  // (env i's game k from episode_seed(seed, i, k)); no env awaits an action,
  // and the next recv()s return every env in id order.
  void reset(uint64_t seed) {
    while (completed_.load() != published_.load()) {
      if (!run_queued()) done_bell_.wait([&] { return completed_.load() == published_.load(); });
    }
    games_.set_seed(seed);
    {
      const std::lock_guard<std::mutex> lock(error_mutex_);
      error_ = nullptr;
      failed_.store(false);
    }
    for (int b = 0; b < blocks_; ++b) filled_[static_cast<std::size_t>(b)].rows.store(0);
    next_block_ = 0;
    block_ = -1;
    std::fill(awaiting_.begin(), awaiting_.end(), uint8_t{0});
    awaiting_count_ = 0;
    alloc_.store(static_cast<uint64_t>(n_));  // the restarts fill rows 0..N-1
    std::fill(action_.begin(), action_.end(), kRestart);
    publish([&](int j) { return j; }, n_);
  }

  // Makes the next batch_size ready envs the batch (block() and batch()),
  // stepping queued envs on this thread while it waits. Error when fewer
  // than batch_size envs are being stepped or ready (the others await an
  // action: it would wait for ever).
  int recv() {
    rethrow_failure();
    const int pending = n_ - awaiting_count_;
    if (pending < k_)
      throw Error("recv: only " + std::to_string(pending) +
                  " envs are being stepped or are ready, fewer than " + "batch_size " + std::to_string(k_) +
                  "; send the actions of the " + std::to_string(awaiting_count_) +
                  " envs awaiting one first");
    const int b = static_cast<int>(next_block_ % static_cast<uint64_t>(blocks_));
    std::atomic<int>& filled = filled_[static_cast<std::size_t>(b)].rows;
    const auto ready = [&] { return filled.load(std::memory_order_acquire) == k_ || failed_.load(); };
    while (!ready()) {
      if (!run_queued()) done_bell_.wait(ready);
    }
    rethrow_failure();
    filled.store(0, std::memory_order_relaxed);  // rewritten only after the caller sends these envs
    block_ = b;
    ++next_block_;
    const int32_t* ids = &ids_[row_index(b, 0)];
    for (int j = 0; j < k_; ++j) {
      awaiting_[static_cast<std::size_t>(ids[j])] = 1;
      row_of_[static_cast<std::size_t>(ids[j])] = static_cast<int32_t>(row_index(b, j));
    }
    awaiting_count_ += k_;
    return b;
  }

  // One action for each of `count` envs awaiting one (env_ids[j] gets
  // actions[j]). Checks every id and action first: an Error naming env_ids
  // (out of range, repeated, not awaiting an action) or an IllegalAction
  // naming the env, and nothing is sent.
  void send(const Action* actions, const int32_t* env_ids, int count) {
    if (count < 0 || count > n_)
      throw Error("send: " + std::to_string(count) + " actions, at most num_envs (" + std::to_string(n_) +
                  ")");
    if (count == 0) return;
    if (awaiting_count_ == 0)
      throw Error("send before recv: no env awaits an action; recv() returns the envs whose actions are due");
    int marked = 0;
    try {
      for (; marked < count; ++marked) check_send(actions[marked], env_ids[marked]);
    } catch (...) {
      for (int j = 0; j <= marked && j < count; ++j) {
        const int32_t id = env_ids[j];
        if (id >= 0 && id < n_ && awaiting_[static_cast<std::size_t>(id)] == 2)
          awaiting_[static_cast<std::size_t>(id)] = 1;
      }
      throw;
    }
    for (int j = 0; j < count; ++j) {
      const auto e = static_cast<std::size_t>(env_ids[j]);
      awaiting_[e] = 0;
      action_[e] = actions[j];
    }
    awaiting_count_ -= count;
    publish([&](int j) { return env_ids[j]; }, count);
  }

  // For the batch's envs (all still awaiting an action): a uniformly random
  // legal action each from the env's own stream, or the heuristic bot's.
  void sample_random_actions(Action* out) {
    for_batch("sample_random_actions", [&](int j, std::size_t e) {
      out[j] = random_legal_action(&mask_[row_index(block_, j) * static_cast<std::size_t>(actions_)],
                                   actions_, games_.action_rng[e]);
    });
  }
  void heuristic_actions(Action* out) {
    for_batch("heuristic_actions", [&](int j, std::size_t e) {
      out[j] = G::heuristic_action(games_.states[e], games_.action_rng[e]);
    });
  }

  int num_envs() const { return n_; }
  int batch_size() const { return k_; }
  int num_players() const { return players_; }
  int num_actions() const { return actions_; }
  int observation_size() const { return obs_size_; }
  int num_threads() const { return threads_; }
  uint64_t seed() const { return games_.seed(); }
  const std::shared_ptr<const Config>& config() const { return games_.config(); }
  // The ring's blocks; block() is the batch's (-1 before the first recv()).
  int num_blocks() const { return blocks_; }
  int block() const { return block_; }

  // Env i's game; only while it awaits an action (else a worker may be stepping it).
  const State& state(int i) const {
    if (i < 0 || i >= n_)
      throw Error("env index " + std::to_string(i) + " out of range [0, " + std::to_string(n_ - 1) + "]");
    if (!awaiting_[static_cast<std::size_t>(i)])
      throw Error("env " + std::to_string(i) + " is being stepped or its result was not received yet; " +
                  "its state can be read while it awaits an action");
    return games_.states[static_cast<std::size_t>(i)];
  }

  // Block b's rows ([batch_size, ...] each), read-only for callers; the
  // batch's until the next recv(). final_* rows are valid where terminated
  // or truncated is set.
  AsyncBatch batch(int b) {
    const std::size_t r = row_index(b, 0);
    const std::size_t obs = static_cast<std::size_t>(obs_size_), p = static_cast<std::size_t>(players_);
    return {&ids_[r],        &obs_[r * obs],   &mask_[r * static_cast<std::size_t>(actions_)],
            &current_[r],    &rewards_[r * p], &terminated_[r],
            &truncated_[r],  &steps_[r],       &final_obs_[r * p * obs],
            &final_steps_[r]};
  }

 private:
  static constexpr Action kRestart = -1;  // the queued task of a reset, in action_
  // Envs a thread takes from the queue at once. Every claim costs the threads
  // a few shared counters, and neighbouring claims write into the same cache
  // lines of the small per-row arrays: with 4, two threads were no faster
  // than one (Rocket Squad, docs/benchmarks.md, "The async env").
  static constexpr int kMaxClaim = 32;

  static int checked_envs(int n) {
    if (n < 1 || n > kMaxEnvs)
      throw Error("num_envs must be in [1, " + std::to_string(kMaxEnvs) + "], got " + std::to_string(n));
    return n;
  }
  static int checked_threads(int t) {
    if (t < 1 || t > kMaxThreads)
      throw Error("num_threads must be in [1, " + std::to_string(kMaxThreads) + "], got " +
                  std::to_string(t));
    return t;
  }

  std::size_t row_index(int block, int j) const {
    return static_cast<std::size_t>(block) * static_cast<std::size_t>(k_) + static_cast<std::size_t>(j);
  }

  void check_send(Action a, int32_t id) {
    if (id < 0 || id >= n_)
      throw Error("env_ids: env " + std::to_string(id) + " out of range [0, " + std::to_string(n_ - 1) + "]");
    uint8_t& state = awaiting_[static_cast<std::size_t>(id)];
    if (state == 2) throw Error("env_ids: env " + std::to_string(id) + " appears more than once");
    if (state == 0)
      throw Error("env_ids: env " + std::to_string(id) +
                  " does not await an action (only the envs of a batch " +
                  "from recv() do, until their action is sent)");
    state = 2;  // seen in this send
    // The mask of the batch's row while the batch is held; an env of an
    // earlier batch (its row may hold a later result by now) asks its state.
    const std::size_t row = static_cast<std::size_t>(row_of_[static_cast<std::size_t>(id)]);
    const bool legal =
        a >= 0 && a < actions_ &&
        (static_cast<int>(row / static_cast<std::size_t>(k_)) == block_
             ? mask_[row * static_cast<std::size_t>(actions_) + static_cast<std::size_t>(a)] != 0
             : games_.states[static_cast<std::size_t>(id)].is_legal(a));
    if (!legal) {
      const std::string what =
          (a < 0 || a >= actions_)
              ? "out of range [0, " + std::to_string(actions_ - 1) + "]"
              : "'" + games_.states[static_cast<std::size_t>(id)].action_to_string(a) + "' is not legal";
      throw IllegalAction("env " + std::to_string(id) + ": action " + std::to_string(a) + " " + what +
                          "; no env was sent");
    }
  }

  template <class F>
  void for_batch(const char* what, F&& body) {
    if (block_ < 0) throw Error(std::string(what) + ": no batch yet; call recv() first");
    const int32_t* ids = &ids_[row_index(block_, 0)];
    for (int j = 0; j < k_; ++j)
      if (!awaiting_[static_cast<std::size_t>(ids[j])])
        throw Error(std::string(what) + ": env " + std::to_string(ids[j]) +
                    " of the batch was sent already; choose the batch's actions before send()");
    for (int j = 0; j < k_; ++j) body(j, static_cast<std::size_t>(ids[j]));
  }

  // Queues env_of(j) for j < count (their action_ is set) and wakes the workers.
  template <class F>
  void publish(F&& env_of, int count) {
    const uint64_t p = published_.load(std::memory_order_relaxed);
    for (int j = 0; j < count; ++j)
      queue_[static_cast<std::size_t>((p + static_cast<uint64_t>(j)) % static_cast<uint64_t>(n_))].store(
          env_of(j), std::memory_order_relaxed);
    published_.store(p + static_cast<uint64_t>(count));
    work_bell_.ring();
  }

  // Takes up to kMaxClaim queued envs (fewer when few are queued, so that
  // each thread gets some): returns how many, their ids in `envs`. An env is
  // queued at most once, so an entry is not rewritten before it is taken:
  // reading the entries before the compare-exchange is safe.
  int claim(int32_t* envs) {
    uint64_t c = claimed_.load(std::memory_order_acquire);
    for (;;) {
      const uint64_t p = published_.load(std::memory_order_acquire);
      if (c >= p) return 0;
      const int take = static_cast<int>(std::clamp<uint64_t>((p - c) / static_cast<uint64_t>(threads_), 1,
                                                             static_cast<uint64_t>(kMaxClaim)));
      for (int j = 0; j < take; ++j)
        envs[j] =
            queue_[static_cast<std::size_t>((c + static_cast<uint64_t>(j)) % static_cast<uint64_t>(n_))].load(
                std::memory_order_relaxed);
      if (claimed_.compare_exchange_weak(c, c + static_cast<uint64_t>(take), std::memory_order_acq_rel,
                                         std::memory_order_acquire))
        return take;
    }
  }

  bool run_queued() {
    int32_t envs[kMaxClaim];
    const int count = claim(envs);
    if (count == 0) return false;
    run(envs, count);
    return true;
  }

  void work() {
    for (;;) {
      work_bell_.wait(
          [&] { return stop_.load() || claimed_.load(std::memory_order_relaxed) < published_.load(); });
      if (stop_.load()) return;
      while (!stop_.load() && run_queued()) {
      }
    }
  }

  // Steps (or restarts) `count` claimed envs, each into the next row of the
  // ring (a restart: the row of its env id), then counts the rows written.
  void run(const int32_t* envs, int count) {
    int steps = 0;
    for (int j = 0; j < count; ++j) steps += action_[static_cast<std::size_t>(envs[j])] != kRestart;
    uint64_t next = steps ? alloc_.fetch_add(static_cast<uint64_t>(steps), std::memory_order_relaxed) : 0;
    bool block_done = false;
    std::size_t block = 0;
    int written = 0;  // rows of `block` not yet counted
    const auto count_rows = [&] {
      if (written && filled_[block].rows.fetch_add(written, std::memory_order_acq_rel) + written == k_)
        block_done = true;
      written = 0;
    };
    for (int j = 0; j < count; ++j) {
      const int32_t e = envs[j];
      const std::size_t r = run_one(e, next);
      if (r / static_cast<std::size_t>(k_) != block) count_rows();
      block = r / static_cast<std::size_t>(k_);
      ++written;
    }
    count_rows();
    const bool drained = completed_.fetch_add(static_cast<uint64_t>(count)) + static_cast<uint64_t>(count) ==
                         published_.load();
    if (block_done || drained) done_bell_.ring();
  }

  // Env e's step (its row: `next`, then advanced) or restart; returns the row.
  std::size_t run_one(int32_t e, uint64_t& next) {
    const auto env = static_cast<std::size_t>(e);
    const Action a = action_[env];
    uint64_t slot = static_cast<uint64_t>(e);  // a restart's row: env order
    if (a != kRestart) {
      slot = next++;
      // One batch is every env: its rows in env order, as the sync env's.
      if (k_ == n_) slot = slot - slot % static_cast<uint64_t>(k_) + static_cast<uint64_t>(e);
    }
    const std::size_t r = static_cast<std::size_t>(slot % static_cast<uint64_t>(rows_));
    const EnvRow row = row_at(r);
    try {
      if (a == kRestart) {
        games_.restart(e);
        games_.clear_outcome(row);
        std::fill_n(row.final_observations, static_cast<std::size_t>(players_) * obs_size_, 0.0f);
        *row.final_steps = 0;
        games_.observe(e, row, nullptr);
      } else {
        games_.step(e, a, row, nullptr);
      }
      ids_[r] = e;
      steps_[r] = games_.steps[env];
    } catch (...) {
      keep_failure();
    }
    return r;
  }

  EnvRow row_at(std::size_t r) {
    const std::size_t obs = static_cast<std::size_t>(obs_size_), p = static_cast<std::size_t>(players_);
    return {&obs_[r * obs],
            &mask_[r * static_cast<std::size_t>(actions_)],
            &current_[r],
            &rewards_[r * p],
            &terminated_[r],
            &truncated_[r],
            &final_obs_[r * p * obs],
            &final_steps_[r]};
  }

  void keep_failure() {
    const std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = std::current_exception();
    failed_.store(true);
  }
  void rethrow_failure() {
    if (!failed_.load()) return;
    const std::lock_guard<std::mutex> lock(error_mutex_);
    std::rethrow_exception(error_);
  }

  EnvGames<G> games_;
  const int n_, k_, players_, threads_, blocks_;
  const std::size_t rows_;  // blocks_ * k_: room for every env's result besides the batch held
  int obs_size_ = 0, actions_ = 0;

  // The ring of batches: row r holds env ids_[r]'s outcome.
  std::vector<int32_t> ids_, current_, steps_, final_steps_;
  std::vector<float> obs_, rewards_, final_obs_;
  std::vector<uint8_t> mask_, terminated_, truncated_;
  // Rows written, per block, on a cache line each (as the counters below).
  struct alignas(kCacheLine) Filled {
    std::atomic<int> rows{0};
  };
  std::unique_ptr<Filled[]> filled_;

  // Per env: its queued action (kRestart: a reset), the row it was last
  // received in, whether it awaits an action (2: seen in this send).
  std::vector<Action> action_;
  std::vector<int32_t> row_of_;
  std::vector<uint8_t> awaiting_;

  // The queue (env ids; published_ and claimed_ count entries ever), the rows
  // handed out, the tasks done.
  std::unique_ptr<std::atomic<int32_t>[]> queue_;
  alignas(kCacheLine) std::atomic<uint64_t> published_{0};
  alignas(kCacheLine) std::atomic<uint64_t> claimed_{0};
  alignas(kCacheLine) std::atomic<uint64_t> alloc_{0};
  alignas(kCacheLine) std::atomic<uint64_t> completed_{0};

  // The caller's side.
  uint64_t next_block_ = 0;  // the ring position of the next batch
  int block_ = -1;
  int awaiting_count_ = 0;

  std::atomic<bool> stop_{false}, failed_{false};
  std::mutex error_mutex_;
  std::exception_ptr error_;
  Doorbell work_bell_, done_bell_;
  std::vector<std::thread> workers_;
};

}  // namespace rocketgym
