// Rocket Squad: JSON documents, readable printing, action names and invariants.
#include <sstream>

#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {
namespace {

const char* const kPhaseNames[] = {"turn", "reaction", "crew", "jackie_keep", "ace_pass", "game_over"};

std::string pretty(CardType t) {
  if (t < kNumSpecials) {
    static const char* const names[kNumSpecials] = {
        "Dad",       "Jack", "Uncle",         "Jackie", "Mom", "Grandma", "Joker", "Ace", "Imaginary Friend",
        "Duct Tape", "Crew", "Water Balloons"};
    return names[t];
  }
  static const char* const colours[kNumBoosterColours] = {"blue", "green", "yellow", "red", "wild"};
  return std::string(colours[booster_colour(t)]) + " booster " + std::to_string(booster_value(t));
}

std::string offset_name(int offset) { return "player +" + std::to_string(offset); }

Json card_list(const CardType* cards, int count) {
  Json out = Json::array();
  for (int i = 0; i < count; ++i) out.push_back(card_name(cards[i]));
  return out;
}

CardType parse_card(const Json& j, const char* field) {
  if (!j.is_string())
    throw SerializationError(std::string("state document: '") + field + "' holds a non-string card");
  CardType t;
  if (!card_from_name(j.get<std::string>(), t))
    throw SerializationError(std::string("state document: '") + field + "': unknown card '" +
                             j.get<std::string>() + "'");
  return t;
}

// Reads a list of card names into `out`, at most `capacity` of them.
template <std::size_t N>
int parse_cards(const Json& j, const char* field, std::array<CardType, N>& out, int capacity) {
  if (!j.is_array())
    throw SerializationError(std::string("state document: '") + field + "' must be a list of cards");
  if (static_cast<int>(j.size()) > capacity)
    throw SerializationError(std::string("state document: '") + field + "' holds more than " +
                             std::to_string(capacity) + " cards");
  int n = 0;
  for (const Json& item : j) out[static_cast<std::size_t>(n++)] = parse_card(item, field);
  return n;
}

// Optional fields keep hand-written positions short.
template <class T>
T opt(const Json& j, const char* key, T fallback) {
  return j.contains(key) ? json_get<T>(j, key) : fallback;
}
int opt_int(const Json& j, const char* key, int fallback, int lo, int hi) {
  return j.contains(key) ? json_get_int(j, key, lo, hi) : fallback;
}

template <std::size_t N>
void parse_masks(const Json& j, const char* key, std::array<uint8_t, N>& out, int count) {
  if (!j.contains(key)) return;
  const Json& list = j.at(key);
  if (!list.is_array() || static_cast<int>(list.size()) != count)
    throw SerializationError(std::string("state document: '") + key + "' must list one seat mask per card");
  for (int i = 0; i < count; ++i) {
    if (!list[static_cast<std::size_t>(i)].is_number_integer())
      throw SerializationError(std::string("state document: '") + key + "' holds a non-integer");
    const int v = list[static_cast<std::size_t>(i)].get<int>();
    if (v < 0 || v > 15)
      throw SerializationError(std::string("state document: '") + key + "' mask out of range");
    out[static_cast<std::size_t>(i)] = static_cast<uint8_t>(v);
  }
}

int parse_location(const Json& j, const char* key) {
  const std::string name = json_get<std::string>(j, key);
  for (int loc = 0; loc < kNumLocations; ++loc)
    if (name == location_name(loc)) return loc;
  throw SerializationError(std::string("state document: '") + key + "': unknown location '" + name + "'");
}

}  // namespace

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
  doc["draw_known_by"] = Json(std::vector<int>(draw_.known_by.begin(), draw_.known_by.begin() + draw_.count));
  doc["discard_pile"] = card_list(discard_.cards.data(), discard_.count);
  Json hands = Json::array(), rockets = Json::array();
  for (int p = 0; p < n; ++p) {
    const Hand& h = hands_[p];
    hands.push_back({{"cards", card_list(h.cards.data(), h.count)},
                     {"known_by", std::vector<int>(h.known_by.begin(), h.known_by.begin() + h.count)}});
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
                  {"boxes", card_list(ace_.boxes.data(), ace_.count)}};
  }
  doc["jackie"] = card_list(jackie_.cards.data(), jackie_.count);
  doc["rng"] = rng_to_json(rng_);
  return doc;
}

State State::from_json(const Json& doc, const Config& config) {
  if (!doc.is_object()) throw SerializationError("state document: must be a JSON object");
  if (doc.contains("game") && doc.at("game") != "rocket_squad")
    throw SerializationError("state document: 'game' is not rocket_squad");
  State s;
  s.config_ = &config;
  const int n = json_get_int(doc, "players", 2, kMaxPlayers);
  s.num_players_ = static_cast<int8_t>(n);
  const std::string phase = opt<std::string>(doc, "phase", "turn");
  bool known_phase = false;
  for (int i = 0; i < 6; ++i)
    if (phase == kPhaseNames[i]) {
      s.phase_ = static_cast<Phase>(i);
      known_phase = true;
    }
  if (!known_phase) throw SerializationError("state document: unknown phase '" + phase + "'");
  s.turn_player_ = static_cast<int8_t>(json_get_int(doc, "turn_player", 0, n - 1));
  s.decider_ = static_cast<int8_t>(
      opt_int(doc, "decider", s.phase_ == Phase::kGameOver ? -1 : s.turn_player_, -1, n - 1));
  s.turn_number_ = static_cast<int16_t>(opt_int(doc, "turn", 1, 1, 30000));
  s.decisions_ = opt_int(doc, "decisions", 0, 0, kMaxDecisions);
  s.truncated_ = opt<bool>(doc, "truncated", false);
  s.redraw_used_ = opt<bool>(doc, "redraw_used", false);
  const auto seat_flags = [&](const char* key) {
    uint8_t mask = 0;
    if (!doc.contains(key)) return mask;
    const auto flags = json_get<std::vector<bool>>(doc, key);
    if (static_cast<int>(flags.size()) != n)
      throw SerializationError(std::string("state document: '") + key + "' needs one entry per player");
    for (int p = 0; p < n; ++p)
      if (flags[static_cast<std::size_t>(p)]) mask |= static_cast<uint8_t>(1u << p);
    return mask;
  };
  s.had_turn_ = seat_flags("first_turn_done");
  s.end_triggered_ = opt<bool>(doc, "end_triggered", false);
  s.trigger_seat_ = static_cast<int8_t>(opt_int(doc, "trigger_seat", -1, -1, n - 1));
  s.final_owed_ = seat_flags("final_turn_owed");
  s.in_final_turn_ = opt<bool>(doc, "in_final_turn", false);
  s.crew_location_ =
      static_cast<int8_t>(doc.contains("crew_location") ? parse_location(doc, "crew_location") : -1);

  s.draw_.count = static_cast<uint8_t>(
      parse_cards(json_get<Json>(doc, "draw_pile"), "draw_pile", s.draw_.cards, kMaxCards));
  parse_masks(doc, "draw_known_by", s.draw_.known_by, s.draw_.count);
  s.discard_.count = static_cast<uint8_t>(
      parse_cards(json_get<Json>(doc, "discard_pile"), "discard_pile", s.discard_.cards, kMaxCards));

  const Json hands = json_get<Json>(doc, "hands");
  const Json rockets = json_get<Json>(doc, "rockets");
  if (!hands.is_array() || static_cast<int>(hands.size()) != n)
    throw SerializationError("state document: 'hands' needs one entry per player");
  if (!rockets.is_array() || static_cast<int>(rockets.size()) != n)
    throw SerializationError("state document: 'rockets' needs one entry per player");
  for (int p = 0; p < n; ++p) {
    const Json& hj = hands[static_cast<std::size_t>(p)];
    Hand& h = s.hands_[p];
    h.count =
        static_cast<uint8_t>(parse_cards(json_get<Json>(hj, "cards"), "hands.cards", h.cards, kMaxHand));
    parse_masks(hj, "known_by", h.known_by, h.count);
    const Json& area = rockets[static_cast<std::size_t>(p)];
    if (!area.is_object()) throw SerializationError("state document: 'rockets' entries must be objects");
    for (const auto& item : area.items()) {
      bool known = false;
      for (int loc = 0; loc < kNumLocations; ++loc) known = known || item.key() == location_name(loc);
      if (!known) throw SerializationError("state document: unknown rocket location '" + item.key() + "'");
    }
    for (int loc = 0; loc < kNumLocations; ++loc) {
      if (!area.contains(location_name(loc))) continue;
      const Json& rj = area.at(location_name(loc));
      Rocket& r = s.rockets_[p][loc];
      if (rj.contains("booster") && !rj.at("booster").is_null()) {
        r.booster = parse_card(rj.at("booster"), "booster");
        if (!is_booster(r.booster))
          throw SerializationError("state document: rocket booster '" + card_name(r.booster) +
                                   "' is not a booster");
      }
      r.launched = opt<bool>(rj, "launched", false);
      r.crew = opt<bool>(rj, "crew", false);
      r.joker = opt<bool>(rj, "joker", false);
      r.friend_beside = opt<bool>(rj, "friend", false);
      r.num_boxes = rj.contains("boxes")
                        ? static_cast<uint8_t>(parse_cards(rj.at("boxes"), "boxes", r.boxes, kMaxValue))
                        : 0;
    }
  }
  if (doc.contains("chain") && !doc.at("chain").is_null()) {
    const Json& cj = doc.at("chain");
    Chain& c = s.chain_;
    c.active = true;
    c.card = parse_card(json_get<Json>(cj, "card"), "chain.card");
    c.action = static_cast<int16_t>(json_get_int(cj, "action", action::kPlayDad, action::kNoBlock - 1));
    c.against = static_cast<uint8_t>(opt_int(cj, "against", 0, 0, (1 << n) - 1));
    c.blocks = static_cast<uint8_t>(opt_int(cj, "blocks", 0, 0, 16));
    c.top = cj.contains("top") ? parse_card(cj.at("top"), "chain.top") : c.card;
    c.top_player = static_cast<int8_t>(opt_int(cj, "top_player", s.turn_player_, 0, n - 1));
    c.asked = static_cast<uint8_t>(opt_int(cj, "asked", 0, 0, n - 1));
  }
  if (doc.contains("ace") && !doc.at("ace").is_null()) {
    const Json& aj = doc.at("ace");
    AcePass& a = s.ace_;
    a.active = true;
    a.direction = static_cast<int8_t>(json_get_int(aj, "direction", -1, 1));
    if (a.direction == 0) throw SerializationError("state document: 'ace.direction' must be 1 or -1");
    a.next_seat = static_cast<int8_t>(json_get_int(aj, "next_seat", 0, n - 1));
    a.skips = static_cast<uint8_t>(opt_int(aj, "skips", 0, 0, n));
    a.count = static_cast<uint8_t>(parse_cards(json_get<Json>(aj, "boxes"), "ace.boxes", a.boxes, kMaxValue));
  }
  if (doc.contains("jackie"))
    s.jackie_.count =
        static_cast<uint8_t>(parse_cards(doc.at("jackie"), "jackie", s.jackie_.cards, kJackieLook));
  s.rng_ = doc.contains("rng") ? rng_from_json(doc.at("rng")) : Rng(0);
  try {
    s.check_invariants();
  } catch (const InvariantViolation& e) {
    throw SerializationError(std::string("state document describes an impossible position: ") + e.what());
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------------

void State::check_invariants() const {
  const auto fail = [](const std::string& what) { throw InvariantViolation("rocket_squad: " + what); };
  const int n = num_players_;
  if (n < 2 || n > kMaxPlayers) fail("player count");
  // Card conservation: every card of the deck is in exactly one place.
  std::array<int, kNumCardTypes> count{};
  const auto add = [&](CardType t) {
    if (t >= kNumCardTypes) fail("unknown card");
    ++count[t];
  };
  for (int i = 0; i < draw_.count; ++i) add(draw_.cards[i]);
  for (int i = 0; i < discard_.count; ++i) add(discard_.cards[i]);
  for (int p = 0; p < n; ++p) {
    if (hands_[p].count > kMaxHand) fail("hand too large");
    for (int i = 0; i < hands_[p].count; ++i) add(hands_[p].cards[i]);
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = rockets_[p][loc];
      const std::string where = "player " + std::to_string(p) + " " + location_name(loc) + " rocket: ";
      if (r.has_booster()) {
        if (!is_booster(r.booster)) fail(where + "not a booster");
        const int colour = booster_colour(r.booster);
        if (colour != kWild && colour != loc) fail(where + "booster of another colour");
        add(r.booster);
      } else if (r.launched || r.num_boxes || r.joker || r.friend_beside || r.crew) {
        fail(where + "something on an empty location");
      }
      if (r.num_boxes > r.need()) fail(where + "more boxes than the booster allows");
      if (r.launched && (r.num_boxes || r.joker)) fail(where + "launched with boxes or a Joker");
      if (!r.launched && r.crew) fail(where + "Crew on an unlaunched rocket");
      if (r.joker && r.num_boxes == 0) fail(where + "Joker on a rocket without boxes");
      for (int i = 0; i < r.num_boxes; ++i) add(r.boxes[i]);
      if (r.joker) add(kJoker);
      if (r.friend_beside) add(kImaginaryFriend);
      if (r.crew) add(kCrew);
    }
  }
  if (chain_.active) add(chain_.card);
  for (int i = 0; i < ace_.count; ++i) add(ace_.boxes[i]);
  for (int i = 0; i < jackie_.count; ++i) add(jackie_.cards[i]);
  for (int t = 0; t < kNumCardTypes; ++t)
    if (count[t] != config_->deck[t])
      fail("card " + card_name(static_cast<CardType>(t)) + " appears " + std::to_string(count[t]) +
           " times, the deck has " + std::to_string(config_->deck[t]));

  // The decision in progress is consistent with the board.
  const bool over = phase_ == Phase::kGameOver;
  if (!over && (decider_ < 0 || decider_ >= n)) fail("current player out of range");
  if (truncated_ && !over) fail("truncated but not over");
  if (chain_.active != (phase_ == Phase::kReaction)) fail("a chain exists iff a reaction is asked");
  if (chain_.active) {
    if (chain_.card >= kNumSpecials || card_colour(chain_.card) == CardColour::kGrey) fail("chain card");
    if (chain_.top != chain_.card && chain_.top != kMom && chain_.top != kGrandma) fail("chain top");
    if (chain_.top_player < 0 || chain_.top_player >= n || chain_.asked >= n) fail("chain seats");
    if (decider_ != (chain_.top_player + 1 + chain_.asked) % n)
      fail("the asked player is not next in the round");
    if (!can_block(decider_, kMom) && !can_block(decider_, kGrandma)) fail("the asked player cannot block");
    if (card_of_action(chain_.action) != chain_.card) fail("the chain's action is not its card's");
    if (!targets_ok(chain_.action, /*check_jack_hand=*/false)) fail("the chain's card has no valid target");
  }
  if (phase_ == Phase::kJackieKeep ? jackie_.count < 2 : jackie_.count != 0)
    fail("Jackie cards outside a Jackie decision");
  if (phase_ == Phase::kJackieKeep && decider_ != turn_player_) fail("Jackie decision by another player");
  if (!ace_.active && ace_.count > 0) fail("Ace boxes without Ace passing");
  if (ace_.active && (ace_.next_seat < 0 || ace_.next_seat >= n)) fail("Ace passing seat");
  if (phase_ == Phase::kAcePass) {
    int only;
    if (!ace_.active || ace_.count == 0 || ace_.next_seat != decider_ || free_locations(decider_, only) < 2)
      fail("Ace passing decision");
  } else if (ace_.active && !over && phase_ != Phase::kCrew) {
    fail("Ace passing paused outside a Crew decision");
  }
  if ((phase_ == Phase::kCrew) != (crew_location_ >= 0)) fail("Crew location outside a Crew decision");
  if (phase_ == Phase::kCrew) {
    const Rocket& r = rockets_[decider_][crew_location_];
    if (hand_count(decider_, kCrew) == 0 || r.launched || r.num_boxes != r.need()) fail("Crew decision");
  } else if (!over) {
    int p, loc;
    if (find_launch(p, loc)) fail("a rocket should have launched");
  }
  if (!over && phase_ == Phase::kTurn && decider_ != turn_player_) fail("turn decided by another player");
  if (end_triggered_ != (trigger_seat_ >= 0)) fail("end trigger seat");
  if (end_triggered_ && ((final_owed_ >> trigger_seat_) & 1)) fail("the trigger player is owed a final turn");
  if (!end_triggered_ && (final_owed_ || in_final_turn_)) fail("final turns before the end was triggered");
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

std::string State::action_to_string(Action a) const {
  using namespace action;
  const auto loc = [](int l) { return std::string(location_name(l)); };
  if (a < 0 || a >= kNumActions) return "<action " + std::to_string(a) + " out of range>";
  if (a == kEndTurn) return "end turn";
  if (a == kRedraw) return "first-turn redraw: discard the hand and draw a new one";
  if (a < kBuildBox) {
    const int index = (a - kPlaceBooster) / 4;
    return "place " + pretty(booster_card(index / kMaxValue, index % kMaxValue + 1)) + " at the " +
           loc((a - kPlaceBooster) % 4) + " location";
  }
  if (a < kKnockOver)
    return "build " + pretty(static_cast<CardType>((a - kBuildBox) / 4)) + " face down as a box on the " +
           loc((a - kBuildBox) % 4) + " rocket";
  if (a < kPlayDad) return "knock over the " + loc(a - kKnockOver) + " rocket to scare away the Joker";
  if (a < kPlayJack)
    return "Dad: take the top box of " + offset_name((a - kPlayDad) / 16 + 1) + "'s " +
           loc((a - kPlayDad) % 16 / 4) + " rocket, build it on the own " + loc((a - kPlayDad) % 4) +
           " rocket";
  if (a < kPlayUncle) return "Jack: steal a random card from " + offset_name(a - kPlayJack + 1);
  if (a < kPlayJackie)
    return "Uncle: move " + std::to_string((a - kPlayUncle) % kMaxValue + 1) + " box(es) from the " +
           loc((a - kPlayUncle) / 48) + " rocket to the " + loc((a - kPlayUncle) % 48 / kMaxValue) +
           " rocket";
  if (a == kPlayJackie) return "Jackie: look at the top 3 cards of the draw pile, keep 1";
  if (a < kAceDog)
    return "Joker: sit on " + offset_name((a - kPlayJoker) / 4 + 1) + "'s " + loc((a - kPlayJoker) % 4) +
           " rocket";
  if (a < kAceScare)
    return "Ace: knock the boxes off " + offset_name((a - kAceDog) / 8 + 1) + "'s " +
           loc((a - kAceDog) % 8 / 2) + " rocket, pass them " +
           ((a - kAceDog) % 2 == 0 ? "clockwise" : "counter-clockwise");
  if (a < kPlayFriend) return "Ace: scare away the Joker on the own " + loc(a - kAceScare) + " rocket";
  if (a < kPlayDuctTape) return "Imaginary Friend: protect the own " + loc(a - kPlayFriend) + " rocket";
  if (a < kPlayBalloons)
    return "Duct Tape: build 2 boxes from the draw pile on the own " + loc(a - kPlayDuctTape) + " rocket";
  if (a < kBalloonsScare) {
    std::string text = "Water Balloons: a box off";
    int code = a - kPlayBalloons;
    bool first = true;
    for (int offset = 1; offset <= 3; ++offset, code /= 5)
      if (code % 5 != kNoTarget) {
        text += std::string(first ? " " : ", ") + offset_name(offset) + "'s " + loc(code % 5) + " rocket";
        first = false;
      }
    return first ? text + " nothing" : text;
  }
  if (a < kNoBlock)
    return "Water Balloons: scare away the Joker on the own " + loc(a - kBalloonsScare) + " rocket";
  if (a == kNoBlock) return "do not block";
  if (a == kBlockMom) return "block with Mom";
  if (a == kBlockGrandma) return "block with Grandma";
  if (a == kCrewAttach) return "launch with a Crew card (+2)";
  if (a == kCrewDecline) return "launch without Crew";
  if (a < kAceBuild) {
    const int keep = (a - kJackieKeep) / 2;
    std::string text = "Jackie: keep card " + std::to_string(keep + 1) + " of the top 3";
    if (keep < jackie_.count && phase_ == Phase::kJackieKeep)
      text += " (" + pretty(jackie_.cards[keep]) + ")";
    return text + ((a - kJackieKeep) % 2 == 0 ? ", the lower-numbered other card to the very bottom"
                                              : ", the higher-numbered other card to the very bottom");
  }
  return "build the passed box on the own " + loc(a - kAceBuild) + " rocket";
}

std::string State::to_string() const {
  std::ostringstream out;
  out << "Rocket Squad, " << int(num_players_) << " players, turn " << turn_number_ << ", player "
      << int(turn_player_) << " to play";
  if (phase_ == Phase::kGameOver)
    out << " -- game over" << (truncated_ ? " (truncated)" : "");
  else if (phase_ != Phase::kTurn)
    out << " -- " << kPhaseNames[static_cast<int>(phase_)] << ": player " << int(decider_);
  out << "\n";
  if (end_triggered_)
    out << "End triggered by player " << int(trigger_seat_) << "; final turns are being played\n";
  out << "Draw pile " << int(draw_.count) << " cards, discard pile " << int(discard_.count) << " cards\n";
  for (int p = 0; p < num_players_; ++p) {
    out << "Player " << p << " (" << score(p) << " points) hand:";
    for (int i = 0; i < hands_[p].count; ++i) out << " [" << pretty(hands_[p].cards[i]) << "]";
    out << "\n";
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = rockets_[p][loc];
      out << "  " << location_name(loc) << ": ";
      if (!r.has_booster()) {
        out << "-\n";
        continue;
      }
      out << pretty(r.booster);
      if (r.launched)
        out << ", launched" << (r.crew ? " with Crew" : "");
      else
        out << ", " << int(r.num_boxes) << "/" << r.need() << " boxes";
      if (r.joker) out << ", Joker on top";
      if (r.friend_beside) out << ", Imaginary Friend beside";
      out << "\n";
    }
  }
  if (chain_.active)
    out << "On the table: " << pretty(chain_.card) << " (" << action_to_string(chain_.action) << "), "
        << int(chain_.blocks) << " block(s)\n";
  if (ace_.active) out << "Ace is passing " << int(ace_.count) << " box(es)\n";
  if (jackie_.count) {
    out << "Jackie looks at:";
    for (int i = 0; i < jackie_.count; ++i) out << " [" << pretty(jackie_.cards[i]) << "]";
    out << "\n";
  }
  return out.str();
}

}  // namespace rocketgym::rocket_squad
