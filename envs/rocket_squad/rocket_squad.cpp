// Rocket Squad rules engine: legality, card effects, the reaction chain, launches and turns.
// JSON documents: rocket_squad_json.cpp; printing and action names: rocket_squad_text.cpp;
// invariants: rocket_squad_invariants.cpp.
#include "envs/rocket_squad/rocket_squad.h"

#include <algorithm>
#include <cstring>

namespace rocketgym::rocket_squad {

namespace {
inline uint8_t bit(int seat) { return static_cast<uint8_t>(1u << seat); }
}  // namespace

// ---------------------------------------------------------------------------------------------
// Set-up
// ---------------------------------------------------------------------------------------------

State::State(const Config& config, int num_players, uint64_t seed)
    : config_(&config), num_players_(static_cast<int8_t>(num_players)), rng_(seed) {
  if (num_players < 2 || num_players > kMaxPlayers)
    throw Error("rocket_squad: " + std::to_string(num_players) + " players, must be 2 to 4");
  // The whole deck is shuffled into the draw pile, which everybody knows it is.
  for (int t = 0; t < kNumCardTypes; ++t)
    for (int k = 0; k < config.deck[t]; ++k) discard(static_cast<CardType>(t));
  reshuffle();
  for (int round = 0; round < config.hand_size; ++round)
    for (int p = 0; p < num_players; ++p) {
      CardType card;
      uint8_t known, mark;
      if (draw_card(bit(p), card, known, mark)) add_to_hand(p, card, known, mark);
    }
  turn_number_ = 0;
  start_turn(0);  // ruling: seat 0 starts
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

bool State::targetable(int p, int location, bool needs_box) const {
  const Rocket& r = rockets_[p][location];
  return p != turn_player_ && r.has_booster() && !r.launched && (r.num_boxes >= 1 || !needs_box) &&
         !r.friend_beside;
}

int State::free_locations(int p, int& only) const {
  int n = 0;
  for (int loc = 0; loc < kNumLocations; ++loc)
    if (rockets_[p][loc].can_take(1)) {
      ++n;
      only = loc;
    }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Legality
// ---------------------------------------------------------------------------------------------

void State::legal_actions_mask(uint8_t* out) const {
  std::fill(out, out + action::kNumActions, 0);
  switch (phase_) {
    case Phase::kGameOver:
      return;
    case Phase::kTurn: {
      const bool any_card = card_plays_mask(out);
      out[action::kEndTurn] = 1;
      out[action::kRedraw] =
          config_->first_turn_redraw && turn_start_ && first_turn(turn_player_) && !redraw_used_ && !any_card;
      for (int loc = 0; loc < kNumLocations; ++loc)
        out[action::kKnockOver + loc] = rockets_[turn_player_][loc].joker;
      return;
    }
    default:
      // Out-of-turn decisions only use the ids from kNoBlock on.
      for (int a = action::kNoBlock; a < action::kNumActions; ++a) out[a] = is_legal(a);
      return;
  }
}

// Marks the legal plays of the turn player's cards (boosters, boxes, Character and Item
// cards) in a mask that is all zero, and says whether there is any. Only the id ranges of
// cards in hand are examined, and within them only the ids that name seats at the table.
// The conditions are play_ok's (targets_ok's), worked out once per location and seat and
// written range by range, because asking play_ok id by id (192 Uncle ids, 125 Water
// Balloons codes with 4 players) was most of the mask; a card's four ids, one per own
// location, are written as one word; the targets are worked out only for a hand holding a
// card that needs them. The tests check that the mask and is_legal agree on every id.
bool State::card_plays_mask(uint8_t* out) const {
  using namespace action;
  using PerLocation = std::array<uint8_t, kNumLocations>;
  const Hand& h = hands_[turn_player_];
  const auto& own = rockets_[turn_player_];
  const int opponents = num_players_ - 1;
  bool any = false;
  const auto set = [&](int a, bool legal) {
    out[a] = legal;
    any = any || legal;
  };
  const auto set_per_location = [&](int a, const PerLocation& legal) {  // ids a .. a + 3
    uint32_t word;
    std::memcpy(&word, legal.data(), sizeof word);
    std::memcpy(out + a, &word, sizeof word);
    any = any || word != 0;
  };
  const auto per_location = [&](auto fact) {
    PerLocation facts;
    for (int loc = 0; loc < kNumLocations; ++loc) facts[loc] = fact(own[loc]);
    return facts;
  };
  const PerLocation take1 = per_location([](const Rocket& r) { return r.can_take(1); });

  // Boxes (any card) and boosters; the Character and Item cards in hand, a bit each.
  unsigned specials = 0;
  for (int i = 0; i < h.count; ++i) {
    const CardType t = h.cards[i];
    set_per_location(kBuildBox + t * kNumLocations, take1);
    if (!is_booster(t)) {
      specials |= 1u << t;
      continue;
    }
    // A new booster, or a replacement while no box is on the old one (play_ok).
    const auto replaceable = [](const Rocket& r) { return !r.launched && r.num_boxes == 0; };
    const int first = kPlaceBooster + (t - kFirstBooster) * kNumLocations, colour = booster_colour(t);
    if (colour == kWild)
      set_per_location(first, per_location(replaceable));
    else
      set(first + colour, replaceable(own[colour]));
  }

  // The opponents' rockets an Orange card may target, per offset [offset][location].
  std::array<PerLocation, kMaxPlayers> target{};
  std::array<uint8_t, kMaxPlayers> has_target{};
  constexpr unsigned kTargeting = 1u << kDad | 1u << kJoker | 1u << kWaterBalloons;
  if (specials & kTargeting)
    for (int offset = 1; offset <= opponents; ++offset)
      for (int loc = 0; loc < kNumLocations; ++loc) {
        target[offset][loc] = targetable(seat(offset), loc);
        has_target[offset] |= target[offset][loc];
      }
  // Each card's ids: a targets_ok condition per range (see there).
  for (unsigned m = specials; m != 0; m &= m - 1) {
    switch (__builtin_ctz(m)) {
      case kDad:  // (offset - 1) * 16 + target location * 4 + own location
        for (int offset = 1; offset <= opponents; ++offset)
          for (int tl = 0; tl < kNumLocations; ++tl)
            if (target[offset][tl]) set_per_location(kPlayDad + (offset - 1) * 16 + tl * 4, take1);
        break;
      case kJack:
        for (int offset = 1; offset <= opponents; ++offset)
          set(kPlayJack + offset - 1, hands_[seat(offset)].count >= config_->jack_min_hand);
        break;
      case kUncle:  // from * 48 + to * 12 + count - 1: count boxes from one's rocket to another
        for (int from = 0; from < kNumLocations; ++from) {
          const Rocket& r = own[from];
          if (!r.has_booster() || r.launched) continue;
          for (int to = 0; to < kNumLocations; ++to) {
            if (to == from || !take1[to]) continue;
            const int most = std::min<int>(r.num_boxes, own[to].room());
            for (int count = 1; count <= most; ++count)
              set(kPlayUncle + from * 48 + to * kMaxValue + count - 1, true);
          }
        }
        break;
      case kJackie:
        set(kPlayJackie, cards_available() >= 1);
        break;
      case kJoker:
        for (int offset = 1; offset <= opponents; ++offset)
          for (int loc = 0; loc < kNumLocations; ++loc)
            set(kPlayJoker + (offset - 1) * kNumLocations + loc,
                target[offset][loc] && !rockets_[seat(offset)][loc].joker);
        break;
      case kAce:  // (offset - 1) * 8 + location * 2 + direction, then Scare (own Joker)
        for (int offset = 1; offset <= opponents; ++offset)
          for (int loc = 0; loc < kNumLocations; ++loc)
            for (int d = 0; d < 2; ++d)
              set(kAceDog + (offset - 1) * 8 + loc * 2 + d,
                  targetable(seat(offset), loc, /*needs_box=*/false));
        set_per_location(kAceScare, per_location([](const Rocket& r) { return r.joker; }));
        break;
      case kImaginaryFriend:
        set_per_location(kPlayFriend, per_location([](const Rocket& r) {
                           return r.has_booster() && !r.launched && !r.friend_beside;
                         }));
        break;
      case kDuctTape:
        if (cards_available() >= 2)
          set_per_location(kPlayDuctTape, per_location([](const Rocket& r) { return r.can_take(2); }));
        break;
      case kWaterBalloons: {
        // A code names, per opponent offset 1..3 (base-5 digits, offset 1 lowest), one
        // targetable rocket of every opponent that has one and kNoTarget for the others
        // (and for absent seats): the legal codes are the products of those choices,
        // provided some opponent has a target (legal_water_balloons).
        set_per_location(kBalloonsScare, per_location([](const Rocket& r) { return r.joker; }));
        bool some_target = false;
        std::array<std::array<int, kNumLocations>, kMaxPlayers> digits{};  // [offset]: allowed digits
        std::array<int, kMaxPlayers> choices{};
        for (int offset = 1; offset < kMaxPlayers; ++offset) {
          if (offset <= opponents && has_target[offset]) {
            some_target = true;
            for (int loc = 0; loc < kNumLocations; ++loc)
              if (target[offset][loc]) digits[offset][choices[offset]++] = loc;
          } else {
            digits[offset][choices[offset]++] = kNoTarget;
          }
        }
        if (!some_target) break;
        for (int i1 = 0; i1 < choices[1]; ++i1)
          for (int i2 = 0; i2 < choices[2]; ++i2)
            for (int i3 = 0; i3 < choices[3]; ++i3)
              set(kPlayBalloons + digits[1][i1] + 5 * digits[2][i2] + 25 * digits[3][i3], true);
        break;
      }
      default:
        break;  // Mom, Grandma and Crew are only reactions (or boxes)
    }
  }
  return any;
}

bool State::is_legal(Action a) const {
  using namespace action;
  if (a < 0 || a >= kNumActions) return false;
  switch (phase_) {
    case Phase::kTurn:
      return legal_turn_action(a);
    case Phase::kReaction:
      return a == kNoBlock || (a == kBlockMom && can_block(decider_, kMom)) ||
             (a == kBlockGrandma && can_block(decider_, kGrandma));
    case Phase::kCrew:
      return a == kCrewAttach || a == kCrewDecline;
    case Phase::kJackieKeep: {
      if (a < kJackieKeep || a >= kAceBuild) return false;
      const int keep = (a - kJackieKeep) / 2, order = (a - kJackieKeep) % 2;
      // The order of the two cards put back only matters when there are two of them.
      return keep < jackie_.count && (order == 0 || jackie_.count == 3);
    }
    case Phase::kAcePass:
      return a >= kAceBuild && a < kNumActions && rockets_[decider_][a - kAceBuild].can_take(1);
    case Phase::kGameOver:
      return false;
  }
  return false;
}

// Mom blocks an Orange card played against her holder; Grandma blocks any Orange or Purple
// card (Mom and Grandma are Purple, so only Grandma can block a block). Nobody blocks their
// own card.
bool State::can_block(int p, CardType block) const {
  if (!chain_.active || p == chain_.top_player || hand_count(p, block) == 0) return false;
  const CardColour colour = card_colour(chain_.top);
  if (block == kMom) return colour == CardColour::kOrange && ((chain_.against >> p) & 1);
  if (block == kGrandma) return colour == CardColour::kOrange || colour == CardColour::kPurple;
  return false;
}

// Ruling 10: only a player who cannot play any card at the start of their first turn may
// redraw (once); an empty or unplayable hand after playing cards is no reason.
bool State::may_redraw() const {
  return config_->first_turn_redraw && turn_start_ && first_turn(turn_player_) && !redraw_used_ &&
         !can_play_any_card();
}

bool State::can_play_any_card() const {
  std::array<uint8_t, action::kNumActions> scratch{};
  return card_plays_mask(scratch.data());
}

// Water Balloons names one targetable rocket of every opponent that has one (ruling 9), and
// needs at least one such rocket.
bool State::legal_water_balloons(int code) const {
  bool any = false;
  for (int offset = 1; offset <= 3; ++offset, code /= 5) {
    const int digit = code % 5;
    if (offset >= num_players_) {
      if (digit != action::kNoTarget) return false;
      continue;
    }
    const int target = seat(offset);
    bool has_target = false;
    for (int loc = 0; loc < kNumLocations; ++loc) has_target = has_target || targetable(target, loc);
    if (!has_target) {
      if (digit != action::kNoTarget) return false;
    } else {
      if (digit == action::kNoTarget || !targetable(target, digit)) return false;
      any = true;
    }
  }
  return any;
}

bool State::legal_turn_action(Action a) const {
  using namespace action;
  if (phase_ != Phase::kTurn || a < 0 || a >= kNumActions) return false;
  const int p = turn_player_;
  const auto& own = rockets_[p];
  if (a == kEndTurn) return true;
  if (a == kRedraw) return may_redraw();
  if (a < kBuildBox) {
    const int index = (a - kPlaceBooster) / kNumLocations;
    return hand_count(p, booster_card(index / kMaxValue, index % kMaxValue + 1)) > 0 && play_ok(a);
  }
  if (a < kKnockOver) {
    const int t = (a - kBuildBox) / kNumLocations, loc = (a - kBuildBox) % kNumLocations;
    return hand_count(p, static_cast<CardType>(t)) > 0 && own[loc].can_take(1);
  }
  if (a < kPlayDad) return own[a - kKnockOver].joker;  // "as a last resort", on one's own turn
  return hand_count(p, card_of_action(a)) > 0 && play_ok(a);
}

// A booster placed, or a Character or Item card played, by the turn player, who holds the card.
bool State::play_ok(Action a) const {
  using namespace action;
  if (a < kBuildBox) {
    const int index = (a - kPlaceBooster) / kNumLocations, loc = (a - kPlaceBooster) % kNumLocations;
    const int colour = index / kMaxValue;
    const Rocket& r = rockets_[turn_player_][loc];
    // A new booster, or a replacement while no box is on the old one.
    return (colour == kWild || colour == loc) && !r.launched && r.num_boxes == 0;
  }
  return targets_ok(a, /*check_jack_hand=*/true);
}

CardType State::card_of_action(Action a) {
  using namespace action;
  if (a >= kPlayDad && a < kPlayJack) return kDad;
  if (a >= kPlayJack && a < kPlayUncle) return kJack;
  if (a >= kPlayUncle && a < kPlayJackie) return kUncle;
  if (a == kPlayJackie) return kJackie;
  if (a >= kPlayJoker && a < kAceDog) return kJoker;
  if (a >= kAceDog && a < kPlayFriend) return kAce;
  if (a >= kPlayFriend && a < kPlayDuctTape) return kImaginaryFriend;
  if (a >= kPlayDuctTape && a < kPlayBalloons) return kDuctTape;
  if (a >= kPlayBalloons && a < kNoBlock) return kWaterBalloons;
  return kNoCard;
}

// The target conditions of a Character or Item card of the turn player (ruling 5). They hold
// from the moment the card is played until it resolves, since blocks change no rocket; only
// the size of Jack's victim's hand may shrink (by the blocks they play).
bool State::targets_ok(Action a, bool check_jack_hand) const {
  using namespace action;
  const int p = turn_player_;
  const auto& own = rockets_[p];
  if (a >= kPlayDad && a < kPlayJack) {  // a box to take, and room for it
    const int offset = (a - kPlayDad) / 16 + 1, target_loc = (a - kPlayDad) % 16 / 4,
              own_loc = (a - kPlayDad) % 4;
    return offset < num_players_ && targetable(seat(offset), target_loc) && own[own_loc].can_take(1);
  }
  if (a >= kPlayJack && a < kPlayUncle) {
    const int offset = a - kPlayJack + 1;
    return offset < num_players_ &&
           (!check_jack_hand || hands_[seat(offset)].count >= config_->jack_min_hand);
  }
  if (a >= kPlayUncle && a < kPlayJackie) {
    const int from = (a - kPlayUncle) / 48, to = (a - kPlayUncle) % 48 / kMaxValue,
              count = (a - kPlayUncle) % kMaxValue + 1;
    return from != to && own[from].has_booster() && !own[from].launched && own[from].num_boxes >= count &&
           own[to].can_take(count);
  }
  if (a == kPlayJackie) return cards_available() >= 1;
  if (a >= kPlayJoker && a < kAceDog) {  // one Joker per rocket
    const int offset = (a - kPlayJoker) / 4 + 1, loc = (a - kPlayJoker) % 4;
    return offset < num_players_ && targetable(seat(offset), loc) && !rockets_[seat(offset)][loc].joker;
  }
  if (a >= kAceDog && a < kAceScare) {
    const int offset = (a - kAceDog) / 8 + 1, loc = (a - kAceDog) % 8 / 2;
    return offset < num_players_ && targetable(seat(offset), loc, /*needs_box=*/false);
  }
  if (a >= kAceScare && a < kPlayFriend) return own[a - kAceScare].joker;
  if (a >= kPlayFriend && a < kPlayDuctTape) {
    const Rocket& r = own[a - kPlayFriend];
    return r.has_booster() && !r.launched && !r.friend_beside;
  }
  if (a >= kPlayDuctTape && a < kPlayBalloons)
    return own[a - kPlayDuctTape].can_take(2) && cards_available() >= 2;
  if (a >= kPlayBalloons && a < kBalloonsScare) return legal_water_balloons(a - kPlayBalloons);
  if (a >= kBalloonsScare && a < kNoBlock) return own[a - kBalloonsScare].joker;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Applying a decision
// ---------------------------------------------------------------------------------------------

void State::apply(Action a) {
  using namespace action;
  if (a < 0 || a >= kNumActions)
    throw IllegalAction("rocket_squad: action " + std::to_string(a) + " out of range [0, " +
                        std::to_string(kNumActions - 1) + "]");
  if (!is_legal(a))
    throw IllegalAction("rocket_squad: action " + std::to_string(a) + " '" + action_to_string(a) +
                        "' is not legal now" + (is_terminal() ? " (the game is over)" : ""));
  ++decisions_;
  switch (phase_) {
    case Phase::kTurn:
      turn_start_ = false;
      play_turn_action(a);
      break;
    case Phase::kReaction:
      if (a == kNoBlock) {
        ++chain_.asked;
      } else {
        const CardType block = a == kBlockMom ? kMom : kGrandma;
        take_from_hand(decider_, block, all_seats());
        discard(block);  // blocks are discarded at once and not redrawn
        chain_.against = bit(chain_.top_player);
        chain_.top = block;
        chain_.top_player = decider_;
        chain_.asked = 0;  // a new round of asking starts after the blocker
        ++chain_.blocks;
      }
      ask_next_reactor();
      break;
    case Phase::kCrew: {
      // The rocket has launched already; everybody sees a Crew card attached to it.
      if (a == kCrewAttach) {
        take_from_hand(decider_, kCrew, all_seats());
        rockets_[decider_][crew_location_].crew = true;
      }
      crew_location_ = -1;
      advance();
      break;
    }
    case Phase::kJackieKeep: {
      const int keep = (a - kJackieKeep) / 2, order = (a - kJackieKeep) % 2;
      const int p = turn_player_;
      // Only the Jackie player sees which card is kept; the others know only what they knew
      // of the looked-at cards (see leave_region).
      const CardType kept = jackie_.cards[keep];
      const uint8_t kept_mark = leave_marked_region(jackie_.from_deck.data(), jackie_.count, kept, false);
      std::copy(jackie_.from_deck.begin() + keep + 1, jackie_.from_deck.begin() + jackie_.count,
                jackie_.from_deck.begin() + keep);
      const uint8_t kept_known =
          leave_region(jackie_.cards.data(), jackie_.known_by.data(), nullptr, jackie_.count, keep,
                       static_cast<uint8_t>(all_seats() & ~bit(p)), bit(p));
      add_to_hand(p, kept, kept_known, kept_mark);
      // The rest go to the bottom in the chosen order: the Jackie player knows where each
      // is; the others (if they knew them) only that they are in the pile.
      const auto put_bottom = [&](int i) {
        put_under_draw_pile(jackie_.cards[i], bit(p), static_cast<uint8_t>(jackie_.known_by[i] & ~bit(p)),
                            jackie_.from_deck[i]);
      };
      if (jackie_.count == 2) {
        // order 0: the card with the lower index ends at the very bottom (so it is put there last).
        put_bottom(order == 0 ? 1 : 0);
        put_bottom(order == 0 ? 0 : 1);
      } else if (jackie_.count == 1) {
        put_bottom(0);
      }
      jackie_ = JackieLook{};
      advance();
      break;
    }
    case Phase::kAcePass:
      --ace_.count;
      build_box(decider_, a - kAceBuild, ace_.boxes[ace_.count], ace_.box_known_by[ace_.count],
                ace_.box_from_deck[ace_.count]);
      ace_.skips = 0;
      ace_.next_seat = static_cast<int8_t>((decider_ + ace_.direction + num_players_) % num_players_);
      advance();
      break;
    case Phase::kGameOver:
      break;
  }
  if (phase_ != Phase::kGameOver && decisions_ >= kMaxDecisions) finish_game(/*truncated=*/true);
}

void State::play_turn_action(Action a) {
  using namespace action;
  const int p = turn_player_;
  if (a == kEndTurn) return end_turn();
  if (a == kRedraw) {
    // Rulebook note: discard the unplayable hand, draw a new one and play the turn.
    discard_hand(p);
    for (int i = 0; i < config_->hand_size; ++i) {
      CardType card;
      uint8_t known, mark;
      if (draw_card(bit(p), card, known, mark)) add_to_hand(p, card, known, mark);
    }
    redraw_used_ = true;
    return;
  }
  if (a < kBuildBox) {
    const int index = (a - kPlaceBooster) / kNumLocations, loc = (a - kPlaceBooster) % kNumLocations;
    const CardType card = booster_card(index / kMaxValue, index % kMaxValue + 1);
    take_from_hand(p, card, all_seats());
    Rocket& r = rockets_[p][loc];
    if (r.has_booster()) discard(r.booster);  // replacement: the old booster is discarded
    r.booster = card;
    return advance();  // a fourth booster may launch complete rockets
  }
  if (a < kKnockOver) {
    // Face down: the builder knows the box; the others only if they knew the hand's every card
    // and all were the same.
    const CardType card = static_cast<CardType>((a - kBuildBox) / kNumLocations);
    uint8_t mark;
    const uint8_t known = take_from_hand(p, card, /*seen_by=*/0, &mark);
    build_box(p, (a - kBuildBox) % kNumLocations, card, known, mark);
    return advance();
  }
  if (a < kPlayDad) {
    Rocket& r = rockets_[p][a - kKnockOver];
    while (r.num_boxes > 0) discard_top_box(p, a - kKnockOver);  // the Joker leaves with the first
    return advance();
  }
  // A Character or Item card: it goes on the table and waits for the reaction chain. Mom
  // may block it for the players it is played against.
  const CardType card = card_of_action(a);
  take_from_hand(p, card, all_seats());
  start_chain(card, a, against_of(a));
}

uint8_t State::against_of(Action a) const {
  using namespace action;
  uint8_t against = 0;
  if (a >= kPlayDad && a < kPlayUncle) {
    against = bit(seat(a < kPlayJack ? (a - kPlayDad) / 16 + 1 : a - kPlayJack + 1));  // Dad, Jack
  } else if (a >= kPlayJoker && a < kAceScare) {
    against = bit(seat(a < kAceDog ? (a - kPlayJoker) / 4 + 1 : (a - kAceDog) / 8 + 1));  // Joker, Ace
  } else if (a >= kPlayBalloons && a < kBalloonsScare) {
    int code = a - kPlayBalloons;
    for (int offset = 1; offset <= 3; ++offset, code /= 5)
      if (code % 5 != kNoTarget && offset < num_players_) against |= bit(seat(offset));
  }
  return against;
}

// ---------------------------------------------------------------------------------------------
// The reaction chain (ruling 4)
// ---------------------------------------------------------------------------------------------

void State::start_chain(CardType card, Action a, uint8_t against) {
  chain_ = Chain{};
  chain_.active = true;
  chain_.card = card;
  chain_.action = static_cast<int16_t>(a);
  chain_.against = against;
  chain_.top = card;
  chain_.top_player = turn_player_;
  ask_next_reactor();  // Grey cards cannot be blocked: nobody is asked, the card resolves
}

// Asks, clockwise from whoever played the top card, the next player able to block it.
// Players who cannot block are never asked, so being asked reveals nothing to the others
// (and observations do not show who is being asked).
void State::ask_next_reactor() {
  const int n = num_players_;
  while (chain_.asked < n - 1) {
    const int s = (chain_.top_player + 1 + chain_.asked) % n;
    if (can_block(s, kMom) || can_block(s, kGrandma)) {
      phase_ = Phase::kReaction;
      decider_ = static_cast<int8_t>(s);
      return;
    }
    ++chain_.asked;
  }
  resolve_chain();
}

void State::resolve_chain() {
  const bool happens = chain_.blocks % 2 == 0;
  const CardType card = chain_.card;
  const Action a = chain_.action;
  chain_ = Chain{};
  phase_ = Phase::kTurn;
  decider_ = turn_player_;
  if (happens)
    apply_effect(card, a);
  else
    discard(card);
  if (phase_ == Phase::kTurn) advance();
}

// The effect of a card that was not blocked. The card goes to the discard pile after its
// effect (so the cards Jackie or Duct Tape draw never include it), except Joker and
// Imaginary Friend, which stay on the table.
void State::apply_effect(CardType card, Action a) {
  using namespace action;
  const int p = turn_player_;
  if (a >= kPlayDad && a < kPlayJack) {  // take the top box, build it on an own rocket
    const int offset = (a - kPlayDad) / 16 + 1, target_loc = (a - kPlayDad) % 16 / 4,
              own_loc = (a - kPlayDad) % 4;
    uint8_t known, mark;  // the box is moved face down: whoever knew its face still does
    const CardType box = remove_top_box(seat(offset), target_loc, known, mark);
    build_box(p, own_loc, box, known, mark);
  } else if (a >= kPlayJack && a < kPlayUncle) {  // steal a card at random
    const int victim = seat(a - kPlayJack + 1);
    if (hands_[victim].count > 0) {
      // The thief and the victim see the card; the other players do not.
      const int i = static_cast<int>(rng_.below(hands_[victim].count));
      const CardType stolen = hands_[victim].cards[i];
      uint8_t mark;
      const uint8_t known = take_from_hand(victim, i, bit(p), &mark, /*to_hand=*/p);
      add_to_hand(p, stolen, known, mark);
    }
  } else if (a >= kPlayUncle && a < kPlayJackie) {  // move boxes between own rockets
    const int from = (a - kPlayUncle) / 48, to = (a - kPlayUncle) % 48 / kMaxValue,
              count = (a - kPlayUncle) % kMaxValue + 1;
    for (int k = 0; k < count; ++k) {
      uint8_t known, mark;
      const CardType box = remove_top_box(p, from, known, mark);
      build_box(p, to, box, known, mark);
    }
  } else if (a == kPlayJackie) {  // look at the top 3 cards
    jackie_ = JackieLook{};
    CardType drawn;
    uint8_t known, mark;
    while (jackie_.count < kJackieLook && draw_card(bit(p), drawn, known, mark)) {
      jackie_.cards[jackie_.count] = drawn;
      jackie_.from_deck[jackie_.count] = mark;
      jackie_.known_by[jackie_.count++] = known;
    }
    if (jackie_.count == 1) {  // nothing to choose
      add_to_hand(p, jackie_.cards[0], jackie_.known_by[0], jackie_.from_deck[0]);
      jackie_ = JackieLook{};
    } else if (jackie_.count > 1) {
      phase_ = Phase::kJackieKeep;
      decider_ = static_cast<int8_t>(p);
    }
  } else if (a >= kPlayJoker && a < kAceDog) {
    rockets_[seat((a - kPlayJoker) / 4 + 1)][(a - kPlayJoker) % 4].joker = true;
    return;                                    // Joker stays on the rocket
  } else if (a >= kAceDog && a < kAceScare) {  // knock all boxes off and pass them around
    const int offset = (a - kAceDog) / 8 + 1, loc = (a - kAceDog) % 8 / 2;
    ace_ = AcePass{};
    while (rockets_[seat(offset)][loc].num_boxes > 0) {
      ace_.boxes[ace_.count] =
          remove_top_box(seat(offset), loc, ace_.box_known_by[ace_.count], ace_.box_from_deck[ace_.count]);
      ++ace_.count;
    }
    ace_.active = true;
    ace_.direction = static_cast<int8_t>((a - kAceDog) % 2 == 0 ? 1 : -1);
    ace_.next_seat = static_cast<int8_t>(p);  // starting with the active player
  } else if ((a >= kAceScare && a < kPlayFriend) || (a >= kBalloonsScare && a < kNoBlock)) {
    Rocket& r = rockets_[p][a >= kBalloonsScare ? a - kBalloonsScare : a - kAceScare];
    r.joker = false;
    discard(kJoker);
  } else if (a >= kPlayFriend && a < kPlayDuctTape) {
    rockets_[p][a - kPlayFriend].friend_beside = true;
    return;                                              // discarded at the start of the owner's next turn
  } else if (a >= kPlayDuctTape && a < kPlayBalloons) {  // two boxes from the draw pile, unseen
    for (int k = 0; k < 2; ++k) {
      CardType drawn;
      uint8_t known, mark;
      if (draw_card(/*seen_by=*/0, drawn, known, mark)) build_box(p, a - kPlayDuctTape, drawn, known, mark);
    }
  } else if (a >= kPlayBalloons && a < kBalloonsScare) {  // one box off each named rocket
    int code = a - kPlayBalloons;
    for (int offset = 1; offset <= 3; ++offset, code /= 5)
      if (code % 5 != kNoTarget) discard_top_box(seat(offset), code % 5);
  }
  discard(card);
}

// ---------------------------------------------------------------------------------------------
// Launches, Ace passing and the turn structure
// ---------------------------------------------------------------------------------------------

// Resolves what happens "at once" after a change: launches first (a launch asks its owner
// about Crew if they hold one), then the next box Ace is passing; finally the turn player
// acts again. The rocket launches before its owner is asked, so what the others see is the
// same whether or not the owner holds a Crew card (ruling 4: who is asked stays hidden).
void State::advance() {
  for (;;) {
    int p, loc;
    if (find_launch(p, loc)) {
      launch(p, loc);
      if (hand_count(p, kCrew) > 0) {
        phase_ = Phase::kCrew;
        decider_ = static_cast<int8_t>(p);
        crew_location_ = static_cast<int8_t>(loc);
        return;
      }
      continue;
    }
    if (ace_.active) {
      if (step_ace_pass()) return;
      continue;
    }
    phase_ = Phase::kTurn;
    decider_ = turn_player_;
    return;
  }
}

// A rocket launches when it has exactly its number of boxes and all four locations hold a
// booster (ruling 3). The rulebook's example calls a rocket with a Joker "stopped", so by
// default a Joker keeps even a complete rocket on the ground until it is scared away.
bool State::find_launch(int& p, int& location) const {
  for (int k = 0; k < num_players_; ++k) {
    const int s = (turn_player_ + k) % num_players_;
    bool all_placed = true;
    for (const Rocket& r : rockets_[s]) all_placed = all_placed && r.has_booster();
    if (!all_placed) continue;
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = rockets_[s][loc];
      if (!r.launched && r.num_boxes == r.need() && !(r.joker && config_->joker_stops_launch)) {
        p = s;
        location = loc;
        return true;
      }
    }
  }
  return false;
}

void State::launch(int p, int location) {
  Rocket& r = rockets_[p][location];
  while (r.num_boxes > 0) {  // face up: nothing about them stays secret
    --r.num_boxes;
    discard_face_up(r.boxes[r.num_boxes], r.box_from_deck[r.num_boxes]);
    r.box_known_by[r.num_boxes] = 0;
    r.box_from_deck[r.num_boxes] = 0;
  }
  if (r.joker) {
    r.joker = false;
    discard(kJoker);
  }
  r.launched = true;
  if (!end_triggered_ && launched_count(p) == kNumLocations) {
    end_triggered_ = true;
    trigger_seat_ = static_cast<int8_t>(p);
    final_owed_ = static_cast<uint8_t>(((1u << num_players_) - 1) & ~bit(p));
  }
}

// Passes the next Ace box. Returns true when a player must choose where to build it; a
// player with a single free location builds there without being asked.
bool State::step_ace_pass() {
  const int n = num_players_;
  if (ace_.count == 0 || ace_.skips >= n) {  // done, or nobody can take the rest
    while (ace_.count > 0) {
      --ace_.count;
      discard_face_up(ace_.boxes[ace_.count], ace_.box_from_deck[ace_.count]);
    }
    ace_ = AcePass{};
    return false;
  }
  const int s = ace_.next_seat;
  int only = -1;
  const int options = free_locations(s, only);
  if (options > 1) {
    phase_ = Phase::kAcePass;
    decider_ = static_cast<int8_t>(s);
    return true;
  }
  if (options == 1) {
    --ace_.count;
    build_box(s, only, ace_.boxes[ace_.count], ace_.box_known_by[ace_.count], ace_.box_from_deck[ace_.count]);
    ace_.skips = 0;
  } else {
    ++ace_.skips;
  }
  ace_.next_seat = static_cast<int8_t>((s + ace_.direction + n) % n);
  return false;
}

// Ends the turn: draw back up to the hand size, or on a final turn (and on the turn that
// triggered the end) discard the hand. After the trigger, every other player takes one
// more turn, clockwise from the next seat; a player whose turn was running when someone
// else triggered the end out of turn still gets a final turn of their own, last.
void State::end_turn() {
  const int p = turn_player_, n = num_players_;
  Hand& h = hands_[p];
  if (end_triggered_ && (p == trigger_seat_ || in_final_turn_)) {
    discard_hand(p);
  } else {
    CardType card;
    uint8_t known, mark;
    while (h.count < config_->hand_size && draw_card(bit(p), card, known, mark))
      add_to_hand(p, card, known, mark);
  }
  had_turn_ |= bit(p);
  int next = (p + 1) % n;
  if (end_triggered_) {
    next = -1;
    for (int k = 1; k <= n && next < 0; ++k)
      if ((final_owed_ >> ((p + k) % n)) & 1) next = (p + k) % n;
    if (next < 0) return finish_game(false);
    final_owed_ &= static_cast<uint8_t>(~bit(next));
    in_final_turn_ = true;
  }
  if (turn_number_ >= config_->max_turns) return finish_game(true);  // ruling 13
  start_turn(next);
}

void State::start_turn(int p) {
  turn_player_ = static_cast<int8_t>(p);
  decider_ = static_cast<int8_t>(p);
  ++turn_number_;
  redraw_used_ = false;
  turn_start_ = true;
  phase_ = Phase::kTurn;
  for (Rocket& r : rockets_[p])  // Imaginary Friend protects "for one turn"
    if (r.friend_beside) {
      r.friend_beside = false;
      discard(kImaginaryFriend);
    }
}

void State::finish_game(bool truncated) {
  phase_ = Phase::kGameOver;
  truncated_ = truncated;
  decider_ = -1;
}

// ---------------------------------------------------------------------------------------------
// Card movement
// ---------------------------------------------------------------------------------------------

// The discard pile, draw pile and hands with their knowledge masks: rocket_squad_knowledge.cpp.

// Any effect that removes a box scares away the Joker on that rocket.
CardType State::remove_top_box(int p, int location, uint8_t& known_by, uint8_t& from_deck) {
  Rocket& r = rockets_[p][location];
  --r.num_boxes;
  known_by = r.box_known_by[r.num_boxes];
  from_deck = r.box_from_deck[r.num_boxes];
  r.box_known_by[r.num_boxes] = 0;
  r.box_from_deck[r.num_boxes] = 0;
  if (r.joker) {
    r.joker = false;
    discard(kJoker);
  }
  return r.boxes[r.num_boxes];
}

// ---------------------------------------------------------------------------------------------
// Outcome and hidden information
// ---------------------------------------------------------------------------------------------

void State::scores(int* out) const {
  for (int p = 0; p < num_players_; ++p) out[p] = score(p);
}

void State::returns(float* out) const {
  if (!is_terminal() || truncated_) {
    for (int p = 0; p < num_players_; ++p) out[p] = 0.0f;
    return;
  }
  double standing[kMaxPlayers], points[kMaxPlayers];
  for (int p = 0; p < num_players_; ++p) {
    points[p] = score(p);
    standing[p] = points[p] * 100.0 + tallest_rocket(p);  // tie-break: the tallest rocket
  }
  compute_returns(config_->reward, num_players_, standing, points, out);
}

}  // namespace rocketgym::rocket_squad
