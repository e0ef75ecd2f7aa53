// The documentation's tables of every game (envs/core/describe.h) agree with
// the code: the observation's feature blocks tile the encoder's output exactly
// for every player count, and the action id ranges tile the action ids and
// use the words action_to_string uses. Issue 31 (one network serves 2, 3 and 4
// players): every game's observation has one shape and one layout for every
// player count, with a correct player-count block, and the blocks of the seats
// a table does not have are zero in real observations.
#include "envs/core/describe.h"

#include <catch2/catch.hpp>
#include <functional>
#include <numeric>

#include "envs/core/game.h"
#include "envs/core/rng.h"

using namespace rocketgym;

TEST_CASE("observation layouts tile the observation for every game and player count", "[describe]") {
  for (const auto& id : Registry::instance().ids()) {
    const auto game = load_game(id);
    for (int n = game->info().min_players; n <= game->info().max_players; ++n) {
      INFO(id << ", " << n << " players");
      const auto shape = game->observation_shape(n);
      const int size = std::accumulate(shape.begin(), shape.end(), 1, std::multiplies<int>());
      const auto blocks = observation_layout(id, n);
      REQUIRE_FALSE(blocks.empty());
      int next = 0;
      for (const auto& b : blocks) {
        INFO(b.name);
        CHECK(b.offset == next);  // contiguous: no gap, no overlap
        CHECK(b.size > 0);
        CHECK_FALSE(b.name.empty());
        CHECK_FALSE(b.meaning.empty());
        next = b.offset + b.size;
      }
      CHECK(next == size);
    }
  }
}

TEST_CASE("one observation shape and layout for every player count, with a player-count block",
          "[describe][issue31]") {
  for (const auto& id : Registry::instance().ids()) {
    const auto game = load_game(id);
    const int most = game->info().max_players;
    const auto shape = game->observation_shape(most);
    const auto layout = observation_layout(id, most);
    int count_blocks = 0;
    for (const auto& b : layout)
      if (b.name.rfind("player count", 0) == 0) {
        ++count_blocks;
        CHECK(b.size == kPlayerCountFeatures * (id == "launchpad23" ? 9 : 1));  // 3×3 planes there
      }
    INFO(id);
    CHECK(count_blocks == 1);
    for (int n = game->info().min_players; n < most; ++n) {
      INFO(n << " players");
      CHECK(game->observation_shape(n) == shape);
      const auto blocks = observation_layout(id, n);
      REQUIRE(blocks.size() == layout.size());
      for (std::size_t i = 0; i < blocks.size(); ++i) {
        CHECK(blocks[i].name == layout[i].name);
        CHECK(blocks[i].offset == layout[i].offset);
        CHECK(blocks[i].size == layout[i].size);
      }
    }
  }
}

namespace {

// The relative seat a block belongs to ("seat +2: rockets" -> 2), or -1.
int seat_of_block(const std::string& name) {
  const std::string prefix = "seat +";
  if (name.rfind(prefix, 0) != 0) return -1;
  return name[prefix.size()] - '0';
}

// Floats of `block` at seat offsets the table does not have, for the blocks
// that hold one float per seat offset (the rest of the block is checked by
// seat_of_block); empty for the others.
std::vector<int> absent_offsets(const std::string& game, const FeatureBlock& b, int n) {
  std::vector<int> at;
  const bool per_seat =
      game == "rocket_squad" && (b.name == "chain: top player" || b.name == "chain: against" ||
                                 b.name == "chain: balloons" || b.name == "Ace next seat");
  if (per_seat)
    for (int k = n; k < b.size; ++k) at.push_back(k);
  // The Last Blast: the field has players + 1 rows of 7 tiles (6 symbols each, one float per
  // tile for a cube) in a block of 5 rows; "next step" is 4 seats of 5 rows × 2.
  if (game == "last_blast") {
    const int rows = n + 1, tile = b.name == "field" ? 6 : 1;
    const bool cube = b.name.size() > 6 && b.name.compare(b.name.size() - 6, 6, ": cube") == 0;
    if (b.name == "field" || cube)
      for (int k = rows * 7 * tile; k < b.size; ++k) at.push_back(k);
    if (b.name == "next step")
      for (int k = 0; k < b.size; ++k)
        if (k / 10 >= n || k % 10 / 2 >= rows) at.push_back(k);
  }
  return at;
}

}  // namespace

TEST_CASE("absent seats are zero and the player count is right in real observations", "[describe][issue31]") {
  for (const auto& id : Registry::instance().ids()) {
    const auto game = load_game(id);
    for (int n = game->info().min_players; n <= game->info().max_players; ++n) {
      const auto blocks = observation_layout(id, n);
      const FeatureBlock* count = nullptr;
      for (const auto& b : blocks)
        if (b.name.rfind("player count", 0) == 0) count = &b;
      REQUIRE(count != nullptr);
      const int plane = count->size / kPlayerCountFeatures;  // 9 for Launchpad 23's 3×3 planes, else 1
      int checked = 0;
      for (uint64_t seed = 1; seed <= 4; ++seed) {
        DYNAMIC_SECTION(id << ", " << n << " players, seed " << seed) {
          auto state = game->new_state(n, seed);
          Rng rng(seed);
          std::vector<float> obs(static_cast<std::size_t>(state->observation_size()));
          for (int step = 0; !state->is_terminal() && step < 400; ++step) {
            for (int viewer = 0; viewer < n; ++viewer) {
              state->encode(viewer, obs.data());
              for (int c = 0; c < kPlayerCountFeatures; ++c)
                for (int i = 0; i < plane; ++i)
                  REQUIRE(obs[static_cast<std::size_t>(count->offset + c * plane + i)] ==
                          (c == n - 2 ? 1.0f : 0.0f));
              for (const auto& b : blocks) {
                INFO(b.name << ", step " << step << ", viewer " << viewer);
                const int seat = seat_of_block(b.name);
                if (seat >= n)
                  for (int i = 0; i < b.size; ++i)
                    REQUIRE(obs[static_cast<std::size_t>(b.offset + i)] == 0.0f);
                for (int i : absent_offsets(id, b, n))
                  REQUIRE(obs[static_cast<std::size_t>(b.offset + i)] == 0.0f);
              }
              ++checked;
            }
            const auto legal = state->legal_actions();
            state->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
          }
          CHECK(checked > 0);
        }
      }
    }
  }
}

TEST_CASE("action ranges tile the action ids and agree with action_to_string", "[describe]") {
  for (const auto& id : Registry::instance().ids()) {
    const auto game = load_game(id);
    const auto state = game->new_state(game->info().min_players, 1);
    const auto ranges = action_ranges(id);
    REQUIRE_FALSE(ranges.empty());
    int next = 0;
    for (const auto& r : ranges) {
      INFO(id << ": ids " << r.first << ".." << r.first + r.count - 1 << " '" << r.says << "'");
      CHECK(r.first == next);  // every id in exactly one range
      CHECK(r.count > 0);
      CHECK_FALSE(r.meaning.empty());
      REQUIRE_FALSE(r.says.empty());
      for (Action a : {r.first, r.first + r.count / 2, r.first + r.count - 1}) {
        INFO("action " << a << ": " << state->action_to_string(a));
        CHECK(state->action_to_string(a).find(r.says) != std::string::npos);
      }
      next = r.first + r.count;
    }
    CHECK(next == game->info().num_actions);
  }
}

TEST_CASE("describe refuses an unknown game and a player count out of range", "[describe]") {
  CHECK_THROWS_AS(observation_layout("no_such_game", 2), Error);
  CHECK_THROWS_AS(action_ranges("no_such_game"), Error);
  CHECK_THROWS_AS(observation_layout("lift_off", 5), Error);
  CHECK_THROWS_AS(observation_layout("lift_off", 1), Error);
}

TEST_CASE("describe --markdown has every table", "[describe]") {
  for (const auto& id : Registry::instance().ids()) {
    INFO(id);
    const std::string md = describe_markdown(id);
    CHECK(md.find("## Actions") != std::string::npos);
    CHECK(md.find("## Observation") != std::string::npos);
    CHECK(md.find("## Config keys and defaults") != std::string::npos);
    CHECK(md.find("```yaml") != std::string::npos);
  }
}
