// The search tree of training/mcts/mcts.h: one arena of nodes (one node = one
// action sequence from the root), a value sum per node and seat, and the
// max-n backup. The arena is reserved once and reused by later searches; no
// call here allocates once its capacity is there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/game.h"

namespace rocketgym::mcts {

// One tree node = one action sequence from the root. Children form a
// singly linked list inside the arena.
struct Node {
  Action action = -1;        // the move from the parent
  int32_t first_child = -1;  // -1: none yet
  int32_t next_sibling = -1;
  int32_t visits = 0;
  int32_t available = 0;  // times this move was legal when the parent was passed through
  float prior = 0.0f;
  bool expanded = false;  // evaluated once; children exist for the legal moves seen so far
};

class Tree {
 public:
  explicit Tree(int capacity = 0) : capacity_(capacity) {}

  // Empties the tree for a search with `num_players` seats and adds the root
  // (node 0). The arena is reserved here once and kept by later searches.
  void reset(int num_players) {
    num_players_ = num_players;
    nodes_.reserve(static_cast<std::size_t>(capacity_));
    value_sums_.reserve(static_cast<std::size_t>(capacity_) * static_cast<std::size_t>(num_players_));
    nodes_.clear();
    value_sums_.clear();
    new_node(-1, 0.0f);
  }

  Node& operator[](int node) { return nodes_[node]; }
  const Node& operator[](int node) const { return nodes_[node]; }
  bool empty() const { return nodes_.empty(); }
  int size() const { return static_cast<int>(nodes_.size()); }
  int capacity() const { return capacity_; }

  bool has_room(int count) const { return static_cast<int>(nodes_.size()) + count <= capacity_; }

  // Prepends a child to `parent`'s list; returns its index.
  int add_child(int parent, Action action, float prior) {
    const int c = new_node(action, prior);
    nodes_[c].next_sibling = nodes_[parent].first_child;
    nodes_[parent].first_child = c;
    return c;
  }

  // Mean value of `node` for `seat` (0 if never visited).
  float mean_value(int node, int seat) const {
    if (seat < 0 || seat >= num_players_) throw Error("mcts: seat " + std::to_string(seat) + " out of range");
    const Node& n = nodes_[static_cast<std::size_t>(node)];
    if (n.visits == 0) return 0.0f;
    return value_sums_[static_cast<std::size_t>(node) * num_players_ + seat] / static_cast<float>(n.visits);
  }

  // The root child for action a, or -1.
  int root_child(Action a) const {
    if (nodes_.empty()) return -1;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling)
      if (nodes_[c].action == a) return c;
    return -1;
  }

  // Max-n backup: every node on the path accumulates the whole value vector
  // (`values`: one per absolute seat).
  void backup(const std::vector<int32_t>& path, const float* values) {
    for (int node : path) {
      ++nodes_[node].visits;
      float* sums = &value_sums_[static_cast<std::size_t>(node) * num_players_];
      for (int p = 0; p < num_players_; ++p) sums[p] += values[p];
    }
  }

 private:
  int new_node(Action action, float prior) {
    Node n;
    n.action = action;
    n.prior = prior;
    nodes_.push_back(n);
    value_sums_.insert(value_sums_.end(), static_cast<std::size_t>(num_players_), 0.0f);
    return static_cast<int>(nodes_.size()) - 1;
  }

  int capacity_;
  int num_players_ = 0;
  std::vector<Node> nodes_;
  std::vector<float> value_sums_;  // [node * num_players + seat]
};

}  // namespace rocketgym::mcts
