// libFuzzer target `checkpoint`: the checkpoint reader (models/checkpoint.h)
// on arbitrary bytes. A file that does not load must be refused with a
// rocketgym::Error (CheckpointError); never a crash, a sanitizer report, an
// exception of another type or an unbounded allocation.
//
// Input byte 0 picks how the rest becomes a file:
//   even: the bytes are the file, as found on a disk;
//   odd:  bytes 1-2 and 3-4 (little endian) are the sizes of the metadata and
//         model sections, the remaining bytes are metadata, model, optimizer;
//         the harness writes the magic and a header with the right sizes and
//         checksum, so the fuzzer reaches the metadata and LibTorch archive
//         parsing behind the checksum.
// A checkpoint that loads is then used: its optimizer state is loaded and the
// network evaluates one observation.
//
// With ROCKETGYM_FUZZ_WRITE_SEEDS=<folder> the binary writes a small real
// checkpoint there in both forms and exits.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

#include "models/checkpoint.h"
#include "tests/fuzz/fuzz_support.h"

namespace rocketgym::fuzz {
namespace {

const std::string& scratch_path() {
  static const std::string path = "/tmp/rocketgym_fuzz_checkpoint_" + std::to_string(::getpid());
  return path;
}

uint64_t fnv1a(uint64_t hash, const std::string& bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

// The checkpoint file (models/checkpoint.h's layout) holding these sections.
std::string checkpoint_file(const std::string& meta, const std::string& model, const std::string& optim) {
  const uint64_t header[4] = {meta.size(), model.size(), optim.size(),
                              fnv1a(fnv1a(fnv1a(0xCBF29CE484222325ULL, meta), model), optim)};
  std::string out = "RGCKPT01";
  out.append(reinterpret_cast<const char*>(header), sizeof(header));
  return out + meta + model + optim;
}

std::string file_from_input(const uint8_t* data, std::size_t size) {
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0 || rest.size() < 4) return rest;
  const std::size_t meta_size = std::min<std::size_t>(rest.size() - 4, data[1] | data[2] << 8);
  const std::size_t model_size = std::min<std::size_t>(rest.size() - 4 - meta_size, data[3] | data[4] << 8);
  return checkpoint_file(rest.substr(4, meta_size), rest.substr(4 + meta_size, model_size),
                         rest.substr(4 + meta_size + model_size));
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) fail("cannot write " + path);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void run(const uint8_t* data, std::size_t size) {
  if (size < 1) return;
  write_file(scratch_path(), file_from_input(data, size));
  LoadedCheckpoint loaded;
  try {
    loaded = load_checkpoint(scratch_path());
  } catch (const Error&) {
    return;  // refused cleanly
  }
  torch::optim::Adam optimizer(loaded.net->parameters());
  try {
    load_optimizer_state(loaded, optimizer);
  } catch (const Error&) {
  }
  torch::NoGradGuard no_grad;
  loaded.net->forward(torch::zeros({1, loaded.meta.net_spec().observation_size()}));
}

// A small real checkpoint, with and without an optimizer, in both input forms.
void write_seeds(const std::string& folder) {
  CheckpointMeta meta;
  meta.game = "launchpad23";
  meta.num_players = 2;
  meta.observation_shape = {2, 3};
  meta.num_actions = 5;
  meta.net.kind = "mlp";
  meta.net.hidden = 4;
  meta.net.blocks = 1;
  PolicyValueNet net(meta.net_spec());
  torch::optim::Adam optimizer(net->parameters());
  for (int with_optimizer = 0; with_optimizer < 2; ++with_optimizer) {
    save_checkpoint(scratch_path(), meta, net, with_optimizer ? &optimizer : nullptr);
    const std::string file = read_file(scratch_path());
    const std::string name = with_optimizer ? "with-optimizer" : "policy-only";
    write_seed(folder, "raw-" + name, std::string(1, '\0') + file);
    // The structured form: sizes from the real header, sections after it.
    uint64_t header[4];
    std::memcpy(header, file.data() + 8, sizeof(header));
    std::string structured(1, '\1');
    for (int i = 0; i < 2; ++i) {
      structured += static_cast<char>(header[i] & 0xff);
      structured += static_cast<char>(header[i] >> 8 & 0xff);
    }
    write_seed(folder, "sections-" + name, structured + file.substr(8 + sizeof(header)));
  }
  ::unlink(scratch_path().c_str());
}

}  // namespace
}  // namespace rocketgym::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace rocketgym::fuzz;
  torch::set_num_threads(1);
  std::atexit([] { ::unlink(scratch_path().c_str()); });
  const std::string folder = seed_folder();
  if (!folder.empty()) {
    write_seeds(folder);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace rocketgym::fuzz;
  try {
    run(data, size);
  } catch (const std::exception& e) {
    fail(std::string("an exception that is not a rocketgym::Error escaped: ") + e.what());
  }
  return 0;
}
