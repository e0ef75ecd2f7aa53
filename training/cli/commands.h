// The environment commands of the rocketgym command line.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rocketgym::cli {

void add_list_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_bench_command(CLI::App& app);

// Turns `--set a.b=value` options into a YAML mapping merged onto the config.
std::string overrides_yaml(const std::vector<std::string>& settings);

}  // namespace rocketgym::cli
