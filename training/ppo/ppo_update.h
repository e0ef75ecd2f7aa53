// One PPO update on a batch of finished learner decisions (no game types
// here, only tensors).
//
// Data-parallel over the ranks of a distributed run (DD-PPO): the batch is the
// union of every rank's ready slots, in rank order. Every rank draws the same
// shuffle of the union from `shuffle_seed`, so all ranks cut the same
// minibatches; each computes the loss terms of its own rows as a share of the
// minibatch mean and the gradients are summed over the ranks
// (dist::all_reduce_gradients). Advantages are normalised over the union.
// One rank (the default context) is the same computation with every row at
// home: the update on 2 ranks with half the data each equals the 1-rank
// update on the union, up to float rounding.
#pragma once

#include <torch/torch.h>

#include <cstdint>

#include "models/policy_value_net.h"
#include "training/distributed/distributed.h"
#include "training/ppo/trajectory_store.h"
#include "training/run/phase_times.h"

namespace rocketgym::ppo {

struct UpdateSettings {
  int epochs = 4;
  int minibatch = 1024;
  double clip = 0.2;
  double value_coef = 0.5;
  double entropy_coef = 0.01;
  double max_grad_norm = 0.5;
};

struct UpdateStats {
  int samples = 0;  // over all ranks
  double policy_loss = 0.0, value_loss = 0.0, entropy = 0.0, approx_kl = 0.0, clip_fraction = 0.0;
};

// The clipped surrogate, the value loss over every seat's head and the
// entropy bonus, over `epochs` shuffled passes of the store's ready slots (of
// every rank of `context`). With `times`, the seconds of each phase of the
// update are added to it.
UpdateStats ppo_update(PolicyValueNet& net, torch::optim::Optimizer& optimizer, const TrajectoryStore& store,
                       const UpdateSettings& settings, torch::Device device,
                       const dist::Context& context = {}, uint64_t shuffle_seed = 0,
                       run::PhaseTimes* times = nullptr);

// Supervised steps on the store's ready slots: cross-entropy of the masked
// policy against the recorded actions, plus the value loss. Returns the mean
// cross-entropy in policy_loss and the share of argmax hits in clip_fraction's
// place (reported as "accuracy").
UpdateStats imitation_update(PolicyValueNet& net, torch::optim::Optimizer& optimizer,
                             const TrajectoryStore& store, const UpdateSettings& settings,
                             torch::Device device, const dist::Context& context = {},
                             uint64_t shuffle_seed = 0);

// The PPO loss terms for one minibatch (exposed for tests): means over the
// rows given, or, with `count` > 0, these rows' share of the mean over a
// minibatch of `count` rows spread over several ranks. The value loss of a
// row is the mean squared error over the seats `seat_mask` [B, seats] marks
// (seat_mask(): the seats at the row's table), over every seat without one.
struct LossTerms {
  torch::Tensor policy_loss, value_loss, entropy, approx_kl, clip_fraction;
};
LossTerms ppo_loss(const PolicyValueOutput& out, const torch::Tensor& masks, const torch::Tensor& actions,
                   const torch::Tensor& old_log_probs, const torch::Tensor& advantages,
                   const torch::Tensor& value_targets, double clip, double count = 0.0,
                   const torch::Tensor& seat_mask = {});

}  // namespace rocketgym::ppo
