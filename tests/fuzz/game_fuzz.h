// The game fuzz targets' shared code (game_fuzz.cpp, compiled once) and what sets one
// target apart (game_fuzz_target.cpp, compiled once per target with its macros).
#pragma once
#include <cstddef>
#include <cstdint>

namespace rocketgym::fuzz {

// Which game a target plays, and how (the kinds are described in game_fuzz.cpp).
struct GameTarget {
  const char* game;         // a game id, e.g. "launch_pad"
  bool actions;             // false: <game>_position; true: <game>_actions(_fast)
  bool check_every_action;  // false: <game>_actions_fast
};
extern const GameTarget kGameTarget;  // defined by game_fuzz_target.cpp

int initialize();                                           // LLVMFuzzerInitialize
int test_one_input(const uint8_t* data, std::size_t size);  // LLVMFuzzerTestOneInput
// The position targets' JSON mutation (json_mutator.h): the new size, or 0 where it
// made nothing that fits max_size.
std::size_t mutate_position(uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed);

}  // namespace rocketgym::fuzz
