// The observation layout of The Last Blast for its documentation
// (envs/core/describe.h), block by block in the order last_blast_encoder.cpp
// writes them, sized by the same constants. The layout is the one of a 4-player
// table for every player count (issue 31): the seats the table does not have
// and the field rows beyond players + 1 are zero. tests/core/describe_test.cpp
// checks that it tiles the observation.
#include "encoders/last_blast/last_blast_encoder.h"

namespace rocketgym::last_blast {

std::vector<FeatureBlock> observation_layout(int) {
  using V = Visibility;
  const std::string cards = "one float per card number (0..63; the game has 48)";
  const std::string rows = std::to_string(kMaxRows) + " rows (players + 1 used, the others zero)";
  LayoutBuilder b;
  b.add("field", kMaxRows * kColumns * kNumSymbols,
        "one-hot symbol of each tile: (row·7 + column)·6 + symbol, " + rows + " × 7 columns");
  for (int k = 0; k < kMaxPlayers; ++k)
    b.add(relative_seat_name(k) + ": cube", kMaxRows * kColumns,
          "1 at row·7 + column where the seat's cube is (" + rows + ")");
  for (int k = 0; k < kMaxPlayers; ++k)
    b.add(relative_seat_name(k) + ": status", Encoder::kSeatFeatures,
          "one-hot flying, exploded, exited; moved this round; Start Player; to move; rocket size / 12; "
          "score / 36; "
          "hand size at the start of the pick round / 5; has completed a pick this round");
  for (int k = 0; k < kMaxPlayers; ++k)
    b.add(relative_seat_name(k) + ": rocket", kRocketLength * Encoder::kCardFeatures,
          "cards front to back, 15 each: colour one-hot (3), number 1..6 one-hot, symbol one-hot (6)");
  b.add("own hand", kMaxCards, "cards in the viewer's hand; " + cards, V::kOwn)
      .add("own pick", kMaxCards + 3, "the viewer's hidden pick (card), then front/back end, blind", V::kOwn);
  for (int k = 1; k < kMaxPlayers; ++k)
    b.add(relative_seat_name(k) + ": known hand", kMaxCards,
          "cards the viewer knows are in that hand (it held them before passing)", V::kKnowledge);
  b.add("known elsewhere", kMaxCards,
        "cards the viewer knows are in the deck, the discards or another player's blind draw", V::kKnowledge)
      .add("reshuffled", kMaxCards, "cards reshuffled from the discards whose place the viewer does not know",
           V::kKnowledge)
      .add("global", Encoder::kGlobalFeatures,
           "phase one-hot (3), draft hand (3), pick (4), decision kind (pick, place blind, move, remove), "
           "cards "
           "outside hands and rockets / 64, column one-hot (7), damage left / 12, cards lost this turn / 3, "
           "alternate rule")
      .add("next step", kMaxPlayers * kMaxRows * Encoder::kNextStepFeatures,
           "per seat (viewer first) and row, at (seat·" + std::to_string(kMaxRows) +
               " + row)·2: damage entering that row of its next column / 12, another cube is there",
           V::kDerived)
      .add_player_count();
  return b.blocks();
}

}  // namespace rocketgym::last_blast
