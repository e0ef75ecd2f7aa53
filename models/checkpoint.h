// Checkpoints: a network's weights, the optimizer state and metadata saying
// what the network was trained for.
//
// File layout, version 2 (every number little endian):
//   8 bytes   magic "RGCKPT02"
//   4 x u64   sizes of the metadata, model and optimizer sections, then an
//             FNV-1a 64 checksum over the three sections
//   metadata  JSON text (CheckpointMeta::to_json), readable with `strings`
//   model     u32 tensor count, then per tensor:
//               u16 name length (1-256), the name (as in named_parameters()
//               and named_buffers(), e.g. "stem_linear.weight"),
//               a tensor body: u8 dtype (1 = float32, 2 = float16: the
//               metadata's "weights"), u8 ndim (0-8), ndim x u64 dims (each at
//               most 2^32), then the elements, row-major, raw
//   optimizer empty (an exported bot: no training state), or
//               u8 kind (1 = torch::optim::Adam, 2 = AdamW), u32 group count,
//               per param group: f64 lr, beta1, beta2, eps, weight_decay,
//               u8 amsgrad, u32 parameter count, then per parameter (in the
//               group's order): u8 has_state; when 1: i64 step and the tensor
//               bodies of exp_avg, exp_avg_sq and (amsgrad only) max_exp_avg_sq
// Every byte is accounted for: a reader refuses a tensor name it does not
// know, a missing or repeated one, a shape or dtype other than the network's,
// a byte count beyond the section (overflow-safe), trailing bytes and NaN or
// infinite numbers (in the weights and the optimizer state), all before it
// allocates or copies anything; the data is then copied with memcpy.
// Version 1 files ("RGCKPT01") held LibTorch/TorchScript archives, which
// LibTorch's parser can crash on when crafted (tests/fuzz/regressions/
// checkpoint/); rocketgym never parses one: they are refused with a message
// naming scripts/convert_checkpoint_v1.py, which converts a file you trust.
//
// A checkpoint is written to "<path>.tmp", flushed to the disk and renamed, so
// an interrupted write never leaves a half file under the real name (a failed
// write removes its temp file; one left by a killed process is removed by the
// trainer when the run starts again). A truncated or damaged file is detected
// by the sizes and the checksum and reported as CheckpointError. Only regular
// files of at most kMaxCheckpointBytes are read.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/files.h"
#include "envs/core/json.h"
#include "models/policy_value_net.h"

namespace rocketgym {

struct CheckpointError : Error {
  using Error::Error;
};

// Larger files are refused before reading (the largest preset network is
// under 100 MB): the cap of the file rule (envs/core/files.h).
constexpr uint64_t kMaxCheckpointBytes = files::kMaxCheckpointBytes;
// The most search simulations a zoo file may recommend (as `rocketgym export
// --simulations` and a search block's `simulations` allow).
constexpr int kMaxZooSimulations = 10'000'000;

// The name of a game's encoder in a checkpoint's metadata ("encoder"): each
// game has one, so it is the only name a file may give (another is refused).
inline constexpr const char* kDefaultEncoder = "default";

// A named block of the flat observation (envs/core/describe.h's
// FeatureBlock, without the docs): what a warm start maps by name.
struct LayoutBlock {
  std::string name;
  int offset = 0;
  int size = 0;
};

struct CheckpointMeta {
  std::string game;  // game id
  int game_version = 1;
  // The value head's outputs (metadata "num_players"): one per seat of the
  // largest table the network can serve, viewer-relative; a P-player table
  // reads the first P. Networks made before mixed tables have one per seat of
  // the one table size they were trained for.
  int num_players = 2;
  // The table sizes the network serves (metadata "players", ascending, each
  // at most num_players). Empty in files written before it existed: those
  // serve num_players only. Read it through served_players().
  std::vector<int> players;
  std::vector<int> observation_shape;
  int num_actions = 0;
  std::string encoder = kDefaultEncoder;  // the game's encoder (one per game today)
  // The observation's blocks in order (metadata "observation_layout": name
  // and size of each; offsets follow). Empty in files written before it.
  std::vector<LayoutBlock> layout;
  NetConfig net;
  int64_t step = 0;             // learner decisions trained on so far (>= 0)
  int64_t iteration = 0;        // PPO updates so far (>= 0)
  Json extra = Json::object();  // run bookkeeping (opponent pool, elapsed time...)
  // The stored weights' precision: false = float32; true = float16, for
  // exported bots (half the size; loaded back as float32).
  bool half_precision = false;
  std::string source;  // the file it was read from, for messages (not stored)

  NetSpec net_spec() const;
  // The one definition of which table sizes a checkpoint plays: `players`,
  // or {num_players} for files written before it.
  std::vector<int> served_players() const;
  bool serves(int table_players) const;
  Json to_json() const;
  static CheckpointMeta from_json(const Json& doc);  // throws SerializationError

  // Checked reads of `extra`, which a user may have edited: an absent key
  // gives the fallback; a value of another type or out of range is a
  // CheckpointError naming the file and the key (e.g. "extra.episodes").
  int64_t extra_count(const char* key, int64_t fallback) const;  // a whole number >= 0
  // A CheckpointError naming the file and the first key absent from `extra`:
  // for the keys every version of a trainer wrote (a default would hide an
  // edited file); keys added later keep their readers' fallbacks.
  void require_extra(std::initializer_list<const char*> keys) const;
  double extra_number(const char* key, double fallback, double lo, double hi) const;
  std::string extra_text(const char* key, const std::string& fallback) const;
  std::vector<std::string> extra_texts(const char* key) const;  // a list of strings; absent: none
  // The search simulations a zoo file recommends at a table of `players`
  // (0 to kMaxZooSimulations; 0 = the raw network): extra.zoo.players.<P>.simulations
  // when the file names that table size, else extra.zoo.simulations, else 0.
  int zoo_simulations(int players) const;
};

// Writes atomically (temp file, fsync, rename); creates missing parent
// folders. On failure `path` is unchanged and no temp file is left.
// The weights are stored in the precision `meta.half_precision` names.
// `optimizer` may be null (an exported policy without training state); else
// it must be a torch::optim::Adam or AdamW.
void save_checkpoint(const std::string& path, const CheckpointMeta& meta, PolicyValueNet& net,
                     torch::optim::Optimizer* optimizer);

struct LoadedCheckpoint {
  CheckpointMeta meta;
  PolicyValueNet net{nullptr};
  // The optimizer section's bytes (empty: none), checked and applied by
  // load_optimizer_state.
  std::string optimizer_state;
  std::string source;  // the file's name, for messages
};

// Reads only the metadata; throws CheckpointError when the file is missing,
// not a regular file, too large, truncated, corrupt or not a checkpoint.
CheckpointMeta read_checkpoint_meta(const std::string& path);
// Rebuilds the network from the metadata and loads its weights onto `device`.
LoadedCheckpoint load_checkpoint(const std::string& path, torch::Device device = torch::kCPU);
// The same from a checkpoint file's bytes already in memory; `name` stands
// for the file in messages.
LoadedCheckpoint load_checkpoint_from_bytes(const std::string& bytes, const std::string& name,
                                            torch::Device device = torch::kCPU);
// Restores the optimizer state saved with the checkpoint into `optimizer`,
// which must be of the same kind (Adam or AdamW) over parameters of the same
// shapes, in the same order, with the same amsgrad setting; an empty section
// leaves it fresh. The optimizer keeps its own lr, betas, eps and
// weight_decay (the run's config wins, as with LibTorch's own loader). Throws
// CheckpointError, leaving `optimizer` unchanged, when the state does not fit.
void load_optimizer_state(const LoadedCheckpoint& checkpoint, torch::optim::Optimizer& optimizer);

// Writes a weights-only copy of `source` for shipping (the zoo): no optimizer
// state, no run bookkeeping, float16 weights when `half_precision`. When
// `simulations` >= 0 it is stored as the bot's recommended search
// (extra.zoo.simulations; 0 = the raw network); `by_players` holds the
// recommendations for particular table sizes ({3, 16}: 16 simulations at 3
// players; extra.zoo.players.3.simulations). Returns the file's size.
// `target` may not be `source`, nor anything but a new file or an earlier
// export (a weights-only checkpoint): a resumable checkpoint, another file, a
// symbolic link, a FIFO or a device is refused (CheckpointError naming it).
uint64_t export_checkpoint(const std::string& source, const std::string& target, bool half_precision,
                           int simulations, const std::vector<std::pair<int, int>>& by_players = {});

// Throws CheckpointError unless the checkpoint was trained for this game,
// this game's current version (GameInfo::version, from the registry: bumped
// when the rules or the encoding change), serves this table size
// (served_players), and has the observation shape and action count the game
// has at this table size. The messages name the file and the sizes it serves.
void check_checkpoint_matches(const CheckpointMeta& meta, const std::string& path, const std::string& game,
                              int num_players, const std::vector<int>& observation_shape, int num_actions);

// "2, 3 and 4 players" (for messages about which tables a network serves).
std::string player_counts_text(const std::vector<int>& counts);

}  // namespace rocketgym
