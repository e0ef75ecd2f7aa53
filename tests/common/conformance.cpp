#include "tests/common/conformance.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <regex>
#include <set>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/rng.h"

namespace rocketgym::testing {
namespace {

Action random_legal(const AnyState& s, Rng& rng) {
  const auto legal = s.legal_actions();
  REQUIRE(!legal.empty());
  return legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

// Every masked action applies; unmasked and out-of-range ones throw
// IllegalAction and change nothing.
void check_actions(const AnyState& s, Rng& rng) {
  std::vector<uint8_t> mask(static_cast<std::size_t>(s.num_actions()));
  s.legal_actions_mask(mask.data());
  const std::string before = s.to_json();
  std::vector<Action> illegal;
  for (Action a = 0; a < s.num_actions(); ++a) {
    if (!mask[static_cast<std::size_t>(a)]) {
      illegal.push_back(a);
      continue;
    }
    // Plain checks with a FAIL on violation: a REQUIRE per action is too slow here.
    if (!s.is_legal(a)) FAIL("masked action " << a << " (" << s.action_to_string(a) << ") is not is_legal");
    auto copy = s.clone();
    try {
      copy->apply(a);
      copy->check_invariants();
    } catch (const std::exception& e) {
      FAIL("legal action " << a << " (" << s.action_to_string(a) << ") failed: " << e.what());
    }
  }
  rng.shuffle(illegal.begin(), illegal.end());
  if (illegal.size() > 8) illegal.resize(8);
  illegal.push_back(-1);
  illegal.push_back(s.num_actions());
  auto copy = s.clone();
  for (Action a : illegal) {
    INFO("illegal action " << a);
    REQUIRE_FALSE(s.is_legal(a));
    REQUIRE_THROWS_AS(copy->apply(a), IllegalAction);
  }
  REQUIRE(copy->to_json() == before);
}

void check_round_trips(const AnyGame& game, const AnyState& s, Rng& rng) {
  const std::string doc = s.to_json();
  auto copy = s.clone();
  REQUIRE(copy->to_json() == doc);
  auto loaded = game.state_from_json(doc);
  REQUIRE(loaded->to_json() == doc);
  REQUIRE(loaded->to_string() == s.to_string());
  REQUIRE(loaded->view_json(kFullBoard) == s.view_json(kFullBoard));
  if (!s.is_terminal()) {
    // The document holds the chance state too: both continue identically.
    const Action a = random_legal(s, rng);
    copy->apply(a);
    loaded->apply(a);
    REQUIRE(loaded->to_json() == copy->to_json());
  }
}

std::string describe(const CardPlace& c) {
  return "card " + std::to_string(c.card) + " in place " + std::to_string(c.place);
}

void check_no_leak(const AnyState& s, int viewer, uint64_t seed) {
  auto resampled = s.clone();
  resampled->redeterminize(viewer, seed);
  check_resampled_world(s, *resampled, viewer);
}

// --- the browser's view shows what the observation names ---------------------

// Text an observation_string prints as a label rather than as a thing on the
// table, by game: cut from the text before its names are looked up in the
// view (Launch Pad's "Metal 1/3" counts a rocket's Metal, its title and "Launch
// Pad area" name the game and a place; The Last Blast draws a rocket as
// "front> ... <back").
const std::vector<std::regex>& text_labels(const std::string& game_id) {
  static const std::map<std::string, std::vector<std::regex>> labels = {
      {"launch_pad", {std::regex(R"((Metal|Fuel) \d+/\d+)"), std::regex(R"(Launch Pad(:| area| cards))")}},
      {"last_blast", {std::regex("rocket front>"), std::regex("<back")}},
  };
  static const std::vector<std::regex> none;
  const auto it = labels.find(game_id);
  return it == labels.end() ? none : it->second;
}

void collect_names(const nlohmann::json& j, std::set<std::string>& out) {
  if (j.is_string()) out.insert(j.get<std::string>());
  if (j.is_array() || j.is_object())
    for (const auto& item : j) collect_names(item, out);
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The names of `names` (longest first) that `text` mentions as whole words: a
// name inside a longer one ("red" in "red 2 circles") is the longer one's,
// not a mention of its own.
std::set<std::string> names_mentioned(std::string text, const std::vector<std::string>& names) {
  std::set<std::string> found;
  for (const std::string& name : names) {
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
      const bool starts = at == 0 || !word_char(text[at - 1]);
      const bool ends = at + name.size() == text.size() || !word_char(text[at + name.size()]);
      if (!starts || !ends) continue;
      found.insert(name);
      std::fill(text.begin() + static_cast<std::ptrdiff_t>(at),
                text.begin() + static_cast<std::ptrdiff_t>(at + name.size()), '\n');
    }
  }
  return found;
}

// Every name a seat's observation_string mentions (a card, a zone, a piece:
// any string of the game's full-board view) is in its view_json (issue 53:
// the views left out cards a seat saw go into another hand and The Last
// Blast's reshuffled discards). The other way round, the view shows nothing
// the observation does not: check_resampled_world.
void check_views_show_observations(const std::string& game_id, const AnyState& s,
                                   const std::set<int>& viewers) {
  std::set<std::string> vocabulary;
  collect_names(nlohmann::json::parse(s.view_json(kFullBoard)), vocabulary);
  for (int viewer : viewers) {
    std::set<std::string> shown;
    collect_names(nlohmann::json::parse(s.view_json(viewer)), shown);
    std::vector<std::string> names;
    for (const std::set<std::string>* from : {&vocabulary, &shown})
      for (const std::string& name : *from)
        if (name.size() >= 2 && (from == &vocabulary || !vocabulary.count(name))) names.push_back(name);
    std::stable_sort(names.begin(), names.end(),
                     [](const auto& a, const auto& b) { return a.size() > b.size(); });
    std::string text = s.observation_string(viewer);
    for (const std::regex& label : text_labels(game_id)) text = std::regex_replace(text, label, "\n");
    for (const std::string& name : names_mentioned(text, names))
      if (!shown.count(name))
        FAIL("viewer " << viewer << "'s observation_string names '" << name
                       << "', which its view_json does not show:\n"
                       << s.observation_string(viewer) << "\n"
                       << s.view_json(viewer));
  }
}

void check_terminal(const AnyState& s) {
  REQUIRE(s.current_player() == -1);
  REQUIRE(s.legal_actions().empty());
  const auto r = s.returns();
  double sum = 0.0;
  for (float x : r) {
    REQUIRE(x >= -1.0f - 1e-6f);
    REQUIRE(x <= 1.0f + 1e-6f);
    sum += x;
  }
  REQUIRE(std::fabs(sum) < 1e-4);
  if (s.is_truncated())
    for (float x : r) REQUIRE(x == 0.0f);
}

struct Playout {
  std::vector<Action> actions;
  std::string final_json;
  bool knowledge_seen = false;  // some seat knew where some card was at a checked move
};

// The checks of one decision of a playout (the deep ones every k-th decision).
void check_decision(const AnyGame& game, const AnyState& s, int players, uint64_t seed,
                    const ConformanceOptions& opt, bool deep, Rng& check, Playout& out) {
  REQUIRE(static_cast<int>(out.actions.size()) < game.info().max_decisions);
  const int p = s.current_player();
  REQUIRE(p >= 0);
  REQUIRE(p < players);
  REQUIRE_NOTHROW(s.check_invariants());
  const auto obs = s.encode(p);
  for (float x : obs)
    if (!std::isfinite(x)) FAIL("observation holds a non-finite value");
  // Playouts start their checks at different moves, so that with every k-th
  // move checked, every move number is checked in some playout.
  if (!deep || (out.actions.size() + seed) % static_cast<std::size_t>(opt.deep_check_every) != 0) return;
  check_actions(s, check);
  check_round_trips(game, s, check);
  check_no_leak(s, p, check.next());
  const int other = static_cast<int>(check.below(static_cast<uint32_t>(players)));
  check_no_leak(s, other, check.next());
  check_views_show_observations(game.info().id, s, {p, other});
  const Action h = s.heuristic_action(check.next());
  REQUIRE(s.is_legal(h));
  for (int v = 0; v < players; ++v)
    out.knowledge_seen = out.knowledge_seen || !s.known_card_places(v).empty();
}

Playout play_random(const AnyGame& game, int players, uint64_t seed, const ConformanceOptions& opt,
                    bool deep) {
  Rng rng(derive_seed(seed, 99));   // picks the playout's actions
  Rng check(derive_seed(seed, 7));  // drives the checks, so deep and plain playouts match
  auto s = game.new_state(players, seed);
  Playout out;
  while (!s->is_terminal()) {
    INFO(game.info().id << " players " << players << " seed " << seed << " move " << out.actions.size());
    try {
      check_decision(game, *s, players, seed, opt, deep, check, out);
    } catch (...) {
      report_state(*s);
      throw;
    }
    const Action a = random_legal(*s, rng);
    s->apply(a);
    out.actions.push_back(a);
  }
  check_terminal(*s);
  if (deep) {
    check_round_trips(game, *s, check);
    std::set<int> everyone;
    for (int v = 0; v < players; ++v) everyone.insert(v);
    check_views_show_observations(game.info().id, *s, everyone);
  }
  out.final_json = s->to_json();
  return out;
}

}  // namespace

// The knowledge model (envs/core/knowledge.h): what `viewer` knows is true,
// and a resample for `viewer` keeps it true and keeps it known. (Card
// conservation is each game's own invariant, checked on the resample above.)
ViewerSight::ViewerSight(const AnyState& s, int v, bool with_view)
    : viewer(v),
      observation(s.encode(v)),
      observation_text(s.observation_string(v)),
      view(with_view ? std::optional<std::string>(s.view_json(v)) : std::nullopt),
      current_player(s.current_player()),
      truth(s.card_places()),
      known(s.known_card_places(v)) {
  if (current_player == v) legal = s.legal_actions();
  if (const CardPlace* bad = first_unsupported(known, truth))
    FAIL("viewer " << v << " 'knows' " << describe(*bad) << ", which is not there");
}

void check_resampled_world(const ViewerSight& seen, const AnyState& resampled) {
  const int viewer = seen.viewer;
  INFO("viewer " << viewer);
  REQUIRE_NOTHROW(resampled.check_invariants());
  REQUIRE(resampled.encode(viewer) == seen.observation);
  REQUIRE(resampled.observation_string(viewer) == seen.observation_text);
  // The browser's view (issue 32) shows the viewer no more than the observation.
  if (seen.view) REQUIRE(resampled.view_json(viewer) == *seen.view);
  REQUIRE(resampled.current_player() == seen.current_player);
  if (seen.current_player == viewer) REQUIRE(resampled.legal_actions() == seen.legal);
  CardPlaces known_after = resampled.known_card_places(viewer);
  std::sort(known_after.begin(), known_after.end());
  if (known_after != seen.known)
    FAIL("redeterminize changed what viewer " << viewer << " knows about the cards");
  CardPlaces truth_after = resampled.card_places();
  if (const CardPlace* bad = first_unsupported(known_after, truth_after))
    FAIL("redeterminize moved " << describe(*bad) << ", which viewer " << viewer << " knows to be there");
}

void check_resampled_world(const AnyState& s, const AnyState& resampled, int viewer) {
  check_resampled_world(ViewerSight(s, viewer), resampled);
}

void report_state(const AnyState& s) {
  std::string text;
  try {
    text = s.to_string();
  } catch (const std::exception& e) {
    text = std::string("(the state's text failed too: ") + e.what() + ")";
  }
  FAIL_CHECK("the state there:\n" << text);
}

namespace {

// A whole number from 1 to 1,000,000 in the environment variable `name`, or `otherwise`
// where it is not set; anything else fails the test saying so.
int count_from_env(const char* name, int otherwise) {
  const char* text = std::getenv(name);
  if (!text) return otherwise;
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || n < 1 || n > 1'000'000)
    FAIL(name << " must be a whole number from 1 to 1000000");
  return static_cast<int>(n);
}

}  // namespace

int playout_count(int otherwise) { return count_from_env("ROCKETGYM_CONFORMANCE_GAMES", otherwise); }

int full_check_games(int wanted) {
  return std::min(wanted, count_from_env("ROCKETGYM_CONFORMANCE_DEEP_GAMES", wanted));
}

void run_conformance(const std::string& game_id, int players, const ConformanceOptions& opt) {
  auto game = load_game(game_id, "", opt.overrides);
  const int deep = full_check_games(opt.deep_games);
  std::vector<std::string> finals;
  bool knowledge_seen = false;
  for (int g = 0; g < opt.num_games; ++g) {
    const uint64_t seed = derive_seed(opt.seed, static_cast<uint64_t>(g));
    const Playout p = play_random(*game, players, seed, opt, /*deep=*/g < deep);
    finals.push_back(p.final_json);
    knowledge_seen = knowledge_seen || p.knowledge_seen;
    if (g < 3) {  // same seed -> same game
      const Playout again = play_random(*game, players, seed, opt, /*deep=*/false);
      REQUIRE(again.actions == p.actions);
      REQUIRE(again.final_json == p.final_json);
    }
  }
  // A game with hidden information whose seats never know where any card is
  // has an empty knowledge model, and the knowledge checks above test nothing.
  if (game->info().hidden_information && deep > 0) REQUIRE(knowledge_seen);
  // Different seeds -> different games (all identical would mean the seed is ignored).
  if (finals.size() >= 2) {
    bool any_differ = false;
    for (std::size_t i = 1; i < finals.size(); ++i) any_differ = any_differ || finals[i] != finals[0];
    REQUIRE(any_differ);
  }
  // The initial states of different seeds differ somewhere (chance is seeded).
  REQUIRE(game->new_state(players, 1)->to_json() != game->new_state(players, 2)->to_json());
}

}  // namespace rocketgym::testing
