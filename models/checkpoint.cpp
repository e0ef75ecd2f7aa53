#include "models/checkpoint.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace rocketgym {

namespace {

constexpr char kMagic[8] = {'R', 'G', 'C', 'K', 'P', 'T', '0', '1'};
constexpr std::size_t kHeaderSize = sizeof(kMagic) + 4 * sizeof(uint64_t);

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

struct Sections {
  std::string meta, model, optim;
};

// The whole file, read only when it is a regular file of at most
// kMaxCheckpointBytes: never blocking on a FIFO (opened non-blocking, then
// refused), never reading /dev/zero without end.
std::string read_checkpoint_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    throw CheckpointError("checkpoint '" + path + "' does not exist or cannot be read (" +
                          std::strerror(error) + ")");
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) throw CheckpointError("checkpoint '" + path + "' cannot be read");
  if (!S_ISREG(info.st_mode))
    throw CheckpointError("'" + path +
                          "' is not a regular file (a checkpoint is a file written by rocketgym)");
  const auto size = static_cast<uint64_t>(info.st_size);
  if (size > kMaxCheckpointBytes)
    throw CheckpointError("'" + path + "' is larger than a checkpoint may be (" + std::to_string(size) +
                          " bytes, the limit is " + std::to_string(kMaxCheckpointBytes) + ")");
  std::string bytes(static_cast<std::size_t>(size), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {  // a file that shrank meanwhile reads as truncated below
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw CheckpointError("checkpoint '" + path + "' cannot be read (" + std::strerror(errno) + ")");
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

Sections read_sections(const std::string& path) {
  const std::string bytes = read_checkpoint_file(path);
  if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    if (bytes.size() < kHeaderSize &&
        std::memcmp(bytes.data(), kMagic, std::min(bytes.size(), sizeof(kMagic))) == 0)
      throw CheckpointError("checkpoint '" + path + "' is truncated (" + std::to_string(bytes.size()) +
                            " bytes, shorter than its header)");
    throw CheckpointError("'" + path + "' is not a rocketgym checkpoint (bad magic bytes)");
  }
  std::array<uint64_t, 4> header{};
  std::memcpy(header.data(), bytes.data() + sizeof(kMagic), sizeof(header));
  const uint64_t body = bytes.size() - kHeaderSize;
  // Each size is checked against the body first so the sum cannot overflow.
  if (header[0] > body || header[1] > body || header[2] > body || header[0] + header[1] + header[2] != body)
    throw CheckpointError("checkpoint '" + path + "' is truncated or corrupt: its header announces " +
                          std::to_string(header[0] + header[1] + header[2]) +
                          " bytes of content, the file has " + std::to_string(body));
  Sections s;
  s.meta = bytes.substr(kHeaderSize, header[0]);
  s.model = bytes.substr(kHeaderSize + header[0], header[1]);
  s.optim = bytes.substr(kHeaderSize + header[0] + header[1], header[2]);
  if (checksum(s.meta, s.model, s.optim) != header[3])
    throw CheckpointError("checkpoint '" + path + "' is corrupt (checksum mismatch)");
  return s;
}

CheckpointMeta parse_meta(const std::string& text, const std::string& path) {
  try {
    return CheckpointMeta::from_json(Json::parse(text));
  } catch (const nlohmann::json::exception& e) {
    throw CheckpointError("checkpoint '" + path + "' has unreadable metadata: " + e.what());
  } catch (const SerializationError& e) {
    throw CheckpointError("checkpoint '" + path + "' has invalid metadata: " + e.what());
  }
}

// Writes the pieces to "<path>.tmp", flushes them to the disk, then renames
// the file to `path`: a reader sees the old file or the whole new one. On any
// failure the temp file is removed and `path` is left as it was.
void write_file_atomically(const std::string& path, const std::vector<std::string_view>& pieces) {
  const std::string temp = path + ".tmp";
  auto fail = [&](const std::string& what, int error) {
    ::unlink(temp.c_str());
    throw CheckpointError(what + " (" + std::strerror(error) + ")");
  };
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw CheckpointError("cannot write checkpoint '" + temp + "' (" + std::strerror(errno) + ")");
  for (const std::string_view piece : pieces) {
    for (std::size_t done = 0; done < piece.size();) {
      const ssize_t n = ::write(fd, piece.data() + done, piece.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int error = errno;
        ::close(fd);
        fail("error while writing checkpoint '" + temp + "'", error);
      }
      done += static_cast<std::size_t>(n);
    }
  }
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    fail("error while writing checkpoint '" + temp + "'", error);
  }
  if (::close(fd) != 0) fail("error while writing checkpoint '" + temp + "'", errno);
  if (std::rename(temp.c_str(), path.c_str()) != 0)
    fail("cannot rename '" + temp + "' to '" + path + "'", errno);
  // Make the rename itself durable (best effort: some file systems refuse).
  const std::string dir = std::filesystem::path(path).has_parent_path()
                              ? std::filesystem::path(path).parent_path().string()
                              : std::string(".");
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
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

namespace {

// The weights must have the precision the metadata states: a float16 archive
// under float32 metadata (or the reverse) is a damaged or forged file.
void check_precision(PolicyValueNet& net, bool half_precision) {
  const auto expected = half_precision ? torch::kFloat16 : torch::kFloat32;
  for (const auto& p : net->parameters())
    if (p.scalar_type() != expected)
      throw Error(std::string("its weights are not ") + (half_precision ? "float16" : "float32") +
                  " as its metadata says");
}

}  // namespace

Json CheckpointMeta::to_json() const {
  return Json{{"format", "rocketgym-checkpoint"},
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
}

CheckpointMeta CheckpointMeta::from_json(const Json& doc) {
  CheckpointMeta m;
  m.game = json_get<std::string>(doc, "game");
  m.game_version = json_get<int>(doc, "game_version");
  m.num_players = json_get_int(doc, "num_players", 1, 64);
  m.observation_shape = json_get<std::vector<int>>(doc, "observation_shape");
  for (int d : m.observation_shape)
    if (d < 1) throw SerializationError("observation_shape has a non-positive dimension");
  m.num_actions = json_get_int(doc, "num_actions", 1, 1 << 24);
  m.encoder = json_get<std::string>(doc, "encoder");
  m.net = NetConfig::from_json(json_get<Json>(doc, "net"));
  m.step = json_get<int64_t>(doc, "step");
  m.iteration = json_get<int64_t>(doc, "iteration");
  m.extra = json_get<Json>(doc, "extra");
  if (doc.contains("weights")) {  // absent in files written before exports existed: float32
    const auto weights = json_get<std::string>(doc, "weights");
    if (weights != "float16" && weights != "float32")
      throw SerializationError("weights is '" + weights + "', not float32 or float16");
    m.half_precision = weights == "float16";
  }
  return m;
}

void save_checkpoint(const std::string& path, const CheckpointMeta& meta, PolicyValueNet& net,
                     torch::optim::Optimizer* optimizer) {
  const std::string meta_text = meta.to_json().dump(1);
  std::ostringstream model_stream, optim_stream;
  {
    torch::serialize::OutputArchive archive;
    net->save(archive);
    archive.save_to(model_stream);
  }
  if (optimizer) {
    torch::serialize::OutputArchive archive;
    optimizer->save(archive);
    archive.save_to(optim_stream);
  }
  const std::string model = model_stream.str(), optim = optim_stream.str();
  const std::array<uint64_t, 4> header{meta_text.size(), model.size(), optim.size(),
                                       checksum(meta_text, model, optim)};

  const std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path());
  write_file_atomically(path, {std::string_view(kMagic, sizeof(kMagic)),
                               std::string_view(reinterpret_cast<const char*>(header.data()), sizeof(header)),
                               meta_text, model, optim});
}

CheckpointMeta read_checkpoint_meta(const std::string& path) {
  return parse_meta(read_sections(path).meta, path);
}

LoadedCheckpoint load_checkpoint(const std::string& path, torch::Device device) {
  Sections s = read_sections(path);
  LoadedCheckpoint out;
  out.meta = parse_meta(s.meta, path);
  try {
    out.net = PolicyValueNet(out.meta.net_spec());
    if (out.meta.half_precision) out.net->to(torch::kFloat16);
    torch::serialize::InputArchive archive;
    std::istringstream in(s.model);
    archive.load_from(in);
    out.net->load(archive);
    check_precision(out.net, out.meta.half_precision);
    out.net->to(torch::kFloat32);  // float16 exports compute in float32
  } catch (const c10::Error& e) {
    throw CheckpointError("checkpoint '" + path + "': the weights do not load: " + e.msg());
  } catch (const Error& e) {
    throw CheckpointError("checkpoint '" + path + "': " + e.what());
  } catch (const std::exception& e) {
    // LibTorch's archive reader also throws types of its own (a damaged
    // TorchScript file in the archive gives torch::jit::ErrorReport).
    throw CheckpointError("checkpoint '" + path + "': the weights do not load: " + e.what());
  }
  out.net->to(device);
  out.net->eval();
  out.optimizer_state = std::move(s.optim);
  return out;
}

uint64_t export_checkpoint(const std::string& source, const std::string& target, bool half_precision,
                           int simulations) {
  LoadedCheckpoint loaded = load_checkpoint(source);
  CheckpointMeta meta = loaded.meta;
  meta.half_precision = half_precision;
  meta.extra = Json{{"exported_from", {{"step", meta.step}, {"iteration", meta.iteration}}}};
  if (simulations >= 0) meta.extra["zoo"] = Json{{"simulations", simulations}};
  if (half_precision) loaded.net->to(torch::kFloat16);
  save_checkpoint(target, meta, loaded.net, nullptr);
  return std::filesystem::file_size(target);
}

void load_optimizer_state(const LoadedCheckpoint& checkpoint, torch::optim::Optimizer& optimizer) {
  if (checkpoint.optimizer_state.empty()) return;  // a policy-only checkpoint: fresh optimizer
  try {
    torch::serialize::InputArchive archive;
    std::istringstream in(checkpoint.optimizer_state);
    archive.load_from(in);
    optimizer.load(archive);
  } catch (const c10::Error& e) {
    throw CheckpointError("the checkpoint's optimizer state does not load: " + e.msg());
  } catch (const std::exception& e) {  // LibTorch's own types, as in load_checkpoint
    throw CheckpointError(std::string("the checkpoint's optimizer state does not load: ") + e.what());
  }
}

void check_checkpoint_matches(const CheckpointMeta& meta, const std::string& path, const std::string& game,
                              int num_players, const std::vector<int>& observation_shape, int num_actions) {
  if (meta.game != game)
    throw CheckpointError("checkpoint '" + path + "' was trained for game '" + meta.game + "', not '" + game +
                          "'");
  if (meta.num_players != num_players)
    throw CheckpointError("checkpoint '" + path + "' was trained for " + std::to_string(meta.num_players) +
                          " players, not " + std::to_string(num_players));
  if (meta.observation_shape != observation_shape || meta.num_actions != num_actions)
    throw CheckpointError("checkpoint '" + path + "' expects observations " +
                          shape_text(meta.observation_shape) + " and " + std::to_string(meta.num_actions) +
                          " actions; the game now has " + shape_text(observation_shape) + " and " +
                          std::to_string(num_actions) + " (the encoder or rules changed)");
}

}  // namespace rocketgym
