// What `zoo:<id>` plays at each table size, for every game built, read from
// the zoo's files (players::zoo_agent): `rocketgym describe --zoo` prints it,
// and scripts/docs_tables.py puts the Markdown into docs/agents.md.
#pragma once

#include <string>

#include "envs/core/json.h"

namespace rocketgym::players {

// One row per game: the zoo files that make its bot, then per table size the
// agent it plays ("network, greedy", "network, search of 32 simulations", an
// agent spec such as `ismcts:200:heuristic:4`, or "not served").
std::string zoo_table_markdown();
// The same as JSON: [{game, files, players: {"2": text, ...}}, ...].
Json zoo_table_json();

}  // namespace rocketgym::players
