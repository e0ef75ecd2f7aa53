// `rocketgym describe <game>`: a game's action id ranges, observation layout
// and config keys (envs/core/describe.h). With --markdown it prints the
// generated part of docs/games/<id>.md, which scripts/docs.sh writes there.
// `rocketgym describe --config-keys ppo|alphazero|search|arena`: every key of a
// training config or of the search, from the key tables (training/cli/torch/config_docs.h).
// `rocketgym describe --zoo`: what zoo:<id> plays per table size, from the zoo's
// files (training/players/zoo_table.h; the table of docs/agents.md).
// `rocketgym describe --serve-limits`: the limits of `rocketgym serve`
// (training/cli/serve_limits.h; the table of docs/browser.md).
// `rocketgym describe --agent-kinds`: every kind of player, its command-line
// form, YAML keys and help (training/players/kinds.h; the grammar table of
// docs/agents.md).
#include <iostream>
#include <nlohmann/json.hpp>

#include "envs/core/describe.h"
#include "envs/core/describe_config.h"
#ifdef ROCKETGYM_WITH_TRAINING
#include "training/cli/torch/config_docs.h"  // the config key tables are the training library's
#include "training/players/zoo_table.h"
#endif
#include "training/cli/commands.h"
#include "training/cli/serve_limits.h"
#include "training/players/kinds.h"

namespace rocketgym::cli {
namespace {

void describe_json(const std::string& id) {
  const auto game = load_game(id);
  const GameInfo& info = game->info();
  nlohmann::json doc = {{"id", info.id}, {"name", info.name}, {"num_actions", info.num_actions}};
  for (const auto& r : action_ranges(id))
    doc["actions"].push_back(
        {{"first", r.first}, {"count", r.count}, {"says", r.says}, {"meaning", r.meaning}});
  for (int n = info.min_players; n <= info.max_players; ++n)
    for (const auto& b : observation_layout(id, n))
      doc["observation"][std::to_string(n)].push_back({{"name", b.name},
                                                       {"offset", b.offset},
                                                       {"size", b.size},
                                                       {"meaning", b.meaning},
                                                       {"visibility", visibility_name(b.visibility)}});
  for (const auto& key : game_config_keys(id))
    doc["config_keys"].push_back({{"path", key.path},
                                  {"type", key.type},
                                  {"range", key.accepts},
                                  {"default", key.if_absent},
                                  {"shipped", key.value}});
  std::cout << doc.dump(2) << "\n";
}

}  // namespace

void add_describe_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "describe",
      "A game's action ids, observation layout and config keys (the tables of docs/games/<id>.md)");
  auto game = std::make_shared<std::string>();
  auto markdown = std::make_shared<bool>(false);
  auto config_keys = std::make_shared<std::string>();
  auto zoo = std::make_shared<bool>(false);
  auto serve_limits = std::make_shared<bool>(false);
  auto agent_kinds = std::make_shared<bool>(false);
  cmd->add_option("game", *game, "Game id (rocketgym list)");
#ifdef ROCKETGYM_WITH_TRAINING
  cmd->add_option("--config-keys", *config_keys,
                  "Instead of a game: every key of a config, ppo, alphazero, search or arena (the tables of "
                  "docs/training.md, docs/search.md and docs/agents.md)");
  cmd->add_flag("--zoo", *zoo,
                "Instead of a game: what zoo:GAME plays at each table size, from models/zoo/ (or "
                "$ROCKETGYM_ZOO_DIR); the table of docs/agents.md");
#endif
  cmd->add_flag("--serve-limits", *serve_limits,
                "Instead of a game: the limits of rocketgym serve (the table of docs/browser.md)");
  cmd->add_flag("--agent-kinds", *agent_kinds,
                "Instead of a game: every kind of player and its spec (the grammar table of docs/agents.md)");
  cmd->add_flag("--markdown", *markdown, "Markdown, as generated into docs/ (default: JSON)");
  cmd->callback([game, markdown, config_keys, zoo, serve_limits, agent_kinds] {
    if (!game->empty() + !config_keys->empty() + *zoo + *serve_limits + *agent_kinds != 1)
      throw CLI::ValidationError(
          "describe", "name a game, --config-keys, --zoo, --serve-limits or --agent-kinds (one of them)");
    if (*agent_kinds) {
      std::cout << (*markdown ? players::kinds_markdown() : players::kinds_json().dump(2) + "\n");
      return;
    }
    if (*serve_limits) {
      if (*markdown) {
        std::cout << serve::serve_limits_markdown();
      } else {
        nlohmann::json rows = nlohmann::json::array();
        for (const serve::LimitRow& row : serve::serve_limit_rows())
          rows.push_back({{"name", row.name}, {"value", row.value}, {"what", row.what}});
        std::cout << rows.dump(2) << "\n";
      }
      return;
    }
#ifdef ROCKETGYM_WITH_TRAINING
    if (*zoo) {
      std::cout << (*markdown ? players::zoo_table_markdown() : players::zoo_table_json().dump(2) + "\n");
      return;
    }
    if (!config_keys->empty()) {
      std::cout << (*markdown ? config_keys_markdown(*config_keys)
                              : config_keys_json(*config_keys).dump(2) + "\n");
      return;
    }
#endif
    if (*markdown)
      std::cout << describe_markdown(*game);
    else
      describe_json(*game);
  });
}

}  // namespace rocketgym::cli
