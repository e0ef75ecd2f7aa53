// The range of a seed, wherever one is given: `play`/`bench`/`train`/`arena`
// --seed, run.seed and an arena config's seed, Python's seed arguments and
// the table server's "seed". Every consumer takes 64 bits: a game's
// new_state, derive_seed (envs/core/rng.h), the per-rank, per-game and
// per-move seeds derived from a run's or an arena's seed, and LibTorch's
// generators. (run.seed and the arena's seed were once read as an int, hence
// their old limits of 2^31 - 1 and 2,000,000,000; values below those give the
// same games as before.)
#pragma once

#include <cstdint>
#include <limits>

namespace rocketgym {

inline constexpr uint64_t kMaxSeed = std::numeric_limits<uint64_t>::max();

}  // namespace rocketgym
