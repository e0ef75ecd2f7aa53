// What the LibTorch commands (train, arena, export, bench-search; one file
// each in this folder) share: a config file read once with the flags that
// override its keys, errors turned into messages and exit status 1, and the
// place of this process in a torchrun job. Built into rocketgym_training
// (the distributed tests' rank program runs the same commands).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/errors.h"
#include "envs/core/json.h"
#include "training/cli/commands.h"
#include "training/cli/options.h"
#include "training/distributed/distributed.h"

namespace rocketgym {

namespace cli {

// The overriding flags: each becomes a dotted key=value, labelled with what
// the user typed so that a bad value is reported as "--players 9".
struct Overrides {
  std::vector<std::string> sets;  // --set dotted.key=value
  std::vector<ConfigNode::Setting> flags;

  void add(const std::string& key, const std::string& value, const std::string& flag) {
    flags.push_back({key + "=" + value, flag + " " + value});
  }
  // A text value (a path, a name) is quoted: YAML would read "a: b" as a mapping.
  void add_text(const std::string& key, const std::string& value, const std::string& flag) {
    flags.push_back({key + "=" + Json(value).dump(), flag + " " + value});
  }

  bool empty() const { return sets.empty() && flags.empty(); }

  ConfigNode node() const {
    std::vector<ConfigNode::Setting> all;
    for (const auto& s : sets) all.push_back({s, "--set " + s});
    all.insert(all.end(), flags.begin(), flags.end());
    return ConfigNode::from_labelled_settings(all);
  }
};

// The config file (empty: none, an empty mapping) with `overrides` on top:
// the file is read once.
ConfigNode load_with_overrides(const std::string& file, const Overrides& overrides);

// Runs a command's body: our errors become "error: ..." and exit status 1.
void report_errors(const std::function<void()>& body);

// Under torchrun (WORLD_SIZE etc. set): this process's place in the job.
// Started alone: a one-process context, without any network setup.
// `timeout` is --rank-timeout as typed (empty: the default).
dist::Context join_ranks(const std::string& timeout);
void add_rank_timeout(CLI::App* cmd, std::string& seconds);

// The commands, one file each.
void add_train_command(CLI::App& app);         // train_command.cpp
void add_arena_command(CLI::App& app);         // arena_command.cpp
void add_export_command(CLI::App& app);        // export_command.cpp
void add_bench_search_command(CLI::App& app);  // bench_search_command.cpp

}  // namespace cli
}  // namespace rocketgym
