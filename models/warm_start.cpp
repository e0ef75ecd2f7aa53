#include "models/warm_start.h"

#include <algorithm>

namespace rocketgym {

namespace {

const LayoutBlock* find_block(const std::vector<LayoutBlock>& layout, const std::string& name) {
  const auto it =
      std::find_if(layout.begin(), layout.end(), [&](const LayoutBlock& b) { return b.name == name; });
  return it == layout.end() ? nullptr : &*it;
}

// The blocks must follow each other from 0 and end at the input's size.
void check_tiles(const std::vector<LayoutBlock>& layout, int input_size, const std::string& what) {
  int64_t at = 0;
  for (const LayoutBlock& b : layout) {
    if (b.offset != at || b.size < 1)
      throw Error(what + ": block '" + b.name + "' is at " + std::to_string(b.offset) + " with size " +
                  std::to_string(b.size) + ", where the blocks before it end at " + std::to_string(at));
    at += b.size;
  }
  if (at != input_size)
    throw Error(what + " covers " + std::to_string(at) + " numbers, but the network takes " +
                std::to_string(input_size) + " (is it the layout of this network's game and version?)");
}

std::string names(const std::vector<std::string>& list) {
  if (list.empty()) return "none";
  std::string out;
  for (const std::string& n : list) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

}  // namespace

std::string WarmStartReport::summary() const {
  std::string out = std::to_string(copied.size()) +
                    " observation blocks keep their weights; new blocks at zero weights: " + names(added) +
                    "; dropped: " + names(dropped) + "; value head: " + std::to_string(old_value_seats) +
                    " seats";
  if (new_value_seats > old_value_seats)
    out += " -> " + std::to_string(new_value_seats) + " (the further seats start as seat " +
           std::to_string(old_value_seats) + "'s row)";
  return out;
}

std::vector<LayoutBlock> layout_from_describe_json(const Json& doc, int players, const std::string& file) {
  std::vector<LayoutBlock> out;
  try {
    const Json& blocks = doc.at("observation").at(std::to_string(players));
    if (!blocks.is_array()) throw Error("the layout is not a list of blocks");
    for (const Json& b : blocks)
      out.push_back({b.at("name").get<std::string>(), b.at("offset").get<int>(), b.at("size").get<int>()});
  } catch (const nlohmann::json::exception& e) {
    throw Error("'" + file + "' is not `rocketgym describe <game>` output with an observation layout for " +
                std::to_string(players) + " players (" + e.what() + ")");
  } catch (const Error& e) {
    throw Error("'" + file + "' is not `rocketgym describe <game>` output with an observation layout for " +
                std::to_string(players) + " players (" + e.what() + ")");
  }
  if (out.empty())
    throw Error("'" + file + "' has an empty observation layout for " + std::to_string(players) + " players");
  return out;
}

PolicyValueNet warm_start_network(PolicyValueNet& old_net, const std::vector<LayoutBlock>& old_layout,
                                  const NetSpec& spec, const std::vector<LayoutBlock>& new_layout,
                                  const std::string& source, WarmStartReport* report) {
  const NetSpec& old = old_net->spec();
  const std::string what = "warm start from '" + source + "'";
  if (old.resolved_kind() != spec.resolved_kind() || old.config.hidden != spec.config.hidden ||
      old.config.blocks != spec.config.blocks ||
      (spec.resolved_kind() == "conv" && old.config.channels != spec.config.channels))
    throw Error(what + ": its network is " + old.resolved_kind() + " with hidden " +
                std::to_string(old.config.hidden) + ", blocks " + std::to_string(old.config.blocks) +
                ", channels " + std::to_string(old.config.channels) +
                "; the model block must describe the same network");
  if (old.num_actions != spec.num_actions)
    throw Error(what + ": it has " + std::to_string(old.num_actions) + " actions, the game now " +
                std::to_string(spec.num_actions) + " (the action ids changed: a warm start cannot map them)");
  if (spec.num_players < old.num_players)
    throw Error(what + ": its value head has " + std::to_string(old.num_players) +
                " seats, the new one only " + std::to_string(spec.num_players));
  check_tiles(old_layout, old.observation_size(), what + ": the old observation layout");
  check_tiles(new_layout, spec.observation_size(), what + ": the new observation layout");

  WarmStartReport r;
  r.old_value_seats = old.num_players;
  r.new_value_seats = spec.num_players;
  for (const LayoutBlock& b : new_layout) {
    const LayoutBlock* before = find_block(old_layout, b.name);
    (before && before->size == b.size ? r.copied : r.added).push_back(b.name);
  }
  for (const LayoutBlock& b : old_layout)
    if (!find_block(new_layout, b.name)) r.dropped.push_back(b.name);

  const bool conv = spec.resolved_kind() == "conv";
  bool same_layout =
      old.observation_shape == spec.observation_shape && old_layout.size() == new_layout.size();
  for (std::size_t k = 0; same_layout && k < new_layout.size(); ++k)
    same_layout = new_layout[k].name == old_layout[k].name && new_layout[k].size == old_layout[k].size;
  if (conv && !same_layout)
    throw Error(what +
                ": a conv network reads its observation as planes, so it carries over only when the "
                "observation layout is unchanged (new blocks: " +
                names(r.added) + ", dropped: " + names(r.dropped) + ")");

  PolicyValueNet net(spec);
  torch::NoGradGuard no_grad;
  const auto old_params = old_net->named_parameters();
  for (auto& item : net->named_parameters()) {
    const std::string& name = item.key();
    torch::Tensor to = item.value();
    const torch::Tensor* found = old_params.find(name);
    if (found == nullptr) throw Error(what + ": its network has no tensor '" + name + "'");
    const torch::Tensor from = found->detach().to(to.device(), torch::kFloat32);
    if (!conv && name == "stem_linear.weight") {
      to.zero_();
      for (const LayoutBlock& b : new_layout) {
        const LayoutBlock* before = find_block(old_layout, b.name);
        if (before && before->size == b.size)
          to.narrow(1, b.offset, b.size).copy_(from.narrow(1, before->offset, b.size));
      }
    } else if (name == "value_head.weight" || name == "value_head.bias") {
      const int64_t rows = from.size(0);
      to.narrow(0, 0, rows).copy_(from);
      for (int64_t row = rows; row < to.size(0); ++row) to[row].copy_(from[rows - 1]);
    } else {
      if (to.sizes() != from.sizes())
        throw Error(what + ": tensor '" + name + "' has another shape in the new network");
      to.copy_(from);
    }
  }
  if (report) *report = r;
  return net;
}

}  // namespace rocketgym
