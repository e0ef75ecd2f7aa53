// The bytes of a checkpoint file: models/checkpoint_format.h.
#include "models/checkpoint_format.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "envs/core/files.h"

namespace rocketgym::checkpoint_format {

// The sections are written and read with memcpy of the host's numbers.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "checkpoint files are little endian");

namespace {

uint64_t fnv1a(uint64_t hash, const std::string& bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

[[noreturn]] void refuse_version_1(const std::string& name) {
  throw CheckpointError(
      "checkpoint '" + name +
      "' is in the old format version 1, whose weights are a LibTorch (TorchScript) archive; "
      "rocketgym no longer reads those, because LibTorch's parser is not safe on untrusted files. "
      "If you trust this file, convert it to version 2 with: /usr/bin/python3 "
      "scripts/convert_checkpoint_v1.py '" +
      name + "' NEW.ckpt");
}

}  // namespace

uint64_t checksum(const std::string& meta, const std::string& model, const std::string& optim) {
  return fnv1a(fnv1a(fnv1a(0xCBF29CE484222325ULL, meta), model), optim);
}

std::string dims_text(const std::vector<int64_t>& dims) {
  if (dims.empty()) return "[] (a scalar)";
  std::string out;
  for (int64_t d : dims) out += (out.empty() ? "[" : "x") + std::to_string(d);
  return out + "]";
}

std::string quote_name(std::string_view name) {
  std::string out = "'";
  for (unsigned char c : name) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof(hex), "\\x%02x", c);
      out += hex;
    }
  }
  return out + "'";
}

const char* dtype_name(uint8_t code) { return code == kFloat16Code ? "float16" : "float32"; }

uint8_t dtype_code(torch::ScalarType type) {
  if (type == torch::kFloat32) return kFloat32Code;
  if (type == torch::kFloat16) return kFloat16Code;
  throw CheckpointError(std::string("a checkpoint stores float32 or float16 tensors, not ") +
                        c10::toString(type));
}

torch::ScalarType dtype_of(uint8_t code) { return code == kFloat16Code ? torch::kFloat16 : torch::kFloat32; }

std::string read_checkpoint_file(const std::string& path) {
  return files::read_input_file_as<CheckpointError>(path, kMaxCheckpointBytes, "checkpoint");
}

Sections split_sections(const std::string& bytes, const std::string& name) {
  const std::size_t prefix = std::min(bytes.size(), sizeof(kMagic));
  if (bytes.size() >= sizeof(kMagic) && std::memcmp(bytes.data(), kMagicV1, sizeof(kMagicV1)) == 0)
    refuse_version_1(name);
  if (std::memcmp(bytes.data(), kMagic, prefix) != 0) {
    if (bytes.size() >= sizeof(kMagic) && std::memcmp(bytes.data(), kMagic, kMagicPrefix) == 0)
      throw CheckpointError("checkpoint '" + name + "' has a format version this rocketgym does not know ('" +
                            bytes.substr(kMagicPrefix, 2) + "'; it reads version 02)");
    throw CheckpointError("'" + name + "' is not a rocketgym checkpoint (bad magic bytes)");
  }
  if (bytes.size() < kHeaderSize)
    throw CheckpointError("checkpoint '" + name + "' is truncated (" + std::to_string(bytes.size()) +
                          " bytes, shorter than its header)");
  std::array<uint64_t, 4> header{};
  std::memcpy(header.data(), bytes.data() + sizeof(kMagic), sizeof(header));
  const uint64_t body = bytes.size() - kHeaderSize;
  // Each size is checked against the body first so the sum cannot overflow.
  if (header[0] > body || header[1] > body || header[2] > body || header[0] + header[1] + header[2] != body)
    throw CheckpointError("checkpoint '" + name + "' is truncated or corrupt: its header announces " +
                          std::to_string(header[0] + header[1] + header[2]) +
                          " bytes of content, the file has " + std::to_string(body));
  Sections s;
  s.meta = bytes.substr(kHeaderSize, header[0]);
  s.model = bytes.substr(kHeaderSize + header[0], header[1]);
  s.optim = bytes.substr(kHeaderSize + header[0] + header[1], header[2]);
  if (checksum(s.meta, s.model, s.optim) != header[3])
    throw CheckpointError("checkpoint '" + name + "' is corrupt (checksum mismatch)");
  return s;
}

void put_tensor(std::string& out, const torch::Tensor& tensor, torch::ScalarType dtype,
                const std::string& what) {
  if (!tensor.defined()) throw CheckpointError("cannot save a checkpoint: " + what + " is undefined");
  if (tensor.dim() > static_cast<int64_t>(kMaxDims))
    throw CheckpointError("cannot save a checkpoint: " + what + " has more than " + std::to_string(kMaxDims) +
                          " dimensions");
  const torch::Tensor t = tensor.detach().to(torch::kCPU, dtype).contiguous();
  put<uint8_t>(out, dtype_code(dtype));
  put<uint8_t>(out, static_cast<uint8_t>(t.dim()));
  for (int64_t d : t.sizes()) put<uint64_t>(out, static_cast<uint64_t>(d));
  out.append(static_cast<const char*>(t.data_ptr()), t.numel() * t.element_size());
}

TensorRecord read_tensor(SectionReader& in, const std::string& what) {
  TensorRecord t;
  t.dtype = in.get<uint8_t>("the dtype of " + what);
  if (t.dtype != kFloat32Code && t.dtype != kFloat16Code)
    in.fail(what + " has dtype code " + std::to_string(t.dtype) + " (1 = float32 and 2 = float16 are known)");
  const unsigned ndim = in.get<uint8_t>("the dimension count of " + what);
  if (ndim > kMaxDims)
    in.fail(what + " has " + std::to_string(ndim) + " dimensions (at most " + std::to_string(kMaxDims) + ")");
  uint64_t count = 1;
  bool overflow = false;
  for (unsigned k = 0; k < ndim; ++k) {
    const uint64_t d = in.get<uint64_t>("the dims of " + what);
    if (d > kMaxDim) in.fail(what + " has a dimension of " + std::to_string(d) + " (at most 2^32)");
    t.dims.push_back(static_cast<int64_t>(d));
    overflow = overflow || __builtin_mul_overflow(count, d, &count);
  }
  const uint64_t element = t.dtype == kFloat16Code ? 2 : 4;
  uint64_t bytes = 0;
  if (overflow || __builtin_mul_overflow(count, element, &bytes))
    in.fail(what + " has dims " + dims_text(t.dims) + " whose byte count overflows");
  if (bytes > in.left())
    in.fail(what + " has dims " + dims_text(t.dims) + " of " + dtype_name(t.dtype) + ": " +
            std::to_string(bytes) + " bytes, but only " + std::to_string(in.left()) +
            " remain in the section");
  t.data = in.take(static_cast<std::size_t>(bytes), "the data of " + what);
  return t;
}

torch::Tensor tensor_of(const TensorRecord& record) {
  torch::Tensor t = torch::empty(record.dims, torch::TensorOptions().dtype(dtype_of(record.dtype)));
  if (!record.data.empty()) std::memcpy(t.data_ptr(), record.data.data(), record.data.size());
  return t;
}

bool same_shape(const TensorRecord& record, const torch::Tensor& tensor) {
  return tensor.sizes().vec() == record.dims;
}

namespace {

// IEEE 754: NaN and the infinities are the numbers whose exponent bits are
// all ones (`exponent` masks them in the element's bits).
template <typename Bits>
bool all_finite_as(std::string_view data, Bits exponent) {
  for (std::size_t at = 0; at + sizeof(Bits) <= data.size(); at += sizeof(Bits)) {
    Bits bits;
    std::memcpy(&bits, data.data() + at, sizeof(Bits));  // the section need not be aligned
    if ((bits & exponent) == exponent) return false;
  }
  return true;
}

}  // namespace

bool all_finite(const TensorRecord& record) {
  return record.dtype == kFloat16Code ? all_finite_as<uint16_t>(record.data, 0x7C00)
                                      : all_finite_as<uint32_t>(record.data, 0x7F800000);
}

}  // namespace rocketgym::checkpoint_format
