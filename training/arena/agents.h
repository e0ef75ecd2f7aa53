// Arena agents: who picks the moves at a seat.
//
//   random     a uniformly random legal action
//   heuristic  the game's heuristic bot (G::heuristic_action)
//   checkpoint a trained network: greedy (most probable legal action) or
//              sample (draw from the masked policy)
//   ismcts     information-set MCTS (training/mcts) with random rollouts,
//              with heuristic playouts (`:heuristic`; half the prior on the
//              heuristic bot's move; `:heuristic:4` averages 4 playouts per
//              leaf), or with a checkpoint's priors and values as evaluator
//   search     a checkpoint's network with the gumbel-root search it was
//              trained with (search-based self-play), without noise: the
//              strongest way to play an AlphaZero-style checkpoint
//   zoo        the project's trained bot for the game (models/zoo/<id>.ckpt):
//              a search agent at the simulations the zoo file recommends, or
//              at the simulations asked for (0: the raw network, greedy)
//
// In YAML (configs/arena/*.yaml), one mapping per agent:
//   - {name: ppo, kind: checkpoint, path: runs/x/checkpoints/latest.ckpt, mode: greedy}
//   - {name: search, kind: ismcts, mcts: {simulations: 200}, checkpoint: ""}
// On the command line (and in Python's rocketgym.load_agent), `[NAME=]AGENT`:
//   AGENT: random | heuristic | checkpoint:PATH[:greedy|:sample] | PATH.ckpt (= checkpoint:PATH.ckpt)
//          | ismcts[:SIMULATIONS[:PATH|:heuristic[:PLAYOUTS]]] | search:PATH[:SIMULATIONS]
//          | zoo:GAME[:SIMULATIONS]
//   NAME:  letters, digits and _ - . + # only; text before the first '=' that
//          is not such a name belongs to AGENT, so checkpoint:runs/lr=3e-4/x.ckpt
//          is a path (write ./a=b.ckpt for a file a=b.ckpt in this folder).
//   GAME:  a game id (letters, digits, _), never a path.
//   SIMULATIONS and PLAYOUTS are in the ranges of the YAML keys simulations
//   and rollouts (mcts::kSimulationsRange, mcts::kRolloutsRange); a path may
//   not hold a NUL character.
// and in YAML {kind: search, path: ..., simulations: 64}, {kind: zoo, game: last_blast}.
#pragma once

#include <string>
#include <vector>

#include "envs/core/config.h"
#include "models/policy_value_net.h"
#include "training/mcts/mcts.h"

namespace rocketgym::arena {

struct AgentSpec {
  std::string name;
  std::string kind;             // random | heuristic | checkpoint | ismcts | zoo (resolved on loading)
  std::string path;             // checkpoint: the file; ismcts: optional network evaluator
  bool greedy = true;           // checkpoint: greedy or sampled actions
  mcts::Options mcts;           // ismcts
  PolicyValueNet net{nullptr};  // set by the loader (or directly, e.g. the learner under training)
  std::string zoo_game;         // zoo: the game whose zoo bot this is
  int zoo_simulations = -1;     // zoo: simulations asked for (-1: the zoo file's recommendation)

  bool uses_network() const {
    return kind == "checkpoint" || kind == "zoo" || (kind == "ismcts" && (!path.empty() || net));
  }
};

// The file of a game's zoo bot: $ROCKETGYM_ZOO_DIR/<id>.ckpt, else
// models/zoo/<id>.ckpt of the source tree. Throws Error naming where it looked.
std::string zoo_path(const std::string& game_id);

// Search options for playing a search-trained network: gumbel root, no noise.
mcts::Options play_search_options(int simulations);

// Turns a zoo agent into the checkpoint or search agent it stands for (reads
// the zoo file's metadata for its recommended simulations). Other agents are
// left as they are.
void resolve_zoo(AgentSpec& agent);

AgentSpec parse_agent(const std::string& text);  // command-line form; throws ConfigError
AgentSpec parse_agent(const ConfigNode& node);   // YAML form; throws ConfigError
// Gives agents without a name one from their kind, and makes names unique.
void name_agents(std::vector<AgentSpec>& agents);

}  // namespace rocketgym::arena
