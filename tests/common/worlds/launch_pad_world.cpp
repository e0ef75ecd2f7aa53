// Launch Pad: the facts a seat observes about the hidden cards (rulebook and
// its rulings), for the resampled-world check (world_consistency.h).
// The hidden places are the hands and the draw pile (ruling 20); every
// decision is taken face up, only the cards Thief takes and the draws stay
// unseen.
//   - Cards seen going into a hand stay there until they may have left it: the
//     discard pile's top taken in step 3, Salvage, and what Sabotage, Vacuum,
//     Recruitment, Budget Cuts take, an offered card accepted (or back with the
//     giver). A card leaves a hand face up (played, discarded, offered), or
//     unseen to Thief: then any known card of that hand may be the one taken.
//   - Ruling 2: the Launch Pad cards are shuffled into the bottom half of the
//     draw pile; until the pile is shuffled again they lie there.
//   - Ruling 6: an empty draw pile is refilled by shuffling the discard pile,
//     which everybody saw: until the next refill the pile holds only those
//     cards, and the ones Recycle Bin shuffles in (ruling 16).
//   - Ruling 16: the cards Recycle Bin shuffles into the draw pile were face
//     up: until the next refill they are in the pile, or among the cards that
//     went into a hand unseen since (draws, Thief), or the viewer drew them or
//     saw them leave such a hand. A hand that took no unseen card since holds
//     none of them (issue 55: both Galactics recycled, a seat that drew
//     nothing since must not hold one in any world).
//   - A drawn Launch Pad card is placed at once: no hand holds one.
// Besides the random games from the start, the games from a registered
// position where Recycle Bin shuffles in both Galactics, the other hands
// holding cards drawn before.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "envs/core/game_model.h"
#include "envs/core/rng.h"
#include "games/launch_pad/launch_pad_game.h"
#include "tests/common/world_consistency.h"
#include "tests/launch_pad/launch_pad_position.h"

namespace rocketgym::testing {
namespace {

using namespace launch_pad;
using Cards = std::array<int, kNumCardTypes>;  // copies of each card type

const State& typed(const AnyState& s) { return dynamic_cast<const StateModel<Game>&>(s).state(); }

Cards hand_cards(const State& s, int seat) {
  Cards out{};
  for (int t = 0; t < kNumCardTypes; ++t)
    out[static_cast<std::size_t>(t)] = s.area(seat).hand[static_cast<std::size_t>(t)];
  return out;
}

Cards pile_cards(const State& s) {
  Cards out{};
  for (int i = 0; i < s.draw_pile_size(); ++i) ++out[static_cast<std::size_t>(s.draw_pile_card(i))];
  return out;
}

Cards discard_cards(const State& s) {
  Cards out{};
  for (int i = 0; i < s.discard_pile_size(); ++i) ++out[static_cast<std::size_t>(s.discard_pile_card(i))];
  return out;
}

// The card a decision of the acting player takes out of its own hand, face up; -1 if none.
int card_from_hand(Action a) {
  if (a >= act::kPlayRocket && a < act::kPlayMetal) return kObserver + (a - act::kPlayRocket);
  if (a >= act::kPlayMetal && a < act::kPlayFuel) return kMetal;
  if (a >= act::kPlayFuel && a < act::kPlayExpert) return kFuel;
  if (a >= act::kPlayExpert && a < act::kPlayBonus)
    return a - act::kPlayExpert < 3 ? kEngineer + (a - act::kPlayExpert) : kJackOfAllTrades;
  if (a >= act::kPlayBonus && a < act::kPlaySpecialty)
    return kAstronaut + (a - act::kPlayBonus) / kMaxRocketSlots;
  if (a >= act::kPlaySpecialty && a < act::kAbortMission)
    return kEmployeeContract + (a - act::kPlaySpecialty);
  // The action cards, in the same order as their id ranges.
  const std::array<int, 14> starts{
      act::kAbortMission, act::kBigRedButton, act::kBudgetCuts, act::kFastTrack, act::kPartsSupplier,
      act::kQualityCheck, act::kRecruitment,  act::kRecycleBin, act::kSabotage,  act::kSalvage,
      act::kSurplus,      act::kThief,        act::kVacuum,     act::kOfferCard};
  for (std::size_t i = 0; i + 1 < starts.size(); ++i)
    if (a >= starts[i] && a < starts[i + 1]) return kAbortMission + static_cast<int>(i);
  if (a >= act::kOfferCard && a < act::kAcceptOffer) return (a - act::kOfferCard) % kNumCardTypes;
  if (a >= act::kDiscard && a < act::kEndTurn) return a - act::kDiscard;
  if (a >= act::kSurplusDiscard && a < act::kPutOnTop) return a - act::kSurplusDiscard;
  return -1;
}

class LaunchPadObserver final : public WorldObserver {
 public:
  LaunchPadObserver(int viewer, int players)
      : viewer_(viewer),
        known_(static_cast<std::size_t>(players)),
        unseen_in_(static_cast<std::size_t>(players)) {}

  void begin(const AnyState& first, bool new_game) override {
    if (new_game) start(typed(first));  // ruling 2 holds from the deal, not from a position's unseen past
  }

  bool observe(const AnyState& before, Action a, const AnyState& after) override {
    const State& b = typed(before);
    const State& s = typed(after);
    const auto known = known_;
    const int pads_below = pads_below_;
    const Cards refill = refill_;
    const Cards recycled = recycled_, accounted = accounted_;
    const auto unseen_in = unseen_in_;
    follow_recycled(b, a, s);
    follow_hands(b, a, s);
    follow_pile(b, a, s);
    return known_ != known || pads_below_ != pads_below || refill_ != refill || recycled_ != recycled ||
           accounted_ != accounted || unseen_in_ != unseen_in;
  }

  void check(const AnyState& world, std::vector<BrokenFact>& broken) const override {
    const State& w = typed(world);
    for (int seat = 0; seat < w.num_players(); ++seat) {
      for (int t = 0; t < kNumCardTypes; ++t) {
        const int known = known_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(t)];
        const int held = w.area(seat).hand[static_cast<std::size_t>(t)];
        if (held < known)
          broken.push_back({"cards seen going into a hand stay there until they may have left",
                            "the viewer saw " + std::to_string(known) + " " + card_key(t) +
                                " go into the hand of player " + std::to_string(seat) +
                                " and not leave it, but the world's hand holds " + std::to_string(held)});
      }
      if (w.area(seat).hand[kLaunchPad] > 0)
        broken.push_back(
            {"a drawn Launch Pad card is placed at once", "player " + std::to_string(seat) + " holds one"});
    }
    if (pads_below_ > 0)
      for (int i = pads_below_; i < w.draw_pile_size(); ++i)
        if (w.draw_pile_card(i) == kLaunchPad)
          broken.push_back({"the Launch Pad cards lie in the bottom half of the draw pile (ruling 2)",
                            "shuffled into the bottom " + std::to_string(pads_below_) +
                                " cards of the draw pile (ruling 2), but one lies at position " +
                                std::to_string(i) + " from the bottom"});
    if (recycling_) {
      const Cards pile = pile_cards(w);
      for (int t = 0; t < kNumCardTypes; ++t) {
        const auto i = static_cast<std::size_t>(t);
        int room = pile[i];  // where the recycled copies may be: the pile, hands that took unseen cards
        for (int seat = 0; seat < w.num_players(); ++seat)
          if (seat != viewer_)
            room +=
                std::min(static_cast<int>(w.area(seat).hand[i]), unseen_in_[static_cast<std::size_t>(seat)]);
        const int still = recycled_[i] - accounted_[i];
        if (room < still)
          broken.push_back(
              {"the cards Recycle Bin shuffled in are in the draw pile or went into a hand unseen "
               "since (ruling 16)",
               std::to_string(recycled_[i]) + " " + card_key(t) + " were shuffled in face up and " +
                   std::to_string(still) +
                   " cannot have left, but the world's pile and the hands that took unseen "
                   "cards since hold " +
                   std::to_string(room)});
      }
    }
    if (refilled_) {
      const Cards pile = pile_cards(w);
      for (int t = 0; t < kNumCardTypes; ++t)
        if (pile[static_cast<std::size_t>(t)] > refill_[static_cast<std::size_t>(t)])
          broken.push_back({"a refilled draw pile holds only the discards shuffled into it (ruling 6)",
                            "the draw pile was last refilled from the discard pile, with at most " +
                                std::to_string(refill_[static_cast<std::size_t>(t)]) + " " + card_key(t) +
                                " (and the cards shuffled in since), but it holds " +
                                std::to_string(pile[static_cast<std::size_t>(t)])});
    }
  }

 private:
  // Ruling 2, from the config and the player count: the Launch Pad cards lie in
  // the bottom half of what was left after the deal, plus themselves.
  void start(const State& b) {
    started_ = true;
    const Config& c = b.config();
    if (c.long_game) return;
    const int dealt = c.hand_limit * b.num_players();
    pads_below_ = (c.total_cards() - c.count[kLaunchPad] - dealt) / 2 + c.count[kLaunchPad];
  }

  // Ruling 16's cards (see the file's comment): which hands took cards unseen
  // since (each copy counted where it may be: more is weaker, never wrong),
  // and the recycled copies the viewer drew or saw leave such a hand.
  void follow_recycled(const State& b, Action a, const State& s) {
    if (!recycling_) return;
    const int actor = b.current_player();
    const bool drew =
        s.draw_pile_size() - s.launch_pads_in_draw_pile() < b.draw_pile_size() - b.launch_pads_in_draw_pile();
    const int played = card_from_hand(a);
    bool from_unseen = false;  // a hand that took unseen cards lost cards to Thief
    for (int seat = 0; seat < s.num_players(); ++seat) {
      // The cards that left the hand this move (face up, or to Thief), counted generously.
      const Cards was = hand_cards(b, seat), now = hand_cards(s, seat);
      Cards out{};
      int left = 0;
      for (int t = 0; t < kNumCardTypes; ++t) {
        const auto i = static_cast<std::size_t>(t);
        out[i] = std::max(0, was[i] - now[i]) + (seat == actor && t == played ? 1 : 0);
        left += out[i];
      }
      const int took = std::max(0, s.area(seat).hand_size - b.area(seat).hand_size + left);
      const bool was_unseen = unseen_in_[static_cast<std::size_t>(seat)] > 0;
      if (seat == viewer_) {
        // Its own draws: it saw them (and which were recycled ones it cannot tell: any may be).
        if (drew)
          for (int t = 0; t < kNumCardTypes; ++t) {
            const auto i = static_cast<std::size_t>(t);
            accounted_[i] += std::max(0, now[i] - was[i] + out[i]);
          }
        continue;
      }
      if (was_unseen) {
        if (seat == actor)
          for (int t = 0; t < kNumCardTypes; ++t)
            accounted_[static_cast<std::size_t>(t)] += out[static_cast<std::size_t>(t)];
        else if (s.area(seat).hand_size < b.area(seat).hand_size)
          from_unseen = true;
      }
      if (drew && took > 0) unseen_in_[static_cast<std::size_t>(seat)] += took;
    }
    // Thief: what it took from such a hand may be recycled; the viewer as the thief sees what it got.
    if (from_unseen && actor >= 0) {
      const Cards was = hand_cards(b, actor), now = hand_cards(s, actor);
      int gained = 0;
      for (int t = 0; t < kNumCardTypes; ++t) {
        const auto i = static_cast<std::size_t>(t);
        const int more = std::max(0, now[i] - was[i]) + (t == played ? 1 : 0);
        gained += more;
        if (actor == viewer_) accounted_[i] += more;
      }
      if (actor != viewer_) unseen_in_[static_cast<std::size_t>(actor)] += gained;
    }
  }

  void follow_hands(const State& b, Action a, const State& s) {
    const int actor = b.current_player();
    const Cards was_actor = hand_cards(b, actor), now_actor = hand_cards(s, actor);
    // Face up out of the acting player's hand: the card of the decision, and
    // any other copies the hand lost (a hand discarded by an effect).
    Cards& mine = known_[static_cast<std::size_t>(actor)];
    const int played = card_from_hand(a);
    for (int t = 0; t < kNumCardTypes; ++t) {
      int out = std::max(0, was_actor[static_cast<std::size_t>(t)] - now_actor[static_cast<std::size_t>(t)]);
      if (t == played) out = std::max(out, 1);
      mine[static_cast<std::size_t>(t)] = std::max(0, mine[static_cast<std::size_t>(t)] - out);
    }
    // Unseen out of another hand (Thief): any known card of it may be gone.
    for (int seat = 0; seat < s.num_players(); ++seat) {
      if (seat == actor) continue;
      const int lost = std::max(0, b.area(seat).hand_size - s.area(seat).hand_size);
      for (int& k : known_[static_cast<std::size_t>(seat)]) k = std::max(0, k - lost);
    }
    seen_going_in(b, a, s, actor);
  }

  // Cards everybody sees going into a hand.
  void seen_going_in(const State& b, Action a, const State& s, int actor) {
    const auto gain = [&](int seat, int card) {
      ++known_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(card)];
    };
    const auto gained = [&](int seat, int t) {
      return std::max(
          0, s.area(seat).hand[static_cast<std::size_t>(t)] - b.area(seat).hand[static_cast<std::size_t>(t)]);
    };
    if (a == act::kTakeDiscardTop && b.discard_top() >= 0) gain(actor, b.discard_top());
    if (a >= act::kSalvage && a < act::kSurplus) gain(actor, a - act::kSalvage);
    if (a == act::kAcceptOffer) gain(actor, b.offer_card());
    if (a == act::kRejectOffer) gain(b.turn_player(), b.offer_card());
    // Taken from the table: what the actor's hand gained of the kind the card takes.
    const auto taken = [&](bool (*kind)(int)) {
      for (int t = 0; t < kNumCardTypes; ++t)
        if (kind(t))
          for (int k = 0; k < gained(actor, t); ++k) gain(actor, t);
    };
    if (a >= act::kSabotage && a < act::kSalvage) taken([](int t) { return t == kMetal || t == kFuel; });
    if (a >= act::kVacuum && a < act::kOfferCard) taken([](int t) { return t == kOxygen; });
    if (a >= act::kRecruitment && a < act::kRecycleBin) taken(is_expert);
    if (a >= act::kBudgetCuts && a < act::kFastTrack) taken(is_specialty);
  }

  void follow_pile(const State& b, Action a, const State& s) {
    const bool recycle = a == act::kRecycleBin;
    if (recycle) {
      pads_below_ = 0;  // the whole draw pile is shuffled
      // The ten cards from the top of the discard pile join the pile.
      const int moved = std::min(10, b.discard_pile_size());
      recycling_ = true;
      for (int i = b.discard_pile_size() - moved; i < b.discard_pile_size(); ++i) {
        ++refill_[static_cast<std::size_t>(b.discard_pile_card(i))];
        ++recycled_[static_cast<std::size_t>(b.discard_pile_card(i))];
      }
      return;
    }
    // Step 3 and Salvage take one card off the discard pile; a refill takes the rest.
    const int taken = a == act::kTakeDiscardTop || (a >= act::kSalvage && a < act::kSurplus) ? 1 : 0;
    const Cards was = discard_cards(b), now = discard_cards(s);
    int left = 0;
    for (int t = 0; t < kNumCardTypes; ++t)
      left += std::max(0, was[static_cast<std::size_t>(t)] - now[static_cast<std::size_t>(t)]);
    if (left <= taken) return;
    pads_below_ = 0;
    refilled_ = true;
    // The recycled cards were all drawn from the old pile: the new one is the discards (ruling 6).
    recycling_ = false;
    recycled_ = {};
    accounted_ = {};
    std::fill(unseen_in_.begin(), unseen_in_.end(), 0);
    // What is left of the new pile, plus what the turn's draws took from it
    // (a little more than the refill: a correct, weaker fact).
    refill_ = pile_cards(s);
    const Cards hand = hand_cards(s, b.turn_player());
    for (int t = 0; t < kNumCardTypes; ++t)
      refill_[static_cast<std::size_t>(t)] += hand[static_cast<std::size_t>(t)];
  }

  int viewer_;
  bool started_ = false;
  std::vector<Cards> known_;  // [seat]: copies the viewer saw go into that hand and not leave
  int pads_below_ = 0;        // the Launch Pad cards lie below this draw pile position (0: unknown)
  bool refilled_ = false;
  Cards refill_{};  // after a refill: the draw pile holds at most these
  // Ruling 16, since the first Recycle Bin after the last refill: the cards
  // shuffled in, those of them the viewer drew or saw leave a hand that took
  // unseen cards, and per seat how many cards went into its hand unseen.
  bool recycling_ = false;
  Cards recycled_{}, accounted_{};
  std::vector<int> unseen_in_;
};

// Seat 0 plays Recycle Bin: the top ten discards hold both Galactics; the other
// hands hold cards drawn before (their places unseen by the others). Seat 1's
// worlds must not give seat 2 a Galactic before seat 2 draws again.
std::string recycle_bin_position(const AnyGame& game, uint64_t seed) {
  const auto any = game.new_state(3, seed);
  const Config& config = typed(*any).config();  // the game's, which the state points to
  Json doc = launch_pad_test::complete_document(config, 3, R"({"turn": 0, "step": "play",
      "hands": [{"recycle_bin": 1, "engineer": 1, "metal": 2, "fuel": 1},
                {"fuel": 2, "oxygen": 1, "metal": 2, "thief": 1},
                {"fuel": 1, "explorer": 1, "astronaut": 1, "metal": 1, "inspector": 1, "salvage": 1}],
      "discard_pile": ["observer", "metal", "fuel", "galactic", "oxygen", "fuel", "galactic", "metal",
                       "intrepid", "fuel", "astronaut"]})");
  // The pile's order and the chance to come differ from playout to playout.
  Rng rng(seed);
  Json& pile = doc["draw_pile"];
  const int pads = doc["launch_pad_region"].get<int>();  // the Launch Pad cards lie at the bottom
  for (int i = static_cast<int>(pile.size()) - 1; i > pads; --i)
    std::swap(pile[static_cast<std::size_t>(i)],
              pile[static_cast<std::size_t>(
                  pads + static_cast<int>(rng.below(static_cast<uint32_t>(i - pads + 1))))]);
  doc["rng"] = rng_to_json(Rng(rng.next()));
  return doc.dump();
}

std::vector<WorldPosition> positions() {
  return {{"Recycle Bin shuffles in both Galactics", 3, recycle_bin_position, {act::kRecycleBin}}};
}

const bool positions_registered = register_world_positions("launch_pad", positions);

const bool registered =
    register_world_observer("launch_pad", [](int viewer, int players) -> std::unique_ptr<WorldObserver> {
      return std::make_unique<LaunchPadObserver>(viewer, players);
    });

}  // namespace
}  // namespace rocketgym::testing
