// One game fuzz target: its game and kind from the macros tests/fuzz/CMakeLists.txt sets,
// and libFuzzer's entry points, which call game_fuzz.cpp (compiled once for all targets).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/game_fuzz.h"

#ifndef ROCKETGYM_FUZZ_GAME
#error "ROCKETGYM_FUZZ_GAME must name the game (tests/fuzz/CMakeLists.txt sets it)"
#endif
#ifndef ROCKETGYM_FUZZ_ACTIONS
#error "ROCKETGYM_FUZZ_ACTIONS must be 0 (position target) or 1 (actions target)"
#endif
#ifndef ROCKETGYM_FUZZ_EVERY_ACTION
#define ROCKETGYM_FUZZ_EVERY_ACTION 1
#endif

const rocketgym::fuzz::GameTarget rocketgym::fuzz::kGameTarget{
    ROCKETGYM_FUZZ_GAME, ROCKETGYM_FUZZ_ACTIONS != 0, ROCKETGYM_FUZZ_EVERY_ACTION != 0};

extern "C" int LLVMFuzzerInitialize(int*, char***) { return rocketgym::fuzz::initialize(); }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  return rocketgym::fuzz::test_one_input(data, size);
}

#if ROCKETGYM_FUZZ_LIBFUZZER && !ROCKETGYM_FUZZ_ACTIONS
extern "C" std::size_t LLVMFuzzerMutate(uint8_t* data, std::size_t size, std::size_t max_size);

// The position targets: half the mutations edit the document as JSON
// (json_mutator.h: one field wrong, the rest well-formed), half its bytes
// (libFuzzer's own mutations, with the dictionary).
extern "C" std::size_t LLVMFuzzerCustomMutator(uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  if (seed % 2 == 0) {
    const std::size_t mutated = rocketgym::fuzz::mutate_position(data, size, max_size, seed / 2);
    if (mutated != 0) return mutated;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif
