// PolicyRunner's fast paths for agents: the policy alone (no value head), the
// first layer computed from the non-zero inputs only and the whole mlp in
// plain C++ (lean_mlp.h) give the network's own probabilities and values.
#include "training/policy_runner.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "envs/core/rng.h"
#include "models/policy_value_net.h"

using namespace rocketgym;

namespace {

constexpr int kRows = 5, kInputs = 40, kActions = 9;

NetSpec mlp_spec(int inputs, int actions, int hidden, int blocks, int seats = 2) {
  NetSpec spec;
  spec.config.kind = "mlp";
  spec.config.hidden = hidden;
  spec.config.blocks = blocks;
  spec.observation_shape = {inputs};
  spec.num_actions = actions;
  spec.num_players = seats;
  return spec;
}

NetSpec small_mlp() { return mlp_spec(kInputs, kActions, 16, 1); }

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

namespace {

// Rows for a network of `inputs` inputs and `actions` actions: a few ones, one
// other value and some legal actions per row, different from row to row.
void fill_rows(PolicyRunner& runner, int rows, int inputs, int actions, uint64_t seed) {
  Rng rng(seed);
  for (int k = 0; k < rows; ++k) {
    float* x = runner.observation_row(k);
    for (int i = 0; i < inputs; ++i) x[i] = rng.below(6) == 0 ? 1.0f : 0.0f;
    x[(3 * k) % inputs] = 0.5f + 0.25f * static_cast<float>(k % 3);
    for (int a = 0; a < actions; ++a) runner.mask_row(k)[a] = rng.below(3) == 0 || a == k % actions;
  }
}

}  // namespace

TEST_CASE("the plain C++ forward pass gives LibTorch's policy and values at every batch size",
          "[policy_runner]") {
  // Widths that are and are not a multiple of the loops' 16 outputs, two blocks.
  const int hidden = GENERATE(32, 40);
  constexpr int kObs = 60, kAct = 11, kSeats = 3, kMaxRows = 13;
  const NetSpec spec = mlp_spec(kObs, kAct, hidden, 2, kSeats);
  PolicyValueNet net(spec);
  {
    torch::NoGradGuard no_grad;  // a policy far from uniform, so that a wrong sum shows
    for (auto& p : net->parameters()) p.normal_(0.0, 0.3);
  }
  PolicyRunner torch_rows(net, torch::kCPU, kMaxRows), lean_rows(net, torch::kCPU, kMaxRows);
  lean_rows.use_sparse_rows();
  fill_rows(torch_rows, kMaxRows, kObs, kAct, 11);
  torch_rows.evaluate(kMaxRows);
  // Each row alone: what a batch of one gives, to compare the batches with.
  std::vector<float> alone_probs(static_cast<std::size_t>(kMaxRows) * kAct);
  std::vector<float> alone_values(static_cast<std::size_t>(kMaxRows) * kSeats);
  PolicyRunner one(net, torch::kCPU, 1);
  one.use_sparse_rows();
  for (int k = 0; k < kMaxRows; ++k) {
    std::copy_n(torch_rows.observation_row(k), kObs, one.observation_row(0));
    std::copy_n(torch_rows.mask_row(k), kAct, one.mask_row(0));
    one.evaluate(1);
    std::copy_n(one.probabilities(0), kAct, &alone_probs[static_cast<std::size_t>(k) * kAct]);
    std::copy_n(one.values(0), kSeats, &alone_values[static_cast<std::size_t>(k) * kSeats]);
  }
  for (int count : {1, 2, 3, 4, 5, 8, 9, 13}) {
    INFO("hidden " << hidden << ", batch of " << count);
    fill_rows(lean_rows, count, kObs, kAct, 11);
    lean_rows.evaluate(count);
    for (int k = 0; k < count; ++k) {
      for (int a = 0; a < kAct; ++a) {
        CHECK(lean_rows.probabilities(k)[a] == Approx(torch_rows.probabilities(k)[a]).margin(1e-5));
        // Whatever the batch and the row's place in it: the same bits.
        CHECK(lean_rows.probabilities(k)[a] == alone_probs[static_cast<std::size_t>(k) * kAct + a]);
      }
      for (int p = 0; p < kSeats; ++p) {
        CHECK(lean_rows.values(k)[p] == Approx(torch_rows.values(k)[p]).margin(1e-5));
        CHECK(lean_rows.values(k)[p] == alone_values[static_cast<std::size_t>(k) * kSeats + p]);
      }
    }
  }
}

TEST_CASE("the plain C++ forward pass follows every layer's weights changed in place", "[policy_runner]") {
  constexpr int kObs = 30, kAct = 7, kRowsHere = 6;
  const NetSpec spec = mlp_spec(kObs, kAct, 16, 1);
  PolicyValueNet net(spec);
  PolicyRunner torch_rows(net, torch::kCPU, kRowsHere), lean_rows(net, torch::kCPU, kRowsHere);
  lean_rows.use_sparse_rows();
  fill_rows(torch_rows, kRowsHere, kObs, kAct, 5);
  fill_rows(lean_rows, kRowsHere, kObs, kAct, 5);
  lean_rows.evaluate(kRowsHere);  // the copy of the first weights
  {
    torch::NoGradGuard no_grad;  // as an optimizer step does, layer by layer
    for (auto& p : net->parameters()) p.normal_(0.0, 0.4);
  }
  torch_rows.evaluate(kRowsHere);
  lean_rows.evaluate(kRowsHere);
  for (int k = 0; k < kRowsHere; ++k) {
    for (int a = 0; a < kAct; ++a)
      CHECK(lean_rows.probabilities(k)[a] == Approx(torch_rows.probabilities(k)[a]).margin(1e-5));
    for (int p = 0; p < 2; ++p) CHECK(lean_rows.values(k)[p] == Approx(torch_rows.values(k)[p]).margin(1e-5));
  }
}

TEST_CASE("rows evaluated in groups at any place give the batch's probabilities bit for bit",
          "[policy_runner]") {
  constexpr int kObs = 50, kAct = 10, kMaxRows = 20;
  const NetSpec spec = mlp_spec(kObs, kAct, 40, 2);
  PolicyValueNet net(spec);
  {
    torch::NoGradGuard no_grad;
    for (auto& p : net->parameters()) p.normal_(0.0, 0.3);
  }
  PolicyRunner batch(net, torch::kCPU, kMaxRows), groups(net, torch::kCPU, kMaxRows);
  batch.use_sparse_rows();
  groups.use_sparse_rows();
  REQUIRE(groups.lean());
  fill_rows(batch, kMaxRows, kObs, kAct, 17);
  batch.evaluate_policy(kMaxRows);
  // Row k evaluated in a group of `size` rows starting at row `at`, for sizes
  // 1 to 8 and places that are not multiples of them.
  groups.prepare_groups();
  for (int size = 1; size <= PolicyRunner::kGroupRows; ++size)
    for (int at : {0, 3, kMaxRows - size}) {
      INFO("group of " << size << " at row " << at);
      for (int j = 0; j < size; ++j) {
        std::copy_n(batch.observation_row(j), kObs, groups.observation_row(at + j));
        std::copy_n(batch.mask_row(j), kAct, groups.mask_row(at + j));
      }
      groups.evaluate_group(at, size);
      for (int j = 0; j < size; ++j)
        for (int a = 0; a < kAct; ++a) CHECK(groups.probabilities(at + j)[a] == batch.probabilities(j)[a]);
    }
  CHECK_THROWS_WITH(groups.evaluate_group(kMaxRows - 2, 3), Catch::Contains("is not a group of at most 8"));
  CHECK_THROWS_WITH(groups.evaluate_group(0, 9), Catch::Contains("is not a group of at most 8"));
  PolicyRunner torch_rows(net, torch::kCPU, 4);
  CHECK_THROWS_WITH(torch_rows.prepare_groups(), Catch::Contains("does not run in plain C++"));
}

TEST_CASE("rows are split into groups of even sizes", "[policy_runner]") {
  CHECK(PolicyRunner::groups(8) == 1);
  CHECK(PolicyRunner::groups(9) == 2);
  CHECK(PolicyRunner::group_begin(9, 1) == 4);  // 4 + 5, not 8 + 1
  for (int count = 1; count <= 40; ++count) {
    int biggest = 0, smallest = count;
    for (int g = 0; g < PolicyRunner::groups(count); ++g) {
      const int size = PolicyRunner::group_begin(count, g + 1) - PolicyRunner::group_begin(count, g);
      biggest = std::max(biggest, size);
      smallest = std::min(smallest, size);
    }
    CHECK(PolicyRunner::group_begin(count, PolicyRunner::groups(count)) == count);
    CHECK(biggest <= PolicyRunner::kGroupRows);
    CHECK(biggest - smallest <= 1);
  }
}
