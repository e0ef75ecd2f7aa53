// Rocket Squad: what each seat may see and knows (issue 14): the viewer's text, secret
// actions, the knowledge model per event, and redeterminize sampling only worlds the viewer
// thinks possible.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "tests/rocket_squad/rocket_squad_test_util.h"

using namespace rs_test;

namespace {

int hand_place(int p) { return places::kHand + p; }
int boxes_place(int p, int location) { return places::kBoxes + p * kNumLocations + location; }

// The cards `viewer` knows to be in `place` (viewer -1: the truth), sorted.
std::vector<CardType> known_in(const State& s, int viewer, int place) {
  CardPlaces all;
  if (viewer < 0)
    s.card_places(all);
  else
    s.known_card_places(viewer, all);
  std::vector<CardType> out;
  for (const CardPlace& c : all)
    if (c.place == place) out.push_back(static_cast<CardType>(c.card));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<CardType> cards(std::initializer_list<const char*> names) {
  std::vector<CardType> out;
  for (const char* name : names) out.push_back(card(name));
  std::sort(out.begin(), out.end());
  return out;
}

// Every card `viewer` knows stays where it is (and stays known) in `resampled`.
void require_knowledge_kept(const State& s, const State& resampled, int viewer) {
  CardPlaces known, known_after, truth_after;
  s.known_card_places(viewer, known);
  resampled.known_card_places(viewer, known_after);
  resampled.card_places(truth_after);
  std::sort(known_after.begin(), known_after.end());
  REQUIRE(first_unsupported(known, truth_after) == nullptr);
  REQUIRE(known_after == known);
}

State with_seed(const State& s, uint64_t seed) {
  Json doc = s.to_json();
  doc["rng"] = rng_to_json(Rng(seed));
  return State::from_json(doc, default_config());
}

// Player 0 holds Dad, player 1 Jack, the draw pile only its last 3 cards (the
// others in the discard pile, seen by all): ending the turn draws them and
// reshuffles the discards into the pile.
constexpr const char* kDadAndJack = R"({"hands":[{"cards":["dad"]},{"cards":["jack"]}]})";
State three_cards_left() {
  Json doc = position(kDadAndJack).to_json();
  const std::size_t n = doc["draw_pile"].size();
  Json pile = Json::array(), zeros = Json::array({0, 0, 0});
  for (std::size_t i = 0; i < n - 3; ++i) doc["discard_pile"].push_back(doc["draw_pile"][i]);
  for (std::size_t i = n - 3; i < n; ++i) pile.push_back(doc["draw_pile"][i]);
  doc["draw_pile"] = pile;
  doc["draw_known_by"] = zeros;
  doc["draw_counted_by"] = zeros;
  reset_deck(doc);
  return State::from_json(doc, default_config());
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The viewer's text and secret actions
// ---------------------------------------------------------------------------------------------

TEST_CASE("observation_string: own hand and the table, never another hand or another seat's Jackie look",
          "[rocket_squad][hidden][text]") {
  State s =
      position(R"({"hands":[{"cards":["jackie","imaginary_friend"]},{"cards":["water_balloons","uncle"]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":1}},{}],"draw_top":["duct_tape","crew","grandma"]})");
  REQUIRE(s.observation_string(0).find("Imaginary Friend") != std::string::npos);
  REQUIRE(s.observation_string(0).find("Water Balloons") == std::string::npos);
  REQUIRE(s.observation_string(1).find("Water Balloons") != std::string::npos);
  REQUIRE(s.observation_string(1).find("Imaginary Friend") == std::string::npos);
  REQUIRE(s.observation_string(1).find("2 card(s) in hand") != std::string::npos);
  s.apply(action::kPlayJackie);
  REQUIRE(s.phase() == Phase::kJackieKeep);
  const std::string mine = s.observation_string(0), theirs = s.observation_string(1);
  for (const char* looked : {"Duct Tape", "Crew", "Grandma"}) {
    REQUIRE(mine.find(looked) != std::string::npos);
    REQUIRE(theirs.find(looked) == std::string::npos);
  }
  REQUIRE(theirs.find("looks at the top of the draw pile with Jackie") != std::string::npos);
  // The truth (to_string) shows everything: it is not a player's view.
  REQUIRE(s.to_string().find("Water Balloons") != std::string::npos);
}

TEST_CASE("observation_string: who is asked to block stays hidden",
          "[rocket_squad][hidden][text][reaction]") {
  const auto asked = [](const char* h1, const char* h2) {
    State s = position(std::string(R"({"players":3,"hands":[{"cards":["dad"]},{"cards":[)") + h1 +
                       R"(]},{"cards":[)" + h2 + R"(]}],"rockets":[{"blue":{"booster":"blue_5"}},
                       {"red":{"booster":"red_7","boxes":2}},{}]})");
    s.apply(dad(1, RED, BLUE));
    return s;
  };
  const State a = asked(R"("grandma","uncle")", R"("uncle","jack")");
  const State b = asked(R"("uncle","jack")", R"("grandma","uncle")");
  REQUIRE(a.current_player() == 1);
  REQUIRE(b.current_player() == 2);
  REQUIRE(a.observation_string(0) == b.observation_string(0));
  REQUIRE(a.view_json(0) == b.view_json(0));
  REQUIRE(a.observation_string(1).find("You may block") != std::string::npos);
  REQUIRE(a.observation_string(2).find("You may block") == std::string::npos);
}

TEST_CASE("view and text: a seat not asked to block sees the turn go on, not a reaction phase",
          "[rocket_squad][hidden][text][view][reaction]") {
  // Two players: Grandma may block Jackie, so player 1 is asked. Had player 1 held no block
  // card, Jackie would have resolved at once; a "reaction" phase or a line about waiting for
  // reactions would tell player 0 that player 1 holds Mom or Grandma (ruling 4).
  State s = position(R"({"hands":[{"cards":["jackie","dad"]},{"cards":["grandma","uncle"]}]})");
  s.apply(action::kPlayJackie);
  REQUIRE(s.phase() == Phase::kReaction);
  REQUIRE(s.current_player() == 1);
  const Json seat0 = s.view_json(0);
  REQUIRE(seat0["phase"] == "turn");
  REQUIRE_FALSE(seat0.contains("deciding"));
  REQUIRE(seat0["on_the_table"]["card"] == "jackie");  // played face up: public
  const std::string text0 = s.observation_string(0);
  REQUIRE(text0.find("reaction") == std::string::npos);
  REQUIRE(text0.find("may block") == std::string::npos);
  REQUIRE(text0.find("On the table: Jackie") != std::string::npos);
  // The seat asked sees its decision; the full board shows everything.
  REQUIRE(s.view_json(1)["phase"] == "reaction");
  REQUIRE(s.observation_string(1).find("You may block") != std::string::npos);
  REQUIRE(s.view_json(-1)["phase"] == "reaction");
  REQUIRE(s.view_json(-1)["deciding"] == 1);
}

TEST_CASE("view: the draw pile cards a seat knows, by position after Jackie, as cards after a reshuffle",
          "[rocket_squad][hidden][view][jackie]") {
  State s = position(R"({"hands":[{"cards":["jackie"]},{"cards":["uncle"]}],
      "draw_top":["duct_tape","crew","water_balloons"]})");
  s.apply(action::kPlayJackie);
  s.apply(jackie_keep(0, 0));  // keep Duct Tape; Crew to the very bottom, Water Balloons above it
  const Json mine = s.view_json(0)["draw_pile_known"];
  REQUIRE(mine["from_bottom"] == Json::array({"crew", "water_balloons"}));
  REQUIRE(mine["somewhere"].empty());
  REQUIRE(s.observation_string(0).find("(bottom first): [Crew] [Water Balloons]") != std::string::npos);
  const Json theirs = s.view_json(1)["draw_pile_known"];  // player 1 saw none of them
  REQUIRE(theirs["from_bottom"].empty());
  REQUIRE(theirs["somewhere"].empty());
  REQUIRE_FALSE(s.view_json(-1).contains("draw_pile_known"));

  // Three cards left: player 0 draws them and the discards (seen by all) become the pile.
  State t = three_cards_left();
  t.apply(action::kEndTurn);
  std::vector<CardType> cards(t.draw_pile().cards.begin(), t.draw_pile().cards.begin() + t.draw_pile().count);
  std::sort(cards.begin(), cards.end());  // listed in card order, as a multiset
  std::vector<std::string> names;
  for (CardType c : cards) names.push_back(card_name(c));
  const Json known = t.view_json(1)["draw_pile_known"];
  REQUIRE(known["from_bottom"].empty());
  REQUIRE(known["somewhere"] == Json(names));
}

TEST_CASE(
    "is_public_action: a box's face, declining to block or to attach Crew, and Jackie's pick are secret",
    "[rocket_squad][hidden]") {
  const State s(default_config(), 2, 3);
  REQUIRE_FALSE(s.is_public_action(build("crew", BLUE)));
  REQUIRE_FALSE(s.is_public_action(action::kNoBlock));
  REQUIRE_FALSE(s.is_public_action(action::kCrewDecline));  // would show that the seat holds Crew
  for (int a = action::kJackieKeep; a < action::kAceBuild; ++a) REQUIRE_FALSE(s.is_public_action(a));
  for (Action a : {action::kEndTurn, action::kRedraw, place(RED, 7, RED), dad(1, RED, BLUE), jack(1),
                   action::kPlayJackie, action::kBlockMom, action::kBlockGrandma, action::kCrewAttach,
                   ace_build(GREEN), knock_over(BLUE)})
    REQUIRE(s.is_public_action(a));
}

TEST_CASE(
    "Crew: the rocket launches before its owner decides, so the others cannot tell a Crew holder is asked",
    "[rocket_squad][crew][hidden]") {
  const auto launch = [](const char* other_card) {
    State s = position(std::string(R"({"players":3,"hands":[{"cards":["dad",")") + other_card +
                       R"("]},{"cards":["jack"]},{"cards":["uncle"]}],
        "rockets":[{"blue":{"booster":"blue_3","boxes":2},"green":{"booster":"green_3"},
                    "yellow":{"booster":"yellow_6"},"red":{"booster":"red_7"}},{},{}]})");
    s.apply(build("dad", BLUE));
    return s;
  };
  const State with_crew = launch("crew"), without = launch("mom");
  REQUIRE(with_crew.phase() == Phase::kCrew);
  REQUIRE(without.phase() == Phase::kTurn);
  REQUIRE(with_crew.rocket(0, BLUE).launched);  // already, while its owner decides
  for (int viewer = 1; viewer <= 2; ++viewer) {
    const int size = Encoder::kSize;
    std::vector<float> a(static_cast<std::size_t>(size)), b(static_cast<std::size_t>(size));
    Encoder::encode(with_crew, viewer, a.data());
    Encoder::encode(without, viewer, b.data());
    REQUIRE(a == b);
    REQUIRE(with_crew.observation_string(viewer) == without.observation_string(viewer));
  }
  REQUIRE(with_crew.observation_string(0).find("attach a Crew card") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// The knowledge model, event by event
// ---------------------------------------------------------------------------------------------

TEST_CASE("knowledge: Jack's victim knows where the card went; a third player does not",
          "[rocket_squad][hidden][knowledge][jack]") {
  State s = position(R"({"players":3,"hands":[{"cards":["jack"]},{"cards":["uncle","uncle","uncle"]},
      {"cards":["dad"]}]})");
  s.apply(jack(1));
  REQUIRE(known_in(s, 1, hand_place(0)) == cards({"uncle"}));
  REQUIRE(known_in(s, 2, hand_place(0)).empty());
  REQUIRE(known_in(s, 0, hand_place(1)).empty());  // the thief saw one card, not the rest
  for (uint64_t seed = 0; seed < 10; ++seed) {
    State r = s;
    Rng rng(seed);
    r.redeterminize(1, rng);
    REQUIRE(r.hand_count(0, kUncle) == 1);
    require_knowledge_kept(s, r, 1);
  }
}

TEST_CASE("knowledge: a steal seen by nobody else costs a third player one copy of each card it knew",
          "[rocket_squad][hidden][knowledge][jack]") {
  // Player 2 knows 2 Dads and a Jackie in player 1's hand; player 0 steals one card at random.
  const State base = position(R"({"players":3,"hands":[{"cards":["jack"]},
      {"cards":["dad","dad","jackie","uncle"],"known_by":[4,4,4,0]},{"cards":[]}]})");
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    State s = with_seed(base, seed);
    s.apply(jack(1));
    // Whatever was taken, player 1 still holds at least one Dad; nothing more is certain.
    REQUIRE(known_in(s, 2, hand_place(1)) == cards({"dad"}));
    REQUIRE(known_in(s, 2, hand_place(0)).empty());
    REQUIRE(known_in(s, 1, hand_place(0)).size() == 1);  // the victim knows the stolen card
  }
  // Knowing every card, all alike, player 2 knows the stolen one too.
  State all_known = position(R"({"players":3,"hands":[{"cards":["jack"]},
      {"cards":["uncle","uncle","uncle"],"known_by":[4,4,4]},{"cards":[]}]})");
  all_known.apply(jack(1));
  REQUIRE(known_in(all_known, 2, hand_place(0)) == cards({"uncle"}));
  REQUIRE(known_in(all_known, 2, hand_place(1)) == cards({"uncle", "uncle"}));
}

TEST_CASE("knowledge: a box built face down is known to its builder; the others forget one copy of each card",
          "[rocket_squad][hidden][knowledge][box]") {
  // Player 1 knows 2 Jacks and a Dad in player 0's hand (e.g. from Jack steals).
  State s = position(R"({"hands":[{"cards":["jack","jack","dad","mom"],"known_by":[2,2,2,0]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5"}},{}]})");
  s.apply(build("jack", BLUE));
  REQUIRE(known_in(s, 0, boxes_place(0, BLUE)) == cards({"jack"}));
  REQUIRE(known_in(s, 1, boxes_place(0, BLUE)).empty());
  // The box may have been any card: player 0 still holds one Jack for sure, maybe no Dad.
  REQUIRE(known_in(s, 1, hand_place(0)) == cards({"jack"}));
  for (uint64_t seed = 0; seed < 10; ++seed) {
    State r = s;
    Rng rng(seed);
    r.redeterminize(0, rng);
    REQUIRE(r.rocket(0, BLUE).boxes[0] == kJack);  // the builder's box keeps its face
    State q = s;
    Rng rng1(seed);
    q.redeterminize(1, rng1);
    REQUIRE(q.hand_count(0, kJack) >= 1);
    require_knowledge_kept(s, q, 1);
  }
  // Knowing every card, all alike, the others know the box too.
  State alike = position(R"({"hands":[{"cards":["jack","jack"],"known_by":[2,2]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5"}},{}]})");
  alike.apply(build("jack", BLUE));
  REQUIRE(known_in(alike, 1, boxes_place(0, BLUE)) == cards({"jack"}));
  REQUIRE(known_in(alike, 1, hand_place(0)) == cards({"jack"}));
}

TEST_CASE("knowledge: a card played face up costs every seat one copy of it, whichever copy it knew",
          "[rocket_squad][hidden][knowledge]") {
  // Players 1 and 2 each know one of player 0's two Dads. After one Dad is played, neither can
  // tell whether the other one is still there.
  State s = position(R"({"players":3,"hands":[{"cards":["dad","dad","mom"],"known_by":[2,4,0]},
      {"cards":[]},{"cards":[]}],"rockets":[{"blue":{"booster":"blue_5"}},{"red":{"booster":"red_7","boxes":1}},{}]})");
  s.apply(dad(1, RED, BLUE));
  REQUIRE(s.hand_count(0, kDad) == 1);
  REQUIRE(known_in(s, 1, hand_place(0)).empty());
  REQUIRE(known_in(s, 2, hand_place(0)).empty());
}

TEST_CASE("knowledge: a box keeps its known face when Dad, Uncle or Ace move it",
          "[rocket_squad][hidden][knowledge]") {
  // Player 1 built a Crew as the box on its red rocket.
  const std::string rockets =
      R"("rockets":[{"blue":{"booster":"blue_5"},"green":{"booster":"green_6","boxes":["mom"],"boxes_known_by":[1]}},
                    {"red":{"booster":"red_7","boxes":["crew"],"boxes_known_by":[2]}}])";
  State by_dad = position(R"({"hands":[{"cards":["dad"]},{"cards":[]}],)" + rockets + "}");
  by_dad.apply(dad(1, RED, BLUE));
  REQUIRE(known_in(by_dad, 1, boxes_place(0, BLUE)) == cards({"crew"}));
  REQUIRE(known_in(by_dad, 0, boxes_place(0, BLUE)).empty());
  for (uint64_t seed = 0; seed < 10; ++seed) {
    State r = by_dad;
    Rng rng(seed);
    r.redeterminize(1, rng);
    REQUIRE(r.rocket(0, BLUE).boxes[0] == kCrew);
  }
  State by_uncle = position(R"({"hands":[{"cards":["uncle"]},{"cards":[]}],)" + rockets + "}");
  by_uncle.apply(uncle(GREEN, BLUE, 1));
  REQUIRE(known_in(by_uncle, 0, boxes_place(0, BLUE)) == cards({"mom"}));
  State by_ace = position(R"({"hands":[{"cards":["ace"]},{"cards":[]}],)" + rockets + "}");
  by_ace.apply(ace(1, RED, CLOCKWISE));  // player 0 takes the box first, and has 2 free rockets
  REQUIRE(by_ace.phase() == Phase::kAcePass);
  REQUIRE(known_in(by_ace, 1, places::kAceBoxes) == cards({"crew"}));
  by_ace.apply(ace_build(BLUE));
  REQUIRE(known_in(by_ace, 1, boxes_place(0, BLUE)) == cards({"crew"}));
}

TEST_CASE("knowledge: Duct Tape's boxes are unknown to everybody, unless a seat knew the pile's top",
          "[rocket_squad][hidden][knowledge][duct_tape]") {
  Json doc = position(R"({"hands":[{"cards":["duct_tape"]},{"cards":[]}],
      "rockets":[{"blue":{"booster":"blue_5"}},{}],"draw_top":["mom","dad"]})")
                 .to_json();
  State s = State::from_json(doc, default_config());
  s.apply(duct_tape(BLUE));
  REQUIRE(s.rocket(0, BLUE).num_boxes == 2);
  REQUIRE(known_in(s, 0, boxes_place(0, BLUE)).empty());
  REQUIRE(known_in(s, 1, boxes_place(0, BLUE)).empty());
  // Player 1 put those two cards there with Jackie (it knows their positions).
  const std::size_t n = doc["draw_pile"].size();
  doc["draw_known_by"][n - 1] = 2;
  doc["draw_known_by"][n - 2] = 2;
  State t = State::from_json(doc, default_config());
  t.apply(duct_tape(BLUE));
  REQUIRE(known_in(t, 1, boxes_place(0, BLUE)) == cards({"mom", "dad"}));
  REQUIRE(known_in(t, 0, boxes_place(0, BLUE)).empty());
}

TEST_CASE("knowledge: a seat that put cards under the pile with Jackie knows who draws them",
          "[rocket_squad][hidden][knowledge][jackie]") {
  State s = position(R"({"hands":[{"cards":["jackie"]},{"cards":[]}],"draw_top":["mom","dad","crew"]})");
  s.apply(action::kPlayJackie);
  s.apply(jackie_keep(1, 0));  // Dad kept (secretly); Mom and Crew under the pile
  REQUIRE(known_in(s, 1, hand_place(0)).empty());
  REQUIRE(known_in(s, 1, places::kDrawPile).empty());
  REQUIRE(known_in(s, 0, places::kDrawPile) == cards({"mom", "crew"}));
  // Deal the pile down to those two: the next draws are Crew, then Mom.
  Json doc = s.to_json();
  Json pile = Json::array(), known = Json::array(), counted = Json::array();
  for (int i = 0; i < 2; ++i) {
    pile.push_back(doc["draw_pile"][i]);
    known.push_back(doc["draw_known_by"][i]);
    counted.push_back(0);
  }
  for (std::size_t i = 2; i < doc["draw_pile"].size(); ++i)
    doc["discard_pile"].push_back(doc["draw_pile"][i]);
  doc["draw_pile"] = pile;
  doc["draw_known_by"] = known;
  doc["draw_counted_by"] = counted;
  reset_deck(doc);
  doc["turn_player"] = 1;
  doc["decider"] = 1;
  doc["turn"] = doc["turn"].get<int>() + 1;
  doc["hands"][1]["cards"] = Json::array({"uncle", "uncle", "uncle"});
  doc["hands"][1]["known_by"] = Json::array({0, 0, 0});
  for (int k = 0; k < 3; ++k)
    doc["discard_pile"].erase(
        std::find(doc["discard_pile"].begin(), doc["discard_pile"].end(), Json("uncle")));
  State t = State::from_json(doc, default_config());
  t.apply(action::kEndTurn);  // player 1 draws Crew
  REQUIRE(known_in(t, 0, hand_place(1)) == cards({"crew"}));
}

TEST_CASE("knowledge: a reshuffled draw pile is known to everybody as cards, not as an order",
          "[rocket_squad][hidden][knowledge][deck]") {
  // The draw pile holds 3 cards; player 0 draws them and the discards become the new pile.
  const std::size_t n = position(kDadAndJack).draw_pile().count;
  State s = three_cards_left();
  s.apply(action::kEndTurn);
  REQUIRE(s.draw_pile().count == n - 3);
  const std::vector<CardType> pile_cards = known_in(s, -1, places::kDrawPile);
  REQUIRE(known_in(s, 0, places::kDrawPile) == pile_cards);
  REQUIRE(known_in(s, 1, places::kDrawPile) == pile_cards);
  // Player 1 draws 3 cards: it knows exactly what is left; player 0 knows, of each card,
  // 3 copies fewer than there were (any of them may have been drawn).
  s.apply(action::kEndTurn);
  REQUIRE(known_in(s, 1, places::kDrawPile) == known_in(s, -1, places::kDrawPile));
  std::map<CardType, int> before;
  for (CardType t : pile_cards) ++before[t];
  std::vector<CardType> expected;
  for (const auto& [t, copies] : before)
    for (int k = 3; k < copies; ++k) expected.push_back(t);
  REQUIRE(known_in(s, 0, places::kDrawPile) == expected);
  // Resamples keep those cards in the pile but not its order.
  bool reordered = false;
  for (uint64_t seed = 0; seed < 5; ++seed)
    for (int viewer = 0; viewer < 2; ++viewer) {
      State r = s;
      Rng rng(seed);
      r.redeterminize(viewer, rng);
      require_knowledge_kept(s, r, viewer);
      if (viewer == 1) REQUIRE(known_in(r, -1, places::kDrawPile) == known_in(s, -1, places::kDrawPile));
      reordered = reordered || r.draw_pile().cards != s.draw_pile().cards;
    }
  REQUIRE(reordered);
}

TEST_CASE("knowledge: over random games, every seat's knowledge is true and survives its resamples",
          "[rocket_squad][hidden][knowledge]") {
  Rng pick(5);
  int hidden_known = 0;  // known cards in other hands, boxes and the pile: the model is not empty
  for (int n = 2; n <= 4; ++n)
    for (uint64_t g = 0; g < 8; ++g) {
      State s(default_config(), n, derive_seed(77, g));
      while (!s.is_terminal()) {
        for (int viewer = 0; viewer < n; ++viewer) {
          CardPlaces known, truth;
          s.known_card_places(viewer, known);
          s.card_places(truth);
          REQUIRE(first_unsupported(known, truth) == nullptr);
          for (const CardPlace& c : known)
            hidden_known +=
                c.place == places::kDrawPile || (c.place >= places::kBoxes && c.place < places::kTable) ||
                (c.place >= places::kHand && c.place < places::kBoxes && c.place != hand_place(viewer));
          State r = s;
          r.redeterminize(viewer, pick);
          REQUIRE_NOTHROW(r.check_invariants());
          require_knowledge_kept(s, r, viewer);
          REQUIRE(r.current_player() == s.current_player());
          REQUIRE(r.observation_string(viewer) == s.observation_string(viewer));
          if (s.current_player() == viewer) REQUIRE(legal(r) == legal(s));
        }
        const auto moves = legal(s);
        s.apply(moves[pick.below(static_cast<uint32_t>(moves.size()))]);
      }
    }
  REQUIRE(hidden_known > 1000);
}

// ---------------------------------------------------------------------------------------------
// Resampled worlds are worlds the viewer cannot rule out (issue 29, items 2-4)
// ---------------------------------------------------------------------------------------------

namespace {

std::multiset<CardType> hand_cards(const State& s, int p) {
  const Hand& h = s.hand(p);
  return std::multiset<CardType>(h.cards.begin(), h.cards.begin() + h.count);
}

std::multiset<CardType> pile_cards(const State& s) {
  const DrawPile& d = s.draw_pile();
  return std::multiset<CardType>(d.cards.begin(), d.cards.begin() + d.count);
}

std::multiset<CardType> box_cards(const State& s) {
  std::multiset<CardType> out;
  for (int p = 0; p < s.num_players(); ++p)
    for (int loc = 0; loc < kNumLocations; ++loc) {
      const Rocket& r = s.rocket(p, loc);
      out.insert(r.boxes.begin(), r.boxes.begin() + r.num_boxes);
    }
  return out;
}

// Three players; players 0 and 1 have empty hands and boxes on their rockets (built from cards
// of the old deck, unknown to player 2); the draw pile is empty, every other card is in the
// discards. Player 0 ends the turn: the discards are reshuffled into a new deck, and player 0
// draws 4 cards from it, then player 1 does the same (player 2 sees neither draw).
State after_reshuffle(std::multiset<CardType>& new_deck) {
  Json doc = position(R"({"players":3,"hands":[{"cards":[]},{"cards":[]},
      {"cards":["mom","grandma","crew","ace"]}],
      "rockets":[{"blue":{"booster":"blue_5","boxes":4}},{"red":{"booster":"red_10","boxes":8}},{}]})")
                 .to_json();
  for (const Json& c : doc["draw_pile"]) doc["discard_pile"].push_back(c);
  doc["draw_pile"] = Json::array();
  doc["draw_known_by"] = Json::array();
  doc["draw_counted_by"] = Json::array();
  reset_deck(doc);
  State s = State::from_json(doc, default_config());
  const DiscardPile& d = s.discard_pile();
  new_deck = std::multiset<CardType>(d.cards.begin(), d.cards.begin() + d.count);
  s.apply(action::kEndTurn);  // reshuffle; player 0 draws 4
  s.apply(action::kEndTurn);  // player 1 draws 4
  REQUIRE(s.turn_player() == 2);
  REQUIRE(s.hand(0).count == 4);
  REQUIRE(s.hand(1).count == 4);
  return s;
}

bool includes(const std::multiset<CardType>& big, const std::multiset<CardType>& small) {
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

}  // namespace

TEST_CASE("redeterminize: after a reshuffle the new deck holds only cards that were in the discards",
          "[rocket_squad][hidden][knowledge][deck][redeterminize]") {
  std::multiset<CardType> new_deck;
  const State s = after_reshuffle(new_deck);
  const std::multiset<CardType> boxes = box_cards(s);
  for (uint64_t seed = 0; seed < 200; ++seed) {
    State r = s;
    Rng rng(seed);
    r.redeterminize(2, rng);
    REQUIRE_NOTHROW(r.check_invariants());
    require_knowledge_kept(s, r, 2);
    // The new deck is the draw pile plus the 8 cards players 0 and 1 drew from it: exactly the
    // old discards. The boxes (old cards) stay out of it.
    std::multiset<CardType> deck = pile_cards(r);
    for (int p = 0; p < 2; ++p)
      for (CardType t : hand_cards(r, p)) deck.insert(t);
    REQUIRE(deck == new_deck);
    REQUIRE(box_cards(r) == boxes);
  }
  // Player 0 knows its own 4 cards: its worlds give the pile and player 1 the rest of the deck.
  for (uint64_t seed = 0; seed < 50; ++seed) {
    State r = s;
    Rng rng(seed);
    r.redeterminize(0, rng);
    require_knowledge_kept(s, r, 0);
    std::multiset<CardType> rest = pile_cards(r);
    for (CardType t : hand_cards(r, 1)) rest.insert(t);
    std::multiset<CardType> expected = new_deck;
    for (CardType t : hand_cards(s, 0)) expected.erase(expected.find(t));
    REQUIRE(rest == expected);
  }
}

TEST_CASE("redeterminize: the pile holds only cards of the new deck, also after plays from mixed hands",
          "[rocket_squad][hidden][knowledge][deck][redeterminize]") {
  // Random play after the reshuffle, until the pile runs out: hands mix the new deck's cards with
  // older ones (player 2's), and cards leave them unseen or face up. Every world's pile holds
  // only cards of the new deck.
  int untracked = 0;  // deck cards the table lost track of: the hard case was reached
  for (uint64_t game = 0; game < 6; ++game) {
    std::multiset<CardType> new_deck;
    State s = after_reshuffle(new_deck);
    Rng pick(game);
    while (!s.is_terminal() && s.draw_pile().count > 4) {
      untracked += s.deck().untracked > 0;
      for (int viewer = 0; viewer < 3; ++viewer) {
        State r = s;
        r.redeterminize(viewer, pick);
        REQUIRE_NOTHROW(r.check_invariants());
        require_knowledge_kept(s, r, viewer);
        REQUIRE(includes(new_deck, pile_cards(r)));
      }
      const auto moves = legal(s);
      s.apply(moves[pick.below(static_cast<uint32_t>(moves.size()))]);
    }
  }
  REQUIRE(untracked > 0);
}

TEST_CASE("redeterminize: another seat's Jackie cards stay at the bottom of the pile",
          "[rocket_squad][hidden][knowledge][jackie][redeterminize]") {
  Json doc = position(R"({"players":3,"hands":[{"cards":[]},{"cards":["jackie"]},
      {"cards":["uncle","crew","ace","dad"]}]})")
                 .to_json();
  for (const Json& c : doc["draw_pile"]) doc["discard_pile"].push_back(c);
  doc["draw_pile"] = Json::array();
  doc["draw_known_by"] = Json::array();
  doc["draw_counted_by"] = Json::array();
  reset_deck(doc);
  State s = State::from_json(doc, default_config());
  s.apply(action::kEndTurn);  // reshuffle: everybody knows the pile's cards; player 0 draws 4
  s.apply(action::kPlayJackie);
  while (s.phase() == Phase::kReaction) s.apply(action::kNoBlock);
  REQUIRE(s.phase() == Phase::kJackieKeep);
  s.apply(jackie_keep(0, 0));
  REQUIRE(s.draw_pile().known_by[0] == 2);
  REQUIRE(s.draw_pile().known_by[1] == 2);
  for (int viewer : {0, 2})
    for (uint64_t seed = 0; seed < 200; ++seed) {
      State r = s;
      Rng rng(seed);
      r.redeterminize(viewer, rng);
      REQUIRE_NOTHROW(r.check_invariants());
      require_knowledge_kept(s, r, viewer);
      for (int i = 0; i < r.draw_pile().count; ++i)
        REQUIRE(((r.draw_pile().known_by[i] >> 1) & 1) == (i < 2));
    }
  // Player 1's own worlds keep the two cards themselves there.
  for (uint64_t seed = 0; seed < 20; ++seed) {
    State r = s;
    Rng rng(seed);
    r.redeterminize(1, rng);
    REQUIRE(r.draw_pile().cards[0] == s.draw_pile().cards[0]);
    REQUIRE(r.draw_pile().cards[1] == s.draw_pile().cards[1]);
  }
}

TEST_CASE(
    "redeterminize: a card a third player knew in Jack's victim's hand stays in the thief's or the victim's",
    "[rocket_squad][hidden][knowledge][jack][redeterminize]") {
  // Player 2 knows the Dad in player 1's hand; player 0 steals one card of it at random.
  const State base = position(R"({"players":3,"hands":[{"cards":["jack","uncle"]},
      {"cards":["dad","uncle","crew","jackie"],"known_by":[4,0,0,0]},{"cards":["ace","crew"]}]})");
  int dad_stolen = 0;
  for (uint64_t game = 1; game <= 16; ++game) {
    State s = with_seed(base, game);
    s.apply(jack(1));
    REQUIRE(s.phase() == Phase::kTurn);
    dad_stolen += s.hand_count(0, kDad);
    for (uint64_t seed = 0; seed < 200; ++seed) {
      State r = s;
      Rng rng(seed);
      r.redeterminize(2, rng);
      REQUIRE_NOTHROW(r.check_invariants());
      require_knowledge_kept(s, r, 2);
      REQUIRE(r.hand_count(0, kDad) + r.hand_count(1, kDad) >= 1);
    }
  }
  REQUIRE(dad_stolen > 0);  // some games took the Dad, some did not
  REQUIRE(dad_stolen < 16);
}

TEST_CASE("json: the deck bookkeeping and whereabouts round trip; bad values are rejected, naming the field",
          "[rocket_squad][hidden][knowledge][json]") {
  // A 3-player game after a reshuffle with marked hands, and a Jack steal that leaves player 2
  // a whereabouts fact.
  std::multiset<CardType> new_deck;
  State s = after_reshuffle(new_deck);
  // Player 1's Dad and Uncle are deck cards; one more deck card is untracked.
  Json doc = position(R"({"players":3,"hands":[{"cards":["jack","uncle"]},
      {"cards":["dad","uncle","crew","jackie"],"known_by":[4,0,0,0]},{"cards":["ace","crew"]}]})")
                 .to_json();
  doc["hands"][1]["from_deck"] = Json::array({1, 1, 0, 0});
  for (const char* c : {"dad", "uncle", "blue_2"}) doc["deck"]["cards"].push_back(c);
  doc["deck"]["untracked"] = 1;
  const State base = State::from_json(doc, default_config());
  REQUIRE(base.deck().untracked == 1);
  REQUIRE(base.hand(1).from_deck[0] == 1);
  State jacked = with_seed(base, 1);
  jacked.apply(jack(1));
  REQUIRE(jacked.num_whereabouts() >= 1);
  for (const State* state : {&s, &jacked}) {
    const Json doc = state->to_json();
    REQUIRE(State::from_json(doc, default_config()).to_json() == doc);
  }
  const Json good = jacked.to_json();
  REQUIRE(good["whereabouts"].size() >= 1);
  const auto rejects = [&](const std::function<void(Json&)>& edit, const std::string& field) {
    Json doc = good;
    edit(doc);
    INFO("expected a rejection naming " << field);
    REQUIRE_THROWS_AS(State::from_json(doc, default_config()), SerializationError);
    REQUIRE_THROWS_WITH(State::from_json(doc, default_config()), Catch::Contains(field));
  };
  rejects([](Json& d) { d["draw_from_deck"][0] = 2; }, "'draw_from_deck[0]'");
  rejects([](Json& d) { d["draw_from_deck"] = Json::array({1}); }, "'draw_from_deck'");
  rejects(
      [](Json& d) {
        d["hands"][1]["from_deck"] = Json::array({1, 1, 1, 1, 1, 1});
      },
      "'hands[1].from_deck'");
  rejects(
      [](Json& d) {
        d["rockets"][0]["blue"] = {{"booster", "blue_5"}, {"boxes", {"dad"}}, {"boxes_from_deck", {3}}};
      },
      "'rockets[0].blue.boxes_from_deck[0]'");
  rejects([](Json& d) { d["deck"]["cards"][0] = "pizza"; }, "'deck.cards[0]'");
  rejects([](Json& d) { d["deck"]["untracked"] = 500; }, "'deck.untracked'");
  rejects([](Json& d) { d["deck"]["colour"] = "red"; }, "'deck.colour'");
  rejects([](Json& d) { d["deck"]["untracked"] = d["deck"]["untracked"].get<int>() + 1; }, "untracked");
  rejects([](Json& d) { d["deck"]["cards"] = Json::array(); }, "marked from the deck");
  rejects([](Json& d) { d["jackie_from_deck"] = Json::array({1}); }, "'jackie_from_deck'");
  rejects([](Json& d) { d["whereabouts"][0]["knower"] = 7; }, "'whereabouts[0].knower'");
  rejects([](Json& d) { d["whereabouts"][0]["hands"] = Json::array({2}); }, "'whereabouts[0].hands'");
  rejects([](Json& d) { d["whereabouts"][0]["hands"] = Json::array(); }, "'whereabouts[0].hands'");
  rejects([](Json& d) { d["whereabouts"][0]["card"] = "mom"; }, "none of its hands");
  rejects([](Json& d) { d["whereabouts"][0]["seen"] = true; }, "'whereabouts[0].seen'");
  rejects([](Json& d) { d["whereabouts"][0]["or_boxes"] = "yes"; }, "'whereabouts[0].or_boxes'");
  rejects(
      [](Json& d) {
        for (int k = 0; k < kMaxWhereabouts; ++k) d["whereabouts"].push_back(d["whereabouts"][0]);
      },
      "'whereabouts'");
}

TEST_CASE("redeterminize: a card a seat knew in a hand that built a box stays in that hand or in a box",
          "[rocket_squad][hidden][knowledge][box][redeterminize]") {
  // Player 1 knows the Dad in player 0's hand (it lost it to Jack). Player 0 builds a box face
  // down: player 1 cannot tell which card, so the Dad is in the hand or that box, and its
  // worlds keep it there (before, they could put it in the draw pile).
  for (const char* built : {"dad", "uncle"}) {
    INFO("player 0 builds " << built);
    State s = position(R"({"hands":[{"cards":["dad","uncle","crew"],"known_by":[2,0,0]},{"cards":[]}],
        "rockets":[{"blue":{"booster":"blue_5"}},{}]})");
    s.apply(build(built, BLUE));
    REQUIRE(known_in(s, 1, hand_place(0)).empty());
    REQUIRE(s.num_whereabouts() == 1);
    REQUIRE(s.whereabouts(0).card == kDad);
    REQUIRE(s.whereabouts(0).knower == 1);
    REQUIRE(s.whereabouts(0).or_boxes);
    int dad_in_box = 0;
    for (uint64_t seed = 0; seed < 200; ++seed) {
      State r = s;
      Rng rng(seed);
      r.redeterminize(1, rng);
      REQUIRE_NOTHROW(r.check_invariants());
      require_knowledge_kept(s, r, 1);
      const bool in_box = r.rocket(0, BLUE).boxes[0] == kDad;
      REQUIRE(r.hand_count(0, kDad) + (in_box ? 1 : 0) >= 1);
      dad_in_box += in_box;
    }
    REQUIRE(dad_in_box > 0);  // the box may be the Dad: the worlds do not rule it out
    const Json doc = s.to_json();
    REQUIRE(doc["whereabouts"][0]["or_boxes"] == true);
    REQUIRE(State::from_json(doc, default_config()).to_json() == doc);
  }
  // A Dad box leaving the table face up may have been that card: the fact is dropped.
  State s = position(R"({"hands":[{"cards":["dad","uncle","crew"],"known_by":[2,0,0]},
      {"cards":["water_balloons"]}],"rockets":[{"blue":{"booster":"blue_5"}},{}]})");
  s.apply(build("dad", BLUE));
  s.apply(action::kEndTurn);
  REQUIRE(s.num_whereabouts() == 1);
  s.apply(balloons(BLUE));
  while (s.phase() == Phase::kReaction) s.apply(action::kNoBlock);
  REQUIRE(s.rocket(0, BLUE).num_boxes == 0);
  REQUIRE(s.num_whereabouts() == 0);
  REQUIRE_NOTHROW(s.check_invariants());
}

TEST_CASE("redeterminize: a whereabouts card may be an untracked deck card",
          "[rocket_squad][hidden][knowledge][deck][jack][redeterminize]") {
  // Player 2 knows the only hidden Dad is in player 1's hand. The deck (after a reshuffle) holds
  // that Dad and a Mom; the Mom is still in the pile (marked), the Dad left a mixed hand untracked.
  // A world may deal the Dad to the deck's marked slot (the Mom untracked): the whereabouts then
  // take it back, with a Mom for the marked slot, never breaking the deck's bookkeeping.
  Json doc = position(R"({"players":3,"hands":[{"cards":["jack"]},{"cards":["dad","uncle","crew"]},
      {"cards":["ace"]}],"discard_pile":["dad","dad"]})")
                 .to_json();
  reset_deck(doc);
  const Json& pile = doc["draw_pile"];
  const auto mom = std::find(pile.begin(), pile.end(), Json("mom"));
  REQUIRE(mom != pile.end());
  doc["draw_from_deck"] = std::vector<int>(pile.size(), 0);
  doc["draw_from_deck"][static_cast<std::size_t>(mom - pile.begin())] = 1;
  doc["deck"] = {{"cards", {"dad", "mom"}}, {"untracked", 1}};
  doc["whereabouts"] = Json::array({{{"card", "dad"}, {"knower", 2}, {"hands", {1}}}});
  const State s = State::from_json(doc, default_config());
  for (uint64_t seed = 0; seed < 200; ++seed) {
    State r = s;
    Rng rng(seed);
    r.redeterminize(2, rng);
    REQUIRE_NOTHROW(r.check_invariants());
    require_knowledge_kept(s, r, 2);
    REQUIRE(r.hand_count(1, kDad) == 1);
    REQUIRE(r.num_whereabouts() == 1);
  }
}
