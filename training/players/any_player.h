// One player acting on type-erased states, one decision at a time: the seats
// of `rocketgym play` and Python's rg.load_agent. A thin shell around the
// Player<G> of the spec (player.h), asked for a batch of one.
//
//   auto game = load_game("last_blast");
//   auto player = players::make_any_player(players::parse_player("zoo:last_blast"), *game, 2);
//   Action a = player->act(*state, seed);
#pragma once

#include <torch/torch.h>

#include <memory>
#include <string>

#include "envs/core/game.h"
#include "training/players/player_spec.h"

namespace rocketgym::players {

// Threads: act() and evaluate() may be called on one player from several
// threads at once; the calls take turns (a player has one set of network
// buffers and one search tree). For moves in parallel, load one player per
// thread.
class AnyPlayer {
 public:
  virtual ~AnyPlayer() = default;
  // The resolved spec (a zoo bot shows the checkpoint or search it plays as).
  virtual const PlayerSpec& spec() const = 0;
  // The move of the player to move in `state` (a state of the player's game,
  // not over). `seed` drives the player's randomness: sampling, search, ties.
  virtual Action act(const AnyState& state, uint64_t seed) = 0;
  // Network players: masked policy probabilities [count, num_actions] and
  // value per seat, relative to the player each row was encoded for
  // [count, num_players], for rows of encoder observations and legal masks.
  // Throws Error for a player without a network.
  virtual void evaluate(const float* observations, const uint8_t* masks, int count, float* probabilities,
                        float* values) = 0;
  virtual int num_players() const = 0;
};

// Names the player, resolves it (loads its network, checked against the
// game and player count) and returns it. Throws ConfigError/CheckpointError/Error.
std::unique_ptr<AnyPlayer> make_any_player(PlayerSpec spec, const AnyGame& game, int num_players,
                                           torch::Device device = torch::kCPU);

}  // namespace rocketgym::players
