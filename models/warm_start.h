// Warm start: a network for today's observation layout and value head,
// built from an older checkpoint (e.g. a 2-player zoo network, to fine-tune
// into one for 2 to 4 players).
//
// What carries over:
//   - the first layer's input columns, mapped by observation block NAME: a
//     block the old and the new layout both have, with the same size, keeps
//     its weights at its new place; every other new block starts at zero
//     weights, so on an observation whose shared blocks hold the same numbers
//     the new network computes exactly what the old one did (at a 2-player
//     table, a new player-count block or a zeroed absent seat adds nothing);
//     old blocks the new layout lacks are dropped;
//   - the trunk, the policy head and the value head's hidden layer, as they
//     are (the same model config);
//   - the value head's rows for the old seats; each further seat (a larger
//     table than the old network served) starts as a copy of the old last
//     seat's row (an opponent's value, viewer-relative).
// A conv network's input is planes, not columns: it carries over only when
// the layout is unchanged.
#pragma once

#include <string>
#include <vector>

#include "envs/core/json.h"
#include "models/checkpoint.h"
#include "models/policy_value_net.h"

namespace rocketgym {

// What a warm start did with each block, for the run's log and tests.
struct WarmStartReport {
  std::vector<std::string> copied;   // same name and size: weights kept
  std::vector<std::string> added;    // new (or resized) blocks: zero weights
  std::vector<std::string> dropped;  // old blocks the new layout lacks
  int old_value_seats = 0, new_value_seats = 0;

  std::string summary() const;  // one paragraph
};

// The observation layout for `players` seats from `rocketgym describe <id>`
// JSON output (key "observation" -> player count -> blocks with name, offset
// and size). Throws Error naming `file` when it has none or is malformed.
std::vector<LayoutBlock> layout_from_describe_json(const Json& doc, int players, const std::string& file);

// A new network of `spec` (fresh weights from LibTorch's generator, seed it
// first) with what carries over from `old_net`, whose observation layout is
// `old_layout`; `new_layout` is spec's. `spec.config` must be old_net's
// config. Throws Error, naming `source`, when a layout does not tile its
// network's input, the configs differ, or a conv network's layout changed.
PolicyValueNet warm_start_network(PolicyValueNet& old_net, const std::vector<LayoutBlock>& old_layout,
                                  const NetSpec& spec, const std::vector<LayoutBlock>& new_layout,
                                  const std::string& source, WarmStartReport* report = nullptr);

}  // namespace rocketgym
