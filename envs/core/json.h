// Helpers for the readable JSON state documents (serialize / deserialize).
// Reading is strict: a missing or mistyped field is a SerializationError that
// names the field, never a crash.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/quoted.h"
#include "envs/core/rng.h"

namespace rocketgym {

// Reads numbers and booleans strictly: an integer field accepts only an
// integer that fits its type (no wrap-around of 2^32 + 2, no truncation of 2.7,
// no `true` for 1), a bool field only true or false. Everything else is read as
// nlohmann::json reads it. Json below is nlohmann's document with this serializer.
template <class T, class SFINAE = void>
struct StrictSerializer : nlohmann::adl_serializer<T, SFINAE> {};

template <class T>
struct StrictSerializer<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  template <class J>
  static void from_json(const J& j, T& out) {
    bool fits = false;
    if (j.is_number_unsigned()) {
      fits = j.template get_ref<const typename J::number_unsigned_t&>() <=
             static_cast<std::make_unsigned_t<T>>(std::numeric_limits<T>::max());
    } else if (j.is_number_integer()) {
      const auto v = j.template get_ref<const typename J::number_integer_t&>();
      fits = v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
             (v < 0 || static_cast<uint64_t>(v) <= static_cast<uint64_t>(std::numeric_limits<T>::max()));
    } else {
      throw SerializationError(std::string("expected an integer, got ") + j.type_name());
    }
    if (!fits)
      throw SerializationError("integer out of range [" + std::to_string(std::numeric_limits<T>::min()) +
                               ", " + std::to_string(std::numeric_limits<T>::max()) + "]");
    out = j.is_number_unsigned() ? static_cast<T>(j.template get_ref<const typename J::number_unsigned_t&>())
                                 : static_cast<T>(j.template get_ref<const typename J::number_integer_t&>());
  }
  template <class J>
  static void to_json(J& j, T value) {
    nlohmann::adl_serializer<T>::to_json(j, value);
  }
};

template <>
struct StrictSerializer<bool> {
  template <class J>
  static void from_json(const J& j, bool& out) {
    if (!j.is_boolean())
      throw SerializationError(std::string("expected true or false, got ") + j.type_name());
    out = j.template get_ref<const typename J::boolean_t&>();
  }
  template <class J>
  static void to_json(J& j, bool value) {
    nlohmann::adl_serializer<bool>::to_json(j, value);
  }
};

using Json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t,
                                  double, std::allocator, StrictSerializer>;

// Arrays and objects nested deeper than this are no document of ours (a state,
// a record, checkpoint metadata): nlohmann's dump, copy and comparison recurse
// once per level, so a deeper value could overflow the stack.
inline constexpr int kMaxDocumentDepth = 100;

// Whether `text` nests arrays and objects deeper than `limit`, counting the
// brackets outside strings. Cheap and recursion-free: run it before parsing.
inline bool json_nests_deeper_than(std::string_view text, int limit) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// A SerializationError when `text` nests deeper than kMaxDocumentDepth.
inline void check_document_depth(std::string_view text) {
  if (json_nests_deeper_than(text, kMaxDocumentDepth))
    throw SerializationError("arrays and objects are nested more than " + std::to_string(kMaxDocumentDepth) +
                             " levels deep");
}

// A parser callback that notes the keys of each object opened so far and the
// first key named twice in one object, where nlohmann::json would keep the last
// one silently ({"action": 1, "action": 0} would play 0). For any
// nlohmann::basic_json type J.
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

// nlohmann's message for a parse error ends with "; last read: '...'", the
// text read since the token began, which may be the whole of a hostile input
// (a 500 KB string): a message keeps the place and the last 40 bytes read,
// escaped; any other part by the one quoting rule (quoted.h).
inline std::string json_error_text(std::string_view what) {
  constexpr std::string_view kLastRead = "; last read: '";
  constexpr std::size_t kReadShown = 40;
  const std::size_t at = what.find(kLastRead);
  if (at == std::string_view::npos) return shortened(what);
  std::string_view read = what.substr(at + kLastRead.size());
  if (!read.empty() && read.back() == '\'') read.remove_suffix(1);
  const bool cut = read.size() > kReadShown;
  if (cut) read = read.substr(read.size() - kReadShown);  // a split character is escaped as \xNN
  return shortened(what.substr(0, at)) + std::string(kLastRead) + (cut ? "..." : "") + shortened(read) + "'";
}

// Parses JSON text from outside (a state, a records line, checkpoint
// metadata, a layout file), or a SerializationError: "not valid JSON: ...",
// the depth limit, or the first key given twice in one object (named by the
// one quoting rule, quoted.h). The caller names what the text is.
inline Json parse_json(const std::string& text) {
  check_document_depth(text);
  RepeatedKeyFinder finder;
  Json document;
  try {
    document = Json::parse(text, finder.callback<Json>());
  } catch (const nlohmann::json::exception& e) {
    throw SerializationError("not valid JSON: " + json_error_text(e.what()));
  }
  if (finder.repeated())
    throw SerializationError("key " + quote(*finder.repeated()) + " is given twice in one object");
  return document;
}

template <class T>
T json_get(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key))
    throw SerializationError(std::string("state document: missing field '") + key + "'");
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw SerializationError(std::string("state document: field '") + key + "': " + e.what());
  } catch (const SerializationError& e) {
    throw SerializationError(std::string("state document: field '") + key + "': " + e.what());
  }
}

// An integer field that must lie in [lo, hi].
inline int json_get_int(const Json& j, const char* key, int lo, int hi) {
  const int v = json_get<int>(j, key);
  if (v < lo || v > hi)
    throw SerializationError(std::string("state document: field '") + key + "' = " + std::to_string(v) +
                             " out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

inline Json rng_to_json(const Rng& rng) {
  Json out = Json::array();
  for (uint64_t w : rng.state()) out.push_back(w);
  return out;
}

inline Rng rng_from_json(const Json& j) {
  if (!j.is_array() || j.size() != 4)
    throw SerializationError("state document: 'rng' must be a list of 4 unsigned integers");
  Rng::State s{};
  for (std::size_t i = 0; i < 4; ++i) {
    if (!j[i].is_number_unsigned() && !(j[i].is_number_integer() && j[i].get<int64_t>() >= 0))
      throw SerializationError("state document: 'rng' must be a list of 4 unsigned integers");
    s[i] = j[i].get<uint64_t>();
  }
  // xoshiro256** never leaves the all-zero state: every draw would be 0 and a
  // shuffle or die roll that waits for another value would never end.
  if (s == Rng::State{})
    throw SerializationError(
        "state document: 'rng' must not be all zeros (the generator cannot leave that state)");
  Rng rng;
  rng.set_state(s);
  return rng;
}

}  // namespace rocketgym
