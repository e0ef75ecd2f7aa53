// The knowledge model: what each seat knows about where the hidden cards
// are, and redeterminize keeping it (issue 14, item 7).
#include <functional>
#include <set>

#include "tests/lift_off/lift_off_test_util.h"

using namespace lift_off_test;

namespace {

constexpr int kResamples = 200;

// Plays the objective draft (each keeps and passes its first card) and picks the direction.
State at_specialist_draft(int players, uint64_t seed, Action direction) {
  State s(cfg(), players, seed);
  while (s.step() == Step::kObjectiveKeep)
    act(s, A::kKeepObjective + s.player(s.current_player()).objectives[0]);
  while (s.step() == Step::kObjectivePass)
    act(s, A::kPassObjective + s.player(s.current_player()).objectives[0]);
  act(s, direction);
  return s;
}

State resampled(const State& s, int viewer, uint64_t seed) {
  State t = s;
  Rng rng(seed);
  t.redeterminize(viewer, rng);
  t.check_invariants();
  return t;
}

bool holds(const std::array<uint8_t, 3>& cards, int count, int card) {
  return std::count(cards.begin(), cards.begin() + count, card) > 0;
}
bool holds_specialist(const State& s, int seat, int card) {
  return holds(s.player(seat).hand, s.player(seat).hand_size, card);
}
bool holds_objective(const State& s, int seat, int card) {
  return holds(s.player(seat).objectives, s.player(seat).num_objectives, card);
}
bool in_deck(const State& s, int card) {
  const Json deck = s.to_json()["specialist_deck"];
  return std::find(deck.begin(), deck.end(), cfg().specialists[static_cast<std::size_t>(card)].id) !=
         deck.end();
}

// Player 0 keeps one specialist and passes two to the next player in the
// draft direction; everyone's second pick passes their first card.
void check_specialist_draft(int players, Action direction) {
  INFO(players << " players, passing " << (direction == A::kDraftLeft ? "left" : "right"));
  State s = at_specialist_draft(players, 40 + static_cast<uint64_t>(players), direction);
  const int dir = direction == A::kDraftLeft ? 1 : -1;
  const int receiver = (dir + players) % players, after = (2 * dir + 2 * players) % players;
  const auto dealt = s.player(0).hand;
  for (int p = 0; p < players; ++p) act(s, A::kKeepSpecialist + s.player(s.current_player()).hand[0]);
  const int a = dealt[1], b = dealt[2];
  REQUIRE(holds_specialist(s, receiver, a));
  REQUIRE(holds_specialist(s, receiver, b));
  bool moved = false;
  for (uint64_t seed = 0; seed < kResamples; ++seed) {
    const State t = resampled(s, 0, seed);
    REQUIRE(holds_specialist(t, receiver, a));  // the two cards player 0 passed
    REQUIRE(holds_specialist(t, receiver, b));
    REQUIRE(t.player(0).hand == s.player(0).hand);
    moved = moved || t.player(after).hand != s.player(after).hand;  // cards player 0 never saw
  }
  CHECK(moved);
  // Second pick: player 0 passes the card it kept; the receiver may pass a or b on.
  const int c = s.player(0).hand[0];
  for (int p = 0; p < players; ++p) act(s, A::kPassSpecialist + s.player(s.current_player()).hand[0]);
  REQUIRE(holds_specialist(s, receiver, c));
  CHECK(s.specialist_may_be(0, c) == 1u << receiver);
  CHECK(s.specialist_may_be(0, a) == ((1u << receiver) | (1u << after)));
  int in_the_deck = 0;
  std::array<int, 4> went_on{};  // neither, a, b, both went on to the next hand
  moved = false;
  for (uint64_t seed = 0; seed < kResamples; ++seed) {
    const State t = resampled(s, 0, seed);
    REQUIRE(holds_specialist(t, receiver, c));
    for (int x : {a, b}) {
      CHECK((holds_specialist(t, receiver, x) || holds_specialist(t, after, x)));
      in_the_deck += in_deck(t, x);
    }
    ++went_on[static_cast<std::size_t>(holds_specialist(t, after, a) + 2 * holds_specialist(t, after, b))];
    moved = moved || t.player(receiver).hand != s.player(receiver).hand;
  }
  CHECK(in_the_deck == 0);  // before the knowledge model: 188 of 200 resamples in one 3-player draft
  // The receiver passed one card on: never both of player 0's, and each possibility is sampled.
  CHECK(went_on[3] == 0);
  CHECK(went_on[0] > 0);
  CHECK(went_on[1] > 0);
  CHECK(went_on[2] > 0);
  CHECK(moved);
}

}  // namespace

TEST_CASE("knowledge: 3 and 4 players, the specialists a seat passed stay where it knows them to be",
          "[lift_off][knowledge]") {
  for (int players = 3; players <= 4; ++players) {
    check_specialist_draft(players, A::kDraftLeft);
    check_specialist_draft(players, A::kDraftRight);
  }
}

TEST_CASE("knowledge: 2 players, a seat sees what comes back and knows the rest stayed",
          "[lift_off][knowledge]") {
  State s = at_specialist_draft(2, 4, A::kDraftLeft);
  for (int p = 0; p < 2; ++p) act(s, A::kKeepSpecialist + s.player(p).hand[0]);
  for (int p = 0; p < 2; ++p) act(s, A::kPassSpecialist + s.player(p).hand[0]);
  const uint64_t known = s.known_specialists(0, 1);
  REQUIRE(__builtin_popcountll(known) >= 2);  // the card passed back, and one of the two that stayed
  for (uint64_t seed = 0; seed < kResamples; ++seed) {
    const State t = resampled(s, 0, seed);
    for (int card = 0; card < kMaxSpecialists; ++card)
      if (known >> card & 1) REQUIRE(holds_specialist(t, 1, card));
  }
}

TEST_CASE("knowledge: 3 players, passed objectives stay in hands, never back in the box",
          "[lift_off][knowledge]") {
  State s(cfg(), 3, 21);
  const auto dealt = s.player(0).objectives;
  for (int p = 0; p < 3; ++p) act(s, A::kKeepObjective + s.player(p).objectives[0]);
  const int kept = s.player(0).objectives[0];
  for (int p = 0; p < 3; ++p) act(s, A::kPassObjective + s.player(p).objectives[0]);
  REQUIRE(holds_objective(s, 1, kept));
  int in_box = 0;
  bool moved = false;
  for (uint64_t seed = 0; seed < kResamples; ++seed) {
    const State t = resampled(s, 0, seed);
    REQUIRE(holds_objective(t, 1, kept));  // passed at the second pick: still there
    for (int x : {dealt[1], dealt[2]}) {
      CHECK((holds_objective(t, 1, x) || holds_objective(t, 2, x)));
      in_box += !holds_objective(t, 1, x) && !holds_objective(t, 2, x);
    }
    moved = moved || t.player(2).objectives != s.player(2).objectives;
  }
  CHECK(in_box == 0);
  CHECK(moved);
}

namespace {
State play_until(int players, uint64_t seed, const std::function<bool(const State&)>& done) {
  State s(cfg(), players, seed);
  Rng rng(seed);
  while (!done(s)) {
    REQUIRE(!s.is_terminal());
    s.apply(heuristic_action(s, rng));
  }
  return s;
}
}  // namespace

TEST_CASE("knowledge: after the phase-2 reshuffle everyone knows what the deck holds, until the draws",
          "[lift_off][knowledge]") {
  for (int players = 2; players <= 4; ++players) {
    State s = play_until(players, 5, [](const State& x) { return x.step() == Step::kDiscardObjectives; });
    const Json deck = s.to_json()["specialist_deck"];
    const std::multiset<std::string> reshuffled(deck.begin(), deck.end());
    for (int viewer = 0; viewer < players; ++viewer) {
      CardPlaces known;
      s.known_card_places(viewer, known);
      CHECK(std::count_if(known.begin(), known.end(), [](const CardPlace& c) {
              return c.place == place::kSpecialistDeck;
            }) == static_cast<int>(reshuffled.size()));
      for (uint64_t seed = 0; seed < 20; ++seed) {
        const Json d = resampled(s, viewer, seed).to_json()["specialist_deck"];
        CHECK(std::multiset<std::string>(d.begin(), d.end()) == reshuffled);
      }
    }
    // After the round-5 draws, the deck holds only reshuffled cards: a card
    // carried over in an opponent's hand is never dealt into it.
    s = play_until(players, 5,
                   [](const State& x) { return x.round() == 5 && x.step() == Step::kChooseDirection; });
    for (uint64_t seed = 0; seed < 50; ++seed) {
      const Json d = resampled(s, 0, seed).to_json()["specialist_deck"];
      for (const auto& id : d) CHECK(reshuffled.count(id.get<std::string>()) == 1);
    }
  }
}

TEST_CASE("view and text: a seat's own discarded objectives by name, the others' as a count",
          "[lift_off][knowledge][view]") {
  State s = play_until(3, 5, [](const State& x) { return x.step() == Step::kDiscardObjectives; });
  const int w = s.current_player(), other = (w + 1) % 3;
  const int card = s.player(w).objectives[0];
  const ObjectiveCard& o = cfg().objectives[static_cast<std::size_t>(card)];
  act(s, A::kDiscardObjective + card);
  REQUIRE(s.player(w).num_discarded_objectives == 1);
  const Json mine = s.view_json(w)["players"][static_cast<std::size_t>(w)];
  CHECK(mine["objectives_discarded"] == 1);
  CHECK(mine["discarded_objectives"] == Json::array({{{"id", o.id}, {"name", o.name}}}));
  CHECK(s.observation_string(w).find("(discarded: " + o.id + ")") != std::string::npos);
  // Another seat (and the full board's text, for the record) as before: only how many.
  const Json theirs = s.view_json(other)["players"][static_cast<std::size_t>(w)];
  CHECK(theirs["objectives_discarded"] == 1);
  CHECK_FALSE(theirs.contains("discarded_objectives"));
  const std::string text = s.observation_string(other);
  CHECK(text.find("(1 discarded)") != std::string::npos);
  CHECK(text.find("(discarded:") == std::string::npos);
  CHECK(s.view_json(-1)["players"][static_cast<std::size_t>(w)].contains("discarded_objectives"));
}

TEST_CASE("knowledge: the public counts tell what is left; with 2 players round 4 shows the other hand",
          "[lift_off][knowledge]") {
  // Round 4: the deck is empty and every other specialist has been played,
  // so the three cards not in player 0's hand are player 1's.
  State s =
      play_until(2, 9, [](const State& x) { return x.round() == 4 && x.step() == Step::kChooseDirection; });
  uint64_t hand1 = 0;
  for (int i = 0; i < s.player(1).hand_size; ++i)
    hand1 |= uint64_t{1} << s.player(1).hand[static_cast<std::size_t>(i)];
  CHECK(s.known_specialists(0, 1) == hand1);
  CHECK(resampled(s, 0, 3).player(1).hand == s.player(1).hand);
}

TEST_CASE("knowledge: at every decision each seat's knowledge is true and survives its own resample",
          "[lift_off][knowledge]") {
  for (int players = 2; players <= 4; ++players) {
    State s(cfg(), players, 60 + static_cast<uint64_t>(players));
    Rng rng(7);
    for (int move = 0; !s.is_terminal(); ++move) {
      if (move % 5 == 0) {
        CardPlaces truth;
        s.card_places(truth);
        for (int v = 0; v < players; ++v) {
          CardPlaces known, after, after_truth;
          s.known_card_places(v, known);
          CHECK(first_unsupported(known, truth) == nullptr);
          const State t = resampled(s, v, rng.next());
          t.known_card_places(v, after);
          t.card_places(after_truth);
          std::sort(after.begin(), after.end());
          CHECK(after == known);
          CHECK(first_unsupported(known, after_truth) == nullptr);
          CHECK(t.observation_string(v) == s.observation_string(v));
        }
      }
      s.apply(heuristic_action(s, rng));
    }
    // At the end every hand is shown.
    CardPlaces known, truth;
    s.known_card_places(1, known);
    s.card_places(truth);
    for (const CardPlace& c : truth)
      if (c.place < place::kSpecialistPlayed ||
          (c.place >= place::kObjectiveHand && c.place < place::kObjectiveDiscarded))
        CHECK(std::count(known.begin(), known.end(), c) == 1);
  }
}

TEST_CASE("knowledge: an opponent's hidden hand prints the known cards in card order, not by slot",
          "[lift_off][knowledge]") {
  State s = at_specialist_draft(3, 12, A::kDraftLeft);
  const auto dealt = s.player(0).hand;
  for (int p = 0; p < 3; ++p) act(s, A::kKeepSpecialist + s.player(s.current_player()).hand[0]);
  const int lo = std::min(dealt[1], dealt[2]), hi = std::max(dealt[1], dealt[2]);
  const std::string text = s.observation_string(0);
  const std::string line = "hand: " + cfg().specialists[static_cast<std::size_t>(lo)].id + " " +
                           cfg().specialists[static_cast<std::size_t>(hi)].id + " ??";
  CHECK(text.find(line) != std::string::npos);
}

TEST_CASE("knowledge: a link resolves when its card shows up: the other card stayed",
          "[lift_off][knowledge]") {
  for (int players = 3; players <= 4; ++players) {
    State s = at_specialist_draft(players, 70 + static_cast<uint64_t>(players), A::kDraftLeft);
    const auto dealt = s.player(0).hand;
    const int a = dealt[1], b = dealt[2], receiver = 1, after = 2;
    for (int p = 0; p < players; ++p) act(s, A::kKeepSpecialist + s.player(s.current_player()).hand[0]);
    // The receiver holds [its card, a, b] and passes a on; the others pass their first card.
    for (int p = 0; p < players; ++p) {
      const int seat = s.current_player();
      act(s, A::kPassSpecialist + (seat == receiver ? a : s.player(seat).hand[0]));
    }
    REQUIRE(holds_specialist(s, after, a));
    REQUIRE(s.specialist_links(0)[0].cards == ((uint64_t{1} << a) | (uint64_t{1} << b)));
    CHECK(s.specialist_may_be(0, b) == ((1u << receiver) | (1u << after)));
    // Play until the next hand plays a: then b is known to be with the receiver.
    while (s.step() == Step::kPlaySpecialist || s.step() == Step::kSpecialistActions) {
      const int seat = s.current_player();
      if (s.step() == Step::kSpecialistActions) {
        act(s, A::kEndSpecialist);
        continue;
      }
      const Player& p = s.player(seat);
      int card = p.hand[0] == b ? p.hand[1] : p.hand[0];
      if (seat == after) card = a;
      act(s, A::kPlaySpecialist + card);
      if (seat == after) break;
    }
    CHECK(s.specialist_may_be(0, b) == 1u << receiver);
    for (uint64_t seed = 0; seed < 50; ++seed) CHECK(holds_specialist(resampled(s, 0, seed), receiver, b));
  }
}

TEST_CASE(
    "knowledge: a hand that draws keeps only its carried card of the cards that cannot come from the deck",
    "[lift_off][knowledge]") {
  State s = at_specialist_draft(3, 90, A::kDraftLeft);
  const auto dealt = s.player(0).hand;
  const int a = dealt[1], b = dealt[2];
  for (int p = 0; p < 3; ++p) act(s, A::kKeepSpecialist + s.player(s.current_player()).hand[0]);
  // Player 1 holds [its card, a, b] and passes a to player 2, keeping b.
  for (int p = 0; p < 3; ++p) {
    const int seat = s.current_player();
    act(s, A::kPassSpecialist + (seat == 1 ? a : s.player(seat).hand[0]));
  }
  // Players 1 and 2 play their other cards and carry b and a into round 2.
  Rng rng(5);
  while (!(s.round() == 2 && s.step() == Step::kChooseDirection)) {
    const int seat = s.current_player();
    if (s.step() == Step::kPlaySpecialist) {
      const Player& p = s.player(seat);
      int card = p.hand[0];
      for (int i = 0; i < p.hand_size; ++i)
        if (p.hand[static_cast<std::size_t>(i)] != a && p.hand[static_cast<std::size_t>(i)] != b)
          card = p.hand[static_cast<std::size_t>(i)];
      act(s, A::kPlaySpecialist + card);
    } else {
      act(s, heuristic_action(s, rng));
    }
  }
  REQUIRE(holds_specialist(s, 1, b));
  REQUIRE(holds_specialist(s, 2, a));
  // Each of players 1 and 2 drew two cards and kept one: a and b are in
  // different hands in every world player 0 thinks possible.
  for (uint64_t seed = 0; seed < kResamples; ++seed) {
    const State t = resampled(s, 0, seed);
    const bool a1 = holds_specialist(t, 1, a), b1 = holds_specialist(t, 1, b);
    REQUIRE((a1 || holds_specialist(t, 2, a)));
    REQUIRE((b1 || holds_specialist(t, 2, b)));
    CHECK(a1 != b1);
  }
}

TEST_CASE("knowledge: 4 players, two cards passed along stay in two different hands after the next pass",
          "[lift_off][knowledge]") {
  // Player 0 passes a and b to player 1, who passes a on to player 2; both
  // carry them into round 2 (each carries one card).
  State s = at_specialist_draft(4, 31, A::kDraftLeft);
  const auto dealt = s.player(0).hand;
  const int a = dealt[1], b = dealt[2];
  for (int p = 0; p < 4; ++p) act(s, A::kKeepSpecialist + s.player(s.current_player()).hand[0]);
  for (int p = 0; p < 4; ++p) {
    const int seat = s.current_player();
    act(s, A::kPassSpecialist + (seat == 1 ? a : s.player(seat).hand[0]));
  }
  Rng rng(8);
  while (!(s.round() == 2 && s.step() == Step::kChooseDirection)) {
    if (s.step() == Step::kPlaySpecialist) {
      const Player& p = s.player(s.current_player());
      int card = p.hand[0];
      for (int i = 0; i < p.hand_size; ++i)
        if (p.hand[static_cast<std::size_t>(i)] != a && p.hand[static_cast<std::size_t>(i)] != b)
          card = p.hand[static_cast<std::size_t>(i)];
      act(s, A::kPlaySpecialist + card);
    } else {
      act(s, heuristic_action(s, rng));
    }
  }
  REQUIRE(holds_specialist(s, 1, b));
  REQUIRE(holds_specialist(s, 2, a));
  auto one_each = [&](const State& t, int x, int y) {
    return (holds_specialist(t, x, a) && holds_specialist(t, y, b)) ||
           (holds_specialist(t, x, b) && holds_specialist(t, y, a));
  };
  for (uint64_t seed = 0; seed < kResamples; ++seed) CHECK(one_each(resampled(s, 0, seed), 1, 2));
  // Round 2, left again: players 1 and 2 keep their carried card. Player 2
  // then holds one of the two and may be given the other; player 3 can be
  // given at most the one player 2 held, and player 1 keeps at most one.
  act(s, A::kDraftLeft);
  for (int p = 0; p < 4; ++p) {
    const int seat = s.current_player();
    const Player& hand = s.player(seat);
    int keep = hand.hand[0];
    for (int i = 0; i < hand.hand_size; ++i)
      if (hand.hand[static_cast<std::size_t>(i)] == a || hand.hand[static_cast<std::size_t>(i)] == b)
        keep = hand.hand[static_cast<std::size_t>(i)];
    act(s, A::kKeepSpecialist + keep);
  }
  REQUIRE(holds_specialist(s, 1, b));
  REQUIRE(holds_specialist(s, 2, a));
  std::array<int, 4> both_in{};
  bool moved = false;
  for (uint64_t seed = 0; seed < kResamples; ++seed) {
    const State t = resampled(s, 0, seed);
    for (int w = 1; w < 4; ++w) both_in[static_cast<std::size_t>(w)] += one_each(t, w, w);
    const bool anywhere =
        (holds_specialist(t, 1, a) || holds_specialist(t, 2, a) || holds_specialist(t, 3, a)) &&
        (holds_specialist(t, 1, b) || holds_specialist(t, 2, b) || holds_specialist(t, 3, b));
    CHECK(anywhere);
    moved = moved || !one_each(t, 1, 2);
  }
  CHECK(both_in[1] == 0);
  CHECK(both_in[3] == 0);
  CHECK(both_in[2] > 0);  // possible: player 2 kept one and was given the other
  CHECK(moved);
}

// known_hands looks up only the cards in each hand (a set always holds its card's true place):
// it must give what a scan of every set of the viewer gives, for every viewer at every
// decision of random games with 2, 3 and 4 players, heuristic moves mixed in, and at the end.
TEST_CASE("known_hands: the cards each set puts in one hand alone", "[lift_off][known_hands]") {
  auto scanned = [](const State& s, int viewer) {
    State::KnownHands known;
    for (int card = 0; card < kMaxSpecialists; ++card) {
      const unsigned m = s.specialist_may_be(viewer, card);
      if (m != 0 && (m & (m - 1)) == 0 && (m & may_be::kHands))
        known.specialists[static_cast<std::size_t>(__builtin_ctz(m))] |= uint64_t{1} << card;
    }
    for (int card = 0; card < kMaxObjectives; ++card) {
      const unsigned m = s.objective_may_be(viewer, card);
      if (m != 0 && (m & (m - 1)) == 0 && (m & may_be::kHands))
        known.objectives[static_cast<std::size_t>(__builtin_ctz(m))] |= uint32_t{1} << card;
    }
    return known;
  };
  std::vector<Action> legal;
  int known_cards = 0;
  for (int players = 2; players <= 4; ++players)
    for (uint64_t game = 0; game < 10; ++game) {
      State s(cfg(), players, derive_seed(5620 + static_cast<uint64_t>(players), game));
      Rng bot(derive_seed(5720, game)), pick(derive_seed(5721, game));
      for (int decision = 0;; ++decision) {
        for (int v = 0; v < players; ++v) {
          const State::KnownHands fast = s.known_hands(v), slow = scanned(s, v);
          for (std::size_t w = 0; w < kMaxPlayers; ++w) {
            if (fast.specialists[w] != slow.specialists[w] || fast.objectives[w] != slow.objectives[w])
              FAIL(players << " players, game " << game << ", decision " << decision << ", viewer " << v
                           << ", seat " << w);
            if (static_cast<int>(w) != v) known_cards += __builtin_popcountll(fast.specialists[w]);
          }
        }
        if (s.is_terminal()) break;
        legal.clear();
        for (Action a = 0; a < A::kNumActions; ++a)
          if (s.is_legal(a)) legal.push_back(a);
        s.apply(decision % 2 ? heuristic_action(s, bot)
                             : legal[pick.below(static_cast<uint32_t>(legal.size()))]);
      }
    }
  CHECK(known_cards > 0);  // the others' cards were known at times, not only the viewer's own
}
