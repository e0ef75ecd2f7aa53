// Helpers shared by the libFuzzer targets in tests/fuzz (see docs/fuzzing.md,
// "Fuzzing"): failing loudly with the input's context, hashing an input into a
// seed, and writing the generated seed corpus.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace rocketgym::fuzz {

// A finding: prints what broke (and the position, when there is one) and
// aborts, which libFuzzer reports as a crash and saves the input.
[[noreturn]] inline void fail(const std::string& what, const std::string& context = "") {
  std::fprintf(stderr, "\n== rocketgym fuzz failure: %s\n", what.c_str());
  if (!context.empty()) std::fprintf(stderr, "== position:\n%s\n", context.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void require(bool ok, const std::string& what, const std::string& context = "") {
  if (!ok) fail(what, context);
}

// FNV-1a: a seed taken from the whole input, so the same input always plays the same game.
inline uint64_t hash_bytes(const uint8_t* data, std::size_t size) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 0x100000001B3ULL;
  }
  return h;
}

// The folder named by ROCKETGYM_FUZZ_WRITE_SEEDS, or empty: when set, a
// target writes its seed corpus there (LLVMFuzzerInitialize) and exits.
inline std::string seed_folder() {
  const char* dir = std::getenv("ROCKETGYM_FUZZ_WRITE_SEEDS");
  return dir ? std::string(dir) : std::string();
}

inline void write_seed(const std::string& folder, const std::string& name, const std::string& bytes) {
  std::ofstream out(folder + "/" + name, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) fail("cannot write seed " + folder + "/" + name);
}

}  // namespace rocketgym::fuzz
