#include "training/config_yaml.h"

namespace rocketgym {

void write_game_and_model(YAML::Node& root, const GameSetup& game, const NetConfig& net) {
  root["game"]["id"] = game.id;
  root["game"]["players"] = game.players;
  root["game"]["config"] = game.config_file;
  if (!game.overrides.is_null()) root["game"]["overrides"] = YAML::Clone(game.overrides.yaml());
  root["model"]["kind"] = net.kind;
  root["model"]["hidden"] = net.hidden;
  root["model"]["blocks"] = net.blocks;
  root["model"]["channels"] = net.channels;
}

std::string resolved_config_text(const YAML::Node& root) {
  YAML::Emitter out;
  out << root;
  return std::string("# Resolved training config (defaults filled in), written by rocketgym train.\n") +
         "# run.ranks: how many processes ran it (torchrun); the launcher decides, the value is not used.\n" +
         out.c_str() + "\n";
}

}  // namespace rocketgym
