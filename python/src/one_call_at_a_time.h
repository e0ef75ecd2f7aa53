// A batched env used by one call at a time. The GIL is released while an env
// steps, so a second Python thread (or a Python opponent stepping the env it
// plays in) could enter it and race inside C++: that call gets an exception
// instead. Header-only because each Python module compiles its own copy.
#pragma once

#include <mutex>

namespace rocketgym::python {

// Holds `busy` for the scope, or throws Busy(message) if another call holds it.
template <class Busy>
class OneCallAtATime {
 public:
  OneCallAtATime(std::mutex& busy, const char* message) : lock_(busy, std::try_to_lock) {
    if (!lock_.owns_lock()) throw Busy(message);
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace rocketgym::python
