// Interrupt: lets the caller of long C++ work (an arena, an opponent env's
// step) stop it early, as Python's Ctrl-C does (python/src/signal_poll.h).
//
// The work polls it between batches: a round of moves (the arena, the
// opponent env's rounds), a search (a search player's decisions), a batch of
// search leaves. Nothing is cut in the middle of a search or a forward pass,
// so a stop is seen within one of those. Polling calls the caller's function
// only on the thread that armed the Interrupt (Python runs signal handlers
// on its main thread only, and it is the thread an OpenMP loop started from
// runs as thread 0); the other threads read what that thread found. Once a
// stop is seen, requested() stays true until the next arm().
//
//   players::Interrupt interrupt([] { return stop_was_asked(); });
//   interrupt.arm();            // on the thread that runs the work, before it
//   ... interrupt.check();      // between batches: throws Interrupted
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <thread>
#include <utility>

namespace rocketgym::players {

// Thrown where the work stops on request. Whoever armed the Interrupt knows
// why (the Python exception a signal handler raised, kept by its poll).
struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};

class Interrupt {
 public:
  // `poll`: true when the work should stop; called on the armed thread only.
  explicit Interrupt(std::function<bool()> poll) : poll_(std::move(poll)) {}
  Interrupt(const Interrupt&) = delete;
  Interrupt& operator=(const Interrupt&) = delete;

  // Before a call that may poll: this thread polls, no stop seen yet.
  void arm() {
    owner_ = std::this_thread::get_id();
    stopped_.store(false, std::memory_order_relaxed);
  }

  // Whether the work should stop; on the armed thread, polls first. Safe
  // from any thread of a parallel loop.
  bool requested() {
    if (!stopped_.load(std::memory_order_relaxed) && std::this_thread::get_id() == owner_ && poll_())
      stopped_.store(true, std::memory_order_relaxed);
    return stopped_.load(std::memory_order_relaxed);
  }

  // Throws Interrupted when requested(); not inside a parallel loop.
  void check() {
    if (requested()) throw Interrupted();
  }

 private:
  std::function<bool()> poll_;
  std::thread::id owner_;
  std::atomic<bool> stopped_{false};
};

// The check a loop makes where an Interrupt is optional.
inline bool stop_requested(Interrupt* interrupt) { return interrupt != nullptr && interrupt->requested(); }

}  // namespace rocketgym::players
