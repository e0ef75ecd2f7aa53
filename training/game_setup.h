// The `game:` block shared by training and arena configs:
//   game:
//     id: launchpad23        # a registered game
//     players: 2
//     config: ""             # optional game config file (default: configs/games/<id>.yaml)
//     overrides: {}          # YAML mapping merged onto the game's config
#pragma once

#include <memory>
#include <string>

#include "envs/core/config.h"
#include "envs/core/game.h"
#include "envs/core/game_model.h"
#include "training/config_keys.h"

namespace rocketgym {

struct GameSetup {
  std::string id;
  int players = 2;
  std::string config_file;
  // Merged onto the game's config; keeps where each value came from (a line
  // of the training config, a --set), for error messages. Null: none.
  ConfigNode overrides;

  std::string overrides_text() const;  // YAML text; empty when there are none

  static GameSetup from_yaml(const ConfigNode& node);  // checks the id and player count
  static const KeyTable<GameSetup>& keys();            // the game: block's keys
  std::shared_ptr<AnyGame> load() const;
  // The game's config as load() reads it (the config file with the
  // overrides merged), as YAML text: what a checkpoint records of the rules
  // it was trained under.
  std::string resolved_config_text() const;
  Json to_json() const;
};

// The concrete config of a loaded game (for code templated on the game).
template <class G>
std::shared_ptr<const typename G::Config> typed_config(const AnyGame& game) {
  const auto* model = dynamic_cast<const GameModel<G>*>(&game);
  if (model == nullptr) throw Error("internal: game '" + game.info().id + "' is not of the expected type");
  return model->config();
}

}  // namespace rocketgym
