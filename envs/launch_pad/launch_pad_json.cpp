// Launch Pad: JSON documents, read strictly (every refusal names the field) and
// checked as a whole (check_invariants: launch_pad_invariants.cpp).
#include <algorithm>
#include <string_view>

#include "envs/core/quoted.h"
#include "envs/launch_pad/launch_pad.h"

namespace rocketgym::launch_pad {
namespace {

constexpr const char* kStepKeys[kNumSteps] = {"advance", "draw_choice", "play",    "choose_top",
                                              "surplus", "offer",       "discard", "game_over"};

// ---------------------------------------------------------------- reading, strictly, naming the field

[[noreturn]] void bad(const std::string& field, const std::string& reason) {
  throw SerializationError("launch_pad state document: '" + field + "': " + reason);
}

std::string member(std::string_view path, std::string_view key) {
  std::string out(path);
  if (!out.empty()) out += '.';
  return out.append(key);
}
std::string element(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

// The functions that return a reference into the document take the path as a
// string_view: gcc 13 warns (-Wdangling-reference) when such a function gets a
// temporary std::string, although the reference is into the document.
const Json& field(const Json& obj, std::string_view path, const char* key) {
  if (!obj.is_object()) bad(std::string(path), "must be an object");
  const auto it = obj.find(key);
  if (it == obj.end()) bad(member(path, key), "missing");
  return *it;
}

int int_value(const Json& j, const std::string& path, int lo, int hi) {
  if (!j.is_number_integer()) bad(path, std::string("must be an integer, not ") + j.type_name());
  int64_t v = 0;
  if (j.is_number_unsigned()) {
    const uint64_t u = j.get<uint64_t>();
    v = u > static_cast<uint64_t>(hi) ? int64_t{hi} + 1 : static_cast<int64_t>(u);
  } else {
    v = j.get<int64_t>();
  }
  if (v < lo || v > hi) bad(path, "is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(v);
}

int int_field(const Json& obj, const std::string& path, const char* key, int lo, int hi) {
  return int_value(field(obj, path, key), member(path, key), lo, hi);
}

bool bool_field(const Json& obj, const std::string& path, const char* key) {
  const Json& j = field(obj, path, key);
  if (!j.is_boolean()) bad(member(path, key), std::string("must be true or false, not ") + j.type_name());
  return j.get<bool>();
}

const Json& list_field(const Json& obj, std::string_view path, const char* key) {
  const Json& j = field(obj, path, key);
  if (!j.is_array()) bad(member(path, key), "must be a list");
  return j;
}

const Json& object_field(const Json& obj, std::string_view path, const char* key) {
  const Json& j = field(obj, path, key);
  if (!j.is_object()) bad(member(path, key), "must be an object");
  return j;
}

int card_value(const Json& j, const std::string& path) {
  if (!j.is_string()) bad(path, std::string("must be a card name, not ") + j.type_name());
  const int c = card_from_key(j.get<std::string>());
  if (c < 0) bad(path, "unknown card " + quote(j.get<std::string>()));
  return c;
}

Json card_counts_to_json(const std::array<uint8_t, kNumCardTypes>& counts) {
  Json out = Json::object();
  for (int t = 0; t < kNumCardTypes; ++t)
    if (counts[static_cast<std::size_t>(t)] > 0) out[card_key(t)] = counts[static_cast<std::size_t>(t)];
  return out;
}

// {card: count}; a count of 0 is allowed and means none.
std::array<uint8_t, kNumCardTypes> card_counts_from_json(const Json& j, const std::string& path) {
  if (!j.is_object()) bad(path, "must be an object {card: count}");
  std::array<uint8_t, kNumCardTypes> counts{};
  for (auto it = j.begin(); it != j.end(); ++it) {
    const int c = card_from_key(it.key());
    if (c < 0) bad(path, "unknown card " + quote(it.key()));
    counts[static_cast<std::size_t>(c)] =
        static_cast<uint8_t>(int_value(it.value(), member(path, it.key()), 0, kMaxCards));
  }
  return counts;
}

template <std::size_t N>
int card_list_from_json(const Json& j, const std::string& path, std::array<uint8_t, N>& out) {
  if (!j.is_array()) bad(path, "must be a list of card names");
  if (j.size() > N)
    bad(path, "holds " + std::to_string(j.size()) + " cards, more than the " + std::to_string(N) +
                  " a pile may hold");
  int n = 0;
  for (const Json& c : j) {
    out[static_cast<std::size_t>(n)] =
        static_cast<uint8_t>(card_value(c, element(path, static_cast<std::size_t>(n))));
    ++n;
  }
  return n;
}

Step step_from_json(const Json& j) {
  if (!j.is_string()) bad("step", std::string("must be a step name, not ") + j.type_name());
  const std::string key = j.get<std::string>();
  const auto* found =
      std::find_if(std::begin(kStepKeys), std::end(kStepKeys), [&](const char* k) { return key == k; });
  if (found == std::end(kStepKeys)) bad("step", "unknown step " + quote(key));
  return static_cast<Step>(found - std::begin(kStepKeys));
}

// ---------------------------------------------------------------- one player's cards

void read_experts(const Json& z, const std::string& path, PlayerArea& p) {
  const Json& experts = object_field(z, path, "experts");
  for (auto it = experts.begin(); it != experts.end(); ++it) {
    const std::string where = member(member(path, "experts"), it.key());
    const int zone = zone_from_key(it.key());
    if (zone < 0) bad(where, "unknown zone " + quote(it.key()));
    const int card = card_value(it.value(), where);
    if (card != kJackOfAllTrades && card != kEngineer + zone)
      bad(where, std::string(card_name(card)) + " cannot be the expert of the " + zone_name(zone));
    p.expert[static_cast<std::size_t>(zone)] = static_cast<int8_t>(card);
  }
}

void read_launch_pads(const Json& z, const std::string& path, const Config& config, PlayerArea& p) {
  const Json& pads = list_field(z, path, "launch_pads");
  const std::string where = member(path, "launch_pads");
  if (pads.size() != kNumZones) bad(where, "must list 3 counts, one per zone");
  for (int zone = 0; zone < kNumZones; ++zone) {
    const int n = int_value(pads[static_cast<std::size_t>(zone)],
                            element(where, static_cast<std::size_t>(zone)), 0, config.count[kLaunchPad]);
    if (config.short_game && n > 0) bad(where, "short game: Launch Pad cards never wait in a zone");
    p.launch_pads[static_cast<std::size_t>(zone)] = static_cast<uint8_t>(n);
  }
}

void read_specialties(const Json& z, const std::string& path, const Config& config, PlayerArea& p) {
  const Json& specialties = list_field(z, path, "specialties");
  const std::string where = member(path, "specialties");
  for (std::size_t i = 0; i < specialties.size(); ++i) {
    const int card = card_value(specialties[i], element(where, i));
    if (!is_specialty(card))
      bad(element(where, i), std::string(card_name(card)) + " is not a Specialty card");
    ++p.specialties[static_cast<std::size_t>(specialty_index(card))];
  }
  if (!config.super_powers && p.num_specialties() > 1)
    bad(where, "only one Specialty card may be in play (ruling 18) unless super_powers is on");
}

Rocket read_rocket(const Json& r, const std::string& path, const Config& config) {
  Rocket rocket;
  const int kind = card_value(field(r, path, "kind"), member(path, "kind"));
  if (!is_rocket(kind)) bad(member(path, "kind"), std::string(card_name(kind)) + " is not a rocket");
  const Json& zone_json = field(r, path, "zone");
  const int zone = zone_json.is_string() ? zone_from_key(zone_json.get<std::string>()) : -1;
  if (zone < 0) bad(member(path, "zone"), "must be a zone name");
  const RocketSpec& spec = config.rocket[static_cast<std::size_t>(kind)];
  rocket.kind = static_cast<int8_t>(kind);
  rocket.zone = static_cast<int8_t>(zone);
  rocket.metal = static_cast<uint8_t>(int_field(r, path, "metal", 0, spec.metal));
  rocket.fuel = static_cast<uint8_t>(int_field(r, path, "fuel", 0, spec.fuel));
  if (zone != kConstructionZone && (rocket.metal < spec.metal || rocket.fuel < spec.fuel))
    bad(path, "an incomplete rocket cannot have left the Construction Zone");
  const Json& bonuses = list_field(r, path, "bonuses");
  for (std::size_t i = 0; i < bonuses.size(); ++i) {
    const std::string where = element(member(path, "bonuses"), i);
    const int card = card_value(bonuses[i], where);
    if (!is_bonus(card)) bad(where, std::string(card_name(card)) + " is not a Bonus card");
    if (rocket.has_bonus(card)) bad(where, std::string("a second ") + card_name(card) + " on one rocket");
    const int home = card == kQualityCertificate ? kQualityControlZone : kLaunchZone;
    if (zone < home || (card != kQualityCertificate && zone != kLaunchZone))
      bad(where, std::string(card_name(card)) + " cannot be on a rocket in the " + zone_name(zone));
    rocket.bonuses |= static_cast<uint8_t>(1u << bonus_index(card));
  }
  return rocket;
}

void read_rockets(const Json& z, const std::string& path, const Config& config, PlayerArea& p) {
  const Json& rockets = list_field(z, path, "rockets");
  for (std::size_t i = 0; i < rockets.size(); ++i) {
    const std::string where = element(member(path, "rockets"), i);
    const int slot = int_field(rockets[i], where, "slot", 0, kMaxRocketSlots - 1);
    Rocket& rocket = p.rockets[static_cast<std::size_t>(slot)];
    if (rocket.exists()) bad(member(where, "slot"), "two rockets in slot " + std::to_string(slot));
    rocket = read_rocket(rockets[i], where, config);
  }
}

PlayerArea player_from_json(const Json& hand, const Json& zones, int seat, const Config& config) {
  PlayerArea p;
  const std::string hand_path = element("hands", static_cast<std::size_t>(seat));
  p.hand = card_counts_from_json(hand, hand_path);
  if (p.hand[kLaunchPad] > 0) bad(hand_path, "a Launch Pad card is never held in a hand");
  for (int c : p.hand) p.hand_size += c;
  const std::string path = element("zones", static_cast<std::size_t>(seat));
  if (!zones.is_object()) bad(path, "must be an object");
  read_experts(zones, path, p);
  read_launch_pads(zones, path, config, p);
  read_specialties(zones, path, config, p);
  read_rockets(zones, path, config, p);
  return p;
}

// Knowledge of a place never exceeds what the place holds.
void check_known_within(const std::array<uint8_t, kNumCardTypes>& known,
                        const std::array<uint8_t, kNumCardTypes>& held, const std::string& where,
                        const char* place) {
  for (int t = 0; t < kNumCardTypes; ++t)
    if (known[static_cast<std::size_t>(t)] > held[static_cast<std::size_t>(t)])
      bad(member(where, card_key(t)), "knows of " + std::to_string(known[static_cast<std::size_t>(t)]) + " " +
                                          card_name(t) + " but " + place + " holds " +
                                          std::to_string(held[static_cast<std::size_t>(t)]));
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
  Json order = Json::array();
  for (int i = 0; i < ordered_size_; ++i) order.push_back(card_key(ordered_[static_cast<std::size_t>(i)]));
  doc["discard_order"] = order;  // top first
  // knowledge[v]: the cards seat v knows to be in each other hand and in the
  // draw pile (its own hand is left empty; Launch Pad cards are not listed),
  // and the deck as v follows it: its cards v cannot place, the unseen draws
  // in each hand, the deck cards v lost track of, the recycled cards it
  // follows and how many cards went into each hand unseen since it does.
  Json knowledge = Json::array();
  for (int v = 0; v < num_players_; ++v) {
    Json hands_known = Json::array();
    for (int seat = 0; seat < num_players_; ++seat)
      hands_known.push_back(
          card_counts_to_json(known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(seat)]));
    Json in_hands = Json::array(), fresh_in_hands = Json::array();
    for (int seat = 0; seat < num_players_; ++seat) {
      in_hands.push_back(deck_in_hand(v, seat));
      fresh_in_hands.push_back(deck_fresh_in_hand(v, seat));
    }
    knowledge.push_back(
        {{"hands", hands_known},
         {"draw_pile", card_counts_to_json(known_[static_cast<std::size_t>(v)][kPlaceDrawPile])},
         {"deck",
          {{"cards", card_counts_to_json(deck_[static_cast<std::size_t>(v)])},
           {"in_hands", in_hands},
           {"untracked", deck_untracked(v)},
           {"recycled", card_counts_to_json(deck_recycled_[static_cast<std::size_t>(v)])},
           {"fresh_in_hands", fresh_in_hands}}}});
  }
  doc["knowledge"] = knowledge;
  doc["decisions"] = decisions_;
  doc["truncated"] = truncated_;
  doc["rng"] = rng_to_json(rng_);
  return doc;
}

// Reads a document written by to_json (or by hand) and refuses, naming the
// field, anything that is not a position of the game: every value in range,
// no repeats, every card of the deck in exactly one place, the step and its
// pending decision in agreement, a player to move with something to do.
// "knowledge" may be left out (documents older than it): nobody knows
// anything beyond their own hand and the table then. So may each seat's
// "deck": the seat then follows the deck from scratch (every card it cannot
// place is a deck card). So may "discard_order"
// (likewise): no card's place in the discard order is chosen yet.
State State::from_json(const Json& doc, const Config& config) {
  if (!doc.is_object()) bad("(document)", "must be a JSON object");
  const Json& game = field(doc, "", "game");
  if (!game.is_string() || game.get<std::string>() != "launch_pad") bad("game", "must be \"launch_pad\"");
  State s(config, 2, 0);
  s.players_ = {};
  s.known_ = {};
  s.start_new_deck();
  s.num_players_ = int_field(doc, "", "players", 2, kMaxPlayers);
  const int n = s.num_players_;
  s.turn_player_ = int_field(doc, "", "turn", 0, n - 1);
  s.step_ = step_from_json(field(doc, "", "step"));
  const Json& hands = list_field(doc, "", "hands");
  const Json& zones = list_field(doc, "", "zones");
  if (hands.size() != static_cast<std::size_t>(n)) bad("hands", "needs one entry per player");
  if (zones.size() != static_cast<std::size_t>(n)) bad("zones", "needs one entry per player");
  for (int seat = 0; seat < n; ++seat)
    s.area_mut(seat) = player_from_json(hands[static_cast<std::size_t>(seat)],
                                        zones[static_cast<std::size_t>(seat)], seat, config);
  s.draw_size_ = card_list_from_json(field(doc, "", "draw_pile"), "draw_pile", s.draw_pile_);
  s.discard_size_ = card_list_from_json(field(doc, "", "discard_pile"), "discard_pile", s.discard_pile_);
  for (int i = 0; i < s.discard_size_; ++i)
    if (s.discard_pile_[static_cast<std::size_t>(i)] == kLaunchPad)
      bad(element("discard_pile", static_cast<std::size_t>(i)), "a Launch Pad card is never discarded");
  const int pads = config.count[kLaunchPad];
  s.launch_pad_area_ = int_field(doc, "", "launch_pad_area", 0, pads);
  s.launch_pads_aside_ = int_field(doc, "", "launch_pads_aside", 0, config.long_game ? pads : 0);
  s.launch_pad_region_ = int_field(doc, "", "launch_pad_region", 0, s.draw_size_);
  s.countdown_ = bool_field(doc, "", "countdown");
  s.final_turns_left_ = int_field(doc, "", "final_turns_left", 0, n);
  s.redraw_used_ = bool_field(doc, "", "redraw_used");
  s.read_turn_bookkeeping(doc);
  s.staged_ = card_counts_from_json(field(doc, "", "staged"), "staged");
  if (s.staged_[kLaunchPad] > 0) bad("staged", "a Launch Pad card is never discarded");
  if (doc.contains("discard_order")) s.read_discard_order(doc["discard_order"]);
  s.decisions_ = int_field(doc, "", "decisions", 0, kMaxDecisions);
  s.truncated_ = bool_field(doc, "", "truncated");
  try {
    s.rng_ = rng_from_json(field(doc, "", "rng"));
  } catch (const SerializationError& e) {
    bad("rng", e.what());
  }
  if (doc.contains("knowledge"))
    s.read_knowledge(doc["knowledge"]);
  else
    for (int v = 0; v < n; ++v) s.deck_from_scratch(v);
  s.validate_loaded();
  return s;
}

// advance_eligible, advanced_from, surplus_offset, offer.
void State::read_turn_bookkeeping(const Json& doc) {
  const Json& eligible = list_field(doc, "", "advance_eligible");
  advance_eligible_ = 0;
  for (std::size_t i = 0; i < eligible.size(); ++i) {
    const int slot = int_value(eligible[i], element("advance_eligible", i), 0, kMaxRocketSlots - 1);
    if (advance_eligible(slot))
      bad(element("advance_eligible", i), "slot " + std::to_string(slot) + " is listed twice");
    advance_eligible_ |= 1u << slot;
  }
  const Json& advanced = list_field(doc, "", "advanced_from");
  if (advanced.size() != 2) bad("advanced_from", "must list 2 counts (Construction, Quality Control)");
  for (std::size_t z = 0; z < 2; ++z)
    advanced_from_[z] = static_cast<uint8_t>(int_value(advanced[z], element("advanced_from", z), 0, 2));
  surplus_offset_ = int_field(doc, "", "surplus_offset", 0, num_players_ - 1);
  const Json& offer = field(doc, "", "offer");
  offer_to_ = offer_card_ = -1;
  if (!offer.is_null()) {
    if (!config_->negotiations) bad("offer", "offers exist only with the negotiations variant");
    offer_to_ = int_field(offer, "offer", "to", 0, num_players_ - 1);
    if (offer_to_ == turn_player_) bad("offer.to", "a player cannot offer a card to themself");
    offer_card_ = card_value(field(offer, "offer", "card"), "offer.card");
    if (offer_card_ == kLaunchPad) bad("offer.card", "a Launch Pad card is never held, so never offered");
  }
}

// discard_order: the cards whose place on the discard pile is chosen, top first.
void State::read_discard_order(const Json& j) {
  ordered_size_ = card_list_from_json(j, "discard_order", ordered_);
  for (int i = 0; i < ordered_size_; ++i)
    if (ordered_[static_cast<std::size_t>(i)] == kLaunchPad)
      bad(element("discard_order", static_cast<std::size_t>(i)), "a Launch Pad card is never discarded");
}

// knowledge: one entry per seat, {"hands": [{card: count} per seat], "draw_pile": {card: count}}.
void State::read_knowledge(const Json& j) {
  if (!j.is_array() || j.size() != static_cast<std::size_t>(num_players_))
    bad("knowledge", "needs one entry per player");
  std::array<uint8_t, kNumCardTypes> in_draw{};
  for (int i = 0; i < draw_size_; ++i) ++in_draw[draw_pile_[static_cast<std::size_t>(i)]];
  for (int v = 0; v < num_players_; ++v) {
    const std::string path = element("knowledge", static_cast<std::size_t>(v));
    const Json& hands = list_field(j[static_cast<std::size_t>(v)], path, "hands");
    if (hands.size() != static_cast<std::size_t>(num_players_))
      bad(member(path, "hands"), "needs one entry per player");
    auto& known = known_[static_cast<std::size_t>(v)];
    for (int seat = 0; seat < num_players_; ++seat) {
      const std::string where = element(member(path, "hands"), static_cast<std::size_t>(seat));
      known[static_cast<std::size_t>(seat)] =
          card_counts_from_json(hands[static_cast<std::size_t>(seat)], where);
      if (seat == v && known[static_cast<std::size_t>(seat)] != std::array<uint8_t, kNumCardTypes>{})
        bad(where, "must be empty: a seat knows its own hand by holding it");
      check_known_within(known[static_cast<std::size_t>(seat)], area(seat).hand, where, "that hand");
    }
    const std::string where = member(path, "draw_pile");
    known[kPlaceDrawPile] =
        card_counts_from_json(field(j[static_cast<std::size_t>(v)], path, "draw_pile"), where);
    if (known[kPlaceDrawPile][kLaunchPad] > 0)
      bad(where, "Launch Pad cards in the draw pile are counted from the table, not listed here");
    check_known_within(known[kPlaceDrawPile], in_draw, where, "the draw pile");
  }
  // The decks last: following the deck from scratch reads what v names in every hand.
  for (int v = 0; v < num_players_; ++v) {
    const Json& entry = j[static_cast<std::size_t>(v)];
    if (entry.contains("deck"))
      read_deck_knowledge(v, entry["deck"],
                          member(element("knowledge", static_cast<std::size_t>(v)), "deck"));
    else
      deck_from_scratch(v);
  }
}

// knowledge[v].deck: {"cards": {card: count}, "in_hands": [count per seat], "untracked": count,
// "recycled": {card: count}, "fresh_in_hands": [count per seat]}.
void State::read_deck_knowledge(int viewer, const Json& j, const std::string& path) {
  const auto v = static_cast<std::size_t>(viewer);
  deck_[v] = card_counts_from_json(field(j, path, "cards"), member(path, "cards"));
  if (deck_[v][kLaunchPad] > 0)
    bad(member(path, "cards"),
        "Launch Pad cards in the draw pile are counted from the table, not listed here");
  const Json& in_hands = list_field(j, path, "in_hands");
  if (in_hands.size() != static_cast<std::size_t>(num_players_))
    bad(member(path, "in_hands"), "needs one entry per player");
  for (int seat = 0; seat < num_players_; ++seat) {
    const std::string where = element(member(path, "in_hands"), static_cast<std::size_t>(seat));
    const int n = int_value(in_hands[static_cast<std::size_t>(seat)], where, 0, area(seat).hand_size);
    if (seat == viewer && n > 0) bad(where, "must be 0: a seat sees its own draws");
    deck_in_hand_[v][static_cast<std::size_t>(seat)] = static_cast<uint8_t>(n);
  }
  deck_untracked_[v] = static_cast<uint8_t>(int_field(j, path, "untracked", 0, kMaxCards));
  // "recycled" and "fresh_in_hands" may be left out (documents older than them): none.
  deck_recycled_[v] = {};
  deck_fresh_in_hand_[v] = {};
  if (j.contains("recycled"))
    deck_recycled_[v] = card_counts_from_json(j["recycled"], member(path, "recycled"));
  if (j.contains("fresh_in_hands")) {
    const Json& fresh = list_field(j, path, "fresh_in_hands");
    if (fresh.size() != static_cast<std::size_t>(num_players_))
      bad(member(path, "fresh_in_hands"), "needs one entry per player");
    for (int seat = 0; seat < num_players_; ++seat) {
      const std::string where = element(member(path, "fresh_in_hands"), static_cast<std::size_t>(seat));
      const int n = int_value(fresh[static_cast<std::size_t>(seat)], where, 0, 255);
      if (seat == viewer && n > 0) bad(where, "must be 0: a seat sees what goes into its own hand");
      deck_fresh_in_hand_[v][static_cast<std::size_t>(seat)] = static_cast<uint8_t>(n);
    }
  }
  try {
    check_deck_invariants(viewer);
  } catch (const InvariantViolation& e) {
    bad(path, e.what());
  }
}

// The checks that tie fields together (the game's clock, the step and its
// pending decision, hand sizes), then the invariants (card conservation), then
// that the player to move has something to do.
void State::validate_loaded() const {
  validate_hand_sizes();
  validate_game_clock();
  validate_pending_decision();
  try {
    check_invariants();
  } catch (const InvariantViolation& e) {
    bad("(position)", std::string("impossible position: ") + e.what());
  }
  if (step_ != Step::kGameOver) {
    std::array<uint8_t, act::kNumActions> mask{};
    legal_actions_mask(mask.data());
    if (std::find(mask.begin(), mask.end(), uint8_t{1}) == mask.end())
      bad("step", std::string("the player to move has no legal action in step ") + step_key(step_));
  }
}

// The decision count, truncation, the Launch Pad cards and the Countdown.
void State::validate_game_clock() const {
  const bool live = step_ != Step::kGameOver;
  if (truncated_ && live) bad("truncated", "a truncated game is over: step must be \"game_over\"");
  if (live && decisions_ >= kMaxDecisions)
    bad("decisions", "a live game has made fewer than " + std::to_string(kMaxDecisions) + " decisions");
  if (truncated_ && decisions_ != kMaxDecisions)
    bad("decisions", "a truncated game stopped at " + std::to_string(kMaxDecisions) + " decisions");
  if (!live && !truncated_ && !(countdown_ && final_turns_left_ == 0))
    bad("step", "a game is over only after the Countdown's last turn (or when truncated)");
  if (countdown_ != (launch_pad_area_ == config_->count[kLaunchPad]))
    bad("countdown", "the Countdown runs exactly when all Launch Pad cards are on the Launch Pad area");
  if (!countdown_ && final_turns_left_ != 0)
    bad("final_turns_left", "final turns come only with the Countdown");
  if (launch_pads_aside_ > 0 && launch_pads_aside_ != config_->count[kLaunchPad])
    bad("launch_pads_aside", "long game: the Launch Pad cards are aside all together or not at all");
}

// Each step's own bookkeeping, and none outside it.
void State::validate_pending_decision() const {
  const PlayerArea& me = area(turn_player_);
  const bool turn_start = step_ == Step::kAdvance || step_ == Step::kDrawChoice;
  if (turn_start && redraw_used_) bad("redraw_used", "step 5 cannot have happened before step 4");
  if (step_ != Step::kAdvance && advance_eligible_ != 0)
    bad("advance_eligible", "rockets are eligible to advance only during step 2 (\"advance\")");
  if (step_ == Step::kAdvance) validate_advance_step();
  if (step_ == Step::kDrawChoice) {
    if (me.hand_size >= hand_limit(turn_player_)) bad("step", "draw_choice: the hand is already full");
    if (discard_size_ == 0)
      bad("step", "draw_choice: the discard pile is empty, there is no top card to take");
  }
  int staged_kinds = 0;
  for (int t = 0; t < kNumCardTypes; ++t) staged_kinds += staged_[static_cast<std::size_t>(t)] > 0;
  if (step_ == Step::kChooseTop && staged_kinds < 2)
    bad("staged", "step choose_top needs two kinds of cards or more waiting for their order");
  if (step_ != Step::kChooseTop && step_ != Step::kSurplus && staged_kinds > 0)
    bad("staged", "cards wait for the discard order only in steps choose_top and surplus");
  if (step_ != Step::kChooseTop && ordered_size_ > 0)
    bad("discard_order", "cards are put in order only in step choose_top (after Surplus has gone round)");
  if (step_ != Step::kSurplus && surplus_offset_ != 0)
    bad("surplus_offset", "must be 0 outside step \"surplus\"");
  if (step_ == Step::kSurplus && area(seat_at(surplus_offset_)).hand_size == 0)
    bad("surplus_offset", "Surplus asks a player with an empty hand");
  if ((step_ == Step::kOffer) != (offer_to_ >= 0))
    bad("offer", "an offer waits exactly during step \"offer\"");
  if (offer_to_ >= 0 && area(offer_to_).hand_size >= hand_limit(offer_to_))
    bad("offer.to", "a card is offered only to a player who may accept it");
}

// Step 2: every listed rocket was eligible at its start (complete, the zone's
// expert in place, not yet in the Launch Zone) and some rocket can still go.
void State::validate_advance_step() const {
  const PlayerArea& me = area(turn_player_);
  const int quota = me.has_specialty(kOvertime) ? 2 : 1;
  for (int z = 0; z < 2; ++z)
    if (advanced_from_[static_cast<std::size_t>(z)] > quota)
      bad(element("advanced_from", static_cast<std::size_t>(z)),
          "more rockets advanced than the zone allows");
  bool any = false;
  for (int slot = 0; slot < kMaxRocketSlots; ++slot) {
    if (!advance_eligible(slot)) continue;
    const Rocket& r = rocket(turn_player_, slot);
    if (!r.exists() || r.zone == kLaunchZone || !rocket_complete(r) ||
        me.expert[static_cast<std::size_t>(r.zone)] < 0)
      bad("advance_eligible",
          "slot " + std::to_string(slot) + " holds no rocket that may advance (ruling 5)");
    any = any || can_advance(slot);
  }
  if (!any) bad("advance_eligible", "step 2 goes on only while some rocket can still advance");
}

// Outside their own turn, a player holds no more than a hand limit allows
// (the larger one: a Warehouse lost to Budget Cuts leaves 8 cards); so does
// the turn player before drawing.
void State::validate_hand_sizes() const {
  const int most = std::max(config_->hand_limit, config_->warehouse_hand_limit);
  for (int seat = 0; seat < num_players_; ++seat) {
    const bool turn_under_way = seat == turn_player_ && step_ != Step::kAdvance && step_ != Step::kDrawChoice;
    if (!turn_under_way && area(seat).hand_size > most)
      bad(element("hands", static_cast<std::size_t>(seat)),
          std::to_string(area(seat).hand_size) + " cards: more than any hand limit allows here");
  }
}

}  // namespace rocketgym::launch_pad
