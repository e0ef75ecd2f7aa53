#include "tests/common/world_consistency.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>

#include "envs/core/rng.h"
#include "tests/common/conformance.h"

namespace rocketgym::testing {
namespace {

std::map<std::string, WorldObserverFactory>& observer_registry() {
  static std::map<std::string, WorldObserverFactory> registry;
  return registry;
}

std::map<std::string, std::vector<WorldPosition> (*)()>& position_registry() {
  static std::map<std::string, std::vector<WorldPosition> (*)()> registry;
  return registry;
}

std::string lines(const std::vector<BrokenFact>& broken) {
  std::ostringstream out;
  for (const BrokenFact& b : broken) out << "\n  - " << b.fact << ": " << b.detail;
  return out.str();
}

// Broken facts over a run, by kind of fact: how many worlds broke it, and the first instance.
struct Tally {
  int worlds = 0;
  std::string first;
};
using Tallies = std::map<std::string, Tally>;

// Draws `worlds` resamples of `real` for `viewer` and checks each.
void check_worlds(const AnyState& real, int viewer, const WorldObserver& observer, const WorldOptions& opt,
                  bool with_view, Rng& rng, const std::string& where, Tallies& tallies) {
  // The observer's facts are true in the real game, or the observer is wrong
  // (a test bug, not an engine bug).
  std::vector<BrokenFact> broken;
  observer.check(real, broken);
  if (!broken.empty())
    FAIL("the observer of viewer " << viewer
                                   << " records facts the real game breaks (test bug):" << lines(broken));
  const ViewerSight seen(real, viewer, with_view);
  for (int w = 0; w < opt.worlds; ++w) {
    const uint64_t world_seed = rng.next();
    INFO("world seed " << world_seed);
    auto world = real.clone();
    world->redeterminize(viewer, world_seed);
    check_resampled_world(seen, *world);
    broken.clear();
    observer.check(*world, broken);
    std::set<std::string> counted;  // a world counts once per kind of fact
    for (const BrokenFact& b : broken) {
      if (!counted.insert(b.fact).second) continue;
      Tally& t = tallies[b.fact];
      if (t.worlds++ == 0)
        t.first = where + ", viewer " + std::to_string(viewer) + ", world seed " +
                  std::to_string(world_seed) + ": " + b.detail;
    }
  }
}

// Plays one game from `s` (the start, or a registered position: `from` names
// it) and checks the worlds; `opening`: the first moves, then random ones;
// `with_view`: the worlds' browser views are compared too.
void play_and_check(const AnyGame& game, std::unique_ptr<AnyState> s, uint64_t seed, const std::string& from,
                    const std::vector<Action>& opening, WorldObserverFactory make, const WorldOptions& opt,
                    bool with_view, Tallies& tallies) {
  const int players = s->num_players();
  Rng actions(derive_seed(seed, 99));
  Rng checks(derive_seed(seed, 29));
  std::vector<std::unique_ptr<WorldObserver>> observers;
  for (int v = 0; v < players; ++v) {
    observers.push_back(make(v, players));
    observers.back()->begin(*s, from.empty());
  }
  std::vector<bool> news(static_cast<std::size_t>(players));  // check this viewer's worlds now
  int move = 0;
  while (!s->is_terminal()) {
    const std::string where = from + "seed " + std::to_string(seed) + " move " + std::to_string(move);
    INFO(game.info().id << " players " << players << " " << where);
    if (checks.below(static_cast<uint32_t>(opt.check_every)) == 0)
      news[checks.below(static_cast<uint32_t>(players))] = true;
    try {
      for (int v = 0; v < players; ++v)
        if (news[static_cast<std::size_t>(v)])
          check_worlds(*s, v, *observers[static_cast<std::size_t>(v)], opt, with_view, checks, where,
                       tallies);
    } catch (...) {
      report_state(*s);
      throw;
    }
    const auto legal = s->legal_actions();
    const std::size_t k = static_cast<std::size_t>(move);
    if (k < opening.size() && !s->is_legal(opening[k]))
      FAIL(from << "opening move " << k << " (" << s->action_to_string(opening[k]) << ") is not legal");
    const Action a =
        k < opening.size() ? opening[k] : legal[actions.below(static_cast<uint32_t>(legal.size()))];
    const auto before = s->clone();
    s->apply(a);
    for (int v = 0; v < players; ++v)
      news[static_cast<std::size_t>(v)] = observers[static_cast<std::size_t>(v)]->observe(*before, a, *s);
    ++move;
  }
}

}  // namespace

bool register_world_observer(const std::string& game_id, WorldObserverFactory factory) {
  observer_registry()[game_id] = factory;
  return true;
}

bool register_world_positions(const std::string& game_id, std::vector<WorldPosition> (*positions)()) {
  position_registry()[game_id] = positions;
  return true;
}

void run_world_consistency(const std::string& game_id, int players, const WorldOptions& opt) {
  const auto found = observer_registry().find(game_id);
  if (found == observer_registry().end())
    FAIL("no world observer for game '" << game_id << "': add tests/common/worlds/" << game_id
                                        << "_world.cpp");
  auto game = load_game(game_id);
  Tallies tallies;
  const int view_games = full_check_games(opt.view_games);
  for (int g = 0; g < opt.num_games; ++g) {
    const uint64_t seed = derive_seed(opt.seed, static_cast<uint64_t>(g));
    play_and_check(*game, game->new_state(players, seed), seed, "", {}, found->second, opt, g < view_games,
                   tallies);
  }
  // The registered positions of this player count, each from a few playouts.
  if (const auto listed = position_registry().find(game_id); listed != position_registry().end())
    for (const WorldPosition& p : listed->second()) {
      if (p.num_players != players) continue;
      for (int g = 0; g < opt.position_games; ++g) {
        const uint64_t seed = derive_seed(opt.seed ^ 0x9051710ULL, static_cast<uint64_t>(g));
        std::unique_ptr<AnyState> start;
        try {
          start = game->state_from_json(p.document(*game, seed));
        } catch (const Error& e) {
          FAIL("position '" << p.name << "' does not load (test bug): " << e.what());
        }
        play_and_check(*game, std::move(start), seed, "position '" + p.name + "', ", p.opening, found->second,
                       opt, g < view_games, tallies);
      }
    }
  if (tallies.empty()) return;
  std::ostringstream summary;
  for (const auto& [fact, t] : tallies)
    summary << "\n  - " << fact << " (" << t.worlds << " worlds), first at " << t.first;
  FAIL(game_id << " with " << players
               << " players: resampled worlds break what their viewer has seen:" << summary.str());
}

}  // namespace rocketgym::testing
