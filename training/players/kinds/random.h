// The random kind: a uniformly random legal action (random.cpp).
#pragma once

#include <memory>

#include "training/players/kinds.h"

namespace rocketgym::players {

class Random final : public KindOf<Random> {
 public:
  static const KindInfo& row();
  std::unique_ptr<UntypedPlayer> make_player(const PlayerSetup& setup) const override;
};

}  // namespace rocketgym::players
