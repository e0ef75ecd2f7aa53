#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "envs/core/game.h"
#include "training/cli/commands.h"

namespace rocketgym::cli {
namespace {

std::string shape_string(const std::vector<int>& shape) {
  std::string out;
  for (int d : shape) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

void list_games(bool as_json) {
  nlohmann::json doc = nlohmann::json::array();
  if (!as_json)
    std::cout << std::left << std::setw(14) << "id" << std::setw(18) << "name" << std::setw(9) << "players"
              << std::setw(9) << "actions"
              << "observation (per player count)\n";
  for (const auto& id : Registry::instance().ids()) {
    auto game = load_game(id);
    const GameInfo& info = game->info();
    nlohmann::json shapes = nlohmann::json::object();
    std::string shape_text;
    for (int n = info.min_players; n <= info.max_players; ++n) {
      const auto shape = game->observation_shape(n);
      shapes[std::to_string(n)] = shape;
      shape_text += (shape_text.empty() ? "" : ", ") + std::to_string(n) + "p " + shape_string(shape);
    }
    if (as_json) {
      doc.push_back({{"id", info.id},
                     {"name", info.name},
                     {"description", info.description},
                     {"min_players", info.min_players},
                     {"max_players", info.max_players},
                     {"num_actions", info.num_actions},
                     {"observation_shapes", shapes}});
    } else {
      std::cout << std::setw(14) << info.id << std::setw(18) << info.name << std::setw(9)
                << (std::to_string(info.min_players) + "-" + std::to_string(info.max_players)) << std::setw(9)
                << info.num_actions << shape_text << "\n";
    }
  }
  if (as_json) std::cout << doc.dump(2) << "\n";
}

}  // namespace

void add_list_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List the games: player counts, action and observation sizes");
  auto as_json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *as_json, "Machine-readable output");
  cmd->callback([as_json] { list_games(*as_json); });
}

}  // namespace rocketgym::cli
