// Helpers for the readable JSON state documents (serialize / deserialize).
// Reading is strict: a missing or mistyped field is a SerializationError that
// names the field, never a crash.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "envs/core/errors.h"
#include "envs/core/rng.h"

namespace rocketgym {

using Json = nlohmann::json;

template <class T>
T json_get(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key))
    throw SerializationError(std::string("state document: missing field '") + key + "'");
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception& e) {
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
  Rng rng;
  rng.set_state(s);
  return rng;
}

}  // namespace rocketgym
