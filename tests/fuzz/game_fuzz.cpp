// The libFuzzer targets of the games, through the type-erased AnyGame API. Compiled
// once; each target links it with game_fuzz_target.cpp, which names its game and kind
// (GameTarget, tests/fuzz/game_fuzz.h) and defines libFuzzer's entry points:
//
//   <game>_position (GameTarget::actions false): the input is a JSON position
//     for state_from_json. A document it refuses must be refused with a
//     rocketgym::Error; a position it accepts must play to the end with random
//     legal actions (seeded by the input's hash) within the game's
//     max_decisions, passing check_position() after every action. Half its
//     mutations edit the input as a JSON document (LLVMFuzzerCustomMutator below).
//   <game>_actions (GameTarget::actions true): byte 0 picks the player count,
//     byte 1 the config variant, bytes 2-9 the deal's seed; every further byte
//     picks one of the legal actions (byte % number of legal actions) until
//     the input or the game ends. check_position() after every action.
//   <game>_actions_fast (also GameTarget::check_every_action false): the same game,
//     checked only at its last position (run_actions below).
//
// With ROCKETGYM_FUZZ_WRITE_SEEDS=<folder> either binary writes its seed
// corpus there and exits: to_json() of random positions, and of the positions
// that show a word no earlier seed shows, for <game>_position (seed_positions),
// short action strings and whole games for <game>_actions. With
// ROCKETGYM_FUZZ_WRITE_DICT=<file> <game>_position writes its dictionary:
// the keys and words of those positions' documents.
#include "tests/fuzz/game_fuzz.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "envs/core/game.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/json_mutator.h"

namespace rocketgym::fuzz {
namespace {

// Config overrides each target plays under besides the shipped config: the
// rulebook's optional rules and reward kinds, so that variant-only code is reached.
std::vector<std::string> variant_overrides(const std::string& id) {
  if (id == "launch_pad")
    return {"", "variants: {short_game: true}", "variants: {long_game: true}",
            "variants: {super_powers: true, negotiations: true}", "reward: win"};
  if (id == "last_blast") return {"", "variants: {exploded_block_row: true}", "reward: score"};
  if (id == "launchpad23") return {"", "max_turns: 3", "reward: win"};
  if (id == "rocket_squad")
    return {"", "variants: {first_turn_redraw: false, joker_stops_launch: false}",
            "variants: {crew_bonus: 0, jack_min_hand: 1}", "reward: score"};
  return {"", "reward: score"};
}

// require() for the position at hand, printed only on failure (to_json() is costly).
void expect(bool ok, const char* what, const AnyState& s) {
  if (!ok) fail(what, s.to_json());
}

struct Games {
  std::vector<std::shared_ptr<AnyGame>> variants;  // one per variant_overrides() entry
  GameInfo info;
};

const Games& games() {
  static const Games g = [] {
    Games out;
    for (const std::string& overrides : variant_overrides(kGameTarget.game))
      out.variants.push_back(load_game(kGameTarget.game, "", overrides));
    out.info = out.variants.front()->info();
    return out;
  }();
  return g;
}

// Everything checked after each action. `deep` adds the costlier checks
// (done every few actions): an illegal action is refused and changes
// nothing, clone and JSON round trip are exact, every seat's encoding is
// finite, the heuristic picks a legal action, a redeterminized copy is valid.
class Checker {
 public:
  Checker(const AnyGame& game, uint64_t seed) : game_(game), rng_(seed) {}

  void check(const AnyState& s, bool deep) {
    read_legal(s);
    try {
      s.check_invariants();
    } catch (const InvariantViolation& e) {
      fail(std::string("invariant violation: ") + e.what(), s.to_json());
    }
    check_mask_agrees(s, deep);
    if (s.is_terminal()) {
      expect(s.current_player() == -1, "terminal with a player to move", s);
      expect(legal_.empty(), "terminal with a legal action", s);
      check_results(s);
    } else {
      expect(s.current_player() >= 0 && s.current_player() < s.num_players(),
             "the player to move is not a seat", s);
      expect(!legal_.empty(), "not terminal, yet no legal action", s);
      expect(!s.is_truncated(), "truncated but not terminal", s);
    }
    if (deep) check_deep(s);
  }

  // is_legal() agrees with the mask on every legal action and, every few
  // actions (`deep`), on every action id; otherwise on one random illegal id.
  // The full sweep costs num_actions legality checks (950 in Launch Pad) and
  // would take most of each input's time if done at every action.
  void check_mask_agrees(const AnyState& s, bool deep) {
    for (Action a : legal_)
      if (!s.is_legal(a))
        fail("the mask allows action " + std::to_string(a) + ", is_legal does not", s.to_json());
    if (legal_.size() == static_cast<std::size_t>(s.num_actions())) return;
    if (!deep) {
      const Action a = random_illegal(s);
      if (s.is_legal(a))
        fail("is_legal allows action " + std::to_string(a) + ", the mask does not", s.to_json());
      return;
    }
    for (int a = 0; a < s.num_actions(); ++a)
      if (!mask_[static_cast<std::size_t>(a)] && s.is_legal(a))
        fail("is_legal allows action " + std::to_string(a) + ", the mask does not", s.to_json());
  }

  // A uniformly random action id outside the mask (there must be one).
  Action random_illegal(const AnyState& s) {
    Action a;
    do {
      a = static_cast<Action>(rng_.below(static_cast<uint32_t>(s.num_actions())));
    } while (mask_[static_cast<std::size_t>(a)]);
    return a;
  }

  // The mask and the legal actions of `s`, and no check: what the fast
  // actions target needs between its checked positions.
  void read_legal(const AnyState& s) {
    mask_.assign(static_cast<std::size_t>(s.num_actions()), 0);
    s.legal_actions_mask(mask_.data());
    legal_.clear();
    for (int a = 0; a < s.num_actions(); ++a)
      if (mask_[static_cast<std::size_t>(a)]) legal_.push_back(a);
  }

  // A uniformly random legal action of the position last checked.
  Action random_legal() { return legal_[rng_.below(static_cast<uint32_t>(legal_.size()))]; }
  const std::vector<Action>& legal() const { return legal_; }

 private:
  void check_results(const AnyState& s) {
    for (float r : s.returns()) expect(std::isfinite(r), "a return is not finite", s);
    s.scores();  // UBSan watches the arithmetic
  }

  void check_deep(const AnyState& s) {
    const std::string json = s.to_json();
    check_illegal_refused(s, json);
    require(s.clone()->to_json() == json, "clone differs from the original", json);
    std::unique_ptr<AnyState> loaded;
    try {
      loaded = game_.state_from_json(json);
    } catch (const Error& e) {
      fail(std::string("to_json() does not load back: ") + e.what(), json);
    }
    require(loaded->to_json() == json, "JSON round trip changes the position", json);
    for (int v = 0; v < s.num_players(); ++v) {
      for (float x : s.encode(v)) require(std::isfinite(x), "encoding is not finite", json);
      s.observation_string(v);
      s.known_card_places(v);
    }
    s.card_places();
    if (s.is_terminal()) return;
    const Action h = s.heuristic_action(rng_.next());
    require(s.is_legal(h), "heuristic_action() picked illegal action " + std::to_string(h), json);
    auto resampled = s.clone();
    const int viewer = static_cast<int>(rng_.below(static_cast<uint32_t>(s.num_players())));
    resampled->redeterminize(viewer, rng_.next());
    try {
      resampled->check_invariants();
    } catch (const InvariantViolation& e) {
      fail(std::string("invariant violation after redeterminize: ") + e.what(), resampled->to_json());
    }
    require(resampled->current_player() == s.current_player(), "redeterminize changed the player to move",
            json);
  }

  // Out-of-range ids and a random illegal id, tried in turn on one copy:
  // each must be refused, and the copy must end unchanged.
  void check_illegal_refused(const AnyState& s, const std::string& json) {
    std::vector<Action> probes = {-1, s.num_actions()};
    if (legal_.size() < static_cast<std::size_t>(s.num_actions())) probes.push_back(random_illegal(s));
    auto copy = s.clone();
    for (Action a : probes) {
      bool refused = false;
      try {
        copy->apply(a);
      } catch (const IllegalAction&) {
        refused = true;
      }
      require(refused, "illegal action " + std::to_string(a) + " was applied", json);
    }
    require(copy->to_json() == json, "a refused action changed the position", json);
  }

  const AnyGame& game_;
  Rng rng_;
  std::vector<uint8_t> mask_;
  std::vector<Action> legal_;
};

constexpr int kDeepEvery = 64;  // actions between deep checks

// The actions target checks every position it reaches (and deeply every
// kDeepEvery actions); its fast variant, <game>_actions_fast, only the last
// one (deeply), so that it plays many more games per second and reaches the
// rules' rare corners sooner. Every action it plays must still apply without
// an exception, within max_decisions. The thorough target stays the one that
// checks each step.

void apply_checked(AnyState& s, Action a) {
  try {
    s.apply(a);
  } catch (const std::exception& e) {
    fail("legal action " + std::to_string(a) + " threw: " + e.what(), s.to_json());
  }
}

// The variant a position is loaded under. From the hash's high bits: its low
// bits cycle through only some residues when spaces are appended (the seed
// writer's padding below).
std::size_t variant_of(uint64_t hash, std::size_t variants) { return (hash >> 32) % variants; }

// The position target: any accepted position plays to the end.
void run_position(const uint8_t* data, std::size_t size) {
  const Games& g = games();
  const uint64_t hash = hash_bytes(data, size);
  const AnyGame& game = *g.variants[variant_of(hash, g.variants.size())];
  std::unique_ptr<AnyState> s;
  try {
    s = game.state_from_json(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const Error&) {
    return;  // refused cleanly
  }
  Checker checker(game, hash);
  for (int step = 0;; ++step) {
    checker.check(*s, step % kDeepEvery == 0 || s->is_terminal());
    if (s->is_terminal()) return;
    expect(step < g.info.max_decisions, "no end after the game's max_decisions actions", *s);
    apply_checked(*s, checker.random_legal());
  }
}

// The actions target: the input's bytes choose the actions.
void run_actions(const uint8_t* data, std::size_t size) {
  const Games& g = games();
  if (size < 2) return;
  const int players = g.info.min_players + data[0] % (g.info.max_players - g.info.min_players + 1);
  const AnyGame& game = *g.variants[data[1] % g.variants.size()];
  uint64_t seed = 0;
  std::size_t pos = 2;
  for (; pos < 10 && pos < size; ++pos) seed = seed << 8 | data[pos];
  std::unique_ptr<AnyState> s = game.new_state(players, seed);
  Checker checker(game, seed);
  // No deep check of the fresh deal: the position target's seeds cover it,
  // and it would double the cost of the short inputs the fuzzer favours.
  checker.check(*s, false);
  for (int step = 1; pos < size && !s->is_terminal(); ++pos, ++step) {
    expect(step <= g.info.max_decisions, "more than max_decisions actions", *s);
    const std::vector<Action>& legal = checker.legal();
    expect(!legal.empty(), "not terminal, yet no legal action", *s);
    apply_checked(*s, legal[data[pos] % legal.size()]);
    const bool last = pos + 1 == size || s->is_terminal();
    if (kGameTarget.check_every_action)
      checker.check(*s, step % kDeepEvery == 0 || last);
    else if (last)
      checker.check(*s, true);
    else
      checker.read_legal(*s);
  }
}

// A position's document, padded with trailing spaces until the input's hash
// picks variant v (run_position picks the variant by that hash).
std::string document_for_variant(const AnyState& s, std::size_t v, std::size_t variants) {
  std::string doc = s.to_json();
  while (variant_of(hash_bytes(reinterpret_cast<const uint8_t*>(doc.data()), doc.size()), variants) != v)
    doc += ' ';
  return doc;
}

// Adds the quoted strings of a to_json() document (its keys and string values:
// no name or card in a document holds a quote) to `words`; true when one was
// new. The seeds are chosen by these words and the dictionary holds them. A
// scan rather than a parse: it runs at every step of the seed games.
bool add_quoted_words(const std::string& doc, std::set<std::string>& words) {
  bool added = false;
  for (std::size_t open = doc.find('"'); open != std::string::npos; open = doc.find('"', open)) {
    const std::size_t close = doc.find('"', open + 1);
    if (close == std::string::npos) break;
    added |= words.insert(doc.substr(open, close - open + 1)).second;
    open = close + 1;
  }
  return added;
}

// Seeds for the position target, from every variant and player count: to_json()
// of random positions (named v<variant>-p<players>-<k>), and, along one whole
// random game, each position whose document shows a key or word no earlier
// seed shows (named v<variant>-p<players>-w<i>). The second kind brings in the
// phases the snapshots rarely land in (Rocket Squad's Ace passing round, an
// active Ace's fields), and so their words into the dictionary: without them
// the fuzzer had to spell such keys byte by byte, and reached the reader's
// checks behind them late.
std::vector<std::pair<std::string, std::string>> seed_positions() {
  const Games& g = games();
  const std::size_t variants = g.variants.size();
  Rng rng(12345);
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  const auto play_random = [&](AnyState& s) {
    const std::vector<Action> legal = s.legal_actions();
    s.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  };
  const auto seed_name = [](std::size_t v, int players, const std::string& which) {
    return "v" + std::to_string(v) + "-p" + std::to_string(players) + "-" + which;
  };
  for (std::size_t v = 0; v < variants; ++v) {
    for (int players = g.info.min_players; players <= g.info.max_players; ++players) {
      for (int k = 0; k < 4; ++k) {
        auto s = g.variants[v]->new_state(players, rng.next());
        const uint32_t steps = rng.below(k == 3 ? 100000 : 300);
        for (uint32_t i = 0; i < steps && !s->is_terminal(); ++i) play_random(*s);
        out.emplace_back(seed_name(v, players, std::to_string(k)), document_for_variant(*s, v, variants));
        add_quoted_words(out.back().second, seen);
      }
    }
  }
  for (std::size_t v = 0; v < variants; ++v) {
    for (int players = g.info.min_players; players <= g.info.max_players; ++players) {
      int found = 0;
      for (auto s = g.variants[v]->new_state(players, rng.next()); !s->is_terminal(); play_random(*s))
        if (add_quoted_words(s->to_json(), seen))
          out.emplace_back(seed_name(v, players, "w" + std::to_string(found++)),
                           document_for_variant(*s, v, variants));
    }
  }
  return out;
}

void write_position_seeds(const std::string& folder) {
  for (const auto& [name, doc] : seed_positions()) write_seed(folder, name, doc);
}

// The position target's dictionary: the keys and words of its seeds' documents, and JSON's.
void write_position_dict(const std::string& file) {
  std::set<std::string> words = json_syntax_words();
  for (const auto& [name, doc] : seed_positions()) add_quoted_words(doc, words);
  write_dict(file, words);
}

// An actions input's header, as run_actions reads it: the player count, the
// variant and eight random bytes of deal seed (returned in `seed`).
std::string action_header(const Games& g, std::size_t v, int players, Rng& rng, uint64_t& seed) {
  std::string bytes;
  bytes += static_cast<char>(players - g.info.min_players);
  bytes += static_cast<char>(v);
  seed = 0;
  for (int i = 0; i < 8; ++i) {
    const auto b = static_cast<uint8_t>(rng.below(256));
    bytes += static_cast<char>(b);
    seed = seed << 8 | b;
  }
  return bytes;
}

// A whole game's input: the header, then random action bytes until the game
// ends (or max_decisions).
std::string whole_game_input(const Games& g, std::size_t v, int players, Rng& rng) {
  uint64_t seed = 0;
  std::string bytes = action_header(g, v, players, rng, seed);
  auto s = g.variants[v]->new_state(players, seed);
  for (int step = 0; step < g.info.max_decisions && !s->is_terminal(); ++step) {
    const auto b = static_cast<uint8_t>(rng.below(256));
    bytes += static_cast<char>(b);
    const std::vector<Action> legal = s->legal_actions();
    s->apply(legal[b % legal.size()]);
  }
  return bytes;
}

// Over every variant and player count: a short random action string and two
// whole games. The short strings end before the game does in Launch Pad and
// Launchpad 23, and libFuzzer lengthens its inputs only a few bytes at a time
// (-len_control): the whole games reach the late game and the scoring from
// the first input on (launch_pad_actions_fast's seeds: cov 2786, not 2648).
void write_action_seeds(const std::string& folder) {
  const Games& g = games();
  Rng rng(12345);
  for (std::size_t v = 0; v < g.variants.size(); ++v) {
    for (int players = g.info.min_players; players <= g.info.max_players; ++players) {
      const std::string name = "v" + std::to_string(v) + "-p" + std::to_string(players);
      uint64_t seed = 0;
      std::string bytes = action_header(g, v, players, rng, seed);
      for (int i = 0; i < 200; ++i) bytes += static_cast<char>(rng.below(256));
      write_seed(folder, name, bytes);
      for (int k = 0; k < 2; ++k)
        write_seed(folder, name + "-game" + std::to_string(k), whole_game_input(g, v, players, rng));
    }
  }
}

}  // namespace

int initialize() {
  games();  // load the configs once, outside the measured runs
  const std::string dict = dict_file();
  if (!dict.empty()) {
    // An actions input is bytes, not words: no dictionary.
    if (!kGameTarget.actions) write_position_dict(dict);
    std::exit(0);
  }
  const std::string folder = seed_folder();
  if (!folder.empty()) {
    if (kGameTarget.actions)
      write_action_seeds(folder);
    else
      write_position_seeds(folder);
    std::exit(0);
  }
  return 0;
}

int test_one_input(const uint8_t* data, std::size_t size) {
  try {
    if (kGameTarget.actions)
      run_actions(data, size);
    else
      run_position(data, size);
  } catch (const std::exception& e) {
    fail(std::string("unexpected exception: ") + e.what());
  }
  return 0;
}

std::size_t mutate_position(uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed) {
  const std::string out = mutate_json(std::string(reinterpret_cast<const char*>(data), size), seed);
  if (out.empty() || out.size() > max_size) return 0;
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

}  // namespace rocketgym::fuzz
