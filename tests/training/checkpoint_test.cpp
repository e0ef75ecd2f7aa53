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
#include <limits>
#include <thread>

#include "envs/core/game.h"
#include "envs/core/quoted.h"
#include "tests/common/temp_dir.h"
#include "training/players/player_spec.h"

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

// `count` optimizer steps on a loss over both heads.
template <typename Optimizer>
void train_steps(PolicyValueNet& net, Optimizer& optimizer, const torch::Tensor& x, int count) {
  for (int i = 0; i < count; ++i) {
    optimizer.zero_grad();
    const auto out = net->forward(x);
    (out.values.sum() + out.logits.pow(2).mean()).backward();
    optimizer.step();
  }
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

  // The optimizer continues exactly: the same steps from the same state give
  // the same weights, bit for bit.
  torch::optim::Adam adam2(loaded.net->parameters(), torch::optim::AdamOptions(1e-3));
  load_optimizer_state(loaded, adam2);
  train_steps(net, adam, x, 3);
  train_steps(loaded.net, adam2, x, 3);
  for (std::size_t k = 0; k < a.size(); ++k) CHECK(torch::equal(a[k], b[k]));
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

TEST_CASE("a long game name in the metadata is named by its start", "[checkpoint]") {
  // The arena echoed a metadata `game` of 100,000 characters in full.
  CheckpointMeta m = small_meta();
  m.game = std::string(100000, 'g') + "\n";
  try {
    check_checkpoint_matches(m, "x", "launchpad23", 2, {4, 3, 3}, 9);
    FAIL("matched");
  } catch (const CheckpointError& e) {
    CHECK(std::string(e.what()).size() < kMaxQuotedBytes + 100);
    CHECK_THAT(e.what(), Catch::Contains("trained for game '" + std::string(kMaxQuotedBytes, 'g') + "...'"));
  }
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
  doc["extra"] = 5;  // every reader of extra looks up keys in it
  CHECK_THROWS_WITH(CheckpointMeta::from_json(doc), Catch::Contains("'extra' must be a mapping"));
}

// --- issue 30: metadata a user edited, and the game's version ------------------

TEST_CASE("fields of extra are read checked, naming the file and the key", "[checkpoint]") {
  CheckpointMeta m = small_meta();
  m.source = "runs/x/latest.ckpt";
  m.extra = Json{{"episodes", -4}, {"games", 12}, {"rate", 1.5}, {"pool", {"a.ckpt", 3}}, {"who", 7}};
  CHECK(m.extra_count("games", 0) == 12);
  CHECK(m.extra_count("absent", 9) == 9);
  CHECK_THROWS_WITH(m.extra_count("episodes", 0),
                    Catch::Contains("checkpoint 'runs/x/latest.ckpt': extra.episodes is -4") &&
                        Catch::Contains("whole number >= 0"));
  CHECK_THROWS_WITH(m.extra_number("rate", 0.0, 0.0, 1.0), Catch::Contains("extra.rate is 1.5"));
  CHECK(m.extra_number("games", 0.0, 0.0, 100.0) == 12.0);
  CHECK_THROWS_WITH(m.extra_texts("pool"),
                    Catch::Contains("extra.pool") && Catch::Contains("a list of texts"));
  CHECK_THROWS_AS(m.extra_text("who", ""), CheckpointError);
  CHECK(m.extra_texts("absent").empty());
  CHECK(m.zoo_simulations(2) == 0);  // no recommendation: the raw network
}

TEST_CASE("edited zoo metadata is refused naming the file and the key, before anything is allocated",
          "[checkpoint]") {
  const testing::ZooDirForTest zoo("zoo_meta");
  const std::string file = zoo.file("launchpad23.ckpt");
  auto zoo_file_with = [&](const Json& zoo) {
    CheckpointMeta m = small_meta();
    m.extra = Json{{"zoo", zoo}};
    PolicyValueNet net(m.net_spec());
    save_checkpoint(file, m, net, nullptr);
  };
  auto resolved = [] {
    players::PlayerSpec agent = players::parse_player("zoo:launchpad23");
    players::resolve_kind(agent, 2);
    return agent;
  };
  // These gave [json.exception.type_error.306], `expected an integer, got "abc"`
  // without a file or key, and std::bad_alloc once the search was built.
  zoo_file_with(Json{{"simulations", "abc"}});
  CHECK_THROWS_WITH(resolved(), Catch::Contains(file) && Catch::Contains("extra.zoo.simulations is \"abc\""));
  zoo_file_with(Json(5));
  CHECK_THROWS_WITH(resolved(), Catch::Contains(file) && Catch::Contains("extra.zoo is 5"));
  zoo_file_with(Json{{"simulations", 2'000'000'000}});
  CHECK_THROWS_WITH(resolved(),
                    Catch::Contains("extra.zoo.simulations") && Catch::Contains("at most 10000000"));
  zoo_file_with(Json{{"simulations", -3}});
  CHECK_THROWS_WITH(resolved(), Catch::Contains("extra.zoo.simulations is -3"));
  zoo_file_with(Json{{"simulations", 16}});
  CHECK(resolved().as<players::Ismcts>().mcts.simulations == 16);
  // Per table size: extra.zoo.players.<P>.simulations over extra.zoo.simulations.
  zoo_file_with(
      Json{{"simulations", 16}, {"players", {{"2", {{"simulations", 0}}}, {"3", {{"simulations", 8}}}}}});
  CHECK(resolved().is<players::Checkpoint>());  // 0 at 2 players: the raw network
  CHECK(read_checkpoint_meta(file).zoo_simulations(3) == 8);
  CHECK(read_checkpoint_meta(file).zoo_simulations(4) == 16);
  zoo_file_with(Json{{"players", 3}});
  CHECK_THROWS_WITH(resolved(), Catch::Contains(file) && Catch::Contains("extra.zoo.players is 3"));
  zoo_file_with(Json{{"players", {{"2", 64}}}});
  CHECK_THROWS_WITH(resolved(), Catch::Contains("extra.zoo.players.2 is 64"));
  zoo_file_with(Json{{"players", {{"2", {{"simulations", -1}}}}}});
  CHECK_THROWS_WITH(resolved(), Catch::Contains("extra.zoo.players.2.simulations is -1"));
}

TEST_CASE("the encoder and the recommended searches are checked whoever reads the file", "[checkpoint]") {
  const std::string dir = temp_dir("meta_fields");
  const std::string path = dir + "/bot.ckpt";
  PolicyValueNet net(small_meta().net_spec());
  auto error_with = [&](const std::function<void(CheckpointMeta&)>& edit) {
    CheckpointMeta m = small_meta();
    edit(m);
    save_checkpoint(path, m, net, nullptr);
    std::string message = "(no CheckpointError)";
    try {
      read_checkpoint_meta(path);
    } catch (const CheckpointError& e) {
      message = e.what();
    }
    // Loading (the arena's checkpoint:) and exporting read the same metadata.
    CHECK_THROWS_AS(load_checkpoint(path), CheckpointError);
    CHECK_THROWS_AS(export_checkpoint(path, dir + "/out.ckpt", true, 0), CheckpointError);
    return message;
  };
  // "../../x" loaded and played: no encoder of this build has that name.
  CHECK_THAT(error_with([](CheckpointMeta& m) { m.encoder = "../../x"; }),
             Catch::Contains("checkpoint '" + path +
                             "' has invalid metadata: encoder is \"../../x\", not "
                             "\"default\""));
  CHECK_THAT(error_with([](CheckpointMeta& m) { m.encoder = std::string(500, 'e'); }),
             Catch::Contains("...") && !Catch::Contains(std::string(100, 'e')));
  // A file's recommended search was checked only by the zoo: a checkpoint: agent and export took these.
  for (const Json& simulations : {Json(int64_t{1'000'000'000'000}), Json(-5), Json("x")}) {
    INFO(simulations.dump());
    CHECK_THAT(error_with([&](CheckpointMeta& m) {
                 m.extra = Json{{"zoo", {{"simulations", simulations}}}};
               }),
               Catch::Contains("checkpoint '" + path + "': extra.zoo.simulations is " + simulations.dump()));
  }
  CHECK_THAT(error_with([](CheckpointMeta& m) {
               m.extra = Json{{"zoo", {{"players", {{"2", {{"simulations", 10'000'001}}}}}}}};
             }),
             Catch::Contains("extra.zoo.players.2.simulations") && Catch::Contains("at most 10000000"));
  CheckpointMeta good = small_meta();
  good.extra = Json{{"zoo", {{"simulations", 10'000'000}}}};
  save_checkpoint(path, good, net, nullptr);
  CHECK(read_checkpoint_meta(path).zoo_simulations(2) == 10'000'000);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a checkpoint of another version of the game is refused", "[checkpoint]") {
  CheckpointMeta m = small_meta();
  const int version = Registry::instance().find("launchpad23").info.version;
  m.game_version = version + 1;
  // game_version was never checked.
  CHECK_THROWS_WITH(check_checkpoint_matches(m, "zoo/launchpad23.ckpt", "launchpad23", 2, {4, 3, 3}, 9),
                    Catch::Contains("'zoo/launchpad23.ckpt' was trained for version " +
                                    std::to_string(version + 1) + " of launchpad23") &&
                        Catch::Contains("this build has version " + std::to_string(version)));
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

  const uint64_t half_bytes = export_checkpoint(dir + "/full.ckpt", dir + "/zoo.ckpt", true, 32, {{3, 0}});
  const uint64_t float_bytes = export_checkpoint(dir + "/full.ckpt", dir + "/f32.ckpt", false, -1);
  CHECK(half_bytes == std::filesystem::file_size(dir + "/zoo.ckpt"));
  CHECK(half_bytes < float_bytes * 6 / 10);                                 // float16: about half
  CHECK(float_bytes * 2 < std::filesystem::file_size(dir + "/full.ckpt"));  // no Adam moments

  LoadedCheckpoint zoo = load_checkpoint(dir + "/zoo.ckpt");
  CHECK(zoo.meta.half_precision);
  CHECK(zoo.optimizer_state.empty());
  CHECK(zoo.meta.extra["zoo"]["simulations"] == 32);
  CHECK(zoo.meta.zoo_simulations(2) == 32);
  CHECK(zoo.meta.zoo_simulations(3) == 0);       // --simulations-at 3=0
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
  // second; a reader that refused it at once leaves nothing to release. What
  // is checked is the error, never how long it took: a reader that opened
  // the FIFO would get another error (an empty file) or hang.
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  });
  const std::string fifo_error = checkpoint_error([&] { load_checkpoint(fifo); });
  writer.join();
  CHECK_THAT(fifo_error, Catch::Contains("pipe.ckpt") && Catch::Contains("not a regular file"));
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

  // A folder holds the name: refused before anything is written (the file rule, issue 55).
  const std::string blocked = dir + "/blocked.ckpt";
  std::filesystem::create_directories(blocked + "/inside");
  CHECK_THAT(checkpoint_error([&] { save_checkpoint(blocked, changed, net, nullptr); }),
             Catch::Contains(blocked + ": not a regular file (a folder"));
  CHECK_FALSE(std::filesystem::exists(blocked + ".tmp"));
  std::filesystem::remove_all(dir);
}

// Issue 55: export never writes over its source, a run's resumable checkpoint,
// another file, a link, a FIFO or a device.
TEST_CASE("export refuses an output that would replace what it must not", "[checkpoint]") {
  const std::string dir = temp_dir("export_target");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string latest = save_example(dir, net, adam);  // a run's checkpoint: optimizer state and all
  const std::string before = read_bytes(latest);
  CHECK_THAT(checkpoint_error([&] { export_checkpoint(latest, latest, true, -1); }),
             Catch::Contains("is the checkpoint it exports"));
  CHECK_THAT(
      checkpoint_error([&] { export_checkpoint(latest, dir + "/sub/../sub/./latest.ckpt", true, -1); }),
      Catch::Contains("is the checkpoint it exports"));
  save_checkpoint(dir + "/other_run.ckpt", small_meta(), net, &adam);
  CHECK_THAT(checkpoint_error([&] { export_checkpoint(latest, dir + "/other_run.ckpt", true, -1); }),
             Catch::Contains("is a resumable checkpoint") && Catch::Contains("never replaces one"));
  std::ofstream(dir + "/notes.txt") << "my notes\n";
  CHECK_THAT(checkpoint_error([&] { export_checkpoint(latest, dir + "/notes.txt", true, -1); }),
             Catch::Contains("exists and is not a checkpoint"));
  std::filesystem::create_symlink(dir + "/elsewhere.ckpt", dir + "/link.ckpt");
  CHECK_THAT(checkpoint_error([&] { export_checkpoint(latest, dir + "/link.ckpt", true, -1); }),
             Catch::Contains("symbolic link"));
  CHECK_FALSE(std::filesystem::exists(dir + "/elsewhere.ckpt"));
  const std::string fifo = dir + "/pipe.ckpt";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(checkpoint_error([&] { export_checkpoint(latest, fifo, true, -1); }), Catch::Contains("a FIFO"));
  CHECK_THAT(checkpoint_error([&] { export_checkpoint(latest, "/dev/full", true, -1); }),
             Catch::Contains("/dev/full: not a regular file (a character device"));
  CHECK(read_bytes(latest) == before);  // the run can still resume
  CHECK_FALSE(load_checkpoint(latest).optimizer_state.empty());
  // A new file, and then an earlier export, are written.
  CHECK(export_checkpoint(latest, dir + "/zoo.ckpt", true, -1) > 0);
  CHECK(export_checkpoint(latest, dir + "/zoo.ckpt", false, 8) > 0);
  CHECK(read_checkpoint_meta(dir + "/zoo.ckpt").zoo_simulations(2) == 8);
  std::filesystem::remove_all(dir);
}

// --- format version 2: our own encoding, checked completely (issue 16) -----------

namespace {

uint64_t fnv1a(uint64_t hash, const std::string& bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

struct FileSections {
  std::string magic, meta, model, optim;
};

FileSections split_file(const std::string& bytes) {
  uint64_t header[4];
  std::memcpy(header, bytes.data() + 8, sizeof(header));
  const std::size_t start = 8 + sizeof(header);
  return {bytes.substr(0, 8), bytes.substr(start, header[0]), bytes.substr(start + header[0], header[1]),
          bytes.substr(start + header[0] + header[1], header[2])};
}

// The file's bytes with a header whose sizes and checksum are right for the
// sections: only what the sections say can be wrong.
std::string join_file(const FileSections& s) {
  const uint64_t header[4] = {s.meta.size(), s.model.size(), s.optim.size(),
                              fnv1a(fnv1a(fnv1a(0xCBF29CE484222325ULL, s.meta), s.model), s.optim)};
  return s.magic + std::string(reinterpret_cast<const char*>(header), sizeof(header)) + s.meta + s.model +
         s.optim;
}

void rewrite_sections(const std::string& path, const std::function<void(FileSections&)>& edit) {
  FileSections s = split_file(read_bytes(path));
  edit(s);
  write_bytes(path, join_file(s));
}

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

// One model-section entry, written by hand (models/checkpoint.h's layout).
struct Entry {
  std::string name;
  uint8_t dtype = 1;  // 1 = float32, 2 = float16
  std::vector<uint64_t> dims;
  std::string data;
};

std::string encode_model(const std::vector<Entry>& entries) {
  std::string out;
  put<uint32_t>(out, static_cast<uint32_t>(entries.size()));
  for (const Entry& e : entries) {
    put<uint16_t>(out, static_cast<uint16_t>(e.name.size()));
    out += e.name;
    put<uint8_t>(out, e.dtype);
    put<uint8_t>(out, static_cast<uint8_t>(e.dims.size()));
    for (uint64_t d : e.dims) put<uint64_t>(out, d);
    out += e.data;
  }
  return out;
}

std::vector<Entry> entries_of(PolicyValueNet& net) {
  std::vector<Entry> out;
  for (const auto& item : net->named_parameters()) {
    const torch::Tensor t = item.value().detach().contiguous();
    Entry e{item.key(), 1, {}, std::string(static_cast<const char*>(t.data_ptr()), t.numel() * 4)};
    for (int64_t d : t.sizes()) e.dims.push_back(static_cast<uint64_t>(d));
    out.push_back(e);
  }
  return out;
}

// The CheckpointError a float32 checkpoint of small_meta() gives once its
// model section is replaced by `entries` (then `tail`).
std::string model_error(const std::vector<Entry>& entries, const std::string& tail = "") {
  const std::string dir = temp_dir("model_section");
  PolicyValueNet net(small_meta().net_spec());
  save_checkpoint(dir + "/x.ckpt", small_meta(), net, nullptr);
  rewrite_sections(dir + "/x.ckpt", [&](FileSections& s) { s.model = encode_model(entries) + tail; });
  return checkpoint_error([&] { load_checkpoint(dir + "/x.ckpt"); });
}

}  // namespace

TEST_CASE("negative counters in the metadata are refused naming the file and the field", "[checkpoint]") {
  const std::string dir = temp_dir("negative_counters");
  PolicyValueNet net(small_meta().net_spec());
  const std::string path = dir + "/latest.ckpt";
  for (const char* field : {"step", "iteration"}) {
    CheckpointMeta meta = small_meta();
    (std::string(field) == "step" ? meta.step : meta.iteration) = -5;
    save_checkpoint(path, meta, net, nullptr);
    CHECK_THAT(checkpoint_error([&] { read_checkpoint_meta(path); }),
               Catch::Contains("checkpoint '" + path + "' has invalid metadata: field '" + field +
                               "' is -5, expected a whole number >= 0"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a key given twice in the metadata is refused naming the key", "[checkpoint]") {
  const std::string dir = temp_dir("duplicate_keys");
  PolicyValueNet net(small_meta().net_spec());
  const std::string path = dir + "/latest.ckpt";
  save_checkpoint(path, small_meta(), net, nullptr);
  const std::string original = read_bytes(path);
  // Each rewritten with a right checksum: only the repeated key is wrong.
  auto with_meta = [&](const std::string& from, const std::string& to) {
    write_bytes(path, original);
    rewrite_sections(path, [&](FileSections& s) {
      const std::size_t at = s.meta.find(from);
      REQUIRE(at != std::string::npos);
      s.meta.replace(at, from.size(), to);
    });
    return checkpoint_error([&] { load_checkpoint(path); });
  };
  // The last "game" won, so the file loaded as whatever game it named last.
  CHECK_THAT(with_meta("{", "{\"game\": \"lift_off\", "),
             Catch::Contains("checkpoint '" + path + "' has invalid metadata: key 'game' is given twice"));
  // In a nested object too (the network's config).
  CHECK_THAT(with_meta("\"net\": {", "\"net\": {\"hidden\": 512, "),
             Catch::Contains("key 'hidden' is given twice"));
  // The same key in two objects is no repeat; a key is quoted by the one
  // quoting rule (envs/core/quoted.h): unprintable bytes escaped, a long key cut.
  CHECK(with_meta("\"extra\": {", "\"extra\": {\"game\": 1, ") == "(no CheckpointError)");
  const std::string odd_key = "\"k\\u0001\\n\"";
  CHECK_THAT(with_meta("{", "{" + odd_key + ": 1, " + odd_key + ": 2, "),
             Catch::Contains("key 'k\\x01\\x0A' is given twice"));
  const std::string long_key = "\"" + std::string(kMaxQuotedBytes + 100, 'k') + "\"";
  const std::string message = with_meta("{", "{" + long_key + ": 1, " + long_key + ": 2, ");
  CHECK_THAT(message, Catch::Contains("key 'kkkk") && Catch::Contains("...' is given twice") &&
                          !Catch::Contains(std::string(kMaxQuotedBytes + 1, 'k')));
  std::filesystem::remove_all(dir);
}

TEST_CASE("the model section is our own tensor list, about the size of the raw weights", "[checkpoint]") {
  const std::string dir = temp_dir("v2_layout");
  PolicyValueNet net(small_meta().net_spec());
  save_checkpoint(dir + "/x.ckpt", small_meta(), net, nullptr);
  const FileSections s = split_file(read_bytes(dir + "/x.ckpt"));
  CHECK(s.magic == "RGCKPT02");
  // Exactly what a hand-written encoder makes of the network's parameters.
  CHECK(s.model == encode_model(entries_of(net)));
  CHECK(s.optim.empty());
  int64_t weights = 0;
  for (const auto& p : net->parameters()) weights += p.numel();
  CHECK(weights == small_meta().net_spec().parameter_count());
  CHECK(s.model.size() < static_cast<std::size_t>(weights) * 4 + 1024);
}

TEST_CASE("checkpoint bytes load from memory as from a file", "[checkpoint]") {
  const std::string dir = temp_dir("from_bytes");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  LoadedCheckpoint loaded = load_checkpoint_from_bytes(read_bytes(path), "in memory");
  CHECK(loaded.meta.step == 12345);
  CHECK(loaded.source == "in memory");
  CHECK_FALSE(loaded.optimizer_state.empty());
  const auto x = torch::randn({2, 36});
  CHECK(torch::equal(net->forward(x).logits, loaded.net->forward(x).logits));
  CHECK_THAT(checkpoint_error([] { load_checkpoint_from_bytes("RGCKPT02", "in memory"); }),
             Catch::Contains("'in memory' is truncated"));
  CHECK_THAT(checkpoint_error([] { load_checkpoint_from_bytes("not a checkpoint at all", "text"); }),
             Catch::Contains("'text' is not a rocketgym checkpoint"));
  CHECK_THAT(
      checkpoint_error([&] { load_checkpoint_from_bytes("RGCKPT03" + read_bytes(path).substr(8), "x"); }),
      Catch::Contains("format version this rocketgym does not know"));
}

// A network that diverged, saved through the save path like any other: the
// checksum is right, only the numbers are not.
TEST_CASE("NaN or infinite weights are refused naming the file and the tensor", "[checkpoint]") {
  const std::string dir = temp_dir("not_finite");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  {
    torch::NoGradGuard no_grad;
    for (auto& p : net->parameters()) p.fill_(std::numeric_limits<float>::quiet_NaN());
  }
  save_checkpoint(path, small_meta(), net, &adam);
  const std::string all_nan = checkpoint_error([&] { load_checkpoint(path); });
  CHECK_THAT(all_nan, Catch::Contains("checkpoint '" + path + "': model section: tensor '") &&
                          Catch::Contains("' holds NaN or infinite numbers"));
  CHECK_THAT(checkpoint_error([&] { load_checkpoint_from_bytes(read_bytes(path), "in memory"); }),
             Catch::Contains("'in memory'") && Catch::Contains("holds NaN or infinite numbers"));

  // One infinity in the last weight of one tensor, at either precision (an
  // exported bot is float16).
  PolicyValueNet one(small_meta().net_spec());
  {
    torch::NoGradGuard no_grad;
    one->named_parameters()["value_head.bias"].view(-1)[-1] = std::numeric_limits<float>::infinity();
  }
  for (bool half : {false, true}) {
    CheckpointMeta meta = small_meta();
    meta.half_precision = half;
    save_checkpoint(path, meta, one, nullptr);
    CHECK_THAT(checkpoint_error([&] { load_checkpoint(path); }),
               Catch::Contains("tensor 'value_head.bias' holds NaN or infinite numbers"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("NaN in the optimizer state is refused naming the parameter, changing nothing", "[checkpoint]") {
  const std::string dir = temp_dir("optim_not_finite");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  {
    torch::NoGradGuard no_grad;
    for (auto& [key, state] : adam.state())
      static_cast<torch::optim::AdamParamState&>(*state).exp_avg_sq().fill_(
          std::numeric_limits<float>::quiet_NaN());
  }
  save_checkpoint(path, small_meta(), net, &adam);
  LoadedCheckpoint loaded = load_checkpoint(path);  // the weights are fine
  torch::optim::Adam fresh(loaded.net->parameters());
  CHECK_THAT(checkpoint_error([&] { load_optimizer_state(loaded, fresh); }),
             Catch::Contains("optimizer section: the exp_avg_sq of parameter 0 ('stem_conv.weight')") &&
                 Catch::Contains("holds NaN or infinite numbers"));
  CHECK(fresh.state().empty());
  std::filesystem::remove_all(dir);
}

TEST_CASE("exported weights round-trip exactly at float16 and float32", "[checkpoint]") {
  const std::string dir = temp_dir("export_exact");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  export_checkpoint(path, dir + "/half.ckpt", true, 0);
  export_checkpoint(path, dir + "/f32.ckpt", false, -1);
  const auto original = net->named_parameters();
  LoadedCheckpoint half = load_checkpoint(dir + "/half.ckpt");
  LoadedCheckpoint f32 = load_checkpoint(dir + "/f32.ckpt");
  CHECK(split_file(read_bytes(dir + "/half.ckpt")).model.size() * 10 <
        split_file(read_bytes(dir + "/f32.ckpt")).model.size() * 6);
  for (const auto& item : half.net->named_parameters()) {
    const torch::Tensor& before = original[item.key()];
    CHECK(torch::equal(item.value(), before.to(torch::kFloat16).to(torch::kFloat32)));  // rounded once
    CHECK(torch::equal(f32.net->named_parameters()[item.key()], before));
  }
  // A float16 export exported again stays bit-identical.
  export_checkpoint(dir + "/half.ckpt", dir + "/half2.ckpt", true, 0);
  CHECK(split_file(read_bytes(dir + "/half2.ckpt")).model ==
        split_file(read_bytes(dir + "/half.ckpt")).model);
}

TEST_CASE("AdamW state, amsgrad moments and parameters without state round-trip exactly", "[checkpoint]") {
  const std::string dir = temp_dir("adamw");
  const auto x = torch::randn({3, 36});
  for (const bool amsgrad : {false, true}) {
    PolicyValueNet net(small_meta().net_spec());
    auto options = [&] { return torch::optim::AdamWOptions(2e-3).weight_decay(0.05).amsgrad(amsgrad); };
    torch::optim::AdamW adamw(net->parameters(), options());
    // A first step on the policy alone: the value layers get no gradient and
    // so no optimizer state, which must stay so.
    adamw.zero_grad();
    net->forward(x).logits.sum().backward();
    adamw.step();
    const std::size_t with_state = adamw.state().size();
    REQUIRE(with_state > 0);
    REQUIRE(with_state < net->parameters().size());
    save_checkpoint(dir + "/adamw.ckpt", small_meta(), net, &adamw);

    LoadedCheckpoint loaded = load_checkpoint(dir + "/adamw.ckpt");
    torch::optim::AdamW adamw2(loaded.net->parameters(), options());
    load_optimizer_state(loaded, adamw2);
    CHECK(adamw2.state().size() == with_state);
    train_steps(net, adamw, x, 3);
    train_steps(loaded.net, adamw2, x, 3);
    const auto a = net->parameters(), b = loaded.net->parameters();
    for (std::size_t k = 0; k < a.size(); ++k) CHECK(torch::equal(a[k], b[k]));
  }
}

TEST_CASE("a version 1 checkpoint is refused with a way to convert it", "[checkpoint]") {
  const std::string dir = temp_dir("version1");
  PolicyValueNet net(small_meta().net_spec());
  save_checkpoint(dir + "/old.ckpt", small_meta(), net, nullptr);
  // A version 1 file: its model section was a LibTorch archive (a zip), which
  // must never reach LibTorch's parser, whatever it holds.
  rewrite_sections(dir + "/old.ckpt", [](FileSections& s) {
    s.magic = "RGCKPT01";
    s.model = "PK\x03\x04 a TorchScript archive";
  });
  for (const std::string& error : {checkpoint_error([&] { load_checkpoint(dir + "/old.ckpt"); }),
                                   checkpoint_error([&] { read_checkpoint_meta(dir + "/old.ckpt"); })}) {
    CHECK_THAT(error, Catch::Contains("old.ckpt") && Catch::Contains("format version 1") &&
                          Catch::Contains("not safe on untrusted files") &&
                          Catch::Contains("scripts/convert_checkpoint_v1.py"));
  }
}

TEST_CASE("a model section with an unknown, missing or repeated tensor is refused", "[checkpoint]") {
  PolicyValueNet net(small_meta().net_spec());
  const std::vector<Entry> good = entries_of(net);
  REQUIRE(good.size() > 3);
  CHECK(model_error(good) == "(no CheckpointError)");
  auto renamed = good;
  renamed[2].name = "stem_linear.weight_old";
  CHECK_THAT(model_error(renamed), Catch::Contains("model section: tensor 'stem_linear.weight_old' is not a "
                                                   "tensor of this network"));
  auto missing = good;
  const std::string gone = missing[1].name;
  missing.erase(missing.begin() + 1);
  CHECK_THAT(model_error(missing), Catch::Contains("tensor '" + gone + "' of the network is missing"));
  auto repeated = good;
  repeated.push_back(good[0]);
  CHECK_THAT(model_error(repeated), Catch::Contains("tensor '" + good[0].name + "' appears twice"));
  auto odd = good;
  odd[0].name = std::string("bad\n\x01name", 9);
  CHECK_THAT(model_error(odd), Catch::Contains("tensor 'bad\\x0a\\x01name' is not a tensor"));
  auto unnamed = good;
  unnamed[0].name.clear();
  CHECK_THAT(model_error(unnamed), Catch::Contains("tensor 0 has a name of 0 bytes"));
  auto long_name = good;
  long_name[0].name = std::string(300, 'a');
  CHECK_THAT(model_error(long_name), Catch::Contains("tensor 0 has a name of 300 bytes (1 to 256)"));
}

TEST_CASE("a model section with a wrong shape or dtype is refused", "[checkpoint]") {
  PolicyValueNet net(small_meta().net_spec());
  const std::vector<Entry> good = entries_of(net);
  // stem_conv.weight is 4x4x3x3: the same bytes as 4x3x4x3 or 144, still the wrong shape.
  auto permuted = good;
  REQUIRE(permuted[0].name == "stem_conv.weight");
  std::swap(permuted[0].dims[1], permuted[0].dims[2]);
  CHECK_THAT(model_error(permuted),
             Catch::Contains("tensor 'stem_conv.weight' has shape [4x3x4x3], the network's is [4x4x3x3]"));
  auto flat = good;
  flat[0].dims = {static_cast<uint64_t>(flat[0].data.size() / 4)};
  CHECK_THAT(model_error(flat), Catch::Contains("tensor 'stem_conv.weight' has shape [144], the network's"));
  auto halved = good;  // float16 data under float32 metadata
  halved[1].dtype = 2;
  halved[1].data.resize(halved[1].data.size() / 2);
  CHECK_THAT(
      model_error(halved),
      Catch::Contains("tensor 'stem_conv.bias' is float16, but the metadata says the weights are float32"));
  auto unknown_dtype = good;
  unknown_dtype[1].dtype = 7;
  CHECK_THAT(model_error(unknown_dtype), Catch::Contains("tensor 'stem_conv.bias' has dtype code 7"));
  auto many_dims = good;
  many_dims[1].dims.assign(9, 1);
  CHECK_THAT(model_error(many_dims), Catch::Contains("tensor 'stem_conv.bias' has 9 dimensions (at most 8)"));

  // float32 weights under metadata that says float16.
  const std::string dir = temp_dir("dtype_meta");
  save_checkpoint(dir + "/x.ckpt", small_meta(), net, nullptr);
  rewrite_sections(dir + "/x.ckpt", [](FileSections& s) {
    Json doc = Json::parse(s.meta);
    doc["weights"] = "float16";
    s.meta = doc.dump();
  });
  CHECK_THAT(checkpoint_error([&] { load_checkpoint(dir + "/x.ckpt"); }),
             Catch::Contains("is float32, but the metadata says the weights are float16"));
}

TEST_CASE("tensor dims that exceed the section or overflow are refused before allocating", "[checkpoint]") {
  PolicyValueNet net(small_meta().net_spec());
  const std::vector<Entry> good = entries_of(net);
  auto too_big = good;
  too_big[1].dims = {1u << 20, 1u << 10};  // 4 GiB of float32 in a section of a few kB
  CHECK_THAT(model_error(too_big), Catch::Contains("tensor 'stem_conv.bias' has dims [1048576x1024] of "
                                                   "float32: 4294967296 bytes, but only") &&
                                       Catch::Contains("remain in the section"));
  auto overflow = good;
  overflow[1].dims = {uint64_t{1} << 32, uint64_t{1} << 32, uint64_t{1} << 32};
  CHECK_THAT(model_error(overflow), Catch::Contains("whose byte count overflows"));
  auto bytes_overflow = good;  // 2^62 elements fit 64 bits, their 2^64 bytes do not
  bytes_overflow[1].dims = {uint64_t{1} << 31, uint64_t{1} << 31};
  CHECK_THAT(model_error(bytes_overflow),
             Catch::Contains("has dims [2147483648x2147483648] whose byte count overflows"));
  auto huge_dim = good;
  huge_dim[1].dims = {(uint64_t{1} << 32) + 1};
  CHECK_THAT(model_error(huge_dim), Catch::Contains("has a dimension of 4294967297 (at most 2^32)"));
  auto short_data = good;
  short_data.back().data.pop_back();
  CHECK_THAT(model_error(short_data), Catch::Contains("'value_head.bias' has dims [2] of float32: 8 bytes, "
                                                      "but only 7 remain"));
  // (Padded: a section too small for the network's weights is refused
  // before it is read, see "metadata describing a network far larger ...").
  std::string count_only;
  put<uint32_t>(count_only, 100000);
  const std::string dir = temp_dir("count");
  save_checkpoint(dir + "/x.ckpt", small_meta(), net, nullptr);
  rewrite_sections(dir + "/x.ckpt", [&](FileSections& s) { s.model = count_only + std::string(8192, '\0'); });
  CHECK_THAT(checkpoint_error([&] { load_checkpoint(dir + "/x.ckpt"); }),
             Catch::Contains("announces 100000 tensors (at most 65536)"));
  // Cut inside the last entry's name (value_head.bias: 2 + 15 + 2 + 8 + 8 bytes).
  const std::string model = encode_model(good);
  rewrite_sections(dir + "/x.ckpt",
                   [&](FileSections& s) { s.model = model.substr(0, model.size() - 35 + 5); });
  CHECK_THAT(
      checkpoint_error([&] { load_checkpoint(dir + "/x.ckpt"); }),
      Catch::Contains("model section: it ends inside the name of tensor " + std::to_string(good.size() - 1)));
}

TEST_CASE("trailing bytes after the tensors are refused", "[checkpoint]") {
  PolicyValueNet net(small_meta().net_spec());
  CHECK_THAT(model_error(entries_of(net), "xyz"),
             Catch::Contains("model section: 3 bytes follow its last entry"));
  const std::string dir = temp_dir("trailing_optim");
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  rewrite_sections(path, [](FileSections& s) { s.optim += '\0'; });
  LoadedCheckpoint loaded = load_checkpoint(path);
  torch::optim::Adam adam2(loaded.net->parameters());
  CHECK_THAT(checkpoint_error([&] { load_optimizer_state(loaded, adam2); }),
             Catch::Contains("optimizer section: 1 bytes follow its last entry"));
  CHECK(adam2.state().empty());
}

TEST_CASE("optimizer state of another kind or for other parameters is refused and changes nothing",
          "[checkpoint]") {
  const std::string dir = temp_dir("optim_mismatch");
  PolicyValueNet net(small_meta().net_spec());
  torch::optim::Adam adam(net->parameters());
  const std::string path = save_example(dir, net, adam);
  LoadedCheckpoint loaded = load_checkpoint(path);
  const auto params = loaded.net->parameters();

  torch::optim::AdamW adamw(params);
  CHECK_THAT(checkpoint_error([&] { load_optimizer_state(loaded, adamw); }),
             Catch::Contains("latest.ckpt': optimizer section: it holds Adam state, the optimizer is AdamW"));
  torch::optim::SGD sgd(params, torch::optim::SGDOptions(0.1));
  CHECK_THAT(checkpoint_error([&] { load_optimizer_state(loaded, sgd); }),
             Catch::Contains("only an Adam or AdamW optimizer can take it"));
  torch::optim::Adam fewer(std::vector<torch::Tensor>(params.begin(), params.end() - 1));
  CHECK_THAT(checkpoint_error([&] { load_optimizer_state(loaded, fewer); }),
             Catch::Contains("param group 0 has " + std::to_string(params.size()) +
                             " parameters, the optimizer's has " + std::to_string(params.size() - 1)));
  torch::optim::Adam two_groups(std::vector<torch::optim::OptimizerParamGroup>{
      torch::optim::OptimizerParamGroup(std::vector<torch::Tensor>(params.begin(), params.begin() + 2)),
      torch::optim::OptimizerParamGroup(std::vector<torch::Tensor>(params.begin() + 2, params.end()))});
  CHECK_THAT(checkpoint_error([&] { load_optimizer_state(loaded, two_groups); }),
             Catch::Contains("it has 1 param groups, the optimizer has 2"));
  torch::optim::Adam amsgrad(params, torch::optim::AdamOptions().amsgrad(true));
  CHECK_THAT(checkpoint_error([&] { load_optimizer_state(loaded, amsgrad); }),
             Catch::Contains("param group 0 was saved with amsgrad off, the optimizer has it on"));

  // The same number of parameters in another order: shapes differ.
  auto swapped = params;
  std::swap(swapped[0], swapped[1]);
  torch::optim::Adam reordered(swapped);
  const std::string shape_error = checkpoint_error([&] { load_optimizer_state(loaded, reordered); });
  CHECK_THAT(shape_error, Catch::Contains("the exp_avg of parameter 0 ('stem_conv.bias') has shape "
                                          "[4x4x3x3], the parameter's is [4]"));
  // A refused load leaves the optimizer as it was (here: fresh).
  for (auto* optimizer :
       std::vector<torch::optim::Optimizer*>{&adamw, &fewer, &two_groups, &amsgrad, &reordered})
    CHECK(optimizer->state().empty());
  // Damaged state: an unknown kind, a truncated section.
  auto with_optim = [&](const std::string& optim) {
    LoadedCheckpoint copy = load_checkpoint(path);
    copy.optimizer_state = optim;
    torch::optim::Adam fresh(copy.net->parameters());
    return checkpoint_error([&] { load_optimizer_state(copy, fresh); });
  };
  CHECK_THAT(with_optim(std::string(1, '\x09')), Catch::Contains("optimizer kind code 9 is not known"));
  CHECK_THAT(with_optim(loaded.optimizer_state.substr(0, 60)),
             Catch::Contains("optimizer section: it ends inside"));
}

TEST_CASE("metadata describing a network far larger than its weights is refused before building it",
          "[checkpoint]") {
  const std::string dir = temp_dir("huge_net");
  PolicyValueNet net(small_meta().net_spec());
  save_checkpoint(dir + "/x.ckpt", small_meta(), net, nullptr);
  rewrite_sections(dir + "/x.ckpt", [](FileSections& s) {
    Json doc = Json::parse(s.meta);
    doc["num_actions"] = 1 << 24;  // a 4096 x 16 M policy head would be 256 GiB
    doc["net"]["hidden"] = 4096;
    s.meta = doc.dump();
  });
  CHECK_THAT(checkpoint_error([&] { load_checkpoint(dir + "/x.ckpt"); }),
             Catch::Contains("its metadata describes a network of") &&
                 Catch::Contains("weights, but the model section holds only"));
  rewrite_sections(dir + "/x.ckpt", [](FileSections& s) {
    Json doc = Json::parse(s.meta);
    doc["observation_shape"] = {65536, 65536};
    s.meta = doc.dump();
  });
  CHECK_THAT(checkpoint_error([&] { load_checkpoint(dir + "/x.ckpt"); }),
             Catch::Contains("observation_shape has more than 2147483647 elements"));
}

TEST_CASE("NetSpec::parameter_count is the built network's parameter count", "[checkpoint]") {
  for (const char* kind : {"mlp", "conv"}) {
    for (int blocks : {0, 2}) {
      CheckpointMeta meta = small_meta();
      meta.net.kind = kind;
      meta.net.blocks = blocks;
      PolicyValueNet net(meta.net_spec());
      int64_t count = 0;
      for (const auto& p : net->parameters()) count += p.numel();
      CHECK(meta.net_spec().parameter_count() == count);
    }
  }
  NetSpec huge = small_meta().net_spec();
  huge.observation_shape = {1 << 30, 1 << 30, 1 << 30};
  CHECK(huge.parameter_count() == int64_t{1} << 62);  // saturates
}

TEST_CASE("multiply_adds counts every weight once per use in a forward pass", "[checkpoint]") {
  // mlp: 5 inputs, 4 hidden, 1 block, 3 actions, 2 seats:
  // stem 5*4, block 2*4*4, policy 4*3, value hidden 4*4, value head 4*2.
  NetSpec mlp{NetConfig{"mlp", 4, 1, 8}, {5}, 3, 2};
  CHECK(PolicyValueNet(mlp)->multiply_adds() == 20 + 32 + 12 + 16 + 8);
  CHECK(PolicyValueNet(mlp)->first_layer_multiply_adds() == 20);
  // conv: 2 x 3 x 3 planes, 4 channels: each 3x3 kernel's weights once per cell (9 cells),
  // stem conv 2*4*9, two block convs 4*4*9, then Linear(4*9 -> 4) and the heads.
  NetSpec conv{NetConfig{"conv", 4, 1, 4}, {2, 3, 3}, 3, 2};
  CHECK(PolicyValueNet(conv)->multiply_adds() == 72 * 9 + 2 * 144 * 9 + 36 * 4 + 12 + 16 + 8);
  CHECK(PolicyValueNet(conv)->first_layer_multiply_adds() == 72 * 9);
}
