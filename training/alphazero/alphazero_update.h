// Training steps of search-based self-play (no game types here, only tensors):
// the network's masked policy moves towards the search's improved policy
// (cross-entropy) and its value head towards the game outcomes (squared
// error over every seat).
#pragma once

#include <torch/torch.h>

#include <vector>

#include "envs/core/rng.h"
#include "models/policy_value_net.h"
#include "training/alphazero/replay_buffer.h"
#include "training/distributed/distributed.h"

namespace rocketgym::alphazero {

struct LossTerms {
  torch::Tensor policy_loss;  // cross-entropy against the target policy
  torch::Tensor value_loss;   // mean squared error, summed over seats
  torch::Tensor total;
};

// The loss for one minibatch. `policy_targets` rows sum to 1 over legal
// actions. Means over the rows given, or, with `count` > 0, these rows' share
// of the mean over a minibatch of `count` rows spread over several ranks.
// With `seat_mask` [B, seats] (seat_mask() of each row's table) the value
// loss sums over the marked seats only (the seats at the row's table).
LossTerms az_loss(const PolicyValueOutput& out, const torch::Tensor& masks,
                  const torch::Tensor& policy_targets, const torch::Tensor& value_targets, double value_coef,
                  double count = 0.0, const torch::Tensor& seat_mask = {});

struct UpdateSettings {
  int steps = 1;    // gradient steps
  int batch = 256;  // over all ranks
  double value_coef = 1.0;
  double max_grad_norm = 1.0;
};

struct UpdateStats {
  int steps = 0;
  double policy_loss = 0.0, value_loss = 0.0;
  double policy_entropy = 0.0;  // of the network's policy on the batches, in nats
};

// `steps` gradient steps on minibatches drawn uniformly from the buffer's
// trainable positions. `scratch` holds the drawn slots (reused, no allocation
// once it is big enough).
//
// Data-parallel over the ranks of `context`: each rank draws its share of the
// batch (dist::share) from its own buffer with its own `rng`, computes its
// share of the minibatch mean, and the gradients are summed over the ranks
// (dist::all_reduce_gradients), so every rank takes the same step. Every
// rank's buffer must hold a trainable position. The statistics are the
// job's.
UpdateStats az_update(PolicyValueNet& net, torch::optim::Optimizer& optimizer, const ReplayBuffer& buffer,
                      const UpdateSettings& settings, Rng& rng, torch::Device device,
                      std::vector<int32_t>& scratch, const dist::Context& context = {});

}  // namespace rocketgym::alphazero
