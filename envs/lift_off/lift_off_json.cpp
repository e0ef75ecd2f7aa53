// Lift Off: JSON documents, read strictly (every refusal names the field) and
// checked as a whole (check_invariants: lift_off_invariants.cpp).
#include <algorithm>
#include <string_view>

#include "envs/core/quoted.h"
#include "envs/lift_off/lift_off.h"
#include "envs/lift_off/lift_off_document.h"

namespace rocketgym::lift_off {

using namespace actions;
using namespace document;

namespace {

constexpr Step kAllSteps[] = {Step::kObjectiveKeep,     Step::kObjectivePass,  Step::kChooseDirection,
                              Step::kSpecialistKeep,    Step::kSpecialistPass, Step::kPlaySpecialist,
                              Step::kSpecialistActions, Step::kBulkBuy,        Step::kExchangeGive,
                              Step::kExchangeTake,      Step::kStationReward,  Step::kChooseDeck,
                              Step::kKeepMissions,      Step::kLaunch,         Step::kLoadRocket,
                              Step::kDiscardObjectives, Step::kGameOver};

std::string specialist_id(const Config& c, int card) {
  return c.specialists[static_cast<std::size_t>(card)].id;
}
std::string mission_id(const Config& c, int type) { return c.missions[static_cast<std::size_t>(type)].id; }
std::string objective_id(const Config& c, int card) {
  return c.objectives[static_cast<std::size_t>(card)].id;
}

template <std::size_t N, class Name>
Json card_list(const std::array<uint8_t, N>& cards, int count, Name name) {
  Json out = Json::array();
  for (int i = 0; i < count; ++i) out.push_back(name(cards[static_cast<std::size_t>(i)]));
  return out;
}

// --- reading, every message naming the field --------------------------------

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw SerializationError("lift_off state document: '" + field + "' " + why);
}

std::string path_of(std::string_view path, std::string_view key) {
  std::string out(path);
  if (!out.empty()) out += '.';
  return out.append(key);
}

// Takes the path as a string_view: gcc 13 warns (-Wdangling-reference) when a
// function returning a reference gets a temporary std::string, although the
// reference is into the document.
const Json& member(const Json& j, std::string_view path, const char* key) {
  if (!j.is_object()) bad(path.empty() ? std::string("(document)") : std::string(path), "must be an object");
  const auto it = j.find(key);
  if (it == j.end()) bad(path_of(path, key), "is missing");
  return *it;
}

int read_int(const Json& x, const std::string& field, int lo, int hi) {
  if (!x.is_number_integer()) bad(field, std::string("must be an integer, not ") + x.type_name());
  const bool is_unsigned = x.is_number_unsigned();
  const uint64_t u = is_unsigned ? x.get_ref<const Json::number_unsigned_t&>() : 0;
  const int64_t v = is_unsigned ? 0 : x.get_ref<const Json::number_integer_t&>();
  const bool fits = is_unsigned ? u <= static_cast<uint64_t>(std::max(hi, 0)) && static_cast<int64_t>(u) >= lo
                                : v >= lo && v <= hi;
  if (!fits) bad(field, "is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(is_unsigned ? static_cast<int64_t>(u) : v);
}

int read_int(const Json& j, const std::string& path, const char* key, int lo, int hi) {
  return read_int(member(j, path, key), path_of(path, key), lo, hi);
}

bool read_bool(const Json& j, const std::string& path, const char* key) {
  const Json& x = member(j, path, key);
  if (!x.is_boolean()) bad(path_of(path, key), std::string("must be true or false, not ") + x.type_name());
  return x.get_ref<const Json::boolean_t&>();
}

std::string read_string(const Json& j, const std::string& path, const char* key) {
  const Json& x = member(j, path, key);
  if (!x.is_string()) bad(path_of(path, key), std::string("must be a string, not ") + x.type_name());
  return x.get_ref<const Json::string_t&>();
}

// A list of card ids into a fixed array; unknown ids and overflows are errors.
template <std::size_t N, class Lookup>
int read_cards(const Json& list, const std::string& field, std::array<uint8_t, N>& out, int max,
               const char* kind, Lookup lookup) {
  if (!list.is_array()) bad(field, std::string("must be a list of ") + kind + " ids");
  if (static_cast<int>(list.size()) > max)
    bad(field, "holds " + std::to_string(list.size()) + " cards, at most " + std::to_string(max));
  int n = 0;
  for (const auto& item : list) {
    const int card = item.is_string() ? lookup(item.get<std::string>()) : -1;
    if (card < 0) bad(field + "[" + std::to_string(n) + "]", std::string("is not a ") + kind);
    out[static_cast<std::size_t>(n++)] = static_cast<uint8_t>(card);
  }
  return n;
}

template <std::size_t N, class Lookup>
int read_cards(const Json& j, const std::string& path, const char* key, std::array<uint8_t, N>& out, int max,
               const char* kind, Lookup lookup) {
  return read_cards(member(j, path, key), path_of(path, key), out, max, kind, lookup);
}

template <class Mask>
Json place_list(bool objective, Mask m) {
  Json out = Json::array();
  const int places = objective ? may_be::kObjectivePlaces : may_be::kSpecialistPlaces;
  for (int b = 0; b < places; ++b)
    if (m >> b & 1) out.push_back(place_name(objective, b));
  return out;
}

// Reads a non-empty list of place names into may_be bits.
uint16_t read_places(const Json& list, const std::string& field, bool objective) {
  if (!list.is_array() || list.empty()) bad(field, "must be a non-empty list of places");
  const int places = objective ? may_be::kObjectivePlaces : may_be::kSpecialistPlaces;
  unsigned m = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& name = list[i];
    int bit = -1;
    for (int b = 0; b < places; ++b)
      if (name.is_string() && name.get<std::string>() == place_name(objective, b)) bit = b;
    if (bit < 0) bad(field + "[" + std::to_string(i) + "]", "is not a place");
    m |= 1u << bit;
  }
  return static_cast<uint16_t>(m);
}

// Reads {"<card id>": ["<place>", ...], ...} into one seat's sets.
template <class Mask, std::size_t N, class Lookup>
void read_knowledge(const Json& j, const std::string& field, bool objective, std::array<Mask, N>& out,
                    Lookup lookup) {
  if (!j.is_object()) bad(field, "must map card ids to lists of places");
  out.fill(0);
  for (auto it = j.begin(); it != j.end(); ++it) {
    const int card = lookup(it.key());
    const std::string at = field + "." + it.key();
    if (card < 0) bad(at, "names no card");
    out[static_cast<std::size_t>(card)] = static_cast<Mask>(read_places(it.value(), at, objective));
  }
}

// Reads [{"of": "specialists" | "objectives", "cards": [ids], "places": [places],
// "at_most": n}, ...] into one seat's links.
template <class SpecialistId, class ObjectiveId>
void read_links(const Json& j, const std::string& field, Links& specialists, Links& objectives,
                SpecialistId sid, ObjectiveId oid) {
  if (!j.is_array()) bad(field, "must be a list of links");
  int num_specialist = 0, num_objective = 0;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string at = field + "[" + std::to_string(i) + "]";
    const Json& item = j[i];
    const std::string of = read_string(item, at, "of");
    if (of != "specialists" && of != "objectives")
      bad(at + ".of", "must be \"specialists\" or \"objectives\"");
    const bool objective = of == "objectives";
    int& num = objective ? num_objective : num_specialist;
    if (num == kMaxLinks) bad(at, "is one link too many for " + of);
    Link link;
    std::array<uint8_t, kMaxSpecialists> cards{};
    const int count = objective ? read_cards(item, at, "cards", cards, kMaxObjectives, "objective", oid)
                                : read_cards(item, at, "cards", cards, kMaxSpecialists, "specialist", sid);
    for (int c = 0; c < count; ++c) link.cards |= uint64_t{1} << cards[static_cast<std::size_t>(c)];
    link.to = read_places(member(item, at, "places"), at + ".places", objective);
    link.most = read_int(item, at, "at_most", 1, kRoundHand);
    (objective ? objectives : specialists)[static_cast<std::size_t>(num++)] = link;
  }
}

// Reads {"cards": [ids], "layouts": [[seat of each card], ...]} into the
// cards a seat passed (see PassedCards). `seat` is the seat whose knowledge it
// is, `n` the number of players; whether the layouts are true is checked with
// the knowledge (check_knowledge).
template <class Lookup>
PassedCards read_passed(const Json& j, const std::string& field, int seat, int n, const char* kind,
                        Lookup lookup) {
  if (!j.is_object()) bad(field, "must be {\"cards\": [...], \"layouts\": [[...], ...]}");
  PassedCards p;
  p.num_cards = read_cards(j, field, "cards", p.cards, kMaxPassed, kind, lookup);
  if (p.num_cards == 0) bad(field + ".cards", "must list at least one card (leave the entry out instead)");
  uint64_t cards = 0;
  for (int i = 0; i < p.num_cards; ++i) {
    const int card = p.cards[static_cast<std::size_t>(i)];
    if (cards >> card & 1) bad(field + ".cards[" + std::to_string(i) + "]", "names a card twice");
    cards |= uint64_t{1} << card;
  }
  const Json& layouts = member(j, field, "layouts");
  const std::string at = field + ".layouts";
  if (!layouts.is_array() || layouts.empty() || static_cast<int>(layouts.size()) > kMaxLayouts)
    bad(at, "must be a list of 1 to " + std::to_string(kMaxLayouts) + " layouts");
  p.num_layouts = 0;
  for (std::size_t l = 0; l < layouts.size(); ++l) {
    const std::string where = at + "[" + std::to_string(l) + "]";
    const Json& layout = layouts[l];
    if (!layout.is_array() || static_cast<int>(layout.size()) != p.num_cards)
      bad(where, "must give a seat for each of the " + std::to_string(p.num_cards) + " cards");
    uint32_t code = 0;
    for (int i = 0; i < p.num_cards; ++i) {
      const int w =
          read_int(layout[static_cast<std::size_t>(i)], where + "[" + std::to_string(i) + "]", 0, n - 1);
      if (w == seat) bad(where, "puts a card in the seat's own hand, where it would see it");
      code |= static_cast<uint32_t>(w) << (2 * i);
    }
    for (int k = 0; k < p.num_layouts; ++k)
      if (p.layouts[static_cast<std::size_t>(k)] == code) bad(where, "repeats an earlier layout");
    p.layouts[static_cast<std::size_t>(p.num_layouts++)] = code;
  }
  return p;
}

}  // namespace

Json State::to_json() const {
  const Config& c = *config_;
  auto sid = [&](int x) { return specialist_id(c, x); };
  auto mid = [&](int x) { return mission_id(c, x); };
  auto oid = [&](int x) { return objective_id(c, x); };
  Json doc;
  doc["game"] = "lift_off";
  doc["players"] = num_players_;
  doc["round"] = round_;
  doc["phase"] = phase_;
  doc["step"] = step_name(step_);
  doc["actor"] = actor_;
  doc["start_player"] = start_player_;
  doc["direction"] = direction_ > 0 ? "left" : "right";
  doc["turn"] = turn_;
  doc["play_pass"] = play_pass_;
  doc["rng"] = rng_to_json(rng_);
  Json seats = Json::array();
  for (int s = 0; s < num_players_; ++s) {
    const Player& p = player(s);
    Json j;
    j["vp"] = p.vp;
    j["money"] = p.money;
    j["income"] = p.income;
    j["capacity_upgrades"] = p.capacity_upgrades;
    j["propulsion_upgrades"] = p.propulsion_upgrades;
    j["lab_level"] = p.lab_level;
    j["station_investments"] = p.station_investments;
    for (int col = 0; col < kNumColours; ++col)
      j["tech"][colour_name(col)] = p.tech[static_cast<std::size_t>(col)];
    j["earth"] = card_list(p.earth, p.num_earth, mid);
    j["space"] = card_list(p.space, p.num_space, mid);
    j["hand"] = card_list(p.hand, p.hand_size, sid);
    j["played"] = card_list(p.played, p.num_played, sid);
    j["banner_used"] = {p.banner_used[0], p.banner_used[1]};
    j["objectives"] = card_list(p.objectives, p.num_objectives, oid);
    j["discarded_objectives"] = card_list(p.discarded_objectives, p.num_discarded_objectives, oid);
    j["pick"] = p.pick;
    // What this seat knows: for every card in a hidden place, the places it may be in.
    Json know_s = Json::object(), know_o = Json::object();
    for (int card = 0; card < kMaxSpecialists; ++card)
      if (const uint8_t m = specialist_may_be(s, card)) know_s[sid(card)] = place_list(false, m);
    for (int card = 0; card < kMaxObjectives; ++card)
      if (const uint16_t m = objective_may_be(s, card)) know_o[oid(card)] = place_list(true, m);
    Json links = Json::array();
    for (const bool objective : {false, true})
      for (const Link& link : objective ? objective_links(s) : specialist_links(s)) {
        if (link.cards == 0) continue;
        Json cards = Json::array();
        for (int card = 0; card < 64; ++card)
          if (link.cards >> card & 1) cards.push_back(objective ? oid(card) : sid(card));
        links.push_back({{"of", objective ? "objectives" : "specialists"},
                         {"cards", cards},
                         {"places", place_list(objective, link.to)},
                         {"at_most", link.most}});
      }
    j["knowledge"] = {{"specialists", know_s}, {"objectives", know_o}, {"links", links}};
    Json passed = Json::object();
    for (const bool objective : {false, true}) {
      const PassedCards& p = objective ? objectives_passed(s) : specialists_passed(s);
      if (p.num_cards == 0) continue;
      Json cards = Json::array(), layouts = Json::array();
      for (int i = 0; i < p.num_cards; ++i) {
        const int card = p.cards[static_cast<std::size_t>(i)];
        cards.push_back(objective ? oid(card) : sid(card));
      }
      for (int l = 0; l < p.num_layouts; ++l) {
        Json layout = Json::array();
        for (int i = 0; i < p.num_cards; ++i) layout.push_back(p.seat_of(l, i));
        layouts.push_back(layout);
      }
      passed[objective ? "objectives" : "specialists"] = {{"cards", cards}, {"layouts", layouts}};
    }
    if (!passed.empty()) j["knowledge"]["passed"] = passed;
    j["missions_launched"] = p.missions_launched;
    j["lab_symbol_used"] = p.lab_symbol_used;
    seats.push_back(j);
  }
  doc["seats"] = seats;
  doc["specialist_deck"] = card_list(specialist_deck_, specialist_deck_count_, sid);
  doc["specialist_discard"] = card_list(specialist_discard_, specialist_discard_count_, sid);
  Json decks = Json::array(), discards = Json::array();
  for (std::size_t l = 0; l < kNumLevels; ++l) {
    decks.push_back(card_list(mission_deck_[l], mission_deck_count_[l], mid));
    discards.push_back(card_list(mission_discard_[l], mission_discard_count_[l], mid));
  }
  doc["mission_decks"] = decks;
  doc["mission_discards"] = discards;
  doc["objective_box"] = card_list(objective_box_, objective_box_count_, oid);
  Json play;
  play["card"] = played_card_ >= 0 ? Json(sid(played_card_)) : Json(nullptr);
  play["used_actions"] = used_actions_;
  play["took_money"] = took_money_;
  play["bulk_bought"] = bulk_bought_;
  play["exchange_given"] = exchange_given_;
  play["exchange_taken"] = exchange_taken_;
  doc["specialist_play"] = play;
  Json draw;
  draw["level"] = draw_level_;
  draw["drawn"] = card_list(drawn_, num_drawn_, mid);
  draw["keeps_left"] = keeps_left_;
  draw["kept"] = kept_this_draw_;
  doc["mission_draw"] = draw;
  Json launch;
  launch["uses_lab"] = launch_uses_lab_;
  launch["loaded"] = card_list(loaded_, num_loaded_, mid);
  launch["applied_capacity"] = applied_capacity_;
  doc["launch"] = launch;
  Json fin = Json::array();
  for (int s = 0; s < num_players_; ++s) fin.push_back(final_vp_[static_cast<std::size_t>(s)]);
  doc["final_vp"] = fin;
  return doc;
}

// Reads every field with its range, then checks the whole position
// (check_invariants): a document that loads is a position the game reaches
// and can be played on to its end.
State State::from_json(const Json& doc, const Config& config) {
  const Config& c = config;
  auto sid = [&](const std::string& x) { return c.specialist_index(x); };
  auto mid = [&](const std::string& x) { return c.mission_index(x); };
  auto oid = [&](const std::string& x) { return c.objective_index(x); };
  if (read_string(doc, "", "game") != "lift_off") bad("game", "must be \"lift_off\"");
  State s;
  s.config_ = &config;
  s.num_players_ = read_int(doc, "", "players", 2, kMaxPlayers);
  const int n = s.num_players_;
  s.round_ = read_int(doc, "", "round", 1, 8);
  s.phase_ = read_int(doc, "", "phase", 1, 2);
  const std::string step = read_string(doc, "", "step");
  bool found = false;
  for (Step st : kAllSteps)
    if (step == step_name(st)) s.step_ = st, found = true;
  if (!found) bad("step", "= " + quote(step) + " is not a step");
  s.actor_ = read_int(doc, "", "actor", -1, n - 1);
  s.start_player_ = read_int(doc, "", "start_player", 0, n - 1);
  const std::string dir = read_string(doc, "", "direction");
  if (dir != "left" && dir != "right") bad("direction", "must be \"left\" or \"right\"");
  s.direction_ = dir == "left" ? 1 : -1;
  s.turn_ = read_int(doc, "", "turn", 0, n);
  s.play_pass_ = read_int(doc, "", "play_pass", 0, 2);
  try {
    s.rng_ = rng_from_json(member(doc, "", "rng"));
  } catch (const SerializationError& e) {
    bad("rng", std::string("is not a generator state: ") + e.what());
  }
  const Json& seats = member(doc, "", "seats");
  if (!seats.is_array() || static_cast<int>(seats.size()) != n)
    bad("seats", "must list one entry per player (" + std::to_string(n) + ")");
  bool has_knowledge = false, legacy_knowledge = false;
  for (int w = 0; w < n; ++w) {
    const Json& j = seats[static_cast<std::size_t>(w)];
    const std::string at = "seats[" + std::to_string(w) + "]";
    Player& p = s.players_[static_cast<std::size_t>(w)];
    p.vp = read_int(j, at, "vp", 0, kMaxLoadedVp);
    p.money = read_int(j, at, "money", 0, kMaxLoadedMoney);
    p.income = read_int(j, at, "income", c.income_start, c.income_max);
    p.capacity_upgrades = read_int(j, at, "capacity_upgrades", 0, c.capacity_tokens);
    p.propulsion_upgrades = read_int(j, at, "propulsion_upgrades", 0, c.propulsion_tokens);
    p.lab_level = read_int(j, at, "lab_level", 1, kNumLevels);
    p.station_investments = read_int(j, at, "station_investments", 0, kMaxLoadedStation);
    const Json& tech = member(j, at, "tech");
    for (int col = 0; col < kNumColours; ++col)
      p.tech[static_cast<std::size_t>(col)] =
          read_int(tech, at + ".tech", colour_name(col), 0, kMaxLoadedTech);
    p.num_earth = read_cards(j, at, "earth", p.earth, static_cast<int>(p.earth.size()), "mission", mid);
    p.num_space = read_cards(j, at, "space", p.space, static_cast<int>(p.space.size()), "mission", mid);
    p.hand_size = read_cards(j, at, "hand", p.hand, kRoundHand, "specialist", sid);
    p.num_played = read_cards(j, at, "played", p.played, kPlaysPerRound, "specialist", sid);
    const Json& used = member(j, at, "banner_used");
    if (!used.is_array() || used.size() != 2 || !used[0].is_boolean() || !used[1].is_boolean())
      bad(at + ".banner_used", "must be two booleans");
    p.banner_used = {used[0].get<bool>(), used[1].get<bool>()};
    p.num_objectives = read_cards(j, at, "objectives", p.objectives, kObjectivesEach, "objective", oid);
    p.num_discarded_objectives =
        read_cards(j, at, "discarded_objectives", p.discarded_objectives, kObjectivesEach, "objective", oid);
    p.pick = read_int(j, at, "pick", -1, kRoundHand - 1);
    p.missions_launched = read_int(j, at, "missions_launched", 0, c.missions_per_round);
    p.lab_symbol_used = read_bool(j, at, "lab_symbol_used");
    if (j.contains("knowledge")) {
      const Json& k = member(j, at, "knowledge");
      read_knowledge(member(k, at + ".knowledge", "specialists"), at + ".knowledge.specialists", false,
                     s.specialist_may_be_[static_cast<std::size_t>(w)], sid);
      read_knowledge(member(k, at + ".knowledge", "objectives"), at + ".knowledge.objectives", true,
                     s.objective_may_be_[static_cast<std::size_t>(w)], oid);
      if (k.contains("links"))
        read_links(k.at("links"), at + ".knowledge.links", s.specialist_links_[static_cast<std::size_t>(w)],
                   s.objective_links_[static_cast<std::size_t>(w)], sid, oid);
      if (k.contains("passed")) {
        const Json& passed = k.at("passed");
        const std::string field = at + ".knowledge.passed";
        if (!passed.is_object()) bad(field, "must map \"specialists\" / \"objectives\" to the cards passed");
        for (auto it = passed.begin(); it != passed.end(); ++it) {
          const bool objective = it.key() == "objectives";
          if (!objective && it.key() != "specialists")
            bad(field + "." + it.key(), "is not \"specialists\" or \"objectives\"");
          (objective ? s.objectives_passed_ : s.specialists_passed_)[static_cast<std::size_t>(w)] =
              objective ? read_passed(it.value(), field + ".objectives", w, n, "objective", oid)
                        : read_passed(it.value(), field + ".specialists", w, n, "specialist", sid);
        }
      }
      has_knowledge = true;
    } else {
      legacy_knowledge = true;
    }
  }
  if (has_knowledge && legacy_knowledge) bad("seats", "must give 'knowledge' for every seat or for none");
  s.specialist_deck_count_ =
      read_cards(doc, "", "specialist_deck", s.specialist_deck_, kMaxSpecialists, "specialist", sid);
  s.specialist_discard_count_ =
      read_cards(doc, "", "specialist_discard", s.specialist_discard_, kMaxSpecialists, "specialist", sid);
  const Json& decks = member(doc, "", "mission_decks");
  const Json& discards = member(doc, "", "mission_discards");
  if (!decks.is_array() || decks.size() != kNumLevels)
    bad("mission_decks", "must hold four lists (levels 1-4)");
  if (!discards.is_array() || discards.size() != kNumLevels)
    bad("mission_discards", "must hold four lists (levels 1-4)");
  for (std::size_t l = 0; l < kNumLevels; ++l) {
    const std::string index = "[" + std::to_string(l) + "]";
    s.mission_deck_count_[l] =
        read_cards(decks[l], "mission_decks" + index, s.mission_deck_[l], kMaxDeckCards, "mission", mid);
    s.mission_discard_count_[l] = read_cards(discards[l], "mission_discards" + index, s.mission_discard_[l],
                                             kMaxDeckCards, "mission", mid);
  }
  s.objective_box_count_ =
      read_cards(doc, "", "objective_box", s.objective_box_, kMaxObjectives, "objective", oid);
  const Json& play = member(doc, "", "specialist_play");
  const Json& card = member(play, "specialist_play", "card");
  s.played_card_ = card.is_null() ? -1 : (card.is_string() ? sid(card.get<std::string>()) : -1);
  if (!card.is_null() && s.played_card_ < 0) bad("specialist_play.card", "must be null or a specialist id");
  s.used_actions_ = read_int(play, "specialist_play", "used_actions", 0, 3);
  s.took_money_ = read_bool(play, "specialist_play", "took_money");
  s.bulk_bought_ = read_int(play, "specialist_play", "bulk_bought", 0, c.buy_tech_bulk_max);
  s.exchange_given_ = read_int(play, "specialist_play", "exchange_given", 0, c.exchange_max);
  s.exchange_taken_ = read_int(play, "specialist_play", "exchange_taken", 0, c.exchange_max);
  const Json& draw = member(doc, "", "mission_draw");
  s.draw_level_ = read_int(draw, "mission_draw", "level", 0, kNumLevels);
  s.num_drawn_ = read_cards(draw, "mission_draw", "drawn", s.drawn_, kMaxDeckCards, "mission", mid);
  s.keeps_left_ = read_int(draw, "mission_draw", "keeps_left", 0, 1 + kPlaysPerRound);
  s.kept_this_draw_ = read_int(draw, "mission_draw", "kept", 0, 1 + kPlaysPerRound);
  const Json& launch = member(doc, "", "launch");
  s.launch_uses_lab_ = read_bool(launch, "launch", "uses_lab");
  s.num_loaded_ = read_cards(launch, "launch", "loaded", s.loaded_, c.missions_per_round, "mission", mid);
  s.applied_capacity_ = read_int(launch, "launch", "applied_capacity", 0, 3 * kPlaysPerRound);
  const Json& fin = member(doc, "", "final_vp");
  if (!fin.is_array() || static_cast<int>(fin.size()) != n) bad("final_vp", "needs one entry per player");
  for (int w = 0; w < n; ++w)
    s.final_vp_[static_cast<std::size_t>(w)] =
        read_int(fin[static_cast<std::size_t>(w)], "final_vp[" + std::to_string(w) + "]", 0, kMaxFinalVp);
  try {
    // Flow and cards first: the knowledge refers to where the cards are.
    s.check_flow();
    s.check_counts();
    if (legacy_knowledge) s.read_legacy_knowledge(seats);
    s.check_invariants();
  } catch (const InvariantViolation& e) {
    throw SerializationError(std::string("state document describes an impossible position: ") + e.what());
  }
  return s;
}

// A document from before the knowledge model: each seat knows its own cards
// and the table, plus the cards its 'knows_specialists' / 'knows_objectives'
// lists (one list per seat) name, if the document has them.
void State::read_legacy_knowledge(const Json& seats) {
  const Config& c = *config_;
  auto sid = [&](const std::string& x) { return c.specialist_index(x); };
  auto oid = [&](const std::string& x) { return c.objective_index(x); };
  const int n = num_players_;
  default_knowledge();
  for (int v = 0; v < n; ++v) {
    const Json& j = seats[static_cast<std::size_t>(v)];
    for (const bool objective : {false, true}) {
      const char* key = objective ? "knows_objectives" : "knows_specialists";
      if (!j.contains(key)) continue;
      const std::string field = seat_field(v, key);
      const Json& lists = j.at(key);
      if (!lists.is_array() || static_cast<int>(lists.size()) != n) bad(field, "needs one list per player");
      for (int w = 0; w < n; ++w) {
        std::array<uint8_t, kMaxSpecialists> cards{};
        const std::string at = field + "[" + std::to_string(w) + "]";
        const Json& list = lists[static_cast<std::size_t>(w)];
        const int count = objective ? read_cards(list, at, cards, kMaxObjectives, "objective", oid)
                                    : read_cards(list, at, cards, kMaxSpecialists, "specialist", sid);
        const Player& holder = player(w);
        for (int i = 0; i < count; ++i) {
          const int x = cards[static_cast<std::size_t>(i)];
          const bool there =
              objective ? std::count(holder.objectives.begin(),
                                     holder.objectives.begin() + holder.num_objectives, x) > 0
                        : std::count(holder.hand.begin(), holder.hand.begin() + holder.hand_size, x) > 0;
          if (!there) bad(at, "names a card that is not in that seat's hand");
          if (objective)
            objective_may_be_[static_cast<std::size_t>(v)][static_cast<std::size_t>(x)] =
                static_cast<uint16_t>(1u << w);
          else
            specialist_may_be_[static_cast<std::size_t>(v)][static_cast<std::size_t>(x)] =
                static_cast<uint8_t>(1u << w);
        }
      }
    }
  }
  tighten_knowledge();
}

}  // namespace rocketgym::lift_off
