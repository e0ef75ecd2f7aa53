// Arena agents: who picks the moves at a seat.
//
//   random     a uniformly random legal action
//   heuristic  the game's heuristic bot (G::heuristic_action)
//   checkpoint a trained network: greedy (most probable legal action) or
//              sample (draw from the masked policy)
//   ismcts     information-set MCTS (training/mcts) with random rollouts, or
//              with a checkpoint's priors and values as evaluator
//
// In YAML (configs/arena/*.yaml), one mapping per agent:
//   - {name: ppo, kind: checkpoint, path: runs/x/checkpoints/latest.ckpt, mode: greedy}
//   - {name: search, kind: ismcts, mcts: {simulations: 200}, checkpoint: ""}
// On the command line, `[name=]kind[:argument...]`:
//   random | heuristic | checkpoint:PATH[:greedy|:sample] | ismcts[:SIMULATIONS[:PATH]]
#pragma once

#include <string>
#include <vector>

#include "envs/core/config.h"
#include "models/policy_value_net.h"
#include "training/mcts/mcts.h"

namespace rocketgym::arena {

struct AgentSpec {
  std::string name;
  std::string kind;             // random | heuristic | checkpoint | ismcts
  std::string path;             // checkpoint: the file; ismcts: optional network evaluator
  bool greedy = true;           // checkpoint: greedy or sampled actions
  mcts::Options mcts;           // ismcts
  PolicyValueNet net{nullptr};  // set by the loader (or directly, e.g. the learner under training)

  bool uses_network() const { return kind == "checkpoint" || (kind == "ismcts" && (!path.empty() || net)); }
};

AgentSpec parse_agent(const std::string& text);  // command-line form; throws ConfigError
AgentSpec parse_agent(const ConfigNode& node);   // YAML form; throws ConfigError
// Gives agents without a name one from their kind, and makes names unique.
void name_agents(std::vector<AgentSpec>& agents);

}  // namespace rocketgym::arena
