// Batched inference for a policy-value network: the caller writes
// observations and masks into staging rows, evaluate() runs one forward pass,
// then choose() picks an action per row (greedy or sampled from the masked
// policy) with the caller's random stream, so results do not depend on how
// rows were batched.
//
// An agent's runner can skip most of an mlp's work (use_sparse_rows()): the
// encoders' observations are mostly zeros (Launch Pad's 2013 floats hold about
// 35 non-zero ones) and few actions are legal (3 to 6 on average of 138 to
// 970), so it computes the first layer from each row's non-zero inputs and
// the policy logits of its legal actions only, about half and a fifth of the
// network's work. Its sums then run in another order than the dense
// products', so the probabilities may differ from forward()'s in their last
// bits (a greedy tie or a draw at a boundary could go the other way); each row
// still depends on its own observation only, whatever the batch.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/rng.h"
#include "models/policy_value_net.h"

namespace rocketgym {

// Picks from one row of probabilities restricted to the legal actions.
Action choose_action(const float* probs, const uint8_t* mask, int num_actions, bool greedy, Rng& rng);

class PolicyRunner {
 public:
  PolicyRunner(PolicyValueNet net, torch::Device device, int max_batch);

  float* observation_row(int k) { return &observations_[static_cast<std::size_t>(k) * obs_size_]; }
  uint8_t* mask_row(int k) { return &masks_[static_cast<std::size_t>(k) * num_actions_]; }

  // Runs the network on rows [0, count): masked probabilities and values.
  void evaluate(int count);
  // The masked probabilities alone (values(k) is not written): the value
  // head is not run, for a caller that only acts.
  void evaluate_policy(int count);
  // From now on, computes an mlp's first layer from the non-zero inputs of
  // each row and its policy logits for the legal actions only (see above). It
  // keeps a copy of the first layer's weights laid out by input, made again
  // whenever the network's weights change. No effect on a conv network or off
  // the CPU.
  void use_sparse_rows();
  // Greedy picks the most probable legal action (lowest id on ties);
  // otherwise samples with `rng`. Throws Error if the row has no legal action.
  Action choose(int k, bool greedy, Rng& rng) const {
    return choose_action(probabilities(k), &masks_[static_cast<std::size_t>(k) * num_actions_], num_actions_,
                         greedy, rng);
  }
  float log_prob(int k, Action a) const;
  const float* values(int k) const { return &values_[static_cast<std::size_t>(k) * players_]; }
  const float* probabilities(int k) const { return &probs_[static_cast<std::size_t>(k) * num_actions_]; }
  int max_batch() const { return max_batch_; }
  PolicyValueNet& net() { return net_; }

 private:
  void run(int count, PolicyValueNetImpl::Heads heads);
  void run_sparse(int count, PolicyValueNetImpl::Heads heads);
  torch::Tensor sparse_stem(int count);  // the first layer's output [count, hidden], before its ReLU
  void legal_policy(const torch::Tensor& features, int count);  // probabilities from the trunk's features

  PolicyValueNet net_;
  torch::Device device_;
  int max_batch_, obs_size_, num_actions_, players_;
  std::vector<float> observations_, values_, probs_;
  std::vector<uint8_t> masks_;
  // use_sparse_rows(): the first layer's weights transposed [obs_size, hidden]
  // and its bias, the versions of the weights they were copied from, and the
  // layer's output [max_batch, hidden].
  bool sparse_ = false;
  std::vector<float> stem_by_input_, stem_bias_, stem_out_;
  int64_t stem_version_ = -1;
  const void* stem_data_ = nullptr;
};

}  // namespace rocketgym
