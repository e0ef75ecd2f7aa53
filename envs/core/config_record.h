// Recording the keys a config loader reads, for the documentation: while a
// ConfigKeyRecording is alive, every ConfigNode getter on this thread notes the
// key it reads with the type, range and fallback it checks against, so
// `rocketgym describe <game> --markdown` lists every key of a game from the
// very calls that check them (one fact, one place). Recording changes nothing
// the loader sees: values, errors and messages are the same, and without a
// recording a getter pays one thread-local test. Nothing here is on a hot path.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "envs/core/config.h"

namespace rocketgym {

// One key of a config, as the loader checks it.
struct ConfigKey {
  std::string path;       // dotted; an item of a list is [] ("missions.level1[].vp")
  std::string type;       // "integer", "true or false", "text", "list of integers", "mapping", "list", ...
                          // empty: accepted but its value never read (its presence is what counts)
  std::string accepts;    // "0 to 100", "rank, win, score"; empty: any value of the type
  std::string if_absent;  // the value taken when the key is left out, or "required"
  std::string value;      // its value in the config being loaded (the first item's, in a list)
};

class ConfigKeyRecording {
 public:
  ConfigKeyRecording();  // starts recording on this thread (an enclosing recording pauses)
  ~ConfigKeyRecording();
  ConfigKeyRecording(const ConfigKeyRecording&) = delete;
  ConfigKeyRecording& operator=(const ConfigKeyRecording&) = delete;

  // Every key read so far, in the order first met, one per path: the items
  // of a list share their keys' paths.
  const std::vector<ConfigKey>& keys() const { return keys_; }

  // Adds what `key` says to the key of the same path: a loader's own
  // declaration (`declared`) replaces what a getter noted; otherwise only the
  // fields still empty are filled.
  void note(ConfigKey key, bool declared);
  // The recording of this thread, or null.
  static ConfigKeyRecording* active();

 private:
  ConfigKeyRecording* enclosing_;
  std::vector<ConfigKey> keys_;
  std::map<std::string, std::size_t> index_;  // path -> keys_ index
};

// For a loader that checks a value itself (a custom message; a bound that
// another key sets is ConfigNode::get_int_at_least's): declares the key `key` of `node` (type, accepted
// values, "required" or the value taken when absent) to a recording, if one is active. `key` empty: the node
// itself (an item of a list).
void declare_config_key(const ConfigNode& node, const std::string& key, const std::string& type,
                        const std::string& accepts, const std::string& if_absent);

}  // namespace rocketgym
