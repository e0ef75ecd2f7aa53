#include "training/policy_runner.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rocketgym {

PolicyRunner::PolicyRunner(PolicyValueNet net, torch::Device device, int max_batch)
    : net_(std::move(net)), device_(device), max_batch_(std::max(1, max_batch)) {
  const NetSpec& spec = net_->spec();
  obs_size_ = spec.observation_size();
  num_actions_ = spec.num_actions;
  players_ = spec.num_players;
  const auto rows = static_cast<std::size_t>(max_batch_);
  observations_.resize(rows * obs_size_);
  masks_.resize(rows * num_actions_);
  values_.resize(rows * players_);
  probs_.resize(rows * num_actions_);
}

Action choose_action(const float* probs, const uint8_t* mask, int num_actions, bool greedy, Rng& rng) {
  Action best = -1;
  double total = 0.0;
  for (int a = 0; a < num_actions; ++a) {
    if (!mask[a]) continue;
    total += probs[a];
    if (best < 0 || probs[a] > probs[best]) best = a;
  }
  if (best < 0) throw Error("policy asked to act with no legal action");
  if (greedy || total <= 0.0) return best;
  // Inverse CDF over the legal actions only, so an illegal id is never drawn
  // even if its probability is not exactly zero.
  double u = rng.uniform01() * total;
  Action last = best;
  for (int a = 0; a < num_actions; ++a) {
    if (!mask[a]) continue;
    last = a;
    u -= probs[a];
    if (u < 0.0) return a;
  }
  return last;  // rounding: the last legal action
}

void PolicyRunner::evaluate(int count) {
  if (count <= 0) return;
  if (count > max_batch_)
    throw Error("PolicyRunner: batch of " + std::to_string(count) + " over its capacity");
  torch::NoGradGuard no_grad;
  auto obs = torch::from_blob(observations_.data(), {count, obs_size_}, torch::kFloat32).to(device_);
  auto mask = torch::from_blob(masks_.data(), {count, num_actions_}, torch::kUInt8).to(device_);
  PolicyValueOutput out = net_->forward(obs);
  const auto probs = torch::softmax(masked_logits(out.logits, mask), -1).to(torch::kCPU).contiguous();
  const auto values = out.values.to(torch::kCPU).contiguous();
  std::memcpy(probs_.data(), probs.data_ptr<float>(), sizeof(float) * count * num_actions_);
  std::memcpy(values_.data(), values.data_ptr<float>(), sizeof(float) * count * players_);
}

float PolicyRunner::log_prob(int k, Action a) const {
  return std::log(std::max(probabilities(k)[a], 1e-30f));
}

}  // namespace rocketgym
