// A small, copyable random number generator (xoshiro256**), stored inside each
// game state so that a state and its chance events form one value.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

namespace rocketgym {

inline uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Derives an independent seed from a base seed and an index (env number,
// episode number, simulation number...). Documented so that any single game
// of a vector env can be replayed alone.
inline uint64_t derive_seed(uint64_t base, uint64_t index) {
  uint64_t x = base ^ (index * 0xD1B54A32D192ED03ULL);
  splitmix64(x);
  return splitmix64(x);
}

class Rng {
 public:
  using State = std::array<uint64_t, 4>;

  explicit Rng(uint64_t seed = 0) { reseed(seed); }

  void reseed(uint64_t seed) {
    for (auto& word : s_) word = splitmix64(seed);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), without modulo bias (Lemire's method). n > 0.
  uint32_t below(uint32_t n) {
    uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n;
    auto low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

  // Uniform integer in [lo, hi], inclusive.
  int uniform_int(int lo, int hi) { return lo + static_cast<int>(below(static_cast<uint32_t>(hi - lo + 1))); }

  // Uniform double in [0, 1).
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  template <class It>
  void shuffle(It first, It last) {
    const auto n = last - first;
    for (auto i = n - 1; i > 0; --i) {
      const auto j = below(static_cast<uint32_t>(i + 1));
      using std::swap;
      swap(first[i], first[j]);
    }
  }

  const State& state() const { return s_; }
  void set_state(const State& s) { s_ = s; }
  bool operator==(const Rng& o) const { return s_ == o.s_; }
  bool operator!=(const Rng& o) const { return !(*this == o); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  State s_{};
};

}  // namespace rocketgym
