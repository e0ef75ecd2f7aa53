// A guard for hot-path work (issue 28): every game, played from fixed seeds,
// must give exactly the digests recorded here. The digest covers every legal
// mask, every seat's observation after every decision, the actions, what each
// seat knows of the cards (knowledge model) and a redeterminized world every
// few decisions, each finished game's state (JSON) and its returns. A speed-up
// that changes any of them, however slightly, fails this test; a change meant
// to alter the rules or the observations updates the digests in the same commit
// and says why.
//
// The digests were recorded from the code before the speed-ups of issue 28
// (commit 218d4a3); those of Rocket Squad, The Last Blast and Launch Pad again
// when their observations took one layout for 2-4 players with a player-count
// block (issue 31), and Launch Pad's when its observation showed the cards a
// seat knows in other hands and in the draw pile (version 3). To print the digests of the code as it is now,
// run
//   ROCKETGYM_PRINT_DIGESTS=1 build/tests/test_core "[digest]"
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "envs/core/game.h"
#include "envs/core/rng.h"

using namespace rocketgym;

namespace {

// FNV-1a, 64 bits: enough to tell two byte streams apart, and the same on every platform.
class Digest {
 public:
  void add(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      hash_ ^= bytes[i];
      hash_ *= 0x100000001b3ull;
    }
  }
  void add(int value) { add(&value, sizeof value); }
  void add(const std::string& text) { add(text.data(), text.size()); }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xcbf29ce484222325ull;
};

constexpr int kGames = 24;
// Every kCheckEvery decisions: each seat's known card places, and the JSON of
// the state redeterminized for the player to move.
constexpr int kCheckEvery = 8;

// Plays kGames games of `id` with `players` seats: random legal actions, and
// the heuristic bot's on every third decision (it reaches positions random
// play rarely does).
uint64_t play_digest(const AnyGame& game, int players) {
  Digest digest;
  Rng rng(2811);
  const int actions = game.info().num_actions;
  std::vector<uint8_t> mask(static_cast<std::size_t>(actions));
  for (int g = 0; g < kGames; ++g) {
    auto state = game.new_state(players, derive_seed(28, static_cast<uint64_t>(g)));
    std::vector<float> obs(static_cast<std::size_t>(state->observation_size()));
    std::vector<float> returns(static_cast<std::size_t>(players));
    for (int decision = 0; !state->is_terminal(); ++decision) {
      state->legal_actions_mask(mask.data());
      digest.add(mask.data(), mask.size());
      if (decision % kCheckEvery == 0) {
        for (int viewer = 0; viewer < players; ++viewer) {
          CardPlaces known = state->known_card_places(viewer);
          std::sort(known.begin(), known.end());
          for (const CardPlace& k : known) {
            digest.add(k.place);
            digest.add(k.card);
          }
        }
        auto world = state->clone();
        world->redeterminize(state->current_player(), rng.next());
        digest.add(world->to_json());
      }
      const Action a = decision % 3 == 2 ? state->heuristic_action(rng.next())
                                         : random_legal_action(mask.data(), actions, rng);
      digest.add(a);
      state->apply(a);
      for (int viewer = 0; viewer < players; ++viewer) {
        state->encode(viewer, obs.data());
        digest.add(obs.data(), obs.size() * sizeof(float));
      }
    }
    state->returns(returns.data());
    digest.add(returns.data(), returns.size() * sizeof(float));
    digest.add(state->to_json());
  }
  return digest.value();
}

}  // namespace

TEST_CASE("play digests: same masks, observations, knowledge and states as recorded", "[digest]") {
  // (game, players) -> digest, recorded from the code before the speed-ups (Rocket Squad's
  // again when Ace (dog) could target a rocket without boxes, a change of the rules).
  const std::map<std::pair<std::string, int>, uint64_t> recorded = {
      {{"last_blast", 2}, 0x2b60a5746514f219ull},   {{"last_blast", 3}, 0x1a114279741f3b32ull},
      {{"last_blast", 4}, 0x6f8c21882452cbcbull},   {{"launch_pad", 2}, 0x4a70eed907b1e165ull},
      {{"launch_pad", 3}, 0xeb7fdb510c1b61e4ull},   {{"launch_pad", 4}, 0x6b752a01ec8c9c39ull},
      {{"launchpad23", 2}, 0xccef2062c58087c0ull},  {{"launchpad23", 3}, 0x565d32518aecbf3dull},
      {{"launchpad23", 4}, 0x4c1e17ee9d2ffc7cull},  {{"lift_off", 2}, 0x170fd6e75219494cull},
      {{"lift_off", 3}, 0xd19ba1b63ed675f7ull},     {{"lift_off", 4}, 0xeb2100c0c69ce01cull},
      {{"rocket_squad", 2}, 0xfad37350df837ac1ull}, {{"rocket_squad", 3}, 0x4209676b48ae9e94ull},
      {{"rocket_squad", 4}, 0xe9c839c0de530170ull},
  };
  const bool print = std::getenv("ROCKETGYM_PRINT_DIGESTS") != nullptr;
  for (const auto& id : Registry::instance().ids()) {
    auto game = load_game(id);
    const int most = std::min(4, game->info().max_players);
    for (int players = std::max(2, game->info().min_players); players <= most; ++players) {
      DYNAMIC_SECTION(id << ", " << players << " players") {
        const uint64_t digest = play_digest(*game, players);
        if (print)
          std::printf("      {{\"%s\", %d}, 0x%016llxull},\n", id.c_str(), players,
                      static_cast<unsigned long long>(digest));
        const auto it = recorded.find({id, players});
        if (it == recorded.end())
          FAIL("no digest recorded for " << id << " with " << players
                                         << " players: print it with ROCKETGYM_PRINT_DIGESTS=1 and add it");
        CHECK(digest == it->second);
      }
    }
  }
}
