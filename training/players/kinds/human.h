// The human kind: a seat a person plays, not an agent (human.cpp).
#pragma once

#include "training/players/kinds.h"

namespace rocketgym::players {

class Human final : public KindOf<Human> {
 public:
  static const KindInfo& row();
};

}  // namespace rocketgym::players
