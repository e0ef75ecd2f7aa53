// Launchpad 23: one test per rule of the rulebook and per ruling.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/vector_env.h"
#include "games/launchpad23/launchpad23_game.h"

using namespace rocketgym;
using namespace rocketgym::launchpad23;

namespace {

const Config& config() {
  static const Config c =
      load_config(ConfigNode::parse(builtin_game_config("launchpad23"), "launchpad23.yaml"));
  return c;
}

int take(int colour, int size) { return kTakeBase + piece_type(colour, size); }
int steal(int space, int colour, int size) {
  return kStealBase + space * kPieceTypes + piece_type(colour, size);
}
int move(int space, int colour, int size, int direction) {
  return kMoveBase + (space * kPieceTypes + piece_type(colour, size)) * kDirections + direction;
}
constexpr int kRed = 0, kYellow = 1, kGreen = 2, kBlue = 3, kBlack = 4;
constexpr int kNorth = 0, kEast = 1, kSouth = 2, kWest = 3;

// A position: `num_players` seated, setup done, player `mover` to act in `phase`
// with the given dice; the board starts empty (all pieces in the Bank).
State position(int num_players, const std::string& phase, const std::string& size_face,
               const std::string& colour_face, int moves_left = 0, int mover = 0) {
  Json doc = State(config(), num_players, 1).to_json();
  doc["phase"] = phase;
  doc["current_player"] = mover;
  doc["dice"] = {{"size", size_face}, {"colour", colour_face}};
  doc["moves_left"] = moves_left;
  std::vector<std::string> choices(static_cast<std::size_t>(num_players), "small");
  doc["setup_choices"] = choices;
  return State::from_json(doc, config());
}

void put(State& s, int space, int colour, int size, int count = 1) {
  s.mutable_board().bank[piece_type(colour, size)] -= static_cast<uint8_t>(count);
  s.mutable_board().spaces[space][piece_type(colour, size)] += static_cast<uint8_t>(count);
}

std::vector<Action> legal(const State& s) {
  uint8_t mask[kNumActions];
  s.legal_actions_mask(mask);
  std::vector<Action> out;
  for (int a = 0; a < kNumActions; ++a)
    if (mask[a]) out.push_back(a);
  return out;
}

bool contains(const std::vector<Action>& v, Action a) { return std::find(v.begin(), v.end(), a) != v.end(); }

// Four pieces of a rocket of `size` on `space`, missing `missing_colour`.
void almost_rocket(State& s, int space, int size, int missing_colour) {
  for (int c = 0; c < kColours; ++c)
    if (c != missing_colour) put(s, space, c, size);
}

}  // namespace

TEST_CASE("ruling 1: pads are corners clockwise from the top-left; two players sit opposite") {
  REQUIRE(State(config(), 2, 1).pad_of(0) == 0);
  REQUIRE(State(config(), 2, 1).pad_of(1) == 8);
  const State three(config(), 3, 1);
  REQUIRE(three.pad_of(1) == 2);
  REQUIRE(three.pad_of(2) == 8);
  REQUIRE(three.owner_of(6) == -1);  // unowned corner: storage
  const State four(config(), 4, 1);
  REQUIRE(four.pad_of(3) == 6);
  REQUIRE(four.owner_of(4) == -1);
}

TEST_CASE("ruling 2: secret setup choices are revealed together; leftovers stay in the Bank") {
  State s(config(), 3, 9);
  REQUIRE(s.current_player() == 0);
  REQUIRE(legal(s) == std::vector<Action>{0, 1, 2});
  s.apply(kSetupBase + kLarge);
  REQUIRE(s.current_player() == 1);
  // Player 0's choice is not on the board yet, and player 1's view does not show it.
  REQUIRE(s.board().pieces_on(s.pad_of(0)) == 0);
  std::vector<float> seen(Encoder::kChannels * 9), resampled(Encoder::kChannels * 9);
  Encoder::encode(s, 1, seen.data());
  State other = s;
  Rng rng(3);
  for (int i = 0; i < 10; ++i) {
    other.redeterminize(1, rng);
    Encoder::encode(other, 1, resampled.data());
    REQUIRE(seen == resampled);
  }
  s.apply(kSetupBase + kSmall);
  s.apply(kSetupBase + kMedium);
  REQUIRE(s.board().spaces[s.pad_of(0)][piece_type(kRed, kLarge)] == 1);
  REQUIRE(s.board().spaces[s.pad_of(1)][piece_type(kYellow, kSmall)] == 1);
  REQUIRE(s.board().spaces[s.pad_of(2)][piece_type(kGreen, kMedium)] == 1);
  REQUIRE(s.board().bank[piece_type(kRed, kSmall)] == 2);  // leftovers returned
  REQUIRE(s.board().bank[piece_type(kRed, kLarge)] == 1);
  REQUIRE(s.phase() == Phase::kNewPart);
  REQUIRE(s.current_player() == 0);  // ruling 3: seat 0 starts
}

TEST_CASE("new part: a plain roll adds exactly that piece; two moves follow") {
  State s = position(2, "new_part", "M", "blue");
  REQUIRE(legal(s) == std::vector<Action>{take(kBlue, kMedium)});
  s.apply(take(kBlue, kMedium));
  REQUIRE(s.board().spaces[kFactory][piece_type(kBlue, kMedium)] == 1);
  REQUIRE(s.board().bank[piece_type(kBlue, kMedium)] == 1);
  REQUIRE(s.phase() == Phase::kMoves);
  REQUIRE(s.moves_left() == 2);
}

TEST_CASE("new part: the Atom lets the roller pick the colour and gives an extra move") {
  State s = position(2, "new_part", "L", "atom");
  REQUIRE(legal(s).size() == 5);
  s.apply(take(kBlack, kLarge));
  REQUIRE(s.moves_left() == 3);
}

TEST_CASE("new part: a two-pyramid face lets the roller pick the size and gives an extra move") {
  State s = position(2, "new_part", "S/L", "green");
  REQUIRE(legal(s) == std::vector<Action>{take(kGreen, kSmall), take(kGreen, kLarge)});
  s.apply(take(kGreen, kLarge));
  REQUIRE(s.moves_left() == 3);
  State both = position(2, "new_part", "M/L", "atom");
  both.apply(take(kRed, kMedium));
  REQUIRE(both.moves_left() == 4);  // two sizes and the atom: 2 + 1 + 1
}

TEST_CASE("ruling 4: choices are limited to pieces in the Bank when any matching piece is there") {
  State s = position(2, "new_part", "S", "atom");
  put(s, 1, kRed, kSmall, 2);  // no small red left in the Bank
  const auto options = legal(s);
  REQUIRE(options.size() == 4);
  REQUIRE_FALSE(contains(options, take(kRed, kSmall)));
  REQUIRE_FALSE(contains(options, kReroll));
  REQUIRE_FALSE(contains(options, steal(1, kRed, kSmall)));
}

TEST_CASE("parts shortage: re-roll once or steal a matching piece from any space, pads included") {
  State s = position(2, "new_part", "M", "yellow");
  put(s, 8, kYellow, kMedium);  // on the opponent's pad
  put(s, 5, kYellow, kMedium);  // in a storage depot
  REQUIRE(s.shortage());
  REQUIRE(legal(s) == std::vector<Action>{kReroll, steal(5, kYellow, kMedium), steal(8, kYellow, kMedium)});
  State stolen = s;
  stolen.apply(steal(8, kYellow, kMedium));
  REQUIRE(stolen.board().spaces[8][piece_type(kYellow, kMedium)] == 0);
  REQUIRE(stolen.board().spaces[kFactory][piece_type(kYellow, kMedium)] == 1);
  REQUIRE(stolen.moves_left() == 2);
}

TEST_CASE("parts shortage: after the re-roll the second roll must be used, stealing if needed") {
  State s = position(2, "new_part", "M", "yellow");
  put(s, 5, kYellow, kMedium, 2);
  // Make every piece scarce so the second roll is a shortage too, whatever it is.
  for (int t = 0; t < kPieceTypes; ++t) {
    const int space = t == piece_type(kYellow, kMedium) ? 5 : 1;
    s.mutable_board().spaces[space][t] = 2;
    s.mutable_board().bank[t] = 0;
  }
  s.apply(kReroll);
  REQUIRE(s.rerolled());
  REQUIRE(s.phase() == Phase::kNewPart);
  const auto options = legal(s);
  REQUIRE_FALSE(contains(options, kReroll));
  REQUIRE_FALSE(options.empty());
  for (Action a : options) REQUIRE((a >= kStealBase && a < kMoveBase));
  s.apply(options.front());
  REQUIRE(s.moves_left() == s.roll().moves());  // moves come from the roll finally used
}

TEST_CASE(
    "parts shortage: a two-size face with one size gone offers take, steal of the missing size, or re-roll") {
  State s = position(2, "new_part", "S/M", "red");
  put(s, 3, kRed, kSmall, 2);  // small red is gone from the Bank, medium red is there
  put(s, 1, kRed, kMedium);    // one medium red on the board: not stealable, the Bank has one
  REQUIRE(legal(s) == std::vector<Action>{take(kRed, kMedium), kReroll, steal(3, kRed, kSmall)});
  s.apply(steal(3, kRed, kSmall));
  REQUIRE(s.board().spaces[kFactory][piece_type(kRed, kSmall)] == 1);
  REQUIRE(s.moves_left() == 3);
}

TEST_CASE("moves: one space orthogonally, any piece of a tower, never from another player's pad") {
  State s = position(3, "moves", "S", "red", 2);
  put(s, 3, kBlue, kLarge);  // a storage depot tower of three
  put(s, 3, kRed, kSmall);
  put(s, 3, kGreen, kMedium);
  put(s, 2, kBlack, kSmall);   // pad of player 1
  put(s, 6, kYellow, kSmall);  // unowned corner with 3 players: storage
  const auto options = legal(s);
  REQUIRE(contains(options, move(3, kBlue, kLarge, kNorth)));  // the bottom of the tower moves too
  REQUIRE(contains(options, move(3, kBlue, kLarge, kEast)));   // into the Factory
  REQUIRE(contains(options, move(3, kBlue, kLarge, kSouth)));
  REQUIRE_FALSE(contains(options, move(3, kBlue, kLarge, kWest)));  // off the board
  REQUIRE(contains(options, move(6, kYellow, kSmall, kNorth)));
  for (int d = 0; d < kDirections; ++d) REQUIRE_FALSE(contains(options, move(2, kBlack, kSmall, d)));
  REQUIRE_THROWS_AS(s.apply(move(2, kBlack, kSmall, kWest)), IllegalAction);
  s.apply(move(3, kBlue, kLarge, kNorth));
  REQUIRE(s.board().spaces[0][piece_type(kBlue, kLarge)] == 1);  // into a pad: allowed
  REQUIRE(s.moves_left() == 1);
}

TEST_CASE("moves: a player may move pieces off their own pad and into another player's rocket") {
  State s = position(2, "moves", "S", "red", 2, 1);
  put(s, 8, kRed, kLarge);
  REQUIRE(contains(legal(s), move(8, kRed, kLarge, kNorth)));
  s.apply(move(8, kRed, kLarge, kNorth));
  s.apply(move(5, kRed, kLarge, kNorth));
  REQUIRE(s.board().spaces[2][piece_type(kRed, kLarge)] == 1);
}

TEST_CASE("moves: unused moves may be left; the turn passes clockwise when moves run out") {
  State s = position(3, "moves", "S", "red", 2, 1);
  put(s, 4, kRed, kSmall);
  s.apply(kEndTurn);
  REQUIRE(s.current_player() == 2);
  REQUIRE(s.phase() == Phase::kNewPart);
  REQUIRE(s.turn() == 1);
  State t = position(3, "moves", "S", "red", 1, 2);
  put(t, 4, kRed, kSmall);
  t.apply(move(4, kRed, kSmall, kNorth));
  REQUIRE(t.current_player() == 0);  // wraps around clockwise
}

TEST_CASE("Total System Failure: one move returns every piece on your own pad to the Bank") {
  State s = position(2, "moves", "S", "red", 2);
  put(s, 0, kRed, kSmall);
  put(s, 0, kBlue, kLarge, 2);
  put(s, 8, kGreen, kMedium);
  s.apply(kTotalSystemFailure);
  REQUIRE(s.board().pieces_on(0) == 0);
  REQUIRE(s.board().pieces_on(8) == 1);  // other pads untouched
  REQUIRE(s.board().bank[piece_type(kBlue, kLarge)] == 2);
  REQUIRE(s.moves_left() == 1);
  REQUIRE_FALSE(contains(legal(s), kTotalSystemFailure));  // nothing left to return
}

TEST_CASE("winning: exactly five pyramids, one of each colour, all one size, checked after every move") {
  State s = position(2, "moves", "S", "red", 3);
  almost_rocket(s, 0, kMedium, kBlack);
  put(s, 1, kBlack, kMedium);
  s.apply(move(1, kBlack, kMedium, kWest));
  REQUIRE(s.is_terminal());
  REQUIRE(s.winner() == 0);
  float r[2];
  s.returns(r);
  REQUIRE(r[0] == 1.0f);
  REQUIRE(r[1] == -1.0f);
}

TEST_CASE("winning: mixed sizes, a repeated colour or a sixth piece is no rocket") {
  State s = position(2, "moves", "S", "red", 4);
  almost_rocket(s, 0, kMedium, kBlack);
  put(s, 1, kBlack, kLarge);
  s.apply(move(1, kBlack, kLarge, kWest));  // wrong size
  REQUIRE_FALSE(s.is_terminal());
  put(s, 1, kBlack, kMedium);
  put(s, 0, kRed, kMedium);  // a sixth piece, a repeated colour
  REQUIRE_FALSE(s.board().is_complete_rocket(0));
  // Moving the extra pieces away completes the rocket: removal counts too.
  s.apply(move(0, kBlack, kLarge, kEast));
  REQUIRE_FALSE(s.is_terminal());
  s.apply(move(0, kRed, kMedium, kEast));
  REQUIRE_FALSE(s.is_terminal());
  s.apply(move(1, kBlack, kMedium, kWest));
  REQUIRE(s.is_terminal());
  REQUIRE(s.winner() == 0);
}

TEST_CASE("ruling 8: completing another player's rocket makes them win at once") {
  State s = position(3, "moves", "S", "red", 2);
  almost_rocket(s, 2, kSmall, kGreen);  // player 1's pad
  put(s, 1, kGreen, kSmall);
  s.apply(move(1, kGreen, kSmall, kEast));
  REQUIRE(s.is_terminal());
  REQUIRE(s.winner() == 1);
}

TEST_CASE("ruling 8: if one move completes two pads, the moving player's pad wins") {
  // Each action changes at most one pad (pads are corners, never adjacent), so
  // this can only be set up by hand: both pads complete, then any move checks.
  State s = position(3, "moves", "S", "red", 2);
  almost_rocket(s, 0, kSmall, -1);
  almost_rocket(s, 2, kLarge, -1);  // player 1's pad
  put(s, 4, kRed, kMedium);
  s.apply(move(4, kRed, kMedium, kSouth));
  REQUIRE(s.winner() == 0);
}

TEST_CASE("winning: moving a spare piece off your own pad can complete it") {
  State s = position(2, "moves", "S", "red", 2);
  almost_rocket(s, 0, kSmall, -1);
  put(s, 0, kRed, kLarge);  // a sixth piece spoils it
  REQUIRE_FALSE(s.board().is_complete_rocket(0));
  s.apply(move(0, kRed, kLarge, kEast));
  REQUIRE(s.winner() == 0);
}

TEST_CASE("a steal that leaves a finished rocket on a pad wins for that pad's owner") {
  State s = position(2, "new_part", "M", "black");
  almost_rocket(s, 8, kSmall, -1);
  put(s, 8, kBlack, kMedium, 2);  // two medium blacks spoil player 1's small rocket
  REQUIRE(s.shortage());
  s.apply(steal(8, kBlack, kMedium));
  REQUIRE_FALSE(s.is_terminal());  // still one medium black too many
  State t = position(2, "new_part", "M", "black");
  almost_rocket(t, 8, kSmall, -1);
  put(t, 8, kBlack, kMedium);
  put(t, 5, kBlack, kMedium);
  t.apply(steal(8, kBlack, kMedium));
  REQUIRE(t.is_terminal());
  REQUIRE(t.winner() == 1);
}

TEST_CASE("ruling 9: the turn limit ends the game as a truncated draw") {
  const Config short_game = load_config(ConfigNode::parse("max_turns: 3\n", "short.yaml"));
  State s(short_game, 2, 5);
  s.apply(kSetupBase);
  s.apply(kSetupBase);
  Rng rng(1);
  int turns = 0;
  while (!s.is_terminal()) {
    const Action a = s.phase() == Phase::kMoves ? kEndTurn : legal(s).front();
    if (a == kEndTurn) ++turns;
    s.apply(a);
  }
  REQUIRE(turns == 3);
  REQUIRE(s.is_truncated());
  float r[2];
  s.returns(r);
  REQUIRE(r[0] == 0.0f);
  REQUIRE(r[1] == 0.0f);
}

TEST_CASE("rank returns for four players: the winner +1, the others -1/3") {
  State s = position(4, "moves", "S", "red", 2, 3);
  almost_rocket(s, 6, kLarge, kBlue);
  put(s, 7, kBlue, kLarge);
  s.apply(move(7, kBlue, kLarge, kWest));
  float r[4];
  s.returns(r);
  REQUIRE(r[3] == 1.0f);
  REQUIRE(r[0] == Approx(-1.0 / 3));
  int scores[4];
  s.scores(scores);
  REQUIRE(scores[3] == 1);
}

TEST_CASE("illegal actions throw and change nothing") {
  State s = position(2, "moves", "S", "red", 2);
  const Json before = s.to_json();
  REQUIRE_THROWS_WITH(s.apply(kSetupBase), Catch::Contains("not legal"));
  REQUIRE_THROWS_AS(s.apply(-1), IllegalAction);
  REQUIRE_THROWS_AS(s.apply(kNumActions), IllegalAction);
  REQUIRE(s.to_json() == before);
}

TEST_CASE("state documents: hand-written positions load; bad ones are clear errors") {
  auto game = load_game("launchpad23");
  State s = position(2, "moves", "M/L", "atom", 4);
  put(s, kFactory, kRed, kSmall);
  put(s, kFactory, kBlack, kLarge);
  const std::string text = s.to_json().dump();
  REQUIRE(text.find("\"Factory\":[\"RS\",\"KL\"]") != std::string::npos);
  auto loaded = game->state_from_json(text);
  REQUIRE(loaded->to_json() == s.to_json().dump(1));
  Json bad = s.to_json();
  bad["board"]["Factory"] = {"XX"};
  REQUIRE_THROWS_WITH(game->state_from_json(bad.dump()), Catch::Contains("unknown piece"));
  bad = s.to_json();
  bad["board"]["left"] = {"RS"};  // a third small red
  REQUIRE_THROWS_AS(game->state_from_json(bad.dump()), SerializationError);
  bad = s.to_json();
  bad["num_players"] = 7;
  REQUIRE_THROWS_WITH(game->state_from_json(bad.dump()), Catch::Contains("num_players"));
  // A setup choice is a size name or null; anything else is refused as such
  // (found by launchpad23_position: `true` escaped as a raw nlohmann type_error).
  for (const Json& choice : {Json(true), Json(2), Json::array(), Json::object()}) {
    bad = s.to_json();
    bad["setup_choices"] = Json::array({"large", choice});
    REQUIRE_THROWS_AS(game->state_from_json(bad.dump()), SerializationError);
    REQUIRE_THROWS_WITH(game->state_from_json(bad.dump()), Catch::Contains("setup_choices"));
  }
}

TEST_CASE("config: bad values and unknown keys name the key") {
  REQUIRE_THROWS_WITH(load_config(ConfigNode::parse("max_turns: 0\n", "c.yaml")),
                      Catch::Contains("c.yaml:1") && Catch::Contains("max_turns"));
  REQUIRE_THROWS_WITH(load_config(ConfigNode::parse("max_turn: 10\n", "c.yaml")),
                      Catch::Contains("max_turn"));
  REQUIRE_THROWS_WITH(load_config(ConfigNode::parse("reward: points\n", "c.yaml")),
                      Catch::Contains("reward"));
}

TEST_CASE("the heuristic bot clearly beats random play") {
  Rng rng(2026);
  int wins = 0, games = 200;
  for (int g = 0; g < games; ++g) {
    const int bot_seat = g % 2;
    State s(config(), 2, derive_seed(77, static_cast<uint64_t>(g)));
    while (!s.is_terminal()) {
      const auto options = legal(s);
      const Action a = s.current_player() == bot_seat
                           ? heuristic_action(s, rng)
                           : options[rng.below(static_cast<uint32_t>(options.size()))];
      s.apply(a);
    }
    wins += s.winner() == bot_seat;
  }
  WARN("launchpad23 heuristic vs random (2 players, seats rotated): " << wins << " of " << games << " won");
  REQUIRE(wins >= 180);
}

// The bot's one-step value of a board for `seat`, computed afresh from the
// public distances (the bot itself updates them per piece type).
double fresh_value(const State& s, const Board& board, int seat) {
  const int mine = rocket_distance(s, board, seat);
  if (mine == 0) return 1e6;
  int closest = 1 << 20;
  for (int p = 0; p < s.num_players(); ++p)
    if (p != seat) closest = std::min(closest, rocket_distance(s, board, p));
  return closest == 0 ? -1e6 : -mine + 0.4 * closest;
}

TEST_CASE("the heuristic bot's move is a best one-step move by distances computed afresh") {
  for (int players : {2, 4}) {
    Rng rng(9);
    int checked = 0;
    for (uint64_t seed = 31; checked < 300; ++seed) {
      State s(config(), players, seed);
      while (!s.is_terminal()) {
        const Action chosen = heuristic_action(s, rng);
        if (s.phase() != Phase::kSetup) {
          const int seat = s.current_player();
          // Standing still (ending the turn, re-rolling) keeps the position, when allowed.
          const bool may_stand = s.phase() == Phase::kMoves || s.is_legal(kReroll);
          const double still = fresh_value(s, s.board(), seat);
          double best = may_stand ? still : -std::numeric_limits<double>::infinity();
          double value_of_chosen = still;
          for (Action a : legal(s)) {
            if (a == kEndTurn || a == kReroll) continue;
            State after = s;
            after.apply(a);
            const double value = fresh_value(s, after.board(), seat);
            best = std::max(best, value);
            if (a == chosen) value_of_chosen = value;
          }
          INFO(players << " players, seed " << seed << ": " << s.action_to_string(chosen));
          REQUIRE(value_of_chosen == Approx(best));
          ++checked;
        }
        s.apply(chosen);
      }
    }
  }
}

TEST_CASE("the secret setup choice is not a public action; everything else is") {
  const State s(config(), 2, 1);
  for (int size = 0; size < kSizes; ++size) REQUIRE_FALSE(s.is_public_action(kSetupBase + size));
  REQUIRE(s.is_public_action(take(kRed, kSmall)));
  REQUIRE(s.is_public_action(kEndTurn));
}

TEST_CASE("the training shaping potential is minus the moves the rocket still needs") {
  State s = position(2, "moves", "S", "red", 3);
  // Empty board: every piece of the best size is in the Bank (3 moves each).
  CHECK(Game::shaping_potential(s, 0) == -15.0f);
  // Four of a medium rocket on pad 0 and the black one next to it: one move.
  almost_rocket(s, 0, kMedium, kBlack);
  put(s, 1, kBlack, kMedium);
  CHECK(Game::shaping_potential(s, 0) == -1.0f);
  // A piece that does not belong costs a move to clear.
  put(s, 0, kRed, kLarge);
  CHECK(Game::shaping_potential(s, 0) == -2.0f);
  s.apply(move(0, kRed, kLarge, kEast));
  s.apply(move(1, kBlack, kMedium, kWest));
  REQUIRE(s.winner() == 0);
  CHECK(Game::shaping_potential(s, 0) == 0.0f);
}

TEST_CASE("state documents: a live game cannot be truncated or past the turn limit") {
  auto game = load_game("launchpad23");
  Json doc = position(2, "moves", "M", "red", 2).to_json();
  doc["truncated"] = true;
  REQUIRE_THROWS_WITH(game->state_from_json(doc.dump()), Catch::Contains("truncated"));
  doc = position(2, "moves", "M", "red", 2).to_json();
  doc["turn"] = config().max_turns + 1;
  REQUIRE_THROWS_WITH(game->state_from_json(doc.dump()), Catch::Contains("turn limit"));
}

// Found by the launchpad23_position fuzz target (tests/fuzz/regressions/): a
// live game at the limit loaded, and its next turn ended one past the limit.
TEST_CASE("state documents: a live game cannot be at the turn limit") {
  auto game = load_game("launchpad23");
  Json doc = position(2, "moves", "M", "red", 2).to_json();
  doc["turn"] = config().max_turns;
  REQUIRE_THROWS_WITH(game->state_from_json(doc.dump()), Catch::Contains("turn limit"));
  doc["turn"] = config().max_turns - 1;
  auto s = game->state_from_json(doc.dump());
  s->apply(kEndTurn);
  REQUIRE(s->is_truncated());
  REQUIRE_NOTHROW(s->check_invariants());
}

TEST_CASE("knowledge: before the reveal a seat knows only its own setup choice") {
  auto game = load_game("launchpad23");
  auto s = game->new_state(3, 5);
  s->apply(kSetupBase + kLarge);   // player 0
  s->apply(kSetupBase + kMedium);  // player 1
  REQUIRE(s->card_places() == CardPlaces{{0, kLarge}, {1, kMedium}});
  REQUIRE(s->known_card_places(1) == CardPlaces{{1, kMedium}});
  REQUIRE(s->known_card_places(2).empty());
  // Player 1's view names its own choice and no other.
  const std::string view = s->observation_string(1);
  REQUIRE_THAT(view, Catch::Contains("secretly chose a medium"));
  REQUIRE_THAT(view, !Catch::Contains("large starting"));
  // A resample for player 1 keeps player 1's choice and may change player 0's.
  bool other_changed = false;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    auto world = s->clone();
    world->redeterminize(1, seed);
    const CardPlaces places = world->card_places();
    REQUIRE(places.size() == 2);
    REQUIRE(places[1] == CardPlace{1, kMedium});
    other_changed = other_changed || places[0].card != kLarge;
  }
  REQUIRE(other_changed);
  // After the reveal nothing is hidden.
  s->apply(kSetupBase + kSmall);
  REQUIRE(s->card_places().empty());
}

TEST_CASE("encoder: distance channels spell out what each pad still needs, for any viewer") {
  State s = position(2, "moves", "S", "red", 3);
  // Pad 0 (space 0) holds four of a medium rocket; black medium sits next to it on space 1.
  almost_rocket(s, 0, kMedium, kBlack);
  put(s, 1, kBlack, kMedium);
  std::vector<float> planes(Encoder::kChannels * 9);
  auto at = [&](int channel, int space) { return planes[static_cast<std::size_t>(channel * 9 + space)]; };
  for (int viewer = 0; viewer < 2; ++viewer) {
    Encoder::encode(s, viewer, planes.data());
    const int me = viewer;
    // [68, 72): moves each pad still needs, relative seats.
    CHECK(at(68 + (0 - viewer + 2) % 2, 4) == 1.0f / 16.0f);
    CHECK(at(68 + (1 - viewer + 2) % 2, 4) == 15.0f / 16.0f);
    // [72, 76): steps from every space to the pad of the seat at offset k.
    CHECK(at(72, s.pad_of(me)) == 0.0f);
    CHECK(at(72 + 1, s.pad_of(me)) == 4.0f / 4.0f);  // opposite corners
    CHECK(at(72, kFactory) == 2.0f / 4.0f);
    // Seat 0's pad wants only the black medium piece; seat 1's empty pad wants every colour of
    // every size (all equally far, in the Bank).
    const int wanted_by_0 = viewer == 0 ? 76 : 91, wanted_by_1 = viewer == 0 ? 91 : 76;
    for (int t = 0; t < kPieceTypes; ++t) {
      CHECK(at(wanted_by_0 + t, 4) == (t == piece_type(kBlack, kMedium) ? 1.0f : 0.0f));
      CHECK(at(wanted_by_1 + t, 4) == 1.0f);
    }
  }
}

TEST_CASE("board geometry: grid distances and the nearest space of a set, every set and space") {
  CHECK(space_distance(0, 8) == 4);  // opposite corners
  CHECK(space_distance(kFactory, 1) == 1);
  CHECK(space_distance(2, 6) == 4);
  CHECK(space_distance(5, 5) == 0);
  for (int space = 0; space < kSpaces; ++space) {
    CHECK(nearest_space_distance(0, space) == kNoSpaceNear);
    for (int set = 1; set < (1 << kSpaces); ++set) {
      int nearest = kNoSpaceNear;  // the same by scanning the set's spaces
      for (int s = 0; s < kSpaces; ++s)
        if ((set >> s) & 1)
          nearest = std::min(nearest, std::abs(s / 3 - space / 3) + std::abs(s % 3 - space % 3));
      REQUIRE(nearest_space_distance(static_cast<uint16_t>(set), space) == nearest);
    }
  }
}

TEST_CASE("the search's position estimate favours the seat closer to launching") {
  float v[kMaxPlayers];
  // Empty board, equal distances: only the mover's turn tells the seats apart.
  State s = position(2, "new_part", "S", "red", 0, 0);
  Game::estimate_returns(s, v);
  CHECK(v[0] > 0.0f);  // about to roll, with a whole turn ahead
  CHECK(v[0] + v[1] == Approx(0.0f).margin(1e-6));
  State other = position(2, "new_part", "S", "red", 0, 1);
  float w[kMaxPlayers];
  Game::estimate_returns(other, w);
  CHECK(w[1] == Approx(v[0]));  // the same position from the other seat
  // One move from a rocket against fifteen: close to a sure win, even with the
  // other seat to move.
  State near = position(2, "new_part", "S", "red", 0, 1);
  almost_rocket(near, 0, kMedium, kBlack);
  put(near, 1, kBlack, kMedium);
  REQUIRE(rocket_distance(near, near.board(), 0) == 1);
  Game::estimate_returns(near, v);
  CHECK(v[0] > 0.9f);
  CHECK(v[0] + v[1] == Approx(0.0f).margin(1e-6));
  // Four players: rank returns still add up to zero; the closest seat leads.
  State four = position(4, "moves", "S", "red", 2, 3);
  almost_rocket(four, four.pad_of(2), kLarge, kRed);
  Game::estimate_returns(four, v);
  CHECK(v[0] + v[1] + v[2] + v[3] == Approx(0.0f).margin(1e-5));
  CHECK(v[2] > v[0]);
  CHECK(v[2] > v[3]);
  for (int p = 0; p < 4; ++p) CHECK((v[p] >= -1.0f && v[p] <= 1.0f));
  // A finished game is worth nothing more: its returns are settled.
  State won = position(2, "moves", "S", "red", 2, 0);
  almost_rocket(won, 0, kMedium, kBlack);
  put(won, 1, kBlack, kMedium);
  won.apply(move(1, kBlack, kMedium, kWest));
  REQUIRE(won.winner() == 0);
  v[0] = v[1] = 5.0f;
  Game::estimate_returns(won, v);
  CHECK(v[0] == 0.0f);
  CHECK(v[1] == 0.0f);
}

namespace {

constexpr std::size_t kObservationFloats = Encoder::kChannels * kSpaces;

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("encoder: every value is written, whatever the buffer held before") {
  for (int players = 2; players <= kMaxPlayers; ++players) {
    State s(config(), players, 40 + players);
    Rng rng(5);
    std::vector<uint8_t> mask(kNumActions);
    std::vector<float> clean(kObservationFloats), dirty(kObservationFloats);
    for (int step = 0; step < 300 && !s.is_terminal(); ++step) {
      for (int viewer = 0; viewer < players; ++viewer) {
        std::fill(clean.begin(), clean.end(), 0.0f);
        std::fill(dirty.begin(), dirty.end(), std::numeric_limits<float>::quiet_NaN());
        Encoder::encode(s, viewer, clean.data());
        Encoder::encode(s, viewer, dirty.data());
        REQUIRE(same_bits(clean, dirty));
      }
      s.legal_actions_mask(mask.data());
      s.apply(random_legal_action(mask.data(), kNumActions, rng));
    }
  }
}

// encode_changes rewrites only the planes whose inputs changed since it last wrote
// the row: after any sequence of positions and viewers, even across a restarted
// game (the vector env's auto-reset), the row must hold exactly what encode() writes.
TEST_CASE("encoder: encode_changes writes the same values as encode over random games, every seat") {
  for (int players = 2; players <= kMaxPlayers; ++players) {
    Rng rng(100 + players);
    std::vector<uint8_t> mask(kNumActions);
    std::vector<float> full(kObservationFloats);
    // One row per seat that always views that seat, and one row whose viewer is the
    // player to move (the vector env's pattern) or, now and then, a random seat.
    std::vector<std::vector<float>> rows(players + 1, std::vector<float>(kObservationFloats));
    std::vector<Encoder::Written> written(players + 1);
    int games = 0, steps = 0;
    const auto check = [&](const State& s, int row, int viewer) {
      Encoder::encode_changes(s, viewer, rows[row].data(), written[row]);
      Encoder::encode(s, viewer, full.data());
      REQUIRE(same_bits(rows[row], full));
    };
    for (; games < 40; ++games) {
      State s(config(), players, derive_seed(77, games));
      while (true) {
        for (int seat = 0; seat < players; ++seat) check(s, seat, seat);
        const bool random_viewer = s.is_terminal() || rng.below(8) == 0;
        check(s, players, random_viewer ? static_cast<int>(rng.below(players)) : s.current_player());
        if (s.is_terminal()) break;
        s.legal_actions_mask(mask.data());
        s.apply(random_legal_action(mask.data(), kNumActions, rng));
        ++steps;
      }
    }
    INFO(players << " players: " << games << " games, " << steps << " steps");
    CHECK(steps > 1000);
  }
}

TEST_CASE("vector env: each observation row equals encode() of its env's state, across auto-resets") {
  for (int players = 2; players <= kMaxPlayers; ++players) {
    auto shared = std::make_shared<const Config>(config());
    VectorEnv<Game> env(shared, 8, players, 31, 2);
    std::vector<Action> actions(8);
    std::vector<float> full(kObservationFloats);
    int finished = 0;
    for (int step = 0; step < 3000; ++step) {
      env.sample_random_actions(actions.data());
      env.step(actions.data());
      for (int i = 0; i < env.num_envs(); ++i) {
        finished += env.terminated()[i] + env.truncated()[i];
        Encoder::encode(env.state(i), env.state(i).current_player(), full.data());
        REQUIRE(std::memcmp(env.observations() + i * kObservationFloats, full.data(),
                            kObservationFloats * sizeof(float)) == 0);
      }
    }
    CHECK(finished > 10);  // the rows went through auto-resets
    // restore() puts another game's position into a row: written afresh too.
    State other(config(), players, 99);
    other.apply(kSetupBase + kMedium);
    env.restore(3, other, env.slot(3));
    Encoder::encode(other, other.current_player(), full.data());
    REQUIRE(std::memcmp(env.observations() + 3 * kObservationFloats, full.data(),
                        kObservationFloats * sizeof(float)) == 0);
    // reset() starts every row afresh.
    env.reset(32);
    for (int i = 0; i < env.num_envs(); ++i) {
      Encoder::encode(env.state(i), env.state(i).current_player(), full.data());
      REQUIRE(std::memcmp(env.observations() + i * kObservationFloats, full.data(),
                          kObservationFloats * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("board: pieces_on and types_on read a space's counts a word at a time, every type") {
  Rng rng(9);
  Board board;
  for (int trial = 0; trial < 2000; ++trial) {
    const int space = static_cast<int>(rng.below(kSpaces));
    for (auto& count : board.spaces[space])
      count = static_cast<uint8_t>(rng.below(4) == 0 ? rng.below(3) : 0);
    int pieces = 0;
    uint16_t types = 0;
    for (int t = 0; t < kPieceTypes; ++t) {
      pieces += board.spaces[space][t];
      if (board.spaces[space][t] > 0) types |= static_cast<uint16_t>(1u << t);
    }
    REQUIRE(board.pieces_on(space) == pieces);
    REQUIRE(board.types_on(space) == types);
  }
  board.spaces[3].fill(kCopies);  // every type twice: the largest counts a space can hold
  CHECK(board.pieces_on(3) == kPieceTypes * kCopies);
  CHECK(board.types_on(3) == (1u << kPieceTypes) - 1);
}

// legal_actions_mask writes the take entries from takeable_types, the steal entries from
// stealable_types and the move entries four piece types at a time from a table instead of asking
// is_legal id by id: both must agree on every id, at every decision of random games with 2, 3 and
// 4 players, heuristic moves mixed in so that rockets grow and shortages come.
TEST_CASE("legal mask: every id as is_legal says, in random and heuristic games", "[launchpad23][mask]") {
  std::vector<uint8_t> mask(kNumActions);
  std::vector<Action> legal_ids;
  int setups = 0, takes = 0, rerolls = 0, steals = 0, moves = 0, failures = 0, ends = 0;
  for (int players = 2; players <= kMaxPlayers; ++players)
    for (uint64_t game = 0; game < 12; ++game) {
      State s(config(), players, derive_seed(5600 + static_cast<uint64_t>(players), game));
      Rng rng(derive_seed(5700, game));
      for (int decision = 0; !s.is_terminal(); ++decision) {
        s.legal_actions_mask(mask.data());
        legal_ids.clear();
        for (Action a = 0; a < kNumActions; ++a) {
          const bool in_mask = mask[static_cast<std::size_t>(a)] != 0;
          if (in_mask != s.is_legal(a))
            FAIL(players << " players, game " << game << ", decision " << decision << ": id " << a << " ("
                         << s.action_to_string(a) << ") is " << (in_mask ? "not " : "")
                         << "legal, the mask says " << int(mask[static_cast<std::size_t>(a)]) << "\n"
                         << s.to_string());
          if (mask[static_cast<std::size_t>(a)] > 1) FAIL("mask byte " << a << " is not 0 or 1");
          if (!in_mask) continue;
          legal_ids.push_back(a);
          setups += a < kTakeBase;
          takes += a >= kTakeBase && a < kReroll;
          rerolls += a == kReroll;
          steals += a >= kStealBase && a < kMoveBase;
          moves += a >= kMoveBase && a < kTotalSystemFailure;
          failures += a == kTotalSystemFailure;
          ends += a == kEndTurn;
        }
        s.apply(decision % 3 == 0 ? heuristic_action(s, rng)
                                  : legal_ids[rng.below(static_cast<uint32_t>(legal_ids.size()))]);
      }
    }
  INFO("setups " << setups << " takes " << takes << " rerolls " << rerolls << " steals " << steals
                 << " moves " << moves << " failures " << failures << " ends " << ends);
  for (int n : {setups, takes, rerolls, steals, moves, failures, ends}) CHECK(n > 0);
}

// The new part's rules read the Bank and the roll a bitset at a time (takeable_types,
// stealable_types, Roll::allowed_types): they must say what the rulebook says, piece by piece,
// for every roll and boards with any share of the pieces out of the Bank.
TEST_CASE("new part: takes, steals and the parts shortage as the rulebook says, every roll") {
  const char* const size_faces[] = {"S", "M", "L", "S/M", "S/L", "M/L"};
  const char* const colour_faces[] = {"red", "yellow", "green", "blue", "black", "atom"};
  Rng rng(56);
  int shortages = 0, steals = 0;
  for (int size_face = 0; size_face < 6; ++size_face)
    for (int colour_face = 0; colour_face < 6; ++colour_face)
      for (int trial = 0; trial < 60; ++trial) {
        State s = position(2, "new_part", size_faces[size_face], colour_faces[colour_face]);
        const Roll& roll = s.roll();
        for (int type = 0; type < kPieceTypes; ++type) {
          REQUIRE(((roll.allowed_types() >> type) & 1u) == (roll.allows(type) ? 1u : 0u));
          // Out of the Bank with a chance that grows over the trials: from a full Bank to an empty one.
          for (int copy = 0; copy < kCopies; ++copy)
            if (rng.below(60) < static_cast<uint32_t>(trial))
              put(s, static_cast<int>(rng.below(kSpaces)), colour_of(type), size_of(type));
        }
        const auto bank_supplies = [&](int size) {  // some piece of the size the roll allows is in the Bank
          for (int colour = 0; colour < kColours; ++colour)
            if (roll.allows(piece_type(colour, size)) && s.board().bank[piece_type(colour, size)] > 0)
              return true;
          return false;
        };
        bool shortage = false;
        for (int size = 0; size < kSizes; ++size)
          shortage = shortage || (roll.allows_size(size) && !bank_supplies(size));
        REQUIRE(s.shortage() == shortage);
        shortages += shortage;
        for (int type = 0; type < kPieceTypes; ++type) {
          REQUIRE(s.is_legal(kTakeBase + type) == (roll.allows(type) && s.board().bank[type] > 0));
          for (int space = 0; space < kSpaces; ++space) {
            const bool steal =
                roll.allows(type) && !bank_supplies(size_of(type)) && s.board().spaces[space][type] > 0;
            REQUIRE(s.is_legal(kStealBase + space * kPieceTypes + type) == steal);
            steals += steal;
          }
        }
      }
  CHECK(shortages > 100);
  CHECK(steals > 100);
}

TEST_CASE("parts shortage: a re-roll without a shortage must take from the Bank; its moves count") {
  // Both medium yellows are in a storage depot: a parts shortage. Over several seeds, the
  // second roll (whatever it is) decides what may be added and how many moves follow.
  int plain = 0, extra_moves = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    State first = position(2, "new_part", "M", "yellow");
    put(first, 5, kYellow, kMedium, 2);
    Json doc = first.to_json();
    doc["rng"] = rng_to_json(Rng(seed));
    State s = State::from_json(doc, config());
    s.apply(kReroll);
    if (s.shortage()) continue;
    ++plain;
    const auto options = legal(s);
    REQUIRE_FALSE(options.empty());
    for (Action a : options) REQUIRE((a >= kTakeBase && a < kReroll));  // no second re-roll, no steal
    s.apply(options.front());
    REQUIRE(s.moves_left() == s.roll().moves());
    extra_moves += s.moves_left() > 2;
  }
  CHECK(plain > 10);
  CHECK(extra_moves > 0);
}

TEST_CASE("parts shortage: the roller may steal from their own pad too") {
  State s = position(2, "new_part", "L", "blue");
  put(s, 0, kBlue, kLarge);  // on the roller's own pad
  put(s, 3, kBlue, kLarge);  // in a storage depot
  REQUIRE(contains(legal(s), steal(0, kBlue, kLarge)));
  s.apply(steal(0, kBlue, kLarge));
  REQUIRE(s.board().pieces_on(0) == 0);
  REQUIRE(s.board().spaces[kFactory][piece_type(kBlue, kLarge)] == 1);
  REQUIRE(s.phase() == Phase::kMoves);
}
