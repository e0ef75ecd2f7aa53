// Rocket Squad: readable printing (to_string, observation_string) and action names.
#include <sstream>

#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {
namespace {

std::string pretty(CardType t) {
  if (t < kNumSpecials) {
    static const char* const names[kNumSpecials] = {
        "Dad",       "Jack", "Uncle",         "Jackie", "Mom", "Grandma", "Joker", "Ace", "Imaginary Friend",
        "Duct Tape", "Crew", "Water Balloons"};
    return names[t];
  }
  static const char* const colours[kNumBoosterColours] = {"blue", "green", "yellow", "red", "wild"};
  return std::string(colours[booster_colour(t)]) + " booster " + std::to_string(booster_value(t));
}

std::string offset_name(int offset) { return "player +" + std::to_string(offset); }

}  // namespace

std::string State::action_to_string(Action a) const {
  using namespace action;
  const auto loc = [](int l) { return std::string(location_name(l)); };
  if (a < 0 || a >= kNumActions) return "<action " + std::to_string(a) + " out of range>";
  if (a == kEndTurn) return "end turn";
  if (a == kRedraw) return "first-turn redraw: discard the hand and draw a new one";
  if (a < kBuildBox) {
    const int index = (a - kPlaceBooster) / 4;
    return "place " + pretty(booster_card(index / kMaxValue, index % kMaxValue + 1)) + " at the " +
           loc((a - kPlaceBooster) % 4) + " location";
  }
  if (a < kKnockOver)
    return "build " + pretty(static_cast<CardType>((a - kBuildBox) / 4)) + " face down as a box on the " +
           loc((a - kBuildBox) % 4) + " rocket";
  if (a < kPlayDad) return "knock over the " + loc(a - kKnockOver) + " rocket to scare away the Joker";
  if (a < kPlayJack)
    return "Dad: take the top box of " + offset_name((a - kPlayDad) / 16 + 1) + "'s " +
           loc((a - kPlayDad) % 16 / 4) + " rocket, build it on the own " + loc((a - kPlayDad) % 4) +
           " rocket";
  if (a < kPlayUncle) return "Jack: steal a random card from " + offset_name(a - kPlayJack + 1);
  if (a < kPlayJackie)
    return "Uncle: move " + std::to_string((a - kPlayUncle) % kMaxValue + 1) + " box(es) from the " +
           loc((a - kPlayUncle) / 48) + " rocket to the " + loc((a - kPlayUncle) % 48 / kMaxValue) +
           " rocket";
  if (a == kPlayJackie) return "Jackie: look at the top 3 cards of the draw pile, keep 1";
  if (a < kAceDog)
    return "Joker: sit on " + offset_name((a - kPlayJoker) / 4 + 1) + "'s " + loc((a - kPlayJoker) % 4) +
           " rocket";
  if (a < kAceScare)
    return "Ace: knock the boxes off " + offset_name((a - kAceDog) / 8 + 1) + "'s " +
           loc((a - kAceDog) % 8 / 2) + " rocket, pass them " +
           ((a - kAceDog) % 2 == 0 ? "clockwise" : "counter-clockwise");
  if (a < kPlayFriend) return "Ace: scare away the Joker on the own " + loc(a - kAceScare) + " rocket";
  if (a < kPlayDuctTape) return "Imaginary Friend: protect the own " + loc(a - kPlayFriend) + " rocket";
  if (a < kPlayBalloons)
    return "Duct Tape: build 2 boxes from the draw pile on the own " + loc(a - kPlayDuctTape) + " rocket";
  if (a < kBalloonsScare) {
    std::string text = "Water Balloons: a box off";
    int code = a - kPlayBalloons;
    bool first = true;
    for (int offset = 1; offset <= 3; ++offset, code /= 5)
      if (code % 5 != kNoTarget) {
        text += std::string(first ? " " : ", ") + offset_name(offset) + "'s " + loc(code % 5) + " rocket";
        first = false;
      }
    return first ? text + " nothing" : text;
  }
  if (a < kNoBlock)
    return "Water Balloons: scare away the Joker on the own " + loc(a - kBalloonsScare) + " rocket";
  if (a == kNoBlock) return "do not block";
  if (a == kBlockMom) return "block with Mom";
  if (a == kBlockGrandma) return "block with Grandma";
  if (a == kCrewAttach) return "launch with a Crew card (+2)";
  if (a == kCrewDecline) return "launch without Crew";
  if (a < kAceBuild) {
    const int keep = (a - kJackieKeep) / 2;
    std::string text = "Jackie: keep card " + std::to_string(keep + 1) + " of the top 3";
    if (keep < jackie_.count && phase_ == Phase::kJackieKeep)
      text += " (" + pretty(jackie_.cards[keep]) + ")";
    return text + ((a - kJackieKeep) % 2 == 0 ? ", the lower-numbered other card to the very bottom"
                                              : ", the higher-numbered other card to the very bottom");
  }
  return "build the passed box on the own " + loc(a - kAceBuild) + " rocket";
}

namespace {
// "blue booster 3, 1/3 boxes, Joker on top": what everybody sees of a rocket.
std::string public_rocket(const Rocket& r) {
  if (!r.has_booster()) return "-";
  std::string text = pretty(r.booster);
  if (r.launched)
    text += std::string(", launched") + (r.crew ? " with Crew" : "");
  else
    text += ", " + std::to_string(r.num_boxes) + "/" + std::to_string(r.need()) + " boxes";
  if (r.joker) text += ", Joker on top";
  if (r.friend_beside) text += ", Imaginary Friend beside";
  return text;
}

// " [Dad] [Mom]" for the cards whose mask names `viewer`, in their order (positions known).
template <std::size_t N>
std::string cards_known(const std::array<CardType, N>& cards, const std::array<uint8_t, N>& masks, int count,
                        int viewer) {
  std::string text;
  for (int i = 0; i < count; ++i)
    if ((masks[static_cast<std::size_t>(i)] >> viewer) & 1)
      text += " [" + pretty(cards[static_cast<std::size_t>(i)]) + "]";
  return text;
}

// " [Dad] x2 [Mom]" for the cards whose mask names `viewer`, as a multiset (where they lie in
// the place is unknown, so it is not shown).
template <std::size_t N>
std::string cards_counted(const std::array<CardType, N>& cards, const std::array<uint8_t, N>& masks,
                          int count, int viewer) {
  std::array<int, kNumCardTypes> copies{};
  for (int i = 0; i < count; ++i)
    if ((masks[static_cast<std::size_t>(i)] >> viewer) & 1) ++copies[cards[static_cast<std::size_t>(i)]];
  std::string text;
  for (int t = 0; t < kNumCardTypes; ++t)
    if (copies[t])
      text += " [" + pretty(static_cast<CardType>(t)) + "]" +
              (copies[t] > 1 ? " x" + std::to_string(copies[t]) : "");
  return text;
}
}  // namespace

std::string State::to_string() const {
  std::ostringstream out;
  out << "Rocket Squad, " << int(num_players_) << " players, turn " << turn_number_ << ", player "
      << int(turn_player_) << " to play";
  if (phase_ == Phase::kGameOver)
    out << " -- game over" << (truncated_ ? " (truncated)" : "");
  else if (phase_ != Phase::kTurn)
    out << " -- " << phase_name(phase_) << ": player " << int(decider_);
  out << "\n";
  if (end_triggered_)
    out << "End triggered by player " << int(trigger_seat_) << "; final turns are being played\n";
  out << "Draw pile " << int(draw_.count) << " cards, discard pile " << int(discard_.count) << " cards\n";
  for (int p = 0; p < num_players_; ++p) {
    out << "Player " << p << " (" << score(p) << " points) hand:";
    for (int i = 0; i < hands_[p].count; ++i) out << " [" << pretty(hands_[p].cards[i]) << "]";
    out << "\n";
    for (int loc = 0; loc < kNumLocations; ++loc)
      out << "  " << location_name(loc) << ": " << public_rocket(rockets_[p][loc]) << "\n";
  }
  if (chain_.active)
    out << "On the table: " << pretty(chain_.card) << " (" << action_to_string(chain_.action) << "), "
        << int(chain_.blocks) << " block(s)\n";
  if (ace_.active) out << "Ace is passing " << int(ace_.count) << " box(es)\n";
  if (jackie_.count) {
    out << "Jackie looks at:";
    for (int i = 0; i < jackie_.count; ++i) out << " [" << pretty(jackie_.cards[i]) << "]";
    out << "\n";
  }
  return out.str();
}

// The table as everybody sees it, the viewer's own hand and decision, and the hidden cards the
// viewer knows about. Nothing depends on a card the viewer does not know, nor on who else is
// being asked to decide (so redeterminize(viewer) leaves this text unchanged).
std::string State::observation_string(int viewer) const {
  std::ostringstream out;
  out << "Rocket Squad, " << int(num_players_) << " players, turn " << turn_number_ << ", player "
      << int(turn_player_) << " to play; you are player " << viewer;
  if (phase_ == Phase::kGameOver) out << " -- game over" << (truncated_ ? " (truncated)" : "");
  out << "\n";
  if (end_triggered_)
    out << "End triggered by player " << int(trigger_seat_) << "; final turns are being played\n";
  out << "Draw pile " << int(draw_.count) << " cards, discard pile " << int(discard_.count) << " cards";
  if (discard_.count) out << " (top: " << pretty(discard_.cards[discard_.count - 1]) << ")";
  out << "\n";
  const std::string placed = cards_known(draw_.cards, draw_.known_by, draw_.count, viewer);
  const std::string counted = cards_counted(draw_.cards, draw_.counted_by, draw_.count, viewer);
  if (!placed.empty()) out << "You know these draw pile cards by position (bottom first):" << placed << "\n";
  if (!counted.empty()) out << "You know the draw pile also holds:" << counted << "\n";
  for (int p = 0; p < num_players_; ++p) {
    const Hand& h = hands_[p];
    out << "Player " << p << (p == viewer ? " (you)" : "") << " (" << score(p) << " points) ";
    if (p == viewer) {
      out << "hand:";
      for (int i = 0; i < h.count; ++i) out << " [" << pretty(h.cards[i]) << "]";
    } else {
      out << int(h.count) << " card(s) in hand";
      const std::string known = cards_counted(h.cards, h.known_by, h.count, viewer);
      if (!known.empty()) out << ", you know of:" << known;
    }
    out << "\n";
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = rockets_[p][loc];
      out << "  " << location_name(loc) << ": " << public_rocket(r);
      std::string faces;
      for (int i = 0; i < r.num_boxes; ++i)
        if ((r.box_known_by[i] >> viewer) & 1)
          faces += std::string(faces.empty() ? "" : ", ") + "box " + std::to_string(i + 1) + " " +
                   pretty(r.boxes[i]);
      if (!faces.empty()) out << " (you know " << faces << ")";
      out << "\n";
    }
  }
  if (chain_.active)
    out << "On the table: " << pretty(chain_.card) << " (" << action_to_string(chain_.action) << "), "
        << int(chain_.blocks) << " block(s)"
        << (chain_.blocks ? ", the last one by player " + std::to_string(chain_.top_player) : "") << "\n";
  if (ace_.active) {
    out << "Ace is passing " << int(ace_.count) << " box(es)";
    const std::string known = cards_counted(ace_.boxes, ace_.box_known_by, ace_.count, viewer);
    if (!known.empty()) out << ", among them, you know:" << known;
    out << "\n";
  }
  out << decision_text(viewer);
  return out.str();
}

// The decision in progress as `viewer` may see it: their own, or one everybody sees (Jackie,
// Ace passing); a block or Crew decision of another player is not shown (ruling 4): to the
// others it reads as the turn going on, the card on the table shown above.
std::string State::decision_text(int viewer) const {
  const bool mine = current_player() == viewer;
  switch (phase_) {
    case Phase::kReaction:
      return mine ? "You may block the card on the table.\n" : "";
    case Phase::kCrew:
      return mine ? std::string("Your ") + location_name(crew_location_) +
                        " rocket launched: you may attach a Crew card to it.\n"
                  : "";
    case Phase::kJackieKeep: {
      if (!mine)
        return "Player " + std::to_string(turn_player_) + " looks at the top of the draw pile with Jackie.\n";
      std::string text = "Jackie: you look at (top first):";
      for (int i = 0; i < jackie_.count; ++i) text += " [" + pretty(jackie_.cards[i]) + "]";
      return text + "\n";
    }
    case Phase::kAcePass:
      return mine ? "Build the box passed to you on one of your rockets.\n"
                  : "Player " + std::to_string(decider_) + " builds a box passed by Ace.\n";
    case Phase::kTurn:
      return mine ? "Your turn.\n" : "";
    case Phase::kGameOver:
      break;
  }
  return "";
}

}  // namespace rocketgym::rocket_squad
