// libFuzzer target `checkpoint`: the checkpoint reader (models/checkpoint.h)
// on arbitrary bytes, in memory (load_checkpoint_from_bytes: no file per
// input). A checkpoint that does not load must be refused with a
// rocketgym::Error (CheckpointError); never a crash, a sanitizer report, an
// exception of another type or an unbounded allocation. The reader never
// hands bytes to LibTorch's archive (TorchScript) parser: format version 1
// files, which held such archives, are refused by their magic.
//
// Input byte 0 picks how the rest becomes a file, and which optimizer takes
// the state of a checkpoint that loads:
//   bit 0 clear: the bytes are the file, as found on a disk;
//   bit 0 set:   bytes 1-2 and 3-4 (little endian) are the sizes of the
//                metadata and model sections, the remaining bytes are
//                metadata, model, optimizer; the harness writes the version 2
//                magic and a header with the right sizes and checksum, so the
//                fuzzer reaches the metadata, tensor list and optimizer parsers
//                behind the checksum;
//   bit 1:       clear = torch::optim::Adam, set = AdamW;
//   bit 2:       the optimizer's amsgrad option.
// A checkpoint that loads is then used: its optimizer state is loaded and the
// network evaluates one observation.
//
// With ROCKETGYM_FUZZ_WRITE_SEEDS=<folder> the binary writes small real
// checkpoints there (float32 and float16 weights, no optimizer, Adam and AdamW
// state, amsgrad) in both forms and exits; with ROCKETGYM_FUZZ_WRITE_DICT=<file>,
// its dictionary: the magic, the metadata's keys and words, the tensors' names.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "models/checkpoint.h"
#include "tests/fuzz/fuzz_support.h"

namespace rocketgym::fuzz {
namespace {

uint64_t fnv1a(uint64_t hash, const std::string& bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

// The checkpoint file (models/checkpoint.h's layout, version 2) holding these sections.
std::string checkpoint_file(const std::string& meta, const std::string& model, const std::string& optim) {
  const uint64_t header[4] = {meta.size(), model.size(), optim.size(),
                              fnv1a(fnv1a(fnv1a(0xCBF29CE484222325ULL, meta), model), optim)};
  std::string out = "RGCKPT02";
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

void load_state(const LoadedCheckpoint& loaded, torch::optim::Optimizer& optimizer) {
  try {
    load_optimizer_state(loaded, optimizer);
  } catch (const Error&) {
    // Refused cleanly; the optimizer must be as it was: fresh.
    require(optimizer.state().empty(), "a refused optimizer state changed the optimizer");
  }
}

void run(const uint8_t* data, std::size_t size) {
  if (size < 1) return;
  LoadedCheckpoint loaded;
  try {
    loaded = load_checkpoint_from_bytes(file_from_input(data, size), "fuzz input");
  } catch (const Error&) {
    return;  // refused cleanly
  }
  const bool amsgrad = data[0] & 4;
  if (data[0] & 2) {
    torch::optim::AdamW optimizer(loaded.net->parameters(), torch::optim::AdamWOptions().amsgrad(amsgrad));
    load_state(loaded, optimizer);
  } else {
    torch::optim::Adam optimizer(loaded.net->parameters(), torch::optim::AdamOptions().amsgrad(amsgrad));
    load_state(loaded, optimizer);
  }
  torch::NoGradGuard no_grad;
  loaded.net->forward(torch::zeros({1, loaded.meta.net_spec().observation_size()}));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// One real checkpoint in both input forms: raw, and sections behind a
// harness-written header (byte 0 also picks the optimizer: bits 1 and 2).
void write_seed_pair(const std::string& folder, const std::string& name, const std::string& file, char kind) {
  write_seed(folder, "raw-" + name, std::string(1, kind) + file);
  uint64_t header[4];
  std::memcpy(header, file.data() + 8, sizeof(header));
  std::string structured(1, static_cast<char>(kind | 1));
  for (int i = 0; i < 2; ++i) {
    structured += static_cast<char>(header[i] & 0xff);
    structured += static_cast<char>(header[i] >> 8 & 0xff);
  }
  write_seed(folder, "sections-" + name, structured + file.substr(8 + sizeof(header)));
}

// Small real checkpoints: float32 and float16 weights, no optimizer, Adam and
// AdamW state (with amsgrad, and with parameters that have no state yet).
void write_seeds(const std::string& folder) {
  const std::string scratch = folder + "/.scratch.ckpt";
  CheckpointMeta meta;
  meta.game = "launchpad23";
  meta.num_players = 2;
  meta.observation_shape = {2, 3};
  meta.num_actions = 5;
  meta.net.kind = "mlp";
  meta.net.hidden = 4;
  meta.net.blocks = 1;
  PolicyValueNet net(meta.net_spec());
  auto save = [&](const std::string& name, bool half, torch::optim::Optimizer* optimizer, char kind) {
    CheckpointMeta m = meta;
    m.half_precision = half;
    save_checkpoint(scratch, m, net, optimizer);
    write_seed_pair(folder, name, read_file(scratch), kind);
  };
  save("policy-only", false, nullptr, 0);
  save("float16", true, nullptr, 0);
  // A step on the policy head only: the value layers have no state yet.
  auto train = [&](torch::optim::Optimizer& optimizer) {
    optimizer.zero_grad();
    net->forward(torch::ones({2, 6})).logits.sum().backward();
    optimizer.step();
  };
  torch::optim::Adam adam(net->parameters());
  train(adam);
  save("adam", false, &adam, 0);
  torch::optim::AdamW adamw(net->parameters(), torch::optim::AdamWOptions().amsgrad(true));
  train(adamw);
  save("adamw-amsgrad", false, &adamw, 2 | 4);
  ::unlink(scratch.c_str());
}

// The magic bytes, the keys and words of a metadata document with every
// optional field, the names of the network's tensors, and JSON's syntax.
void write_dict_file(const std::string& file) {
  std::set<std::string> words = json_syntax_words();
  words.insert("RGCKPT02");
  CheckpointMeta meta;
  meta.game = "launchpad23";
  meta.num_players = 2;
  meta.players = {1, 2};
  meta.observation_shape = {2, 3};
  meta.layout = {{"board", 6}};
  meta.num_actions = 5;
  meta.net.kind = "mlp";
  collect_json_words(meta.to_json(), words);
  meta.half_precision = true;
  collect_json_words(meta.to_json(), words);
  for (const auto& item : PolicyValueNet(meta.net_spec())->named_parameters()) words.insert(item.key());
  write_dict(file, words);
}

}  // namespace
}  // namespace rocketgym::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace rocketgym::fuzz;
  torch::set_num_threads(1);
  const std::string dict = dict_file();
  if (!dict.empty()) {
    write_dict_file(dict);
    std::exit(0);
  }
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
