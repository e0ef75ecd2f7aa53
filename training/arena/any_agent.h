// One agent acting on type-erased states, one decision at a time: the seats of
// `rocketgym play` and Python's rg.load_agent. The arena (arena.h) plays the
// same agents many games at once; this is the single-game form.
//
//   auto game = load_game("last_blast");
//   auto agent = arena::make_agent(arena::parse_agent("zoo:last_blast"), *game, 2);
//   Action a = agent->act(*state, seed);
#pragma once

#include <torch/torch.h>

#include <memory>
#include <string>

#include "envs/core/game.h"
#include "training/arena/agents.h"

namespace rocketgym::arena {

// Threads: act() and evaluate() may be called on one agent from several
// threads at once; the calls take turns (an agent has one set of network
// buffers and one search tree). For moves in parallel, load one agent per
// thread.
class AnyAgent {
 public:
  virtual ~AnyAgent() = default;
  virtual const AgentSpec& spec() const = 0;
  // The move of the player to move in `state` (a state of the agent's game,
  // not over). `seed` drives the agent's randomness: sampling, search, ties.
  virtual Action act(const AnyState& state, uint64_t seed) = 0;
  // Network agents: masked policy probabilities [count, num_actions] and
  // value per seat, relative to the player each row was encoded for
  // [count, num_players], for rows of encoder observations and legal masks.
  // Throws Error for an agent without a network.
  virtual void evaluate(const float* observations, const uint8_t* masks, int count, float* probabilities,
                        float* values) = 0;
  virtual int num_players() const = 0;
};

// Loads the agent's network (if any), checks it against the game and player
// count, and returns the agent. Throws ConfigError/CheckpointError/Error.
std::unique_ptr<AnyAgent> make_agent(AgentSpec spec, const AnyGame& game, int num_players,
                                     torch::Device device = torch::kCPU);

}  // namespace rocketgym::arena
