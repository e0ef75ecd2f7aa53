// The Last Blast: state documents (JSON). Reading is strict: every field is
// checked for its type and range, unknown fields are refused, and the
// position as a whole must be one the game can reach (check_invariants); each
// rejection names the field, e.g. "flight.players[1].moved".
#include "envs/core/quoted.h"
#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast {
namespace {

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw SerializationError("state document: " + field + ": " + why);
}

std::string at(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }
std::string at(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

}  // namespace

// The fields of an object, read by name with its path for the messages.
class JsonFields {
 public:
  JsonFields(const Json& j, std::string path, std::initializer_list<const char*> known)
      : j_(j), path_(std::move(path)) {
    if (!j.is_object())
      bad(path_.empty() ? "document" : path_, std::string("must be an object, got ") + j.type_name());
    for (const auto& item : j.items()) {
      bool listed = false;
      for (const char* key : known) listed = listed || item.key() == key;
      if (!listed) bad(at(path_, item.key().c_str()), "unknown field");
    }
  }
  bool has(const char* key) const { return j_.contains(key); }
  std::string path(const char* key) const { return at(path_, key); }
  const Json& get(const char* key) const {
    if (!j_.contains(key)) bad(path(key), "missing");
    return j_.at(key);
  }
  int get_int(const char* key, int lo, int hi) const {
    const Json& v = get(key);
    if (!v.is_number_integer() && !v.is_number_unsigned())
      bad(path(key), std::string("must be an integer, got ") + v.type_name());
    int value = 0;
    try {
      value = v.get<int>();
    } catch (const SerializationError&) {
      bad(path(key), "is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    if (value < lo || value > hi)
      bad(path(key), std::to_string(value) + " is out of range [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
    return value;
  }
  bool get_bool(const char* key) const {
    const Json& v = get(key);
    if (!v.is_boolean()) bad(path(key), std::string("must be true or false, got ") + v.type_name());
    return v.get<bool>();
  }
  template <class T>
  T get_choice(const char* key, std::initializer_list<std::pair<const char*, T>> choices) const {
    const Json& v = get(key);
    std::string names;
    for (const auto& c : choices) {
      if (v.is_string() && v.get<std::string>() == c.first) return c.second;
      names += std::string(names.empty() ? "" : ", ") + c.first;
    }
    bad(path(key), "must be one of " + names);
  }
  const Json& get_list(const char* key, std::size_t max_size) const {
    const Json& v = get(key);
    if (!v.is_array()) bad(path(key), std::string("must be a list, got ") + v.type_name());
    if (v.size() > max_size)
      bad(path(key),
          "has " + std::to_string(v.size()) + " entries, at most " + std::to_string(max_size) + " fit");
    return v;
  }

 private:
  const Json& j_;
  std::string path_;
};

namespace {

int card_from_json(const Json& j, const std::string& path, const Config& config) {
  if (!j.is_string())
    bad(path, std::string("a card is a name such as \"red 2 wheel\", got ") + j.type_name());
  const int c = config.card_id(j.get<std::string>());
  if (c < 0) bad(path, "unknown card " + quote(j.get<std::string>()));
  return c;
}

int symbol_from_json(const Json& j, const std::string& path, const Config& config) {
  if (!j.is_string()) bad(path, std::string("a tile is a symbol name, got ") + j.type_name());
  const int s = config.symbol_id(j.get<std::string>());
  if (s < 0) bad(path, "unknown symbol " + quote(j.get<std::string>()));
  return s;
}

// Reads a list of card names into `out` (at most its size), returning how many.
template <std::size_t N>
int8_t cards_from_json(const Json& list, const std::string& path, const Config& config,
                       std::array<int8_t, N>& out) {
  if (!list.is_array()) bad(path, std::string("must be a list of cards, got ") + list.type_name());
  if (list.size() > N)
    bad(path, "has " + std::to_string(list.size()) + " cards, at most " + std::to_string(N) + " fit");
  for (std::size_t i = 0; i < list.size(); ++i)
    out[i] = static_cast<int8_t>(card_from_json(list[i], at(path, i), config));
  return static_cast<int8_t>(list.size());
}

// A list with one entry per player.
const Json& per_player(const JsonFields& f, const char* key, int n) {
  const Json& list = f.get_list(key, kMaxPlayers);
  if (static_cast<int>(list.size()) != n)
    bad(f.path(key),
        "needs one entry per player (" + std::to_string(n) + "), has " + std::to_string(list.size()));
  return list;
}

const char* end_name(int8_t end) { return end == kFront ? "front" : end == kBack ? "back" : "undecided"; }

}  // namespace

Json State::to_json() const {
  const auto names = [&](const int8_t* cards, int count) {
    Json list = Json::array();
    for (int i = 0; i < count; ++i) list.push_back(config_->card_names[cards[i]]);
    return list;
  };
  Json doc;
  doc["game"] = "last_blast";
  doc["players"] = int{n_};
  doc["phase"] = phase_name(phase_);
  doc["rng"] = rng_to_json(rng_);
  Json field = Json::array();
  for (int r = 0; r < rows(); ++r) {
    Json row = Json::array();
    for (int c = 0; c < kColumns; ++c) row.push_back(config_->symbol_names[field_[r][c]]);
    field.push_back(row);
  }
  doc["field"] = field;
  Json aside = Json::array();
  for (int i = 0; i < set_aside_size_; ++i) aside.push_back(config_->symbol_names[set_aside_[i]]);
  doc["set_aside_tiles"] = aside;
  doc["deck"] = names(deck_.data(), deck_size_);
  doc["discard"] = names(discard_.data(), discard_size_);
  doc["lost"] = names(lost_.data(), lost_size_);
  Json hands = Json::array(), picks = Json::array(), rockets = Json::array(), seen = Json::array();
  for (int p = 0; p < n_; ++p) {
    hands.push_back(names(hand_[p].data(), hand_size_[p]));
    const Pick& pick = pick_[p];
    if (pick.card < 0) {
      picks.push_back(nullptr);
    } else {
      picks.push_back(
          {{"card", config_->card_names[pick.card]}, {"end", end_name(pick.end)}, {"blind", pick.blind}});
    }
    rockets.push_back(names(rocket_[p].card.data(), rocket_[p].size));
  }
  // What each player knows beyond the public rockets and lost cards.
  const auto place = places();
  for (int p = 0; p < n_; ++p) {
    Json list = Json::array();
    for (int c = 0; c < config_->num_cards(); ++c)
      if (place[c] != kPlaceLost && place[c] < kPlaceRocket && knows(p, c))
        list.push_back(config_->card_names[c]);
    seen.push_back(list);
  }
  doc["draft"] = {{"hand", int{hand_number_}},
                  {"pick", int{pick_number_}},
                  {"picker", int{picker_}},
                  {"hands", hands},
                  {"picks", picks}};
  doc["seen"] = seen;
  Json reshuffled = Json::array();
  for (int c = 0; c < config_->num_cards(); ++c)
    if (is_reshuffled(c)) reshuffled.push_back(config_->card_names[c]);
  doc["reshuffled"] = reshuffled;
  doc["rockets"] = rockets;
  Json players = Json::array();
  for (int p = 0; p < n_; ++p)
    players.push_back({{"status", status_name(status_[p])},
                       {"row", int{row_[p]}},
                       {"column", int{column_[p]}},
                       {"moved", moved_[p]}});
  doc["flight"] = {{"round", int{round_}},
                   {"start_player", int{start_player_}},
                   {"mover", int{mover_}},
                   {"damage_left", int{damage_left_}},
                   {"removed_this_turn", int{removed_this_turn_}},
                   {"players", players}};
  return doc;
}

// Reads a document written by to_json or by hand, then checks that the
// position is one the game can reach (check_invariants): a position that
// loads plays to the end. "lost", "seen" and "reshuffled" may be left out: no
// card lost, what each seat knows from the position itself (see
// derive_knowledge), no reshuffled deal.
State State::from_json(const Json& doc, const Config& config) {
  const JsonFields top(doc, "",
                       {"game", "players", "phase", "rng", "field", "set_aside_tiles", "deck", "discard",
                        "lost", "draft", "seen", "reshuffled", "rockets", "flight"});
  if (top.has("game") && top.get("game") != Json("last_blast"))
    bad("game", "this is a last_blast document: \"game\" must be \"last_blast\"");
  State s;
  s.config_ = &config;
  s.n_ = static_cast<int8_t>(top.get_int("players", kMinPlayers, kMaxPlayers));
  s.phase_ = top.get_choice<Phase>(
      "phase", {{"draft", Phase::kDraft}, {"flight", Phase::kFlight}, {"over", Phase::kOver}});
  s.rng_ = rng_from_json(top.get("rng"));
  s.read_tiles(top);
  s.deck_size_ = cards_from_json(top.get("deck"), "deck", config, s.deck_);
  s.discard_size_ = cards_from_json(top.get("discard"), "discard", config, s.discard_);
  if (top.has("lost")) s.lost_size_ = cards_from_json(top.get("lost"), "lost", config, s.lost_);
  s.read_draft(JsonFields(top.get("draft"), "draft", {"hand", "pick", "picker", "hands", "picks"}));
  const Json& rockets = per_player(top, "rockets", s.n_);
  for (int p = 0; p < s.n_; ++p)
    s.rocket_[p].size = cards_from_json(rockets[p], at("rockets", p), config, s.rocket_[p].card);
  if (top.has("reshuffled")) {
    const Json& list = top.get_list("reshuffled", kMaxCards);
    for (std::size_t i = 0; i < list.size(); ++i)
      s.reshuffled_ |= uint64_t{1} << card_from_json(list[i], at("reshuffled", i), config);
  }
  s.read_flight(
      JsonFields(top.get("flight"), "flight",
                 {"round", "start_player", "mover", "damage_left", "removed_this_turn", "players"}));
  // Cards must be where they can be before knowledge about them is read.
  try {
    s.check_cards();
  } catch (const InvariantViolation& e) {
    bad("impossible position", e.what());
  }
  s.derive_knowledge();
  if (top.has("seen")) s.read_seen(per_player(top, "seen", s.n_));
  try {
    s.check_invariants();
  } catch (const InvariantViolation& e) {
    bad("impossible position", e.what());
  }
  return s;
}

void State::read_tiles(const JsonFields& top) {
  for (auto& row : field_) row.fill(-1);
  const Json& field = top.get_list("field", kMaxRows);
  if (static_cast<int>(field.size()) != rows())
    bad("field",
        "must have players + 1 = " + std::to_string(rows()) + " rows, has " + std::to_string(field.size()));
  for (int r = 0; r < rows(); ++r) {
    const std::string path = at("field", r);
    if (!field[r].is_array() || field[r].size() != kColumns) bad(path, "a row is a list of 7 tiles");
    for (int c = 0; c < kColumns; ++c)
      field_[r][c] = static_cast<int8_t>(symbol_from_json(field[r][c], at(path, c), *config_));
  }
  const Json& aside = top.get_list("set_aside_tiles", kMaxTiles);
  for (std::size_t i = 0; i < aside.size(); ++i)
    set_aside_[i] = static_cast<int8_t>(symbol_from_json(aside[i], at("set_aside_tiles", i), *config_));
  set_aside_size_ = static_cast<int8_t>(aside.size());
}

void State::read_draft(const JsonFields& draft) {
  hand_number_ = static_cast<int8_t>(draft.get_int("hand", 0, kHands - 1));
  pick_number_ = static_cast<int8_t>(draft.get_int("pick", 0, kPicksPerHand - 1));
  picker_ = static_cast<int8_t>(draft.get_int("picker", 0, n_ - 1));
  const Json& hands = per_player(draft, "hands", n_);
  const Json& picks = per_player(draft, "picks", n_);
  for (int p = 0; p < n_; ++p) {
    hand_size_[p] = cards_from_json(hands[p], at("draft.hands", p), *config_, hand_[p]);
    if (picks[p].is_null()) continue;
    const JsonFields pick(picks[p], at("draft.picks", p), {"card", "end", "blind"});
    pick_[p].card = static_cast<int8_t>(card_from_json(pick.get("card"), pick.path("card"), *config_));
    pick_[p].end = pick.get_choice<int8_t>("end", {{"front", kFront}, {"back", kBack}, {"undecided", -1}});
    pick_[p].blind = pick.get_bool("blind");
  }
}

void State::read_flight(const JsonFields& flight) {
  round_ = static_cast<int8_t>(flight.get_int("round", 0, kColumns - 1));
  start_player_ = static_cast<int8_t>(flight.get_int("start_player", 0, n_ - 1));
  mover_ = static_cast<int8_t>(flight.get_int("mover", -1, n_ - 1));
  damage_left_ = static_cast<int8_t>(flight.get_int("damage_left", 0, kRocketLength));
  removed_this_turn_ = static_cast<int8_t>(flight.get_int("removed_this_turn", 0, kRocketLength));
  const Json& players = per_player(flight, "players", n_);
  for (int p = 0; p < n_; ++p) {
    const JsonFields player(players[p], at("flight.players", p), {"status", "row", "column", "moved"});
    status_[p] = player.get_choice<Status>(
        "status",
        {{"flying", Status::kFlying}, {"exploded", Status::kExploded}, {"exited", Status::kExited}});
    row_[p] = static_cast<int8_t>(player.get_int("row", -1, rows() - 1));
    column_[p] = static_cast<int8_t>(player.get_int("column", -1, kColumns - 1));
    moved_[p] = player.get_bool("moved");
  }
}

// "seen": for each player, the cards outside rockets and the lost pile whose
// place they know. check_invariants then holds the lists to the knowledge
// model (e.g. a hand is known exactly to the players who held it).
void State::read_seen(const Json& seen) {
  const auto place = places();
  for (int c = 0; c < config_->num_cards(); ++c)
    if (place[c] != kPlaceLost && place[c] < kPlaceRocket) known_by_[c] = 0;
  for (int p = 0; p < n_; ++p) {
    const std::string path = at("seen", p);
    if (!seen[p].is_array()) bad(path, std::string("must be a list of cards, got ") + seen[p].type_name());
    for (std::size_t i = 0; i < seen[p].size(); ++i) {
      const int c = card_from_json(seen[p][i], at(path, i), *config_);
      if (knows(p, c)) bad(at(path, i), config_->card_names[c] + " is listed twice or is public");
      known_by_[c] |= static_cast<uint8_t>(1u << p);
    }
  }
}

}  // namespace rocketgym::last_blast
