// The structured view of the table for the browser (State::view_json): the
// launch complex, the Bank and the dice. Everything is public except the
// setup choices before the reveal (ruling 2): a seat sees only its own.
#include "envs/launchpad23/launchpad23.h"

namespace rocketgym::launchpad23 {

namespace {

const char* phase_word(Phase p) {
  switch (p) {
    case Phase::kSetup:
      return "setup";
    case Phase::kNewPart:
      return "new part";
    case Phase::kMoves:
      return "moves";
    case Phase::kGameOver:
      return "game over";
  }
  return "";
}

// One entry per pyramid: {"colour": "red", "size": "small"}.
Json pieces(const std::array<uint8_t, kPieceTypes>& counts) {
  Json out = Json::array();
  for (int t = 0; t < kPieceTypes; ++t)
    for (int k = 0; k < counts[static_cast<std::size_t>(t)]; ++k)
      out.push_back({{"colour", colour_name(colour_of(t))}, {"size", size_name(size_of(t))}});
  return out;
}

}  // namespace

Json State::view_json(int viewer) const {
  Json view;
  view["phase"] = phase_word(phase_);
  view["turn"] = turn_ + 1;
  view["turn_player"] = phase_ == Phase::kGameOver ? -1 : current_;
  Json spaces = Json::array();
  for (int space = 0; space < kSpaces; ++space)
    spaces.push_back({{"name", space_name(space)},
                      {"row", space / 3},
                      {"column", space % 3},
                      {"owner", owner_of(space)},
                      {"pieces", pieces(board_.spaces[static_cast<std::size_t>(space)])}});
  view["spaces"] = std::move(spaces);
  view["bank"] = pieces(board_.bank);
  if (phase_ == Phase::kNewPart || phase_ == Phase::kMoves) {
    Json sizes = Json::array();
    for (int s = 0; s < kSizes; ++s)
      if (roll_.allows_size(s)) sizes.push_back(size_name(s));
    view["dice"] = {{"sizes", sizes},
                    {"colour", roll_.colour_face == kAtom ? "atom" : colour_name(roll_.colour_face)},
                    {"shortage", phase_ == Phase::kNewPart && shortage()},
                    {"rerolled", rerolled_},
                    {"moves_left", phase_ == Phase::kMoves ? moves_left_ : roll_.moves()}};
  }
  // Setup choices: who has chosen is public (the seats choose in turn), the
  // size only to its chooser until the reveal.
  if (phase_ == Phase::kSetup) {
    Json setup = Json::array();
    for (int p = 0; p < num_players_; ++p) {
      const int choice = setup_choice_[static_cast<std::size_t>(p)];
      Json seat = {{"seat", p}, {"chosen", choice >= 0}};
      if (choice >= 0 && (viewer < 0 || viewer == p)) seat["size"] = size_name(choice);
      setup.push_back(std::move(seat));
    }
    view["setup"] = std::move(setup);
  }
  if (phase_ == Phase::kGameOver) view["winner"] = truncated_ ? -1 : winner_;
  return view;
}

}  // namespace rocketgym::launchpad23
