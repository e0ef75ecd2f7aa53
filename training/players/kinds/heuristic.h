// The heuristic kind: the game's hand-written heuristic bot (heuristic.cpp).
#pragma once

#include <memory>

#include "training/players/kinds.h"

namespace rocketgym::players {

class Heuristic final : public KindOf<Heuristic> {
 public:
  static const KindInfo& row();
  std::unique_ptr<UntypedPlayer> make_player(const PlayerSetup& setup) const override;
};

}  // namespace rocketgym::players
