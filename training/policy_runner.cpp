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
  for_each_legal(mask, num_actions, [&](int a) {
    total += probs[a];
    if (best < 0 || probs[a] > probs[best]) best = a;
  });
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

void PolicyRunner::evaluate(int count) { run(count, PolicyValueNetImpl::Heads::kBoth); }

void PolicyRunner::evaluate_policy(int count) { run(count, PolicyValueNetImpl::Heads::kPolicy); }

void PolicyRunner::use_sparse_rows() {
  if (net_->spec().resolved_kind() != "mlp" || !device_.is_cpu()) return;
  lean_ = std::make_unique<LeanMlp>(*net_);
  const auto cells = static_cast<std::size_t>(max_batch_) * lean_->hidden();
  features_.resize(cells);
  scratch_.resize(2 * cells);
}

void PolicyRunner::run(int count, PolicyValueNetImpl::Heads heads) {
  if (count <= 0) return;
  check_batch(count);
  if (lean_) return run_lean(count, heads);
  c10::InferenceMode inference;  // no autograd records
  const auto obs = torch::from_blob(observations_.data(), {count, obs_size_}, torch::kFloat32).to(device_);
  const auto mask = torch::from_blob(masks_.data(), {count, num_actions_}, torch::kUInt8).to(device_);
  const PolicyValueOutput out = net_->forward(obs, heads);
  const auto probs = torch::softmax(masked_logits(out.logits, mask), -1).to(torch::kCPU).contiguous();
  std::memcpy(probs_.data(), probs.data_ptr<float>(), sizeof(float) * count * num_actions_);
  if (heads == PolicyValueNetImpl::Heads::kPolicy) return;
  const auto values = out.values.to(torch::kCPU).contiguous();
  std::memcpy(values_.data(), values.data_ptr<float>(), sizeof(float) * count * players_);
}

void PolicyRunner::check_batch(int count) const {
  if (count > max_batch_)
    throw Error("PolicyRunner: batch of " + std::to_string(count) + " over its capacity");
}

// One parallel loop over groups of rows, each group through the whole
// network: no operator to dispatch, one wake-up of the threads per batch.
void PolicyRunner::run_lean(int count, PolicyValueNetImpl::Heads heads) {
  lean_->sync();
  at::parallel_for(0, groups(count), kGroupsPerTask, [&](int64_t begin, int64_t end) {
    for (auto g = static_cast<int>(begin); g < static_cast<int>(end); ++g) {
      const int first = group_begin(count, g);
      run_group(first, group_begin(count, g + 1) - first, heads);
    }
  });
}

void PolicyRunner::prepare_groups() {
  if (!lean_) throw Error("PolicyRunner::prepare_groups: the network does not run in plain C++");
  lean_->sync();
}

void PolicyRunner::evaluate_group(int first, int rows) {
  if (!lean_ || rows < 1 || rows > kGroupRows || first < 0 || first + rows > max_batch_)
    throw Error("PolicyRunner::evaluate_group: rows [" + std::to_string(first) + ", " +
                std::to_string(first + rows) + ") is not a group of at most " + std::to_string(kGroupRows) +
                " of its " + std::to_string(max_batch_) + " rows, or the network does not run in plain C++");
  run_group(first, rows, PolicyValueNetImpl::Heads::kPolicy);
}

void PolicyRunner::run_group(int first, int rows, PolicyValueNetImpl::Heads heads) {
  const int hidden = lean_->hidden();
  const auto cell = static_cast<std::size_t>(first) * hidden;
  float* features = &features_[cell];
  float* scratch = &scratch_[2 * cell];
  lean_->features(observation_row(first), rows, features, scratch);
  for (int k = first; k < first + rows; ++k)
    lean_->policy(&features_[static_cast<std::size_t>(k) * hidden], mask_row(k),
                  &probs_[static_cast<std::size_t>(k) * num_actions_]);
  if (heads == PolicyValueNetImpl::Heads::kBoth)
    lean_->values(features, rows, &values_[static_cast<std::size_t>(first) * players_], scratch);
}

float PolicyRunner::log_prob(int k, Action a) const {
  return std::log(std::max(probabilities(k)[a], 1e-30f));
}

}  // namespace rocketgym
