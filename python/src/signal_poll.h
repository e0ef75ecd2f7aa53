// Ctrl-C in C++ work that runs without the GIL (rg.arena, an opponent env's
// step and reset): Python runs its signal handlers only when the
// interpreter gets to it, which it does not while C++ plays, so the work
// polls a players::Interrupt (training/players/interrupt.h) whose poll takes
// the GIL and runs the pending handlers (PyErr_CheckSignals). A handler that
// raises (KeyboardInterrupt, from Python's default SIGINT handler) stops the
// work: the exception is kept here and raised once the work has stopped. A
// Python agent interrupted in its own code (its KeyboardInterrupt) stops the
// work the same way (python_player.h keeps it here).
//
// The handlers run on Python's main thread only, so the work polls only
// when it was started from that thread (arm() notes it): elsewhere it never
// takes the GIL for nothing.
//
// For tests, rocketgym._agents._raise_sigint_at_poll(n) makes the n-th poll
// from then on raise SIGINT itself just before it checks, as a Ctrl-C
// arriving at that point of the work would (a fixed count, not a timer).
//
//   SignalPoll signals;              // its interrupt() goes to the players
//   signals.arm();                   // GIL held, before releasing it
//   try { ...work... } catch (const players::Interrupted&) { signals.raise_kept(); }
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <csignal>
#include <optional>

#include "envs/core/errors.h"
#include "training/players/interrupt.h"

namespace rocketgym::python {

namespace py = pybind11;

// The test hook's countdown (see above): 0, off.
inline std::atomic<long> polls_until_sigint{0};

class SignalPoll {
 public:
  SignalPoll() : interrupt_([this] { return poll(); }) {}
  SignalPoll(const SignalPoll&) = delete;
  SignalPoll& operator=(const SignalPoll&) = delete;

  players::Interrupt* interrupt() { return &interrupt_; }

  // Before the work, on the thread that runs it (GIL held).
  void arm() {
    kept_.reset();
    main_thread_ = PyThread_get_thread_ident() == python_main_thread();
    interrupt_.arm();
  }

  // Keeps `error` (GIL held), a Python exception that stops the work (the
  // caller then throws players::Interrupted).
  void keep(py::error_already_set&& error) {
    if (!kept_) kept_.emplace(std::move(error));
  }

  // Whether a stop is waiting to be raised.
  bool has_kept() const { return kept_.has_value(); }

  // Raises the kept exception (GIL held); an Error if none was kept.
  [[noreturn]] void raise_kept() {
    if (!kept_) throw Error("the work was interrupted without an exception to raise");
    py::error_already_set error = std::move(*kept_);
    kept_.reset();
    throw error;
  }

 private:
  // GIL released: runs the pending signal handlers (on the main thread).
  bool poll() {
    if (!main_thread_) return false;
    long left = polls_until_sigint.load();
    if (left > 0 && polls_until_sigint.compare_exchange_strong(left, left - 1) && left == 1)
      std::raise(SIGINT);
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() == 0) return false;
    kept_.emplace();  // fetches the handler's exception
    return true;
  }

  // Python's main thread, where signal handlers run (GIL held).
  static unsigned long python_main_thread() {
    static const auto ident =
        py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
    return ident;
  }

  players::Interrupt interrupt_;
  std::optional<py::error_already_set> kept_;
  bool main_thread_ = false;  // armed on Python's main thread
};

}  // namespace rocketgym::python
