// Launch Pad: the text views (the whole table, a seat's view) and action names.
#include <sstream>

#include "envs/launch_pad/launch_pad.h"

namespace rocketgym::launch_pad {
namespace {

std::string seat_words(int offset) {
  return offset == 0 ? "own" : "player +" + std::to_string(offset) + "'s";
}

// "Metal x2, Oxygen" for counts by card type; "(empty)" when there are none.
std::string counts_text(const std::array<uint8_t, kNumCardTypes>& counts) {
  std::string out;
  for (int t = 0; t < kNumCardTypes; ++t) {
    const int k = counts[static_cast<std::size_t>(t)];
    if (k == 0) continue;
    if (!out.empty()) out += ", ";
    out += card_name(t);
    if (k > 1) out += " x" + std::to_string(k);
  }
  return out.empty() ? "(empty)" : out;
}

}  // namespace

// The whole table; of the hands, only the one of the player to move is shown
// (so a person playing in a terminal sees no opponent's hand).
std::string State::to_string() const { return describe(current_player(), -1); }

// What `viewer` may see: the table, the discard pile's contents (ruling 20),
// its own hand, the number of cards in every other hand and in the draw pile,
// and the cards it knows to be in another hand or in the draw pile.
std::string State::observation_string(int viewer) const { return describe(viewer, viewer); }

std::string State::describe(int shown_hand, int viewer) const {
  std::ostringstream os;
  os << "Launch Pad: " << num_players_ << " players, turn of player " << turn_player_ << ", step "
     << step_key(step_) << (truncated_ ? " (truncated)" : "") << ", decision " << decisions_ << "\n";
  if (viewer >= 0) os << "You are player " << viewer << ".\n";
  os << "Launch Pad area " << launch_pad_area_ << "/" << config_->count[kLaunchPad];
  if (countdown_) os << "  COUNTDOWN: " << final_turns_left_ << " turns after this one";
  os << " | draw pile " << draw_size_;
  if (launch_pads_aside_ > 0) os << " (+" << launch_pads_aside_ << " Launch Pad cards aside)";
  os << " | discard pile " << discard_size_;
  if (discard_size_ > 0) os << ", top " << card_name(discard_top());
  os << "\n";
  if (viewer >= 0) {
    std::array<uint8_t, kNumCardTypes> discards{}, known_draw{};
    for (int i = 0; i < discard_size_; ++i) ++discards[discard_pile_[static_cast<std::size_t>(i)]];
    for (int t = 0; t < kNumCardTypes; ++t)
      known_draw[static_cast<std::size_t>(t)] = static_cast<uint8_t>(known_count(viewer, kPlaceDrawPile, t));
    os << "Discard pile holds: " << counts_text(discards) << "\n";
    os << "Draw pile, known to hold: " << counts_text(known_draw) << "\n";
  }
  const int to_move = current_player();
  for (int seat = 0; seat < num_players_; ++seat) {
    const PlayerArea& p = area(seat);
    os << "Player " << seat << (seat == viewer ? " (you)" : "") << (seat == to_move ? " (to move)" : "")
       << ": score " << score(seat) << ", hand " << p.hand_size << "/" << hand_limit(seat);
    if (seat == shown_hand) {
      os << ": " << counts_text(p.hand);
    } else if (viewer >= 0) {
      const auto& known = known_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(seat)];
      if (known != std::array<uint8_t, kNumCardTypes>{}) os << ", known to hold: " << counts_text(known);
    }
    os << "\n  experts:";
    for (int zone = 0; zone < kNumZones; ++zone)
      os << " " << zone_key(zone) << "="
         << (p.expert[static_cast<std::size_t>(zone)] >= 0
                 ? card_name(p.expert[static_cast<std::size_t>(zone)])
                 : "-");
    os << " | Launch Pad cards " << int{p.launch_pads[0]} << "/" << int{p.launch_pads[1]} << "/"
       << int{p.launch_pads[2]};
    os << " | specialty:";
    if (p.num_specialties() == 0) os << " -";
    for (int s = 0; s < kNumSpecialtyTypes; ++s)
      for (int k = 0; k < p.specialties[static_cast<std::size_t>(s)]; ++k)
        os << " " << card_name(kEmployeeContract + s);
    os << "\n";
    for (int slot = 0; slot < kMaxRocketSlots; ++slot) {
      const Rocket& r = p.rockets[static_cast<std::size_t>(slot)];
      if (!r.exists()) continue;
      const RocketSpec& spec = config_->rocket[static_cast<std::size_t>(r.kind)];
      os << "  [" << slot << "] " << card_name(r.kind) << " in " << zone_name(r.zone) << ", Metal "
         << int{r.metal} << "/" << spec.metal << ", Fuel " << int{r.fuel} << "/" << spec.fuel;
      for (int b = 0; b < kNumBonusTypes; ++b)
        if ((r.bonuses >> b) & 1) os << ", " << card_name(kAstronaut + b);
      os << "\n";
    }
  }
  if (step_ == Step::kOffer) os << "Offer: " << card_name(offer_card_) << " to player " << offer_to_ << "\n";
  if (step_ == Step::kChooseTop ||
      (step_ == Step::kSurplus && staged_ != std::array<uint8_t, kNumCardTypes>{}))
    os << (step_ == Step::kSurplus ? "Discarded for Surplus so far: " : "To discard: ")
       << counts_text(staged_) << "\n";
  if (ordered_size_ > 0) {
    os << "Discard order chosen so far, top first:";
    for (int i = 0; i < ordered_size_; ++i)
      os << (i > 0 ? ", " : " ") << card_name(ordered_[static_cast<std::size_t>(i)]);
    os << " (the cards still to discard go below)\n";
  }
  return os.str();
}

std::string State::action_to_string(Action a) const {
  if (a < 0 || a >= act::kNumActions) return "<action " + std::to_string(a) + " out of range>";
  const Decoded d = decode(a);
  auto rocket_words = [&](int offset, int slot) {
    std::string out = seat_words(offset) + " rocket in slot " + std::to_string(slot);
    if (valid_offset(offset) && rocket(seat_at(offset), slot).exists()) {
      const Rocket& r = rocket(seat_at(offset), slot);
      out += std::string(" (") + card_name(r.kind) + ", " + zone_name(r.zone) + ")";
    }
    return out;
  };
  constexpr const char* kExpertWords[act::kNumExpertPlays] = {
      "play Engineer in the Construction Zone",
      "play Inspector in the Quality Control Zone",
      "play Mission Controller in the Launch Zone",
      "play Jack of All Trades as the Construction Zone expert",
      "play Jack of All Trades as the Quality Control Zone expert",
      "play Jack of All Trades as the Launch Zone expert"};
  if (a < act::kStopAdvancing) return "advance " + rocket_words(0, d.a) + " to the next zone";
  if (a == act::kStopAdvancing) return "stop advancing rockets";
  if (a == act::kTakeDiscardTop)
    return std::string("draw: take the top of the discard pile (") +
           (discard_size_ > 0 ? card_name(discard_top()) : "empty") + "), the rest from the draw pile";
  if (a == act::kDrawFromPile) return "draw: every card from the draw pile";
  if (a < act::kPlayMetal) return std::string("play ") + card_name(d.a) + " in the Construction Zone";
  if (a < act::kPlayFuel) return "play Metal on " + rocket_words(0, d.a);
  if (a < act::kPlayExpert) return "play Fuel on " + rocket_words(0, d.a);
  if (a < act::kPlayBonus) return kExpertWords[d.a];
  if (a < act::kPlaySpecialty) return std::string("play ") + card_name(d.a) + " on " + rocket_words(0, d.b);
  if (a < act::kAbortMission) return std::string("play Specialty card ") + card_name(d.a);
  if (a < act::kBigRedButton) return "Abort Mission: discard " + rocket_words(d.a, d.b);
  if (a < act::kBudgetCuts)
    return "Big Red Button: " + seat_words(d.a) + " Launch Pad card in the " + zone_name(d.b) +
           " to the Launch Pad area";
  if (a < act::kFastTrack) return "Budget Cuts: steal " + seat_words(d.a) + " Specialty card";
  if (a < act::kPartsSupplier) return "Fast Track: " + rocket_words(0, d.a) + " straight to the Launch Zone";
  if (a == act::kPartsSupplier) return "Parts Supplier: draw three cards from the draw pile";
  if (a < act::kRecruitment)
    return "Quality Check: send " + rocket_words(d.a, d.b) + " back to Quality Control";
  if (a < act::kRecycleBin)
    return "Recruitment: steal " + seat_words(d.a) + " expert in the " + zone_name(d.b);
  if (a == act::kRecycleBin) return "Recycle Bin: shuffle the top ten discards into the draw pile";
  if (a < act::kSalvage)
    return std::string("Sabotage: take a ") + card_name(d.c) + " from " + rocket_words(d.a, d.b);
  if (a < act::kSurplus) return std::string("Salvage: take ") + card_name(d.a) + " from the discard pile";
  if (a == act::kSurplus) return "Surplus: every player discards a card";
  if (a < act::kVacuum) {
    if (d.a < 3) return "Thief: two random cards from player +" + std::to_string(d.a + 1);
    return "Thief: a random card from each of players +" + std::to_string(act::kThiefPairs[d.a - 3][0]) +
           " and +" + std::to_string(act::kThiefPairs[d.a - 3][1]);
  }
  if (a < act::kOfferCard) return "Vacuum: steal the Oxygen of " + rocket_words(d.a, d.b);
  if (a < act::kAcceptOffer)
    return std::string("offer ") + card_name(d.b) + " to player +" + std::to_string(d.a);
  if (a == act::kAcceptOffer)
    return std::string("accept the offered ") + (offer_card_ >= 0 ? card_name(offer_card_) : "card");
  if (a == act::kRejectOffer)
    return std::string("reject the offered ") + (offer_card_ >= 0 ? card_name(offer_card_) : "card");
  if (a == act::kStopPlaying) return "stop playing cards (go on to discard)";
  if (a < act::kEndTurn) return std::string("discard ") + card_name(d.a);
  if (a == act::kEndTurn) return "end the turn";
  if (a < act::kPutOnTop) return std::string("Surplus: discard ") + card_name(d.a);
  if (ordered_size_ == 0) return std::string("put ") + card_name(d.a) + " on top of the discard pile";
  return std::string("put ") + card_name(d.a) + " next in the discard order, below the " +
         card_name(ordered_[static_cast<std::size_t>(ordered_size_ - 1)]);
}

}  // namespace rocketgym::launch_pad
