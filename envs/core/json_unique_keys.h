// Parsing JSON text from outside (a file a user may have edited, a request
// body): a key given twice in one object is refused, where nlohmann::json
// would keep the last one silently ({"action": 1, "action": 0} would play 0).
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/json.h"

namespace rocketgym {

// A parser callback that notes the keys of each object opened so far and the
// first key named twice in one object; for any nlohmann::basic_json type J.
class RepeatedKeyFinder {
 public:
  template <class J>
  typename J::parser_callback_t callback() {
    return [this](int /*depth*/, typename J::parse_event_t event, J& parsed) {
      if (event == J::parse_event_t::object_start) {
        open_.emplace_back();
      } else if (event == J::parse_event_t::object_end && !open_.empty()) {
        open_.pop_back();
      } else if (event == J::parse_event_t::key && !open_.empty() && !repeated_) {
        const auto& key = parsed.template get_ref<const std::string&>();
        if (!open_.back().insert(key).second) repeated_ = key;
      }
      return true;
    };
  }
  // The first repeated key, as parsed (quote it only escaped and cut short).
  const std::optional<std::string>& repeated() const { return repeated_; }

 private:
  std::vector<std::set<std::string, std::less<>>> open_;
  std::optional<std::string> repeated_;
};

// The document (nested at most kMaxDocumentDepth levels, as parse_json), or a
// SerializationError naming the repeated key (escaped to ASCII, at most 40
// characters of it). Malformed text throws nlohmann::json::exception, as
// Json::parse does.
inline Json parse_json_unique_keys(const std::string& text) {
  check_document_depth(text);
  RepeatedKeyFinder finder;
  Json document = Json::parse(text, finder.callback<Json>());
  if (finder.repeated()) {
    std::string name = Json(*finder.repeated()).dump(-1, ' ', /*ensure_ascii=*/true);
    if (name.size() > 40) name = name.substr(0, 37) + "...";
    throw SerializationError("key " + name + " is given twice in one object");
  }
  return document;
}

}  // namespace rocketgym
