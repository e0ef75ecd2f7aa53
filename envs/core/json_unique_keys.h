// Parsing JSON text that a user may have edited: a key given twice in one
// object is refused, where nlohmann::json would keep the last one silently.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/json.h"

namespace rocketgym {

// The document, or a SerializationError naming the repeated key (escaped to
// ASCII, at most 40 characters of it). Malformed text throws
// nlohmann::json::exception, as Json::parse does.
inline Json parse_json_unique_keys(const std::string& text) {
  std::vector<std::set<std::string, std::less<>>> keys;  // the keys of each object being read
  return Json::parse(text, [&keys](int /*depth*/, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) keys.emplace_back();
    if (event == Json::parse_event_t::object_end) keys.pop_back();
    if (event == Json::parse_event_t::key &&
        !keys.back().insert(parsed.get_ref<const std::string&>()).second) {
      std::string name = parsed.dump(-1, ' ', /*ensure_ascii=*/true);
      if (name.size() > 40) name = name.substr(0, 37) + "...";
      throw SerializationError("key " + name + " is given twice in one object");
    }
    return true;
  });
}

}  // namespace rocketgym
