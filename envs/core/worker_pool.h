// Threads for the vector envs that survive a busy machine (issue 56).
//
// An OpenMP loop ends with a barrier: every thread of the team must arrive,
// and a thread the kernel has descheduled (a second process of the same
// priority on the core) holds all the others until it runs again, while they
// spin and take the core it needs. The vector envs therefore use their own
// threads, and no thread ever waits for another one to arrive:
//
// - WorkerPool::run(n, body) (the sync VectorEnv's step): thread t first works
//   through its own share of [0, n) (the static split, so an env stays on one
//   core while the machine is quiet), a few indices per claim, then takes what
//   is left of the other shares. The caller is thread 0; a worker that wakes up
//   late finds the work done and goes back to sleep, and run() returns as soon
//   as every claimed index is done, without waiting for the workers to arrive.
// - Every wait (a worker waiting for work, the caller for the last claimed
//   indices) spins briefly and then sleeps (Doorbell), so that a descheduled
//   thread gets the core back.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "envs/core/errors.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rocketgym {

// Bytes of a cache line: atomics that different threads write each sit on
// one of their own, so that a write by one thread does not take the line
// holding another's.
inline constexpr std::size_t kCacheLine = 64;

inline void cpu_relax() {
#if defined(__SSE2__)
  _mm_pause();
#endif
}

// A wait that spins for a few microseconds (the next job of a busy loop
// comes that soon), then sleeps until ring(). A longer spin takes the core
// from the very thread that would end the wait when the machine is busy
// (issue 56, Rocket Squad's vector env on a busy machine: two threads took
// about 1.25x the CPU per step of one with 20 us, 1.1-1.2x with 5 us or
// none). ring() costs a fence and one atomic load while nobody sleeps; the
// condition must be made true (an atomic write) before ring() is called.
class Doorbell {
 public:
  static constexpr std::chrono::microseconds kSpin{5};

  template <class Ready>
  void wait(Ready ready) {
    if (ready()) return;
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (int i = 1;; ++i) {
      cpu_relax();
      if (ready()) return;
      if (i % 64 == 0 && std::chrono::steady_clock::now() > until) break;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    changed_.wait(lock, ready);
    sleepers_.fetch_sub(1);
  }

  void ring() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (sleepers_.load() == 0) return;
    { const std::lock_guard<std::mutex> lock(mutex_); }  // a sleeper is inside wait(), not between
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::atomic<int> sleepers_{0};
};

class WorkerPool {
 public:
  // The largest n of run(): an index is packed into 21 bits of a claim.
  static constexpr int kMaxItems = (1 << 20) - 1;

  // `threads` - 1 worker threads; the caller of run() is thread 0.
  // Tests only: start = false leaves the workers unstarted until
  // start_workers(), as if the kernel never ran them.
  explicit WorkerPool(int threads, bool start = true)
      : shares_(static_cast<std::size_t>(std::max(1, threads))) {
    if (start) start_workers();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() { stop_workers(); }

  int threads() const { return static_cast<int>(shares_.size()); }

  void start_workers() {
    if (!workers_.empty()) return;
    try {
      for (int t = 1; t < threads(); ++t) workers_.emplace_back([this, t] { work(t); });
    } catch (...) {
      stop_workers();  // the threads already started
      throw;
    }
  }

  // body(i) for every i in [0, n), on the caller and the workers. An exception
  // of body does not stop the others; the one of the lowest index is rethrown
  // here once all are done (as parallel_for does).
  template <class F>
  void run(int n, F&& body) {
    if (n <= 0) return;
    if (n > kMaxItems)
      throw Error("WorkerPool::run: " + std::to_string(n) + " items, at most " + std::to_string(kMaxItems));
    if (threads() == 1) return run_here(n, body);
    using Body = std::remove_reference_t<F>;
    call_ = [](void* ctx, int begin, int end, WorkerPool& pool) {
      for (int i = begin; i < end; ++i) {
        try {
          (*static_cast<Body*>(ctx))(i);
        } catch (...) {
          pool.keep_error(i);
        }
      }
    };
    ctx_ = const_cast<void*>(static_cast<const void*>(&body));
    n_ = n;
    done_.store(0, std::memory_order_relaxed);
    const uint64_t job = (job_.load(std::memory_order_relaxed) + 1) & kJobMask;
    const int t = threads();
    for (int s = 0; s < t; ++s)
      shares_[static_cast<std::size_t>(s)].claim.store(pack(job, n * s / t, n * (s + 1) / t));
    job_.store(job);
    if (t > 1) work_bell_.ring();
    claim_all(job, 0);
    done_bell_.wait([&] { return done_.load(std::memory_order_acquire) == n_; });
    rethrow_kept_error();
  }

 private:
  // A share's claim word: the job (high 22 bits), the share's end and its
  // next unclaimed index (21 bits each). The job tells a worker that woke up
  // late that the share belongs to a later run.
  static constexpr uint64_t kIndexMask = (1ULL << 21) - 1;
  static constexpr uint64_t kJobMask = (1ULL << 22) - 1;
  static uint64_t pack(uint64_t job, int next, int end) {
    return job << 42 | static_cast<uint64_t>(end) << 21 | static_cast<uint64_t>(next);
  }
  struct alignas(kCacheLine) Share {
    std::atomic<uint64_t> claim{0};
  };

  void stop_workers() {
    stop_.store(true);
    work_bell_.ring();
    for (std::thread& w : workers_) w.join();
    workers_.clear();
  }

  void work(int t) {
    uint64_t seen = 0;
    for (;;) {
      work_bell_.wait([&] { return stop_.load() || job_.load() != seen; });
      if (stop_.load()) return;
      seen = job_.load();
      claim_all(seen, t);
    }
  }

  // Thread t's own share first, then the others', a few indices per claim.
  void claim_all(uint64_t job, int t) {
    const int shares = threads();
    for (int k = 0; k < shares; ++k) {
      std::atomic<uint64_t>& claim = shares_[static_cast<std::size_t>((t + k) % shares)].claim;
      uint64_t word = claim.load(std::memory_order_relaxed);
      for (;;) {
        if (word >> 42 != job) break;  // a later run's share: this run is over
        const int next = static_cast<int>(word & kIndexMask);
        const int end = static_cast<int>((word >> 21) & kIndexMask);
        if (next >= end) break;
        // A quarter of what is left, at most 8: small claims near the end, so
        // that a thread descheduled with one in hand delays the others little.
        const int take = std::clamp((end - next) / 4, 1, 8);
        if (!claim.compare_exchange_weak(word, word + static_cast<uint64_t>(take), std::memory_order_acquire,
                                         std::memory_order_relaxed))
          continue;
        // The claim keeps this run alive (done_ < n_), so its body is still call_/ctx_.
        const int n = n_;
        call_(ctx_, next, next + take, *this);
        if (done_.fetch_add(take) + take == n) done_bell_.ring();  // the run may end here
        word = claim.load(std::memory_order_relaxed);
      }
    }
  }

  template <class F>
  void run_here(int n, F& body) {
    for (int i = 0; i < n; ++i) {
      try {
        body(i);
      } catch (...) {
        keep_error(i);
      }
    }
    rethrow_kept_error();
  }

  void rethrow_kept_error() {
    if (!error_) return;
    std::exception_ptr e = std::move(error_);
    error_ = nullptr;
    error_index_ = kMaxItems + 1;
    std::rethrow_exception(e);
  }

  void keep_error(int i) {
    const std::lock_guard<std::mutex> lock(error_mutex_);
    if (i < error_index_) {
      error_index_ = i;
      error_ = std::current_exception();
    }
  }

  std::vector<Share> shares_;
  std::vector<std::thread> workers_;
  std::atomic<uint64_t> job_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int> done_{0};
  void (*call_)(void*, int, int, WorkerPool&) = nullptr;
  void* ctx_ = nullptr;
  int n_ = 0;
  Doorbell work_bell_, done_bell_;
  std::mutex error_mutex_;
  std::exception_ptr error_;
  int error_index_ = kMaxItems + 1;
};

}  // namespace rocketgym
