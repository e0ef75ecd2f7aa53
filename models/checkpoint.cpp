#include "models/checkpoint.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <utility>

#include "envs/core/files.h"
#include "envs/core/game.h"

namespace rocketgym {

// The sections are written and read with memcpy of the host's numbers.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "checkpoint files are little endian");

namespace {

constexpr char kMagic[8] = {'R', 'G', 'C', 'K', 'P', 'T', '0', '2'};
constexpr char kMagicV1[8] = {'R', 'G', 'C', 'K', 'P', 'T', '0', '1'};
constexpr std::size_t kMagicPrefix = 6;  // "RGCKPT": a rocketgym checkpoint of some version
constexpr std::size_t kHeaderSize = sizeof(kMagic) + 4 * sizeof(uint64_t);

// Bounds of the model and optimizer sections (far above any preset network).
constexpr std::size_t kMaxNameBytes = 256;
constexpr uint32_t kMaxTensors = 1 << 16;
constexpr uint32_t kMaxParamGroups = 1 << 10;
constexpr unsigned kMaxDims = 8;
constexpr uint64_t kMaxDim = uint64_t{1} << 32;
// An observation's element count must fit NetSpec::observation_size()'s int.
constexpr int64_t kMaxObservationCells = (int64_t{1} << 31) - 1;

// Tensor dtype codes.
constexpr uint8_t kFloat32Code = 1;
constexpr uint8_t kFloat16Code = 2;
// Optimizer kind codes.
constexpr uint8_t kAdamCode = 1;
constexpr uint8_t kAdamWCode = 2;

uint64_t fnv1a(uint64_t hash, const std::string& bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

uint64_t checksum(const std::string& meta, const std::string& model, const std::string& optim) {
  return fnv1a(fnv1a(fnv1a(0xCBF29CE484222325ULL, meta), model), optim);
}

std::string shape_text(const std::vector<int>& shape) {
  std::string out;
  for (int d : shape) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

std::string dims_text(const std::vector<int64_t>& dims) {
  if (dims.empty()) return "[] (a scalar)";
  std::string out;
  for (int64_t d : dims) out += (out.empty() ? "[" : "x") + std::to_string(d);
  return out + "]";
}

// A name from the file, quoted, with unprintable bytes escaped for messages.
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

struct Sections {
  std::string meta, model, optim;
};

// The whole file, under the project's file rule (envs/core/files.h): only a
// regular file of at most kMaxCheckpointBytes, never blocking on a FIFO,
// never reading /dev/zero without end.
std::string read_checkpoint_file(const std::string& path) {
  return files::read_input_file_as<CheckpointError>(path, kMaxCheckpointBytes, "checkpoint");
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

// --- writing the sections -------------------------------------------------------

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

// A tensor body: dtype, ndim, dims, then the elements (copied from a
// contiguous CPU tensor of the stored dtype).
// (What the reader would refuse is refused here, so no unreadable file is written.)
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

// The network's tensors by name: the parameters, then the buffers.
std::vector<std::pair<std::string, torch::Tensor>> named_tensors(PolicyValueNet& net) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (const auto& item : net->named_parameters()) out.emplace_back(item.key(), item.value());
  for (const auto& item : net->named_buffers()) out.emplace_back(item.key(), item.value());
  return out;
}

std::string model_section(PolicyValueNet& net, bool half_precision) {
  const auto tensors = named_tensors(net);
  if (tensors.size() > kMaxTensors)
    throw CheckpointError("cannot save a checkpoint: the network has more than " +
                          std::to_string(kMaxTensors) + " tensors");
  std::string out;
  put<uint32_t>(out, static_cast<uint32_t>(tensors.size()));
  for (const auto& [name, tensor] : tensors) {
    if (name.empty() || name.size() > kMaxNameBytes)
      throw CheckpointError("cannot save a checkpoint: tensor name '" + name + "' is not 1 to " +
                            std::to_string(kMaxNameBytes) + " bytes long");
    put<uint16_t>(out, static_cast<uint16_t>(name.size()));
    out += name;
    put_tensor(out, tensor, half_precision ? torch::kFloat16 : torch::kFloat32, "tensor '" + name + "'");
  }
  return out;
}

// LibTorch keys an optimizer's per-parameter state by the parameter's
// TensorImpl: as its address in text up to 1.13 (Debian's), as the pointer
// itself from 2.0 (pytorch.org's CUDA builds). The key is built the way the
// installed LibTorch's own optimizers build it.
using StateKey = std::decay_t<decltype(std::declval<torch::optim::Optimizer&>().state())>::key_type;

template <typename Key>
Key state_key_for(c10::TensorImpl* impl) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream text;  // what c10::guts::to_string wrote
    text << static_cast<const void*>(impl);
    return text.str();
  } else {
    return impl;
  }
}

StateKey state_key(const torch::Tensor& param) {
  return state_key_for<StateKey>(param.unsafeGetTensorImpl());
}

// Adam and AdamW have the same options and state but no common base type.
template <typename Options, typename ParamState>
std::string optimizer_section(const torch::optim::Optimizer& optimizer, uint8_t kind) {
  if (optimizer.param_groups().size() > kMaxParamGroups)
    throw CheckpointError("cannot save a checkpoint: the optimizer has more than " +
                          std::to_string(kMaxParamGroups) + " param groups");
  std::string out;
  put<uint8_t>(out, kind);
  put<uint32_t>(out, static_cast<uint32_t>(optimizer.param_groups().size()));
  for (const auto& group : optimizer.param_groups()) {
    const auto& options = static_cast<const Options&>(group.options());
    put<double>(out, options.lr());
    put<double>(out, std::get<0>(options.betas()));
    put<double>(out, std::get<1>(options.betas()));
    put<double>(out, options.eps());
    put<double>(out, options.weight_decay());
    put<uint8_t>(out, options.amsgrad() ? 1 : 0);
    put<uint32_t>(out, static_cast<uint32_t>(group.params().size()));
    for (const auto& param : group.params()) {
      const auto found = optimizer.state().find(state_key(param));
      put<uint8_t>(out, found == optimizer.state().end() ? 0 : 1);
      if (found == optimizer.state().end()) continue;
      const auto& state = static_cast<const ParamState&>(*found->second);
      put<int64_t>(out, state.step());
      put_tensor(out, state.exp_avg(), param.scalar_type(), "an optimizer's exp_avg");
      put_tensor(out, state.exp_avg_sq(), param.scalar_type(), "an optimizer's exp_avg_sq");
      if (options.amsgrad())
        put_tensor(out, state.max_exp_avg_sq(), param.scalar_type(), "an optimizer's max_exp_avg_sq");
    }
  }
  return out;
}

std::string optimizer_section(const torch::optim::Optimizer& optimizer) {
  if (dynamic_cast<const torch::optim::Adam*>(&optimizer))
    return optimizer_section<torch::optim::AdamOptions, torch::optim::AdamParamState>(optimizer, kAdamCode);
  if (dynamic_cast<const torch::optim::AdamW*>(&optimizer))
    return optimizer_section<torch::optim::AdamWOptions, torch::optim::AdamWParamState>(optimizer,
                                                                                        kAdamWCode);
  throw CheckpointError("a checkpoint stores the state of an Adam or AdamW optimizer only");
}

// --- reading the sections -------------------------------------------------------

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

// A tensor of the record's dtype and shape holding its data (memcpy: the data
// in the section need not be aligned).
torch::Tensor tensor_of(const TensorRecord& record) {
  torch::Tensor t = torch::empty(record.dims, torch::TensorOptions().dtype(dtype_of(record.dtype)));
  if (!record.data.empty()) std::memcpy(t.data_ptr(), record.data.data(), record.data.size());
  return t;
}

bool same_shape(const TensorRecord& record, const torch::Tensor& tensor) {
  return tensor.sizes().vec() == record.dims;
}

// Reads the model section into the network's tensors (float32, on the CPU).
// Everything is checked first: the names are exactly the network's, each
// once, with the network's shapes and the metadata's dtype, and the section
// holds nothing more. Only then is anything copied.
void load_model_section(const std::string& section, PolicyValueNet& net, bool half_precision,
                        const std::string& name) {
  SectionReader in(section, "checkpoint '" + name + "': model section: ");
  const auto tensors = named_tensors(net);
  std::map<std::string, std::size_t, std::less<>> index;
  for (std::size_t k = 0; k < tensors.size(); ++k) index.emplace(tensors[k].first, k);
  const uint8_t expected_dtype = half_precision ? kFloat16Code : kFloat32Code;

  const uint32_t count = in.get<uint32_t>("the tensor count");
  if (count > kMaxTensors)
    in.fail("it announces " + std::to_string(count) + " tensors (at most " + std::to_string(kMaxTensors) +
            ")");
  std::vector<std::optional<TensorRecord>> found(tensors.size());
  for (uint32_t k = 0; k < count; ++k) {
    const std::string entry = "tensor " + std::to_string(k);
    const uint16_t length = in.get<uint16_t>("the name length of " + entry);
    if (length == 0 || length > kMaxNameBytes)
      in.fail(entry + " has a name of " + std::to_string(length) + " bytes (1 to " +
              std::to_string(kMaxNameBytes) + ")");
    const std::string_view tensor_name = in.take(length, "the name of " + entry);
    const std::string what = "tensor " + quote_name(tensor_name);
    const auto it = index.find(tensor_name);
    if (it == index.end()) in.fail(what + " is not a tensor of this network");
    if (found[it->second]) in.fail(what + " appears twice");
    TensorRecord record = read_tensor(in, what);
    if (record.dtype != expected_dtype)
      in.fail(what + " is " + dtype_name(record.dtype) + ", but the metadata says the weights are " +
              dtype_name(expected_dtype));
    const torch::Tensor& target = tensors[it->second].second;
    if (!same_shape(record, target))
      in.fail(what + " has shape " + dims_text(record.dims) + ", the network's is " +
              dims_text(target.sizes().vec()));
    found[it->second] = std::move(record);
  }
  in.expect_end();
  for (std::size_t k = 0; k < tensors.size(); ++k)
    if (!found[k]) in.fail("tensor " + quote_name(tensors[k].first) + " of the network is missing");

  torch::NoGradGuard no_grad;
  for (std::size_t k = 0; k < tensors.size(); ++k) {
    torch::Tensor target = tensors[k].second;
    target.copy_(tensor_of(*found[k]));
  }
}

// The optimizer section, parsed and checked against the optimizer it is for,
// so that applying it cannot fail halfway.
struct SavedParamState {
  bool has_state = false;
  int64_t step = 0;
  torch::Tensor exp_avg, exp_avg_sq, max_exp_avg_sq;
};

// The optimizer's parameter names (from the checkpoint's network, when they are
// its parameters) for messages: "parameter 3 ('stem_linear.bias')".
std::string param_text(const std::map<const void*, std::string>& names, std::size_t group, std::size_t k,
                       const torch::Tensor& param) {
  std::string out = "parameter " + std::to_string(k);
  if (group > 0) out += " of group " + std::to_string(group);
  const auto it = names.find(param.unsafeGetTensorImpl());
  return it == names.end() ? out : out + " (" + quote_name(it->second) + ")";
}

torch::Tensor read_state_tensor(SectionReader& in, const std::string& what, const torch::Tensor& param) {
  const TensorRecord record = read_tensor(in, what);
  if (dtype_of(record.dtype) != param.scalar_type())
    in.fail(what + " is " + dtype_name(record.dtype) + ", the parameter is " +
            c10::toString(param.scalar_type()));
  if (!same_shape(record, param))
    in.fail(what + " has shape " + dims_text(record.dims) + ", the parameter's is " +
            dims_text(param.sizes().vec()));
  return tensor_of(record).to(param.device());
}

template <typename Options, typename ParamState>
void load_optimizer_section(SectionReader& in, torch::optim::Optimizer& optimizer,
                            const std::map<const void*, std::string>& names) {
  auto& groups = optimizer.param_groups();
  const uint32_t group_count = in.get<uint32_t>("the param group count");
  if (group_count > kMaxParamGroups || group_count != groups.size())
    in.fail("it has " + std::to_string(group_count) + " param groups, the optimizer has " +
            std::to_string(groups.size()));
  std::vector<std::vector<SavedParamState>> saved(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::string group_text = "param group " + std::to_string(g);
    for (const char* option : {"lr", "beta1", "beta2", "eps", "weight_decay"})
      in.get<double>(std::string("the ") + option + " of " + group_text);  // the run's config wins
    const uint8_t amsgrad = in.get<uint8_t>("the amsgrad flag of " + group_text);
    const auto& options = static_cast<const Options&>(groups[g].options());
    if (amsgrad > 1 || (amsgrad == 1) != options.amsgrad())
      in.fail(group_text + " was saved with amsgrad " + (amsgrad == 1 ? "on" : "off") +
              ", the optimizer has it " + (options.amsgrad() ? "on" : "off"));
    const auto& params = groups[g].params();
    const uint32_t param_count = in.get<uint32_t>("the parameter count of " + group_text);
    if (param_count != params.size())
      in.fail(group_text + " has " + std::to_string(param_count) + " parameters, the optimizer's has " +
              std::to_string(params.size()));
    for (std::size_t k = 0; k < params.size(); ++k) {
      const std::string what = param_text(names, g, k, params[k]);
      SavedParamState state;
      const uint8_t has_state = in.get<uint8_t>("the state flag of " + what);
      if (has_state > 1) in.fail(what + " has state flag " + std::to_string(has_state) + " (0 or 1)");
      if (has_state == 1) {
        state.has_state = true;
        state.step = in.get<int64_t>("the step of " + what);
        if (state.step < 0) in.fail(what + " has step " + std::to_string(state.step));
        state.exp_avg = read_state_tensor(in, "the exp_avg of " + what, params[k]);
        state.exp_avg_sq = read_state_tensor(in, "the exp_avg_sq of " + what, params[k]);
        if (amsgrad) state.max_exp_avg_sq = read_state_tensor(in, "the max_exp_avg_sq of " + what, params[k]);
      }
      saved[g].push_back(std::move(state));
    }
  }
  in.expect_end();

  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::size_t k = 0; k < groups[g].params().size(); ++k) {
      const StateKey key = state_key(groups[g].params()[k]);
      SavedParamState& s = saved[g][k];
      if (!s.has_state) {
        optimizer.state().erase(key);
        continue;
      }
      auto state = std::make_unique<ParamState>();
      state->step(s.step);
      state->exp_avg(s.exp_avg);
      state->exp_avg_sq(s.exp_avg_sq);
      if (s.max_exp_avg_sq.defined()) state->max_exp_avg_sq(s.max_exp_avg_sq);
      optimizer.state()[key] = std::move(state);
    }
  }
}

CheckpointMeta parse_meta(const std::string& text, const std::string& path) {
  try {
    CheckpointMeta meta = CheckpointMeta::from_json(Json::parse(text));
    meta.source = path;
    return meta;
  } catch (const nlohmann::json::exception& e) {
    throw CheckpointError("checkpoint '" + path + "' has unreadable metadata: " + e.what());
  } catch (const SerializationError& e) {
    throw CheckpointError("checkpoint '" + path + "' has invalid metadata: " + e.what());
  }
}

}  // namespace

NetSpec CheckpointMeta::net_spec() const {
  NetSpec spec;
  spec.config = net;
  spec.observation_shape = observation_shape;
  spec.num_actions = num_actions;
  spec.num_players = num_players;
  return spec;
}

std::vector<int> CheckpointMeta::served_players() const {
  return players.empty() ? std::vector<int>{num_players} : players;
}

bool CheckpointMeta::serves(int table_players) const {
  const std::vector<int> served = served_players();
  return std::find(served.begin(), served.end(), table_players) != served.end();
}

std::string player_counts_text(const std::vector<int>& counts) {
  std::string out;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    if (k > 0) out += k + 1 == counts.size() ? " and " : ", ";
    out += std::to_string(counts[k]);
  }
  return out + (counts.size() == 1 && counts[0] == 1 ? " player" : " players");
}

Json CheckpointMeta::to_json() const {
  Json doc{{"format", "rocketgym-checkpoint"},
           {"game", game},
           {"game_version", game_version},
           {"num_players", num_players},
           {"observation_shape", observation_shape},
           {"num_actions", num_actions},
           {"encoder", encoder},
           {"net", net.to_json()},
           {"step", step},
           {"iteration", iteration},
           {"extra", extra},
           {"weights", half_precision ? "float16" : "float32"}};
  if (!players.empty()) doc["players"] = players;
  if (!layout.empty()) {
    Json blocks = Json::array();
    for (const LayoutBlock& b : layout) blocks.push_back(Json{{"name", b.name}, {"size", b.size}});
    doc["observation_layout"] = blocks;
  }
  return doc;
}

CheckpointMeta CheckpointMeta::from_json(const Json& doc) {
  CheckpointMeta m;
  m.game = json_get<std::string>(doc, "game");
  m.game_version = json_get<int>(doc, "game_version");
  m.num_players = json_get_int(doc, "num_players", 1, 64);
  if (doc.contains("players")) {  // absent in files written before mixed tables: num_players only
    m.players = json_get<std::vector<int>>(doc, "players");
    if (m.players.empty()) throw SerializationError("players is an empty list");
    for (std::size_t k = 0; k < m.players.size(); ++k)
      if (m.players[k] < 1 || m.players[k] > m.num_players || (k > 0 && m.players[k] <= m.players[k - 1]))
        throw SerializationError("players must list ascending table sizes from 1 to num_players (" +
                                 std::to_string(m.num_players) + ", the value head's outputs), not " +
                                 Json(m.players).dump());
  }
  m.observation_shape = json_get<std::vector<int>>(doc, "observation_shape");
  int64_t cells = 1;
  for (int d : m.observation_shape) {
    if (d < 1) throw SerializationError("observation_shape has a non-positive dimension");
    cells *= d;
    if (cells > kMaxObservationCells)
      throw SerializationError("observation_shape has more than " + std::to_string(kMaxObservationCells) +
                               " elements");
  }
  m.num_actions = json_get_int(doc, "num_actions", 1, 1 << 24);
  if (doc.contains("observation_layout")) {  // absent in files written before it
    const Json blocks = json_get<Json>(doc, "observation_layout");
    if (!blocks.is_array()) throw SerializationError("observation_layout must be a list of blocks");
    int64_t offset = 0;
    for (const Json& block : blocks) {
      LayoutBlock b;
      b.name = json_get<std::string>(block, "name");
      b.size = json_get_int(block, "size", 1, std::numeric_limits<int>::max());
      b.offset = static_cast<int>(offset);
      offset += b.size;
      if (offset > cells)
        throw SerializationError("observation_layout has more numbers than observation_shape");
      m.layout.push_back(std::move(b));
    }
    if (offset != cells)
      throw SerializationError("observation_layout covers " + std::to_string(offset) +
                               " numbers, observation_shape " + std::to_string(cells));
  }
  m.encoder = json_get<std::string>(doc, "encoder");
  m.net = NetConfig::from_json(json_get<Json>(doc, "net"));
  m.step = json_get<int64_t>(doc, "step");
  m.iteration = json_get<int64_t>(doc, "iteration");
  m.extra = json_get<Json>(doc, "extra");
  if (!m.extra.is_object())
    throw SerializationError("field 'extra' must be a mapping, not " + m.extra.dump());
  if (doc.contains("weights")) {  // absent in files written before exports existed: float32
    const auto weights = json_get<std::string>(doc, "weights");
    if (weights != "float16" && weights != "float32")
      throw SerializationError("weights is '" + weights + "', not float32 or float16");
    m.half_precision = weights == "float16";
  }
  return m;
}

namespace {

// A field of `extra` by its dotted key ("zoo.simulations"), or null when absent.
const Json* extra_field(const Json& extra, const std::string& key) {
  const Json* at = &extra;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t dot = key.find('.', begin);
    const std::string part = key.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
    if (!at->is_object() || !at->contains(part)) return nullptr;
    at = &(*at)[part];
    if (dot == std::string::npos) return at;
    begin = dot + 1;
  }
}

[[noreturn]] void bad_extra(const CheckpointMeta& meta, const std::string& key, const Json& value,
                            const std::string& expected) {
  const std::string file = meta.source.empty() ? "checkpoint metadata" : "checkpoint '" + meta.source + "'";
  std::string shown = value.dump();
  if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
  throw CheckpointError(file + ": extra." + key + " is " + shown + ", expected " + expected +
                        " (was the file edited? rewrite it with rocketgym export or retrain)");
}

}  // namespace

int64_t CheckpointMeta::extra_count(const char* key, int64_t fallback) const {
  const Json* value = extra_field(extra, key);
  if (!value) return fallback;
  if (!value->is_number_integer() || (!value->is_number_unsigned() && value->get<int64_t>() < 0) ||
      (value->is_number_unsigned() && value->get_ref<const Json::number_unsigned_t&>() >
                                          static_cast<uint64_t>(std::numeric_limits<int64_t>::max())))
    bad_extra(*this, key, *value, "a whole number >= 0");
  return value->is_number_unsigned() ? static_cast<int64_t>(value->get_ref<const Json::number_unsigned_t&>())
                                     : value->get_ref<const Json::number_integer_t&>();
}

double CheckpointMeta::extra_number(const char* key, double fallback, double lo, double hi) const {
  const Json* value = extra_field(extra, key);
  if (!value) return fallback;
  const double v = value->is_number() ? value->get<double>() : lo - 1.0;
  if (!value->is_number() || !(v >= lo && v <= hi))
    bad_extra(*this, key, *value, "a number in [" + Json(lo).dump() + ", " + Json(hi).dump() + "]");
  return v;
}

std::string CheckpointMeta::extra_text(const char* key, const std::string& fallback) const {
  const Json* value = extra_field(extra, key);
  if (!value) return fallback;
  if (!value->is_string()) bad_extra(*this, key, *value, "a text");
  return value->get<std::string>();
}

std::vector<std::string> CheckpointMeta::extra_texts(const char* key) const {
  const Json* value = extra_field(extra, key);
  if (!value) return {};
  std::vector<std::string> out;
  if (value->is_array())
    for (const Json& item : *value) {
      if (!item.is_string()) break;
      out.push_back(item.get<std::string>());
    }
  if (!value->is_array() || out.size() != value->size()) bad_extra(*this, key, *value, "a list of texts");
  return out;
}

int CheckpointMeta::zoo_simulations(int players) const {
  if (const Json* zoo = extra_field(extra, "zoo"); zoo && !zoo->is_object())
    bad_extra(*this, "zoo", *zoo, "a mapping such as {\"simulations\": 64}");
  if (const Json* sizes = extra_field(extra, "zoo.players"); sizes && !sizes->is_object())
    bad_extra(*this, "zoo.players", *sizes,
              "a mapping of table sizes such as {\"3\": {\"simulations\": 16}}");
  // The table size's own recommendation, else the one for every size.
  std::string key = "zoo.players." + std::to_string(players);
  if (const Json* size = extra_field(extra, key); size && !size->is_object())
    bad_extra(*this, key, *size, "a mapping such as {\"simulations\": 16}");
  key = extra_field(extra, key + ".simulations") ? key + ".simulations" : "zoo.simulations";
  const int64_t simulations = extra_count(key.c_str(), 0);
  if (simulations > kMaxZooSimulations)
    bad_extra(*this, key, *extra_field(extra, key),
              "at most " + std::to_string(kMaxZooSimulations) + " simulations");
  return static_cast<int>(simulations);
}

void save_checkpoint(const std::string& path, const CheckpointMeta& meta, PolicyValueNet& net,
                     torch::optim::Optimizer* optimizer) {
  const std::string meta_text = meta.to_json().dump(1);
  const std::string model = model_section(net, meta.half_precision);
  const std::string optim = optimizer ? optimizer_section(*optimizer) : std::string();
  const std::array<uint64_t, 4> header{meta_text.size(), model.size(), optim.size(),
                                       checksum(meta_text, model, optim)};

  const std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path());
  try {
    // The file rule (envs/core/files.h): "<path>.tmp", flushed, renamed over
    // a regular file or none (never through a symbolic link).
    files::write_file_atomically(
        path,
        {std::string_view(kMagic, sizeof(kMagic)),
         std::string_view(reinterpret_cast<const char*>(header.data()), sizeof(header)), meta_text, model,
         optim},
        "checkpoint");
  } catch (const files::FileError& e) {
    throw CheckpointError(e.what());
  }
}

CheckpointMeta read_checkpoint_meta(const std::string& path) {
  return parse_meta(split_sections(read_checkpoint_file(path), path).meta, path);
}

LoadedCheckpoint load_checkpoint_from_bytes(const std::string& bytes, const std::string& name,
                                            torch::Device device) {
  Sections s = split_sections(bytes, name);
  LoadedCheckpoint out;
  out.meta = parse_meta(s.meta, name);
  out.source = name;
  // A network far larger than the weights stored is refused before it is
  // built (crafted metadata must not make it allocate gigabytes).
  // (Counted at float16's two bytes a weight, so that a float16 section under
  // float32 metadata still reaches the clearer dtype message.)
  const uint64_t weights = static_cast<uint64_t>(out.meta.net_spec().parameter_count());
  if (weights > s.model.size() / 2)
    throw CheckpointError("checkpoint '" + name + "': its metadata describes a network of " +
                          std::to_string(weights) + " weights, but the model section holds only " +
                          std::to_string(s.model.size()) + " bytes");
  try {
    out.net = PolicyValueNet(out.meta.net_spec());
  } catch (const Error& e) {
    throw CheckpointError("checkpoint '" + name + "': its network cannot be built: " + e.what());
  } catch (const c10::Error& e) {
    throw CheckpointError("checkpoint '" + name + "': its network cannot be built: " + e.msg());
  }
  load_model_section(s.model, out.net, out.meta.half_precision, name);
  out.net->to(device);
  out.net->eval();
  out.optimizer_state = std::move(s.optim);
  return out;
}

LoadedCheckpoint load_checkpoint(const std::string& path, torch::Device device) {
  return load_checkpoint_from_bytes(read_checkpoint_file(path), path, device);
}

namespace {

// What an export may write over (the file rule, envs/core/files.h): not its
// source, nothing but a regular file (never through a symbolic link, never a
// FIFO or a device), and of the existing files only an earlier export, a
// weights-only checkpoint; never a run's resumable checkpoint nor any other file.
void check_export_target(const std::string& source, const std::string& target) {
  if (files::same_file(source, target))
    throw CheckpointError("export: the output '" + target + "' is the checkpoint it exports ('" + source +
                          "'); an export is weights only, and would replace it: name another file");
  try {
    files::check_output_path(target, "exported checkpoint");
  } catch (const files::FileError& e) {
    throw CheckpointError(std::string("export: ") + e.what());
  }
  struct stat info {};
  if (::stat(target.c_str(), &info) != 0) return;  // a new file
  Sections existing;
  try {
    existing = split_sections(read_checkpoint_file(target), target);
  } catch (const CheckpointError& e) {
    throw CheckpointError("export: the output '" + target +
                          "' exists and is not a checkpoint rocketgym can read (" + e.what() +
                          "); an export replaces only an earlier export: name another file, or remove it");
  }
  if (!existing.optim.empty())
    throw CheckpointError(
        "export: the output '" + target +
        "' is a resumable checkpoint (it holds optimizer state, counters and the run's "
        "bookkeeping); an export never replaces one: name another file, or remove it first");
}

}  // namespace

uint64_t export_checkpoint(const std::string& source, const std::string& target, bool half_precision,
                           int simulations, const std::vector<std::pair<int, int>>& by_players) {
  check_export_target(source, target);
  LoadedCheckpoint loaded = load_checkpoint(source);
  CheckpointMeta meta = loaded.meta;
  meta.half_precision = half_precision;  // save_checkpoint stores the weights in this precision
  meta.extra = Json{{"exported_from", {{"step", meta.step}, {"iteration", meta.iteration}}}};
  if (simulations >= 0) meta.extra["zoo"]["simulations"] = simulations;
  for (const auto& [players, count] : by_players)
    meta.extra["zoo"]["players"][std::to_string(players)] = Json{{"simulations", count}};
  save_checkpoint(target, meta, loaded.net, nullptr);
  return std::filesystem::file_size(target);
}

void load_optimizer_state(const LoadedCheckpoint& checkpoint, torch::optim::Optimizer& optimizer) {
  if (checkpoint.optimizer_state.empty()) return;  // a policy-only checkpoint: fresh optimizer
  SectionReader in(checkpoint.optimizer_state, "checkpoint '" + checkpoint.source + "': optimizer section: ");
  std::map<const void*, std::string> names;
  if (checkpoint.net)
    for (const auto& item : checkpoint.net->named_parameters())
      names.emplace(item.value().unsafeGetTensorImpl(), item.key());
  const uint8_t kind = in.get<uint8_t>("the optimizer kind");
  if (kind != kAdamCode && kind != kAdamWCode)
    in.fail("optimizer kind code " + std::to_string(kind) + " is not known (1 = Adam, 2 = AdamW)");
  const char* saved = kind == kAdamCode ? "Adam" : "AdamW";
  if (dynamic_cast<torch::optim::Adam*>(&optimizer)) {
    if (kind != kAdamCode) in.fail(std::string("it holds ") + saved + " state, the optimizer is Adam");
    load_optimizer_section<torch::optim::AdamOptions, torch::optim::AdamParamState>(in, optimizer, names);
  } else if (dynamic_cast<torch::optim::AdamW*>(&optimizer)) {
    if (kind != kAdamWCode) in.fail(std::string("it holds ") + saved + " state, the optimizer is AdamW");
    load_optimizer_section<torch::optim::AdamWOptions, torch::optim::AdamWParamState>(in, optimizer, names);
  } else {
    in.fail(std::string("it holds ") + saved + " state; only an Adam or AdamW optimizer can take it");
  }
}

void check_checkpoint_matches(const CheckpointMeta& meta, const std::string& path, const std::string& game,
                              int num_players, const std::vector<int>& observation_shape, int num_actions) {
  if (meta.game != game)
    throw CheckpointError("checkpoint '" + path + "' was trained for game '" + meta.game + "', not '" + game +
                          "'");
  const int version = Registry::instance().find(game).info.version;
  if (meta.game_version != version)
    throw CheckpointError("checkpoint '" + path + "' was trained for version " +
                          std::to_string(meta.game_version) + " of " + game +
                          " (its rules and encoding); this build has version " + std::to_string(version) +
                          ": retrain, or use it with the rocketgym it was trained with");
  if (!meta.serves(num_players))
    throw CheckpointError("checkpoint '" + path + "' was trained for " +
                          player_counts_text(meta.served_players()) + ", not " + std::to_string(num_players) +
                          " (a network serves the table sizes it was trained for; train one with "
                          "game.players listing " +
                          std::to_string(num_players) +
                          ", e.g. [2, 3, 4], or warm-start one from this file)");
  if (meta.observation_shape != observation_shape || meta.num_actions != num_actions)
    throw CheckpointError("checkpoint '" + path + "' expects observations " +
                          shape_text(meta.observation_shape) + " and " + std::to_string(meta.num_actions) +
                          " actions; the game now has " + shape_text(observation_shape) + " and " +
                          std::to_string(num_actions) + " (the encoder or rules changed)");
}

}  // namespace rocketgym
