// The Last Blast: the text views (the full board, a seat's view, actions).
#include <sstream>

#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::kDraft:
      return "draft";
    case Phase::kFlight:
      return "flight";
    default:
      return "over";
  }
}

const char* status_name(Status s) {
  switch (s) {
    case Status::kFlying:
      return "flying";
    case Status::kExploded:
      return "exploded";
    default:
      return "exited";
  }
}

// ---------------------------------------------------------------------------
// Text

std::string State::action_to_string(Action a) const {
  if (a < 0 || a >= kNumActions) return "<action " + std::to_string(a) + " out of range>";
  if (a < kDrawBlind) {
    const int card = a / 2;
    if (card >= config_->num_cards()) return "pick <no card " + std::to_string(card) + ">";
    return "pick " + config_->describe_card(card) + " for the " + (a % 2 == kFront ? "front" : "back");
  }
  if (a == kDrawBlind) return "draw blind from the deck instead of picking";
  if (a == kPlaceBlindFront || a == kPlaceBlindBack) {
    std::string card = "the drawn card";
    if (awaiting_blind_placement()) card += " (" + config_->describe_card(pick_[picker_].card) + ")";
    return "place " + card + " at the " + (a == kPlaceBlindFront ? "front" : "back");
  }
  if (a == kRemoveFront || a == kRemoveBack) {
    const End end = a == kRemoveFront ? kFront : kBack;
    std::string text = std::string("remove the ") + (end == kFront ? "front" : "back") + " card";
    if (phase_ == Phase::kFlight && mover_ >= 0 && rocket_[mover_].size > 0)
      text += " (" +
              config_->describe_card(end == kFront ? rocket_[mover_].front() : rocket_[mover_].back()) + ")";
    return text;
  }
  const int row = a - kMoveBase;
  std::string text = "move to row " + std::to_string(row + 1);
  if (phase_ == Phase::kFlight && mover_ >= 0 && row < rows() && damage_left_ == 0) {
    text +=
        " of column " + std::to_string(round_ + 1) + " (" + config_->symbol_names[field_[row][round_]] + ")";
    if (rocket_[mover_].size > 0) {
      text += ": " + std::to_string(jump_damage(mover_, row)) + " jump + " +
              std::to_string(collision_damage(mover_, row)) + " collision damage";
    }
  }
  return text;
}

std::string State::to_string() const { return view(-1); }

std::string State::observation_string(int viewer) const { return view(viewer); }

// The board as `viewer` sees it; viewer -1 sees everything, hidden cards too.
std::string State::view(int viewer) const {
  std::ostringstream out;
  out << "The Last Blast, " << int{n_} << " players, " << phase_name(phase_);
  if (phase_ == Phase::kDraft)
    out << ": hand " << hand_number_ + 1 << ", pick " << pick_number_ + 1 << ", player " << int{picker_}
        << " to pick"
        << (awaiting_blind_placement() && (viewer < 0 || viewer == picker_) ? " (placing the blind card)"
                                                                            : "");
  if (phase_ == Phase::kFlight)
    out << ": column " << round_ + 1 << ", Start Player " << int{start_player_} << ", player " << int{mover_}
        << (damage_left_ > 0 ? " removing damage (" + std::to_string(damage_left_) + " left)" : " to move");
  if (viewer >= 0) out << "\nYou are player " << viewer << ".";
  out << "\nField (columns 1-7 left to right, the rockets fly right):\n";
  for (int r = 0; r < rows(); ++r) {
    out << "  row " << r + 1 << ":";
    for (int c = 0; c < kColumns; ++c) {
      std::string cell = config_->symbol_names[field_[r][c]];
      for (int p = 0; p < n_; ++p)
        if (row_[p] == r && column_[p] == c)
          cell += (status_[p] == Status::kExploded ? "[x" : "[P") + std::to_string(p) + "]";
      out << " " << cell;
      for (std::size_t k = cell.size(); k < 12; ++k) out << ' ';
    }
    out << "\n";
  }
  for (int p = 0; p < n_; ++p) {
    out << "Player " << p << " (" << status_name(status_[p]) << ", score " << score(p) << ") rocket front>";
    for (int i = 0; i < rocket_[p].size; ++i)
      out << (i ? " | " : " ") << config_->card_names[rocket_[p].card[i]];
    out << " <back\n";
    if (phase_ != Phase::kDraft) continue;
    if (viewer < 0 || viewer == p) {
      write_hand_and_pick(out, p);
    } else {
      write_hand_seen_by(out, p, viewer);
    }
  }
  write_reshuffled(out, viewer);
  if (viewer < 0) {
    out << "Deck " << int{deck_size_} << " cards, discards " << int{discard_size_};
  } else {
    out << "Deck and discards " << undrafted_count() << " cards";
  }
  out << ", lost in flight " << int{lost_size_} << "\n";
  return out.str();
}

// The discards reshuffled to finish a deal whose place `viewer` does not
// know (all of them for the full view), in card order.
void State::write_reshuffled(std::ostream& out, int viewer) const {
  std::string list;
  for (int c = 0; c < config_->num_cards(); ++c)
    if (is_reshuffled(c) && (viewer < 0 || !knows(viewer, c)))
      list += (list.empty() ? "" : ", ") + config_->card_names[c];
  if (list.empty()) return;
  out << (viewer < 0 ? "Reshuffled from the discards: " : "Reshuffled, in the deck or another hand: ") << list
      << "\n";
}

void State::write_hand_and_pick(std::ostream& out, int p) const {
  out << "  hand:";
  for (int i = 0; i < hand_size_[p]; ++i) out << (i ? ", " : " ") << config_->card_names[hand_[p][i]];
  const Pick& pick = pick_[p];
  if (pick.card >= 0) {
    out << "  (hidden pick: " << config_->card_names[pick.card] << (pick.blind ? ", drawn blind" : "");
    if (pick.end >= 0) out << (pick.end == kFront ? ", front" : ", back");
    out << ")";
  }
  out << "\n";
}

// Another player's hand as `viewer` knows it: its size when the pick round
// began (a hidden pick or blind draw must not show), whether its holder has
// picked (a blind card being placed is not a pick yet: who is deciding is
// public, what they decide is not) and the cards seen in it.
void State::write_hand_seen_by(std::ostream& out, int p, int viewer) const {
  const Pick& pick = pick_[p];
  const bool from_hand = pick.card >= 0 && !pick.blind;
  // A blind card still to be placed is not a pick yet, to the others.
  const bool picked = pick.card >= 0 && pick.end >= 0;
  out << "  hand: " << hand_size_[p] + from_hand << " cards" << (picked ? ", has picked" : "");
  // Listed in card order, so that the list does not tell which card was picked.
  uint64_t seen = 0;
  for (int i = 0; i < hand_size_[p]; ++i) seen |= uint64_t{1} << hand_[p][i];
  if (from_hand) seen |= uint64_t{1} << pick.card;
  std::string known;
  for (int c = 0; c < config_->num_cards(); ++c)
    if ((seen >> c & 1) && knows(viewer, c)) known += (known.empty() ? "" : ", ") + config_->card_names[c];
  if (!known.empty()) out << "; you saw in it: " << known;
  out << "\n";
}

}  // namespace rocketgym::last_blast
