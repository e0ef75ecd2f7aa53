// The bytes of a checkpoint file (the layout is described in
// models/checkpoint.h): the magic and the header with its checksum, the
// sections, and the tensor bodies, written and read with bounds checks.
// Internal to models/: checkpoint.cpp builds the model and optimizer
// sections from these pieces.
#pragma once

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/checkpoint.h"

namespace rocketgym::checkpoint_format {

inline constexpr char kMagic[8] = {'R', 'G', 'C', 'K', 'P', 'T', '0', '2'};
inline constexpr char kMagicV1[8] = {'R', 'G', 'C', 'K', 'P', 'T', '0', '1'};
inline constexpr std::size_t kMagicPrefix = 6;  // "RGCKPT": a rocketgym checkpoint of some version
inline constexpr std::size_t kHeaderSize = sizeof(kMagic) + 4 * sizeof(uint64_t);

// Bounds of the model and optimizer sections (far above any preset network).
inline constexpr std::size_t kMaxNameBytes = 256;
inline constexpr uint32_t kMaxTensors = 1 << 16;
inline constexpr uint32_t kMaxParamGroups = 1 << 10;
inline constexpr unsigned kMaxDims = 8;
inline constexpr uint64_t kMaxDim = uint64_t{1} << 32;

// Tensor dtype codes.
inline constexpr uint8_t kFloat32Code = 1;
inline constexpr uint8_t kFloat16Code = 2;
// Optimizer kind codes.
inline constexpr uint8_t kAdamCode = 1;
inline constexpr uint8_t kAdamWCode = 2;

// FNV-1a 64 over the three sections, in order (the header's checksum).
uint64_t checksum(const std::string& meta, const std::string& model, const std::string& optim);

// Dims for messages: "[3x4]", or "[] (a scalar)".
std::string dims_text(const std::vector<int64_t>& dims);
// A name from the file, quoted, with unprintable bytes escaped for messages.
std::string quote_name(std::string_view name);

const char* dtype_name(uint8_t code);
uint8_t dtype_code(torch::ScalarType type);  // throws CheckpointError for other types
torch::ScalarType dtype_of(uint8_t code);

struct Sections {
  std::string meta, model, optim;
};

// The whole file, under the project's file rule (envs/core/files.h): only a
// regular file of at most kMaxCheckpointBytes, never blocking on a FIFO,
// never reading /dev/zero without end.
std::string read_checkpoint_file(const std::string& path);

// The three sections of a file's bytes, after checking the magic (a version 1
// file is refused with the way to convert it), the sizes and the checksum.
// `name` stands for the file in messages.
Sections split_sections(const std::string& bytes, const std::string& name);

// --- writing -------------------------------------------------------------------

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

// A tensor body: dtype, ndim, dims, then the elements (copied from a
// contiguous CPU tensor of the stored dtype).
// (What the reader would refuse is refused here, so no unreadable file is written.)
void put_tensor(std::string& out, const torch::Tensor& tensor, torch::ScalarType dtype,
                const std::string& what);

// --- reading -------------------------------------------------------------------

// Reads one section front to back; every read is bounded by what is left, and
// every failure names the checkpoint, the section and what was being read.
class SectionReader {
 public:
  SectionReader(std::string_view bytes, std::string prefix) : bytes_(bytes), prefix_(std::move(prefix)) {}

  [[noreturn]] void fail(const std::string& what) const { throw CheckpointError(prefix_ + what); }

  std::size_t left() const { return bytes_.size() - pos_; }

  template <typename T>
  T get(const std::string& what) {
    if (left() < sizeof(T)) fail("it ends inside " + what);
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }

  std::string_view take(std::size_t count, const std::string& what) {
    if (left() < count) fail("it ends inside " + what);
    const std::string_view out = bytes_.substr(pos_, count);
    pos_ += count;
    return out;
  }

  void expect_end() const {
    if (left() != 0) fail(std::to_string(left()) + " bytes follow its last entry");
  }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  std::string prefix_;
};

// A tensor body as found in the file: checked to fit the section, not yet
// compared with anything.
struct TensorRecord {
  uint8_t dtype = kFloat32Code;
  std::vector<int64_t> dims;
  std::string_view data;  // the raw elements, inside the section's bytes
};

TensorRecord read_tensor(SectionReader& in, const std::string& what);

// A tensor of the record's dtype and shape holding its data (memcpy: the data
// in the section need not be aligned).
torch::Tensor tensor_of(const TensorRecord& record);

bool same_shape(const TensorRecord& record, const torch::Tensor& tensor);

// Whether every element is a finite number (no NaN, no infinity), read from
// the raw bytes before anything is copied: a network with one NaN weight
// answers NaN for every position, which no later check names.
bool all_finite(const TensorRecord& record);

}  // namespace rocketgym::checkpoint_format
