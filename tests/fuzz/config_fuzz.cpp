// libFuzzer target `config`: the YAML config loader on arbitrary bytes.
// Byte 0 picks a game and one of three ways to read the rest:
//   0. as a whole config file (ConfigNode::parse, then the game's load_config);
//   1. as overrides merged onto the game's shipped config (as `load_game`
//      does with --config/overrides);
//   2. line by line as `--set key=value` settings (ConfigNode::from_settings),
//      merged onto the shipped config.
// One load per input (not every game every way) keeps the target fast enough
// to run millions of inputs.
// Only rocketgym::Error (ConfigError and the rest) may escape; anything else
// (a yaml-cpp exception, std::out_of_range, a crash, a sanitizer report) is a
// finding. The games' loaders must also bound what they build: a config that
// loads is used to deal one game and to encode it.
//
// The training configs (training/ppo, training/alphazero) are not fuzzed
// here: their parsers include LibTorch headers.
//
// With ROCKETGYM_FUZZ_WRITE_SEEDS=<folder> the binary writes the shipped game
// configs (each read all three ways) and a few settings lines there and exits;
// with ROCKETGYM_FUZZ_WRITE_DICT=<file>, its dictionary: every key the games'
// loaders read (game_config_keys) and the words of the values they accept.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "envs/core/describe_config.h"
#include "envs/core/game.h"
#include "tests/fuzz/fuzz_support.h"

namespace rocketgym::fuzz {
namespace {

struct Shipped {
  std::vector<std::string> ids;
  std::vector<std::string> configs;  // the built-in copy of configs/games/<id>.yaml
};

const Shipped& shipped() {
  static const Shipped s = [] {
    Shipped out;
    out.ids = Registry::instance().ids();
    for (const std::string& id : out.ids) out.configs.push_back(builtin_game_config(id));
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

enum Way { kWholeFile = 0, kOverrides = 1, kSettings = 2 };

void run(uint8_t selector, const std::string& text) {
  const Shipped& s = shipped();
  const std::size_t g = selector % s.ids.size();
  const int way = static_cast<int>(selector / s.ids.size()) % 3;
  ConfigNode input;
  try {
    input = way == kSettings ? ConfigNode::from_settings(lines_of(text)) : ConfigNode::parse(text, "<fuzz>");
  } catch (const Error&) {
    return;
  }
  if (way == kWholeFile) return load_and_use(s.ids[g], input);
  // The shipped config is parsed afresh for each input, as load_game does. A
  // parsed copy kept across inputs would grow: merged() shares the base's
  // nodes with the result, and yaml-cpp then pools the node memory of both,
  // so the base kept every input's nodes (the target slowed from 512 to 199
  // inputs a second and grew from 90 to 250 MB within 14,000 inputs).
  const ConfigNode base = ConfigNode::parse(s.configs[g], "<built-in " + s.ids[g] + ".yaml>");
  ConfigNode merged;
  try {
    merged = input.is_null() ? base : base.merged(input);
  } catch (const Error&) {
    return;
  }
  load_and_use(s.ids[g], merged);
}

// An input: the selector byte of `game` read `way`, then the text.
std::string seed_input(std::size_t game, int way, const std::string& text) {
  const std::size_t games = shipped().ids.size();
  return std::string(1, static_cast<char>(game + games * static_cast<std::size_t>(way))) + text;
}

void write_seeds(const std::string& folder) {
  const Shipped& s = shipped();
  for (std::size_t g = 0; g < s.ids.size(); ++g) {
    for (int way : {kWholeFile, kOverrides})
      write_seed(folder, s.ids[g] + "-" + std::to_string(way) + ".yaml",
                 seed_input(g, way, builtin_game_config(s.ids[g])));
    write_seed(folder, s.ids[g] + "-settings-1",
               seed_input(g, kSettings, "reward=win\nvariants.short_game=true"));
    write_seed(folder, s.ids[g] + "-settings-2", seed_input(g, kSettings, "max_turns=5\nhand_size=3"));
    write_seed(folder, s.ids[g] + "-settings-3", seed_input(g, kSettings, "characters.dad=\nreward="));
    write_seed(folder, s.ids[g] + "-overrides",
               seed_input(g, kOverrides, "variants: {first_turn_redraw: false}\nreward: score\n"));
  }
}

// The words of `text` (letters, digits, '_' and '+'; "capacity+1"), two characters or more.
void add_words(const std::string& text, std::set<std::string>& words) {
  std::string word;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '+') {
      word += c;
    } else {
      if (word.size() >= 2) words.insert(word);
      word.clear();
    }
  }
}

// Each game's config keys as its loader declares them (a path such as
// "missions.level1[].vp" gives "missions", "level1" and "vp"), the words of
// what each accepts and of its shipped value, and YAML's and --set's syntax.
void write_dict_file(const std::string& file) {
  std::set<std::string> words = {": ",   "- ",   "{",    "}",    "[",         "]",      ", ",   "\n",
                                 "\n  ", "\n- ", "=",    ".",    "~",         "null",   "true", "false",
                                 "yes",  "no",   "&a ",  "*a",   "!!str ",    "!!int ", "<<: ", "|\n",
                                 ">\n",  "'",    "\"",   "#",    "---\n",     "...\n",  "-1",   "0x10",
                                 "1e9",  "2.5",  ".inf", ".nan", "4294967296"};
  for (const std::string& id : shipped().ids) {
    for (const ConfigKey& key : game_config_keys(id)) {
      add_words(key.path, words);
      add_words(key.accepts, words);
      add_words(key.value, words);
    }
  }
  write_dict(file, words);
}

}  // namespace
}  // namespace rocketgym::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace rocketgym::fuzz;
  shipped();
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
    if (size == 0) return 0;
    run(data[0], std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  } catch (const std::exception& e) {
    fail(std::string("an exception that is not a rocketgym::Error escaped: ") + e.what());
  }
  return 0;
}
