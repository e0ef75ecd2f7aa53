// Batched inference for a policy-value network: the caller writes
// observations and masks into staging rows, evaluate() runs one forward pass,
// then choose() picks an action per row (greedy or sampled from the masked
// policy) with the caller's random stream, so results do not depend on how
// rows were batched.
//
// An agent's runner (and PPO's learner while it collects, and a search's
// leaves) computes an mlp itself, in plain C++ (use_sparse_rows(),
// lean_mlp.h), for its small batches where LibTorch's cost per operator is
// most of a forward pass, and skips most of the work: the encoders'
// observations are mostly zeros (Launch Pad's 2013 floats hold about 35
// non-zero ones) and few actions are legal (3 to 6 on average of 138 to
// 970), so it computes the first layer from each row's non-zero inputs and
// the policy logits of its legal actions only. Its sums then run in another
// order than LibTorch's products, so the probabilities may differ from
// forward()'s in their last bits (a greedy tie or a draw at a boundary could
// go the other way); each row still depends on its own observation only,
// whatever the batch.
#pragma once

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/rng.h"
#include "models/policy_value_net.h"
#include "training/lean_mlp.h"

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
  // evaluate_policy(count) for rows the caller writes and reads in the same
  // parallel loop: write_row(k) fills observation_row(k) and mask_row(k),
  // read_row(k) then reads probabilities(k) (from any thread, one row at a
  // time). With use_sparse_rows() on an mlp, a thread writes, evaluates and
  // reads each group of rows in turn: one wake-up of the threads per batch.
  template <class WriteRow, class ReadRow>
  void evaluate_policy(int count, WriteRow&& write_row, ReadRow&& read_row);
  // From now on, computes an mlp in plain C++ (see above): the first layer
  // from the non-zero inputs of each row, its policy logits for the legal
  // actions only. It keeps a copy of the weights laid out for its loops, made
  // again whenever the network's weights change. No effect on a conv network
  // or off the CPU.
  void use_sparse_rows();
  // Whether use_sparse_rows() took effect: the network runs in plain C++.
  bool lean() const { return lean_ != nullptr; }
  // For a caller that runs groups of rows in its own parallel loop (the
  // opponent env, which plays each group's moves in the same loop): before
  // the loop, from one thread, brings the plain C++ copy of the weights up
  // to date; then evaluate_group(first, rows) writes the masked
  // probabilities of rows [first, first + rows), at most kGroupRows of them,
  // on the calling thread (calls at the same time must use other rows).
  // Needs lean().
  static constexpr int kGroupRows = LeanMlp::kRowGroup;
  void prepare_groups();
  void evaluate_group(int first, int rows);
  // Group g of the groups(count) groups of rows [0, count): consecutive rows,
  // at most kGroupRows, the sizes differing by one at most (9 rows are 5 + 4,
  // not 8 + 1: a group of one reads every weight for one row).
  static int groups(int count) { return (count + kGroupRows - 1) / kGroupRows; }
  static int group_begin(int count, int g) {
    return static_cast<int>(static_cast<int64_t>(g) * count / groups(count));
  }
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
  void check_batch(int count) const;
  void run_lean(int count, PolicyValueNetImpl::Heads heads);
  void run_group(int first, int rows, PolicyValueNetImpl::Heads heads);  // rows [first, first + rows)

  // at::parallel_for's grain in LeanMlp's row groups: a thread is woken for
  // a group or more (up to 8 rows, about 4 M multiply-adds in the zoo networks).
  static constexpr int64_t kGroupsPerTask = 1;
  static constexpr int64_t kRowsPerTask = 4;  // its grain in the rows written for LibTorch

  PolicyValueNet net_;
  torch::Device device_;
  int max_batch_, obs_size_, num_actions_, players_;
  std::vector<float> observations_, values_, probs_;
  std::vector<uint8_t> masks_;
  // use_sparse_rows(): the network's plain C++ copy and its rows' features
  // and scratch [max_batch, hidden] each.
  std::unique_ptr<LeanMlp> lean_;
  std::vector<float> features_, scratch_;
};

template <class WriteRow, class ReadRow>
void PolicyRunner::evaluate_policy(int count, WriteRow&& write_row, ReadRow&& read_row) {
  if (count <= 0) return;
  check_batch(count);
  if (!lean_) {
    at::parallel_for(0, count, kRowsPerTask, [&](int64_t begin, int64_t end) {
      for (auto k = static_cast<int>(begin); k < static_cast<int>(end); ++k) write_row(k);
    });
    evaluate_policy(count);
    for (int k = 0; k < count; ++k) read_row(k);
    return;
  }
  lean_->sync();
  at::parallel_for(0, groups(count), kGroupsPerTask, [&](int64_t begin, int64_t end) {
    for (auto g = static_cast<int>(begin); g < static_cast<int>(end); ++g) {
      const int first = group_begin(count, g), last = group_begin(count, g + 1);
      for (int k = first; k < last; ++k) write_row(k);
      run_group(first, last - first, PolicyValueNetImpl::Heads::kPolicy);
      for (int k = first; k < last; ++k) read_row(k);
    }
  });
}

}  // namespace rocketgym
