// Lift Off: JSON documents, validation (invariants) and readable text.
#include <algorithm>
#include <sstream>
#include <string_view>

#include "envs/lift_off/lift_off.h"

namespace rocketgym::lift_off {

using namespace actions;

namespace {

constexpr Step kAllSteps[] = {Step::kObjectiveKeep,     Step::kObjectivePass,  Step::kChooseDirection,
                              Step::kSpecialistKeep,    Step::kSpecialistPass, Step::kPlaySpecialist,
                              Step::kSpecialistActions, Step::kBulkBuy,        Step::kExchangeGive,
                              Step::kExchangeTake,      Step::kStationReward,  Step::kChooseDeck,
                              Step::kKeepMissions,      Step::kLaunch,         Step::kLoadRocket,
                              Step::kDiscardObjectives, Step::kGameOver};

// Bounds on what a document may hold. Far above any real game, and far below
// anything that could overflow while the game is played to its end (a whole
// game adds a few thousand at most; final scoring multiplies by at most 100 per
// card). The invariants allow the growth a game can add to a loaded position.
constexpr int kMaxLoadedVp = 10000;
constexpr int kMaxLoadedMoney = 10000;
constexpr int kMaxLoadedTech = 1000;
constexpr int kMaxLoadedStation = 100;
constexpr int kMaxVp = 1000000;
constexpr int kMaxMoney = 1000000;
constexpr int kMaxTech = 100000;
constexpr int kMaxStation = 10000;
constexpr int kMaxFinalVp = 10000000;

// Cards per hand in a round: three drafted, two played, one carried over.
constexpr int kRoundHand = 3;
constexpr int kPlaysPerRound = 2;
constexpr int kObjectivesEach = 3;

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
  if (!x.is_number_integer()) bad(field, "must be an integer, not " + x.dump());
  const bool is_unsigned = x.is_number_unsigned();
  const uint64_t u = is_unsigned ? x.get_ref<const Json::number_unsigned_t&>() : 0;
  const int64_t v = is_unsigned ? 0 : x.get_ref<const Json::number_integer_t&>();
  const bool fits = is_unsigned ? u <= static_cast<uint64_t>(std::max(hi, 0)) && static_cast<int64_t>(u) >= lo
                                : v >= lo && v <= hi;
  if (!fits)
    bad(field, "= " + x.dump() + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(is_unsigned ? static_cast<int64_t>(u) : v);
}

int read_int(const Json& j, const std::string& path, const char* key, int lo, int hi) {
  return read_int(member(j, path, key), path_of(path, key), lo, hi);
}

bool read_bool(const Json& j, const std::string& path, const char* key) {
  const Json& x = member(j, path, key);
  if (!x.is_boolean()) bad(path_of(path, key), "must be true or false, not " + x.dump());
  return x.get_ref<const Json::boolean_t&>();
}

std::string read_string(const Json& j, const std::string& path, const char* key) {
  const Json& x = member(j, path, key);
  if (!x.is_string()) bad(path_of(path, key), "must be a string, not " + x.dump());
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
    if (card < 0) bad(field + "[" + std::to_string(n) + "]", "= " + item.dump() + " is not a " + kind);
    out[static_cast<std::size_t>(n++)] = static_cast<uint8_t>(card);
  }
  return n;
}

template <std::size_t N, class Lookup>
int read_cards(const Json& j, const std::string& path, const char* key, std::array<uint8_t, N>& out, int max,
               const char* kind, Lookup lookup) {
  return read_cards(member(j, path, key), path_of(path, key), out, max, kind, lookup);
}

// Place names of the knowledge model in documents.
std::string place_name(bool objective, int bit) {
  if (bit < may_be::kDeck) return "hand" + std::to_string(bit);
  if (!objective) return "deck";
  if (bit < may_be::kBox) return "discarded" + std::to_string(bit - may_be::kDiscarded);
  return "box";
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
  for (const auto& name : list) {
    int bit = -1;
    for (int b = 0; b < places; ++b)
      if (name.is_string() && name.get<std::string>() == place_name(objective, b)) bit = b;
    if (bit < 0) bad(field, "lists " + name.dump() + ", which is not a place");
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

// A check of the invariants: the message names the field and the reason.
// Messages are only built when a check fails.
[[noreturn]] void fail(const std::string& field, const std::string& why) {
  throw InvariantViolation("lift_off: '" + field + "' " + why);
}

std::string seat_field(int seat, const char* key) { return "seats[" + std::to_string(seat) + "]." + key; }

bool drafting_objectives(Step s) { return s == Step::kObjectiveKeep || s == Step::kObjectivePass; }
bool drafting_specialists(Step s) { return s == Step::kSpecialistKeep || s == Step::kSpecialistPass; }
bool resolving(Step s) {
  return s == Step::kSpecialistActions || s == Step::kBulkBuy || s == Step::kExchangeGive ||
         s == Step::kExchangeTake || s == Step::kStationReward;
}
bool playing(Step s) { return s == Step::kPlaySpecialist || resolving(s); }
bool launching(Step s) { return s == Step::kLaunch || s == Step::kLoadRocket; }

}  // namespace

// ---------------------------------------------------------------- JSON

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
  if (!found) bad("step", "= \"" + step + "\" is not a step");
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

// ---------------------------------------------------------------- invariants

int State::seat_at(int position) const {
  return next_seat(start_player_, (playing(step_) ? direction_ : 1) * position);
}

int State::position_of(int seat) const {
  const int d = playing(step_) ? direction_ : 1;
  return (((seat - start_player_) * d) % num_players_ + num_players_) % num_players_;
}

int State::total_specialists() const {
  int total = 0;
  for (int card = 0; card < static_cast<int>(config_->specialists.size()); ++card)
    total += config_->specialist_in_game(card, num_players_);
  return total;
}

// Where the round stands: round and phase, whose turn in the step's order,
// the draft picks so far, and the play pass.
void State::check_flow() const {
  const int n = num_players_;
  if (phase_ != (round_ <= 4 ? 1 : 2))
    fail("phase", "= " + std::to_string(phase_) + " in round " + std::to_string(round_) +
                      " (phase 1 is rounds 1-4, phase 2 rounds 5-8)");
  if (drafting_objectives(step_) && round_ != 1) fail("round", "must be 1 during the objective draft");
  if (step_ == Step::kDiscardObjectives && round_ != 5)
    fail("round", "must be 5 during the phase-2 objective discard");
  if (step_ == Step::kGameOver && round_ != 8) fail("round", "must be 8 once the game is over");
  const int turns = step_ == Step::kChooseDirection ? 1 : n;
  if (step_ == Step::kGameOver ? turn_ != n : turn_ >= turns)
    fail("turn", "= " + std::to_string(turn_) + " is not a turn of step " + step_name(step_) +
                     (step_ == Step::kGameOver ? " (the last round ends with turn = players)" : ""));
  const int expected_actor = step_ == Step::kGameOver ? -1 : seat_at(turn_);
  if (actor_ != expected_actor)
    fail("actor", "= " + std::to_string(actor_) + ", but in step " + step_name(step_) + " at turn " +
                      std::to_string(turn_) + " (start player " + std::to_string(start_player_) + ") seat " +
                      std::to_string(expected_actor) + " is to act");
  const bool before_first_draft =
      drafting_objectives(step_) || (round_ == 1 && step_ == Step::kChooseDirection);
  if (before_first_draft && direction_ != 1)
    fail("direction", "must be left before the first specialist draft");
  // The play pass counts 0, 1 during the plays and stays at 2 from the mission
  // step until the next round's plays begin (0 before the first plays).
  const bool fresh_round_draft = step_ == Step::kChooseDirection || drafting_specialists(step_);
  const int expected_pass = drafting_objectives(step_) || (fresh_round_draft && round_ == 1) ? 0
                            : playing(step_)                                                 ? play_pass_
                                                                                             : 2;
  if (play_pass_ != expected_pass || (playing(step_) && play_pass_ > 1))
    fail("play_pass", "= " + std::to_string(play_pass_) + " does not fit step " + step_name(step_) +
                          " of round " + std::to_string(round_));
  const bool drafting = drafting_objectives(step_) || drafting_specialists(step_);
  for (int w = 0; w < n; ++w) {
    const int pick = player(w).pick;
    const bool picked = drafting && position_of(w) < turn_;
    if (picked ? (pick < 0 || pick >= kRoundHand) : pick != -1)
      fail(seat_field(w, "pick"), "= " + std::to_string(pick) +
                                      (picked ? ": this seat has picked, so it names a card slot"
                                              : ": this seat has not picked in a draft now"));
  }
}

// How many cards each place holds follows from the round and the step: three
// specialists per hand in a round (two of them played), a deck that gives two
// per player each round and is empty at the end of rounds 4 and 8, three
// objectives per seat (discards from phase 2 on); then every card is in
// exactly one place.
void State::check_counts() const {
  const Config& c = *config_;
  const int n = num_players_;
  const int total = total_specialists();
  const int draw = c.specialist_draw_per_round;
  const int in_phase = (round_ - 1) % 4 + 1;  // round within its phase
  int deck = 0, carried = 0;
  std::array<int, kMaxPlayers> played{};
  if (drafting_objectives(step_)) {
    deck = total;
  } else if (step_ == Step::kDiscardObjectives || step_ == Step::kGameOver) {
    carried = kRoundHand - kPlaysPerRound;
    deck = step_ == Step::kGameOver ? 0 : total - carried * n;
  } else {
    carried = kRoundHand;
    deck = phase_ == 1 ? total - c.specialists_dealt * n - draw * n * (in_phase - 1)
                       : total - (kRoundHand - kPlaysPerRound) * n - draw * n * in_phase;
    for (int w = 0; w < n; ++w) {
      int& p = played[static_cast<std::size_t>(w)];
      if (playing(step_)) {
        const int pos = position_of(w);
        p = play_pass_ + (pos < turn_ || (resolving(step_) && pos == turn_) ? 1 : 0);
      } else if (step_ != Step::kChooseDirection && !drafting_specialists(step_)) {
        p = kPlaysPerRound;
      }
    }
  }
  const int discard = total - deck - carried * n;
  if (specialist_deck_count_ != deck)
    fail("specialist_deck", "holds " + std::to_string(specialist_deck_count_) + " cards, but at step " +
                                step_name(step_) + " of round " + std::to_string(round_) + " it holds " +
                                std::to_string(deck));
  if (specialist_discard_count_ != discard)
    fail("specialist_discard", "holds " + std::to_string(specialist_discard_count_) + " cards, but at step " +
                                   step_name(step_) + " of round " + std::to_string(round_) + " it holds " +
                                   std::to_string(discard));
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    const int want_played = played[static_cast<std::size_t>(w)];
    if (p.num_played != want_played)
      fail(seat_field(w, "played"), "holds " + std::to_string(p.num_played) +
                                        " cards, but this seat has played " + std::to_string(want_played) +
                                        " at this point of the round");
    if (p.hand_size != carried - want_played)
      fail(seat_field(w, "hand"), "holds " + std::to_string(p.hand_size) +
                                      " cards, but at this point it holds " +
                                      std::to_string(carried - want_played));
    if (p.num_objectives + p.num_discarded_objectives != kObjectivesEach)
      fail(seat_field(w, "objectives"), "and discarded_objectives must hold three objectives together");
    const bool discarded_yet = round_ >= 5 &&
                               !(step_ == Step::kDiscardObjectives && position_of(w) > turn_) &&
                               !drafting_objectives(step_);
    if (p.num_discarded_objectives > 0 && !discarded_yet)
      fail(seat_field(w, "discarded_objectives"),
           "must be empty before this seat's phase-2 objective discard");
  }
  // Every card of this player count is in exactly one place.
  std::array<int, kMaxSpecialists> seen_s{};
  std::array<int, kMaxMissionTypes> seen_m{};
  std::array<int, kMaxObjectives> seen_o{};
  for (int i = 0; i < specialist_deck_count_; ++i) ++seen_s[specialist_deck_[static_cast<std::size_t>(i)]];
  for (int i = 0; i < specialist_discard_count_; ++i)
    ++seen_s[specialist_discard_[static_cast<std::size_t>(i)]];
  for (int i = 0; i < objective_box_count_; ++i) ++seen_o[objective_box_[static_cast<std::size_t>(i)]];
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    for (int i = 0; i < p.hand_size; ++i) ++seen_s[p.hand[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_played; ++i) ++seen_s[p.played[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_objectives; ++i) ++seen_o[p.objectives[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      ++seen_o[p.discarded_objectives[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_earth; ++i) ++seen_m[p.earth[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_space; ++i) ++seen_m[p.space[static_cast<std::size_t>(i)]];
  }
  for (std::size_t card = 0; card < c.specialists.size(); ++card)
    if (seen_s[card] != (c.specialist_in_game(static_cast<int>(card), n) ? 1 : 0))
      fail("specialist " + c.specialists[card].id,
           "is not in exactly one place (hands, played, deck, discard)");
  for (std::size_t o = 0; o < c.objectives.size(); ++o)
    if (seen_o[o] != 1) fail("objective " + c.objectives[o].id, "is not in exactly one place");
  for (std::size_t l = 0; l < kNumLevels; ++l) {
    for (int i = 0; i < mission_deck_count_[l]; ++i) {
      const int t = mission_deck_[l][static_cast<std::size_t>(i)];
      if (c.missions[static_cast<std::size_t>(t)].level != static_cast<int>(l) + 1)
        fail("mission_decks[" + std::to_string(l) + "]",
             "holds " + c.missions[static_cast<std::size_t>(t)].id + " of another level");
      ++seen_m[static_cast<std::size_t>(t)];
    }
    for (int i = 0; i < mission_discard_count_[l]; ++i) {
      const int t = mission_discard_[l][static_cast<std::size_t>(i)];
      if (c.missions[static_cast<std::size_t>(t)].level != static_cast<int>(l) + 1)
        fail("mission_discards[" + std::to_string(l) + "]",
             "holds " + c.missions[static_cast<std::size_t>(t)].id + " of another level");
      ++seen_m[static_cast<std::size_t>(t)];
    }
  }
  for (int i = 0; i < num_drawn_; ++i) {
    const int t = drawn_[static_cast<std::size_t>(i)];
    if (c.missions[static_cast<std::size_t>(t)].level != draw_level_)
      fail("mission_draw.drawn", "holds " + c.missions[static_cast<std::size_t>(t)].id +
                                     ", not of the level drawn from (" + std::to_string(draw_level_) + ")");
    ++seen_m[static_cast<std::size_t>(t)];
  }
  for (std::size_t t = 0; t < c.missions.size(); ++t)
    if (seen_m[t] != c.missions[t].copies_for(n))
      fail("mission " + c.missions[t].id, "has " + std::to_string(seen_m[t]) +
                                              " copies in play; this player count has " +
                                              std::to_string(c.missions[t].copies_for(n)));
}

// The decision in progress is one the game reaches, and the player to move can go on.
void State::check_decision() const {
  const Config& c = *config_;
  const int n = num_players_;
  // The specialist being resolved.
  if (resolving(step_)) {
    const Player& p = player(actor_);
    if (played_card_ < 0 || p.num_played == 0 ||
        p.played[static_cast<std::size_t>(p.num_played - 1)] != played_card_)
      fail("specialist_play.card", "is not the card the actor played last");
    const SpecialistCard& card = c.specialists[static_cast<std::size_t>(played_card_)];
    const int all = (1 << card.num_actions) - 1;
    auto used = [&](SpecialistAction kind) {
      for (int i = 0; i < card.num_actions; ++i)
        if (card.actions[static_cast<std::size_t>(i)] == kind && (used_actions_ >> i & 1)) return true;
      return false;
    };
    if (used_actions_ & ~all) fail("specialist_play.used_actions", "marks an action the card does not have");
    if (took_money_)
      fail("specialist_play.took_money", "must be false: taking the money ends the card at once");
    if (step_ == Step::kSpecialistActions && used_actions_ == all)
      fail("specialist_play.used_actions", "marks every action used, so the card is finished");
    if (bulk_bought_ > 0 && !used(SpecialistAction::kBuyTechBulk))
      fail("specialist_play.bulk_bought", "is set, but the card's bulk buy is not used");
    if (step_ == Step::kBulkBuy && bulk_bought_ < 1)
      fail("specialist_play.bulk_bought", "must count at least one card during a bulk buy");
    if ((exchange_given_ > 0 || exchange_taken_ > 0) && !used(SpecialistAction::kExchange))
      fail("specialist_play.exchange_given", "is set, but the card's exchange is not used");
    const bool exchange_ok = step_ == Step::kExchangeGive ? exchange_given_ >= 1 && exchange_taken_ == 0
                             : step_ == Step::kExchangeTake
                                 ? exchange_taken_ >= 1 && exchange_taken_ < exchange_given_
                                 : exchange_given_ == exchange_taken_;
    if (!exchange_ok)
      fail("specialist_play.exchange_taken", "does not fit step " + std::string(step_name(step_)) +
                                                 " (an exchange gives first, then takes as many)");
    if (step_ == Step::kStationReward && !used(SpecialistAction::kStation))
      fail("specialist_play.used_actions", "must mark the station action during the station reward");
  } else if (played_card_ != -1 || used_actions_ != 0 || took_money_ || bulk_bought_ != 0 ||
             exchange_given_ != 0 || exchange_taken_ != 0) {
    fail("specialist_play", "must be empty (card null, counts 0) outside a specialist's actions");
  }
  // The mission draw in progress.
  if (step_ == Step::kKeepMissions) {
    if (draw_level_ < 1 || draw_level_ > (phase_ == 1 ? 2 : kNumLevels))
      fail("mission_draw.level",
           "= " + std::to_string(draw_level_) + " is not a deck open in phase " + std::to_string(phase_));
    if (num_drawn_ == 0) fail("mission_draw.drawn", "is empty during a mission draw");
    if (keeps_left_ < 1) fail("mission_draw.keeps_left", "must be at least 1 while missions are being kept");
    if (kept_this_draw_ + keeps_left_ > 1 + extra_missions(actor_))
      fail("mission_draw.keeps_left", "and 'kept' exceed the 1 + extra-mission banners allowed");
    if (keeps_left_ > c.max_per_deck - owned_from_level(actor_, draw_level_))
      fail("mission_draw.keeps_left", "would take the actor past seven missions from that deck");
    bool any = false;
    for (int i = 0; i < num_drawn_; ++i)
      any = any || mission_eligible_for_keep(drawn_[static_cast<std::size_t>(i)]);
    if (!any) fail("mission_draw.drawn", "holds no mission the actor may keep, so the draw would be over");
  } else if (draw_level_ != 0 || num_drawn_ != 0 || keeps_left_ != 0 || kept_this_draw_ != 0) {
    fail("mission_draw", "must be empty (level 0, nothing drawn or kept) outside a mission draw");
  }
  if (step_ == Step::kChooseDeck) {
    bool any = false;
    for (int level = 1; level <= kNumLevels; ++level) any = any || can_choose_deck(level);
    if (!any) fail("actor", "has no deck to draw from, so this seat would have been skipped");
  }
  // This round's launches: only seats whose launch turn has come have launched.
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    const bool may_have_launched = launching(step_) && position_of(w) <= turn_;
    int symbols = p.lab_symbol_used ? 1 : 0;
    for (int i = 0; i < 2; ++i) {
      if (!p.banner_used[static_cast<std::size_t>(i)]) continue;
      const Banner b =
          i < p.num_played ? c.specialists[p.played[static_cast<std::size_t>(i)]].banner : Banner::kMoney3;
      if (b != Banner::kExtraLaunch && b != Banner::kCapacity)
        fail(seat_field(w, "banner_used"), "marks a card with no launch banner");
      symbols += b == Banner::kExtraLaunch;
    }
    const bool any = p.missions_launched > 0 || symbols > 0 || p.banner_used[0] || p.banner_used[1];
    if (any && !may_have_launched)
      fail(seat_field(w, "missions_launched"),
           "and the launch symbols and banners must be unused before the "
           "seat's launch turn this round");
    const int loading = step_ == Step::kLoadRocket && w == actor_ ? 1 : 0;
    if ((p.missions_launched > 0 && symbols == 0) || symbols > p.missions_launched + loading)
      fail(seat_field(w, "lab_symbol_used"),
           "and the extra-launch banners used do not match the missions launched");
  }
  if (step_ == Step::kLaunch && !can_start_launch(true) && !can_start_launch(false))
    fail("actor", "cannot launch, so this seat would have been skipped");
  if (step_ == Step::kLoadRocket) {
    const Player& p = player(actor_);
    if (launch_uses_lab_ && !p.lab_symbol_used)
      fail("launch.uses_lab", "but the lab's launch symbol is not used");
    int extra_used = 0;
    for (int i = 0; i < p.num_played; ++i)
      extra_used += c.specialists[p.played[static_cast<std::size_t>(i)]].banner == Banner::kExtraLaunch &&
                    p.banner_used[static_cast<std::size_t>(i)];
    if (!launch_uses_lab_ && extra_used == 0)
      fail("launch.uses_lab", "is false, but no extra-launch banner of the actor is used");
    const int cost = std::max(0, launch_cost(actor_) - (launch_uses_lab_ ? 0 : c.extra_launch_discount));
    if (p.money < cost) fail(seat_field(actor_, "money"), "cannot pay for the launch being built");
    if (!loaded_missions_on_earth())
      fail("launch.loaded", "holds a mission that is not on the actor's Earth");
    for (int i = 0; i < num_loaded_; ++i)
      if (!meets_requirements(actor_, loaded_[static_cast<std::size_t>(i)]))
        fail("launch.loaded", "holds a mission the actor's lab or techs cannot launch");
    if (p.missions_launched + num_loaded_ > c.missions_per_round)
      fail("launch.loaded", "takes the actor past the missions allowed per round");
    int used_capacity = 0;
    for (int i = 0; i < p.num_played; ++i) {
      const SpecialistCard& card = c.specialists[p.played[static_cast<std::size_t>(i)]];
      if (card.banner == Banner::kCapacity && p.banner_used[static_cast<std::size_t>(i)])
        used_capacity += card.capacity_bonus;
    }
    if (applied_capacity_ > used_capacity)
      fail("launch.applied_capacity", "is more than the capacity banners used this round");
    if (loaded_weight() > rocket_capacity_now() + unused_capacity_banners(actor_))
      fail("launch.loaded", "weighs more than the rocket can carry with every banner");
    bool loadable = num_loaded_ > 0;
    for (int t = 0; t < static_cast<int>(c.missions.size()) && !loadable; ++t) loadable = can_load(t);
    if (!loadable) fail("launch.loaded", "is empty and no mission can be loaded");
  } else if (launch_uses_lab_ || num_loaded_ != 0 || applied_capacity_ != 0) {
    fail("launch", "must be empty (no symbol, nothing loaded) outside a launch being built");
  }
  if (step_ == Step::kDiscardObjectives && player(actor_).num_objectives == 0)
    fail("actor", "has no objective to discard, so this seat would have been skipped");
  for (int w = 0; w < n; ++w) {
    const int want = is_terminal() ? final_score(w) : 0;
    if (final_vp_[static_cast<std::size_t>(w)] != want)
      fail("final_vp[" + std::to_string(w) + "]",
           "= " + std::to_string(final_vp_[static_cast<std::size_t>(w)]) +
               (is_terminal() ? ", but final scoring gives " + std::to_string(want)
                              : ", but final points come only at the end"));
  }
  if (!is_terminal()) {
    std::array<uint8_t, kNumActions> mask{};
    legal_actions_mask(mask.data());
    if (std::find(mask.begin(), mask.end(), uint8_t{1}) == mask.end())
      fail("step", std::string("= ") + step_name(step_) + " leaves the actor no legal action");
  }
}

// Every seat's sets hold the card's true place, its own cards exactly, and
// nothing for public cards; at the end every hand is known.
void State::check_knowledge() const {
  const Config& c = *config_;
  const int n = num_players_;
  std::array<int, kMaxSpecialists> spec_at{};
  std::array<int, kMaxObjectives> obj_at{};
  spec_at.fill(-1);
  obj_at.fill(-1);
  for (int i = 0; i < specialist_deck_count_; ++i)
    spec_at[specialist_deck_[static_cast<std::size_t>(i)]] = may_be::kDeck;
  for (int i = 0; i < objective_box_count_; ++i)
    obj_at[objective_box_[static_cast<std::size_t>(i)]] = may_be::kBox;
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    for (int i = 0; i < p.hand_size; ++i) spec_at[p.hand[static_cast<std::size_t>(i)]] = may_be::kHand + w;
    for (int i = 0; i < p.num_objectives; ++i)
      obj_at[p.objectives[static_cast<std::size_t>(i)]] = may_be::kHand + w;
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      obj_at[p.discarded_objectives[static_cast<std::size_t>(i)]] = may_be::kDiscarded + w;
  }
  const unsigned seats = (1u << n) - 1;
  const unsigned spec_valid = seats | 1u << may_be::kDeck;
  const unsigned obj_valid = seats | seats << may_be::kDiscarded | 1u << may_be::kBox;
  for (int v = 0; v < n; ++v) {
    auto check = [&](bool objective, int card, unsigned m, int at) {
      auto where = [&] {
        return "seats[" + std::to_string(v) + "].knowledge" + (objective ? ".objectives." : ".specialists.") +
               (objective ? c.objectives[static_cast<std::size_t>(card)].id
                          : c.specialists[static_cast<std::size_t>(card)].id);
      };
      if (at < 0) {
        if (m != 0) fail(where(), "is given, but the card is not in a hidden place");
        return;
      }
      const unsigned own = 1u << v, own_discard = objective ? 1u << (may_be::kDiscarded + v) : 0;
      const bool certain =
          at == v || (objective && at == may_be::kDiscarded + v) || (is_terminal() && at < may_be::kDeck);
      if (!(m >> at & 1))
        fail(where(), "leaves out the place the card is in (" + place_name(objective, at) + ")");
      if (m & ~(objective ? obj_valid : spec_valid)) fail(where(), "lists a place of a seat not in the game");
      if (certain ? m != 1u << at : (m & (own | own_discard)) != 0)
        fail(where(),
             certain ? "must be exactly where the card is: the seat sees it" : "lists the seat's own cards");
    };
    for (int card = 0; card < static_cast<int>(c.specialists.size()); ++card)
      check(false, card, specialist_may_be(v, card), spec_at[static_cast<std::size_t>(card)]);
    for (int card = 0; card < static_cast<int>(c.objectives.size()); ++card)
      check(true, card, objective_may_be(v, card), obj_at[static_cast<std::size_t>(card)]);
    // Links: into another seat's hand (and its discards), true, not yet resolved.
    for (const bool objective : {false, true}) {
      const Links& links = objective ? objective_links(v) : specialist_links(v);
      bool ended = false;
      for (std::size_t i = 0; i < links.size(); ++i) {
        const Link& link = links[i];
        auto where = [&] {
          return "seats[" + std::to_string(v) + "].knowledge.links (" +
                 (objective ? "objectives" : "specialists") + " " + std::to_string(i) + ")";
        };
        if (link.cards == 0) {
          ended = true;
          continue;
        }
        if (ended) fail(where(), "follows an empty link");
        int seat = -1;
        for (int x = 0; x < n; ++x)
          if (link.to == ((1u << x) | (objective ? 1u << (may_be::kDiscarded + x) : 0u))) seat = x;
        if (seat < 0 || seat == v)
          fail(where(),
               objective ? "must name another seat's hand and discards" : "must name another seat's hand");
        if (link.most < 1 || __builtin_popcountll(link.cards) <= link.most ||
            __builtin_popcountll(link.cards) > kRoundHand)
          fail(where(), "must link more cards than 'at_most' (at least 1), and at most a hand's three");
        int there = 0;
        for (int card = 0; card < 64; ++card) {
          if (!(link.cards >> card & 1)) continue;
          const int at =
              objective ? obj_at[static_cast<std::size_t>(card)] : spec_at[static_cast<std::size_t>(card)];
          // Linked cards were in a hand at the pass: they are in hands (or,
          // objectives, face-down discards), never the deck or the box.
          const int pile = objective ? may_be::kBox : may_be::kDeck;
          const unsigned m = objective ? objective_may_be(v, card) : specialist_may_be(v, card);
          if (at < 0 || at == pile || (m >> pile & 1))
            fail(where(), std::string("links a card that is (or may be) ") + (at < 0      ? "face up"
                                                                              : objective ? "in the box"
                                                                                          : "in the deck"));
          there += link.to >> at & 1;
        }
        if (there > link.most) fail(where(), "is not true: more of its cards are in those places");
      }
    }
    // The cards it passed: in other seats' hands (objectives: or discards), laid out as one of its layouts.
    for (const bool objective : {false, true}) {
      const PassedCards& p = objective ? objectives_passed(v) : specialists_passed(v);
      const std::string where =
          "seats[" + std::to_string(v) + "].knowledge.passed." + (objective ? "objectives" : "specialists");
      if (p.num_cards < 0 || p.num_cards > kMaxPassed || p.num_layouts < 1 || p.num_layouts > kMaxLayouts ||
          (p.num_cards == 0 && (p.num_layouts != 1 || p.layouts[0] != 0)))
        fail(where, "has a count out of range");
      uint32_t truth = 0;
      for (int i = 0; i < p.num_cards; ++i) {
        const int card = p.cards[static_cast<std::size_t>(i)];
        const int at = objective ? obj_at[card] : spec_at[card];
        const int seat = at < 0                           ? -1
                         : at < may_be::kDeck             ? at
                         : objective && at < may_be::kBox ? at - may_be::kDiscarded
                                                          : -1;
        if (seat < 0 || seat == v) fail(where, "follows a card that is not hidden in another seat's hand");
        truth |= static_cast<uint32_t>(seat) << (2 * i);
      }
      if (std::find(p.layouts.begin(), p.layouts.begin() + p.num_layouts, truth) ==
          p.layouts.begin() + p.num_layouts)
        fail(where, "leaves out where the cards are");
    }
  }
}

void State::check_invariants() const {
  const Config& c = *config_;
  const int n = num_players_;
  if (n < 2 || n > kMaxPlayers) fail("players", "must be 2 to 4");
  if (round_ < 1 || round_ > 8 || (phase_ != 1 && phase_ != 2)) fail("round", "or phase out of range");
  if ((step_ == Step::kGameOver) != (actor_ < 0)) fail("actor", "is -1 exactly when the game is over");
  if (actor_ >= n || start_player_ < 0 || start_player_ >= n || turn_ < 0 || turn_ > n)
    fail("actor", "start_player or turn is not a seat");
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    if (p.vp < 0 || p.vp > kMaxVp) fail(seat_field(w, "vp"), "out of range");
    if (p.money < 0 || p.money > kMaxMoney) fail(seat_field(w, "money"), "out of range");
    if (p.income < c.income_start || p.income > c.income_max) fail(seat_field(w, "income"), "out of range");
    if (p.lab_level < 1 || p.lab_level > kNumLevels) fail(seat_field(w, "lab_level"), "out of range");
    if (p.capacity_upgrades < 0 || p.capacity_upgrades > c.capacity_tokens)
      fail(seat_field(w, "capacity_upgrades"), "out of range");
    if (p.propulsion_upgrades < 0 || p.propulsion_upgrades > c.propulsion_tokens)
      fail(seat_field(w, "propulsion_upgrades"), "out of range");
    if (p.station_investments < 0 || p.station_investments > kMaxStation)
      fail(seat_field(w, "station_investments"), "out of range");
    for (int t : p.tech)
      if (t < 0 || t > kMaxTech) fail(seat_field(w, "tech"), "out of range");
    if (p.hand_size < 0 || p.hand_size > kRoundHand || p.num_played < 0 || p.num_played > kPlaysPerRound)
      fail(seat_field(w, "hand"), "size out of range");
    if (p.pick < -1 || p.pick >= kRoundHand) fail(seat_field(w, "pick"), "out of range");
    if (p.missions_launched < 0 || p.missions_launched > c.missions_per_round)
      fail(seat_field(w, "missions_launched"), "out of range");
    std::array<int, kMaxMissionTypes> owned{};
    for (int i = 0; i < p.num_earth; ++i) ++owned[p.earth[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_space; ++i) ++owned[p.space[static_cast<std::size_t>(i)]];
    for (int level = 1; level <= kNumLevels; ++level)
      if (owned_from_level(w, level) > c.max_per_deck)
        fail(seat_field(w, "earth"),
             "and space hold more than seven missions from the level " + std::to_string(level) + " deck");
    for (std::size_t t = 0; t < c.missions.size(); ++t)
      if (owned[t] > 1 && !c.missions[t].multi)
        fail(seat_field(w, "earth"), "and space hold two copies of " + c.missions[t].id);
  }
  check_flow();
  check_counts();
  check_decision();
  check_knowledge();
}

bool State::loaded_missions_on_earth() const {
  const Player& p = player(actor_);
  for (int i = 0; i < num_loaded_; ++i) {
    const int type = loaded_[static_cast<std::size_t>(i)];
    int on_earth = 0;
    for (int k = 0; k < p.num_earth; ++k) on_earth += p.earth[static_cast<std::size_t>(k)] == type;
    if (on_earth < loaded_count(type)) return false;
  }
  return true;
}

// ---------------------------------------------------------------- text

std::string State::action_to_string(Action a) const {
  const Config& c = *config_;
  auto spec = [&](int x) {
    return x < static_cast<int>(c.specialists.size())
               ? c.specialists[static_cast<std::size_t>(x)].name + " (" +
                     c.specialists[static_cast<std::size_t>(x)].id + ")"
               : "specialist #" + std::to_string(x);
  };
  auto mis = [&](int x) {
    return x < static_cast<int>(c.missions.size())
               ? c.missions[static_cast<std::size_t>(x)].name + " (L" +
                     std::to_string(c.missions[static_cast<std::size_t>(x)].level) + ")"
               : "mission #" + std::to_string(x);
  };
  auto obj = [&](int x) {
    return x < static_cast<int>(c.objectives.size()) ? c.objectives[static_cast<std::size_t>(x)].name + " (" +
                                                           c.objectives[static_cast<std::size_t>(x)].id + ")"
                                                     : "objective #" + std::to_string(x);
  };
  static const char* kPairs[3] = {"red + yellow", "red + blue", "yellow + blue"};
  if (a < 0 || a >= kNumActions) return "<action " + std::to_string(a) + " out of range>";
  if (a < kPassObjective) return "keep objective " + obj(a - kKeepObjective);
  if (a < kDraftLeft) return "pass objective " + obj(a - kPassObjective);
  if (a == kDraftLeft) return "pass specialists left (clockwise)";
  if (a == kDraftRight) return "pass specialists right (counter-clockwise)";
  if (a < kPassSpecialist) return "keep specialist " + spec(a - kKeepSpecialist);
  if (a < kPlaySpecialist) return "pass specialist " + spec(a - kPassSpecialist);
  if (a < kTakeMoney) return "play specialist " + spec(a - kPlaySpecialist);
  if (a == kTakeMoney) return "use no action: take " + std::to_string(c.money_instead) + " money";
  if (a == kEndSpecialist) return "finish this specialist";
  if (a == kMoney6)
    return "gain " + std::to_string(c.money6_self) + " money (others gain " +
           std::to_string(c.money6_others) + ")";
  if (a < kBuyTech) return "reward for level " + std::to_string(a - kRewardL1 + 1) + " missions in space";
  if (a < kBulkBuy)
    return std::string("buy 1 ") + colour_name(a - kBuyTech) + " tech for " + std::to_string(c.buy_tech);
  if (a < kBulkFinish)
    return std::string("bulk buy 1 ") + colour_name(a - kBulkBuy) + " tech for " +
           std::to_string(c.buy_tech_bulk);
  if (a == kBulkFinish) return "stop bulk buying";
  if (a == kBuyGreen) return "buy 1 green tech for " + std::to_string(c.buy_green);
  if (a < kCapacityUpgrade)
    return std::string("sell 1 ") + colour_name(a - kSellTech) + " tech for " + std::to_string(c.sell_tech);
  if (a == kCapacityUpgrade) return "buy a capacity upgrade for " + std::to_string(c.capacity_price);
  if (a < kExchangeGive)
    return std::string("buy ") + kPairs[a - kBuyTwoDifferent] + " techs for " +
           std::to_string(c.buy_two_different);
  if (a < kExchangeTake) return std::string("exchange: return 1 ") + colour_name(a - kExchangeGive) + " tech";
  if (a < kBuyGreenBulk) return std::string("exchange: take 1 ") + colour_name(a - kExchangeTake) + " tech";
  if (a < kLabUpgrade) {
    const int k = a - kBuyGreenBulk;
    return "buy " + std::to_string(k + 1) + " green tech for " +
           std::to_string(c.buy_green_bulk[static_cast<std::size_t>(k)]);
  }
  if (a == kLabUpgrade || a == kLabUpgradeCheap)
    return a == kLabUpgrade ? "upgrade the lab one level" : "upgrade the lab one level (cheap)";
  if (a == kPropulsionUpgrade) return "buy a propulsion upgrade for " + std::to_string(c.propulsion_price);
  if (a == kStationInvest) return "invest in the space station";
  if (a == kStationGreen) return "space station reward: take 1 green tech";
  if (a == kStationIncome) return "space station reward: income +1";
  if (a < kKeepMission)
    return "draw from the level " + std::to_string(a - kDrawFromDeck + 1) + " mission deck";
  if (a < kStopKeeping) return "keep mission " + mis(a - kKeepMission);
  if (a == kStopKeeping) return "keep no more missions";
  if (a == kLaunchWithLab) return "launch a rocket with the lab's launch symbol";
  if (a == kLaunchWithExtra)
    return "launch a rocket with an extra launch symbol (cost -" + std::to_string(c.extra_launch_discount) +
           ")";
  if (a == kEndLaunches) return "launch no more rockets this round";
  if (a < kApplyCapacity) return "load mission " + mis(a - kLoadMission) + " on the rocket";
  if (a < kLiftOff)
    return "use a +" + std::to_string(a - kApplyCapacity + 1) + " capacity banner on this launch";
  if (a == kLiftOff) return "lift off";
  if (a < kKeepObjectives)
    return "discard objective " + obj(a - kDiscardObjective) + " for " +
           std::to_string(c.objective_discard_money) + " money";
  return "keep the remaining objectives";
}

std::string State::to_string() const { return describe(-1); }

std::string State::observation_string(int viewer) const { return describe(viewer); }

// The board as text; viewer -1 shows everything, otherwise only what that
// player may see (other hands and objectives as counts and known cards).
std::string State::describe(int viewer) const {
  const Config& c = *config_;
  std::ostringstream out;
  out << "Lift Off, " << num_players_ << " players, round " << round_ << " (phase " << phase_
      << "), start player " << start_player_ << ", draft " << (direction_ > 0 ? "left" : "right") << "\n";
  out << "step " << step_name(step_)
      << (is_terminal() ? "" : ", player " + std::to_string(actor_) + " to act") << "\n";
  out << "specialist deck " << specialist_deck_count_ << ", discard " << specialist_discard_count_
      << "; mission decks L1-L4 " << mission_deck_count_[0] << "/" << mission_deck_count_[1] << "/"
      << mission_deck_count_[2] << "/" << mission_deck_count_[3] << "; station next cost "
      << station_next_cost() << "\n";
  for (int w = 0; w < num_players_; ++w) {
    const Player& p = player(w);
    out << "P" << w << ": " << p.vp << " VP";
    if (is_terminal()) out << " + " << final_vp_[static_cast<std::size_t>(w)] << " final";
    out << ", " << p.money << " money, income " << p.income << ", lab L" << p.lab_level << ", capacity "
        << capacity(w) << ", cost " << launch_cost(w) << ", tech R" << p.tech[0] << " Y" << p.tech[1] << " B"
        << p.tech[2] << " G" << p.tech[3] << ", station " << p.station_investments << "\n    earth:";
    for (int i = 0; i < p.num_earth; ++i) out << " " << c.missions[p.earth[static_cast<std::size_t>(i)]].id;
    out << "  space:";
    for (int i = 0; i < p.num_space; ++i) out << " " << c.missions[p.space[static_cast<std::size_t>(i)]].id;
    // A hidden hand shows the cards the viewer knows to be in it (in card
    // order, so the slots tell nothing), then one "??" per other card.
    const bool open = viewer < 0 || viewer == w || is_terminal();
    auto hidden_hand = [&](const std::array<uint8_t, 3>& cards, int count, uint64_t known, auto id) {
      if (open) {
        for (int i = 0; i < count; ++i) out << " " << id(cards[static_cast<std::size_t>(i)]);
        return;
      }
      int shown = 0;
      for (int card = 0; card < 64; ++card)
        if (known >> card & 1) out << " " << id(card), ++shown;
      for (; shown < count; ++shown) out << " ??";
    };
    auto spec_id = [&](int card) { return c.specialists[static_cast<std::size_t>(card)].id; };
    auto obj_id = [&](int card) { return c.objectives[static_cast<std::size_t>(card)].id; };
    const bool drafting = step_ == Step::kObjectiveKeep || step_ == Step::kObjectivePass ||
                          step_ == Step::kSpecialistKeep || step_ == Step::kSpecialistPass;
    const bool own_pick = drafting && (viewer == w || viewer < 0) && p.pick >= 0;
    const bool objective_draft = step_ == Step::kObjectiveKeep || step_ == Step::kObjectivePass;
    // A seat's own hidden pick: the card it keeps (first pick) or passes (second).
    const char* picking =
        step_ == Step::kObjectiveKeep || step_ == Step::kSpecialistKeep ? " (keeping " : " (passing ";
    out << "\n    hand:";
    hidden_hand(p.hand, p.hand_size, open ? 0 : known_specialists(viewer, w), spec_id);
    const bool other_pick = drafting && p.pick >= 0 && !own_pick;  // who has picked is public
    if (own_pick && !objective_draft)
      out << picking << spec_id(p.hand[static_cast<std::size_t>(p.pick)]) << ")";
    if (other_pick && !objective_draft) out << " (has picked)";
    out << "  played:";
    for (int i = 0; i < p.num_played; ++i)
      out << " " << c.specialists[p.played[static_cast<std::size_t>(i)]].id
          << (p.banner_used[static_cast<std::size_t>(i)] ? "*" : "");
    out << "  objectives:";
    hidden_hand(p.objectives, p.num_objectives, open ? 0 : known_objectives(viewer, w), obj_id);
    if (own_pick && objective_draft)
      out << picking << obj_id(p.objectives[static_cast<std::size_t>(p.pick)]) << ")";
    if (other_pick && objective_draft) out << " (has picked)";
    if (p.num_discarded_objectives > 0) out << " (" << p.num_discarded_objectives << " discarded)";
    out << "\n";
  }
  if (played_card_ >= 0)
    out << "resolving " << c.specialists[static_cast<std::size_t>(played_card_)].name << "\n";
  if (num_drawn_ > 0) {
    out << "drawn:";
    for (int i = 0; i < num_drawn_; ++i) out << " " << c.missions[drawn_[static_cast<std::size_t>(i)]].id;
    out << " (keep up to " << keeps_left_ << ")\n";
  }
  if (step_ == Step::kLoadRocket) {
    out << "rocket (" << (launch_uses_lab_ ? "lab" : "extra") << " symbol, capacity " << rocket_capacity_now()
        << "):";
    for (int i = 0; i < num_loaded_; ++i) out << " " << c.missions[loaded_[static_cast<std::size_t>(i)]].id;
    out << "\n";
  }
  return out.str();
}

}  // namespace rocketgym::lift_off
