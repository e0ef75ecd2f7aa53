// The Last Blast: the facts a seat observes in the draft (rulings 2 and 3), for
// the resampled-world check (world_consistency.h).
//
// A hand of cards goes round the table: after every pick round the picks are
// revealed (added to the public rockets) and the hands are passed, left for
// the first and third hand, right for the second. Every card the viewer saw
// in its hand and has not seen revealed since is in the hand of whoever holds
// that hand now (or is that player's hidden pick from it). At the end of a
// hand its last cards go to the discards: the facts of that hand end.
#include <map>
#include <string>
#include <vector>

#include "envs/core/game_model.h"
#include "games/last_blast/last_blast_game.h"
#include "tests/common/world_consistency.h"

namespace rocketgym::testing {
namespace {

using namespace last_blast;

const State& typed(const AnyState& s) { return dynamic_cast<const StateModel<Game>&>(s).state(); }

bool in_some_rocket(const State& s, int card) {
  for (int p = 0; p < s.num_players(); ++p)
    for (int i = 0; i < s.rocket(p).size; ++i)
      if (s.rocket(p).card[static_cast<std::size_t>(i)] == card) return true;
  return false;
}

// The card is in seat p's hand, or is p's hidden pick from it.
bool with(const State& s, int p, int card) {
  for (int i = 0; i < s.hand_size(p); ++i)
    if (s.hand_card(p, i) == card) return true;
  return s.pick(p).card == card && !s.pick(p).blind;
}

class LastBlastObserver final : public WorldObserver {
 public:
  explicit LastBlastObserver(int viewer) : viewer_(viewer) {}

  bool observe(const AnyState& before, Action, const AnyState& after) override {
    const State& b = typed(before);
    const State& s = typed(after);
    if (b.phase() != Phase::kDraft) return false;
    const auto was = holder_;
    if (s.phase() != Phase::kDraft || s.hand_number() != b.hand_number()) {
      holder_.clear();  // the hands' last cards are discarded, a new hand is dealt
    } else if (s.pick_number() != b.pick_number()) {
      const int n = s.num_players();
      const int step = b.hand_number() == 1 ? n - 1 : 1;  // right for the second hand
      std::map<int, int> passed;
      for (const auto& [card, seat] : holder_)
        if (!in_some_rocket(s, card)) passed[card] = (seat + step) % n;
      holder_ = passed;
    }
    if (s.phase() == Phase::kDraft)
      for (int i = 0; i < s.hand_size(viewer_); ++i) holder_[s.hand_card(viewer_, i)] = viewer_;
    return holder_ != was;
  }

  void check(const AnyState& world, std::vector<BrokenFact>& broken) const override {
    const State& w = typed(world);
    for (const auto& [card, seat] : holder_)
      if (!with(w, seat, card))
        broken.push_back({"the cards of a hand the viewer held travel with that hand",
                          "the viewer held " + w.config().describe_card(card) +
                              " in this hand, passed on to player " + std::to_string(seat) +
                              " and not revealed since, but the world has it elsewhere"});
  }

 private:
  int viewer_;
  std::map<int, int> holder_;  // card -> the seat whose hand holds it
};

const bool registered =
    register_world_observer("last_blast", [](int viewer, int) -> std::unique_ptr<WorldObserver> {
      return std::make_unique<LastBlastObserver>(viewer);
    });

}  // namespace
}  // namespace rocketgym::testing
