// The structured view of the table for the browser (State::view_json): each
// player's board (VP, money, income, lab, capacity, tech, station), missions
// on Earth and in space, played specialists, hand and objectives, and the
// mission decks. Hands and objectives are hidden: another seat's show the
// cards the viewer knows to be there (in card order, so nothing tells which
// slot holds them) and a count of unknown ones, as observation_string does;
// every hand is open once the game is over. The objectives a seat discarded
// face down are named to that seat only (the others see how many, as in
// observation_string). The face-up piles are shown
// card by card: the specialist discard pile and each level's mission discard
// pile (in card order).
#include <algorithm>
#include <vector>

#include "envs/lift_off/lift_off.h"

namespace rocketgym::lift_off {

namespace {

Json mission_view(const Config& c, int title) {
  const MissionType& m = c.missions[static_cast<std::size_t>(title)];
  return {{"id", m.id}, {"name", m.name}, {"level", m.level}, {"weight", m.weight}, {"vp", m.vp}};
}

Json card_view(const std::string& id, const std::string& name) { return {{"id", id}, {"name", name}}; }

// A hand of hidden cards: all of them when open, else the cards `known`
// (bit = card) in card order and how many others there are.
template <class CardView>
Json hidden_hand_view(const std::array<uint8_t, 3>& cards, int count, bool open, uint64_t known,
                      CardView view) {
  Json shown = Json::array();
  if (open) {
    for (int i = 0; i < count; ++i) shown.push_back(view(cards[static_cast<std::size_t>(i)]));
  } else {
    for (int card = 0; card < 64; ++card)
      if (known >> card & 1) shown.push_back(view(card));
  }
  const int unknown = count - static_cast<int>(shown.size());
  return {{"cards", std::move(shown)}, {"unknown", unknown}};
}

}  // namespace

Json State::view_json(int viewer) const {
  const Config& c = *config_;
  Json view;
  view["round"] = round_;
  view["phase"] = phase_;
  view["step"] = step_name(step_);
  view["start_player"] = start_player_;
  view["draft_direction"] = direction_ > 0 ? "left" : "right";
  view["to_act"] = current_player();
  view["specialist_deck"] = specialist_deck_count_;
  view["specialist_discard"] = specialist_discard_count_;
  Json discarded_specialists = Json::array();  // face up, in card order
  const uint64_t discard_mask = specialist_discard_mask();
  for (int card = 0; card < static_cast<int>(c.specialists.size()); ++card)
    if (discard_mask >> card & 1) {
      const SpecialistCard& s = c.specialists[static_cast<std::size_t>(card)];
      discarded_specialists.push_back(card_view(s.id, s.name));
    }
  view["specialist_discard_pile"] = std::move(discarded_specialists);
  view["mission_decks"] = Json::array();
  view["mission_discards"] = Json::array();  // per level, face up, in card order
  for (int level = 1; level <= kNumLevels; ++level) {
    view["mission_decks"].push_back(mission_deck_size(level));
    std::vector<int> cards;
    for (int i = 0; i < mission_discard_size(level); ++i) cards.push_back(mission_discard_card(level, i));
    std::sort(cards.begin(), cards.end());
    Json pile = Json::array();
    for (int card : cards) pile.push_back(mission_view(c, card));
    view["mission_discards"].push_back(std::move(pile));
  }
  view["station_next_cost"] = station_next_cost();
  const bool drafting = step_ == Step::kObjectiveKeep || step_ == Step::kObjectivePass ||
                        step_ == Step::kSpecialistKeep || step_ == Step::kSpecialistPass;
  const bool objective_draft = step_ == Step::kObjectiveKeep || step_ == Step::kObjectivePass;
  Json players = Json::array();
  for (int w = 0; w < num_players_; ++w) {
    const Player& p = player(w);
    const bool open = viewer < 0 || viewer == w || is_terminal();
    Json board = {
        {"seat", w},
        {"vp", p.vp},
        {"money", p.money},
        {"income", p.income},
        {"lab_level", p.lab_level},
        {"capacity", capacity(w)},
        {"propulsion_upgrades", p.propulsion_upgrades},
        {"launch_cost", launch_cost(w)},
        {"tech", {{"red", p.tech[0]}, {"yellow", p.tech[1]}, {"blue", p.tech[2]}, {"green", p.tech[3]}}},
        {"station", p.station_investments}};
    if (is_terminal()) board["final_vp"] = final_vp_[static_cast<std::size_t>(w)];
    Json earth = Json::array(), space = Json::array(), played = Json::array();
    for (int i = 0; i < p.num_earth; ++i)
      earth.push_back(mission_view(c, p.earth[static_cast<std::size_t>(i)]));
    for (int i = 0; i < p.num_space; ++i)
      space.push_back(mission_view(c, p.space[static_cast<std::size_t>(i)]));
    for (int i = 0; i < p.num_played; ++i) {
      const SpecialistCard& s = c.specialists[p.played[static_cast<std::size_t>(i)]];
      Json card = card_view(s.id, s.name);
      card["banner_used"] = bool{p.banner_used[static_cast<std::size_t>(i)]};
      played.push_back(std::move(card));
    }
    board["earth"] = std::move(earth);
    board["space"] = std::move(space);
    board["played"] = std::move(played);
    auto specialist = [&](int card) {
      const SpecialistCard& s = c.specialists[static_cast<std::size_t>(card)];
      return card_view(s.id, s.name);
    };
    auto objective = [&](int card) {
      const ObjectiveCard& o = c.objectives[static_cast<std::size_t>(card)];
      return card_view(o.id, o.name);
    };
    board["hand"] =
        hidden_hand_view(p.hand, p.hand_size, open, open ? 0 : known_specialists(viewer, w), specialist);
    board["objectives"] = hidden_hand_view(p.objectives, p.num_objectives, open,
                                           open ? 0 : known_objectives(viewer, w), objective);
    board["objectives_discarded"] = p.num_discarded_objectives;
    // Face down: the seat knows its own discards, the others only how many (even at the end).
    if (viewer < 0 || viewer == w) {
      Json discarded = Json::array();
      for (int i = 0; i < p.num_discarded_objectives; ++i)
        discarded.push_back(objective(p.discarded_objectives[static_cast<std::size_t>(i)]));
      board["discarded_objectives"] = std::move(discarded);
    }
    // A draft pick is hidden: who has picked is public, the card only to its picker.
    if (drafting && p.pick >= 0) {
      board["has_picked"] = true;
      if (viewer < 0 || viewer == w) {
        const int card = objective_draft ? p.objectives[static_cast<std::size_t>(p.pick)]
                                         : p.hand[static_cast<std::size_t>(p.pick)];
        board["pick"] = objective_draft ? objective(card) : specialist(card);
      }
    }
    players.push_back(std::move(board));
  }
  view["players"] = std::move(players);
  if (played_card_ >= 0) {
    const SpecialistCard& s = c.specialists[static_cast<std::size_t>(played_card_)];
    view["resolving"] = card_view(s.id, s.name);
  }
  if (num_drawn_ > 0) {
    Json drawn = Json::array();
    for (int i = 0; i < num_drawn_; ++i)
      drawn.push_back(mission_view(c, drawn_[static_cast<std::size_t>(i)]));
    view["drawn"] = {{"missions", std::move(drawn)}, {"keep_up_to", keeps_left_}};
  }
  if (step_ == Step::kLoadRocket) {
    Json loaded = Json::array();
    for (int i = 0; i < num_loaded_; ++i)
      loaded.push_back(mission_view(c, loaded_[static_cast<std::size_t>(i)]));
    view["rocket"] = {{"symbol", launch_uses_lab_ ? "lab" : "extra"},
                      {"capacity", rocket_capacity_now()},
                      {"loaded", std::move(loaded)}};
  }
  return view;
}

}  // namespace rocketgym::lift_off
