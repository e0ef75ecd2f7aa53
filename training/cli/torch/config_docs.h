// The reference tables of the config keys, from the key tables themselves:
// `rocketgym describe --config-keys ppo|alphazero|search|arena` prints them, and
// scripts/docs_tables.py puts them into docs/training.md, docs/search.md and
// docs/agents.md.
#pragma once

#include <string>
#include <vector>

#include "envs/core/json.h"

namespace rocketgym {

// The names --config-keys takes: ppo, alphazero, search, arena.
const std::vector<std::string>& config_key_tables();
// Every key of one config: a Markdown table per block (one for search), or
// the same as JSON. Error for an unknown name, listing the known ones.
std::string config_keys_markdown(const std::string& which);
Json config_keys_json(const std::string& which);

}  // namespace rocketgym
