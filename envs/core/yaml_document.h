// Reading YAML text: the one loader every reader of YAML uses, and the
// number rules of config values (envs/core/numbers.h) for readers that walk
// a ConfigNode's items themselves.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "envs/core/config.h"

namespace rocketgym {

// Bytes in one config key. A longer key is no config's, and yaml-cpp cannot
// read one past 1024 characters in flow style (`{key: value}`, the JSON of
// Python's config dicts): a clear refusal naming its start comes first
// (python/rocketgym/_common.py checks Python's dicts against it too).
inline constexpr std::size_t kMaxConfigKeyLength = 128;

// Parses YAML text that must be one document: a second one (after `---`, or
// content after an end marker `...`) is an error, never silently dropped, as
// yaml-cpp's YAML::Load does (it stops reading after the first document, broken
// YAML included). Also refuses binary text and nesting beyond yaml-cpp's guard.
// Errors are ConfigError "source:line: ..." (no line where `lines` is false,
// e.g. a command-line value).
YAML::Node load_yaml_document(const std::string& text, const std::string& source, bool lines = true);

// `item`'s whole number in [min, max], read as ConfigNode's getters read
// numbers: plain decimal (010 and 0x1F are refused, not read as octal or
// hex), never a quoted "10". Else a ConfigError naming the item and, when it
// is out of range, the range.
int config_int(const ConfigNode& item, int min, int max);

// The seed under `key` of the mapping `node` (0 to kMaxSeed, envs/core/seed_range.h),
// read as above; `fallback` when the key is absent.
uint64_t config_seed(const ConfigNode& node, const std::string& key, uint64_t fallback);

}  // namespace rocketgym
