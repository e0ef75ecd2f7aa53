// The config keys of a game for its documentation (docs/games/<id>.md): every
// key its loader reads, with type, accepted values and the value taken when
// the key is left out, recorded while loading the built-in config
// (envs/core/config_record.h), so the ranges are stated once, in the loader.
// Nothing here is on a hot path.
#pragma once

#include <string>
#include <vector>

#include "envs/core/config_record.h"

namespace rocketgym {

// Every key of `game_id`'s config, in the order its loader meets them.
std::vector<ConfigKey> game_config_keys(const std::string& game_id);

// Markdown: a table of the keys outside lists, then one row per list of
// cards or tables with the keys of its items.
std::string game_config_keys_markdown(const std::string& game_id);

// `text` made safe for a Markdown table cell (a bare '|' would end the cell).
std::string markdown_cell(const std::string& text);

}  // namespace rocketgym
