// Many processes, one run: the ranks of a job started by torchrun (or by any
// launcher that sets the same environment), talking through PyTorch's c10d
// (a TCPStore for the rendezvous, a Gloo process group for the collectives).
//
//   torchrun -r 1 -t 1 --nproc_per_node=2 --no_python rocketgym train CONFIG
//
// A process started without WORLD_SIZE (or with WORLD_SIZE=1) is a job of one
// rank: Context{} has no store, no sockets, and every collective below returns
// at once, so the one-process path needs nothing from c10d at run time.
//
// Every rank must call the same collectives in the same order. Each one waits
// at most the context's timeout for the other ranks; a rank that died, ended
// with an error or hangs makes the others throw DistributedError naming the
// operation, instead of blocking forever. The c10d headers stay in
// distributed.cpp (they need libgloo-dev and USE_C10D_GLOO).
#pragma once

#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "envs/core/errors.h"

namespace rocketgym::dist {

// The other ranks could not be reached, or stopped answering.
struct DistributedError : Error {
  using Error::Error;
};

// How long ranks wait for each other by default (`--rank-timeout`): longer
// than any gap between two collectives of a healthy run (a training
// iteration's self-play, an evaluation), short enough to notice a hung rank.
constexpr int kDefaultTimeoutSeconds = 600;

// Where this process sits in the job, as torchrun describes it.
struct Launch {
  int rank = 0, world_size = 1, local_rank = 0;
  std::string master_addr;
  int master_port = 0;
  // TORCHELASTIC_USE_AGENT_STORE=True: torchrun's agent already serves the
  // store at MASTER_ADDR:MASTER_PORT, so rank 0 connects as a client too.
  bool agent_store = false;
  int restart = 0;  // TORCHELASTIC_RESTART_COUNT: keeps a restarted job's keys apart

  // Reads RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT,
  // TORCHELASTIC_USE_AGENT_STORE and TORCHELASTIC_RESTART_COUNT. Without
  // WORLD_SIZE: one process. Throws ConfigError naming a missing or bad value.
  static Launch from_environment();
};

class Context {
 public:
  // One process: rank 0 of 1; collectives do nothing.
  Context() = default;
  // Joins the job `launch` describes (world_size > 1): the TCPStore at
  // MASTER_ADDR:MASTER_PORT (rank 0 serves it unless the launcher's agent
  // does), then a Gloo process group. Also ignores SIGPIPE, so that a peer
  // that vanished is an error, not a silent death.
  static Context join(const Launch& launch, std::chrono::seconds timeout);
  // join(Launch::from_environment()) when started as one of several ranks;
  // a one-process context otherwise.
  static Context from_environment(std::chrono::seconds timeout);

  int rank() const;
  int size() const;
  bool is_root() const { return rank() == 0; }
  bool single() const { return size() == 1; }
  std::chrono::seconds timeout() const;
  std::string describe() const;  // "rank 1 of 2"

  // --- collectives (every rank, same order; `what` names it in errors) ----
  // In place, summed over the ranks (a contiguous CPU tensor).
  void all_reduce_sum(torch::Tensor& values, const char* what) const;
  void all_reduce_sum(std::vector<double>& values, const char* what) const;
  // True on every rank when `flag` is true on any rank.
  bool any(bool flag, const char* what) const;
  // Every rank's value, in rank order.
  std::vector<int64_t> all_gather(int64_t value, const char* what) const;
  // Rank 0's tensor (same shape and type everywhere) on every rank.
  void broadcast(torch::Tensor& values, const char* what) const;
  // Rank 0's bytes on every rank (the others pass anything).
  std::string broadcast_bytes(const std::string& bytes, const char* what) const;
  // Rank 0 gets every rank's bytes in rank order; the others get nothing.
  std::vector<std::string> gather_to_root(const std::string& bytes, const char* what) const;
  void barrier(const char* what) const;

  // A file of rank 0's machine (a run folder only rank 0 writes), readable
  // here: rank 0 gets `path` back, the others a copy in a scratch folder of
  // theirs that goes away with the context. nullopt on every rank when the
  // file does not exist on rank 0; an Error on every rank when rank 0 cannot
  // read it.
  std::optional<std::string> file_from_root(const std::string& path) const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

// Rank `rank`'s part of `total` things (envs, positions, a batch): total/size,
// one more for the first total%size ranks. The parts add up to total.
int64_t share(int64_t total, int rank, int size);
// How many of the things come before rank `rank`'s part.
int64_t share_offset(int64_t total, int rank, int size);
// The seed of a rank's own random streams (envs, self-play games, replay
// sampling): rank 0 keeps the run's seed, so its streams are those of a
// one-process run; the others derive theirs from (seed, rank).
uint64_t rank_seed(uint64_t seed, int rank);

// Rank 0's values of `parameters` on every rank (a fresh network starts the
// same everywhere).
void broadcast_parameters(const Context& context, const std::vector<torch::Tensor>& parameters);

// Data-parallel gradients (DD-PPO): each rank backpropagates its share of a
// loss that is a mean over the union of the ranks' samples (its samples'
// terms divided by the total count), so summing the gradients over the ranks
// gives the gradient of that mean, the same on every rank; the optimizer step
// that follows is identical everywhere. Missing gradients count as zeros.
// `extras` (float32, e.g. the loss terms' shares) are summed along in the same
// message.
void all_reduce_gradients(const Context& context, const std::vector<torch::Tensor>& parameters,
                          torch::Tensor& extras);

}  // namespace rocketgym::dist
