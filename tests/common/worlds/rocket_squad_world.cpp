// Rocket Squad: the facts a seat observes about the cards (rulebook v1.4.7 and
// its rulings), for the resampled-world check (world_consistency.h).
//
//   - "If you ever deplete the draw pile, reshuffle the discards to form a new
//     deck": everybody saw the discards, so until the next reshuffle the draw
//     pile holds only cards of that new deck (and cards Jackie put back under it).
//     Jackie "look at the top 3 cards of the draw pile in secret": when the pile
//     runs out during her look, the cards she saw first are the old pile's, which
//     nobody else saw, so the two she puts under the new pile are, to the other
//     seats, any cards they cannot place (the count of such cards is the fact).
//   - Jackie "place the other 2 cards face-down underneath the draw pile": the
//     bottom positions hold the cards that seat looked at; it knows them (and
//     so does the viewer, when it is that seat) until they are drawn.
//   - Cards seen going into a hand stay with their possible holders: the card a
//     viewer loses to Jack is in the thief's hand; a card the viewer put under
//     the pile and sees drawn is in the drawer's hand; when Jack takes a card at
//     random from a hand that holds such a card, it is in the victim's or the
//     thief's hand; when a box is built face down from such a hand, it may be
//     that box. A fact ends when its card may have been seen played or
//     discarded (a box leaves the table face up), or at a redraw.
//   - The boxes the viewer built keep their faces: Dad, Uncle and Ace move
//     boxes face down, and a box leaves the table face up.
#include <array>
#include <string>
#include <vector>

#include "envs/core/game_model.h"
#include "games/rocket_squad/rocket_squad_game.h"
#include "tests/common/world_consistency.h"

namespace rocketgym::testing {
namespace {

using namespace rocket_squad;
using Cards = std::array<int, kNumCardTypes>;  // copies of each card type

const State& typed(const AnyState& s) { return dynamic_cast<const StateModel<Game>&>(s).state(); }
uint8_t bit(int seat) { return static_cast<uint8_t>(1u << seat); }
bool has(uint8_t mask, int seat) { return (mask >> seat) & 1; }

template <class Region>
void add_cards(const Region& region, Cards& out) {
  for (int i = 0; i < region.count; ++i) ++out[region.cards[static_cast<std::size_t>(i)]];
}

Cards discard_cards(const State& s) {
  Cards out{};
  add_cards(s.discard_pile(), out);
  return out;
}

Cards hand_cards(const State& s, int p) {
  Cards out{};
  add_cards(s.hand(p), out);
  return out;
}

std::string seats(uint8_t mask) {
  std::string out;
  for (int p = 0; p < kMaxPlayers; ++p)
    if (has(mask, p)) out += (out.empty() ? "" : " or ") + std::to_string(p);
  return out;
}

// Face-down boxes of a card on the table (on rockets, or passed by Ace).
int boxes_of(const State& s, CardType card) {
  int n = 0;
  for (int p = 0; p < s.num_players(); ++p)
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = s.rocket(p, loc);
      for (int i = 0; i < r.num_boxes; ++i) n += r.boxes[static_cast<std::size_t>(i)] == card;
    }
  for (int i = 0; i < s.ace().count; ++i) n += s.ace().boxes[static_cast<std::size_t>(i)] == card;
  return n;
}

// The card the acting player shows the table with action `a` (a booster, a
// Character or Item card, a block, an attached Crew), or kNoCard.
CardType shown_card(Action a) {
  using namespace action;
  if (a >= kPlaceBooster && a < kBuildBox) {
    const int index = (a - kPlaceBooster) / kNumLocations;
    return booster_card(index / kMaxValue, index % kMaxValue + 1);
  }
  if (a >= kPlayDad && a < kPlayJack) return kDad;
  if (a >= kPlayJack && a < kPlayUncle) return kJack;
  if (a >= kPlayUncle && a < kPlayJackie) return kUncle;
  if (a == kPlayJackie) return kJackie;
  if (a >= kPlayJoker && a < kAceDog) return kJoker;
  if (a >= kAceDog && a < kPlayFriend) return kAce;
  if (a >= kPlayFriend && a < kPlayDuctTape) return kImaginaryFriend;
  if (a >= kPlayDuctTape && a < kPlayBalloons) return kDuctTape;
  if (a >= kPlayBalloons && a < kNoBlock) return kWaterBalloons;
  if (a == kBlockMom) return kMom;
  if (a == kBlockGrandma) return kGrandma;
  if (a == kCrewAttach) return kCrew;
  return kNoCard;
}

// Did the discards become a new draw pile in this transition? The discard pile only grows
// otherwise, and the draw pile grows only by Jackie's cards put under it. (One transition may
// reshuffle and then discard as many cards again: a Duct Tape that empties the pile and
// completes a rocket.)
bool reshuffled(const State& b, const State& s) {
  const DiscardPile& was = b.discard_pile();
  const DiscardPile& now = s.discard_pile();
  if (now.count < was.count) return true;
  for (int i = 0; i < was.count; ++i)
    if (now.cards[static_cast<std::size_t>(i)] != was.cards[static_cast<std::size_t>(i)]) return true;
  return b.phase() != Phase::kJackieKeep && s.draw_pile().count > b.draw_pile().count;
}

bool is_block(Action a) { return a == action::kBlockMom || a == action::kBlockGrandma; }

// Jack's effect happens in this transition: sets the victim. The chain ends in
// the transition that plays Jack (nobody can block) or in the last reaction;
// the effect happens when the number of blocks is even.
bool jack_steals(const State& b, Action a, const State& s, int& victim) {
  using namespace action;
  if (s.chain().active) return false;
  Action jack = -1;
  int blocks = 0;
  if (b.phase() == Phase::kTurn && a >= kPlayJack && a < kPlayUncle) {
    jack = a;
  } else if (b.phase() == Phase::kReaction && b.chain().card == kJack) {
    jack = b.chain().action;
    blocks = b.chain().blocks + (is_block(a) ? 1 : 0);
  }
  if (jack < 0 || blocks % 2 != 0) return false;
  victim = b.seat(jack - kPlayJack + 1);
  const int blocked_now = is_block(a) && b.current_player() == victim ? 1 : 0;
  return b.hand(victim).count - blocked_now > 0;
}

constexpr const char* kJackieFact = "Jackie's cards stay underneath the draw pile, known to her player";

struct HandFact {  // one copy of `card` is in one of `hands` (or, since, built face down as a box)
  CardType card;
  uint8_t hands;
  bool or_boxes = false;
  bool operator==(const HandFact& o) const {
    return card == o.card && hands == o.hands && or_boxes == o.or_boxes;
  }
  bool operator!=(const HandFact& o) const { return !(*this == o); }
};

struct PileFact {  // the card at `position` (from the bottom) was put there by `seat` with Jackie
  int position;
  int seat;
  CardType card;  // the card, when the viewer is that seat; kNoCard otherwise
  bool operator==(const PileFact& o) const {
    return position == o.position && seat == o.seat && card == o.card;
  }
  bool operator!=(const PileFact& o) const { return !(*this == o); }
};

class RocketSquadObserver final : public WorldObserver {
 public:
  explicit RocketSquadObserver(int viewer) : viewer_(viewer) {}

  bool observe(const AnyState& before, Action a, const AnyState& after) override {
    const State& b = typed(before);
    const State& s = typed(after);
    const auto hands = in_hands_;
    const auto bottom = bottom_;
    const Cards deck = new_deck_, built = built_;
    const int unknown_under = unknown_under_;
    follow_hands(b, a, s);
    follow_pile(b, a, s);
    follow_boxes(b, a, s);
    return in_hands_ != hands || bottom_ != bottom || new_deck_ != deck || built_ != built ||
           unknown_under_ != unknown_under;
  }

  void check(const AnyState& world, std::vector<BrokenFact>& broken) const override {
    const State& w = typed(world);
    check_new_deck(w, broken);
    check_bottom(w, broken);
    check_hands(w, broken);
    for (int t = 0; t < kNumCardTypes; ++t) {
      const int there = boxes_of(w, static_cast<CardType>(t));
      if (there < built_[static_cast<std::size_t>(t)])
        broken.push_back({"the boxes the viewer built keep their faces",
                          "the viewer built " + std::to_string(built_[static_cast<std::size_t>(t)]) + " x " +
                              card_name(static_cast<CardType>(t)) +
                              " as boxes, not seen discarded since, but the world's boxes hold " +
                              std::to_string(there)});
    }
  }

 private:
  void follow_hands(const State& b, Action a, const State& s) {
    const int actor = b.current_player();
    int victim = -1;
    if (jack_steals(b, a, s, victim)) {
      // A card at random: a card known to be in the victim's hand may now be the thief's.
      const int thief = b.turn_player();
      for (HandFact& f : in_hands_)
        if (has(f.hands, victim)) f.hands |= bit(thief);
      if (victim == viewer_) {  // the viewer sees which of its cards the thief took
        Cards lost = hand_cards(b, viewer_);
        const Cards now = hand_cards(s, viewer_);
        if (is_block(a) && actor == viewer_) --lost[shown_card(a)];
        for (int t = 0; t < kNumCardTypes; ++t)
          for (int k = now[static_cast<std::size_t>(t)]; k < lost[static_cast<std::size_t>(t)]; ++k)
            in_hands_.push_back({static_cast<CardType>(t), bit(thief)});
      }
    }
    const CardType shown = shown_card(a);
    Cards discarded{};  // a final turn ends by discarding the hand face up
    if (a == action::kEndTurn && b.phase() == Phase::kTurn) {
      const Cards was = hand_cards(b, actor), now = hand_cards(s, actor);
      for (int t = 0; t < kNumCardTypes; ++t)
        discarded[static_cast<std::size_t>(t)] =
            std::max(0, was[static_cast<std::size_t>(t)] - now[static_cast<std::size_t>(t)]);
    }
    const bool redraw = b.phase() == Phase::kTurn && a == action::kRedraw;
    const bool box = b.phase() == Phase::kTurn && a >= action::kBuildBox && a < action::kKnockOver;
    // A box leaves the table face up, onto the discard pile (or with it into a new deck).
    const Cards discards_was = discard_cards(b), discards_now = discard_cards(s);
    const bool new_pile = reshuffled(b, s);
    std::vector<HandFact> kept;
    for (HandFact f : in_hands_) {
      const bool from_hand = has(f.hands, actor);
      if (from_hand && box) f.or_boxes = true;  // it may be the box just built
      const bool box_gone = f.or_boxes && (new_pile || discards_now[f.card] > discards_was[f.card]);
      const bool gone = (from_hand && (redraw || f.card == shown || discarded[f.card] > 0)) || box_gone;
      if (!gone) kept.push_back(f);
    }
    in_hands_ = kept;
  }

  void follow_boxes(const State& b, Action a, const State& s) {
    if (b.current_player() == viewer_ && b.phase() == Phase::kTurn && a >= action::kBuildBox &&
        a < action::kKnockOver)
      ++built_[static_cast<std::size_t>((a - action::kBuildBox) / kNumLocations)];
    if (reshuffled(b, s)) {  // what was discarded before the reshuffle is unseen here
      built_ = Cards{};
      return;
    }
    const Cards was = discard_cards(b), now = discard_cards(s);
    for (int t = 0; t < kNumCardTypes; ++t) {  // a box going face up may have been one of them
      int& n = built_[static_cast<std::size_t>(t)];
      n = std::max(0, n - (now[static_cast<std::size_t>(t)] - was[static_cast<std::size_t>(t)]));
    }
  }

  void follow_pile(const State& b, Action a, const State& s) {
    if (reshuffled(b, s)) {
      for (const PileFact& f : bottom_) drawn(f, b, a);
      bottom_.clear();
      new_deck(b, s);
      unknown_under_ = 0;
      look_spans_reshuffle_ = s.phase() == Phase::kJackieKeep;
      return;
    }
    const int under = b.phase() == Phase::kJackieKeep ? b.jackie().count - 1 : 0;
    std::vector<PileFact> kept;
    for (PileFact f : bottom_) {
      f.position += under;
      if (f.position < s.draw_pile().count)
        kept.push_back(f);
      else
        drawn(f, b, a);
    }
    for (int i = 0; i < under; ++i) {
      const CardType card = s.draw_pile().cards[static_cast<std::size_t>(i)];
      kept.push_back({i, b.turn_player(), b.turn_player() == viewer_ ? card : kNoCard});
      // From a look within the new deck, the card is one of it (counted already). From a look
      // across the reshuffle, it may be one of the old pile, which only the Jackie player saw.
      if (have_new_deck_ && b.turn_player() == viewer_)
        ++new_deck_[card];
      else if (have_new_deck_ && look_spans_reshuffle_)
        ++unknown_under_;
    }
    bottom_ = kept;
  }

  // The cards the turn player drew when the pile ran out may be of the new
  // deck: this over-counts the new deck (a correct fact, a little weaker).
  void new_deck(const State& b, const State& s) {
    const int p = b.turn_player();
    new_deck_ = Cards{};
    add_cards(s.draw_pile(), new_deck_);
    add_cards(s.discard_pile(), new_deck_);  // drawn, then discarded again (a launch)
    add_cards(s.hand(p), new_deck_);
    for (int i = 0; i < s.jackie().count; ++i) ++new_deck_[s.jackie().cards[static_cast<std::size_t>(i)]];
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = s.rocket(p, loc);
      for (int i = 0; i < r.num_boxes; ++i) ++new_deck_[r.boxes[static_cast<std::size_t>(i)]];  // Duct Tape
    }
    have_new_deck_ = true;
  }

  // A card the viewer put under the pile was drawn: drawn into the turn
  // player's hand at the end of a turn or by the first-turn redraw.
  void drawn(const PileFact& f, const State& b, Action a) {
    const bool into_hand = b.phase() == Phase::kTurn && (a == action::kEndTurn || a == action::kRedraw);
    if (f.seat == viewer_ && into_hand && b.turn_player() != viewer_)
      in_hands_.push_back({f.card, bit(b.turn_player())});
  }

  void check_new_deck(const State& w, std::vector<BrokenFact>& broken) const {
    if (!have_new_deck_) return;
    Cards pile{};
    add_cards(w.draw_pile(), pile);
    int extra = 0;  // cards beyond the new deck's: at most the unknown ones Jackie put under
    std::string first;
    for (int t = 0; t < kNumCardTypes; ++t) {
      const int over = pile[static_cast<std::size_t>(t)] - new_deck_[static_cast<std::size_t>(t)];
      if (over <= 0) continue;
      extra += over;
      if (first.empty())
        first = std::to_string(new_deck_[static_cast<std::size_t>(t)]) + " x " +
                card_name(static_cast<CardType>(t)) + ", but it holds " +
                std::to_string(pile[static_cast<std::size_t>(t)]);
    }
    if (extra > unknown_under_)
      broken.push_back({"the reshuffled discards form the new deck",
                        "the draw pile was last formed by reshuffling the discards, with " +
                            std::to_string(unknown_under_) +
                            " unknown cards put under it since (and the known ones), so at most " + first});
  }

  void check_bottom(const State& w, std::vector<BrokenFact>& broken) const {
    const DrawPile& pile = w.draw_pile();
    for (const PileFact& f : bottom_) {
      const std::string fact = "player " + std::to_string(f.seat) +
                               " put a card under the draw pile with Jackie (" + std::to_string(f.position) +
                               " from the bottom)";
      if (f.position >= pile.count) {
        broken.push_back(
            {kJackieFact, fact + ", but the pile has only " + std::to_string(pile.count) + " cards"});
      } else if (f.card != kNoCard && pile.cards[static_cast<std::size_t>(f.position)] != f.card) {
        broken.push_back({kJackieFact, fact + ": " + card_name(f.card) + ", but there is a " +
                                           card_name(pile.cards[static_cast<std::size_t>(f.position)])});
      } else if (!has(pile.known_by[static_cast<std::size_t>(f.position)], f.seat)) {
        // That seat looked at the card: in the world it must still know it there.
        broken.push_back(
            {kJackieFact,
             fact + ", but in the world that player does not know the card there (it left the bottom)"});
      }
    }
  }

  void check_hands(const State& w, std::vector<BrokenFact>& broken) const {
    for (const HandFact& f : in_hands_) {
      int needed = 0;  // facts about the same card confined to these places
      for (const HandFact& g : in_hands_)
        needed += g.card == f.card && (g.hands & ~f.hands) == 0 && (!g.or_boxes || f.or_boxes);
      int there = 0;
      for (int p = 0; p < w.num_players(); ++p)
        if (has(f.hands, p)) there += w.hand_count(p, f.card);
      if (f.or_boxes) there += boxes_of(w, f.card);
      if (there < needed)
        broken.push_back({f.or_boxes ? "a card seen going into a hand stays there or in a box built from it"
                                     : "cards seen going into a hand stay with their possible holders",
                          "the viewer saw " + std::to_string(needed) + " x " + card_name(f.card) +
                              " go into the hand of player " + seats(f.hands) +
                              " (still there, taken by Jack" + (f.or_boxes ? ", or built as a box" : "") +
                              " since), "
                              "but those hands hold " +
                              std::to_string(there)});
    }
  }

  int viewer_;
  bool have_new_deck_ = false;
  Cards new_deck_{};                   // the draw pile holds only these (see new_deck), and
  int unknown_under_ = 0;              // this many cards of the old pile Jackie put under it
  bool look_spans_reshuffle_ = false;  // the running Jackie look began in the old pile
  Cards built_{};                      // faces of the boxes the viewer built, not seen discarded since
  std::vector<PileFact> bottom_;
  std::vector<HandFact> in_hands_;
};

const bool registered =
    register_world_observer("rocket_squad", [](int viewer, int) -> std::unique_ptr<WorldObserver> {
      return std::make_unique<RocketSquadObserver>(viewer);
    });

}  // namespace
}  // namespace rocketgym::testing
