#include "training/distributed/same_config.h"

#include "envs/core/errors.h"
#include "envs/core/yaml_document.h"
#include "training/config_yaml.h"

namespace rocketgym::dist {

namespace {

// Removes the dotted `key` ("run.threads") from `node`, if present.
void remove_key(YAML::Node node, const std::string& key) {
  const std::size_t dot = key.find('.');
  if (!node.IsMap()) return;
  if (dot == std::string::npos) {
    node.remove(key);
    return;
  }
  // A const lookup: the mutable operator[] would add the key when it is absent.
  const YAML::Node child = static_cast<const YAML::Node&>(node)[key.substr(0, dot)];
  if (child.IsDefined()) remove_key(child, key.substr(dot + 1));
}

}  // namespace

std::string shared_config_text(const YAML::Node& config, const std::vector<std::string>& rank_local_keys) {
  YAML::Node copy = YAML::Clone(config);
  for (const std::string& key : rank_local_keys) remove_key(copy, key);
  return YAML::Dump(copy);
}

std::string config_mismatch(const std::vector<std::string>& rank_texts,
                            const std::vector<std::string>& rank_local_keys) {
  std::string message;
  for (std::size_t r = 1; r < rank_texts.size(); ++r) {
    if (rank_texts[r] == rank_texts[0]) continue;
    const std::string rank = "rank " + std::to_string(r);
    std::string detail;
    try {
      detail = describe_differences(config_differences(load_yaml_document(rank_texts[0], "rank 0's config"),
                                                       load_yaml_document(rank_texts[r], rank + "'s config")),
                                    "rank 0", rank);
    } catch (const std::exception&) {  // YAML::Exception, or ConfigError from load_yaml_document
      // the texts themselves differ; no key to name
    }
    message += (message.empty() ? "" : "; ") + rank + "'s config differs from rank 0's" +
               (detail.empty() ? "" : ": " + detail);
  }
  if (message.empty()) return "";
  std::string local;
  for (const std::string& key : rank_local_keys) local += (local.empty() ? "" : ", ") + key;
  return message + " (every rank must run the same config" +
         (local.empty() ? std::string() : "; only " + local + " may differ") + ")";
}

void require_same_config(const Context& context, const YAML::Node& config,
                         const std::vector<std::string>& rank_local_keys) {
  if (context.single()) return;
  const char* what = "comparing the ranks' configs";
  const std::vector<std::string> texts =
      context.gather_to_root(shared_config_text(config, rank_local_keys), what);
  const std::string problem =
      context.broadcast_bytes(context.is_root() ? config_mismatch(texts, rank_local_keys) : "", what);
  if (!problem.empty()) throw ConfigError(context.describe() + ": " + problem);
}

}  // namespace rocketgym::dist
