// The structured view of the table for the browser (State::view_json): each
// player's Game Zones (experts, rockets, Launch Pad cards), Specialty cards,
// score and hand, the piles and the Launch Pad area. Everything is face up
// except the hands and the draw pile (ruling 20): a seat sees its own hand,
// the others' as sizes with the cards it saw go into them ("known_hand": a
// card taken from the face-up discards, one it offered); the draw pile as a
// size with the cards it knows to be in it, as observation_string does.
#include "envs/launch_pad/launch_pad.h"

namespace rocketgym::launch_pad {

namespace {

// {"card": "Metal", "count": 2} per card type held.
Json card_counts(const std::array<uint8_t, kNumCardTypes>& counts) {
  Json out = Json::array();
  for (int t = 0; t < kNumCardTypes; ++t)
    if (counts[static_cast<std::size_t>(t)] > 0)
      out.push_back({{"card", card_name(t)}, {"count", int{counts[static_cast<std::size_t>(t)]}}});
  return out;
}

}  // namespace

Json State::view_json(int viewer) const {
  Json view;
  view["step"] = step_key(step_);
  view["turn_player"] = turn_player_;
  view["decisions"] = decisions_;
  view["launch_pad_area"] = {{"cards", launch_pad_area_}, {"needed", config_->count[kLaunchPad]}};
  view["countdown"] = countdown_;
  if (countdown_) view["final_turns_left"] = final_turns_left_;
  view["draw_pile"] = draw_size_;
  if (viewer >= 0) {
    std::array<uint8_t, kNumCardTypes> known_draw{};
    for (int t = 0; t < kNumCardTypes; ++t)
      known_draw[static_cast<std::size_t>(t)] = static_cast<uint8_t>(known_count(viewer, kPlaceDrawPile, t));
    view["draw_pile_known"] = card_counts(known_draw);
  }
  view["launch_pads_aside"] = launch_pads_aside_;
  Json discard = Json::array();  // face up, bottom first
  for (int i = 0; i < discard_size_; ++i)
    discard.push_back(card_name(discard_pile_[static_cast<std::size_t>(i)]));
  view["discard_pile"] = std::move(discard);
  Json players = Json::array();
  for (int seat = 0; seat < num_players_; ++seat) {
    const PlayerArea& p = area(seat);
    Json player = {
        {"seat", seat}, {"score", score(seat)}, {"hand_size", p.hand_size}, {"hand_limit", hand_limit(seat)}};
    if (viewer < 0 || viewer == seat)
      player["hand"] = card_counts(p.hand);
    else
      player["known_hand"] =
          card_counts(known_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(seat)]);
    Json zones = Json::array();
    for (int zone = 0; zone < kNumZones; ++zone) {
      const int expert = p.expert[static_cast<std::size_t>(zone)];
      zones.push_back({{"name", zone_name(zone)},
                       {"expert", expert >= 0 ? Json(card_name(expert)) : Json()},
                       {"launch_pad_cards", int{p.launch_pads[static_cast<std::size_t>(zone)]}}});
    }
    Json rockets = Json::array();
    for (int slot = 0; slot < kMaxRocketSlots; ++slot) {
      const Rocket& r = p.rockets[static_cast<std::size_t>(slot)];
      if (!r.exists()) continue;
      const RocketSpec& spec = config_->rocket[static_cast<std::size_t>(r.kind)];
      Json bonuses = Json::array();
      for (int b = 0; b < kNumBonusTypes; ++b)
        if ((r.bonuses >> b) & 1) bonuses.push_back(card_name(kAstronaut + b));
      rockets.push_back({{"slot", slot},
                         {"rocket", card_name(r.kind)},
                         {"zone", r.zone},
                         {"metal", int{r.metal}},
                         {"metal_needed", spec.metal},
                         {"fuel", int{r.fuel}},
                         {"fuel_needed", spec.fuel},
                         {"points", spec.points},
                         {"bonuses", std::move(bonuses)}});
    }
    Json specialties = Json::array();
    for (int s = 0; s < kNumSpecialtyTypes; ++s)
      for (int k = 0; k < p.specialties[static_cast<std::size_t>(s)]; ++k)
        specialties.push_back(card_name(kEmployeeContract + s));
    player["zones"] = std::move(zones);
    player["rockets"] = std::move(rockets);
    player["specialties"] = std::move(specialties);
    players.push_back(std::move(player));
  }
  view["players"] = std::move(players);
  // Cards on their way to the discard pile, face up on the table.
  if (step_ == Step::kChooseTop || step_ == Step::kSurplus) {
    view["staged"] = card_counts(staged_);
    Json ordered = Json::array();
    for (int i = 0; i < ordered_size_; ++i)
      ordered.push_back(card_name(ordered_[static_cast<std::size_t>(i)]));
    view["ordered"] = std::move(ordered);
  }
  if (step_ == Step::kOffer) view["offer"] = {{"card", card_name(offer_card_)}, {"to", offer_to_}};
  return view;
}

}  // namespace rocketgym::launch_pad
