#include "training/alphazero/alphazero_update.h"

#include <cstring>

namespace rocketgym::alphazero {

LossTerms az_loss(const PolicyValueOutput& out, const torch::Tensor& masks,
                  const torch::Tensor& policy_targets, const torch::Tensor& value_targets, double value_coef,
                  double count, const torch::Tensor& seat_mask) {
  const double n = count > 0 ? count : static_cast<double>(masks.size(0));
  LossTerms t;
  const torch::Tensor log_probs = torch::log_softmax(masked_logits(out.logits, masks), 1);
  t.policy_loss = -(policy_targets * log_probs).sum() / n;
  const torch::Tensor squared = (out.values - value_targets).pow(2);
  t.value_loss = (seat_mask.defined() ? squared * seat_mask : squared).sum() / n;
  t.total = t.policy_loss + value_coef * t.value_loss;
  return t;
}

UpdateStats az_update(PolicyValueNet& net, torch::optim::Optimizer& optimizer, const ReplayBuffer& buffer,
                      const UpdateSettings& settings, Rng& rng, torch::Device device,
                      std::vector<int32_t>& scratch, const dist::Context& context) {
  // This rank's rows of each minibatch of settings.batch.
  const int b = static_cast<int>(dist::share(settings.batch, context.rank(), context.size()));
  const int obs = buffer.obs_size(), actions = buffer.num_actions(), players = buffer.num_players();
  // Staging tensors for one minibatch, filled from the buffer's rows.
  torch::Tensor observations = torch::empty({b, obs});
  torch::Tensor masks = torch::empty({b, actions}, torch::kUInt8);
  torch::Tensor policies = torch::empty({b, actions});
  torch::Tensor values = torch::empty({b, players});
  torch::Tensor table = torch::empty({b}, torch::kInt64);
  UpdateStats stats;
  net->train();
  for (int step = 0; step < settings.steps; ++step) {
    optimizer.zero_grad();
    torch::Tensor shares = torch::zeros({3});  // policy loss, value loss, entropy: this rank's share
    if (b > 0) {
      buffer.sample(b, rng, scratch);
      for (int k = 0; k < b; ++k) {
        const int slot = scratch[static_cast<std::size_t>(k)];
        std::memcpy(observations.data_ptr<float>() + static_cast<std::size_t>(k) * obs,
                    buffer.observation(slot), sizeof(float) * obs);
        std::memcpy(masks.data_ptr<uint8_t>() + static_cast<std::size_t>(k) * actions, buffer.mask(slot),
                    static_cast<std::size_t>(actions));
        std::memcpy(policies.data_ptr<float>() + static_cast<std::size_t>(k) * actions, buffer.policy(slot),
                    sizeof(float) * actions);
        std::memcpy(values.data_ptr<float>() + static_cast<std::size_t>(k) * players, buffer.value(slot),
                    sizeof(float) * players);
        table.data_ptr<int64_t>()[k] = buffer.table_players(slot);
      }
      const torch::Tensor m = masks.to(device);
      const PolicyValueOutput out = net->forward(observations.to(device));
      const LossTerms loss = az_loss(out, m, policies.to(device), values.to(device), settings.value_coef,
                                     settings.batch, seat_mask(table, players).to(device));
      loss.total.backward();
      const torch::Tensor entropy =
          masked_entropy(masked_logits(out.logits.detach(), m)).sum() / settings.batch;
      shares = torch::stack({loss.policy_loss.detach(), loss.value_loss.detach(), entropy}).to(torch::kCPU);
    }
    dist::all_reduce_gradients(context, net->parameters(), shares);
    torch::nn::utils::clip_grad_norm_(net->parameters(), settings.max_grad_norm);
    optimizer.step();
    stats.policy_loss += shares[0].item<double>();
    stats.value_loss += shares[1].item<double>();
    stats.policy_entropy += shares[2].item<double>();
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
