// The only file that includes c10d: compiled with USE_C10D_GLOO and without
// the library's precompiled header (training/CMakeLists.txt).
#include "training/distributed/distributed.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include "envs/core/files.h"
#include "envs/core/rng.h"

namespace rocketgym::dist {

namespace fs = std::filesystem;

struct Context::Impl {
  int rank = 0, size = 1;
  std::chrono::seconds timeout{kDefaultTimeoutSeconds};
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
  fs::path scratch;  // copies of rank 0's files (file_from_root)
  int files = 0;

  ~Impl() {
    std::error_code ignored;
    if (!scratch.empty()) fs::remove_all(scratch, ignored);
  }

  std::string describe() const { return "rank " + std::to_string(rank) + " of " + std::to_string(size); }

  // What a c10d/Gloo failure means for the user.
  std::string failure(const char* what, const std::string& detail) const {
    std::string reason = "the other ranks did not take part";
    if (detail.find("imed out") != std::string::npos || detail.find("imeout") != std::string::npos)
      reason = "no answer from another rank within the " + std::to_string(timeout.count()) +
               " s timeout (a rank hung or is far behind; see --rank-timeout)";
    else if (detail.find("closed by peer") != std::string::npos ||
             detail.find("reset") != std::string::npos || detail.find("Broken pipe") != std::string::npos ||
             detail.find("refused") != std::string::npos)
      reason = "another rank stopped (it crashed, was killed or ended with an error: see its output)";
    return describe() + ": " + what + " failed: " + reason + " [" + detail + "]";
  }

  // Runs one collective; any c10d or Gloo error becomes a DistributedError.
  template <class F>
  void guarded(const char* what, F&& body) const {
    try {
      body();
    } catch (const DistributedError&) {
      throw;
    } catch (const c10::Error& e) {
      throw DistributedError(failure(what, e.msg()));
    } catch (const std::exception& e) {
      throw DistributedError(failure(what, e.what()));
    }
  }

  void run(const c10::intrusive_ptr<c10d::Work>& work) const {
    if (!work->wait()) std::rethrow_exception(work->exception());
  }
};

namespace {

// A whole non-negative number from the environment, or `fallback` if unset.
int env_int(const char* name, int fallback, int low, int high) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < low || value > high)
    throw ConfigError(std::string("environment variable ") + name + "='" + text +
                      "' is not a whole number in [" + std::to_string(low) + ", " + std::to_string(high) +
                      "]");
  return static_cast<int>(value);
}

std::string env_text(const char* name) {
  const char* text = std::getenv(name);
  return text ? text : "";
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

// The network interface Gloo listens on: GLOO_SOCKET_IFNAME as in PyTorch;
// the loopback address for a job on one machine; else the host's own name.
std::shared_ptr<gloo::transport::Device> gloo_device(const std::string& master_addr) {
  const std::string ifname = env_text("GLOO_SOCKET_IFNAME");
  if (!ifname.empty()) return c10d::ProcessGroupGloo::createDeviceForInterface(ifname);
  if (is_loopback(master_addr)) return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
  return c10d::ProcessGroupGloo::createDefaultDevice();
}

std::vector<at::Tensor> one(const torch::Tensor& t) { return {t}; }

}  // namespace

Launch Launch::from_environment() {
  Launch launch;
  launch.world_size = env_int("WORLD_SIZE", 1, 1, 1 << 20);
  if (launch.world_size == 1) return launch;
  launch.rank = env_int("RANK", -1, 0, launch.world_size - 1);
  if (launch.rank < 0) throw ConfigError("WORLD_SIZE is set but RANK is not (start the ranks with torchrun)");
  launch.local_rank = env_int("LOCAL_RANK", launch.rank, 0, launch.world_size - 1);
  launch.master_addr = env_text("MASTER_ADDR");
  launch.master_port = env_int("MASTER_PORT", 0, 0, 65535);
  if (launch.master_addr.empty() || launch.master_port == 0)
    throw ConfigError(
        "WORLD_SIZE is set but MASTER_ADDR or MASTER_PORT is not (start the ranks with torchrun)");
  const std::string agent = env_text("TORCHELASTIC_USE_AGENT_STORE");
  launch.agent_store = agent == "True" || agent == "true" || agent == "1";
  launch.restart = env_int("TORCHELASTIC_RESTART_COUNT", 0, 0, 1 << 20);
  return launch;
}

Context Context::join(const Launch& launch, std::chrono::seconds timeout) {
  // A write to a socket whose peer is gone raises SIGPIPE, which would end
  // this rank without a word; ignored, it is an error of the collective.
  std::signal(SIGPIPE, SIG_IGN);
  auto impl = std::make_shared<Impl>();
  impl->rank = launch.rank;
  impl->size = launch.world_size;
  impl->timeout = timeout;
  const std::string where = launch.master_addr + ":" + std::to_string(launch.master_port);
  impl->guarded(("joining the job's rendezvous store at " + where).c_str(), [&] {
    c10d::TCPStoreOptions options;
    options.port = static_cast<uint16_t>(launch.master_port);
    options.isServer = !launch.agent_store && launch.rank == 0;
    options.numWorkers = launch.world_size;
    options.waitWorkers = false;  // the process group's rendezvous waits for every rank
    options.timeout = timeout;
    const auto store = c10::make_intrusive<c10d::TCPStore>(launch.master_addr, options);
    impl->store =
        c10::make_intrusive<c10d::PrefixStore>("rocketgym/" + std::to_string(launch.restart), store);
  });
  impl->guarded("connecting to the other ranks", [&] {
    auto options = c10d::ProcessGroupGloo::Options::create(timeout);
    options->devices.push_back(gloo_device(launch.master_addr));
    options->threads = 2;
    impl->group =
        c10::make_intrusive<c10d::ProcessGroupGloo>(impl->store, launch.rank, launch.world_size, options);
  });
  Context context;
  context.impl_ = std::move(impl);
  return context;
}

Context Context::from_environment(std::chrono::seconds timeout) {
  const Launch launch = Launch::from_environment();
  if (launch.world_size == 1) return Context();
  return join(launch, timeout);
}

int Context::rank() const { return impl_ ? impl_->rank : 0; }
int Context::size() const { return impl_ ? impl_->size : 1; }
std::chrono::seconds Context::timeout() const {
  return impl_ ? impl_->timeout : std::chrono::seconds(kDefaultTimeoutSeconds);
}
std::string Context::describe() const { return impl_ ? impl_->describe() : "rank 0 of 1"; }

void Context::all_reduce_sum(torch::Tensor& values, const char* what) const {
  if (!impl_) return;
  impl_->guarded(what, [&] {
    std::vector<at::Tensor> tensors = one(values);
    impl_->run(impl_->group->allreduce(tensors));
  });
}

void Context::all_reduce_sum(std::vector<double>& values, const char* what) const {
  if (!impl_ || values.empty()) return;
  torch::Tensor t = torch::from_blob(values.data(), {static_cast<int64_t>(values.size())}, torch::kFloat64);
  all_reduce_sum(t, what);  // in place: t shares the vector's memory
}

bool Context::any(bool flag, const char* what) const {
  if (!impl_) return flag;
  torch::Tensor t = torch::full({1}, flag ? 1 : 0, torch::kInt64);
  all_reduce_sum(t, what);
  return t.item<int64_t>() > 0;
}

std::vector<int64_t> Context::all_gather(int64_t value, const char* what) const {
  if (!impl_) return {value};
  std::vector<std::vector<at::Tensor>> outputs(1);
  for (int r = 0; r < impl_->size; ++r) outputs[0].push_back(torch::zeros({1}, torch::kInt64));
  std::vector<at::Tensor> inputs = one(torch::full({1}, value, torch::kInt64));
  impl_->guarded(what, [&] { impl_->run(impl_->group->allgather(outputs, inputs)); });
  std::vector<int64_t> out;
  for (const auto& t : outputs[0]) out.push_back(t.item<int64_t>());
  return out;
}

void Context::broadcast(torch::Tensor& values, const char* what) const {
  if (!impl_) return;
  impl_->guarded(what, [&] {
    std::vector<at::Tensor> tensors = one(values);
    impl_->run(impl_->group->broadcast(tensors));
  });
}

std::string Context::broadcast_bytes(const std::string& bytes, const char* what) const {
  if (!impl_) return bytes;
  torch::Tensor size = torch::full({1}, static_cast<int64_t>(bytes.size()), torch::kInt64);
  broadcast(size, what);
  const int64_t n = size.item<int64_t>();
  torch::Tensor data = torch::empty({n}, torch::kUInt8);
  if (is_root() && n > 0) std::memcpy(data.data_ptr<uint8_t>(), bytes.data(), static_cast<std::size_t>(n));
  if (n > 0) broadcast(data, what);
  return std::string(reinterpret_cast<const char*>(data.data_ptr<uint8_t>()), static_cast<std::size_t>(n));
}

std::vector<std::string> Context::gather_to_root(const std::string& bytes, const char* what) const {
  if (!impl_) return {bytes};
  const std::vector<int64_t> sizes = all_gather(static_cast<int64_t>(bytes.size()), what);
  int64_t longest = 1;  // Gloo's gather wants equal, non-empty tensors
  for (int64_t n : sizes) longest = std::max(longest, n);
  torch::Tensor mine = torch::zeros({longest}, torch::kUInt8);
  std::memcpy(mine.data_ptr<uint8_t>(), bytes.data(), bytes.size());
  std::vector<std::vector<at::Tensor>> outputs;
  if (is_root()) {
    outputs.resize(1);
    for (int r = 0; r < impl_->size; ++r) outputs[0].push_back(torch::empty({longest}, torch::kUInt8));
  }
  std::vector<at::Tensor> inputs = one(mine);
  impl_->guarded(what, [&] { impl_->run(impl_->group->gather(outputs, inputs)); });
  std::vector<std::string> out;
  if (!is_root()) return out;
  for (int r = 0; r < impl_->size; ++r)
    out.emplace_back(
        reinterpret_cast<const char*>(outputs[0][static_cast<std::size_t>(r)].data_ptr<uint8_t>()),
        static_cast<std::size_t>(sizes[static_cast<std::size_t>(r)]));
  return out;
}

void Context::barrier(const char* what) const {
  if (!impl_) return;
  impl_->guarded(what, [&] { impl_->run(impl_->group->barrier()); });
}

std::optional<std::string> Context::file_from_root(const std::string& path) const {
  enum : int64_t { kMissing, kRead, kUnreadable };
  int64_t status = kMissing;
  std::string bytes;
  if (is_root() && fs::exists(path)) {
    status = kRead;
    if (impl_) {
      try {  // the file rule (envs/core/files.h): a checkpoint's cap, a regular file only
        bytes = files::read_input_file(path, files::kMaxCheckpointBytes, "file");
      } catch (const files::FileError&) {
        status = kUnreadable;
      }
    }
  }
  if (!impl_) return status == kRead ? std::optional<std::string>(path) : std::nullopt;
  const std::string what = "sending " + path + " from rank 0";
  torch::Tensor shared_status = torch::full({1}, status, torch::kInt64);
  broadcast(shared_status, what.c_str());
  status = shared_status.item<int64_t>();
  if (status == kMissing) return std::nullopt;
  if (status == kUnreadable) throw Error(describe() + ": rank 0 cannot read " + path);
  bytes = broadcast_bytes(bytes, what.c_str());
  if (is_root()) return path;
  if (impl_->scratch.empty()) {
    impl_->scratch = fs::temp_directory_path() /
                     ("rocketgym-" + std::to_string(::getpid()) + "-rank" + std::to_string(impl_->rank));
    fs::create_directories(impl_->scratch);
  }
  const fs::path copy =
      impl_->scratch / (std::to_string(++impl_->files) + "-" + fs::path(path).filename().string());
  try {
    files::write_file_atomically(copy.string(), bytes, "copy of rank 0's file");
  } catch (const files::FileError& e) {
    throw Error(describe() + ": cannot write " + copy.string() + " (copy of rank 0's " + path +
                "): " + e.what());
  }
  return copy.string();
}

int64_t share(int64_t total, int rank, int size) { return total / size + (rank < total % size ? 1 : 0); }

int64_t share_offset(int64_t total, int rank, int size) {
  return rank * (total / size) + std::min<int64_t>(rank, total % size);
}

uint64_t rank_seed(uint64_t seed, int rank) {
  return rank == 0 ? seed : derive_seed(seed ^ 0xD157'2A4EULL, static_cast<uint64_t>(rank));
}

void broadcast_parameters(const Context& context, const std::vector<torch::Tensor>& parameters) {
  if (context.single() || parameters.empty()) return;
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> flat;
  for (const auto& p : parameters) flat.push_back(p.detach().to(torch::kCPU).reshape(-1));
  torch::Tensor all = torch::cat(flat);
  context.broadcast(all, "the broadcast of the network's weights");
  int64_t at = 0;
  for (const auto& p : parameters) {
    const int64_t n = p.numel();
    p.detach().copy_(all.slice(0, at, at + n).view(p.sizes()));
    at += n;
  }
}

void all_reduce_gradients(const Context& context, const std::vector<torch::Tensor>& parameters,
                          torch::Tensor& extras) {
  if (context.single()) return;
  std::vector<torch::Tensor> flat;
  for (const auto& p : parameters) {
    torch::Tensor& grad = p.mutable_grad();
    if (!grad.defined()) grad = torch::zeros_like(p);
    flat.push_back(grad.detach().to(torch::kCPU, torch::kFloat32).reshape(-1));
  }
  flat.push_back(extras.detach().to(torch::kCPU, torch::kFloat32).reshape(-1));
  torch::Tensor all = torch::cat(flat);
  context.all_reduce_sum(all, "the all-reduce of the gradients");
  int64_t at = 0;
  for (const auto& p : parameters) {
    torch::Tensor& grad = p.mutable_grad();
    const int64_t n = grad.numel();
    grad.detach().copy_(all.slice(0, at, at + n).view(grad.sizes()));
    at += n;
  }
  extras.detach().copy_(all.slice(0, at, at + extras.numel()).view(extras.sizes()));
}

}  // namespace rocketgym::dist
