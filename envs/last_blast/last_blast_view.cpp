// The structured view of the table for the browser (State::view_json): the
// asteroid field with the players' cubes, each rocket's cards front to back,
// and during the draft the hands. A seat sees its own hand and hidden pick;
// another hand shows its size, whether its holder has picked and the cards
// the seat saw in it, in card order; the discards reshuffled to finish a
// deal whose place the seat does not know (as observation_string does).
#include "envs/last_blast/last_blast.h"

namespace rocketgym::last_blast {

namespace {

Json card_view(const Config& config, int card) {
  const Card& c = config.cards[static_cast<std::size_t>(card)];
  return {{"name", config.card_names[static_cast<std::size_t>(card)]},
          {"colour", colour_word(c.colour)},
          {"number", c.number},
          {"symbol", config.symbol_names[static_cast<std::size_t>(c.symbol)]}};
}

}  // namespace

Json State::view_json(int viewer) const {
  const Config& c = *config_;
  const bool everything = viewer < 0;
  Json view;
  view["phase"] = phase_name(phase_);
  if (phase_ == Phase::kDraft) {
    view["hand_number"] = hand_number_ + 1;
    view["pick_number"] = pick_number_ + 1;
    view["picker"] = int{picker_};
    // Who decides is public, what they decide is not.
    if (everything || viewer == picker_) view["placing_blind_card"] = awaiting_blind_placement();
  }
  if (phase_ == Phase::kFlight) {
    view["column"] = round_ + 1;
    view["start_player"] = int{start_player_};
    view["mover"] = int{mover_};
    view["damage_left"] = int{damage_left_};
  }
  Json field = Json::array();  // rows of symbols, columns left to right
  for (int r = 0; r < rows(); ++r) {
    Json row = Json::array();
    for (int col = 0; col < kColumns; ++col)
      row.push_back(c.symbol_names[static_cast<std::size_t>(field_[r][col])]);
    field.push_back(std::move(row));
  }
  view["field"] = std::move(field);
  Json players = Json::array();
  for (int p = 0; p < n_; ++p) {
    Json player = {{"seat", p},           {"status", status_name(status_[p])}, {"score", score(p)},
                   {"row", int{row_[p]}}, {"column", int{column_[p]}},         {"moved", bool{moved_[p]}}};
    Json rocket = Json::array();  // front first
    for (int i = 0; i < rocket_[p].size; ++i) rocket.push_back(card_view(c, rocket_[p].card[i]));
    player["rocket"] = std::move(rocket);
    if (phase_ == Phase::kDraft) player["hand"] = hand_view(p, viewer);
    players.push_back(std::move(player));
  }
  view["players"] = std::move(players);
  if (everything) {
    view["deck"] = int{deck_size_};
    view["discards"] = int{discard_size_};
  } else {
    view["deck_and_discards"] = undrafted_count();
  }
  view["lost_in_flight"] = int{lost_size_};
  Json reshuffled = Json::array();  // in card order, as write_reshuffled lists them
  for (int card = 0; card < c.num_cards(); ++card)
    if (is_reshuffled(card) && (everything || !knows(viewer, card))) reshuffled.push_back(card_view(c, card));
  view["reshuffled"] = std::move(reshuffled);
  return view;
}

// A draft hand as `viewer` may see it (see write_hand_seen_by).
Json State::hand_view(int p, int viewer) const {
  const Config& c = *config_;
  const Pick& pick = pick_[p];
  Json out;
  if (viewer < 0 || viewer == p) {
    Json cards = Json::array();
    for (int i = 0; i < hand_size_[p]; ++i) cards.push_back(card_view(c, hand_[p][i]));
    out["cards"] = std::move(cards);
    if (pick.card >= 0) {
      out["pick"] = card_view(c, pick.card);
      out["pick_blind"] = pick.blind;
      if (pick.end >= 0) out["pick_end"] = pick.end == kFront ? "front" : "back";
    }
    return out;
  }
  const bool from_hand = pick.card >= 0 && !pick.blind;
  out["size"] = hand_size_[p] + from_hand;
  out["has_picked"] = pick.card >= 0 && pick.end >= 0;
  uint64_t seen = 0;
  for (int i = 0; i < hand_size_[p]; ++i) seen |= uint64_t{1} << hand_[p][i];
  if (from_hand) seen |= uint64_t{1} << pick.card;
  Json known = Json::array();
  for (int card = 0; card < c.num_cards(); ++card)
    if ((seen >> card & 1) && knows(viewer, card)) known.push_back(card_view(c, card));
  out["seen"] = std::move(known);
  return out;
}

}  // namespace rocketgym::last_blast
