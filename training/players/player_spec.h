// What sits at a seat: the typed spec of a player, one alternative per kind
// with only that kind's fields. This file (with player_spec.cpp) is the one
// place that reads, checks, names and writes back a spec; nothing outside
// training/players/ looks at the kind. The kinds' names, command-line forms
// and help lines are listed once, in kinds.h (an agent's grammar is
// players::agent_grammar()).
//
//   random     a uniformly random legal action
//   heuristic  the game's heuristic bot (G::heuristic_action)
//   checkpoint a trained network: greedy (most probable legal action) or
//              sample (draw from the masked policy)
//   ismcts     information-set MCTS (training/mcts) with random playouts,
//              with heuristic playouts (`:heuristic`; half the prior on the
//              heuristic bot's move; `:heuristic:4` averages 4 playouts per
//              leaf; more search keys as `:KEY=VALUE`, e.g.
//              `ismcts:1600:heuristic:rollout_depth=8:c_puct=0.75`), or with a
//              checkpoint's priors and values as evaluator
//   search     a checkpoint's network with the gumbel-root search it was
//              trained with (search-based self-play), without noise: the
//              strongest way to play an AlphaZero-style checkpoint
//   zoo        the project's best bot for the game at the table size: a
//              network (models/zoo/<id>.ckpt), played by a search at the
//              simulations the file recommends for the table size or at the
//              simulations asked for (0: the raw network, greedy); or the
//              agent a zoo manifest (models/zoo/<id>.yaml, see
//              read_zoo_manifest) names for the size: that network, or an
//              agent that reads no file (a search over no network)
//
// Command line (and Python's rocketgym.load_agent, `rocketgym play --seats`):
//   [NAME=]AGENT
//   AGENT: random | heuristic | checkpoint:PATH[:greedy|:sample] | PATH.ckpt (= checkpoint:PATH.ckpt)
//          | ismcts[:SIMULATIONS[:PATH|:heuristic[:PLAYOUTS][:KEY=VALUE...]]] | search:PATH[:SIMULATIONS]
//          | zoo:GAME[:SIMULATIONS]
//   NAME:  letters, digits and _ - . + # only; text before the first '=' that
//          is not such a name belongs to AGENT, so checkpoint:runs/lr=3e-4/x.ckpt
//          is a path (write ./a=b.ckpt for a file a=b.ckpt in this folder).
//   GAME:  a game id (letters, digits, _), never a path.
//   SIMULATIONS and PLAYOUTS are in the ranges of the YAML keys simulations
//   and rollouts (mcts::kSimulationsRange, mcts::kRolloutsRange); a path may
//   not hold a NUL character. KEY=VALUE: any key of an ismcts agent's `mcts:`
//   block (mcts::search_keys()), read and refused as in YAML.
// YAML (configs/arena/*.yaml), one mapping per player:
//   - {name: ppo, kind: checkpoint, path: runs/x/checkpoints/latest.ckpt, mode: greedy}
//   - {name: search, kind: ismcts, mcts: {simulations: 200}, checkpoint: ""}
//   - {kind: search, path: ..., simulations: 64}
//   - {kind: zoo, game: last_blast, simulations: 0}
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/json.h"
#include "models/policy_value_net.h"
#include "training/mcts/mcts.h"
#include "training/players/kinds.h"

namespace rocketgym::players {

struct Random {};
struct Heuristic {};
struct Checkpoint {
  std::string path;
  bool greedy = true;  // false: sample from the masked policy
};
struct Ismcts {
  mcts::Options mcts;
  std::string network;  // a checkpoint as evaluator; empty: playouts (mcts.rollouts per leaf)
};
struct Search {
  static constexpr int kDefaultSimulations = 32;  // `search:PATH` without a count
  std::string path;
  int simulations = kDefaultSimulations;
};
struct Zoo {
  std::string game;
  int simulations = -1;  // -1: the zoo file's recommendation; 0: the raw network, greedy
};

// In KindId's order (kinds.h): kind.index() is the KindId of an agent.
using Kind = std::variant<Random, Heuristic, Checkpoint, Ismcts, Search, Zoo>;
static_assert(std::variant_size_v<Kind> == static_cast<std::size_t>(KindId::kHuman),
              "one alternative per agent kind of kinds.h, in KindId order");

struct PlayerSpec {
  std::string name;  // empty until name_players()
  Kind kind;
  // The network, once resolve() loaded it (or set directly: the learner
  // under training, a snapshot of its pool).
  PolicyValueNet net{nullptr};

  KindId kind_id() const { return static_cast<KindId>(kind.index()); }
  template <class K>
  bool is() const {
    return std::holds_alternative<K>(kind);
  }
  template <class K>
  const K& as() const {
    return std::get<K>(kind);
  }
  template <class K>
  K& as() {
    return std::get<K>(kind);
  }
};

// --- reading, writing --------------------------------------------------------

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

// A player of kind `id` with the kind's defaults, named by its kind (for
// random, heuristic and ismcts; the other kinds need a file or a game).
// Throws Error for the human, who is no agent.
PlayerSpec default_player(KindId id);

// "random", "checkpoint", ... as written in a spec (kinds.h).
std::string kind_name(const PlayerSpec& spec);
// The kind that plays: search specs play as ismcts (zoo: once resolved).
std::string playing_kind_name(const PlayerSpec& spec);

// Gives players without a name one from their kind, and makes names unique.
void name_players(std::vector<PlayerSpec>& players);

// --- files (player_files.cpp) ------------------------------------------------------

// `id` when it names a game of this build by its id (letters, digits, '_';
// never a path, which would make zoo_path() read outside the zoo folder), as
// a zoo bot is named. Throws ConfigError naming it.
const std::string& checked_zoo_id(const std::string& id);
// The file that is a game's zoo bot, in $ROCKETGYM_ZOO_DIR, else in
// models/zoo/ of the source tree (the first folder holding <id>.ckpt or
// <id>.yaml): <id>.yaml when the folder holds it (a manifest, which may name
// the <id>.ckpt beside it), else <id>.ckpt. Throws Error naming where it looked.
std::string zoo_path(const std::string& game_id);
// Whether a zoo file is a manifest (<id>.yaml) rather than a checkpoint.
bool is_zoo_manifest(const std::string& path);

// A zoo manifest: the agent a game's zoo bot plays per table size, e.g.
// models/zoo/last_blast.yaml (its network wins at 2 players, a search over
// no network at 3 and 4):
//   game: last_blast
//   players:
//     2: network
//     3: ismcts:200:heuristic:4
//     4: {kind: ismcts, mcts: {simulations: 200, rollout_policy: heuristic, rollouts: 4}}
// An agent is the word `network`, the <id>.ckpt beside the manifest played
// as a network zoo bot is (at the simulations its metadata recommends for the
// size), or a command-line spec or YAML agent mapping of a kind that reads no
// file (random, heuristic, ismcts without a checkpoint), without a name.
// `game` must be the file's own id. The network must serve each size the
// manifest names it for, and a manifest with a <id>.ckpt beside it must name
// it (else the file would lie there unplayed).
struct ZooManifest {
  std::string game;
  // By table size, ascending; `network` is already the player it stands for
  // (Checkpoint at 0 recommended simulations, else Search).
  std::vector<std::pair<int, PlayerSpec>> players;
  std::string network;  // the <id>.ckpt beside the manifest when it names `network`; else empty
};
// Throws ConfigError naming the file and key (reads the network's metadata).
ZooManifest read_zoo_manifest(const std::string& path, const std::string& game_id);
// The table sizes a game's zoo bot serves: its manifest's, or its network's
// (CheckpointMeta::served_players). Reads the files; throws as they do.
std::vector<int> zoo_served_players(const std::string& game_id);
// The checkpoint file the spec reads (nullptr: none, or a zoo bot, whose
// file each process finds itself). Writable so that a distributed arena can
// point it at a local copy.
std::string* checkpoint_file(PlayerSpec& spec);
// The game a spec plays without being told: a zoo bot's game, or the game its
// checkpoint was trained for (reads the file's metadata). Empty: no game.
std::string own_game(const PlayerSpec& spec);

// Search options for playing a search-trained network: gumbel root, no noise.
mcts::Options play_search_options(int simulations);

// The player a zoo bot stands for at a table of `num_players`, before a
// search player becomes ismcts: its network's checkpoint or search player
// (reading the file's metadata for its recommended simulations) or its
// manifest's agent for that size, at the simulations asked for if any.
Kind zoo_agent(const Zoo& zoo, int num_players);
// Turns a zoo player into the player it stands for (zoo_agent) and a search
// player into the ismcts player it is. Other players are left as they are.
void resolve_kind(PlayerSpec& spec, int num_players);
// resolve_kind(), then loads the network the player needs (unless `net` is
// already set) and checks it was trained for this game and player count.
// Throws ConfigError/CheckpointError/Error.
void resolve(PlayerSpec& spec, const std::string& game_id, int num_players,
             const std::vector<int>& observation_shape, int num_actions, torch::Device device);

// Whether the (resolved) player evaluates a network.
bool uses_network(const PlayerSpec& spec);

}  // namespace rocketgym::players
