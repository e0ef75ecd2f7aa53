// LeanMlp: an mlp policy-value network's forward pass in plain C++, for the
// small batches of a network agent (PolicyRunner::use_sparse_rows()).
//
// An agent's batches are small (the opponent env plays a network's moves a
// group of up to kRowGroup envs at a time, opponent_env.h), and LibTorch
// spends more time dispatching its dozen operators per forward pass (and
// waking its threads for each) than computing them. LeanMlp keeps a copy of
// the weights laid out for its loops and computes a few rows at a time
// (kRowGroup: each weight read serves them all), with no allocation and no
// thread of its own: the caller spreads the row groups over its threads.
// What it skips, as PolicyRunner described: the first layer reads only the
// non-zero inputs (an encoder's observation is mostly zeros), the policy
// head computes the legal actions' logits only.
//
// Every output of a row is the same whatever the other rows of its group or
// the batch (each sum runs over its terms in one fixed order); its sums run
// in another order than LibTorch's matrix products, so a probability may
// differ from forward()'s in its last bits.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "models/policy_value_net.h"

namespace rocketgym {

class LeanMlp {
 public:
  // Rows computed together: each weight read serves them all (a Launch Pad
  // network's residual blocks are 1 MB of weights, read once per group).
  static constexpr int kRowGroup = 8;

  // For a network of kind mlp (throws Error for another). It holds the
  // network's parameters; sync() copies their values.
  explicit LeanMlp(const PolicyValueNetImpl& net);

  // Copies the network's weights if they changed since the last call (an
  // optimizer step or a load changes them in place) or were never copied.
  void sync();

  int hidden() const { return hidden_; }

  // The trunk's features of `rows` (at most kRowGroup) consecutive
  // observations [rows, obs_size] into `features` [rows, hidden]; `scratch`
  // holds [2 rows, hidden].
  void features(const float* observations, int rows, float* features, float* scratch) const;
  // One row's masked policy from its features: the softmax of the legal
  // actions' logits, 0 for the others (all 0 if none is legal).
  void policy(const float* features, const uint8_t* mask, float* probabilities) const;
  // The values [rows, num_players] of `rows` rows of features; `scratch`
  // holds [rows, hidden].
  void values(const float* features, int rows, float* values, float* scratch) const;

 private:
  // A Linear layer of the network and the copy of its weights, by input
  // ([in, out]: the weights of input i contiguous, for the loops over the
  // outputs) or by output ([out, in], for the policy head's dot product per
  // legal action).
  struct Layer {
    torch::Tensor weight, bias;  // the network's
    bool by_input = true;
    std::vector<float> weights, biases;
    // What the copy was made from: the weight's and bias's storage and version.
    std::pair<const void*, int64_t> copied_from[2] = {{nullptr, -1}, {nullptr, -1}};
  };

  static Layer layer(const PolicyValueNetImpl& net, const std::string& name, bool by_input);

  int obs_size_, hidden_, num_actions_, players_;
  Layer stem_, policy_, value_hidden_, value_head_;
  std::vector<Layer> blocks_;  // two per residual block
};

// Calls f(a) for each legal action a of `mask` in increasing order, reading
// the mask eight actions at a time: a few of the hundreds of actions are
// legal.
template <class F>
inline void for_each_legal(const uint8_t* mask, int num_actions, F&& f) {
  int a = 0;
  for (; a + 8 <= num_actions; a += 8) {
    uint64_t word;
    std::memcpy(&word, mask + a, sizeof word);
    if (word == 0) continue;
    for (int b = a; b < a + 8; ++b)
      if (mask[b]) f(b);
  }
  for (; a < num_actions; ++a)
    if (mask[a]) f(a);
}

}  // namespace rocketgym
