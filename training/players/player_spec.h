// What sits at a seat: a player's spec, its name and its kind with that
// kind's settings (kinds.h: each kind is one file, kinds/<kind>.cpp, which
// reads, checks, names and writes back its part of a spec; player_spec.cpp
// reads and writes the rest, NAME= and the YAML mapping, the same for every
// kind). An agent's grammar is players::agent_grammar().
//
// Command line (and Python's rocketgym.load_agent, `rocketgym play --seats`):
//   [NAME=]AGENT, AGENT one of agent_grammar() (each kind's form: its row in
//   kinds/<kind>.cpp; `rocketgym describe --agent-kinds`, docs/agents.md).
//   NAME:  letters, digits and _ - . + # only; text before the first '=' that
//          is not such a name belongs to AGENT, so checkpoint:runs/lr=3e-4/x.ckpt
//          is a path (write ./a=b.ckpt for a file a=b.ckpt in this folder).
// YAML (configs/arena/*.yaml), one mapping per player: name, kind and the
// kind's keys (KindInfo::keys), e.g.
//   - {name: ppo, kind: checkpoint, path: runs/x/checkpoints/latest.ckpt, mode: greedy}
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "envs/core/agent_name.h"
#include "envs/core/config.h"
#include "envs/core/json.h"
#include "envs/core/quoted.h"
#include "models/policy_value_net.h"
#include "training/mcts/mcts.h"
#include "training/players/kinds.h"
// The kinds that other code names by their type (the zoo's: kinds/torch/zoo.h).
#include "training/players/kinds/heuristic.h"
#include "training/players/kinds/human.h"
#include "training/players/kinds/random.h"
#include "training/players/kinds/torch/checkpoint.h"
#include "training/players/kinds/torch/ismcts.h"
#include "training/players/kinds/torch/search.h"

namespace rocketgym {
struct LoadedCheckpoint;  // models/checkpoint.h
}  // namespace rocketgym

namespace rocketgym::players {

struct PlayerSpec {
  std::string name;  // empty until name_players()
  Kind kind = Random{};
  // The network, once resolve() loaded it (or set directly: the learner
  // under training, a snapshot of its pool).
  PolicyValueNet net{nullptr};

  template <class K>
  bool is() const {
    return kind.get_if<K>() != nullptr;
  }
  template <class K>
  const K* get_if() const {
    return kind.get_if<K>();
  }
  template <class K>
  K* get_if() {
    return kind.get_if<K>();
  }
  template <class K>
  const K& as() const {
    if (const K* k = get_if<K>()) return *k;
    throw Error("player " + quote(name) + " is not of the kind " + kind_name<K>());
  }
  template <class K>
  K& as() {
    if (K* k = get_if<K>()) return *k;
    throw Error("player " + quote(name) + " is not of the kind " + kind_name<K>());
  }
};

// The table resolve() readies a player for.
struct PlayerTable {
  std::string game_id;
  int num_players = 0;
  std::vector<int> observation_shape;
  int num_actions = 0;
  torch::Device device = torch::kCPU;
};

// --- reading, writing --------------------------------------------------------

// An agent's name: the rule of envs/core/agent_name.h (the records reader
// checks the names it reads by it too).
using rocketgym::is_agent_name;
using rocketgym::kAgentNameRule;
using rocketgym::kMaxAgentName;

PlayerSpec parse_player(const std::string& text);  // command-line form; throws ConfigError
PlayerSpec parse_player(const ConfigNode& node);   // YAML form; throws ConfigError
// The command-line form that parses back into `spec`. Throws Error for an
// ismcts player whose search options the short form cannot say (write YAML).
std::string to_string(const PlayerSpec& spec);
// The YAML mapping (flow style, one line) that parses back into `spec`.
std::string to_yaml(const PlayerSpec& spec);
// For report.json: name, kind, path, mode, simulations (the search a
// `search` spec stands for counts as ismcts, as it always did).
Json to_json(const PlayerSpec& spec);

// A player of kind K with the kind's defaults, named by its kind.
template <class K>
PlayerSpec default_player() {
  return PlayerSpec{kind_name<K>(), K{}, nullptr};
}

// "random", "checkpoint", ... as written in a spec (kinds.h).
std::string kind_name(const PlayerSpec& spec);
// The kind that plays: search specs play as ismcts (zoo: once resolved).
std::string playing_kind_name(const PlayerSpec& spec);

// Gives players without a name one from their kind, and makes names unique.
void name_players(std::vector<PlayerSpec>& players);

// A count typed in a command-line spec (words[k]), in the range the YAML key
// takes (the table in training/mcts/search_options.h); `label` names it in
// the message where the key is not its name. Throws ConfigError.
int read_count(const SpecWords& in, std::size_t k, const mcts::CountRange& range,
               const std::string& label = "");
// A path the operating system reads as written: a NUL (YAML's "\0" escape)
// would cut it short. Fails at the node's key.
void check_path(const ConfigNode& node, const char* key, const std::string& path);

// --- files, resolving ---------------------------------------------------------

// The checkpoint file the spec reads (nullptr: none, or a zoo bot, whose
// file each process finds itself). Writable so that a distributed arena can
// point it at a local copy.
std::string* checkpoint_file(PlayerSpec& spec);
// The game a spec plays without being told: a zoo bot's game, or the game its
// checkpoint was trained for (reads the file's metadata). Empty: no game.
std::string own_game(const PlayerSpec& spec);

// Turns a player into the player that plays in its place at a table of
// `num_players` (PlayerKind::plays_as: a zoo bot's agent, a search player's
// ismcts). Other players are left as they are.
void resolve_kind(PlayerSpec& spec, int num_players);
// resolve_kind(), then loads the network the player needs (unless `net` is
// already set) and checks it was trained for this game and player count.
// Throws ConfigError/CheckpointError/Error.
void resolve(PlayerSpec& spec, const std::string& game_id, int num_players,
             const std::vector<int>& observation_shape, int num_actions, torch::Device device);
// A network for `table`: loaded, checked against the game and player count
// (naming `path`) and set to evaluation mode.
LoadedCheckpoint load_for_table(const std::string& path, const PlayerTable& table);

// Whether the (resolved) player evaluates a network.
bool uses_network(const PlayerSpec& spec);

}  // namespace rocketgym::players
