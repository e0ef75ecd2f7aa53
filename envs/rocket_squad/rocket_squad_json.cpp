// Rocket Squad: JSON documents. Reading checks a position completely (field types
// and ranges, cross-field checks naming the field at fault, then check_invariants).
#include <algorithm>
#include <iterator>

#include "envs/core/quoted.h"
#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {
namespace {

const char* const kPhaseNames[] = {"turn", "reaction", "crew", "jackie_keep", "ace_pass", "game_over"};
const char* const kBoosterLocations[kNumLocations] = {"blue", "green", "yellow", "red"};

Json card_list(const CardType* cards, int count) {
  Json out = Json::array();
  for (int i = 0; i < count; ++i) out.push_back(card_name(cards[i]));
  return out;
}

inline uint8_t bit(int seat) { return static_cast<uint8_t>(1u << seat); }

// Every rejection names the field ("hands[1].known_by") and the reason.
[[noreturn]] void reject(const std::string& field, const std::string& why) {
  throw SerializationError("state document: '" + field + "': " + why);
}

template <class T>
T read_as(const Json& v, const std::string& field) {
  try {
    return v.get<T>();
  } catch (const nlohmann::json::exception& e) {
    reject(field, e.what());
  } catch (const SerializationError& e) {
    reject(field, e.what());
  }
}

CardType read_card(const Json& j, const std::string& field) {
  const std::string name = read_as<std::string>(j, field);
  CardType t;
  if (!card_from_name(name, t)) reject(field, "unknown card " + quote(name));
  return t;
}

// Reads a list of card names into `out`, at most `capacity` of them.
template <std::size_t N>
uint8_t read_cards(const Json& j, const std::string& field, std::array<CardType, N>& out, int capacity) {
  if (!j.is_array()) reject(field, "must be a list of cards");
  if (static_cast<int>(j.size()) > capacity)
    reject(field, "holds " + std::to_string(j.size()) + " cards, at most " + std::to_string(capacity));
  int n = 0;
  for (const Json& item : j) {
    out[static_cast<std::size_t>(n)] = read_card(item, field + "[" + std::to_string(n) + "]");
    ++n;
  }
  return static_cast<uint8_t>(n);
}

template <std::size_t N>
Json mask_list(const std::array<uint8_t, N>& masks, int count) {
  return Json(std::vector<int>(masks.begin(), masks.begin() + count));
}

}  // namespace

// The members of one JSON object, named by their path in errors.
struct DocumentFields {
  const Json& obj;
  std::string path;  // empty at the top level

  DocumentFields(const Json& o, std::string p) : obj(o), path(std::move(p)) {
    if (!obj.is_object()) reject(path.empty() ? "<document>" : path, "must be a JSON object");
  }
  std::string name(const std::string& key) const { return path.empty() ? key : path + "." + key; }
  bool has(const char* key) const { return obj.contains(key); }
  const Json& at(const char* key) const {
    if (!has(key)) reject(name(key), "missing");
    return obj.at(key);
  }
  int integer(const char* key, int lo, int hi) const {
    const int v = read_as<int>(at(key), name(key));
    if (v < lo || v > hi)
      reject(name(key),
             std::to_string(v) + " out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
  }
  int integer_or(const char* key, int fallback, int lo, int hi) const {
    return has(key) ? integer(key, lo, hi) : fallback;
  }
  bool flag_or(const char* key, bool fallback) const {
    return has(key) ? read_as<bool>(at(key), name(key)) : fallback;
  }
  std::string text_or(const char* key, const std::string& fallback) const {
    return has(key) ? read_as<std::string>(at(key), name(key)) : fallback;
  }
  void only(std::initializer_list<const char*> keys) const {
    for (const auto& item : obj.items())
      if (std::find_if(keys.begin(), keys.end(), [&](const char* k) { return item.key() == k; }) ==
          keys.end())
        reject(name(item.key()), "unknown field");
  }
};

namespace {
using Fields = DocumentFields;

// One small number per card of a region, each checked by `error` (which returns
// why a value is refused, or an empty string); a missing list means `fallback` for every card.
template <std::size_t N, class Check>
void read_per_card(const Fields& f, const char* key, std::array<uint8_t, N>& out, int count, uint8_t fallback,
                   const char* what, Check error) {
  if (!f.has(key)) {
    std::fill(out.begin(), out.begin() + count, fallback);
    return;
  }
  const Json& list = f.at(key);
  const std::string field = f.name(key);
  if (!list.is_array() || static_cast<int>(list.size()) != count)
    reject(field, std::string("must list one ") + what + " per card (" + std::to_string(count) + ")");
  for (int i = 0; i < count; ++i) {
    const int v = read_as<int>(list[static_cast<std::size_t>(i)], field);
    if (const std::string why = error(v); !why.empty()) reject(field + "[" + std::to_string(i) + "]", why);
    out[static_cast<std::size_t>(i)] = static_cast<uint8_t>(v);
  }
}

// One seat mask per card (seats that know it); seats outside `allowed` are an error. A missing
// list means nobody knows anything (`fallback` for every card).
template <std::size_t N>
void read_masks(const Fields& f, const char* key, std::array<uint8_t, N>& out, int count, uint8_t allowed,
                uint8_t fallback) {
  read_per_card(f, key, out, count, fallback, "seat mask", [allowed](int v) {
    return v < 0 || v > 255 || (v & ~allowed)
               ? "seat mask " + std::to_string(v) + " names a seat that cannot know this card"
               : std::string();
  });
}

// One deck mark (0 or 1) per card; a missing list means `fallback` for every card.
template <std::size_t N>
void read_marks(const Fields& f, const char* key, std::array<uint8_t, N>& out, int count, uint8_t fallback) {
  read_per_card(f, key, out, count, fallback, "deck mark (0 or 1)", [](int v) {
    return v != 0 && v != 1 ? std::string("a deck mark is 0 or 1") : std::string();
  });
}

int read_location(const Fields& f, const char* key) {
  const std::string name = f.text_or(key, "");
  for (int loc = 0; loc < kNumLocations; ++loc)
    if (name == location_name(loc)) return loc;
  reject(f.name(key), "unknown location " + quote(name));
}
}  // namespace

const char* phase_name(Phase p) { return kPhaseNames[static_cast<int>(p)]; }

// ---------------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------------

Json State::to_json() const {
  const int n = num_players_;
  Json doc;
  doc["game"] = "rocket_squad";
  doc["players"] = n;
  doc["phase"] = kPhaseNames[static_cast<int>(phase_)];
  doc["turn_player"] = turn_player_;
  doc["decider"] = decider_;
  doc["turn"] = turn_number_;
  doc["decisions"] = decisions_;
  doc["truncated"] = truncated_;
  doc["redraw_used"] = redraw_used_;
  doc["turn_start"] = turn_start_;
  Json first = Json::array(), owed = Json::array();
  for (int p = 0; p < n; ++p) {
    first.push_back(!first_turn(p));
    owed.push_back(owes_final_turn(p));
  }
  doc["first_turn_done"] = first;
  doc["end_triggered"] = end_triggered_;
  doc["trigger_seat"] = trigger_seat_;
  doc["final_turn_owed"] = owed;
  doc["in_final_turn"] = in_final_turn_;
  if (crew_location_ >= 0) doc["crew_location"] = location_name(crew_location_);
  doc["draw_pile"] = card_list(draw_.cards.data(), draw_.count);  // bottom first
  doc["draw_known_by"] = mask_list(draw_.known_by, draw_.count);
  doc["draw_counted_by"] = mask_list(draw_.counted_by, draw_.count);
  doc["draw_from_deck"] = mask_list(draw_.from_deck, draw_.count);
  Json deck = Json::array();
  for (int t = 0; t < kNumCardTypes; ++t)
    for (int k = 0; k < deck_.cards[t]; ++k) deck.push_back(card_name(static_cast<CardType>(t)));
  doc["deck"] = {{"cards", deck}, {"untracked", deck_.untracked}};
  Json where = Json::array();
  for (int i = 0; i < num_whereabouts_; ++i) {
    const Whereabouts& w = whereabouts_[i];
    Json hands = Json::array();
    for (int p = 0; p < num_players_; ++p)
      if ((w.hands >> p) & 1) hands.push_back(p);
    Json fact = {{"card", card_name(w.card)}, {"knower", w.knower}, {"hands", hands}};
    if (w.or_boxes) fact["or_boxes"] = true;
    where.push_back(fact);
  }
  doc["whereabouts"] = where;
  doc["discard_pile"] = card_list(discard_.cards.data(), discard_.count);
  Json hands = Json::array(), rockets = Json::array();
  for (int p = 0; p < n; ++p) {
    const Hand& h = hands_[p];
    hands.push_back({{"cards", card_list(h.cards.data(), h.count)},
                     {"known_by", mask_list(h.known_by, h.count)},
                     {"from_deck", mask_list(h.from_deck, h.count)}});
    Json area;
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = rockets_[p][loc];
      Json rj;
      rj["booster"] = r.has_booster() ? Json(card_name(r.booster)) : Json(nullptr);
      rj["launched"] = r.launched;
      rj["crew"] = r.crew;
      rj["joker"] = r.joker;
      rj["friend"] = r.friend_beside;
      rj["boxes"] = card_list(r.boxes.data(), r.num_boxes);
      rj["boxes_known_by"] = mask_list(r.box_known_by, r.num_boxes);
      rj["boxes_from_deck"] = mask_list(r.box_from_deck, r.num_boxes);
      area[location_name(loc)] = rj;
    }
    rockets.push_back(area);
  }
  doc["hands"] = hands;
  doc["rockets"] = rockets;
  if (chain_.active) {
    doc["chain"] = {{"card", card_name(chain_.card)}, {"action", chain_.action},
                    {"against", chain_.against},      {"blocks", chain_.blocks},
                    {"top", card_name(chain_.top)},   {"top_player", chain_.top_player},
                    {"asked", chain_.asked}};
  }
  if (ace_.active) {
    doc["ace"] = {{"direction", ace_.direction},
                  {"next_seat", ace_.next_seat},
                  {"skips", ace_.skips},
                  {"boxes", card_list(ace_.boxes.data(), ace_.count)},
                  {"boxes_known_by", mask_list(ace_.box_known_by, ace_.count)},
                  {"boxes_from_deck", mask_list(ace_.box_from_deck, ace_.count)}};
  }
  doc["jackie"] = card_list(jackie_.cards.data(), jackie_.count);
  doc["jackie_known_by"] = mask_list(jackie_.known_by, jackie_.count);
  doc["jackie_from_deck"] = mask_list(jackie_.from_deck, jackie_.count);
  doc["rng"] = rng_to_json(rng_);
  return doc;
}

// Reads and checks a position completely before returning it: field types and ranges, the
// decision in progress, turn order, the end of the game, the reaction chain, the knowledge
// masks, card conservation and the other invariants. Fields that a hand-written position may
// leave out have defaults (documented in tests/rocket_squad/rocket_squad_test_util.h).
State State::from_json(const Json& doc, const Config& config) {
  const Fields f(doc, "");
  f.only({"game",
          "players",
          "phase",
          "turn_player",
          "decider",
          "turn",
          "decisions",
          "truncated",
          "redraw_used",
          "turn_start",
          "first_turn_done",
          "end_triggered",
          "trigger_seat",
          "final_turn_owed",
          "in_final_turn",
          "crew_location",
          "draw_pile",
          "draw_known_by",
          "draw_counted_by",
          "draw_from_deck",
          "deck",
          "whereabouts",
          "discard_pile",
          "hands",
          "rockets",
          "chain",
          "ace",
          "jackie",
          "jackie_known_by",
          "jackie_from_deck",
          "rng"});
  if (f.has("game") && f.text_or("game", "") != "rocket_squad") reject("game", "is not rocket_squad");
  State s;
  s.config_ = &config;
  s.read_turn_fields(f);
  s.read_card_fields(f);
  s.rng_ = f.has("rng") ? rng_from_json(f.at("rng")) : Rng(0);
  s.check_turn_fields();
  try {
    s.check_invariants();
  } catch (const InvariantViolation& e) {
    throw SerializationError(std::string("state document describes an impossible position: ") + e.what());
  }
  return s;
}

void State::read_turn_fields(const Fields& f) {
  const int n = f.integer("players", 2, kMaxPlayers);
  num_players_ = static_cast<int8_t>(n);
  const std::string phase = f.text_or("phase", "turn");
  const auto* found = std::find(std::begin(kPhaseNames), std::end(kPhaseNames), phase);
  if (found == std::end(kPhaseNames)) reject("phase", "unknown phase " + quote(phase));
  phase_ = static_cast<Phase>(found - std::begin(kPhaseNames));
  turn_player_ = static_cast<int8_t>(f.integer("turn_player", 0, n - 1));
  decider_ =
      static_cast<int8_t>(f.integer_or("decider", phase_ == Phase::kGameOver ? -1 : turn_player_, -1, n - 1));
  turn_number_ = static_cast<int16_t>(f.integer_or("turn", 1, 1, config_->max_turns));
  decisions_ = f.integer_or("decisions", 0, 0, kMaxDecisions);
  truncated_ = f.flag_or("truncated", false);
  redraw_used_ = f.flag_or("redraw_used", false);
  turn_start_ = f.flag_or("turn_start", false);
  const auto seat_flags = [&](const char* key) {
    uint8_t mask = 0;
    if (!f.has(key)) return mask;
    const auto flags = read_as<std::vector<bool>>(f.at(key), key);
    if (static_cast<int>(flags.size()) != n) reject(key, "needs one entry per player");
    for (int p = 0; p < n; ++p)
      if (flags[static_cast<std::size_t>(p)]) mask |= bit(p);
    return mask;
  };
  had_turn_ = seat_flags("first_turn_done");
  end_triggered_ = f.flag_or("end_triggered", false);
  trigger_seat_ = static_cast<int8_t>(f.integer_or("trigger_seat", -1, -1, n - 1));
  final_owed_ = seat_flags("final_turn_owed");
  in_final_turn_ = f.flag_or("in_final_turn", false);
  crew_location_ = static_cast<int8_t>(f.has("crew_location") ? read_location(f, "crew_location") : -1);
}

void State::read_card_fields(const Fields& f) {
  const int n = num_players_;
  const uint8_t seats = all_seats();
  draw_.count = read_cards(f.at("draw_pile"), "draw_pile", draw_.cards, kMaxCards);
  read_masks(f, "draw_known_by", draw_.known_by, draw_.count, seats, 0);
  read_masks(f, "draw_counted_by", draw_.counted_by, draw_.count, seats, 0);
  for (int i = 0; i < draw_.count; ++i)
    if (draw_.known_by[i] & draw_.counted_by[i])
      reject("draw_counted_by[" + std::to_string(i) + "]",
             "a seat that knows the card's position (draw_known_by) is listed again");
  read_marks(f, "draw_from_deck", draw_.from_deck, draw_.count, 1);
  discard_.count = read_cards(f.at("discard_pile"), "discard_pile", discard_.cards, kMaxCards);

  const Json& hands = f.at("hands");
  const Json& rockets = f.at("rockets");
  if (!hands.is_array() || static_cast<int>(hands.size()) != n) reject("hands", "needs one entry per player");
  if (!rockets.is_array() || static_cast<int>(rockets.size()) != n)
    reject("rockets", "needs one entry per player");
  for (int p = 0; p < n; ++p) {
    const Fields hf(hands[static_cast<std::size_t>(p)], "hands[" + std::to_string(p) + "]");
    hf.only({"cards", "known_by", "from_deck"});
    Hand& h = hands_[p];
    h.count = read_cards(hf.at("cards"), hf.name("cards"), h.cards, config_->hand_size);
    read_masks(hf, "known_by", h.known_by, h.count, static_cast<uint8_t>(seats & ~bit(p)), 0);
    read_marks(hf, "from_deck", h.from_deck, h.count, 0);
    const Fields area(rockets[static_cast<std::size_t>(p)], "rockets[" + std::to_string(p) + "]");
    for (const auto& item : area.obj.items())
      if (std::none_of(kBoosterLocations, kBoosterLocations + kNumLocations,
                       [&](const char* l) { return item.key() == l; }))
        reject(area.name(item.key()), "unknown rocket location");
    for (int loc = 0; loc < kNumLocations; ++loc)
      if (area.has(location_name(loc)))
        read_rocket(Fields(area.at(location_name(loc)), area.name(location_name(loc))), rockets_[p][loc]);
  }
  if (f.has("chain") && !f.at("chain").is_null()) read_chain(Fields(f.at("chain"), "chain"));
  if (f.has("ace") && !f.at("ace").is_null()) {
    const Fields af(f.at("ace"), "ace");
    af.only({"direction", "next_seat", "skips", "boxes", "boxes_known_by", "boxes_from_deck"});
    ace_.active = true;
    ace_.direction = static_cast<int8_t>(af.integer("direction", -1, 1));
    if (ace_.direction == 0) reject("ace.direction", "must be 1 or -1");
    ace_.next_seat = static_cast<int8_t>(af.integer("next_seat", 0, n - 1));
    ace_.skips = static_cast<uint8_t>(af.integer_or("skips", 0, 0, n - 1));
    ace_.count = read_cards(af.at("boxes"), "ace.boxes", ace_.boxes, kMaxValue);
    read_masks(af, "boxes_known_by", ace_.box_known_by, ace_.count, seats, 0);
    read_marks(af, "boxes_from_deck", ace_.box_from_deck, ace_.count, 0);
  }
  if (f.has("jackie")) {
    jackie_.count = read_cards(f.at("jackie"), "jackie", jackie_.cards, kJackieLook);
    read_masks(f, "jackie_known_by", jackie_.known_by, jackie_.count, seats, bit(turn_player_));
    for (int i = 0; i < jackie_.count; ++i)
      if (!((jackie_.known_by[i] >> turn_player_) & 1))
        reject("jackie_known_by[" + std::to_string(i) + "]",
               "the turn player looks at this card and must know it");
    read_marks(f, "jackie_from_deck", jackie_.from_deck, jackie_.count, 0);
  } else if (f.has("jackie_known_by") || f.has("jackie_from_deck")) {
    reject(f.has("jackie_known_by") ? "jackie_known_by" : "jackie_from_deck", "given without 'jackie'");
  }
  read_deck(f);
}

// The current deck (default: the draw pile's marked cards, none untracked) and the whereabouts
// facts; check_invariants checks them against the slots.
void State::read_deck(const DocumentFields& f) {
  if (f.has("deck")) {
    const Fields df(f.at("deck"), "deck");
    df.only({"cards", "untracked"});
    std::array<CardType, kMaxCards> cards{};
    const int n = read_cards(df.at("cards"), df.name("cards"), cards, kMaxCards);
    for (int i = 0; i < n; ++i) ++deck_.cards[cards[i]];
    deck_.untracked = static_cast<uint8_t>(df.integer_or("untracked", 0, 0, kMaxCards));
  } else {
    for (int i = 0; i < draw_.count; ++i) deck_.cards[draw_.cards[i]] += draw_.from_deck[i];
  }
  if (!f.has("whereabouts")) return;
  const Json& list = f.at("whereabouts");
  if (!list.is_array() || static_cast<int>(list.size()) > kMaxWhereabouts)
    reject("whereabouts", "must be a list of at most " + std::to_string(kMaxWhereabouts) + " facts");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Fields wf(list[i], "whereabouts[" + std::to_string(i) + "]");
    wf.only({"card", "knower", "hands", "or_boxes"});
    Whereabouts& w = whereabouts_[num_whereabouts_++];
    w.card = read_card(wf.at("card"), wf.name("card"));
    w.knower = static_cast<uint8_t>(wf.integer("knower", 0, num_players_ - 1));
    w.or_boxes = wf.flag_or("or_boxes", false);
    const Json& hands = wf.at("hands");
    if (!hands.is_array() || hands.empty())
      reject(wf.name("hands"), "must list the seats whose hands hold the card");
    for (const Json& h : hands) {
      const int p = read_as<int>(h, wf.name("hands"));
      if (p < 0 || p >= num_players_ || p == w.knower)
        reject(wf.name("hands"), "seat " + std::to_string(p) + " is not another player in the game");
      w.hands = static_cast<uint8_t>(w.hands | bit(p));
    }
  }
}

void State::read_rocket(const Fields& rf, Rocket& r) const {
  rf.only({"booster", "launched", "crew", "joker", "friend", "boxes", "boxes_known_by", "boxes_from_deck"});
  if (rf.has("booster") && !rf.at("booster").is_null()) {
    r.booster = read_card(rf.at("booster"), rf.name("booster"));
    if (!is_booster(r.booster)) reject(rf.name("booster"), "'" + card_name(r.booster) + "' is not a booster");
  }
  r.launched = rf.flag_or("launched", false);
  r.crew = rf.flag_or("crew", false);
  r.joker = rf.flag_or("joker", false);
  r.friend_beside = rf.flag_or("friend", false);
  r.num_boxes = rf.has("boxes") ? read_cards(rf.at("boxes"), rf.name("boxes"), r.boxes, kMaxValue) : 0;
  read_masks(rf, "boxes_known_by", r.box_known_by, r.num_boxes, all_seats(), 0);
  read_marks(rf, "boxes_from_deck", r.box_from_deck, r.num_boxes, 0);
}

void State::read_chain(const Fields& cf) {
  const int n = num_players_;
  cf.only({"card", "action", "against", "blocks", "top", "top_player", "asked"});
  Chain& c = chain_;
  c.active = true;
  c.card = read_card(cf.at("card"), "chain.card");
  c.action = static_cast<int16_t>(cf.integer("action", action::kPlayDad, action::kNoBlock - 1));
  c.against = static_cast<uint8_t>(cf.integer_or("against", 0, 0, all_seats()));
  c.blocks =
      static_cast<uint8_t>(cf.integer_or("blocks", 0, 0, config_->deck[kMom] + config_->deck[kGrandma]));
  c.top = cf.has("top") ? read_card(cf.at("top"), "chain.top") : c.card;
  c.top_player = static_cast<int8_t>(cf.integer_or("top_player", turn_player_, 0, n - 1));
  c.asked = static_cast<uint8_t>(cf.integer_or("asked", 0, 0, n - 2));
}

// Cross-field checks that name the field at fault (check_invariants does the rest).
void State::check_turn_fields() const {
  const int n = num_players_;
  const bool live = phase_ != Phase::kGameOver;
  if (phase_ == Phase::kGameOver
          ? decider_ != -1
          : decider_ < 0 ||
                ((phase_ == Phase::kTurn || phase_ == Phase::kJackieKeep) && decider_ != turn_player_))
    reject("decider", std::to_string(decider_) + " cannot decide in phase '" +
                          kPhaseNames[static_cast<int>(phase_)] + "'");
  if (truncated_ && live) reject("truncated", "a game cut short is over");
  if (live && decisions_ >= kMaxDecisions)
    reject("decisions", "a live game has fewer than " + std::to_string(kMaxDecisions));
  if (redraw_used_ && !(live && first_turn(turn_player_) && config_->first_turn_redraw))
    reject("redraw_used", "the redraw exists only on the turn player's first turn (ruling 10)");
  if (turn_start_ && (phase_ != Phase::kTurn || redraw_used_))
    reject("turn_start", "the turn player has acted already (phase or redraw_used)");
  for (int p = 0; p < n; ++p)
    if (hands_[p].count > config_->hand_size)
      reject("hands[" + std::to_string(p) + "].cards", "more cards than the hand size");
  check_turn_order();
  check_end_fields();
  if (chain_.active) check_chain_fields();
}

// Before the end is triggered, turns go clockwise from seat 0, one per turn number.
void State::check_turn_order() const {
  const int n = num_players_;
  if (phase_ == Phase::kGameOver || end_triggered_) return;
  if (turn_player_ != (turn_number_ - 1) % n)
    reject("turn_player", "turn " + std::to_string(turn_number_) + " is player " +
                              std::to_string((turn_number_ - 1) % n) + "'s");
  const int finished = std::min(turn_number_ - 1, n);
  if (had_turn_ != static_cast<uint8_t>((1u << finished) - 1))
    reject("first_turn_done", "on turn " + std::to_string(turn_number_) + " exactly the first " +
                                  std::to_string(finished) + " seat(s) have finished a turn");
}

void State::check_end_fields() const {
  const bool live = phase_ != Phase::kGameOver;
  if (end_triggered_ != (trigger_seat_ >= 0)) reject("trigger_seat", "given iff end_triggered");
  if (end_triggered_ && launched_count(trigger_seat_) != kNumLocations)
    reject("trigger_seat", "player " + std::to_string(trigger_seat_) + " has not launched all four rockets");
  if (!end_triggered_) {
    if (final_owed_ || in_final_turn_) reject("final_turn_owed", "final turns before the end was triggered");
    for (int p = 0; p < num_players_ && live; ++p)
      if (launched_count(p) == kNumLocations)
        reject("end_triggered", "player " + std::to_string(p) + " has launched all four rockets");
    return;
  }
  if (!live) return;
  const uint8_t others = static_cast<uint8_t>(all_seats() & ~bit(trigger_seat_));
  if (!in_final_turn_ && final_owed_ != others)
    reject("final_turn_owed",
           "before the final turns begin, every player but the trigger player is owed one");
  if (in_final_turn_ &&
      (turn_player_ == trigger_seat_ || (final_owed_ & ~others) || ((final_owed_ >> turn_player_) & 1)))
    reject("in_final_turn",
           "the turn player's final turn is running: it is neither the trigger player nor owed another");
}

// The chain of blocks (ruling 4): who played what against whom.
void State::check_chain_fields() const {
  const Chain& c = chain_;
  if (card_of_action(c.action) != c.card) reject("chain.action", "is not an action of chain.card");
  if (c.blocks == 0) {
    if (c.top != c.card || c.top_player != turn_player_)
      reject("chain.top", "without blocks the card itself is on top");
    if (c.against != against_of(c.action))
      reject("chain.against", "must be the players the card is played against");
    return;
  }
  if (c.top != kMom && c.top != kGrandma) reject("chain.top", "after a block, Mom or Grandma is on top");
  if (c.blocks >= 2 && c.top != kGrandma) reject("chain.top", "only Grandma blocks a block");
  if (c.top == kMom &&
      (card_colour(c.card) != CardColour::kOrange || !((against_of(c.action) >> c.top_player) & 1)))
    reject("chain.top", "Mom blocks only an Orange card played against her holder");
  const uint8_t blocked = c.blocks == 1 ? bit(turn_player_) : c.against;
  if (c.against != blocked || __builtin_popcount(c.against) != 1 || c.against == bit(c.top_player))
    reject("chain.against", "a block is played against the player of the card it blocks");
}

}  // namespace rocketgym::rocket_squad
