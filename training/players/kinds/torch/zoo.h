// The zoo kind: the project's best bot for a game at a table size, and the
// zoo's files it reads (zoo.cpp).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "training/players/player_spec.h"

namespace rocketgym::players {

class Zoo final : public KindOf<Zoo> {
 public:
  static const KindInfo& row();
  Zoo(std::string game = "", int simulations = -1)  // NOLINT
      : game(std::move(game)), simulations(simulations) {}

  std::string game;
  int simulations = -1;  // -1: the zoo file's recommendation; 0: the raw network, greedy

  std::unique_ptr<PlayerKind> read_text(const SpecWords& in) const override;
  std::unique_ptr<PlayerKind> read_yaml(const ConfigNode& node) const override;
  std::string at_table(const std::string& game_id) const override;
  std::string text() const override;
  void write_yaml(YAML::Node& mapping) const override;
  std::string default_name() const override;
  std::string own_game() const override;
  bool needs_network() const override;
  void prepare(PlayerSpec& spec, const PlayerTable& table) const override;
  std::unique_ptr<PlayerKind> plays_as(int num_players) const override;
};

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
// size); a search over that network with settings of its own,
//     {kind: ismcts, checkpoint: network, mcts: {simulations: 200, ...}}
// (the network's priors, and values mixed with heuristic playouts, say); or
// a command-line spec or YAML agent mapping of a kind that reads no file
// (random, heuristic, ismcts without a checkpoint), without a name.
// `game` must be the file's own id. The network must serve each size the
// manifest names it for, and a manifest with a <id>.ckpt beside it must name
// it (else the file would lie there unplayed).
struct ZooManifest {
  std::string game;
  // By table size, ascending; `network` is already the player it stands for
  // (Checkpoint at 0 recommended simulations, else Search), and a search
  // over `network` names the network's path.
  std::vector<std::pair<int, PlayerSpec>> players;
  std::string network;  // the <id>.ckpt beside the manifest when it names `network`, as an agent or a
                        // search's checkpoint; else empty
};
// Throws ConfigError naming the file and key (reads the network's metadata).
ZooManifest read_zoo_manifest(const std::string& path, const std::string& game_id);
// The table sizes a game's zoo bot serves: its manifest's, or its network's
// (CheckpointMeta::served_players). Reads the files; throws as they do.
std::vector<int> zoo_served_players(const std::string& game_id);

// The player a zoo bot stands for at a table of `num_players`, before a
// search player becomes ismcts: its network's checkpoint or search player
// (reading the file's metadata for its recommended simulations) or its
// manifest's agent for that size, at the simulations asked for if any.
Kind zoo_agent(const Zoo& zoo, int num_players);

}  // namespace rocketgym::players
