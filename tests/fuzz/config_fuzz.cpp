// libFuzzer target `config`: the YAML config loader on arbitrary bytes.
// The input is read three ways, and each game's config is loaded from it:
//   1. as a whole config file (ConfigNode::parse, then the game's load_config);
//   2. as overrides merged onto the game's shipped config (as `load_game`
//      does with --config/overrides);
//   3. line by line as `--set key=value` settings (ConfigNode::from_settings),
//      merged onto the shipped config.
// Only rocketgym::Error (ConfigError and the rest) may escape; anything else
// (a yaml-cpp exception, std::out_of_range, a crash, a sanitizer report) is a
// finding. The games' loaders must also bound what they build: a config that
// loads is used to deal one game and to encode it.
//
// The training configs (training/ppo, training/alphazero) are not fuzzed
// here: their parsers include LibTorch headers.
//
// With ROCKETGYM_FUZZ_WRITE_SEEDS=<folder> the binary writes the shipped game
// configs and a few settings lines there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "tests/fuzz/fuzz_support.h"

namespace rocketgym::fuzz {
namespace {

struct Shipped {
  std::vector<std::string> ids;
  std::vector<ConfigNode> configs;  // the built-in copy of configs/games/<id>.yaml
};

const Shipped& shipped() {
  static const Shipped s = [] {
    Shipped out;
    out.ids = Registry::instance().ids();
    for (const std::string& id : out.ids)
      out.configs.push_back(ConfigNode::parse(builtin_game_config(id), "<built-in " + id + ".yaml>"));
    return out;
  }();
  return s;
}

// A config that loads must give a playable game: deal one and encode it.
void load_and_use(const std::string& id, const ConfigNode& config) {
  std::shared_ptr<AnyGame> game;
  try {
    game = Registry::instance().find(id).load(config);
  } catch (const Error&) {
    return;  // refused cleanly
  }
  const GameInfo& info = game->info();
  auto state = game->new_state(info.min_players, 1);
  state->check_invariants();
  state->encode(0);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size() && out.size() < 64) {
    const std::size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

void run(const std::string& text) {
  const Shipped& s = shipped();
  ConfigNode doc;
  bool parsed = true;
  try {
    doc = ConfigNode::parse(text, "<fuzz>");
  } catch (const Error&) {
    parsed = false;
  }
  for (std::size_t g = 0; g < s.ids.size(); ++g) {
    if (!parsed) break;
    load_and_use(s.ids[g], doc);
    try {
      ConfigNode merged = doc.is_null() ? s.configs[g] : s.configs[g].merged(doc);
      load_and_use(s.ids[g], merged);
    } catch (const Error&) {
    }
  }
  ConfigNode settings;
  try {
    settings = ConfigNode::from_settings(lines_of(text));
  } catch (const Error&) {
    return;
  }
  for (std::size_t g = 0; g < s.ids.size(); ++g) {
    try {
      load_and_use(s.ids[g], s.configs[g].merged(settings));
    } catch (const Error&) {
    }
  }
}

void write_seeds(const std::string& folder) {
  const Shipped& s = shipped();
  for (const std::string& id : s.ids) write_seed(folder, id + ".yaml", builtin_game_config(id));
  write_seed(folder, "settings-1", "reward=win\nvariants.short_game=true");
  write_seed(folder, "settings-2", "max_turns=5\nhand_size=3");
  write_seed(folder, "settings-3", "characters.dad=\nreward=");
  write_seed(folder, "overrides", "variants: {first_turn_redraw: false}\nreward: score\n");
}

}  // namespace
}  // namespace rocketgym::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace rocketgym::fuzz;
  shipped();
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
    run(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const std::exception& e) {
    fail(std::string("an exception that is not a rocketgym::Error escaped: ") + e.what());
  }
  return 0;
}
