#include "models/checkpoint.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <type_traits>
#include <utility>

#include "envs/core/files.h"
#include "envs/core/json.h"
#include "envs/core/quoted.h"
#include "models/checkpoint_format.h"

namespace rocketgym {

// The model and optimizer sections and the metadata, in the byte format of
// models/checkpoint_format.h (the metadata JSON: models/checkpoint_meta.cpp).
namespace checkpoint_format {
namespace {

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

// What a tensor of NaN or infinities is told (a run that diverged saves one;
// loaded, every position would be evaluated as NaN).
constexpr const char* kNotFinite =
    " holds NaN or infinite numbers (the run that wrote it diverged, or the file was edited): use an "
    "earlier checkpoint, or retrain";

// Reads the model section into the network's tensors (float32, on the CPU).
// Everything is checked first: the names are exactly the network's, each
// once, with the network's shapes, the metadata's dtype and finite numbers,
// and the section holds nothing more. Only then is anything copied.
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
    if (!all_finite(record)) in.fail(what + kNotFinite);
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
  if (!all_finite(record)) in.fail(what + kNotFinite);
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
    CheckpointMeta meta = CheckpointMeta::from_json(parse_json(text));
    meta.source = path;
    // The recommended searches (extra.zoo) are checked now, whoever reads the
    // file, not only by the zoo: each table size it serves, and 0, a size
    // with no entry of its own, for the fallback extra.zoo.simulations.
    meta.zoo_simulations(0);
    for (const int players : meta.served_players()) meta.zoo_simulations(players);
    return meta;
  } catch (const nlohmann::json::exception& e) {
    throw CheckpointError("checkpoint " + quote(path) + " has unreadable metadata: " + e.what());
  } catch (const SerializationError& e) {
    throw CheckpointError("checkpoint " + quote(path) + " has invalid metadata: " + e.what());
  }
}

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
}  // namespace checkpoint_format

void save_checkpoint(const std::string& path, const CheckpointMeta& meta, PolicyValueNet& net,
                     torch::optim::Optimizer* optimizer) {
  using namespace checkpoint_format;
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
  using namespace checkpoint_format;
  return parse_meta(split_sections(read_checkpoint_file(path), path).meta, path);
}

LoadedCheckpoint load_checkpoint_from_bytes(const std::string& bytes, const std::string& name,
                                            torch::Device device) {
  using namespace checkpoint_format;
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
  using namespace checkpoint_format;
  return load_checkpoint_from_bytes(read_checkpoint_file(path), path, device);
}

uint64_t export_checkpoint(const std::string& source, const std::string& target, bool half_precision,
                           int simulations, const std::vector<std::pair<int, int>>& by_players) {
  using namespace checkpoint_format;
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
  using namespace checkpoint_format;
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

}  // namespace rocketgym
