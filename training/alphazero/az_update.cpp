#include "training/alphazero/az_update.h"

#include <cstring>

namespace rocketgym::alphazero {

AzLossTerms az_loss(const PolicyValueOutput& out, const torch::Tensor& masks, const torch::Tensor& policy_targets,
                    const torch::Tensor& value_targets, double value_coef) {
  AzLossTerms t;
  const torch::Tensor log_probs = torch::log_softmax(masked_logits(out.logits, masks), 1);
  t.policy_loss = -(policy_targets * log_probs).sum(1).mean();
  t.value_loss = (out.values - value_targets).pow(2).sum(1).mean();
  t.total = t.policy_loss + value_coef * t.value_loss;
  return t;
}

AzUpdateStats az_update(PolicyValueNet& net, torch::optim::Optimizer& optimizer, const ReplayBuffer& buffer,
                        const AzUpdateSettings& settings, Rng& rng, torch::Device device,
                        std::vector<int32_t>& scratch) {
  const int b = settings.batch, obs = buffer.obs_size(), actions = buffer.num_actions(),
            players = buffer.num_players();
  // Staging tensors for one minibatch, filled from the buffer's rows.
  torch::Tensor observations = torch::empty({b, obs});
  torch::Tensor masks = torch::empty({b, actions}, torch::kUInt8);
  torch::Tensor policies = torch::empty({b, actions});
  torch::Tensor values = torch::empty({b, players});
  AzUpdateStats stats;
  net->train();
  for (int step = 0; step < settings.steps; ++step) {
    buffer.sample(b, rng, scratch);
    for (int k = 0; k < b; ++k) {
      const int slot = scratch[static_cast<std::size_t>(k)];
      std::memcpy(observations.data_ptr<float>() + static_cast<std::size_t>(k) * obs, buffer.observation(slot),
                  sizeof(float) * obs);
      std::memcpy(masks.data_ptr<uint8_t>() + static_cast<std::size_t>(k) * actions, buffer.mask(slot),
                  static_cast<std::size_t>(actions));
      std::memcpy(policies.data_ptr<float>() + static_cast<std::size_t>(k) * actions, buffer.policy(slot),
                  sizeof(float) * actions);
      std::memcpy(values.data_ptr<float>() + static_cast<std::size_t>(k) * players, buffer.value(slot),
                  sizeof(float) * players);
    }
    const torch::Tensor m = masks.to(device);
    const PolicyValueOutput out = net->forward(observations.to(device));
    const AzLossTerms loss = az_loss(out, m, policies.to(device), values.to(device), settings.value_coef);
    optimizer.zero_grad();
    loss.total.backward();
    torch::nn::utils::clip_grad_norm_(net->parameters(), settings.max_grad_norm);
    optimizer.step();
    stats.policy_loss += loss.policy_loss.item<double>();
    stats.value_loss += loss.value_loss.item<double>();
    stats.policy_entropy += masked_entropy(masked_logits(out.logits.detach(), m)).mean().item<double>();
    ++stats.steps;
  }
  if (stats.steps > 0) {
    stats.policy_loss /= stats.steps;
    stats.value_loss /= stats.steps;
    stats.policy_entropy /= stats.steps;
  }
  net->eval();
  return stats;
}

}  // namespace rocketgym::alphazero
