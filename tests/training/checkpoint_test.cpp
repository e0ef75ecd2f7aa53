// Checkpoints: exact round trip of weights, optimizer state and metadata;
// missing, truncated, damaged, foreign and mismatched files are clear errors.
#include "models/checkpoint.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

using namespace rocketgym;

namespace {

std::string temp_dir(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rocketgym_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

CheckpointMeta small_meta() {
  CheckpointMeta m;
  m.game = "launchpad23";
  m.num_players = 2;
  m.observation_shape = {4, 3, 3};
  m.num_actions = 9;
  m.net.hidden = 16;
  m.net.channels = 4;
  m.net.blocks = 1;
  m.step = 12345;
  m.iteration = 7;
  m.extra = Json{{"pool", {"a.ckpt", "b.ckpt"}}};
  return m;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Saves a trained-a-little network with its Adam state.
std::string save_example(const std::string& dir, PolicyValueNet& net, torch::optim::Adam& adam) {
  const auto loss = net->forward(torch::randn({3, 36})).values.sum();
  adam.zero_grad();
  loss.backward();
  adam.step();
  const std::string path = dir + "/sub/latest.ckpt";
  save_checkpoint(path, small_meta(), net, &adam);
  return path;
}

}  // namespace

TEST_CASE("a checkpoint round-trips weights, optimizer state and metadata", "[checkpoint]") {
  const std::string dir = temp_dir("roundtrip");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  const std::string path = save_example(dir, net, adam);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));  // written to a temp file, then renamed

  LoadedCheckpoint loaded = load_checkpoint(path);
  CHECK(loaded.meta.game == "launchpad23");
  CHECK(loaded.meta.step == 12345);
  CHECK(loaded.meta.iteration == 7);
  CHECK(loaded.meta.observation_shape == std::vector<int>{4, 3, 3});
  CHECK(loaded.meta.net.hidden == 16);
  CHECK(loaded.meta.extra["pool"][1] == "b.ckpt");
  const auto a = net->parameters(), b = loaded.net->parameters();
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) CHECK(torch::equal(a[k], b[k]));
  const auto x = torch::randn({2, 36});
  CHECK(torch::equal(net->forward(x).logits, loaded.net->forward(x).logits));

  // The optimizer continues exactly: the same step from the same state gives the same weights.
  torch::optim::Adam adam2(loaded.net->parameters(), torch::optim::AdamOptions(1e-3));
  load_optimizer_state(loaded, adam2);
  auto step = [&](PolicyValueNet& n, torch::optim::Adam& opt) {
    opt.zero_grad();
    n->forward(x).values.sum().backward();
    opt.step();
  };
  step(net, adam);
  step(loaded.net, adam2);
  for (std::size_t k = 0; k < a.size(); ++k) CHECK(torch::allclose(a[k], b[k]));
  CHECK(read_checkpoint_meta(path).step == 12345);
}

TEST_CASE("a missing checkpoint is a clear error", "[checkpoint]") {
  const std::string dir = temp_dir("missing");
  try {
    load_checkpoint(dir + "/nope.ckpt");
    FAIL("no error");
  } catch (const CheckpointError& e) {
    CHECK_THAT(e.what(), Catch::Contains("does not exist"));
  }
}

TEST_CASE("a truncated checkpoint is detected", "[checkpoint]") {
  const std::string dir = temp_dir("truncated");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  const std::string bytes = read_bytes(path);
  for (std::size_t keep : {bytes.size() - 1, bytes.size() / 2, std::size_t{20}, std::size_t{3}}) {
    write_bytes(path, bytes.substr(0, keep));
    try {
      load_checkpoint(path);
      FAIL("no error for a file cut to " << keep << " bytes");
    } catch (const CheckpointError& e) {
      CHECK_THAT(e.what(), Catch::Contains("truncated"));
    }
  }
}

TEST_CASE("a damaged checkpoint fails its checksum", "[checkpoint]") {
  const std::string dir = temp_dir("damaged");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  std::string bytes = read_bytes(path);
  bytes[bytes.size() - 100] ^= 0x5A;  // a flipped byte inside the weights
  write_bytes(path, bytes);
  CHECK_THROWS_WITH(load_checkpoint(path), Catch::Contains("corrupt"));
}

TEST_CASE("a file that is not a checkpoint is rejected", "[checkpoint]") {
  const std::string dir = temp_dir("foreign");
  write_bytes(dir + "/x.ckpt", "this is a text file, not a network, and it is long enough for a header");
  CHECK_THROWS_WITH(load_checkpoint(dir + "/x.ckpt"), Catch::Contains("not a rocketgym checkpoint"));
}

TEST_CASE("a checkpoint for another game or player count does not load into this one", "[checkpoint]") {
  const CheckpointMeta m = small_meta();
  CHECK_NOTHROW(check_checkpoint_matches(m, "x", "launchpad23", 2, {4, 3, 3}, 9));
  CHECK_THROWS_WITH(check_checkpoint_matches(m, "x", "lift_off", 2, {4, 3, 3}, 9),
                    Catch::Contains("trained for game 'launchpad23', not 'lift_off'"));
  CHECK_THROWS_WITH(check_checkpoint_matches(m, "x", "launchpad23", 3, {4, 3, 3}, 9),
                    Catch::Contains("2 players, not 3"));
  CHECK_THROWS_WITH(check_checkpoint_matches(m, "x", "launchpad23", 2, {5, 3, 3}, 9),
                    Catch::Contains("encoder or rules changed"));
}

TEST_CASE("metadata with bad fields is an error, not a crash", "[checkpoint]") {
  Json doc = small_meta().to_json();
  doc["num_actions"] = -3;
  CHECK_THROWS_AS(CheckpointMeta::from_json(doc), SerializationError);
  doc = small_meta().to_json();
  doc["net"]["kind"] = "transformer";
  CHECK_THROWS_AS(CheckpointMeta::from_json(doc), SerializationError);
  doc = small_meta().to_json();
  doc.erase("game");
  CHECK_THROWS_AS(CheckpointMeta::from_json(doc), SerializationError);
  doc = small_meta().to_json();
  doc["weights"] = "float64";
  CHECK_THROWS_AS(CheckpointMeta::from_json(doc), SerializationError);
  doc.erase("weights");  // files written before exports existed: float32
  CHECK_FALSE(CheckpointMeta::from_json(doc).half_precision);
}

TEST_CASE("an exported bot keeps the weights at half precision and nothing of the run", "[checkpoint]") {
  const std::string dir = temp_dir("export");
  CheckpointMeta meta = small_meta();
  meta.net.hidden = 256;  // big enough that the weights dominate the file
  PolicyValueNet net(meta.net_spec());
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  adam.zero_grad();
  net->forward(torch::randn({3, 36})).values.sum().backward();
  adam.step();  // Adam now holds two moments per weight
  save_checkpoint(dir + "/full.ckpt", meta, net, &adam);

  const uint64_t half_bytes = export_checkpoint(dir + "/full.ckpt", dir + "/zoo.ckpt", true, 32);
  const uint64_t float_bytes = export_checkpoint(dir + "/full.ckpt", dir + "/f32.ckpt", false, -1);
  CHECK(half_bytes == std::filesystem::file_size(dir + "/zoo.ckpt"));
  CHECK(half_bytes < float_bytes * 6 / 10);                                 // float16: about half
  CHECK(float_bytes * 2 < std::filesystem::file_size(dir + "/full.ckpt"));  // no Adam moments

  LoadedCheckpoint zoo = load_checkpoint(dir + "/zoo.ckpt");
  CHECK(zoo.meta.half_precision);
  CHECK(zoo.optimizer_state.empty());
  CHECK(zoo.meta.extra["zoo"]["simulations"] == 32);
  CHECK_FALSE(zoo.meta.extra.contains("pool"));  // run bookkeeping stays behind
  CHECK(zoo.meta.step == meta.step);
  for (const auto& p : zoo.net->parameters())
    CHECK(p.scalar_type() == torch::kFloat32);  // computes in float32
  const auto x = torch::randn({4, 36});
  const auto expected = net->forward(x).logits, got = zoo.net->forward(x).logits;
  CHECK(torch::allclose(expected, got, 1e-2, 1e-2));
  CHECK_FALSE(torch::equal(expected, got));  // it really was rounded
  LoadedCheckpoint f32 = load_checkpoint(dir + "/f32.ckpt");
  CHECK_FALSE(f32.meta.extra.contains("zoo"));
  CHECK(torch::equal(expected, f32.net->forward(x).logits));
}

// --- issue 16: what is read, and what a failed save leaves -----------------------

namespace {

std::string checkpoint_error(const std::function<void()>& body) {
  try {
    body();
  } catch (const CheckpointError& e) {
    return e.what();
  }
  return "(no CheckpointError)";
}

}  // namespace

TEST_CASE("only regular checkpoint files are read, never a device or a FIFO", "[checkpoint]") {
  const std::string dir = temp_dir("special");
  const std::string fifo = dir + "/pipe.ckpt";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // Releases a reader blocked on opening the FIFO (the old behaviour) after a
  // second; a reader that refused it at once leaves nothing to release.
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  });
  const auto started = std::chrono::steady_clock::now();
  const std::string fifo_error = checkpoint_error([&] { load_checkpoint(fifo); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  writer.join();
  CHECK_THAT(fifo_error, Catch::Contains("pipe.ckpt") && Catch::Contains("not a regular file"));
  CHECK(seconds < 0.5);
  CHECK_THAT(checkpoint_error([] { read_checkpoint_meta("/dev/null"); }),
             Catch::Contains("not a regular file"));
  CHECK_THAT(checkpoint_error([] { load_checkpoint("/dev/zero"); }), Catch::Contains("not a regular file"));
  CHECK_THAT(checkpoint_error([&] { load_checkpoint(dir); }), Catch::Contains("not a regular file"));

  // A file over the size limit is refused by its size (a sparse file: no disk used).
  const std::string huge = dir + "/huge.ckpt";
  {
    const int fd = ::open(huge.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, static_cast<off_t>(kMaxCheckpointBytes + 1)) == 0);
    ::close(fd);
  }
  CHECK_THAT(checkpoint_error([&] { read_checkpoint_meta(huge); }),
             Catch::Contains("larger than a checkpoint"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("a failed save leaves the old checkpoint and no temp file", "[checkpoint]") {
  const std::string dir = temp_dir("failed_save");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  const std::string before = read_bytes(path);

  // The disk fills up in the middle of the write (a file size limit acts the same).
  CheckpointMeta changed = small_meta();
  changed.step = 99;
  rlimit old_limit{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old_limit;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  const std::string full = checkpoint_error([&] { save_checkpoint(path, changed, net, &adam); });
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  CHECK_THAT(full, Catch::Contains("error while writing"));
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  CHECK(read_bytes(path) == before);
  CHECK(read_checkpoint_meta(path).step == 12345);

  // The rename fails (a folder holds the name).
  const std::string blocked = dir + "/blocked.ckpt";
  std::filesystem::create_directories(blocked + "/inside");
  CHECK_THAT(checkpoint_error([&] { save_checkpoint(blocked, changed, net, nullptr); }),
             Catch::Contains("cannot rename"));
  CHECK_FALSE(std::filesystem::exists(blocked + ".tmp"));
  std::filesystem::remove_all(dir);
}

// --- found by the checkpoint fuzz target (tests/fuzz/regressions/checkpoint/) ------

namespace {

uint64_t fnv1a(uint64_t hash, const std::string& bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

// The checkpoint at `path` with its model section changed by `edit`, under a
// header whose sizes and checksum are right: only the archive is damaged.
void rewrite_model_section(const std::string& path, const std::function<void(std::string&)>& edit) {
  const std::string bytes = read_bytes(path);
  uint64_t header[4];
  std::memcpy(header, bytes.data() + 8, sizeof(header));
  const std::size_t start = 8 + sizeof(header);
  const std::string meta = bytes.substr(start, header[0]);
  std::string model = bytes.substr(start + header[0], header[1]);
  const std::string optim = bytes.substr(start + header[0] + header[1], header[2]);
  edit(model);
  header[1] = model.size();
  header[3] = fnv1a(fnv1a(fnv1a(0xCBF29CE484222325ULL, meta), model), optim);
  write_bytes(path, bytes.substr(0, 8) + std::string(reinterpret_cast<const char*>(header), sizeof(header)) +
                        meta + model + optim);
}

}  // namespace

TEST_CASE("a damaged TorchScript text in the model archive is a CheckpointError", "[checkpoint]") {
  const std::string dir = temp_dir("torchscript");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  // The archive stores each module's type as TorchScript source text
  // ("  stem_conv : __torch__...."); a syntax error there made LibTorch throw
  // torch::jit::ErrorReport, which escaped load_checkpoint.
  rewrite_model_section(path, [](std::string& model) {
    const std::size_t buffers = model.find("__buffers__ = []\n");
    REQUIRE(buffers != std::string::npos);
    const std::size_t colon = model.find(" : __torch__", buffers);
    REQUIRE(colon != std::string::npos);
    model.replace(colon, 3, "::x");
  });
  CHECK_THROWS_WITH(load_checkpoint(path), Catch::Contains("the weights do not load"));
}
