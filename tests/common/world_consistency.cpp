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
                  Rng& rng, const std::string& where, Tallies& tallies) {
  // The observer's facts are true in the real game, or the observer is wrong
  // (a test bug, not an engine bug).
  std::vector<BrokenFact> broken;
  observer.check(real, broken);
  if (!broken.empty())
    FAIL("the observer of viewer " << viewer
                                   << " records facts the real game breaks (test bug):" << lines(broken));
  for (int w = 0; w < opt.worlds; ++w) {
    const uint64_t world_seed = rng.next();
    INFO("world seed " << world_seed);
    auto world = real.clone();
    world->redeterminize(viewer, world_seed);
    check_resampled_world(real, *world, viewer);
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

void play_and_check(const AnyGame& game, int players, uint64_t seed, WorldObserverFactory make,
                    const WorldOptions& opt, Tallies& tallies) {
  Rng actions(derive_seed(seed, 99));
  Rng checks(derive_seed(seed, 29));
  auto s = game.new_state(players, seed);
  std::vector<std::unique_ptr<WorldObserver>> observers;
  for (int v = 0; v < players; ++v) observers.push_back(make(v, players));
  std::vector<bool> news(static_cast<std::size_t>(players));  // check this viewer's worlds now
  int move = 0;
  while (!s->is_terminal()) {
    const std::string where = "seed " + std::to_string(seed) + " move " + std::to_string(move);
    INFO(game.info().id << " players " << players << " " << where << "\n" << s->to_string());
    if (checks.below(static_cast<uint32_t>(opt.check_every)) == 0)
      news[checks.below(static_cast<uint32_t>(players))] = true;
    for (int v = 0; v < players; ++v)
      if (news[static_cast<std::size_t>(v)])
        check_worlds(*s, v, *observers[static_cast<std::size_t>(v)], opt, checks, where, tallies);
    const auto legal = s->legal_actions();
    const Action a = legal[actions.below(static_cast<uint32_t>(legal.size()))];
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

void run_world_consistency(const std::string& game_id, int players, const WorldOptions& opt) {
  const auto found = observer_registry().find(game_id);
  if (found == observer_registry().end())
    FAIL("no world observer for game '" << game_id << "': add tests/common/worlds/" << game_id
                                        << "_world.cpp");
  auto game = load_game(game_id);
  Tallies tallies;
  for (int g = 0; g < opt.num_games; ++g)
    play_and_check(*game, players, derive_seed(opt.seed, static_cast<uint64_t>(g)), found->second, opt,
                   tallies);
  if (tallies.empty()) return;
  std::ostringstream summary;
  for (const auto& [fact, t] : tallies)
    summary << "\n  - " << fact << " (" << t.worlds << " worlds), first at " << t.first;
  FAIL(game_id << " with " << players
               << " players: resampled worlds break what their viewer has seen:" << summary.str());
}

}  // namespace rocketgym::testing
