// What a seat knows about where the cards are: the knowledge model that keeps
// search honest in games with hidden information.
//
// A game with hidden information describes its cards twice:
//   card_places(out)                 the truth: every card of the game with the
//                                    place it is in (deck, a hand, a box...);
//   known_card_places(viewer, out)   what `viewer` knows for certain: one entry
//                                    per copy of a card that `viewer` knows to be
//                                    in a place (its own hand, the public table,
//                                    a card it saw passed, stolen or taken).
// Places and cards are the game's own small integers (documented in the game's
// header). A card known to be in "the deck or some opponent's hand" is not a
// certainty and is not listed.
//
// The conformance suite checks, at random positions of random playouts, that
//   - what a seat knows is true (known ⊆ truth, as multisets per place);
//   - redeterminize(viewer) keeps every card the viewer knows where it is and
//     keeps the viewer's knowledge itself (card conservation is each game's
//     check_invariants(), which the suite runs on every resample).
// A "card" may be any hidden thing with a place: a secret pick is the card
// picked, in the place "picked by seat p".
// Together these say that every sampled world is one the viewer thinks possible.
#pragma once

#include <algorithm>
#include <tuple>
#include <vector>

namespace rocketgym {

struct CardPlace {
  int place = 0;
  int card = 0;
  bool operator==(const CardPlace& o) const { return place == o.place && card == o.card; }
  bool operator<(const CardPlace& o) const { return std::tie(place, card) < std::tie(o.place, o.card); }
};

using CardPlaces = std::vector<CardPlace>;

// Sorts both lists and returns the first entry of `known` that `truth` lacks
// (as multisets), or nullptr when every known card is where it is said to be.
inline const CardPlace* first_unsupported(CardPlaces& known, CardPlaces& truth) {
  std::sort(known.begin(), known.end());
  std::sort(truth.begin(), truth.end());
  auto t = truth.begin();
  for (const CardPlace& k : known) {
    while (t != truth.end() && *t < k) ++t;
    if (t == truth.end() || !(*t == k)) return &k;
    ++t;
  }
  return nullptr;
}

}  // namespace rocketgym
