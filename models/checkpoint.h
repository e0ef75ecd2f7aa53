// Checkpoints: a network's weights, the optimizer state and metadata saying
// what the network was trained for.
//
// File layout (little endian), version 1:
//   8 bytes   magic "RGCKPT01"
//   4 x u64   sizes of the metadata, model and optimizer sections, then an
//             FNV-1a 64 checksum over the three sections
//   metadata  JSON text (CheckpointMeta::to_json), readable with `strings`
//   model     LibTorch archive of the network's parameters
//   optimizer LibTorch archive of the optimizer state (may be empty)
// A checkpoint is written to "<path>.tmp", flushed to the disk and renamed, so
// an interrupted write never leaves a half file under the real name (a failed
// write removes its temp file; one left by a killed process is removed by the
// trainer when the run starts again). A truncated or damaged file is detected
// by the sizes and the checksum and reported as CheckpointError. Only regular
// files of at most kMaxCheckpointBytes are read.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/json.h"
#include "models/policy_value_net.h"

namespace rocketgym {

struct CheckpointError : Error {
  using Error::Error;
};

// Larger files are refused before reading (the largest preset network is
// under 100 MB).
constexpr uint64_t kMaxCheckpointBytes = uint64_t{4} << 30;

struct CheckpointMeta {
  std::string game;  // game id
  int game_version = 1;
  int num_players = 2;
  std::vector<int> observation_shape;
  int num_actions = 0;
  std::string encoder = "default";  // the game's encoder (one per game today)
  NetConfig net;
  int64_t step = 0;             // learner decisions trained on so far
  int64_t iteration = 0;        // PPO updates so far
  Json extra = Json::object();  // run bookkeeping (opponent pool, elapsed time...)

  NetSpec net_spec() const;
  Json to_json() const;
  static CheckpointMeta from_json(const Json& doc);  // throws SerializationError
};

// Writes atomically (temp file, fsync, rename); creates missing parent
// folders. On failure `path` is unchanged and no temp file is left.
// `optimizer` may be null (an exported policy without training state).
void save_checkpoint(const std::string& path, const CheckpointMeta& meta, PolicyValueNet& net,
                     torch::optim::Optimizer* optimizer);

struct LoadedCheckpoint {
  CheckpointMeta meta;
  PolicyValueNet net{nullptr};
  std::string optimizer_state;  // raw archive bytes; apply with load_optimizer_state
};

// Reads only the metadata; throws CheckpointError when the file is missing,
// not a regular file, too large, truncated, corrupt or not a checkpoint.
CheckpointMeta read_checkpoint_meta(const std::string& path);
// Rebuilds the network from the metadata and loads its weights onto `device`.
LoadedCheckpoint load_checkpoint(const std::string& path, torch::Device device = torch::kCPU);
void load_optimizer_state(const LoadedCheckpoint& checkpoint, torch::optim::Optimizer& optimizer);

// Throws CheckpointError unless the checkpoint was trained for this game,
// player count, observation shape and action count.
void check_checkpoint_matches(const CheckpointMeta& meta, const std::string& path, const std::string& game,
                              int num_players, const std::vector<int>& observation_shape, int num_actions);

}  // namespace rocketgym
