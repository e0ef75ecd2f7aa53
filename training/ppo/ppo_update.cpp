#include "training/ppo/ppo_update.h"

#include <cstring>

namespace rocketgym::ppo {

LossTerms ppo_loss(const PolicyValueOutput& out, const torch::Tensor& masks, const torch::Tensor& actions,
                   const torch::Tensor& old_log_probs, const torch::Tensor& advantages,
                   const torch::Tensor& value_targets, double clip) {
  const torch::Tensor logits = masked_logits(out.logits, masks);
  const torch::Tensor log_probs = torch::log_softmax(logits, -1).gather(1, actions.unsqueeze(1)).squeeze(1);
  const torch::Tensor ratio = torch::exp(log_probs - old_log_probs);
  const torch::Tensor clipped = torch::clamp(ratio, 1.0 - clip, 1.0 + clip);
  LossTerms t;
  t.policy_loss = -torch::min(ratio * advantages, clipped * advantages).mean();
  t.value_loss = torch::mse_loss(out.values, value_targets);
  t.entropy = masked_entropy(logits).mean();
  t.approx_kl = (old_log_probs - log_probs).mean().detach();
  t.clip_fraction = ((ratio - 1.0).abs() > clip).to(torch::kFloat32).mean().detach();
  return t;
}

namespace {

// The ready slots as tensors on `device`.
struct Batch {
  int64_t size = 0;
  torch::Tensor observations, masks, actions, old_log_probs, advantages, targets;
};

Batch gather(const TrajectoryStore& store, torch::Device device) {
  const std::vector<int> slots = store.ready_slots();
  const auto m = static_cast<int64_t>(slots.size());
  Batch b;
  b.size = m;
  if (m == 0) return b;
  const int obs = store.observation_size(), na = store.num_actions(), np = store.num_players();
  auto observations = torch::empty({m, obs}, torch::kFloat32);
  auto masks = torch::empty({m, na}, torch::kUInt8);
  auto actions = torch::empty({m}, torch::kInt64);
  auto old_log_probs = torch::empty({m}, torch::kFloat32);
  auto advantages = torch::empty({m}, torch::kFloat32);
  auto targets = torch::empty({m, np}, torch::kFloat32);
  for (int64_t k = 0; k < m; ++k) {
    const int s = slots[static_cast<std::size_t>(k)];
    std::memcpy(observations.data_ptr<float>() + k * obs, store.observation(s), sizeof(float) * obs);
    std::memcpy(masks.data_ptr<uint8_t>() + k * na, store.mask(s), static_cast<std::size_t>(na));
    actions.data_ptr<int64_t>()[k] = store.action(s);
    old_log_probs.data_ptr<float>()[k] = store.log_prob(s);
    advantages.data_ptr<float>()[k] = store.advantage(s);
    std::memcpy(targets.data_ptr<float>() + k * np, store.value_targets(s), sizeof(float) * np);
  }
  // Normalised advantages: the step size does not depend on the reward scale.
  if (m > 1) advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8);
  b.observations = observations.to(device);
  b.masks = masks.to(device);
  b.actions = actions.to(device);
  b.old_log_probs = old_log_probs.to(device);
  b.advantages = advantages.to(device);
  b.targets = targets.to(device);
  return b;
}

}  // namespace

UpdateStats ppo_update(PolicyValueNet& net, torch::optim::Optimizer& optimizer, const TrajectoryStore& store,
                       const UpdateSettings& settings, torch::Device device) {
  Batch b = gather(store, device);
  const int64_t m = b.size;
  UpdateStats stats;
  stats.samples = static_cast<int>(m);
  if (m == 0) return stats;
  const auto& observations = b.observations;
  const auto& masks = b.masks;
  const auto& actions = b.actions;
  const auto& old_log_probs = b.old_log_probs;
  const auto& advantages = b.advantages;
  const auto& targets = b.targets;
  net->train();
  int batches = 0;
  for (int epoch = 0; epoch < settings.epochs; ++epoch) {
    const torch::Tensor order = torch::randperm(m, torch::TensorOptions().dtype(torch::kInt64)).to(device);
    for (int64_t first = 0; first < m; first += settings.minibatch) {
      const torch::Tensor idx = order.slice(0, first, std::min<int64_t>(m, first + settings.minibatch));
      const PolicyValueOutput out = net->forward(observations.index_select(0, idx));
      const LossTerms t = ppo_loss(out, masks.index_select(0, idx), actions.index_select(0, idx),
                                   old_log_probs.index_select(0, idx), advantages.index_select(0, idx),
                                   targets.index_select(0, idx), settings.clip);
      const torch::Tensor loss =
          t.policy_loss + settings.value_coef * t.value_loss - settings.entropy_coef * t.entropy;
      optimizer.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(net->parameters(), settings.max_grad_norm);
      optimizer.step();
      stats.policy_loss += t.policy_loss.item<double>();
      stats.value_loss += t.value_loss.item<double>();
      stats.entropy += t.entropy.item<double>();
      stats.approx_kl += t.approx_kl.item<double>();
      stats.clip_fraction += t.clip_fraction.item<double>();
      ++batches;
    }
  }
  net->eval();
  stats.policy_loss /= batches;
  stats.value_loss /= batches;
  stats.entropy /= batches;
  stats.approx_kl /= batches;
  stats.clip_fraction /= batches;
  return stats;
}

UpdateStats imitation_update(PolicyValueNet& net, torch::optim::Optimizer& optimizer,
                             const TrajectoryStore& store, const UpdateSettings& settings,
                             torch::Device device) {
  Batch b = gather(store, device);
  UpdateStats stats;
  stats.samples = static_cast<int>(b.size);
  if (b.size == 0) return stats;
  net->train();
  int batches = 0;
  for (int epoch = 0; epoch < settings.epochs; ++epoch) {
    const torch::Tensor order =
        torch::randperm(b.size, torch::TensorOptions().dtype(torch::kInt64)).to(device);
    for (int64_t first = 0; first < b.size; first += settings.minibatch) {
      const torch::Tensor idx = order.slice(0, first, std::min<int64_t>(b.size, first + settings.minibatch));
      const PolicyValueOutput out = net->forward(b.observations.index_select(0, idx));
      const torch::Tensor logits = masked_logits(out.logits, b.masks.index_select(0, idx));
      const torch::Tensor actions = b.actions.index_select(0, idx);
      const torch::Tensor cross_entropy = torch::nn::functional::cross_entropy(logits, actions);
      const torch::Tensor value_loss = torch::mse_loss(out.values, b.targets.index_select(0, idx));
      const torch::Tensor loss = cross_entropy + settings.value_coef * value_loss;
      optimizer.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(net->parameters(), settings.max_grad_norm);
      optimizer.step();
      stats.policy_loss += cross_entropy.item<double>();
      stats.value_loss += value_loss.item<double>();
      stats.clip_fraction += (logits.argmax(1) == actions).to(torch::kFloat32).mean().item<double>();
      ++batches;
    }
  }
  net->eval();
  stats.policy_loss /= batches;
  stats.value_loss /= batches;
  stats.clip_fraction /= batches;
  return stats;
}

}  // namespace rocketgym::ppo
