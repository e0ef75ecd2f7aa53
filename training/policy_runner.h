// Batched inference for a policy-value network: the caller writes
// observations and masks into staging rows, evaluate() runs one forward pass,
// then choose() picks an action per row (greedy or sampled from the masked
// policy) with the caller's random stream, so results do not depend on how
// rows were batched.
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
  PolicyValueNet net_;
  torch::Device device_;
  int max_batch_, obs_size_, num_actions_, players_;
  std::vector<float> observations_, values_, probs_;
  std::vector<uint8_t> masks_;
};

}  // namespace rocketgym
