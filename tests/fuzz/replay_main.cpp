// A plain driver for the fuzz targets of tests/fuzz (no libFuzzer): runs
// LLVMFuzzerTestOneInput once on every file named on the command line, or
// found in a folder named there (sorted by name, so a replay is repeatable).
// Built with gcc's --coverage by scripts/coverage.sh (CMake option
// ROCKETGYM_FUZZ_REPLAY), it measures what a grown corpus reaches: see
// docs/coverage.md, "What the fuzzers reach".
//
//   replay_<target> FILE|FOLDER...
//
// A finding aborts as under libFuzzer (tests/fuzz/fuzz_support.h); the input
// being run is named on stderr first, so the crash can be traced.
// ROCKETGYM_FUZZ_WRITE_SEEDS=<folder> writes the target's seed corpus, as
// the libFuzzer binary does (LLVMFuzzerInitialize).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

// The files to run: each argument that is a file, and the regular files
// directly inside each argument that is a folder (as libFuzzer reads a corpus).
std::vector<fs::path> inputs_of(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const fs::path arg = argv[i];
    if (!fs::exists(arg)) {
      std::fprintf(stderr, "no such file or folder: %s\n", arg.c_str());
      std::exit(2);
    }
    if (!fs::is_directory(arg)) {
      inputs.push_back(arg);
      continue;
    }
    std::vector<fs::path> folder;
    for (const fs::directory_entry& e : fs::directory_iterator(arg))
      if (e.is_regular_file()) folder.push_back(e.path());
    std::sort(folder.begin(), folder.end());
    inputs.insert(inputs.end(), folder.begin(), folder.end());
  }
  return inputs;
}

bool read_file(const fs::path& path, std::vector<uint8_t>& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE|FOLDER...\n", argv[0]);
    return 2;
  }
  std::vector<uint8_t> bytes;
  std::size_t ran = 0, vanished = 0;
  for (const fs::path& input : inputs_of(argc, argv)) {
    // A corpus a running fuzzer is growing loses inputs as it reduces them:
    // one gone since its folder was listed is skipped, not an error (a file
    // named on the command line was checked above).
    if (!fs::exists(input)) {
      ++vanished;
      continue;
    }
    if (!read_file(input, bytes)) {
      std::fprintf(stderr, "cannot read %s\n", input.c_str());
      return 2;
    }
    std::fprintf(stderr, "replay: %s\n", input.c_str());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    ++ran;
  }
  std::printf("replayed %zu inputs (%zu gone before their turn)\n", ran, vanished);
  return 0;
}
