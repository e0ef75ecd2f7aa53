#include "envs/launchpad23/launchpad23.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "envs/core/quoted.h"

namespace rocketgym::launchpad23 {
namespace {

constexpr const char* kColourNames[kColours] = {"red", "yellow", "green", "blue", "black"};
constexpr char kColourLetters[kColours] = {'R', 'Y', 'G', 'B', 'K'};
constexpr const char* kSizeNames[kSizes] = {"small", "medium", "large"};
constexpr char kSizeLetters[kSizes] = {'S', 'M', 'L'};
constexpr const char* kSizeFaceNames[6] = {"S", "M", "L", "S/M", "S/L", "M/L"};
constexpr const char* kSpaceNames[kSpaces] = {
    "top-left", "top", "top-right", "left", "Factory", "right", "bottom-left", "bottom", "bottom-right"};
constexpr const char* kDirectionNames[kDirections] = {"north", "east", "south", "west"};

std::string piece_code(int type) {
  return std::string{kColourLetters[colour_of(type)], kSizeLetters[size_of(type)]};
}

int parse_piece_code(const std::string& code) {
  if (code.size() == 2)
    for (int t = 0; t < kPieceTypes; ++t)
      if (piece_code(t) == code) return t;
  throw SerializationError("state document: unknown piece " + quote(code) +
                           " (colour R Y G B K followed by size S M L, e.g. \"RS\")");
}

Json pieces_to_json(const std::array<uint8_t, kPieceTypes>& counts) {
  Json out = Json::array();
  for (int t = 0; t < kPieceTypes; ++t)
    for (int k = 0; k < counts[t]; ++k) out.push_back(piece_code(t));
  return out;
}

std::array<uint8_t, kPieceTypes> pieces_from_json(const Json& list, const char* where) {
  if (!list.is_array())
    throw SerializationError(std::string("state document: '") + where + "' must be a list");
  std::array<uint8_t, kPieceTypes> counts{};
  for (const auto& item : list) {
    if (!item.is_string())
      throw SerializationError(std::string("state document: '") + where + "' holds a non-string");
    const int t = parse_piece_code(item.get<std::string>());
    if (++counts[t] > kCopies)
      throw SerializationError("state document: too many " + piece_name(t) + " pieces");
  }
  return counts;
}

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::kSetup:
      return "setup";
    case Phase::kNewPart:
      return "new_part";
    case Phase::kMoves:
      return "moves";
    default:
      return "game_over";
  }
}

}  // namespace

const char* colour_name(int colour) { return kColourNames[colour]; }
const char* size_name(int size) { return kSizeNames[size]; }
std::string piece_name(int type) {
  return std::string(kSizeNames[size_of(type)]) + " " + kColourNames[colour_of(type)];
}
const char* space_name(int space) { return kSpaceNames[space]; }

Config load_config(const ConfigNode& root) {
  root.expect_keys({"reward", "max_turns"});
  Config c;
  c.reward = parse_reward_mode(root);
  c.max_turns = root.get_int("max_turns", c.max_turns, 1, kMaxTurnsLimit);
  return c;
}

namespace {

// [size face][colour face]: Roll::allowed_types().
constexpr int kFaces = 6;
using AllowedTable = std::array<std::array<uint16_t, kFaces>, kFaces>;
constexpr AllowedTable allowed_table() {
  AllowedTable table{};
  for (int size_face = 0; size_face < kFaces; ++size_face)
    for (int colour_face = 0; colour_face < kFaces; ++colour_face) {
      const Roll roll{static_cast<uint8_t>(size_face), static_cast<uint8_t>(colour_face)};
      for (int type = 0; type < kPieceTypes; ++type)
        if (roll.allows(type))
          table[size_face][colour_face] = static_cast<uint16_t>(table[size_face][colour_face] | 1u << type);
    }
  return table;
}
constexpr AllowedTable kAllowedTypes = allowed_table();

// [space][set]: nearest_space_distance(set, space).
using NearestTable = std::array<std::array<uint8_t, 1 << kSpaces>, kSpaces>;
constexpr NearestTable nearest_table() {
  NearestTable table{};
  for (int space = 0; space < kSpaces; ++space)
    for (int set = 0; set < (1 << kSpaces); ++set) {
      int best = kNoSpaceNear;
      for (int s = 0; s < kSpaces; ++s)
        if ((set >> s) & 1) best = std::min(best, space_distance(s, space));
      table[static_cast<std::size_t>(space)][static_cast<std::size_t>(set)] = static_cast<uint8_t>(best);
    }
  return table;
}

// The move entries of the legal mask, four piece types at a time: [space][presence] holds the
// 16 entries (4 types x 4 directions) of types 4g..4g+3 on the space, where bit i of `presence`
// says the space holds a piece of type 4g + i: 1 where it does and the board goes on in that
// direction (neighbour(space, direction) >= 0), else 0.
constexpr int kTypesPerGroup = 4;
constexpr int kGroupEntries = kTypesPerGroup * kDirections;
using MoveEntryTable =
    std::array<std::array<std::array<uint8_t, kGroupEntries>, 1 << kTypesPerGroup>, kSpaces>;
constexpr MoveEntryTable move_entry_table() {
  MoveEntryTable table{};
  for (int space = 0; space < kSpaces; ++space)
    for (int presence = 0; presence < (1 << kTypesPerGroup); ++presence)
      for (int i = 0; i < kTypesPerGroup; ++i)
        for (int d = 0; d < kDirections; ++d)
          table[space][presence][i * kDirections + d] =
              ((presence >> i) & 1) != 0 && neighbour(space, d) >= 0;
  return table;
}
constexpr MoveEntryTable kMoveEntries = move_entry_table();

}  // namespace

uint16_t Roll::allowed_types() const { return kAllowedTypes[size_face][colour_face]; }

constexpr NearestTable kNearestSpaceDistance = nearest_table();

State::State(const Config& config, int num_players, uint64_t seed)
    : config_(&config), num_players_(num_players), rng_(seed) {
  board_.bank.fill(kCopies);
}

// Ruling 4: a new part is a piece the roll allows, taken from the Bank.
uint16_t State::takeable_types() const { return roll_.allowed_types() & board_.bank_types(); }

bool State::size_available(int size) const { return (takeable_types() & types_of_size(size)) != 0; }

bool State::shortage() const { return stealable_types() != 0; }

bool State::may_reroll() const { return shortage() && !rerolled_; }

// Ruling 5: steal only pieces of a size the Bank cannot supply. An allowed size the Bank
// cannot supply is a parts shortage.
uint16_t State::stealable_types() const {
  const uint16_t allowed = roll_.allowed_types(), takeable = allowed & board_.bank_types();
  unsigned stealable = 0;
  for (int size = 0; size < kSizes; ++size)
    if ((takeable & types_of_size(size)) == 0) stealable |= allowed & types_of_size(size);
  return static_cast<uint16_t>(stealable);
}

bool State::is_legal_setup(Action a) const { return a >= kSetupBase && a < kSetupBase + kSizes; }

bool State::is_legal_new_part(Action a) const {
  if (a >= kTakeBase && a < kTakeBase + kPieceTypes) return may_take(a - kTakeBase);
  if (a == kReroll) return may_reroll();
  if (a >= kStealBase && a < kMoveBase) {
    const int space = (a - kStealBase) / kPieceTypes, type = (a - kStealBase) % kPieceTypes;
    return may_steal(type) && board_.spaces[space][type] > 0;
  }
  return false;
}

bool State::is_legal_move(Action a) const {
  if (a == kEndTurn) return true;
  if (a == kTotalSystemFailure) return board_.pieces_on(pad_of(current_)) > 0;
  if (a < kMoveBase || a >= kTotalSystemFailure) return false;
  const int x = a - kMoveBase;
  const int direction = x % kDirections, type = (x / kDirections) % kPieceTypes;
  const int space = x / kDirections / kPieceTypes;
  const int owner = owner_of(space);
  return (owner < 0 || owner == current_) && board_.spaces[space][type] > 0 &&
         neighbour(space, direction) >= 0;
}

bool State::is_legal(Action a) const {
  switch (phase_) {
    case Phase::kSetup:
      return is_legal_setup(a);
    case Phase::kNewPart:
      return is_legal_new_part(a);
    case Phase::kMoves:
      return is_legal_move(a);
    default:
      return false;
  }
}

void State::legal_actions_mask(uint8_t* out) const {
  if (phase_ == Phase::kMoves) {
    std::fill_n(out, kMoveBase, uint8_t{0});
    write_move_entries(out + kMoveBase);
    out[kTotalSystemFailure] = board_.types_on(pad_of(current_)) != 0;
    out[kEndTurn] = 1;
    return;
  }
  std::fill_n(out, kNumActions, uint8_t{0});
  if (phase_ == Phase::kSetup) {
    for (int s = 0; s < kSizes; ++s) out[kSetupBase + s] = 1;
  } else if (phase_ == Phase::kNewPart) {
    for (unsigned types = takeable_types(); types != 0; types &= types - 1)
      out[kTakeBase + __builtin_ctz(types)] = 1;
    out[kReroll] = may_reroll();
    if (const unsigned stealable = stealable_types(); stealable != 0)  // only in a parts shortage
      for (int space = 0; space < kSpaces; ++space)
        for (unsigned types = board_.types_on(space) & stealable; types != 0; types &= types - 1)
          out[kStealBase + space * kPieceTypes + __builtin_ctz(types)] = 1;
  }
}

// Every move entry [kMoveBase, kTotalSystemFailure): a piece moves one space on the board, never
// from another player's pad. Four types at a time from a table, with no branch per type (whether
// a space holds one is a coin flip).
void State::write_move_entries(uint8_t* out) const {
  unsigned others_pads = 0;  // bit s: another player's pad, whose pieces the mover may not move
  for (int p = 0; p < num_players_; ++p)
    if (p != current_) others_pads |= 1u << pad_of(p);
  static_assert(kPieceTypes == 3 * kTypesPerGroup + 3, "four groups of types, the last of three");
  for (int space = 0; space < kSpaces; ++space) {
    const unsigned types = (others_pads >> space) & 1u ? 0u : board_.types_on(space);
    const auto& table = kMoveEntries[static_cast<std::size_t>(space)];
    const auto group = [&](int g) { return table[(types >> (kTypesPerGroup * g)) & 15u].data(); };
    uint8_t* entries = out + space * kPieceTypes * kDirections;
    std::memcpy(entries, group(0), kGroupEntries);
    std::memcpy(entries + kGroupEntries, group(1), kGroupEntries);
    std::memcpy(entries + 2 * kGroupEntries, group(2), kGroupEntries);
    std::memcpy(entries + 3 * kGroupEntries, group(3), 3 * kDirections);  // types 12-14
  }
}

void State::apply(Action a) {
  if (a < 0 || a >= kNumActions || !is_legal(a))
    throw IllegalAction("launchpad23: action " + std::to_string(a) +
                        (a >= 0 && a < kNumActions ? " (" + action_to_string(a) + ")" : std::string()) +
                        " is not legal in phase " + phase_name(phase_));
  if (phase_ == Phase::kSetup) {
    setup_choice_[current_] = static_cast<int8_t>(a - kSetupBase);
    if (++current_ == num_players_) reveal_setup();
  } else if (phase_ == Phase::kNewPart) {
    if (a == kReroll) {
      rerolled_ = true;
      roll_dice();
    } else if (a < kStealBase) {
      --board_.bank[a - kTakeBase];
      ++board_.spaces[kFactory][a - kTakeBase];
      finish_new_part();
    } else {
      const int space = (a - kStealBase) / kPieceTypes, type = (a - kStealBase) % kPieceTypes;
      --board_.spaces[space][type];
      ++board_.spaces[kFactory][type];
      check_for_winner(current_);  // a steal can leave a pad holding a finished rocket
      if (phase_ != Phase::kGameOver) finish_new_part();
    }
  } else if (a == kEndTurn) {
    end_turn();
  } else if (a == kTotalSystemFailure) {
    auto& pad = board_.spaces[pad_of(current_)];
    for (int t = 0; t < kPieceTypes; ++t) board_.bank[t] = static_cast<uint8_t>(board_.bank[t] + pad[t]);
    pad.fill(0);
    spend_move();
  } else {
    const int x = a - kMoveBase;
    const int direction = x % kDirections, type = (x / kDirections) % kPieceTypes;
    const int space = x / kDirections / kPieceTypes;
    --board_.spaces[space][type];
    ++board_.spaces[neighbour(space, direction)][type];
    spend_move();
  }
}

// Ruling 2: the secret choices are revealed together; the leftovers stay in the Bank.
void State::reveal_setup() {
  for (int p = 0; p < num_players_; ++p) {
    const int type = piece_type(p, setup_choice_[p]);
    --board_.bank[type];
    ++board_.spaces[pad_of(p)][type];
  }
  current_ = 0;
  start_turn();
}

void State::start_turn() {
  rerolled_ = false;
  moves_left_ = 0;
  phase_ = Phase::kNewPart;
  roll_dice();
}

void State::roll_dice() {
  roll_.size_face = static_cast<uint8_t>(rng_.below(6));
  roll_.colour_face = static_cast<uint8_t>(rng_.below(6));
}

void State::finish_new_part() {
  phase_ = Phase::kMoves;
  moves_left_ = roll_.moves();  // from the roll finally used (ruling 5)
}

void State::spend_move() {
  --moves_left_;
  check_for_winner(current_);
  if (phase_ != Phase::kGameOver && moves_left_ == 0) end_turn();
}

void State::end_turn() {
  ++turn_;
  if (turn_ >= config_->max_turns) {  // ruling 9: a truncated draw
    truncated_ = true;
    phase_ = Phase::kGameOver;
    return;
  }
  current_ = (current_ + 1) % num_players_;
  start_turn();
}

// Ruling 8: the mover's pad wins if it is complete, else any completed pad.
void State::check_for_winner(int mover) {
  if (board_.is_complete_rocket(pad_of(mover))) {
    winner_ = mover;
  } else {
    for (int p = 0; p < num_players_ && winner_ < 0; ++p)
      if (board_.is_complete_rocket(pad_of(p))) winner_ = p;
  }
  if (winner_ >= 0) phase_ = Phase::kGameOver;
}

void State::returns(float* out) const {
  if (!is_terminal() || truncated_) {
    std::fill_n(out, num_players_, 0.0f);
    return;
  }
  double standing[kMaxPlayers] = {};
  standing[winner_] = 1.0;
  compute_returns(config_->reward, num_players_, standing, standing, out);
}

void State::scores(int* out) const {
  for (int p = 0; p < num_players_; ++p) out[p] = p == winner_ ? 1 : 0;
}

// The only hidden information is the setup choices not yet revealed (ruling 10);
// the dice not yet rolled are hidden by reseeding.
void State::redeterminize(int viewer, Rng& rng) {
  if (phase_ == Phase::kSetup)
    for (int p = 0; p < num_players_; ++p)
      if (p != viewer && setup_choice_[p] >= 0) setup_choice_[p] = static_cast<int8_t>(rng.below(kSizes));
  rng_.reseed(rng.next());
}

void State::card_places(CardPlaces& out) const {
  if (phase_ != Phase::kSetup) return;
  for (int p = 0; p < num_players_; ++p)
    if (setup_choice_[p] >= 0) out.push_back({p, setup_choice_[p]});
}

void State::known_card_places(int viewer, CardPlaces& out) const {
  if (phase_ == Phase::kSetup && setup_choice_[viewer] >= 0) out.push_back({viewer, setup_choice_[viewer]});
}

std::string State::observation_string(int viewer) const {
  std::string text = to_string();
  if (phase_ == Phase::kSetup && setup_choice_[viewer] >= 0)
    text += "You (player " + std::to_string(viewer) + ") secretly chose a " +
            kSizeNames[setup_choice_[viewer]] + " starting piece.\n";
  return text;
}

void State::set_roll_for_test(Roll roll) { roll_ = roll; }

std::string State::action_to_string(Action a) const {
  std::ostringstream out;
  if (a >= kSetupBase && a < kTakeBase) {
    out << "choose a " << kSizeNames[a - kSetupBase] << " starting piece";
  } else if (a < kReroll) {
    out << "take a " << piece_name(a - kTakeBase) << " piece from the Bank";
  } else if (a == kReroll) {
    out << "re-roll the dice (parts shortage)";
  } else if (a < kMoveBase) {
    const int space = (a - kStealBase) / kPieceTypes;
    out << "steal a " << piece_name((a - kStealBase) % kPieceTypes) << " piece from " << kSpaceNames[space];
    if (owner_of(space) >= 0) out << " (pad of player " << owner_of(space) << ")";
    out << " into the Factory";
  } else if (a < kTotalSystemFailure) {
    const int x = a - kMoveBase;
    const int space = x / kDirections / kPieceTypes;
    out << "move " << piece_name((x / kDirections) % kPieceTypes) << " from " << kSpaceNames[space] << " "
        << kDirectionNames[x % kDirections];
    const int to = neighbour(space, x % kDirections);
    if (to >= 0) out << " to " << kSpaceNames[to];
  } else if (a == kTotalSystemFailure) {
    out << "Total System Failure: return every piece on your pad to the Bank";
  } else {
    out << "end the turn";
    if (phase_ == Phase::kMoves && moves_left_ > 0) out << " (" << moves_left_ << " moves unused)";
  }
  return out.str();
}

std::string State::to_string() const {
  std::ostringstream out;
  out << "Launchpad 23 — " << num_players_ << " players, turn " << turn_ + 1 << "\n";
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) {
      const int space = row * 3 + col;
      std::string label = kSpaceNames[space];
      if (owner_of(space) >= 0) label += " [pad P" + std::to_string(owner_of(space)) + "]";
      out << "  " << label << ":";
      for (int t = 0; t < kPieceTypes; ++t)
        for (int k = 0; k < board_.spaces[space][t]; ++k) out << " " << piece_code(t);
      out << "\n";
    }
  }
  out << "  Bank:";
  for (int t = 0; t < kPieceTypes; ++t)
    for (int k = 0; k < board_.bank[t]; ++k) out << " " << piece_code(t);
  out << "\n";
  if (phase_ == Phase::kGameOver) {
    out << (truncated_ ? "Game over: turn limit reached, a draw.\n"
                       : "Game over: player " + std::to_string(winner_) + " launches a rocket!\n");
  } else if (phase_ == Phase::kSetup) {
    out << "Setup: player " << current_ << " secretly chooses a starting size.\n";
  } else {
    out << "Player " << current_ << " rolled " << kSizeFaceNames[roll_.size_face] << ", "
        << (roll_.colour_face == kAtom ? "atom" : kColourNames[roll_.colour_face]);
    if (phase_ == Phase::kNewPart)
      out << (shortage() ? " — parts shortage!" : "") << "; adds a new part.\n";
    else
      out << "; " << moves_left_ << " moves left.\n";
  }
  return out.str();
}

Json State::to_json() const {
  Json doc;
  doc["game"] = "launchpad23";
  doc["num_players"] = num_players_;
  doc["phase"] = phase_name(phase_);
  doc["current_player"] = current_;
  doc["turn"] = turn_;
  doc["dice"] = {{"size", kSizeFaceNames[roll_.size_face]},
                 {"colour", roll_.colour_face == kAtom ? "atom" : kColourNames[roll_.colour_face]}};
  doc["rerolled"] = rerolled_;
  doc["moves_left"] = moves_left_;
  Json choices = Json::array();
  for (int p = 0; p < num_players_; ++p)
    choices.push_back(setup_choice_[p] < 0 ? Json() : Json(kSizeNames[setup_choice_[p]]));
  doc["setup_choices"] = choices;
  Json spaces = Json::object();
  for (int s = 0; s < kSpaces; ++s) spaces[kSpaceNames[s]] = pieces_to_json(board_.spaces[s]);
  doc["board"] = spaces;
  doc["bank"] = pieces_to_json(board_.bank);
  doc["winner"] = winner_;
  doc["truncated"] = truncated_;
  doc["rng"] = rng_to_json(rng_);
  return doc;
}

namespace {

template <std::size_t N>
int index_of(const char* const (&names)[N], const std::string& value, const char* field) {
  std::string listed;
  for (std::size_t i = 0; i < N; ++i) {
    if (value == names[i]) return static_cast<int>(i);
    listed += std::string(i ? ", " : "") + names[i];
  }
  throw SerializationError(std::string("state document: '") + field + "' must be one of " + listed);
}

// A field holding an object, e.g. "dice" (json_get would name only the
// missing key inside it).
Json object_field(const Json& doc, const char* key) {
  Json value = json_get<Json>(doc, key);
  if (!value.is_object())
    throw SerializationError(std::string("state document: '") + key + "' must be an object, not " +
                             value.type_name());
  return value;
}

}  // namespace

State State::from_json(const Json& doc, const Config& config) {
  if (!doc.is_object()) throw SerializationError("state document must be a JSON object");
  if (json_get<std::string>(doc, "game") != "launchpad23")
    throw SerializationError("state document is not a launchpad23 state");
  State s;
  s.config_ = &config;
  s.num_players_ = json_get_int(doc, "num_players", 2, kMaxPlayers);
  const std::string phase = json_get<std::string>(doc, "phase");
  const char* const phases[] = {"setup", "new_part", "moves", "game_over"};
  s.phase_ = static_cast<Phase>(index_of(phases, phase, "phase"));
  s.current_ = json_get_int(doc, "current_player", 0, s.num_players_ - 1);
  s.turn_ = json_get_int(doc, "turn", 0, kMaxTurnsLimit);
  const Json dice = object_field(doc, "dice");
  s.roll_.size_face =
      static_cast<uint8_t>(index_of(kSizeFaceNames, json_get<std::string>(dice, "size"), "dice.size"));
  const std::string colour = json_get<std::string>(dice, "colour");
  s.roll_.colour_face =
      static_cast<uint8_t>(colour == "atom" ? kAtom : index_of(kColourNames, colour, "dice.colour"));
  s.rerolled_ = json_get<bool>(doc, "rerolled");
  s.moves_left_ = json_get_int(doc, "moves_left", 0, 4);
  const Json choices = json_get<Json>(doc, "setup_choices");
  if (!choices.is_array() || static_cast<int>(choices.size()) != s.num_players_)
    throw SerializationError("state document: 'setup_choices' must list one entry per player");
  for (int p = 0; p < s.num_players_; ++p) {
    const Json& choice = choices[p];
    if (!choice.is_null() && !choice.is_string())
      throw SerializationError("state document: 'setup_choices[" + std::to_string(p) +
                               "]' must be a size name or null, not " + choice.type_name());
    s.setup_choice_[p] = static_cast<int8_t>(
        choice.is_null() ? -1 : index_of(kSizeNames, choice.get<std::string>(), "setup_choices"));
  }
  const Json spaces = object_field(doc, "board");
  for (int sp = 0; sp < kSpaces; ++sp)
    s.board_.spaces[sp] = pieces_from_json(json_get<Json>(spaces, kSpaceNames[sp]), kSpaceNames[sp]);
  s.board_.bank = pieces_from_json(json_get<Json>(doc, "bank"), "bank");
  s.winner_ = json_get_int(doc, "winner", -1, s.num_players_ - 1);
  s.truncated_ = json_get<bool>(doc, "truncated");
  s.rng_ = rng_from_json(json_get<Json>(doc, "rng"));
  return s;
}

void State::check_invariants() const {
  auto fail = [](const std::string& what) { throw InvariantViolation("launchpad23: " + what); };
  for (int t = 0; t < kPieceTypes; ++t) {
    int total = board_.bank[t];
    for (int s = 0; s < kSpaces; ++s) total += board_.spaces[s][t];
    if (total != kCopies)
      fail("there must be exactly two " + piece_name(t) + " pieces, found " + std::to_string(total));
  }
  if (current_ < 0 || current_ >= num_players_) fail("current player out of range");
  if (phase_ == Phase::kMoves && (moves_left_ < 1 || moves_left_ > roll_.moves()))
    fail("moves left out of range");
  if (phase_ == Phase::kSetup) {
    for (int p = 0; p < num_players_; ++p)
      if ((setup_choice_[p] >= 0) != (p < current_)) fail("setup choices must be made in seat order");
    for (int s = 0; s < kSpaces; ++s)
      if (board_.pieces_on(s) > 0) fail("no piece is on the board before the setup reveal");
  }
  if (phase_ == Phase::kGameOver && (winner_ >= 0) == truncated_)
    fail("a finished game has a winner or is truncated");
  if (phase_ != Phase::kGameOver && winner_ >= 0) fail("a winner exists but the game goes on");
  if (phase_ != Phase::kGameOver && truncated_) fail("the game is cut short (truncated) but goes on");
  if (turn_ > config_->max_turns) fail("turn " + std::to_string(turn_) + " is past the turn limit");
  // The turn that reaches the limit ends the game (end_turn), so a live game is always below it.
  if (phase_ != Phase::kGameOver && turn_ >= config_->max_turns)
    fail("turn " + std::to_string(turn_) + " is at the turn limit, yet the game goes on");
  if (phase_ != Phase::kGameOver)
    for (int p = 0; p < num_players_; ++p)
      if (board_.is_complete_rocket(pad_of(p))) fail("a complete rocket stands but the game goes on");
}

}  // namespace rocketgym::launchpad23
