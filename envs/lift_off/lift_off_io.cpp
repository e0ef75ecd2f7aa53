// Lift Off: JSON documents, readable text, invariants and redeterminization.
#include <algorithm>
#include <sstream>

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

template <class Name>
Json mask_list(uint64_t mask, Name name) {
  Json out = Json::array();
  for (int c = 0; c < 64; ++c)
    if (mask & (uint64_t{1} << c)) out.push_back(name(c));
  return out;
}

// Reads a list of card ids into a fixed array; unknown ids and overflows are errors.
template <std::size_t N, class Lookup>
int read_cards(const Json& j, const char* key, std::array<uint8_t, N>& out, int max, Lookup lookup) {
  const Json list = json_get<Json>(j, key);
  if (!list.is_array())
    throw SerializationError(std::string("state document: '") + key + "' must be a list of card ids");
  if (static_cast<int>(list.size()) > max)
    throw SerializationError(std::string("state document: '") + key + "' holds more than " +
                             std::to_string(max) + " cards");
  int n = 0;
  for (const auto& item : list) {
    if (!item.is_string())
      throw SerializationError(std::string("state document: '") + key + "' must hold card ids");
    const int card = lookup(item.get<std::string>());
    if (card < 0)
      throw SerializationError(std::string("state document: '") + key + "': unknown card '" +
                               item.get<std::string>() + "'");
    out[static_cast<std::size_t>(n++)] = static_cast<uint8_t>(card);
  }
  return n;
}

template <class Lookup>
uint64_t read_mask(const Json& list, const char* key, Lookup lookup) {
  if (!list.is_array()) throw SerializationError(std::string("state document: '") + key + "' must be a list");
  uint64_t m = 0;
  for (const auto& item : list) {
    const int card = item.is_string() ? lookup(item.get<std::string>()) : -1;
    if (card < 0) throw SerializationError(std::string("state document: '") + key + "': unknown card");
    m |= uint64_t{1} << card;
  }
  return m;
}

[[noreturn]] void fail(const std::string& what) { throw InvariantViolation("lift_off: " + what); }

// Takes a plain C string so that a passing check allocates nothing.
void require(bool ok, const char* what) {
  if (!ok) fail(what);
}

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
    Json ks = Json::array(), ko = Json::array();
    for (int w = 0; w < num_players_; ++w) {
      ks.push_back(mask_list(p.knows_specialists[static_cast<std::size_t>(w)], sid));
      ko.push_back(mask_list(p.knows_objectives[static_cast<std::size_t>(w)], oid));
    }
    j["knows_specialists"] = ks;
    j["knows_objectives"] = ko;
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

State State::from_json(const Json& doc, const Config& config) {
  const Config& c = config;
  auto sid = [&](const std::string& x) { return c.specialist_index(x); };
  auto mid = [&](const std::string& x) { return c.mission_index(x); };
  auto oid = [&](const std::string& x) { return c.objective_index(x); };
  if (json_get<std::string>(doc, "game") != "lift_off")
    throw SerializationError("state document: 'game' must be \"lift_off\"");
  State s;
  s.config_ = &config;
  s.num_players_ = json_get_int(doc, "players", 2, kMaxPlayers);
  const int n = s.num_players_;
  s.round_ = json_get_int(doc, "round", 1, 8);
  s.phase_ = json_get_int(doc, "phase", 1, 2);
  const std::string step = json_get<std::string>(doc, "step");
  bool found = false;
  for (Step st : kAllSteps)
    if (step == step_name(st)) s.step_ = st, found = true;
  if (!found) throw SerializationError("state document: unknown step '" + step + "'");
  s.actor_ = json_get_int(doc, "actor", -1, n - 1);
  s.start_player_ = json_get_int(doc, "start_player", 0, n - 1);
  const std::string dir = json_get<std::string>(doc, "direction");
  if (dir != "left" && dir != "right")
    throw SerializationError("state document: 'direction' must be left or right");
  s.direction_ = dir == "left" ? 1 : -1;
  s.turn_ = json_get_int(doc, "turn", 0, n);
  s.play_pass_ = json_get_int(doc, "play_pass", 0, 2);
  s.rng_ = rng_from_json(json_get<Json>(doc, "rng"));
  const Json seats = json_get<Json>(doc, "seats");
  if (!seats.is_array() || static_cast<int>(seats.size()) != n)
    throw SerializationError("state document: 'seats' must list one entry per player");
  for (int w = 0; w < n; ++w) {
    const Json& j = seats[static_cast<std::size_t>(w)];
    Player& p = s.players_[static_cast<std::size_t>(w)];
    p.vp = json_get_int(j, "vp", -100000, 100000);
    p.money = json_get_int(j, "money", 0, 100000);
    p.income = json_get_int(j, "income", 0, config.income_max);
    p.capacity_upgrades = json_get_int(j, "capacity_upgrades", 0, config.capacity_tokens);
    p.propulsion_upgrades = json_get_int(j, "propulsion_upgrades", 0, config.propulsion_tokens);
    p.lab_level = json_get_int(j, "lab_level", 1, kNumLevels);
    p.station_investments = json_get_int(j, "station_investments", 0, 1000);
    const Json tech = json_get<Json>(j, "tech");
    for (int col = 0; col < kNumColours; ++col)
      p.tech[static_cast<std::size_t>(col)] = json_get_int(tech, colour_name(col), 0, 1000);
    p.num_earth = read_cards(j, "earth", p.earth, static_cast<int>(p.earth.size()), mid);
    p.num_space = read_cards(j, "space", p.space, static_cast<int>(p.space.size()), mid);
    p.hand_size = read_cards(j, "hand", p.hand, 3, sid);
    p.num_played = read_cards(j, "played", p.played, 2, sid);
    const Json used = json_get<Json>(j, "banner_used");
    if (!used.is_array() || used.size() != 2 || !used[0].is_boolean() || !used[1].is_boolean())
      throw SerializationError("state document: 'banner_used' must be two booleans");
    p.banner_used = {used[0].get<bool>(), used[1].get<bool>()};
    p.num_objectives = read_cards(j, "objectives", p.objectives, 3, oid);
    p.num_discarded_objectives = read_cards(j, "discarded_objectives", p.discarded_objectives, 3, oid);
    p.pick = json_get_int(j, "pick", -1, 2);
    const Json ks = json_get<Json>(j, "knows_specialists");
    const Json ko = json_get<Json>(j, "knows_objectives");
    if (!ks.is_array() || !ko.is_array() || static_cast<int>(ks.size()) != n ||
        static_cast<int>(ko.size()) != n)
      throw SerializationError(
          "state document: 'knows_specialists' and 'knows_objectives' need one list per player");
    for (int v = 0; v < n; ++v) {
      p.knows_specialists[static_cast<std::size_t>(v)] =
          read_mask(ks[static_cast<std::size_t>(v)], "knows_specialists", sid);
      p.knows_objectives[static_cast<std::size_t>(v)] =
          static_cast<uint32_t>(read_mask(ko[static_cast<std::size_t>(v)], "knows_objectives", oid));
    }
    p.missions_launched = json_get_int(j, "missions_launched", 0, config.missions_per_round);
    p.lab_symbol_used = json_get<bool>(j, "lab_symbol_used");
  }
  s.specialist_deck_count_ = read_cards(doc, "specialist_deck", s.specialist_deck_, kMaxSpecialists, sid);
  s.specialist_discard_count_ =
      read_cards(doc, "specialist_discard", s.specialist_discard_, kMaxSpecialists, sid);
  const Json decks = json_get<Json>(doc, "mission_decks");
  const Json discards = json_get<Json>(doc, "mission_discards");
  if (!decks.is_array() || !discards.is_array() || decks.size() != kNumLevels ||
      discards.size() != kNumLevels)
    throw SerializationError(
        "state document: 'mission_decks' and 'mission_discards' need four lists (levels 1-4)");
  for (std::size_t l = 0; l < kNumLevels; ++l) {
    Json wrap;
    wrap["deck"] = decks[l];
    wrap["discard"] = discards[l];
    s.mission_deck_count_[l] = read_cards(wrap, "deck", s.mission_deck_[l], kMaxDeckCards, mid);
    s.mission_discard_count_[l] = read_cards(wrap, "discard", s.mission_discard_[l], kMaxDeckCards, mid);
  }
  s.objective_box_count_ = read_cards(doc, "objective_box", s.objective_box_, kMaxObjectives, oid);
  const Json play = json_get<Json>(doc, "specialist_play");
  const Json card = json_get<Json>(play, "card");
  s.played_card_ = card.is_null() ? -1 : (card.is_string() ? sid(card.get<std::string>()) : -2);
  if (s.played_card_ == -2 || (!card.is_null() && s.played_card_ < 0))
    throw SerializationError("state document: 'specialist_play.card' must be null or a specialist id");
  s.used_actions_ = json_get_int(play, "used_actions", 0, 3);
  s.took_money_ = json_get<bool>(play, "took_money");
  s.bulk_bought_ = json_get_int(play, "bulk_bought", 0, config.buy_tech_bulk_max);
  s.exchange_given_ = json_get_int(play, "exchange_given", 0, config.exchange_max);
  s.exchange_taken_ = json_get_int(play, "exchange_taken", 0, config.exchange_max);
  const Json draw = json_get<Json>(doc, "mission_draw");
  s.draw_level_ = json_get_int(draw, "level", 0, kNumLevels);
  s.num_drawn_ = read_cards(draw, "drawn", s.drawn_, kMaxDeckCards, mid);
  s.keeps_left_ = json_get_int(draw, "keeps_left", 0, 3);
  s.kept_this_draw_ = json_get_int(draw, "kept", 0, 3);
  const Json launch = json_get<Json>(doc, "launch");
  s.launch_uses_lab_ = json_get<bool>(launch, "uses_lab");
  s.num_loaded_ = read_cards(launch, "loaded", s.loaded_, 3, mid);
  s.applied_capacity_ = json_get_int(launch, "applied_capacity", 0, 100);
  const Json fin = json_get<Json>(doc, "final_vp");
  if (!fin.is_array() || static_cast<int>(fin.size()) != n)
    throw SerializationError("state document: 'final_vp' needs one entry per player");
  for (int w = 0; w < n; ++w) {
    if (!fin[static_cast<std::size_t>(w)].is_number_integer())
      throw SerializationError("state document: 'final_vp' must hold integers");
    s.final_vp_[static_cast<std::size_t>(w)] = fin[static_cast<std::size_t>(w)].get<int>();
  }
  try {
    s.check_invariants();
  } catch (const InvariantViolation& e) {
    throw SerializationError(std::string("state document describes an impossible position: ") + e.what());
  }
  return s;
}

// ---------------------------------------------------------------- invariants

void State::check_invariants() const {
  const Config& c = *config_;
  const int n = num_players_;
  require(n >= 2 && n <= kMaxPlayers, "player count out of range");
  require(round_ >= 1 && round_ <= 8 && (phase_ == 1 || phase_ == 2), "round or phase out of range");
  require((step_ == Step::kGameOver) == (actor_ < 0), "the actor is -1 exactly when the game is over");
  require(actor_ < n && start_player_ >= 0 && start_player_ < n, "seat out of range");
  // Specialists: every card of this player count is in exactly one place.
  std::array<int, kMaxSpecialists> seen_s{};
  for (int i = 0; i < specialist_deck_count_; ++i) ++seen_s[specialist_deck_[static_cast<std::size_t>(i)]];
  for (int i = 0; i < specialist_discard_count_; ++i)
    ++seen_s[specialist_discard_[static_cast<std::size_t>(i)]];
  std::array<int, kMaxMissionTypes> seen_m{};
  std::array<int, kMaxObjectives> seen_o{};
  for (int i = 0; i < objective_box_count_; ++i) ++seen_o[objective_box_[static_cast<std::size_t>(i)]];
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    require(p.money >= 0 && p.income >= 0 && p.income <= c.income_max, "money or income out of range");
    require(p.lab_level >= 1 && p.lab_level <= kNumLevels, "lab level out of range");
    require(p.capacity_upgrades >= 0 && p.capacity_upgrades <= c.capacity_tokens &&
                p.propulsion_upgrades >= 0 && p.propulsion_upgrades <= c.propulsion_tokens,
            "upgrade tokens out of range");
    for (int t : p.tech) require(t >= 0, "negative tech count");
    require(p.hand_size >= 0 && p.hand_size <= 3 && p.num_played >= 0 && p.num_played <= 2,
            "hand size out of range");
    require(p.pick >= -1 && p.pick < 3, "draft pick out of range");
    uint64_t hand_mask = 0;
    for (int i = 0; i < p.hand_size; ++i) {
      ++seen_s[p.hand[static_cast<std::size_t>(i)]];
      hand_mask |= uint64_t{1} << p.hand[static_cast<std::size_t>(i)];
    }
    for (int i = 0; i < p.num_played; ++i) ++seen_s[p.played[static_cast<std::size_t>(i)]];
    uint32_t objective_mask = 0;
    for (int i = 0; i < p.num_objectives; ++i) {
      ++seen_o[p.objectives[static_cast<std::size_t>(i)]];
      objective_mask |= uint32_t{1} << p.objectives[static_cast<std::size_t>(i)];
    }
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      ++seen_o[p.discarded_objectives[static_cast<std::size_t>(i)]];
    for (int v = 0; v < n; ++v) {
      const Player& viewer = player(v);
      require((viewer.knows_specialists[static_cast<std::size_t>(w)] & ~hand_mask) == 0,
              "a player knows of a specialist that is not in that hand");
      require((viewer.knows_objectives[static_cast<std::size_t>(w)] & ~objective_mask) == 0,
              "a player knows of an objective that is not in that hand");
    }
    std::array<int, kMaxMissionTypes> owned{};
    for (int i = 0; i < p.num_earth; ++i) ++owned[p.earth[static_cast<std::size_t>(i)]];
    for (int i = 0; i < p.num_space; ++i) ++owned[p.space[static_cast<std::size_t>(i)]];
    for (int level = 1; level <= kNumLevels; ++level)
      require(owned_from_level(w, level) <= c.max_per_deck, "more than seven missions from one deck");
    for (std::size_t t = 0; t < c.missions.size(); ++t) {
      require(owned[t] <= 1 || c.missions[t].multi, "two copies of one mission title");
      seen_m[t] += owned[t];
    }
    require(p.missions_launched <= c.missions_per_round, "too many missions launched this round");
  }
  for (std::size_t card = 0; card < c.specialists.size(); ++card)
    if (seen_s[card] != (c.specialist_in_game(static_cast<int>(card), n) ? 1 : 0))
      fail("specialist " + c.specialists[card].id + " is not in exactly one place");
  for (std::size_t o = 0; o < c.objectives.size(); ++o)
    if (seen_o[o] != 1) fail("objective " + c.objectives[o].id + " is not in exactly one place");
  for (std::size_t l = 0; l < kNumLevels; ++l) {
    for (int i = 0; i < mission_deck_count_[l]; ++i) {
      const int t = mission_deck_[l][static_cast<std::size_t>(i)];
      require(c.missions[static_cast<std::size_t>(t)].level == static_cast<int>(l) + 1,
              "a mission in the wrong deck");
      ++seen_m[static_cast<std::size_t>(t)];
    }
    for (int i = 0; i < mission_discard_count_[l]; ++i) {
      const int t = mission_discard_[l][static_cast<std::size_t>(i)];
      require(c.missions[static_cast<std::size_t>(t)].level == static_cast<int>(l) + 1,
              "a mission in the wrong discard");
      ++seen_m[static_cast<std::size_t>(t)];
    }
  }
  for (int i = 0; i < num_drawn_; ++i) {
    const int t = drawn_[static_cast<std::size_t>(i)];
    require(c.missions[static_cast<std::size_t>(t)].level == draw_level_, "a drawn mission of another level");
    ++seen_m[static_cast<std::size_t>(t)];
  }
  for (std::size_t t = 0; t < c.missions.size(); ++t)
    if (seen_m[t] != c.missions[t].copies_for(n))
      fail("mission " + c.missions[t].id + " copies are not conserved");
  // The decision in progress refers to things that exist.
  const bool resolving = step_ == Step::kSpecialistActions || step_ == Step::kBulkBuy ||
                         step_ == Step::kExchangeGive || step_ == Step::kExchangeTake ||
                         step_ == Step::kStationReward;
  if (resolving) {
    const Player& p = player(actor_);
    require(played_card_ >= 0 && p.num_played > 0 &&
                p.played[static_cast<std::size_t>(p.num_played - 1)] == played_card_,
            "the specialist being resolved is not the actor's last played card");
  } else {
    require(played_card_ == -1, "a specialist is being resolved outside the specialist step");
  }
  require((step_ == Step::kKeepMissions) == (draw_level_ > 0), "a mission draw outside the keep step");
  require(step_ == Step::kKeepMissions || num_drawn_ == 0, "drawn missions outside the keep step");
  require(step_ == Step::kLoadRocket || num_loaded_ == 0, "loaded missions outside a launch");
  if (step_ == Step::kLoadRocket) {
    const Player& p = player(actor_);
    require(loaded_missions_on_earth(), "a loaded mission is not on Earth");
    require(p.missions_launched + num_loaded_ <= c.missions_per_round, "too many missions loaded");
  }
  const bool drafting = step_ == Step::kObjectiveKeep || step_ == Step::kObjectivePass ||
                        step_ == Step::kSpecialistKeep || step_ == Step::kSpecialistPass;
  for (int w = 0; w < n; ++w) {
    const Player& p = player(w);
    const int size =
        (step_ == Step::kObjectiveKeep || step_ == Step::kObjectivePass) ? p.num_objectives : p.hand_size;
    require(p.pick == -1 || (drafting && p.pick < size), "a draft pick outside a draft");
  }
  if (drafting && !is_terminal()) require(player(actor_).pick == -1, "the actor has already picked");
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

// ---------------------------------------------------------------- hidden information

// The viewer keeps their own hand and objectives, every public card, and the
// cards they know to be in another hand. Everything else that is hidden to
// them (other hands, the specialist deck order, undealt and discarded
// objectives, mission deck orders) is dealt again at random, same counts.
void State::redeterminize(int viewer, Rng& rng) {
  const std::array<Player, kMaxPlayers> before = players_;
  std::array<uint8_t, kMaxSpecialists> pool{};
  int pool_size = 0;
  for (int i = 0; i < specialist_deck_count_; ++i)
    pool[static_cast<std::size_t>(pool_size++)] = specialist_deck_[static_cast<std::size_t>(i)];
  const Player& me = player(viewer);
  for (int w = 0; w < num_players_; ++w) {
    if (w == viewer) continue;
    const Player& p = player(w);
    for (int i = 0; i < p.hand_size; ++i)
      if (!(me.knows_specialists[static_cast<std::size_t>(w)] &
            (uint64_t{1} << p.hand[static_cast<std::size_t>(i)])))
        pool[static_cast<std::size_t>(pool_size++)] = p.hand[static_cast<std::size_t>(i)];
  }
  rng.shuffle(pool.begin(), pool.begin() + pool_size);
  int next = 0;
  for (int i = 0; i < specialist_deck_count_; ++i)
    specialist_deck_[static_cast<std::size_t>(i)] = pool[static_cast<std::size_t>(next++)];
  for (int w = 0; w < num_players_; ++w) {
    if (w == viewer) continue;
    Player& p = players_[static_cast<std::size_t>(w)];
    const uint64_t known = me.knows_specialists[static_cast<std::size_t>(w)];
    for (int i = 0; i < p.hand_size; ++i)
      if (!(known & (uint64_t{1} << p.hand[static_cast<std::size_t>(i)])))
        p.hand[static_cast<std::size_t>(i)] = pool[static_cast<std::size_t>(next++)];
  }
  // Objectives: the box, others' unknown objectives and their face-down discards.
  std::array<uint8_t, kMaxObjectives> opool{};
  int opool_size = 0;
  for (int i = 0; i < objective_box_count_; ++i)
    opool[static_cast<std::size_t>(opool_size++)] = objective_box_[static_cast<std::size_t>(i)];
  for (int w = 0; w < num_players_; ++w) {
    if (w == viewer) continue;
    const Player& p = player(w);
    for (int i = 0; i < p.num_objectives; ++i)
      if (!(me.knows_objectives[static_cast<std::size_t>(w)] &
            (uint32_t{1} << p.objectives[static_cast<std::size_t>(i)])))
        opool[static_cast<std::size_t>(opool_size++)] = p.objectives[static_cast<std::size_t>(i)];
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      opool[static_cast<std::size_t>(opool_size++)] = p.discarded_objectives[static_cast<std::size_t>(i)];
  }
  rng.shuffle(opool.begin(), opool.begin() + opool_size);
  next = 0;
  for (int i = 0; i < objective_box_count_; ++i)
    objective_box_[static_cast<std::size_t>(i)] = opool[static_cast<std::size_t>(next++)];
  for (int w = 0; w < num_players_; ++w) {
    if (w == viewer) continue;
    Player& p = players_[static_cast<std::size_t>(w)];
    const uint32_t known = me.knows_objectives[static_cast<std::size_t>(w)];
    for (int i = 0; i < p.num_objectives; ++i)
      if (!(known & (uint32_t{1} << p.objectives[static_cast<std::size_t>(i)])))
        p.objectives[static_cast<std::size_t>(i)] = opool[static_cast<std::size_t>(next++)];
    for (int i = 0; i < p.num_discarded_objectives; ++i)
      p.discarded_objectives[static_cast<std::size_t>(i)] = opool[static_cast<std::size_t>(next++)];
  }
  // What the other players knew follows the cards: if they knew the card in a
  // resampled slot, in this world they know the card that is there now.
  for (int x = 0; x < num_players_; ++x) {
    const Player& old_hand = before[static_cast<std::size_t>(x)];
    const Player& new_hand = player(x);
    for (int w = 0; w < num_players_; ++w) {
      Player& knower = players_[static_cast<std::size_t>(w)];
      uint64_t ks = 0;
      for (int i = 0; i < new_hand.hand_size; ++i)
        if (before[static_cast<std::size_t>(w)].knows_specialists[static_cast<std::size_t>(x)] &
            (uint64_t{1} << old_hand.hand[static_cast<std::size_t>(i)]))
          ks |= uint64_t{1} << new_hand.hand[static_cast<std::size_t>(i)];
      uint32_t ko = 0;
      for (int i = 0; i < new_hand.num_objectives; ++i)
        if (before[static_cast<std::size_t>(w)].knows_objectives[static_cast<std::size_t>(x)] &
            (uint32_t{1} << old_hand.objectives[static_cast<std::size_t>(i)]))
          ko |= uint32_t{1} << new_hand.objectives[static_cast<std::size_t>(i)];
      knower.knows_specialists[static_cast<std::size_t>(x)] = ks;
      knower.knows_objectives[static_cast<std::size_t>(x)] = ko;
    }
  }
  // Mission deck orders are hidden; their contents are public.
  for (std::size_t l = 0; l < kNumLevels; ++l)
    rng.shuffle(mission_deck_[l].begin(), mission_deck_[l].begin() + mission_deck_count_[l]);
  rng_.reseed(rng.next());
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
    const bool open = viewer < 0 || viewer == w || is_terminal();
    const uint64_t known_hand =
        viewer >= 0 ? player(viewer).knows_specialists[static_cast<std::size_t>(w)] : 0;
    const uint32_t known_objectives =
        viewer >= 0 ? player(viewer).knows_objectives[static_cast<std::size_t>(w)] : 0;
    out << "\n    hand:";
    for (int i = 0; i < p.hand_size; ++i) {
      const int card = p.hand[static_cast<std::size_t>(i)];
      out << " "
          << (open || (known_hand >> card & 1) ? c.specialists[static_cast<std::size_t>(card)].id : "??");
    }
    out << "  played:";
    for (int i = 0; i < p.num_played; ++i)
      out << " " << c.specialists[p.played[static_cast<std::size_t>(i)]].id
          << (p.banner_used[static_cast<std::size_t>(i)] ? "*" : "");
    out << "  objectives:";
    for (int i = 0; i < p.num_objectives; ++i) {
      const int card = p.objectives[static_cast<std::size_t>(i)];
      out << " "
          << (open || (known_objectives >> card & 1) ? c.objectives[static_cast<std::size_t>(card)].id
                                                     : "??");
    }
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
