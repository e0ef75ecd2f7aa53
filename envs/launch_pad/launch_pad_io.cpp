// Launch Pad: JSON documents, text, invariants and redeterminization.
#include <algorithm>
#include <sstream>

#include "envs/launch_pad/launch_pad.h"

namespace rocketgym::launch_pad {
namespace {

constexpr const char* kStepKeys[kNumSteps] = {"advance", "draw_choice", "play",    "choose_top",
                                              "surplus", "offer",       "discard", "game_over"};

[[noreturn]] void bad(const std::string& what) {
  throw SerializationError("launch_pad state document: " + what);
}

int card_of(const Json& j, const char* field) {
  if (!j.is_string()) bad(std::string("'") + field + "' must hold card names");
  const int c = card_from_key(j.get<std::string>());
  if (c < 0) bad(std::string("'") + field + "': unknown card '" + j.get<std::string>() + "'");
  return c;
}

Json card_counts_to_json(const std::array<uint8_t, kNumCardTypes>& counts) {
  Json out = Json::object();
  for (int t = 0; t < kNumCardTypes; ++t)
    if (counts[static_cast<std::size_t>(t)] > 0) out[card_key(t)] = counts[static_cast<std::size_t>(t)];
  return out;
}

std::array<uint8_t, kNumCardTypes> card_counts_from_json(const Json& j, const char* field) {
  if (!j.is_object()) bad(std::string("'") + field + "' must be an object {card: count}");
  std::array<uint8_t, kNumCardTypes> counts{};
  for (auto it = j.begin(); it != j.end(); ++it) {
    const int c = card_from_key(it.key());
    if (c < 0) bad(std::string("'") + field + "': unknown card '" + it.key() + "'");
    counts[static_cast<std::size_t>(c)] =
        static_cast<uint8_t>(json_get_int(j, it.key().c_str(), 0, kMaxCards));
  }
  return counts;
}

template <std::size_t N>
int card_list_from_json(const Json& j, const char* field, std::array<uint8_t, N>& out) {
  if (!j.is_array()) bad(std::string("'") + field + "' must be a list of card names");
  if (j.size() > N) bad(std::string("'") + field + "' holds too many cards");
  int n = 0;
  for (const Json& c : j) out[static_cast<std::size_t>(n++)] = static_cast<uint8_t>(card_of(c, field));
  return n;
}

std::string seat_words(int offset) {
  return offset == 0 ? "own" : "player +" + std::to_string(offset) + "'s";
}

}  // namespace

const char* step_key(Step step) { return kStepKeys[static_cast<int>(step)]; }

// ---------------------------------------------------------------- JSON

Json State::to_json() const {
  Json doc;
  doc["game"] = "launch_pad";
  doc["players"] = num_players_;
  doc["turn"] = turn_player_;
  doc["step"] = step_key(step_);
  Json hands = Json::array(), zones = Json::array();
  for (int seat = 0; seat < num_players_; ++seat) {
    const PlayerArea& p = area(seat);
    hands.push_back(card_counts_to_json(p.hand));
    Json z;
    Json experts = Json::object();
    for (int zone = 0; zone < kNumZones; ++zone)
      if (p.expert[static_cast<std::size_t>(zone)] >= 0)
        experts[zone_key(zone)] = card_key(p.expert[static_cast<std::size_t>(zone)]);
    z["experts"] = experts;
    z["launch_pads"] = p.launch_pads;
    Json specialties = Json::array();
    for (int s = 0; s < kNumSpecialtyTypes; ++s)
      for (int k = 0; k < p.specialties[static_cast<std::size_t>(s)]; ++k)
        specialties.push_back(card_key(kEmployeeContract + s));
    z["specialties"] = specialties;
    Json rockets = Json::array();
    for (int slot = 0; slot < kMaxRocketSlots; ++slot) {
      const Rocket& r = p.rockets[static_cast<std::size_t>(slot)];
      if (!r.exists()) continue;
      Json bonuses = Json::array();
      for (int b = 0; b < kNumBonusTypes; ++b)
        if ((r.bonuses >> b) & 1) bonuses.push_back(card_key(kAstronaut + b));
      rockets.push_back({{"slot", slot},
                         {"kind", card_key(r.kind)},
                         {"zone", zone_key(r.zone)},
                         {"metal", r.metal},
                         {"fuel", r.fuel},
                         {"bonuses", bonuses}});
    }
    z["rockets"] = rockets;
    zones.push_back(z);
  }
  doc["hands"] = hands;
  doc["zones"] = zones;
  Json draw = Json::array(), discard = Json::array();
  for (int i = 0; i < draw_size_; ++i) draw.push_back(card_key(draw_pile_[static_cast<std::size_t>(i)]));
  for (int i = 0; i < discard_size_; ++i)
    discard.push_back(card_key(discard_pile_[static_cast<std::size_t>(i)]));
  doc["draw_pile"] = draw;  // bottom first
  doc["discard_pile"] = discard;
  doc["launch_pad_area"] = launch_pad_area_;
  doc["launch_pads_aside"] = launch_pads_aside_;
  doc["launch_pad_region"] = launch_pad_region_;
  doc["countdown"] = countdown_;
  doc["final_turns_left"] = final_turns_left_;
  doc["redraw_used"] = redraw_used_;
  Json eligible = Json::array();
  for (int slot = 0; slot < kMaxRocketSlots; ++slot)
    if (advance_eligible(slot)) eligible.push_back(slot);
  doc["advance_eligible"] = eligible;
  doc["advanced_from"] = advanced_from_;
  doc["surplus_offset"] = surplus_offset_;
  doc["offer"] = offer_to_ < 0 ? Json(nullptr) : Json{{"to", offer_to_}, {"card", card_key(offer_card_)}};
  doc["staged"] = card_counts_to_json(staged_);
  doc["decisions"] = decisions_;
  doc["truncated"] = truncated_;
  doc["rng"] = rng_to_json(rng_);
  return doc;
}

State State::from_json(const Json& doc, const Config& config) {
  if (!doc.is_object()) bad("must be a JSON object");
  if (json_get<std::string>(doc, "game") != "launch_pad") bad("'game' must be \"launch_pad\"");
  State s(config, 2, 0);
  s.players_ = {};
  s.num_players_ = json_get_int(doc, "players", 2, kMaxPlayers);
  s.turn_player_ = json_get_int(doc, "turn", 0, s.num_players_ - 1);
  const std::string step = json_get<std::string>(doc, "step");
  const auto* found = std::find(std::begin(kStepKeys), std::end(kStepKeys), step);
  if (found == std::end(kStepKeys)) bad("unknown step '" + step + "'");
  s.step_ = static_cast<Step>(found - std::begin(kStepKeys));

  const Json hands = json_get<Json>(doc, "hands"), zones = json_get<Json>(doc, "zones");
  if (!hands.is_array() || hands.size() != static_cast<std::size_t>(s.num_players_))
    bad("'hands' needs one entry per player");
  if (!zones.is_array() || zones.size() != static_cast<std::size_t>(s.num_players_))
    bad("'zones' needs one entry per player");
  for (int seat = 0; seat < s.num_players_; ++seat) {
    PlayerArea& p = s.area_mut(seat);
    p.hand = card_counts_from_json(hands[static_cast<std::size_t>(seat)], "hands");
    for (int c : p.hand) p.hand_size += c;
    const Json& z = zones[static_cast<std::size_t>(seat)];
    const Json experts = json_get<Json>(z, "experts");
    if (!experts.is_object()) bad("'experts' must be an object {zone: expert}");
    for (auto it = experts.begin(); it != experts.end(); ++it) {
      const int zone = zone_from_key(it.key());
      if (zone < 0) bad("unknown zone '" + it.key() + "'");
      p.expert[static_cast<std::size_t>(zone)] = static_cast<int8_t>(card_of(it.value(), "experts"));
    }
    const Json pads = json_get<Json>(z, "launch_pads");
    if (!pads.is_array() || pads.size() != kNumZones) bad("'launch_pads' must list 3 counts");
    for (int zone = 0; zone < kNumZones; ++zone) {
      if (!pads[static_cast<std::size_t>(zone)].is_number_integer()) bad("'launch_pads' must list 3 counts");
      const int n = pads[static_cast<std::size_t>(zone)].get<int>();
      if (n < 0 || n > 4) bad("'launch_pads' count out of range");
      p.launch_pads[static_cast<std::size_t>(zone)] = static_cast<uint8_t>(n);
    }
    const Json specialties = json_get<Json>(z, "specialties");
    if (!specialties.is_array()) bad("'specialties' must be a list");
    for (const Json& c : specialties) {
      const int card = card_of(c, "specialties");
      if (!is_specialty(card)) bad(std::string("'") + card_key(card) + "' is not a Specialty card");
      ++p.specialties[static_cast<std::size_t>(specialty_index(card))];
    }
    const Json rockets = json_get<Json>(z, "rockets");
    if (!rockets.is_array()) bad("'rockets' must be a list");
    for (const Json& r : rockets) {
      const int slot = json_get_int(r, "slot", 0, kMaxRocketSlots - 1);
      Rocket& rocket = p.rockets[static_cast<std::size_t>(slot)];
      if (rocket.exists()) bad("two rockets in slot " + std::to_string(slot));
      const int kind = card_of(json_get<Json>(r, "kind"), "kind");
      if (!is_rocket(kind)) bad(std::string("'") + card_key(kind) + "' is not a rocket");
      const int zone = zone_from_key(json_get<std::string>(r, "zone"));
      if (zone < 0) bad("unknown rocket zone");
      rocket.kind = static_cast<int8_t>(kind);
      rocket.zone = static_cast<int8_t>(zone);
      rocket.metal = static_cast<uint8_t>(
          json_get_int(r, "metal", 0, config.rocket[static_cast<std::size_t>(kind)].metal));
      rocket.fuel = static_cast<uint8_t>(
          json_get_int(r, "fuel", 0, config.rocket[static_cast<std::size_t>(kind)].fuel));
      const Json bonuses = json_get<Json>(r, "bonuses");
      if (!bonuses.is_array()) bad("'bonuses' must be a list");
      for (const Json& b : bonuses) {
        const int card = card_of(b, "bonuses");
        if (!is_bonus(card) || rocket.has_bonus(card)) bad("bad or repeated bonus card");
        rocket.bonuses |= static_cast<uint8_t>(1u << bonus_index(card));
      }
    }
  }
  s.draw_size_ = card_list_from_json(json_get<Json>(doc, "draw_pile"), "draw_pile", s.draw_pile_);
  s.discard_size_ = card_list_from_json(json_get<Json>(doc, "discard_pile"), "discard_pile", s.discard_pile_);
  s.launch_pad_area_ = json_get_int(doc, "launch_pad_area", 0, 4);
  s.launch_pads_aside_ = json_get_int(doc, "launch_pads_aside", 0, 4);
  s.launch_pad_region_ = json_get_int(doc, "launch_pad_region", 0, s.draw_size_);
  s.countdown_ = json_get<bool>(doc, "countdown");
  s.final_turns_left_ = json_get_int(doc, "final_turns_left", 0, s.num_players_);
  s.redraw_used_ = json_get<bool>(doc, "redraw_used");
  const Json eligible = json_get<Json>(doc, "advance_eligible");
  if (!eligible.is_array()) bad("'advance_eligible' must be a list of slots");
  s.advance_eligible_ = 0;
  for (const Json& e : eligible) {
    if (!e.is_number_integer() || e.get<int>() < 0 || e.get<int>() >= kMaxRocketSlots)
      bad("bad slot in 'advance_eligible'");
    s.advance_eligible_ |= 1u << e.get<int>();
  }
  const Json advanced = json_get<Json>(doc, "advanced_from");
  if (!advanced.is_array() || advanced.size() != 2) bad("'advanced_from' must list 2 counts");
  for (std::size_t z = 0; z < 2; ++z) {
    if (!advanced[z].is_number_integer() || advanced[z].get<int>() < 0 || advanced[z].get<int>() > 2)
      bad("bad 'advanced_from'");
    s.advanced_from_[z] = static_cast<uint8_t>(advanced[z].get<int>());
  }
  s.surplus_offset_ = json_get_int(doc, "surplus_offset", 0, s.num_players_ - 1);
  const Json offer = json_get<Json>(doc, "offer");
  s.offer_to_ = s.offer_card_ = -1;
  if (!offer.is_null()) {
    s.offer_to_ = json_get_int(offer, "to", 0, s.num_players_ - 1);
    s.offer_card_ = card_of(json_get<Json>(offer, "card"), "offer");
  }
  s.staged_ = card_counts_from_json(json_get<Json>(doc, "staged"), "staged");
  s.decisions_ = json_get_int(doc, "decisions", 0, kMaxDecisions);
  s.truncated_ = json_get<bool>(doc, "truncated");
  s.rng_ = rng_from_json(json_get<Json>(doc, "rng"));
  try {
    s.check_invariants();
  } catch (const InvariantViolation& e) {
    bad(std::string("impossible position: ") + e.what());
  }
  return s;
}

// ---------------------------------------------------------------- invariants

void State::check_invariants() const {
  auto fail = [](const std::string& what) { throw InvariantViolation("launch_pad: " + what); };
  if (num_players_ < 2 || num_players_ > kMaxPlayers) fail("bad player count");
  if (turn_player_ < 0 || turn_player_ >= num_players_) fail("bad turn player");
  std::array<int, kNumCardTypes> seen{};
  for (int i = 0; i < draw_size_; ++i) ++seen[draw_pile_[static_cast<std::size_t>(i)]];
  for (int i = 0; i < discard_size_; ++i) {
    if (discard_pile_[static_cast<std::size_t>(i)] == kLaunchPad)
      fail("a Launch Pad card in the discard pile");
    ++seen[discard_pile_[static_cast<std::size_t>(i)]];
  }
  for (int t = 0; t < kNumCardTypes; ++t)
    seen[static_cast<std::size_t>(t)] += staged_[static_cast<std::size_t>(t)];
  seen[kLaunchPad] += launch_pad_area_ + launch_pads_aside_;
  if (offer_to_ >= 0) ++seen[static_cast<std::size_t>(offer_card_)];
  for (int seat = 0; seat < num_players_; ++seat) {
    const PlayerArea& p = area(seat);
    int size = 0;
    for (int t = 0; t < kNumCardTypes; ++t)
      size += p.hand[static_cast<std::size_t>(t)],
          seen[static_cast<std::size_t>(t)] += p.hand[static_cast<std::size_t>(t)];
    if (size != p.hand_size) fail("hand size mismatch for seat " + std::to_string(seat));
    if (p.hand[kLaunchPad] > 0) fail("a Launch Pad card in a hand");
    for (int zone = 0; zone < kNumZones; ++zone) {
      const int e = p.expert[static_cast<std::size_t>(zone)];
      if (e >= 0 && e != kJackOfAllTrades && e != kEngineer + zone) fail("wrong expert in a zone");
      if (e >= 0) ++seen[static_cast<std::size_t>(e)];
      seen[kLaunchPad] += p.launch_pads[static_cast<std::size_t>(zone)];
      if (config_->short_game && p.launch_pads[static_cast<std::size_t>(zone)] > 0)
        fail("short game: Launch Pad card in a zone");
    }
    for (int s = 0; s < kNumSpecialtyTypes; ++s)
      seen[static_cast<std::size_t>(kEmployeeContract + s)] += p.specialties[static_cast<std::size_t>(s)];
    if (!config_->super_powers && p.num_specialties() > 1) fail("more than one Specialty card in play");
    for (const Rocket& r : p.rockets) {
      if (!r.exists()) continue;
      if (r.kind > kGalactic || r.zone < 0 || r.zone >= kNumZones) fail("bad rocket");
      const RocketSpec& spec = config_->rocket[static_cast<std::size_t>(r.kind)];
      if (r.metal > spec.metal || r.fuel > spec.fuel) fail("too many Components on a rocket");
      if (r.zone != kConstructionZone && !rocket_complete(r))
        fail("an incomplete rocket left the Construction Zone");
      if (r.has_bonus(kQualityCertificate) && r.zone == kConstructionZone)
        fail("Quality Certificate in Construction");
      if ((r.bonuses & ~(1u << bonus_index(kQualityCertificate))) && r.zone != kLaunchZone)
        fail("Astronaut, Oxygen or Maximum Security outside the Launch Zone");
      ++seen[static_cast<std::size_t>(r.kind)];
      seen[kMetal] += r.metal;
      seen[kFuel] += r.fuel;
      for (int b = 0; b < kNumBonusTypes; ++b)
        seen[static_cast<std::size_t>(kAstronaut + b)] += (r.bonuses >> b) & 1;
    }
  }
  for (int t = 0; t < kNumCardTypes; ++t)
    if (seen[static_cast<std::size_t>(t)] != config_->count[static_cast<std::size_t>(t)])
      fail(std::string("card count of ") + card_name(t) + " is " +
           std::to_string(seen[static_cast<std::size_t>(t)]) + ", the deck has " +
           std::to_string(config_->count[static_cast<std::size_t>(t)]));
  if (launch_pads_aside_ > 0 && !config_->long_game) fail("Launch Pad cards aside outside the long game");
  if (countdown_ != (launch_pad_area_ == config_->count[kLaunchPad]))
    fail("Countdown out of step with the Launch Pad");
  if (!countdown_ && final_turns_left_ != 0) fail("final turns without a Countdown");
  if (launch_pad_region_ < 0 || launch_pad_region_ > draw_size_) fail("bad Launch Pad region");
  for (int i = launch_pad_region_; i < draw_size_; ++i)
    if (draw_pile_[static_cast<std::size_t>(i)] == kLaunchPad)
      fail("a Launch Pad card above its known region");
  int staged_kinds = 0;
  for (int t = 0; t < kNumCardTypes; ++t) staged_kinds += staged_[static_cast<std::size_t>(t)] > 0;
  if ((step_ == Step::kChooseTop) != (staged_kinds > 1)) fail("staged discards out of step");
  if (staged_kinds == 1) fail("a single kind of staged discards");
  if (staged_[kLaunchPad] > 0) fail("a Launch Pad card on its way to the discard pile");
  if ((step_ == Step::kOffer) != (offer_to_ >= 0)) fail("offer out of step");
  if (offer_to_ >= 0 && (offer_to_ == turn_player_ || offer_card_ < 0 || offer_card_ == kLaunchPad))
    fail("bad offer");
  if (step_ == Step::kSurplus && area(seat_at(surplus_offset_)).hand_size == 0)
    fail("Surplus asks an empty hand");
  if (step_ != Step::kSurplus && surplus_offset_ != 0) fail("Surplus offset out of step");
  for (int slot = 0; slot < kMaxRocketSlots; ++slot)
    if (advance_eligible(slot) &&
        (!rocket(turn_player_, slot).exists() || rocket(turn_player_, slot).zone == kLaunchZone))
      fail("a slot eligible to advance holds no advanceable rocket");
  if (truncated_ && step_ != Step::kGameOver) fail("truncated but not over");
  if (decisions_ < 0 || decisions_ > kMaxDecisions) fail("bad decision count");
}

// ---------------------------------------------------------------- hidden information

// Opponents' hands and the draw pile are hidden (ruling 20): their cards are
// pooled and dealt again at random, keeping every hand size and the draw pile
// size. The Launch Pad cards stay in the draw pile, at random places within
// the bottom part where they are known to lie.
void State::redeterminize(int viewer, Rng& rng) {
  std::array<uint8_t, kMaxCards> pool{};
  int n = 0;
  for (int seat = 0; seat < num_players_; ++seat) {
    if (seat == viewer) continue;
    for (int t = 0; t < kNumCardTypes; ++t)
      for (int k = 0; k < area(seat).hand[static_cast<std::size_t>(t)]; ++k)
        pool[static_cast<std::size_t>(n++)] = static_cast<uint8_t>(t);
  }
  int pads = 0;
  for (int i = 0; i < draw_size_; ++i) {
    const uint8_t c = draw_pile_[static_cast<std::size_t>(i)];
    if (c == kLaunchPad)
      ++pads;
    else
      pool[static_cast<std::size_t>(n++)] = c;
  }
  rng.shuffle(pool.begin(), pool.begin() + n);
  int next = 0;
  for (int seat = 0; seat < num_players_; ++seat) {
    if (seat == viewer) continue;
    PlayerArea& p = area_mut(seat);
    const int size = p.hand_size;
    p.hand = {};
    p.hand_size = 0;
    for (int k = 0; k < size; ++k) give_to_hand(seat, pool[static_cast<std::size_t>(next++)]);
  }
  // Choose the Launch Pad positions among the bottom `launch_pad_region_` cards.
  std::array<uint8_t, kMaxCards> positions{};
  for (int i = 0; i < launch_pad_region_; ++i)
    positions[static_cast<std::size_t>(i)] = static_cast<uint8_t>(i);
  std::array<bool, kMaxCards> is_pad{};
  for (int k = 0; k < pads; ++k) {
    const int j = k + static_cast<int>(rng.below(static_cast<uint32_t>(launch_pad_region_ - k)));
    std::swap(positions[static_cast<std::size_t>(k)], positions[static_cast<std::size_t>(j)]);
    is_pad[positions[static_cast<std::size_t>(k)]] = true;
  }
  for (int i = 0; i < draw_size_; ++i)
    draw_pile_[static_cast<std::size_t>(i)] = is_pad[static_cast<std::size_t>(i)]
                                                  ? static_cast<uint8_t>(kLaunchPad)
                                                  : pool[static_cast<std::size_t>(next++)];
  rng_.reseed(rng.next());
}

// ---------------------------------------------------------------- text

namespace {

std::string hand_text(const PlayerArea& p) {
  std::string out;
  for (int t = 0; t < kNumCardTypes; ++t) {
    const int k = p.hand[static_cast<std::size_t>(t)];
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
std::string State::to_string() const {
  std::ostringstream os;
  os << "Launch Pad: " << num_players_ << " players, turn of player " << turn_player_ << ", step "
     << step_key(step_) << (truncated_ ? " (truncated)" : "") << ", decision " << decisions_ << "\n";
  os << "Launch Pad area " << launch_pad_area_ << "/" << config_->count[kLaunchPad];
  if (countdown_) os << "  COUNTDOWN: " << final_turns_left_ << " turns after this one";
  os << " | draw pile " << draw_size_;
  if (launch_pads_aside_ > 0) os << " (+" << launch_pads_aside_ << " Launch Pad cards aside)";
  os << " | discard pile " << discard_size_;
  if (discard_size_ > 0) os << ", top " << card_name(discard_top());
  os << "\n";
  const int to_move = current_player();
  for (int seat = 0; seat < num_players_; ++seat) {
    const PlayerArea& p = area(seat);
    os << "Player " << seat << (seat == to_move ? " (to move)" : "") << ": score " << score(seat) << ", hand "
       << p.hand_size << "/" << hand_limit(seat);
    if (seat == to_move) os << ": " << hand_text(p);
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
  if (step_ == Step::kChooseTop) {
    os << "To discard:";
    for (int t = 0; t < kNumCardTypes; ++t)
      if (staged_[static_cast<std::size_t>(t)] > 0)
        os << " " << card_name(t) << " x" << int{staged_[static_cast<std::size_t>(t)]};
    os << "\n";
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
  return std::string("put ") + card_name(d.a) + " on top of the discard pile";
}

}  // namespace rocketgym::launch_pad
