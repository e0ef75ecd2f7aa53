#include "training/ppo/ppo_update.h"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <cstring>

namespace rocketgym::ppo {

namespace {

// The squared error of each row averaged over its table's seats, summed
// over the rows and divided by n. Without a mask every seat counts.
torch::Tensor value_loss(const torch::Tensor& values, const torch::Tensor& targets,
                         const torch::Tensor& seats, double n) {
  const torch::Tensor squared = (values - targets).pow(2);
  if (!seats.defined()) return squared.sum() / (n * static_cast<double>(targets.size(1)));
  return ((squared * seats).sum(1) / seats.sum(1)).sum() / n;
}

}  // namespace

LossTerms ppo_loss(const PolicyValueOutput& out, const torch::Tensor& masks, const torch::Tensor& actions,
                   const torch::Tensor& old_log_probs, const torch::Tensor& advantages,
                   const torch::Tensor& value_targets, double clip, double count,
                   const torch::Tensor& seat_mask) {
  const double n = count > 0 ? count : static_cast<double>(actions.size(0));
  const torch::Tensor logits = masked_logits(out.logits, masks);
  const torch::Tensor log_probs = torch::log_softmax(logits, -1).gather(1, actions.unsqueeze(1)).squeeze(1);
  const torch::Tensor ratio = torch::exp(log_probs - old_log_probs);
  const torch::Tensor clipped = torch::clamp(ratio, 1.0 - clip, 1.0 + clip);
  LossTerms t;
  t.policy_loss = -torch::min(ratio * advantages, clipped * advantages).sum() / n;
  t.value_loss = value_loss(out.values, value_targets, seat_mask, n);
  t.entropy = masked_entropy(logits).sum() / n;
  t.approx_kl = (old_log_probs - log_probs).sum().detach() / n;
  t.clip_fraction = ((ratio - 1.0).abs() > clip).to(torch::kFloat32).sum().detach() / n;
  return t;
}

namespace {

// This rank's ready slots as tensors (on the CPU until normalised).
struct Batch {
  int64_t size = 0;
  torch::Tensor observations, masks, actions, old_log_probs, advantages, targets;
  torch::Tensor seats;  // seat_mask of each row's table
};

Batch gather(const TrajectoryStore& store) {
  const std::vector<int> slots = store.ready_slots();
  const auto m = static_cast<int64_t>(slots.size());
  const int obs = store.observation_size(), na = store.num_actions(), np = store.num_players();
  Batch b;
  b.size = m;
  b.observations = torch::empty({m, obs}, torch::kFloat32);
  b.masks = torch::empty({m, na}, torch::kUInt8);
  b.actions = torch::empty({m}, torch::kInt64);
  b.old_log_probs = torch::empty({m}, torch::kFloat32);
  b.advantages = torch::empty({m}, torch::kFloat32);
  b.targets = torch::empty({m, np}, torch::kFloat32);
  torch::Tensor table = torch::empty({m}, torch::kInt64);
  for (int64_t k = 0; k < m; ++k) {
    const int s = slots[static_cast<std::size_t>(k)];
    std::memcpy(b.observations.data_ptr<float>() + k * obs, store.observation(s), sizeof(float) * obs);
    std::memcpy(b.masks.data_ptr<uint8_t>() + k * na, store.mask(s), static_cast<std::size_t>(na));
    b.actions.data_ptr<int64_t>()[k] = store.action(s);
    b.old_log_probs.data_ptr<float>()[k] = store.log_prob(s);
    b.advantages.data_ptr<float>()[k] = store.advantage(s);
    std::memcpy(b.targets.data_ptr<float>() + k * np, store.value_targets(s), sizeof(float) * np);
    table.data_ptr<int64_t>()[k] = store.table_players(s);
  }
  b.seats = seat_mask(table, np);
  return b;
}

void to_device(Batch& b, torch::Device device) {
  b.observations = b.observations.to(device);
  b.masks = b.masks.to(device);
  b.actions = b.actions.to(device);
  b.old_log_probs = b.old_log_probs.to(device);
  b.advantages = b.advantages.to(device);
  b.targets = b.targets.to(device);
  b.seats = b.seats.to(device);
}

// The union of the ranks' batches: its size and where this rank's rows are.
struct Union {
  int64_t total = 0, offset = 0, local = 0;
};

Union union_of(const dist::Context& context, int64_t local) {
  const std::vector<int64_t> sizes = context.all_gather(local, "counting the ranks' samples");
  Union u;
  u.local = local;
  for (int r = 0; r < static_cast<int>(sizes.size()); ++r) {
    if (r < context.rank()) u.offset += sizes[static_cast<std::size_t>(r)];
    u.total += sizes[static_cast<std::size_t>(r)];
  }
  return u;
}

// gather and union_of, their seconds added to `times` (union_of is the
// update's first collective: there a rank waits for the others' batches).
Batch gather_timed(const TrajectoryStore& store, run::PhaseTimes* times) {
  run::PhaseTimer timer(times, run::Phase::kBatch);
  return gather(store);
}
Union union_timed(const dist::Context& context, int64_t local, run::PhaseTimes* times) {
  run::PhaseTimer timer(times, run::Phase::kWait);
  return union_of(context, local);
}

// Normalised advantages, with the mean and standard deviation (unbiased, as
// torch::std) of the union: the step size does not depend on the reward scale.
void normalize_advantages(torch::Tensor& advantages, const Union& u, const dist::Context& context) {
  if (u.total < 2) return;
  std::vector<double> sum{advantages.to(torch::kFloat64).sum().item<double>()};
  context.all_reduce_sum(sum, "normalising the advantages");
  const double mean = sum[0] / static_cast<double>(u.total);
  std::vector<double> squares{(advantages.to(torch::kFloat64) - mean).pow(2).sum().item<double>()};
  context.all_reduce_sum(squares, "normalising the advantages");
  const double std = std::sqrt(squares[0] / static_cast<double>(u.total - 1));
  advantages = ((advantages.to(torch::kFloat64) - mean) / (std + 1e-8)).to(torch::kFloat32);
}

// What a loss function returns for this rank's rows of a minibatch: the loss
// to backpropagate and the statistics to report (each a share of the
// minibatch mean).
struct MinibatchLoss {
  torch::Tensor loss;
  std::vector<torch::Tensor> stats;
};

// `epochs` passes over the union in minibatches of the same shuffle on every
// rank; returns the statistics averaged over the minibatches.
template <class LossOf>
std::vector<double> minibatch_passes(PolicyValueNet& net, torch::optim::Optimizer& optimizer, const Union& u,
                                     const UpdateSettings& settings, torch::Device device,
                                     const dist::Context& context, uint64_t shuffle_seed, int num_stats,
                                     run::PhaseTimes* times, LossOf&& loss_of) {
  using run::Phase;
  using run::PhaseTimer;
  at::Generator shuffle = at::detail::createCPUGenerator(shuffle_seed);
  std::vector<double> totals(static_cast<std::size_t>(num_stats), 0.0);
  int batches = 0;
  net->train();
  for (int epoch = 0; epoch < settings.epochs; ++epoch) {
    const torch::Tensor order =
        torch::randperm(u.total, shuffle, torch::TensorOptions().dtype(torch::kInt64));
    for (int64_t first = 0; first < u.total; first += settings.minibatch) {
      const torch::Tensor idx = order.slice(0, first, std::min<int64_t>(u.total, first + settings.minibatch));
      const torch::Tensor home = (idx >= u.offset) & (idx < u.offset + u.local);
      const torch::Tensor rows = (idx.masked_select(home) - u.offset).to(device);
      optimizer.zero_grad();
      torch::Tensor stats = torch::zeros({num_stats}, torch::kFloat32);
      if (rows.numel() > 0) {
        MinibatchLoss l;
        {
          PhaseTimer timer(times, Phase::kForward);
          l = loss_of(rows, static_cast<double>(idx.numel()));
        }
        PhaseTimer timer(times, Phase::kBackward);
        l.loss.backward();
        stats = torch::stack(l.stats).detach().to(torch::kCPU, torch::kFloat32);
      }
      {
        PhaseTimer timer(times, Phase::kAllReduce);
        dist::all_reduce_gradients(context, net->parameters(), stats);
      }
      PhaseTimer timer(times, Phase::kOptimizer);
      torch::nn::utils::clip_grad_norm_(net->parameters(), settings.max_grad_norm);
      optimizer.step();
      for (int k = 0; k < num_stats; ++k) totals[static_cast<std::size_t>(k)] += stats[k].item<double>();
      ++batches;
    }
  }
  net->eval();
  for (double& t : totals) t /= std::max(batches, 1);
  return totals;
}

}  // namespace

UpdateStats ppo_update(PolicyValueNet& net, torch::optim::Optimizer& optimizer, const TrajectoryStore& store,
                       const UpdateSettings& settings, torch::Device device, const dist::Context& context,
                       uint64_t shuffle_seed, run::PhaseTimes* times) {
  Batch b = gather_timed(store, times);
  const Union u = union_timed(context, b.size, times);
  UpdateStats stats;
  stats.samples = static_cast<int>(u.total);
  if (u.total == 0) return stats;
  {
    run::PhaseTimer timer(times, run::Phase::kAllReduce);
    normalize_advantages(b.advantages, u, context);
  }
  {
    run::PhaseTimer timer(times, run::Phase::kBatch);
    to_device(b, device);
  }
  const std::vector<double> s = minibatch_passes(
      net, optimizer, u, settings, device, context, shuffle_seed, 5, times,
      [&](const torch::Tensor& rows, double count) {
        const PolicyValueOutput out = net->forward(b.observations.index_select(0, rows));
        const LossTerms t =
            ppo_loss(out, b.masks.index_select(0, rows), b.actions.index_select(0, rows),
                     b.old_log_probs.index_select(0, rows), b.advantages.index_select(0, rows),
                     b.targets.index_select(0, rows), settings.clip, count, b.seats.index_select(0, rows));
        MinibatchLoss l;
        l.loss = t.policy_loss + settings.value_coef * t.value_loss - settings.entropy_coef * t.entropy;
        l.stats = {t.policy_loss, t.value_loss, t.entropy, t.approx_kl, t.clip_fraction};
        return l;
      });
  stats.policy_loss = s[0];
  stats.value_loss = s[1];
  stats.entropy = s[2];
  stats.approx_kl = s[3];
  stats.clip_fraction = s[4];
  return stats;
}

UpdateStats imitation_update(PolicyValueNet& net, torch::optim::Optimizer& optimizer,
                             const TrajectoryStore& store, const UpdateSettings& settings,
                             torch::Device device, const dist::Context& context, uint64_t shuffle_seed) {
  Batch b = gather(store);
  const Union u = union_of(context, b.size);
  UpdateStats stats;
  stats.samples = static_cast<int>(u.total);
  if (u.total == 0) return stats;
  to_device(b, device);
  namespace F = torch::nn::functional;
  const std::vector<double> s = minibatch_passes(
      net, optimizer, u, settings, device, context, shuffle_seed, 3, nullptr,
      [&](const torch::Tensor& rows, double count) {
        const PolicyValueOutput out = net->forward(b.observations.index_select(0, rows));
        const torch::Tensor logits = masked_logits(out.logits, b.masks.index_select(0, rows));
        const torch::Tensor actions = b.actions.index_select(0, rows);
        const torch::Tensor targets = b.targets.index_select(0, rows);
        const torch::Tensor cross_entropy =
            F::cross_entropy(logits, actions, F::CrossEntropyFuncOptions().reduction(torch::kSum)) / count;
        const torch::Tensor value_error =
            value_loss(out.values, targets, b.seats.index_select(0, rows), count);
        MinibatchLoss l;
        l.loss = cross_entropy + settings.value_coef * value_error;
        l.stats = {cross_entropy, value_error,
                   (logits.argmax(1) == actions).to(torch::kFloat32).sum() / count};
        return l;
      });
  stats.policy_loss = s[0];
  stats.value_loss = s[1];
  stats.clip_fraction = s[2];
  return stats;
}

}  // namespace rocketgym::ppo
