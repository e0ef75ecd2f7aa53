// Launch Pad: JSON documents, text, invariants and redeterminization.
#include <algorithm>
#include <sstream>
#include <string_view>

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
  if (!j.is_number_integer()) bad(path, "must be an integer, not " + j.dump());
  int64_t v = 0;
  if (j.is_number_unsigned()) {
    const uint64_t u = j.get<uint64_t>();
    v = u > static_cast<uint64_t>(hi) ? int64_t{hi} + 1 : static_cast<int64_t>(u);
  } else {
    v = j.get<int64_t>();
  }
  if (v < lo || v > hi)
    bad(path, j.dump() + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(v);
}

int int_field(const Json& obj, const std::string& path, const char* key, int lo, int hi) {
  return int_value(field(obj, path, key), member(path, key), lo, hi);
}

bool bool_field(const Json& obj, const std::string& path, const char* key) {
  const Json& j = field(obj, path, key);
  if (!j.is_boolean()) bad(member(path, key), "must be true or false, not " + j.dump());
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
  if (!j.is_string()) bad(path, "must be a card name, not " + j.dump());
  const int c = card_from_key(j.get<std::string>());
  if (c < 0) bad(path, "unknown card '" + j.get<std::string>() + "'");
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
    if (c < 0) bad(path, "unknown card '" + it.key() + "'");
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
  if (!j.is_string()) bad("step", "must be a step name, not " + j.dump());
  const std::string key = j.get<std::string>();
  const auto* found =
      std::find_if(std::begin(kStepKeys), std::end(kStepKeys), [&](const char* k) { return key == k; });
  if (found == std::end(kStepKeys)) bad("step", "unknown step '" + key + "'");
  return static_cast<Step>(found - std::begin(kStepKeys));
}

// ---------------------------------------------------------------- one player's cards

void read_experts(const Json& z, const std::string& path, PlayerArea& p) {
  const Json& experts = object_field(z, path, "experts");
  for (auto it = experts.begin(); it != experts.end(); ++it) {
    const std::string where = member(member(path, "experts"), it.key());
    const int zone = zone_from_key(it.key());
    if (zone < 0) bad(where, "unknown zone '" + it.key() + "'");
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
  if (zone < 0) bad(member(path, "zone"), "unknown zone " + zone_json.dump());
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
  if (ordered_size_ < 0 || ordered_size_ > kMaxCards) fail("bad discard order size");
  for (int i = 0; i < ordered_size_; ++i) ++seen[ordered_[static_cast<std::size_t>(i)]];
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
  // Cards wait for their discard order while Surplus goes round (any number)
  // and while their player chooses the top one (two kinds or more).
  int staged_kinds = 0;
  for (int t = 0; t < kNumCardTypes; ++t) staged_kinds += staged_[static_cast<std::size_t>(t)] > 0;
  if (step_ == Step::kChooseTop && staged_kinds < 2)
    fail("choosing the top discard with fewer than two kinds");
  if (step_ != Step::kChooseTop && step_ != Step::kSurplus && staged_kinds > 0)
    fail("staged discards out of step");
  if (staged_[kLaunchPad] > 0) fail("a Launch Pad card on its way to the discard pile");
  if (step_ != Step::kChooseTop && ordered_size_ > 0) fail("a discard order chosen out of step");
  for (int i = 0; i < ordered_size_; ++i)
    if (ordered_[static_cast<std::size_t>(i)] == kLaunchPad) fail("a Launch Pad card in the discard order");
  if ((step_ == Step::kOffer) != (offer_to_ >= 0)) fail("offer out of step");
  if (offer_to_ >= 0 && (offer_to_ == turn_player_ || offer_card_ < 0 || offer_card_ == kLaunchPad))
    fail("bad offer");
  if (step_ == Step::kSurplus && area(seat_at(surplus_offset_)).hand_size == 0)
    fail("Surplus asks an empty hand");
  if (step_ != Step::kSurplus && surplus_offset_ != 0) fail("Surplus offset out of step");
  if (step_ != Step::kAdvance && advance_eligible_ != 0) fail("rockets eligible to advance outside step 2");
  for (int slot = 0; slot < kMaxRocketSlots; ++slot) {
    if (!advance_eligible(slot)) continue;
    const Rocket& r = rocket(turn_player_, slot);
    if (!r.exists() || r.zone == kLaunchZone || !rocket_complete(r) ||
        area(turn_player_).expert[static_cast<std::size_t>(r.zone)] < 0)
      fail("a slot eligible to advance holds no advanceable rocket");
  }
  if (truncated_ && step_ != Step::kGameOver) fail("truncated but not over");
  if (decisions_ < 0 || decisions_ > kMaxDecisions) fail("bad decision count");
  check_knowledge_invariants();
}

namespace {

using Counts = std::array<int, kNumCardTypes>;  // as State::Counts

// Appends `counts[t]` copies of each type t to out[n...]; returns the new n.
int lay_out(const Counts& counts, std::array<uint8_t, kMaxCards>& out, int n) {
  for (int t = 0; t < kNumCardTypes; ++t)
    for (int k = 0; k < counts[static_cast<std::size_t>(t)]; ++k)
      out[static_cast<std::size_t>(n++)] = static_cast<uint8_t>(t);
  return n;
}

// The copies of each type that the deck holds beyond the hidden cards cannot be
// hidden: they are among the `untracked` deck cards and out of view now.
int deck_cards_out_of_view(const Counts& deck, const Counts& hidden) {
  int out = 0;
  for (int t = 0; t < kNumCardTypes; ++t)
    out += std::max(0, deck[static_cast<std::size_t>(t)] - hidden[static_cast<std::size_t>(t)]);
  return out;
}

// Takes the `untracked` cards out of `deck` (they may be anywhere): first the
// copies that cannot be hidden, then others at random.
void drop_untracked(Counts& deck, const Counts& hidden, int untracked, Rng& rng) {
  for (int t = 0; t < kNumCardTypes; ++t) {
    const int out = std::max(0, deck[static_cast<std::size_t>(t)] - hidden[static_cast<std::size_t>(t)]);
    deck[static_cast<std::size_t>(t)] -= out;
    untracked -= out;
  }
  std::array<uint8_t, kMaxCards> cards{};
  const int n = lay_out(deck, cards, 0);
  for (int k = 0; k < untracked && k < n; ++k) {
    const int j = k + static_cast<int>(rng.below(static_cast<uint32_t>(n - k)));
    std::swap(cards[static_cast<std::size_t>(k)], cards[static_cast<std::size_t>(j)]);
    --deck[cards[static_cast<std::size_t>(k)]];
  }
}

}  // namespace

// What a seat knows is true: never more copies than the place holds; nothing
// stored for its own hand, for seats not at the table, or for Launch Pad cards.
void State::check_knowledge_invariants() const {
  auto fail = [](const std::string& what) { throw InvariantViolation("launch_pad: knowledge: " + what); };
  std::array<uint8_t, kNumCardTypes> in_draw{};
  for (int i = 0; i < draw_size_; ++i) ++in_draw[draw_pile_[static_cast<std::size_t>(i)]];
  for (int v = 0; v < kMaxPlayers; ++v) {
    for (int place = 0; place < kNumHiddenPlaces; ++place) {
      const auto& known = known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(place)];
      const bool stored =
          v < num_players_ && place != kPlaceHand + v && (place == kPlaceDrawPile || place < num_players_);
      for (int t = 0; t < kNumCardTypes; ++t) {
        const int k = known[static_cast<std::size_t>(t)];
        if (k == 0) continue;
        if (!stored || t == kLaunchPad)
          fail("seat " + std::to_string(v) + " has knowledge recorded where none is kept");
        const int held = place == kPlaceDrawPile ? in_draw[static_cast<std::size_t>(t)]
                                                 : area(place).hand[static_cast<std::size_t>(t)];
        if (k > held)
          fail("seat " + std::to_string(v) + " knows of " + std::to_string(k) + " " + card_name(t) +
               " in a place that holds " + std::to_string(held));
      }
    }
    check_deck_invariants(v);
  }
}

// The deck as seat v follows it adds up: the pile's cards, the unseen draws
// (among the cards v does not name in each other hand) and the cards v lost
// track of, which include every copy the deck holds beyond what v cannot place.
void State::check_deck_invariants(int v) const {
  auto fail = [v](const std::string& what) {
    throw InvariantViolation("launch_pad: knowledge: seat " + std::to_string(v) + "'s deck: " + what);
  };
  const auto& deck = deck_[static_cast<std::size_t>(v)];
  const auto& draws = deck_in_hand_[static_cast<std::size_t>(v)];
  if (v >= num_players_) {
    if (deck != std::array<uint8_t, kNumCardTypes>{} || draws != std::array<uint8_t, kMaxPlayers>{} ||
        deck_untracked_[static_cast<std::size_t>(v)] != 0 ||
        deck_recycled_[static_cast<std::size_t>(v)] != std::array<uint8_t, kNumCardTypes>{} ||
        deck_fresh_in_hand_[static_cast<std::size_t>(v)] != std::array<uint8_t, kMaxPlayers>{})
      fail("recorded for a seat not at the table");
    return;
  }
  if (deck[kLaunchPad] > 0) fail("Launch Pad cards are counted from the table, not in the deck");
  for (int t = 0; t < kNumCardTypes; ++t)
    if (deck_recycled_[static_cast<std::size_t>(v)][static_cast<std::size_t>(t)] >
        deck[static_cast<std::size_t>(t)])
      fail(std::string("more recycled ") + card_name(t) + " than the deck holds");
  if (deck_fresh_in_hand_[static_cast<std::size_t>(v)][static_cast<std::size_t>(v)] > 0)
    fail("cards gone unseen into its own hand");
  int total = deck_untracked_[static_cast<std::size_t>(v)];
  for (int seat = 0; seat < kMaxPlayers; ++seat) {
    const int n = draws[static_cast<std::size_t>(seat)];
    if (n > 0 && (seat == v || seat >= num_players_))
      fail("unseen draws recorded in its own hand or no hand");
    if (n == 0) continue;
    int named = 0;
    for (uint8_t k : known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(kPlaceHand + seat)])
      named += k;
    if (named + n > area(seat).hand_size)
      fail("more unseen draws in player " + std::to_string(seat) +
           "'s hand than cards it does not name there");
    total += n;
  }
  Counts pile{};
  for (int i = 0; i < draw_size_; ++i) ++pile[draw_pile_[static_cast<std::size_t>(i)]];
  pile[kLaunchPad] = 0;
  int size = 0;
  for (int t = 0; t < kNumCardTypes; ++t) {
    if (pile[static_cast<std::size_t>(t)] > deck[static_cast<std::size_t>(t)])
      fail(std::string("the draw pile holds more ") + card_name(t) + " than the deck");
    total += pile[static_cast<std::size_t>(t)];
    size += deck[static_cast<std::size_t>(t)];
  }
  if (size != total)
    fail("holds " + std::to_string(size) + " cards, not the " + std::to_string(total) +
         " of the draw pile, the unseen draws and the untracked ones");
  Counts hidden{}, cards{};
  unplaced_cards(v, hidden, cards);
  if (deck_cards_out_of_view(cards, hidden) > deck_untracked_[static_cast<std::size_t>(v)])
    fail("holds cards that are neither hidden nor untracked");
}

// ---------------------------------------------------------------- hidden information

// What `viewer` cannot place, in the places it cannot see (ruling 20): the
// cards it does not name in the other hands and in the draw pile (Launch Pad
// cards aside). `deck`: the deck's cards among them as far as `viewer` follows
// it (the ones it lost track of still counted).
void State::unplaced_cards(int viewer, Counts& hidden, Counts& deck) const {
  const auto& known = known_[static_cast<std::size_t>(viewer)];
  hidden = {};
  for (int seat = 0; seat < num_players_; ++seat)
    if (seat != viewer)
      for (int t = 0; t < kNumCardTypes; ++t)
        hidden[static_cast<std::size_t>(t)] +=
            area(seat).hand[static_cast<std::size_t>(t)] -
            known[static_cast<std::size_t>(seat)][static_cast<std::size_t>(t)];
  for (int i = 0; i < draw_size_; ++i) ++hidden[draw_pile_[static_cast<std::size_t>(i)]];
  hidden[kLaunchPad] = 0;
  for (int t = 0; t < kNumCardTypes; ++t) {
    hidden[static_cast<std::size_t>(t)] -= known[kPlaceDrawPile][static_cast<std::size_t>(t)];
    deck[static_cast<std::size_t>(t)] = deck_[static_cast<std::size_t>(viewer)][static_cast<std::size_t>(t)] -
                                        known[kPlaceDrawPile][static_cast<std::size_t>(t)];
  }
}

// A resample of what `viewer` cannot see (ruling 20): the other hands and the
// draw pile. The copies `viewer` knows to be in a hand or in the draw pile
// (known_) stay there. Of the other cards of those places, the deck's (ruling
// 6: as `viewer` follows it, less the ones it lost track of) are dealt to the
// rest of the draw pile and to the other hands' unseen draws, and the others
// to the rest of those hands; each hand keeps its size, the pile its size. The
// recycled cards `viewer` follows are dealt first, to the pile or to the hands
// that took cards unseen since (ruling 16).
// The draw pile's order is new (nobody knows it), with the Launch Pad cards at
// random places within the bottom part where they are known to lie.
void State::redeterminize(int viewer, Rng& rng) {
  const auto& known = known_[static_cast<std::size_t>(viewer)];
  Counts hidden{}, deck{};
  unplaced_cards(viewer, hidden, deck);
  // The slots to fill: the pile's unknown cards, and per other hand its
  // unseen draws (deck cards) and its other unknown cards.
  int pile_free = draw_size_ - launch_pads_in_draw_pile();
  for (uint8_t k : known[kPlaceDrawPile]) pile_free -= k;
  std::array<int, kMaxPlayers> draws{}, others{}, fresh{};
  for (int seat = 0; seat < num_players_; ++seat) {
    if (seat == viewer) continue;
    const auto s = static_cast<std::size_t>(seat);
    int named = 0;
    for (uint8_t k : known[static_cast<std::size_t>(kPlaceHand + seat)]) named += k;
    draws[s] = deck_in_hand(viewer, seat);
    others[s] = area(seat).hand_size - named - draws[s];
    fresh[s] = std::min(deck_fresh_in_hand(viewer, seat), draws[s] + others[s]);
  }
  // The deck's copies beyond what can be hidden are among the cards `viewer`
  // lost track of, out of view now.
  int untracked = deck_untracked_[static_cast<std::size_t>(viewer)];
  for (int t = 0; t < kNumCardTypes; ++t) {
    const auto i = static_cast<std::size_t>(t);
    const int out = std::max(0, deck[i] - hidden[i]);
    deck[i] -= out;
    untracked -= out;
  }
  // First the recycled cards `viewer` cannot place (the copies it knows in
  // the pile count as recycled first): each into the pile or into a hand
  // that took cards unseen since, as one of those cards (a deck card in an
  // other unknown slot is one of the cards `viewer` lost track of).
  Counts placed_in_pile{};
  std::array<Counts, kMaxPlayers> placed_in_hand{};
  std::array<uint8_t, kMaxCards> recycled_pool{};
  Counts recycled{};
  for (int t = 0; t < kNumCardTypes; ++t) {
    const auto i = static_cast<std::size_t>(t);
    recycled[i] = std::min(
        deck[i], std::max(0, deck_recycled_[static_cast<std::size_t>(viewer)][i] - known[kPlaceDrawPile][i]));
  }
  const int num_recycled = lay_out(recycled, recycled_pool, 0);
  rng.shuffle(recycled_pool.begin(), recycled_pool.begin() + num_recycled);
  for (int r = 0; r < num_recycled; ++r) {
    const auto card = static_cast<std::size_t>(recycled_pool[static_cast<std::size_t>(r)]);
    std::array<int, kMaxPlayers> room{};
    int total = pile_free;
    for (int seat = 0; seat < num_players_; ++seat) {
      const auto s = static_cast<std::size_t>(seat);
      room[s] = std::min(fresh[s], draws[s] + (untracked > 0 ? others[s] : 0));
      total += room[s];
    }
    if (total == 0) break;  // (the counts say there is room: a card left here is dealt as a deck card)
    int pick = static_cast<int>(rng.below(static_cast<uint32_t>(total)));
    --deck[card];
    --hidden[card];
    if (pick < pile_free) {
      --pile_free;
      ++placed_in_pile[card];
      continue;
    }
    pick -= pile_free;
    int seat = 0;
    while (pick >= room[static_cast<std::size_t>(seat)]) pick -= room[static_cast<std::size_t>(seat++)];
    const auto s = static_cast<std::size_t>(seat);
    --fresh[s];
    ++placed_in_hand[s][card];
    if (draws[s] > 0) {
      --draws[s];
    } else {
      --others[s];
      --untracked;
    }
  }
  drop_untracked(deck, hidden, untracked, rng);
  Counts rest{};
  for (int t = 0; t < kNumCardTypes; ++t)
    rest[static_cast<std::size_t>(t)] =
        hidden[static_cast<std::size_t>(t)] - deck[static_cast<std::size_t>(t)];
  std::array<uint8_t, kMaxCards> deck_pool{}, other_pool{};
  const int num_deck = lay_out(deck, deck_pool, 0);
  const int num_other = lay_out(rest, other_pool, 0);
  rng.shuffle(deck_pool.begin(), deck_pool.begin() + num_deck);
  rng.shuffle(other_pool.begin(), other_pool.begin() + num_other);
  int next_deck = 0, next_other = 0;
  // Each other hand: the copies `viewer` knows, the recycled cards placed
  // there, its other unseen draws from the deck, the rest.
  for (int seat = 0; seat < num_players_; ++seat) {
    if (seat == viewer) continue;
    const auto s = static_cast<std::size_t>(seat);
    PlayerArea& p = area_mut(seat);
    p.hand = known[static_cast<std::size_t>(kPlaceHand + seat)];
    for (int t = 0; t < kNumCardTypes; ++t)
      p.hand[static_cast<std::size_t>(t)] = static_cast<uint8_t>(
          p.hand[static_cast<std::size_t>(t)] + placed_in_hand[s][static_cast<std::size_t>(t)]);
    for (int k = 0; k < draws[s]; ++k) ++p.hand[deck_pool[static_cast<std::size_t>(next_deck++)]];
    for (int k = 0; k < others[s]; ++k) ++p.hand[other_pool[static_cast<std::size_t>(next_other++)]];
  }
  // The draw pile: the copies `viewer` knows and the rest of the deck, shuffled.
  std::array<uint8_t, kMaxCards> cards{};
  int m = 0;
  for (int t = 0; t < kNumCardTypes; ++t)
    for (int k = 0;
         k < known[kPlaceDrawPile][static_cast<std::size_t>(t)] + placed_in_pile[static_cast<std::size_t>(t)];
         ++k)
      cards[static_cast<std::size_t>(m++)] = static_cast<uint8_t>(t);
  while (next_deck < num_deck)
    cards[static_cast<std::size_t>(m++)] = deck_pool[static_cast<std::size_t>(next_deck++)];
  rng.shuffle(cards.begin(), cards.begin() + m);
  // Choose the Launch Pad positions among the bottom `launch_pad_region_` cards.
  const int pads = launch_pads_in_draw_pile();
  std::array<uint8_t, kMaxCards> positions{};
  for (int i = 0; i < launch_pad_region_; ++i)
    positions[static_cast<std::size_t>(i)] = static_cast<uint8_t>(i);
  std::array<bool, kMaxCards> is_pad{};
  for (int k = 0; k < pads; ++k) {
    const int j = k + static_cast<int>(rng.below(static_cast<uint32_t>(launch_pad_region_ - k)));
    std::swap(positions[static_cast<std::size_t>(k)], positions[static_cast<std::size_t>(j)]);
    is_pad[positions[static_cast<std::size_t>(k)]] = true;
  }
  for (int i = 0, c = 0; i < draw_size_; ++i)
    draw_pile_[static_cast<std::size_t>(i)] = is_pad[static_cast<std::size_t>(i)]
                                                  ? static_cast<uint8_t>(kLaunchPad)
                                                  : cards[static_cast<std::size_t>(c++)];
  keep_knowledge_true(viewer);
  rng_.reseed(rng.next());
}

// After a resample for `viewer`, what the other seats are recorded to know
// must still be true in the new world: each count is cut to what the place
// now holds, and each follows the deck from scratch (its own hand, which it
// drew, may have changed). `viewer`'s own knowledge is true by construction.
void State::keep_knowledge_true(int viewer) {
  std::array<uint8_t, kNumCardTypes> in_draw{};
  for (int i = 0; i < draw_size_; ++i) ++in_draw[draw_pile_[static_cast<std::size_t>(i)]];
  in_draw[kLaunchPad] = 0;
  for (int v = 0; v < num_players_; ++v) {
    if (v == viewer) continue;
    for (int place = 0; place < kNumHiddenPlaces; ++place) {
      if (place != kPlaceDrawPile && place >= num_players_) continue;
      const auto& held = place == kPlaceDrawPile ? in_draw : area(place).hand;
      auto& counts = known_[static_cast<std::size_t>(v)][static_cast<std::size_t>(place)];
      for (int t = 0; t < kNumCardTypes; ++t)
        counts[static_cast<std::size_t>(t)] =
            std::min(counts[static_cast<std::size_t>(t)], held[static_cast<std::size_t>(t)]);
    }
    deck_from_scratch(v);
  }
}

// Every decision is taken in view of the table: cards are played and
// discarded face up, the discard pile's top is face up, the Thief's victims
// are named, an offered card lies face up. What stays hidden (the cards drawn,
// the cards the Thief takes) is chance, not a decision.
bool State::is_public_action(Action a) const { return a >= 0 && a < act::kNumActions; }

namespace {

void add_copies(CardPlaces& out, int place, int card, int copies) {
  for (int k = 0; k < copies; ++k) out.push_back({place, card});
}

}  // namespace

// The face-up cards: the discard pile, each seat's Game Zones and Specialty
// cards, and the table (Launch Pad area, cards aside, staged or put in the
// discard order, offered).
void State::public_card_places(CardPlaces& out) const {
  for (int i = 0; i < discard_size_; ++i)
    out.push_back({kPlaceDiscardPile, discard_pile_[static_cast<std::size_t>(i)]});
  for (int seat = 0; seat < num_players_; ++seat) {
    const PlayerArea& p = area(seat);
    const int place = kPlaceInPlay + seat;
    for (int8_t e : p.expert)
      if (e >= 0) out.push_back({place, e});
    for (uint8_t n : p.launch_pads) add_copies(out, place, kLaunchPad, n);
    for (int s = 0; s < kNumSpecialtyTypes; ++s)
      add_copies(out, place, kEmployeeContract + s, p.specialties[static_cast<std::size_t>(s)]);
    for (const Rocket& r : p.rockets) {
      if (!r.exists()) continue;
      out.push_back({place, r.kind});
      add_copies(out, place, kMetal, r.metal);
      add_copies(out, place, kFuel, r.fuel);
      for (int b = 0; b < kNumBonusTypes; ++b)
        if ((r.bonuses >> b) & 1) out.push_back({place, kAstronaut + b});
    }
  }
  add_copies(out, kPlaceTable, kLaunchPad, launch_pad_area_ + launch_pads_aside_);
  for (int t = 0; t < kNumCardTypes; ++t)
    add_copies(out, kPlaceTable, t, staged_[static_cast<std::size_t>(t)]);
  for (int i = 0; i < ordered_size_; ++i) out.push_back({kPlaceTable, ordered_[static_cast<std::size_t>(i)]});
  if (offer_card_ >= 0) out.push_back({kPlaceTable, offer_card_});
}

void State::card_places(CardPlaces& out) const {
  public_card_places(out);
  for (int seat = 0; seat < num_players_; ++seat)
    for (int t = 0; t < kNumCardTypes; ++t)
      add_copies(out, kPlaceHand + seat, t, area(seat).hand[static_cast<std::size_t>(t)]);
  for (int i = 0; i < draw_size_; ++i)
    out.push_back({kPlaceDrawPile, draw_pile_[static_cast<std::size_t>(i)]});
}

void State::known_card_places(int viewer, CardPlaces& out) const {
  public_card_places(out);
  for (int place = 0; place < kNumHiddenPlaces; ++place) {
    if (place != kPlaceDrawPile && place >= num_players_) continue;
    for (int t = 0; t < kNumCardTypes; ++t) add_copies(out, place, t, known_count(viewer, place, t));
  }
}

// ---------------------------------------------------------------- text

namespace {

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
