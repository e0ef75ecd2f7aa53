// PolicyRunner's fast paths for agents: the policy alone (no value head) and
// the first layer computed from the non-zero inputs only give the network's
// own probabilities and values.
#include "training/policy_runner.h"

#include <catch2/catch.hpp>

#include "envs/core/rng.h"
#include "models/policy_value_net.h"

using namespace rocketgym;

namespace {

constexpr int kRows = 5, kInputs = 40, kActions = 9;

NetSpec small_mlp() {
  NetSpec spec;
  spec.config.kind = "mlp";
  spec.config.hidden = 16;
  spec.config.blocks = 1;
  spec.observation_shape = {kInputs};
  spec.num_actions = kActions;
  spec.num_players = 2;
  return spec;
}

// Mostly zeros, as the encoders' observations are: a few ones and one other value.
void fill_rows(PolicyRunner& runner, uint64_t seed) {
  Rng rng(seed);
  for (int k = 0; k < kRows; ++k) {
    float* x = runner.observation_row(k);
    for (int i = 0; i < kInputs; ++i) x[i] = rng.below(5) == 0 ? 1.0f : 0.0f;
    x[k] = -0.75f;
    for (int a = 0; a < kActions; ++a) runner.mask_row(k)[a] = (a + k) % 2 == 0;
  }
}

void check_same(const PolicyRunner& sparse, const PolicyRunner& dense, bool values) {
  for (int k = 0; k < kRows; ++k) {
    for (int a = 0; a < kActions; ++a)
      CHECK(sparse.probabilities(k)[a] == Approx(dense.probabilities(k)[a]).margin(1e-5));
    if (values)
      for (int p = 0; p < 2; ++p) CHECK(sparse.values(k)[p] == Approx(dense.values(k)[p]).margin(1e-5));
  }
}

}  // namespace

TEST_CASE("the first layer from the non-zero inputs gives the dense network's policy and values",
          "[policy_runner]") {
  PolicyValueNet net(small_mlp());
  {
    torch::NoGradGuard no_grad;  // a policy far from uniform, so that a wrong sum shows
    for (auto& p : net->parameters()) p.normal_(0.0, 0.5);
  }
  PolicyRunner dense(net, torch::kCPU, kRows), sparse(net, torch::kCPU, kRows);
  sparse.use_sparse_rows();
  fill_rows(dense, 7);
  fill_rows(sparse, 7);
  dense.evaluate(kRows);
  sparse.evaluate(kRows);
  check_same(sparse, dense, true);

  SECTION("the policy alone gives the same probabilities") {
    PolicyRunner policy_only(net, torch::kCPU, kRows);
    policy_only.use_sparse_rows();
    fill_rows(policy_only, 7);
    policy_only.evaluate_policy(kRows);
    check_same(policy_only, sparse, false);
  }

  SECTION("a change of the weights in place is followed") {
    {
      torch::NoGradGuard no_grad;  // as an optimizer step does
      net->stem_linear()->weight.mul_(-2.0);
      net->stem_linear()->bias.add_(0.5);
    }
    dense.evaluate(kRows);
    sparse.evaluate(kRows);
    check_same(sparse, dense, true);
  }
}

TEST_CASE("a conv network ignores use_sparse_rows", "[policy_runner]") {
  NetSpec spec;
  spec.observation_shape = {2, 2, 2};
  spec.num_actions = 3;
  spec.num_players = 2;
  spec.config.hidden = 8;
  spec.config.channels = 2;
  PolicyValueNet net(spec);
  PolicyRunner dense(net, torch::kCPU, 2), sparse(net, torch::kCPU, 2);
  sparse.use_sparse_rows();
  for (PolicyRunner* runner : {&dense, &sparse}) {
    for (int k = 0; k < 2; ++k) {
      for (int i = 0; i < 8; ++i) runner->observation_row(k)[i] = i % 3 == k ? 1.0f : 0.0f;
      for (int a = 0; a < 3; ++a) runner->mask_row(k)[a] = 1;
    }
    runner->evaluate(2);
  }
  for (int k = 0; k < 2; ++k)
    for (int a = 0; a < 3; ++a) CHECK(sparse.probabilities(k)[a] == dense.probabilities(k)[a]);
}
