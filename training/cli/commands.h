// The environment commands of the rocketgym command line.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rocketgym::cli {

void add_list_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_bench_command(CLI::App& app);

}  // namespace rocketgym::cli
