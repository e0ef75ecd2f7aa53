// The structured view of the table for the browser (State::view_json): each
// player's four rockets (booster, boxes, Joker, Imaginary Friend, launched),
// hand and score, the piles and the card waiting for reactions. Boxes are
// face down: a seat sees the faces it knows (the boxes it built, or saw);
// another hand shows its size and the cards the seat knows to be in it; the
// draw pile its size and the cards the seat knows there (draw_pile_known). Who
// is asked to block or to add Crew is shown only to that player (ruling 4).
#include <algorithm>

#include "envs/rocket_squad/rocket_squad.h"

namespace rocketgym::rocket_squad {

namespace {

const char* phase_word(Phase p) {
  switch (p) {
    case Phase::kTurn:
      return "turn";
    case Phase::kReaction:
      return "reaction";
    case Phase::kCrew:
      return "crew";
    case Phase::kJackieKeep:
      return "jackie";
    case Phase::kAcePass:
      return "ace pass";
    case Phase::kGameOver:
      return "game over";
  }
  return "";
}

bool knows(uint8_t known_by, int viewer) { return viewer < 0 || ((known_by >> viewer) & 1); }

// The cards of `cards` whose mask names `viewer`, sorted so the list tells
// nothing about their positions.
template <std::size_t N>
Json known_cards(const std::array<CardType, N>& cards, const std::array<uint8_t, N>& masks, int count,
                 int viewer) {
  std::vector<CardType> known;
  for (int i = 0; i < count; ++i)
    if (knows(masks[static_cast<std::size_t>(i)], viewer))
      known.push_back(cards[static_cast<std::size_t>(i)]);
  std::sort(known.begin(), known.end());
  Json out = Json::array();
  for (CardType t : known) out.push_back(card_name(t));
  return out;
}

Json rocket_view(const Rocket& r, int viewer) {
  Json out = {{"booster", r.has_booster() ? Json(card_name(r.booster)) : Json()},
              {"need", r.need()},
              {"launched", r.launched},
              {"crew", r.crew},
              {"joker", r.joker},
              {"imaginary_friend", r.friend_beside}};
  Json boxes = Json::array();  // bottom first; null: a face the viewer does not know
  for (int i = 0; i < r.num_boxes; ++i)
    boxes.push_back(knows(r.box_known_by[static_cast<std::size_t>(i)], viewer)
                        ? Json(card_name(r.boxes[static_cast<std::size_t>(i)]))
                        : Json());
  out["boxes"] = std::move(boxes);
  return out;
}

// What `viewer` knows of the draw pile, as observation_string says it: the
// cards it knows by position ("from_bottom", position 0 the bottom card; null
// a card it does not know, up to the highest card it knows: Jackie's), and
// those it knows to be somewhere in the pile ("somewhere", sorted: a
// reshuffled discard pile, which everybody saw).
Json draw_pile_known(const DrawPile& d, int viewer) {
  Json from_bottom = Json::array();
  int known_to = 0;  // one past the highest known position
  for (int i = 0; i < d.count; ++i)
    if (knows(d.known_by[static_cast<std::size_t>(i)], viewer)) known_to = i + 1;
  for (int i = 0; i < known_to; ++i)
    from_bottom.push_back(knows(d.known_by[static_cast<std::size_t>(i)], viewer)
                              ? Json(card_name(d.cards[static_cast<std::size_t>(i)]))
                              : Json());
  return {{"from_bottom", std::move(from_bottom)},
          {"somewhere", known_cards(d.cards, d.counted_by, d.count, viewer)}};
}

}  // namespace

Json State::view_json(int viewer) const {
  const bool everything = viewer < 0;
  const int decider = current_player();
  Json view;
  // A Crew or block decision shows that its player holds a Crew card, or
  // Mom or Grandma (ruling 4): to the others the turn simply goes on, with
  // the card on the table (as in observation_string, and as the encoder
  // shows a phase only to the seat deciding).
  const bool hidden_decision =
      (phase_ == Phase::kCrew || phase_ == Phase::kReaction) && !everything && viewer != decider;
  view["phase"] = phase_word(hidden_decision ? Phase::kTurn : phase_);
  view["turn"] = turn_number_;
  view["turn_player"] = turn_player_;
  // Who is deciding is not always public (who is asked to block or to add
  // Crew, ruling 4): the view names the decider only in the full board;
  // a seat knows its own turn from your_turn.
  if (everything) view["deciding"] = decider;
  view["end_triggered"] = end_triggered_;
  if (end_triggered_) view["trigger_seat"] = int{trigger_seat_};
  view["draw_pile"] = int{draw_.count};
  // The full board lists no pile (as to_string): the seats' knowledge is what is shown.
  if (!everything) view["draw_pile_known"] = draw_pile_known(draw_, viewer);
  Json discard = Json::array();  // face up, bottom first
  for (int i = 0; i < discard_.count; ++i)
    discard.push_back(card_name(discard_.cards[static_cast<std::size_t>(i)]));
  view["discard_pile"] = std::move(discard);
  Json players = Json::array();
  for (int p = 0; p < num_players_; ++p) {
    const Hand& h = hands_[static_cast<std::size_t>(p)];
    Json player = {{"seat", p}, {"score", score(p)}, {"hand_size", int{h.count}}};
    if (everything || p == viewer) {
      Json hand = Json::array();
      for (int i = 0; i < h.count; ++i) hand.push_back(card_name(h.cards[static_cast<std::size_t>(i)]));
      player["hand"] = std::move(hand);
    } else {
      player["known_in_hand"] = known_cards(h.cards, h.known_by, h.count, viewer);
    }
    Json rockets = Json::array();
    for (int loc = 0; loc < kNumLocations; ++loc) {
      Json r = rocket_view(rockets_[static_cast<std::size_t>(p)][static_cast<std::size_t>(loc)], viewer);
      r["location"] = location_name(loc);
      rockets.push_back(std::move(r));
    }
    player["rockets"] = std::move(rockets);
    players.push_back(std::move(player));
  }
  view["players"] = std::move(players);
  if (chain_.active)
    view["on_the_table"] = {{"card", card_name(chain_.card)},
                            {"play", action_to_string(chain_.action)},
                            {"blocks", int{chain_.blocks}},
                            {"last_block_by", chain_.blocks ? int{chain_.top_player} : -1}};
  if (ace_.active)
    view["ace_passing"] = {{"boxes", int{ace_.count}},
                           {"known", known_cards(ace_.boxes, ace_.box_known_by, ace_.count, viewer)}};
  if (phase_ == Phase::kJackieKeep && (everything || viewer == turn_player_)) {
    Json look = Json::array();  // top first
    for (int i = 0; i < jackie_.count; ++i)
      look.push_back(card_name(jackie_.cards[static_cast<std::size_t>(i)]));
    view["jackie_look"] = std::move(look);
  }
  if (phase_ == Phase::kCrew && (everything || viewer == decider))
    view["crew_location"] = location_name(crew_location_);
  return view;
}

}  // namespace rocketgym::rocket_squad
