// Every rank of a job must run the same config: ranks with another network
// size would crash in the first collective, ranks with another learning rate
// would train diverging replicas, and an arena rank given another game would
// merge that game's results into the table. The trainers and the arena call
// require_same_config before their first other collective.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "training/distributed/distributed.h"

namespace rocketgym::dist {

// Compares `config` (a resolved config document) over the ranks, leaving out
// `rank_local_keys` (dotted, e.g. "run.threads": keys each process may set
// for itself). When they differ, every rank throws ConfigError naming the
// ranks and the differing keys with their values. A collective: every rank
// calls it. Nothing to do with one process.
void require_same_config(const Context& context, const YAML::Node& config,
                         const std::vector<std::string>& rank_local_keys);

// `config` without `rank_local_keys`, as the YAML text the ranks compare.
std::string shared_config_text(const YAML::Node& config, const std::vector<std::string>& rank_local_keys);

// What differs between the ranks' texts (rank order) and rank 0's, as the
// error's message; empty when they all agree.
std::string config_mismatch(const std::vector<std::string>& rank_texts,
                            const std::vector<std::string>& rank_local_keys);

}  // namespace rocketgym::dist
