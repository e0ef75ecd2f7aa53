// Launchpad 23: the only hidden thing is the secret size of each starting piece
// (rulebook "Setup"), revealed when the last seat has chosen. For the
// resampled-world check (world_consistency.h): the viewer's own choice stays;
// after the reveal nothing is hidden, so a world is the real game itself.
#include <string>

#include "envs/core/game_model.h"
#include "games/launchpad23/launchpad23_game.h"
#include "tests/common/world_consistency.h"

namespace rocketgym::testing {
namespace {

using namespace launchpad23;

const State& typed(const AnyState& s) { return dynamic_cast<const StateModel<Game>&>(s).state(); }

class Launchpad23Observer final : public WorldObserver {
 public:
  explicit Launchpad23Observer(int viewer) : viewer_(viewer) {}

  bool observe(const AnyState& before, Action a, const AnyState& after) override {
    const State& s = typed(after);
    const bool chose = before.current_player() == viewer_ && a >= kSetupBase && a < kTakeBase;
    if (chose) choice_ = a - kSetupBase;
    const bool revealed = seen_.empty() && s.phase() != Phase::kSetup;
    seen_ = s.phase() == Phase::kSetup ? "" : s.to_string();
    return chose || revealed;
  }

  void check(const AnyState& world, std::vector<BrokenFact>& broken) const override {
    const State& w = typed(world);
    if (w.phase() == Phase::kSetup && choice_ >= 0 && w.setup_choice(viewer_) != choice_)
      broken.push_back({"the viewer's secret setup choice stays",
                        "the viewer chose starting size " + std::to_string(choice_) + ", the world says " +
                            std::to_string(w.setup_choice(viewer_))});
    if (!seen_.empty() && world.to_string() != seen_)
      broken.push_back(
          {"nothing is hidden after the setup", "the world differs from the game the viewer sees"});
  }

 private:
  int viewer_;
  int choice_ = -1;   // the viewer's secret setup choice
  std::string seen_;  // the whole game, once nothing is hidden
};

const bool registered =
    register_world_observer("launchpad23", [](int viewer, int) -> std::unique_ptr<WorldObserver> {
      return std::make_unique<Launchpad23Observer>(viewer);
    });

}  // namespace
}  // namespace rocketgym::testing
