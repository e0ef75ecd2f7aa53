#include "training/policy_runner.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace rocketgym {

namespace {
constexpr int64_t kRowsPerTask = 8;  // at::parallel_for's grain in the sparse rows' loops
}  // namespace

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

void PolicyRunner::evaluate(int count) { run(count, PolicyValueNetImpl::Heads::kBoth); }

void PolicyRunner::evaluate_policy(int count) { run(count, PolicyValueNetImpl::Heads::kPolicy); }

void PolicyRunner::use_sparse_rows() {
  sparse_ = net_->spec().resolved_kind() == "mlp" && device_.is_cpu();
  if (!sparse_) return;
  const auto hidden = static_cast<std::size_t>(net_->spec().config.hidden);
  stem_by_input_.resize(static_cast<std::size_t>(obs_size_) * hidden);
  stem_bias_.resize(hidden);
  stem_out_.resize(static_cast<std::size_t>(max_batch_) * hidden);
  stem_version_ = -1;
}

void PolicyRunner::run(int count, PolicyValueNetImpl::Heads heads) {
  if (count <= 0) return;
  if (count > max_batch_)
    throw Error("PolicyRunner: batch of " + std::to_string(count) + " over its capacity");
  c10::InferenceMode inference;  // no autograd records
  if (sparse_) return run_sparse(count, heads);
  const auto obs = torch::from_blob(observations_.data(), {count, obs_size_}, torch::kFloat32).to(device_);
  const auto mask = torch::from_blob(masks_.data(), {count, num_actions_}, torch::kUInt8).to(device_);
  const PolicyValueOutput out = net_->forward(obs, heads);
  const auto probs = torch::softmax(masked_logits(out.logits, mask), -1).to(torch::kCPU).contiguous();
  std::memcpy(probs_.data(), probs.data_ptr<float>(), sizeof(float) * count * num_actions_);
  if (heads == PolicyValueNetImpl::Heads::kPolicy) return;
  const auto values = out.values.to(torch::kCPU).contiguous();
  std::memcpy(values_.data(), values.data_ptr<float>(), sizeof(float) * count * players_);
}

void PolicyRunner::run_sparse(int count, PolicyValueNetImpl::Heads heads) {
  const torch::Tensor features = net_->trunk_from_stem(sparse_stem(count)).contiguous();
  legal_policy(features, count);
  if (heads == PolicyValueNetImpl::Heads::kPolicy) return;
  const auto values = net_->values(features).contiguous();
  std::memcpy(values_.data(), values.data_ptr<float>(), sizeof(float) * count * players_);
}

torch::Tensor PolicyRunner::sparse_stem(int count) {
  const torch::nn::Linear& stem = net_->stem_linear();
  const int hidden = net_->spec().config.hidden;
  // The copy by input follows the weights: a trained network's change in place.
  const int64_t version = stem->weight._version() + stem->bias._version();
  if (version != stem_version_ || stem->weight.data_ptr() != stem_data_) {
    const torch::Tensor by_input = stem->weight.detach().t().contiguous();
    std::memcpy(stem_by_input_.data(), by_input.data_ptr<float>(), sizeof(float) * stem_by_input_.size());
    std::memcpy(stem_bias_.data(), stem->bias.detach().contiguous().data_ptr<float>(),
                sizeof(float) * stem_bias_.size());
    stem_version_ = version;
    stem_data_ = stem->weight.data_ptr();
  }
  at::parallel_for(0, count, kRowsPerTask, [&](int64_t begin, int64_t end) {
    for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
      const float* x = &observations_[k * obs_size_];
      float* out = &stem_out_[k * hidden];
      std::copy_n(stem_bias_.data(), hidden, out);
      for (int j = 0; j < obs_size_; ++j) {
        if (x[j] == 0.0f) continue;  // adds nothing
        const float v = x[j];
        const float* column = &stem_by_input_[static_cast<std::size_t>(j) * hidden];
        for (int c = 0; c < hidden; ++c) out[c] += v * column[c];
      }
    }
  });
  return torch::from_blob(stem_out_.data(), {count, hidden}, torch::kFloat32);
}

// The softmax of the legal actions' logits, each one bias + weights . features;
// the illegal actions get 0, as from masked_logits.
void PolicyRunner::legal_policy(const torch::Tensor& features, int count) {
  const torch::nn::Linear& head = net_->policy_head();
  const int hidden = net_->spec().config.hidden;
  const torch::Tensor weight = head->weight.contiguous(), bias = head->bias.contiguous();
  const float* w = weight.data_ptr<float>();
  const float* b = bias.data_ptr<float>();
  const float* f = features.data_ptr<float>();
  at::parallel_for(0, count, kRowsPerTask, [&](int64_t begin, int64_t end) {
    for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
      const float* h = f + k * hidden;
      const uint8_t* legal = &masks_[k * num_actions_];
      float* p = &probs_[k * num_actions_];
      float top = -std::numeric_limits<float>::infinity();
      for (int a = 0; a < num_actions_; ++a) {
        if (!legal[a]) {
          p[a] = 0.0f;
          continue;
        }
        const float* row = w + static_cast<std::size_t>(a) * hidden;
        float logit = 0.0f;
        for (int c = 0; c < hidden; ++c) logit += row[c] * h[c];
        p[a] = logit + b[a];
        top = std::max(top, p[a]);
      }
      float total = 0.0f;
      for (int a = 0; a < num_actions_; ++a)
        if (legal[a]) total += p[a] = std::exp(p[a] - top);
      if (total > 0.0f)  // else no legal action: choose() refuses the row
        for (int a = 0; a < num_actions_; ++a) p[a] /= total;
    }
  });
}

float PolicyRunner::log_prob(int k, Action a) const {
  return std::log(std::max(probabilities(k)[a], 1e-30f));
}

}  // namespace rocketgym
