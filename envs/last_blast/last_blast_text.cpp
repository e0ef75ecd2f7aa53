// The Last Blast: text views, JSON documents and invariant checks.
#include <sstream>

#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast {
namespace {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::kDraft:
      return "draft";
    case Phase::kFlight:
      return "flight";
    default:
      return "over";
  }
}

const char* status_name(Status s) {
  switch (s) {
    case Status::kFlying:
      return "flying";
    case Status::kExploded:
      return "exploded";
    default:
      return "exited";
  }
}

[[noreturn]] void bad(const std::string& message) { throw SerializationError("state document: " + message); }

int card_from_json(const Json& j, const Config& config) {
  if (!j.is_string()) bad("a card must be a name such as \"red 2 wheel\", got " + j.dump());
  const int c = config.card_id(j.get<std::string>());
  if (c < 0) bad("unknown card '" + j.get<std::string>() + "'");
  return c;
}

int symbol_from_json(const Json& j, const Config& config) {
  if (!j.is_string()) bad("a tile must be a symbol name, got " + j.dump());
  const int s = config.symbol_id(j.get<std::string>());
  if (s < 0) bad("unknown symbol '" + j.get<std::string>() + "'");
  return s;
}

const Json& list_field(const Json& j, const char* key, std::size_t max_size) {
  if (!j.is_object() || !j.contains(key)) bad(std::string("missing field '") + key + "'");
  const Json& v = j.at(key);
  if (!v.is_array()) bad(std::string("field '") + key + "' must be a list");
  if (v.size() > max_size) bad(std::string("field '") + key + "' has too many entries");
  return v;
}

// Reads a list of card names into `out`, returning how many.
template <std::size_t N>
int8_t cards_from_json(const Json& j, const char* key, std::size_t max_size, const Config& config,
                       std::array<int8_t, N>& out) {
  const Json& list = list_field(j, key, std::min(max_size, N));
  for (std::size_t i = 0; i < list.size(); ++i) out[i] = static_cast<int8_t>(card_from_json(list[i], config));
  return static_cast<int8_t>(list.size());
}

template <class T>
T choice_from_json(const Json& j, const char* key, std::initializer_list<std::pair<const char*, T>> choices) {
  const auto name = json_get<std::string>(j, key);
  for (const auto& c : choices)
    if (name == c.first) return c.second;
  bad(std::string("field '") + key + "' has unknown value '" + name + "'");
}

}  // namespace

// ---------------------------------------------------------------------------
// Text

std::string State::action_to_string(Action a) const {
  if (a < 0 || a >= kNumActions) return "<action " + std::to_string(a) + " out of range>";
  if (a < kDrawBlind) {
    const int card = a / 2;
    if (card >= config_->num_cards()) return "pick <no card " + std::to_string(card) + ">";
    return "pick " + config_->describe_card(card) + " for the " + (a % 2 == kFront ? "front" : "back");
  }
  if (a == kDrawBlind) return "draw blind from the deck instead of picking";
  if (a == kPlaceBlindFront || a == kPlaceBlindBack) {
    std::string card = "the drawn card";
    if (awaiting_blind_placement()) card += " (" + config_->describe_card(pick_[picker_].card) + ")";
    return "place " + card + " at the " + (a == kPlaceBlindFront ? "front" : "back");
  }
  if (a == kRemoveFront || a == kRemoveBack) {
    const End end = a == kRemoveFront ? kFront : kBack;
    std::string text = std::string("remove the ") + (end == kFront ? "front" : "back") + " card";
    if (phase_ == Phase::kFlight && mover_ >= 0 && rocket_[mover_].size > 0)
      text += " (" +
              config_->describe_card(end == kFront ? rocket_[mover_].front() : rocket_[mover_].back()) + ")";
    return text;
  }
  const int row = a - kMoveBase;
  std::string text = "move to row " + std::to_string(row + 1);
  if (phase_ == Phase::kFlight && mover_ >= 0 && row < rows() && damage_left_ == 0) {
    text +=
        " of column " + std::to_string(round_ + 1) + " (" + config_->symbol_names[field_[row][round_]] + ")";
    if (rocket_[mover_].size > 0) {
      text += ": " + std::to_string(jump_damage(mover_, row)) + " jump + " +
              std::to_string(collision_damage(mover_, row)) + " collision damage";
    }
  }
  return text;
}

std::string State::to_string() const { return view(-1); }

std::string State::observation_string(int viewer) const { return view(viewer); }

// The board as `viewer` sees it; viewer -1 sees everything, hidden cards too.
std::string State::view(int viewer) const {
  std::ostringstream out;
  out << "The Last Blast, " << int{n_} << " players, " << phase_name(phase_);
  if (phase_ == Phase::kDraft)
    out << ": hand " << hand_number_ + 1 << ", pick " << pick_number_ + 1 << ", player " << int{picker_}
        << " to pick"
        << (awaiting_blind_placement() && (viewer < 0 || viewer == picker_) ? " (placing the blind card)"
                                                                            : "");
  if (phase_ == Phase::kFlight)
    out << ": column " << round_ + 1 << ", Start Player " << int{start_player_} << ", player " << int{mover_}
        << (damage_left_ > 0 ? " removing damage (" + std::to_string(damage_left_) + " left)" : " to move");
  if (viewer >= 0) out << "\nYou are player " << viewer << ".";
  out << "\nField (columns 1-7 left to right, the rockets fly right):\n";
  for (int r = 0; r < rows(); ++r) {
    out << "  row " << r + 1 << ":";
    for (int c = 0; c < kColumns; ++c) {
      std::string cell = config_->symbol_names[field_[r][c]];
      for (int p = 0; p < n_; ++p)
        if (row_[p] == r && column_[p] == c)
          cell += (status_[p] == Status::kExploded ? "[x" : "[P") + std::to_string(p) + "]";
      out << " " << cell;
      for (std::size_t k = cell.size(); k < 12; ++k) out << ' ';
    }
    out << "\n";
  }
  for (int p = 0; p < n_; ++p) {
    out << "Player " << p << " (" << status_name(status_[p]) << ", score " << score(p) << ") rocket front>";
    for (int i = 0; i < rocket_[p].size; ++i)
      out << (i ? " | " : " ") << config_->card_names[rocket_[p].card[i]];
    out << " <back\n";
    if (phase_ != Phase::kDraft) continue;
    if (viewer < 0 || viewer == p) {
      write_hand_and_pick(out, p);
    } else {
      write_hand_seen_by(out, p, viewer);
    }
  }
  write_reshuffled(out, viewer);
  if (viewer < 0) {
    out << "Deck " << int{deck_size_} << " cards, discards " << int{discard_size_};
  } else {
    out << "Deck and discards " << undrafted_count() << " cards";
  }
  out << ", lost in flight " << int{lost_size_} << "\n";
  return out.str();
}

// The discards reshuffled to finish a deal whose place `viewer` does not
// know (all of them for the full view), in card order.
void State::write_reshuffled(std::ostream& out, int viewer) const {
  std::string list;
  for (int c = 0; c < config_->num_cards(); ++c)
    if (is_reshuffled(c) && (viewer < 0 || !knows(viewer, c)))
      list += (list.empty() ? "" : ", ") + config_->card_names[c];
  if (list.empty()) return;
  out << (viewer < 0 ? "Reshuffled from the discards: " : "Reshuffled, in the deck or another hand: ") << list
      << "\n";
}

void State::write_hand_and_pick(std::ostream& out, int p) const {
  out << "  hand:";
  for (int i = 0; i < hand_size_[p]; ++i) out << (i ? ", " : " ") << config_->card_names[hand_[p][i]];
  const Pick& pick = pick_[p];
  if (pick.card >= 0) {
    out << "  (hidden pick: " << config_->card_names[pick.card] << (pick.blind ? ", drawn blind" : "");
    if (pick.end >= 0) out << (pick.end == kFront ? ", front" : ", back");
    out << ")";
  }
  out << "\n";
}

// Another player's hand as `viewer` knows it: its size when the pick round
// began (a hidden pick or blind draw must not show), whether its holder has
// picked (a blind card being placed is not a pick yet: who is deciding is
// public, what they decide is not) and the cards seen in it.
void State::write_hand_seen_by(std::ostream& out, int p, int viewer) const {
  const Pick& pick = pick_[p];
  const bool from_hand = pick.card >= 0 && !pick.blind;
  // A blind card still to be placed is not a pick yet, to the others.
  const bool picked = pick.card >= 0 && pick.end >= 0;
  out << "  hand: " << hand_size_[p] + from_hand << " cards" << (picked ? ", has picked" : "");
  // Listed in card order, so that the list does not tell which card was picked.
  uint64_t seen = 0;
  for (int i = 0; i < hand_size_[p]; ++i) seen |= uint64_t{1} << hand_[p][i];
  if (from_hand) seen |= uint64_t{1} << pick.card;
  std::string known;
  for (int c = 0; c < config_->num_cards(); ++c)
    if ((seen >> c & 1) && knows(viewer, c)) known += (known.empty() ? "" : ", ") + config_->card_names[c];
  if (!known.empty()) out << "; you saw in it: " << known;
  out << "\n";
}

// ---------------------------------------------------------------------------
// JSON

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
      picks.push_back({{"card", config_->card_names[pick.card]},
                       {"end", pick.end == kFront  ? "front"
                               : pick.end == kBack ? "back"
                                                   : "undecided"},
                       {"blind", pick.blind}});
    }
    rockets.push_back(names(rocket_[p].card.data(), rocket_[p].size));
  }
  for (int p = 0; p < n_; ++p) {
    Json list = Json::array();
    for (int c = 0; c < config_->num_cards(); ++c) {
      bool is_public = false;
      for (int q = 0; q < n_; ++q)
        for (int i = 0; i < rocket_[q].size; ++i) is_public = is_public || rocket_[q].card[i] == c;
      for (int i = 0; i < lost_size_; ++i) is_public = is_public || lost_[i] == c;
      if (!is_public && knows(p, c)) list.push_back(config_->card_names[c]);
    }
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

// Reads a document written by to_json or by hand. "seen" may be left out: then
// each player knows just their own hand and pick.
State State::from_json(const Json& doc, const Config& config) {
  if (!doc.is_object()) bad("expected a JSON object");
  State s;
  s.config_ = &config;
  s.n_ = static_cast<int8_t>(json_get_int(doc, "players", kMinPlayers, kMaxPlayers));
  const int n = s.n_;
  s.phase_ = choice_from_json<Phase>(
      doc, "phase", {{"draft", Phase::kDraft}, {"flight", Phase::kFlight}, {"over", Phase::kOver}});
  if (!doc.contains("rng")) bad("missing field 'rng'");
  s.rng_ = rng_from_json(doc.at("rng"));

  for (auto& row : s.field_) row.fill(-1);
  const Json& field = list_field(doc, "field", kMaxRows);
  if (static_cast<int>(field.size()) != n + 1) bad("the field must have players + 1 rows");
  for (int r = 0; r <= n; ++r) {
    if (!field[r].is_array() || field[r].size() != kColumns) bad("each field row must list 7 tiles");
    for (int c = 0; c < kColumns; ++c)
      s.field_[r][c] = static_cast<int8_t>(symbol_from_json(field[r][c], config));
  }
  const Json& aside = list_field(doc, "set_aside_tiles", kMaxTiles);
  for (std::size_t i = 0; i < aside.size(); ++i)
    s.set_aside_[i] = static_cast<int8_t>(symbol_from_json(aside[i], config));
  s.set_aside_size_ = static_cast<int8_t>(aside.size());

  s.deck_size_ = cards_from_json(doc, "deck", kMaxCards, config, s.deck_);
  s.discard_size_ = cards_from_json(doc, "discard", kMaxCards, config, s.discard_);
  s.lost_size_ = doc.contains("lost") ? cards_from_json(doc, "lost", kMaxCards, config, s.lost_) : 0;

  const Json& draft = doc.contains("draft") ? doc.at("draft") : Json();
  s.hand_number_ = static_cast<int8_t>(json_get_int(draft, "hand", 0, kHands - 1));
  s.pick_number_ = static_cast<int8_t>(json_get_int(draft, "pick", 0, kPicksPerHand - 1));
  s.picker_ = static_cast<int8_t>(json_get_int(draft, "picker", 0, n - 1));
  const Json& hands = list_field(draft, "hands", kMaxPlayers);
  const Json& picks = list_field(draft, "picks", kMaxPlayers);
  const Json& rockets = list_field(doc, "rockets", kMaxPlayers);
  if (static_cast<int>(hands.size()) != n || static_cast<int>(picks.size()) != n ||
      static_cast<int>(rockets.size()) != n)
    bad("'hands', 'picks' and 'rockets' need one entry per player");
  for (int p = 0; p < n; ++p) {
    if (!hands[p].is_array() || hands[p].size() > kHandSize) bad("a hand is a list of at most 5 cards");
    for (std::size_t i = 0; i < hands[p].size(); ++i)
      s.hand_[p][i] = static_cast<int8_t>(card_from_json(hands[p][i], config));
    s.hand_size_[p] = static_cast<int8_t>(hands[p].size());
    if (!picks[p].is_null()) {
      Pick& pick = s.pick_[p];
      pick.card = static_cast<int8_t>(
          card_from_json(picks[p].contains("card") ? picks[p].at("card") : Json(), config));
      pick.end =
          choice_from_json<int8_t>(picks[p], "end", {{"front", kFront}, {"back", kBack}, {"undecided", -1}});
      pick.blind = json_get<bool>(picks[p], "blind");
    }
    if (!rockets[p].is_array() || rockets[p].size() > kRocketLength)
      bad("a rocket is a list of at most 12 cards");
    for (std::size_t i = 0; i < rockets[p].size(); ++i)
      s.rocket_[p].card[i] = static_cast<int8_t>(card_from_json(rockets[p][i], config));
    s.rocket_[p].size = static_cast<int8_t>(rockets[p].size());
  }

  const uint8_t everyone = static_cast<uint8_t>((1u << n) - 1);
  for (int p = 0; p < n; ++p)
    for (int i = 0; i < s.rocket_[p].size; ++i) s.known_by_[s.rocket_[p].card[i]] = everyone;
  for (int i = 0; i < s.lost_size_; ++i) s.known_by_[s.lost_[i]] = everyone;
  if (doc.contains("seen")) {
    const Json& seen = list_field(doc, "seen", kMaxPlayers);
    if (static_cast<int>(seen.size()) != n) bad("'seen' needs one list per player");
    for (int p = 0; p < n; ++p) {
      if (!seen[p].is_array()) bad("'seen' entries must be lists of cards");
      for (const auto& c : seen[p]) s.known_by_[card_from_json(c, config)] |= static_cast<uint8_t>(1u << p);
    }
  } else {
    for (int p = 0; p < n; ++p) {
      for (int i = 0; i < s.hand_size_[p]; ++i) s.known_by_[s.hand_[p][i]] |= static_cast<uint8_t>(1u << p);
      if (s.pick_[p].card >= 0) s.known_by_[s.pick_[p].card] |= static_cast<uint8_t>(1u << p);
    }
  }

  if (doc.contains("reshuffled")) {
    const Json& list = list_field(doc, "reshuffled", kMaxCards);
    for (const auto& c : list) s.reshuffled_ |= uint64_t{1} << card_from_json(c, config);
  }

  const Json& flight = doc.contains("flight") ? doc.at("flight") : Json();
  s.round_ = static_cast<int8_t>(json_get_int(flight, "round", 0, kColumns - 1));
  s.start_player_ = static_cast<int8_t>(json_get_int(flight, "start_player", 0, n - 1));
  s.mover_ = static_cast<int8_t>(json_get_int(flight, "mover", -1, n - 1));
  s.damage_left_ = static_cast<int8_t>(json_get_int(flight, "damage_left", 0, kRocketLength + kMaxRows + 9));
  s.removed_this_turn_ = static_cast<int8_t>(json_get_int(flight, "removed_this_turn", 0, 2 * kRocketLength));
  const Json& players = list_field(flight, "players", kMaxPlayers);
  if (static_cast<int>(players.size()) != n) bad("'flight.players' needs one entry per player");
  for (int p = 0; p < n; ++p) {
    s.status_[p] = choice_from_json<Status>(
        players[p], "status",
        {{"flying", Status::kFlying}, {"exploded", Status::kExploded}, {"exited", Status::kExited}});
    s.row_[p] = static_cast<int8_t>(json_get_int(players[p], "row", -1, n));
    s.column_[p] = static_cast<int8_t>(json_get_int(players[p], "column", -1, kColumns - 1));
    s.moved_[p] = json_get<bool>(players[p], "moved");
  }
  try {
    s.check_invariants();
  } catch (const InvariantViolation& e) {
    bad(std::string("impossible position: ") + e.what());
  }
  return s;
}

// ---------------------------------------------------------------------------
// Invariants

void State::check_invariants() const {
  const auto fail = [](const std::string& what) { throw InvariantViolation("last_blast: " + what); };
  if (n_ < kMinPlayers || n_ > kMaxPlayers) fail("bad player count");
  const int num_cards = config_->num_cards();

  // Tiles: the field plus the set-aside tiles are the configured supply.
  std::array<int, kNumSymbols> tiles{};
  for (int r = 0; r < rows(); ++r)
    for (int c = 0; c < kColumns; ++c) {
      if (field_[r][c] < 0 || field_[r][c] >= kNumSymbols) fail("bad tile in the field");
      ++tiles[field_[r][c]];
    }
  for (int i = 0; i < set_aside_size_; ++i) {
    if (set_aside_[i] < 0 || set_aside_[i] >= kNumSymbols) fail("bad set-aside tile");
    ++tiles[set_aside_[i]];
  }
  if (tiles != config_->tiles_per_symbol) fail("the tiles do not match the configured supply");

  // Cards: each one exactly once in the deck, discards, hands, picks or rockets.
  std::array<int, kMaxCards> seen{};
  const auto count = [&](int c) {
    if (c < 0 || c >= num_cards) fail("bad card id " + std::to_string(c));
    ++seen[c];
  };
  for (int i = 0; i < deck_size_; ++i) count(deck_[i]);
  for (int i = 0; i < discard_size_; ++i) count(discard_[i]);
  for (int i = 0; i < lost_size_; ++i) count(lost_[i]);
  for (int p = 0; p < n_; ++p) {
    if (hand_size_[p] < 0 || hand_size_[p] > kHandSize) fail("bad hand size");
    for (int i = 0; i < hand_size_[p]; ++i) count(hand_[p][i]);
    if (pick_[p].card >= 0) count(pick_[p].card);
    if (rocket_[p].size < 0 || rocket_[p].size > kRocketLength) fail("bad rocket size");
    for (int i = 0; i < rocket_[p].size; ++i) count(rocket_[p].card[i]);
  }
  for (int c = 0; c < num_cards; ++c)
    if (seen[c] != 1)
      fail("card " + config_->card_names[c] + " appears " + std::to_string(seen[c]) +
           " times (must be once)");
  const uint8_t everyone = static_cast<uint8_t>((1u << n_) - 1);
  for (int c = 0; c < num_cards; ++c)
    if (known_by_[c] & ~everyone) fail("knowledge of a player who is not in the game");
  for (int i = 0; i < lost_size_; ++i)
    if (known_by_[lost_[i]] != everyone) fail("a lost card must be public");
  for (int p = 0; p < n_; ++p) {
    for (int i = 0; i < rocket_[p].size; ++i)
      if (known_by_[rocket_[p].card[i]] != everyone) fail("a rocket card must be public");
    for (int i = 0; i < hand_size_[p]; ++i)
      if (!knows(p, hand_[p][i])) fail("a player must know their own hand");
  }

  if (phase_ == Phase::kDraft)
    check_draft_invariants();
  else
    check_flight_invariants();
}

void State::check_draft_invariants() const {
  const auto fail = [](const std::string& what) { throw InvariantViolation("last_blast draft: " + what); };
  if (picker_ < 0 || picker_ >= n_) fail("bad picker");
  if (lost_size_ != 0) fail("no card is lost before the flight");
  for (int p = 0; p < n_; ++p) {
    const Pick& pick = pick_[p];
    if (p < picker_ && (pick.card < 0 || pick.end < 0)) fail("a player before the picker has not picked");
    if (p > picker_ && pick.card >= 0) fail("a player after the picker has picked");
    if (p >= picker_ && pick.card < 0 && hand_size_[p] == 0) fail("a player yet to pick has no card");
    if (p == picker_ && pick.card >= 0 && !(pick.blind && pick.end < 0))
      fail("the picker has already picked");
    if (pick.blind && pick_number_ != kPicksPerHand - 1) fail("a blind draw before the fourth pick");
    if (pick.card >= 0 && !knows(p, pick.card)) fail("a player must know their own pick");
    const int picked = hand_number_ * kPicksPerHand + pick_number_;
    if (rocket_[p].size != picked)
      fail("player " + std::to_string(p) + "'s rocket should have " + std::to_string(picked) + " cards");
    if (status_[p] != Status::kFlying || row_[p] != -1 || column_[p] != -1)
      fail("no cube is on the field yet");
  }
}

void State::check_flight_invariants() const {
  const auto fail = [](const std::string& what) { throw InvariantViolation("last_blast flight: " + what); };
  for (int p = 0; p < n_; ++p) {
    if (hand_size_[p] != 0 || pick_[p].card >= 0) fail("hands and picks must be empty after the draft");
    const bool on_field = row_[p] >= 0;
    if (on_field != (column_[p] >= 0)) fail("a cube needs both a row and a column");
    if (on_field && (row_[p] >= rows() || column_[p] >= kColumns)) fail("a cube is off the field");
    for (int q = 0; q < p; ++q)
      if (on_field && row_[q] == row_[p] && column_[q] == column_[p]) fail("two cubes on one tile");
    if (status_[p] == Status::kExploded && rocket_[p].size != 0) fail("an exploded rocket still has cards");
    if (status_[p] != Status::kExploded && rocket_[p].size == 0 && !(p == mover_ && damage_left_ > 0))
      fail("a rocket without cards has not exploded");
    if (status_[p] == Status::kExploded && on_field && !config_->exploded_block_row)
      fail("an exploded cube stays only in the alternate rule");
  }
  if (phase_ == Phase::kOver) {
    if (mover_ != -1 || damage_left_ != 0) fail("nobody moves once the game is over");
    return;
  }
  for (int p = 0; p < n_; ++p) {
    if (status_[p] == Status::kExited) fail("rockets exit only at the end");
    if (status_[p] == Status::kExploded && row_[p] >= 0 && column_[p] != round_)
      fail("an exploded cube keeps pace with the round");
    if (status_[p] != Status::kFlying) continue;
    const int expected = moved_[p] ? round_ : round_ - 1;
    if (column_[p] != expected) fail("player " + std::to_string(p) + "'s cube is in the wrong column");
  }
  if (mover_ < 0 || status_[mover_] != Status::kFlying) fail("the mover must be a flying player");
  if (moved_[mover_] != (damage_left_ > 0)) fail("the mover moves, or removes damage after moving");
  if (damage_left_ > 0 && (removed_this_turn_ < 2 || damage_left_ >= rocket_[mover_].size))
    fail("the player chooses only the 3rd and later cards lost, and only while some will remain");
  if (status_[start_player_] != Status::kFlying && !moved_[start_player_])
    fail("the Start Player must be in flight");
}

}  // namespace rocketgym::last_blast
