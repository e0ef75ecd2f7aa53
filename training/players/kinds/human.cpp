// human: a person, at the terminal (`rocketgym play`) or in the browser
// (`rocketgym serve`). No agent: where an agent is read (the arena, Python,
// the opponents), the spec reader refuses it with its help line; play and
// serve ask is_person_seat() (kinds.h) and let the person choose the moves.
#include "training/players/kinds/human.h"

namespace rocketgym::players {

const KindInfo& Human::row() {
  static const KindInfo row{
      "human",
      "human",
      "",
      {},
      "a person: at the terminal (`rocketgym play --seats`) or in the browser (`rocketgym "
      "serve`); not an agent, so not a seat of the arena, an opponent or Python's load_agent",
      false,
      false,
      90};
  return row;
}

const PlayerKind& human_kind() {
  static const Human kind;
  return kind;
}

}  // namespace rocketgym::players
