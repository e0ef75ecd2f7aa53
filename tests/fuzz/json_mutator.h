// A structure-aware mutation for the fuzz targets whose input is a JSON
// document (the position targets): one edit of the parsed document, such as a
// value of the wrong type or at a range's edge, a key removed or carried to
// another object, a list entry dropped or repeated, a value copied from
// elsewhere in the document. The readers refuse a document at its first wrong
// field, so each of their checks needs a well-formed document with one field
// wrong; libFuzzer's byte mutations rarely keep a document well-formed, and
// found those checks only one every few hundred CPU seconds
// (rocket_squad_position, 2026-11-27).
#pragma once

#include <cstdint>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "envs/core/rng.h"

namespace rocketgym::fuzz {

namespace json_mutation {

using Json = nlohmann::json;

// Every node of the document, parents before their children.
inline void collect_nodes(Json& node, std::vector<Json*>& out) {
  out.push_back(&node);
  if (node.is_structured())
    for (Json& child : node) collect_nodes(child, out);
}

// Values at the edges of what the strict readers accept (envs/core/json.h).
inline Json edge_value(Rng& rng) {
  switch (rng.below(12)) {
    case 0:
      return nullptr;
    case 1:
      return true;
    case 2:
      return false;
    case 3:
      return 0;
    case 4:
      return -1;
    case 5:
      return 2147483648LL;
    case 6:
      return -2147483649LL;
    case 7:
      return 2.5;
    case 8:
      return "";
    case 9:
      return Json::array();
    case 10:
      return Json::object();
    default:
      return static_cast<int>(rng.below(130)) - 1;
  }
}

// Any key of any object in the document, or "" when it has none.
inline std::string some_key(const std::vector<Json*>& nodes, Rng& rng) {
  std::vector<std::string> keys;
  for (const Json* n : nodes)
    if (n->is_object())
      for (const auto& item : n->items()) keys.push_back(item.key());
  return keys.empty() ? std::string() : keys[rng.below(static_cast<uint32_t>(keys.size()))];
}

// One edit of `doc`'s node `target`; `source` is another node's value.
inline void edit(Json& target, const Json& source, const std::vector<Json*>& nodes, Rng& rng) {
  switch (rng.below(6)) {
    case 0:
      target = edge_value(rng);
      return;
    case 1:
      target = source;
      return;
    case 2:
      if (target.is_number_integer()) {
        // One up or down in unsigned arithmetic, which wraps: INT64_MAX + 1
        // would be undefined behaviour in the harness itself.
        const uint64_t step = rng.below(2) ? 1 : ~uint64_t{0};
        if (target.is_number_unsigned())
          target = target.get<uint64_t>() + step;
        else
          target = static_cast<int64_t>(static_cast<uint64_t>(target.get<int64_t>()) + step);
        return;
      }
      break;
    case 3:
      if (target.is_array() && !target.empty()) {
        const auto i = rng.below(static_cast<uint32_t>(target.size()));
        if (rng.below(2))
          target.erase(i);
        else
          target.push_back(Json(target[i]));
        return;
      }
      break;
    case 4:
      if (target.is_object() && !target.empty()) {
        if (rng.below(2)) {
          auto it = target.begin();
          std::advance(it, rng.below(static_cast<uint32_t>(target.size())));
          target.erase(it);
        } else {
          target[some_key(nodes, rng)] = source;
        }
        return;
      }
      break;
    default:
      break;
  }
  target = rng.below(2) ? source : edge_value(rng);
}

}  // namespace json_mutation

// The document `text` after one random edit (seeded by `seed`), or "" when
// `text` is not JSON: the caller then mutates its bytes instead.
inline std::string mutate_json(const std::string& text, uint32_t seed) {
  using namespace json_mutation;
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return "";
  Rng rng(seed);
  std::vector<Json*> nodes;
  collect_nodes(doc, nodes);
  const Json source = *nodes[rng.below(static_cast<uint32_t>(nodes.size()))];
  edit(*nodes[rng.below(static_cast<uint32_t>(nodes.size()))], source, nodes, rng);
  return doc.dump();
}

}  // namespace rocketgym::fuzz
