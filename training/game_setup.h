// The `game:` block shared by training and arena configs:
//   game:
//     id: launchpad23        # a registered game
//     players: 2             # or a mix of table sizes: [2, 3, 4] or {2: 0.5, 3: 0.25, 4: 0.25}
//     config: ""             # optional game config file (default: configs/games/<id>.yaml)
//     overrides: {}          # YAML mapping merged onto the game's config
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/game.h"
#include "envs/core/game_model.h"
#include "training/config_keys.h"

namespace rocketgym {

// One table size of a mix and its weight (game.players as a list or mapping).
struct TableShare {
  int players = 2;
  double weight = 1.0;
};

struct GameSetup {
  std::string id;
  int players = 2;  // the table size; with a mix, the smallest of `tables`
  // The table sizes a trainer plays, ascending, each with its weight: one
  // entry {players, 1} unless game.players is a list ([2, 3, 4]: equal
  // weights) or a mapping of size to weight ({2: 0.5, 4: 0.5}).
  std::vector<TableShare> tables{{2, 1.0}};
  std::string config_file;
  // Merged onto the game's config; keeps where each value came from (a line
  // of the training config, a --set), for error messages. Null: none.
  ConfigNode overrides;

  std::string overrides_text() const;  // YAML text; empty when there are none
  bool mixed() const { return tables.size() > 1; }
  std::vector<int> player_counts() const;  // the sizes of `tables`, ascending
  std::string players_text() const;        // game.players as written back: 3, [2, 3] or {2: 0.7, 3: 0.3}

  // Checks the id and the player count(s); a mix of table sizes only where
  // `allow_mix` (the trainers), else a ConfigError at game.players.
  static GameSetup from_yaml(const ConfigNode& node, bool allow_mix = false);
  static const KeyTable<GameSetup>& keys();  // the game: block's keys
  std::shared_ptr<AnyGame> load() const;
  // The game's config as load() reads it (the config file with the
  // overrides merged), as YAML text: what a checkpoint records of the rules
  // it was trained under.
  std::string resolved_config_text() const;
  Json to_json() const;

 private:
  void read_players(const ConfigNode& node);  // game.players: sets players and tables
};

// `total` slots split over `weights` (each > 0) in proportion, every share
// at least 1 (largest remainders, ties to the first): e.g. 64 envs over
// {0.5, 0.25, 0.25} gives {32, 16, 16}. Error when total < weights.size().
std::vector<int> split_by_weight(int total, const std::vector<double>& weights);

// The table size of a game seeded `game_seed`: one draw by weight from its
// own stream (derive_seed(game_seed ^ ..., 0)); no draw with one size.
int draw_table_size(const std::vector<TableShare>& tables, uint64_t game_seed);

// The observation shape a network needs for all these table sizes; a
// ConfigError (naming game.players) when the game's encoder gives them
// different shapes, since one network cannot take both.
std::vector<int> observation_shape_for(const AnyGame& game, const std::vector<int>& player_counts);

// The concrete config of a loaded game (for code templated on the game).
template <class G>
std::shared_ptr<const typename G::Config> typed_config(const AnyGame& game) {
  const auto* model = dynamic_cast<const GameModel<G>*>(&game);
  if (model == nullptr) throw Error("internal: game '" + game.info().id + "' is not of the expected type");
  return model->config();
}

}  // namespace rocketgym
