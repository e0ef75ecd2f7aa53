// Errors every part of rocketgym throws. Each one leaves the object it was
// thrown from unchanged, so callers can report the message and carry on.
#pragma once

#include <stdexcept>
#include <string>

namespace rocketgym {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An action that is out of range or not legal in the current state.
struct IllegalAction : Error {
  using Error::Error;
};

// A malformed or invalid configuration (YAML file, override or value).
struct ConfigError : Error {
  using Error::Error;
};

// A state document (JSON) that cannot be loaded.
struct SerializationError : Error {
  using Error::Error;
};

// A broken game invariant, found by check_invariants(): a bug in the engine.
struct InvariantViolation : std::logic_error {
  using std::logic_error::logic_error;
};

}  // namespace rocketgym
