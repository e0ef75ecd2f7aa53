// The environment contract (docs/architecture.md) as seen through type erasure.
//
// Each game is written as plain value types (see docs/ADDING_A_GAME.md):
//   struct <Name>Game {               // the game's static description
//     using Config = ...;             // data + variants, loaded from YAML
//     using State = ...;              // value type, cheap to copy
//     using Encoder = ...;            // (state, viewer) -> float tensor
//     static GameInfo info();
//     static Config load_config(const ConfigNode& root);
//     static Action heuristic_action(const State&, Rng&);
//   };
// The classes below wrap those for the CLI, Python and tests, with one
// virtual call per operation. Hot loops (VectorEnv, search) use the concrete
// types directly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/errors.h"
#include "envs/core/knowledge.h"
#include "envs/core/rng.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ROCKETGYM_MASK_AVX2 1  // random_legal_action counts with AVX2 where the CPU has it
#endif

namespace rocketgym {

using Action = int32_t;

// The viewer of AnyState::view_json that sees everything, hidden cards included.
constexpr int kFullBoard = -1;

namespace detail {

constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;

// Bit 0 of each byte of the result: that byte of `word` is non-zero.
inline uint64_t nonzero_lanes(uint64_t word) { return ((((word & kLow7) + kLow7) | word) & ~kLow7) >> 7; }

// The number of non-zero bytes among the eight of `word`.
inline int nonzero_bytes(uint64_t word) {
  return static_cast<int>((nonzero_lanes(word) * 0x0101010101010101ULL) >> 56);  // their sum, in the top byte
}

inline uint64_t word_at(const uint8_t* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// Masks are read in blocks of 64 entries: a block of zeros (most of a mask) costs an OR of
// eight words.
constexpr int kMaskBlock = 64;

// The number of non-zero bytes among the 64 from `p`.
inline int block_nonzero_bytes(const uint8_t* p) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  const __m128i v2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32));
  const __m128i v3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 48));
  const __m128i any = _mm_or_si128(_mm_or_si128(v0, v1), _mm_or_si128(v2, v3));
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(any, zero)) == 0xFFFF) return 0;
  // Per byte lane, how many of the four vectors hold a zero there (each compare is -1 or 0).
  __m128i zeros = _mm_sub_epi8(zero, _mm_cmpeq_epi8(v0, zero));
  zeros = _mm_sub_epi8(zeros, _mm_cmpeq_epi8(v1, zero));
  zeros = _mm_sub_epi8(zeros, _mm_cmpeq_epi8(v2, zero));
  zeros = _mm_sub_epi8(zeros, _mm_cmpeq_epi8(v3, zero));
  const __m128i sums = _mm_sad_epu8(zeros, zero);  // the lanes summed, per half
  return kMaskBlock - (_mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4));
#else
  int count = 0;
  for (int w = 0; w < kMaskBlock / 8; ++w) count += nonzero_bytes(word_at(p + 8 * w));
  return count;
#endif
}

// Bit i set: byte i of the 64 from `p` is non-zero.
inline uint64_t block_nonzero_bits(const uint8_t* p) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  uint64_t zeros = 0;
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    zeros |= static_cast<uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero))))
             << (16 * k);
  }
  return ~zeros;
#else
  uint64_t bits = 0;
  for (int i = 0; i < kMaskBlock; ++i) bits |= static_cast<uint64_t>(p[i] != 0) << i;
  return bits;
#endif
}

// The blocks whose counts random_legal_action keeps for its search (masks up to 4,096 ids,
// every game's; the blocks of a longer mask are counted again when searched).
constexpr int kCountedBlocks = 64;

// Counts the non-zero bytes of the first `blocks` blocks of `mask` into counts[b] and returns
// their sum: the pass over the whole mask, the most of a random pick.
inline int count_blocks(const uint8_t* mask, int blocks, uint8_t* counts) {
  int legal = 0;
  for (int b = 0; b < blocks; ++b) {
    counts[b] = static_cast<uint8_t>(block_nonzero_bytes(mask + kMaskBlock * b));
    legal += counts[b];
  }
  return legal;
}

#if defined(ROCKETGYM_MASK_AVX2)
// count_blocks 32 bytes at a time: a block of zeros is two loads and a test, half the
// instructions of SSE2's (the same counts: only the width of the reads differs).
__attribute__((target("avx2,popcnt"))) inline int count_blocks_avx2(const uint8_t* mask, int blocks,
                                                                    uint8_t* counts) {
  const __m256i zero = _mm256_setzero_si256();
  int legal = 0;
  for (int b = 0; b < blocks; ++b) {
    const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask + kMaskBlock * b));
    const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask + kMaskBlock * b + 32));
    const __m256i any = _mm256_or_si256(low, high);
    int here = 0;
    if (!_mm256_testz_si256(any, any)) {
      const uint64_t zeros =
          static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, zero))) |
          static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, zero))))
              << 32;
      here = static_cast<int>(_mm_popcnt_u64(~zeros));
    }
    counts[b] = static_cast<uint8_t>(here);
    legal += here;
  }
  return legal;
}

inline bool cpu_has_avx2() {
  static const bool has = [] {
    __builtin_cpu_init();  // (needed only before main, in a static initializer; harmless after)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
  }();
  return has;
}
#endif

}  // namespace detail

// A uniformly random legal action from a legal-actions mask of
// `num_actions` entries (non-zero = legal); -1 when none is legal. The same
// action as drawing an index into the list of legal actions: the mask is
// read 64 entries at a time, skipping blocks of zeros, then eight at a time,
// because masks are mostly zeros and a byte-by-byte scan cost as much as a
// step in games with ~1,000 action ids. The count of each block is kept, so
// that finding the drawn index reads only the block that holds it again.
inline Action random_legal_action(const uint8_t* mask, int num_actions, Rng& rng) {
  const int blocks = num_actions / detail::kMaskBlock;
  const int counted = std::min(blocks, detail::kCountedBlocks);  // the blocks whose counts are kept
  const int words = num_actions / 8;
  const int block_words = blocks * (detail::kMaskBlock / 8);  // the words inside whole blocks
  uint8_t counts[detail::kCountedBlocks];
#if defined(ROCKETGYM_MASK_AVX2)
  int legal = detail::cpu_has_avx2() ? detail::count_blocks_avx2(mask, counted, counts)
                                     : detail::count_blocks(mask, counted, counts);
#else
  int legal = detail::count_blocks(mask, counted, counts);
#endif
  for (int b = counted; b < blocks; ++b) legal += detail::block_nonzero_bytes(mask + detail::kMaskBlock * b);
  for (int w = block_words; w < words; ++w) legal += detail::nonzero_bytes(detail::word_at(mask + 8 * w));
  const int last = num_actions % 8;  // the last entries, after the whole words
  if (last > 0 && words > 0) {       // the high bytes of the mask's last eight (little-endian)
    legal += detail::nonzero_bytes(detail::word_at(mask + num_actions - 8) >> (8 * (8 - last)));
  } else {
    for (int a = 8 * words; a < num_actions; ++a) legal += mask[a] != 0;
  }
  if (legal == 0) return -1;
  int pick = static_cast<int>(rng.below(static_cast<uint32_t>(legal)));
  int b = 0;  // the block holding the pick
  for (; b < counted && pick >= counts[b]; ++b) pick -= counts[b];
  if (b == counted) {
    for (; b < blocks; ++b) {  // a longer mask's blocks, counted again
      const int here = detail::block_nonzero_bytes(mask + detail::kMaskBlock * b);
      if (pick < here) break;
      pick -= here;
    }
  }
  if (b < blocks) {  // the pick-th of the block's non-zero bytes
    uint64_t bits = detail::block_nonzero_bits(mask + detail::kMaskBlock * b);
    for (; pick > 0; --pick) bits &= bits - 1;
    return detail::kMaskBlock * b + __builtin_ctzll(bits);
  }
  int a = 8 * words;  // where the byte-by-byte search starts
  for (int w = block_words; w < words; ++w) {
    const int here = detail::nonzero_bytes(detail::word_at(mask + 8 * w));
    if (pick < here) {
      a = 8 * w;
      break;
    }
    pick -= here;
  }
  for (; a < num_actions; ++a)
    if (mask[a] && pick-- == 0) return a;
  return -1;
}

struct GameInfo {
  std::string id;           // e.g. "launchpad23"
  std::string name;         // e.g. "Launchpad 23"
  std::string description;  // one line
  int min_players = 2;
  int max_players = 4;
  int num_actions = 0;    // size of the action id space (the same for every player count)
  int max_decisions = 0;  // upper bound on decisions in one game, truncation included
  int version = 1;        // bumped when rules or encodings change
  // Some seat cannot see everything (hands, face-down cards, secret picks).
  // Taken from the descriptor's kHiddenInformation; true unless a game says otherwise.
  bool hidden_information = true;
};

class AnyState {
 public:
  virtual ~AnyState() = default;
  virtual std::unique_ptr<AnyState> clone() const = 0;

  virtual int num_players() const = 0;
  virtual int num_actions() const = 0;
  virtual int current_player() const = 0;  // -1 when terminal
  virtual void legal_actions_mask(uint8_t* out) const = 0;
  std::vector<Action> legal_actions() const;
  virtual bool is_legal(Action a) const = 0;
  virtual void apply(Action a) = 0;  // throws IllegalAction, state unchanged
  virtual bool is_terminal() const = 0;
  virtual bool is_truncated() const = 0;
  virtual void returns(float* out) const = 0;
  virtual void scores(int* out) const = 0;
  std::vector<float> returns() const;
  std::vector<int> scores() const;

  // Resamples what `viewer` cannot see and reseeds the state's chance.
  virtual void redeterminize(int viewer, uint64_t seed) = 0;

  virtual std::string to_string() const = 0;  // everything, hidden information included
  // What `viewer` may see, for a person at the table (to_string() where the game has no hidden information).
  virtual std::string observation_string(int viewer) const = 0;
  virtual std::string action_to_string(Action a) const = 0;
  // The table for the browser (web/), a JSON document: {"game", "num_players",
  // "viewer", "your_turn", "terminal", "board": the game's own view_json} and,
  // once the game is over, "scores" and "returns". What `viewer` may see, like
  // observation_string; viewer kFullBoard shows everything (replays, or when
  // asked for explicitly) and adds "current_player".
  virtual std::string view_json(int viewer) const = 0;
  // Whether the other players see which action this is (false for secret picks,
  // face-down cards, answers that reveal a hidden card).
  virtual bool is_public_action(Action a) const = 0;
  // Whether every seat knows who is deciding now (false for who is asked to
  // block or to add Crew in Rocket Squad, ruling 4). A game with hidden
  // information that does not say is taken to hide it (fails closed).
  virtual bool is_public_decider() const = 0;
  // The knowledge model (envs/core/knowledge.h): where every card is, and the
  // cards `viewer` knows to be in a place. Both empty in a game without hidden information.
  virtual CardPlaces card_places() const = 0;
  virtual CardPlaces known_card_places(int viewer) const = 0;
  virtual std::string to_json() const = 0;  // exact, readable, loadable

  virtual std::vector<int> observation_shape() const = 0;
  int observation_size() const;
  virtual void encode(int viewer, float* out) const = 0;
  std::vector<float> encode(int viewer) const;

  virtual Action heuristic_action(uint64_t seed) const = 0;
  virtual void check_invariants() const = 0;  // throws InvariantViolation
};

// One env of a vector env beyond its state: which game of its seed sequence
// it is playing (episode k starts from episode_seed(seed, env, k)), its
// decisions so far in that game, and its stream for random and heuristic
// actions. With the state and the vector env's seed, enough to save and
// restore the env exactly (Python's pickle).
struct VectorEnvSlot {
  uint64_t episode = 0;
  int32_t episode_steps = 0;
  Rng::State action_rng{};
};

class AnyVectorEnv {
 public:
  virtual ~AnyVectorEnv() = default;
  virtual int num_envs() const = 0;
  virtual int num_players() const = 0;
  virtual int num_actions() const = 0;
  virtual std::vector<int> observation_shape() const = 0;
  virtual int observation_size() const = 0;
  virtual void reset(uint64_t seed) = 0;
  // Validates every action first (IllegalAction names the env; nothing is
  // applied), then steps all envs in parallel and auto-resets finished ones.
  virtual void step(const Action* actions) = 0;
  virtual void sample_random_actions(Action* out) = 0;
  virtual void heuristic_actions(Action* out) = 0;

  // Contiguous buffers, owned by the vector env, stable for its lifetime.
  virtual float* observations() = 0;       // [N, obs_size]
  virtual uint8_t* action_masks() = 0;     // [N, num_actions]
  virtual int32_t* current_players() = 0;  // [N]
  virtual float* rewards() = 0;            // [N, P], non-zero only on the final step
  virtual uint8_t* terminated() = 0;       // [N]
  virtual uint8_t* truncated() = 0;        // [N]
  virtual int32_t* episode_steps() = 0;    // [N], decisions in the current episode
  // Written when env i's game ends, just before its auto-reset; valid where
  // terminated or truncated was set by the last step.
  virtual float* final_observations() = 0;     // [N, P, obs_size], every seat's view of the final position
  virtual int32_t* final_episode_steps() = 0;  // [N], decisions in the finished game
  virtual std::unique_ptr<AnyState> state(int env) const = 0;
  virtual int num_threads() const = 0;
  virtual void set_num_threads(int n) = 0;

  // Saving and restoring (Python's pickle): the seed of the last reset, and
  // each env's slot. restore() puts a copy of `state` (a position of this
  // game, not over, with this env's player count) into env `env`; that env
  // then reports no outcome until its next step. Error for a bad argument.
  virtual uint64_t seed() const { throw Error("this vector env cannot be saved"); }
  virtual VectorEnvSlot slot(int /*env*/) const { throw Error("this vector env cannot be saved"); }
  virtual void restore(int /*env*/, const AnyState& /*state*/, const VectorEnvSlot& /*slot*/) {
    throw Error("this vector env cannot be restored");
  }
};

// One batch of an async vector env (envs/core/async_vector_env.h): rows
// [batch_size, ...] of one block of its ring, read-only for callers.
struct AsyncBatch {
  int32_t* env_ids;              // [K], the env of each row
  float* observations;           // [K, obs_size]
  uint8_t* action_masks;         // [K, num_actions]
  int32_t* current_players;      // [K]
  float* rewards;                // [K, P], non-zero only on the final step
  uint8_t* terminated;           // [K]
  uint8_t* truncated;            // [K]
  int32_t* episode_steps;        // [K]
  float* final_observations;     // [K, P, obs_size], valid where terminated or truncated
  int32_t* final_episode_steps;  // [K], the same
};

// N games stepped by threads that never wait for each other; recv() gives
// the first batch_size that are ready, send() their actions.
class AnyAsyncVectorEnv {
 public:
  virtual ~AnyAsyncVectorEnv() = default;
  virtual int num_envs() const = 0;
  virtual int batch_size() const = 0;
  virtual int num_players() const = 0;
  virtual int num_actions() const = 0;
  virtual std::vector<int> observation_shape() const = 0;
  virtual int observation_size() const = 0;
  virtual int num_threads() const = 0;
  virtual uint64_t seed() const = 0;
  virtual void reset(uint64_t seed) = 0;
  virtual int recv() = 0;  // the block of the batch (see batch())
  virtual void send(const Action* actions, const int32_t* env_ids, int count) = 0;
  virtual void sample_random_actions(Action* out) = 0;  // [batch_size], for the batch's envs
  virtual void heuristic_actions(Action* out) = 0;
  virtual int num_blocks() const = 0;
  virtual int block() const = 0;            // the batch's block, -1 before the first recv()
  virtual AsyncBatch batch(int block) = 0;  // 0 <= block < num_blocks(); stable addresses
  virtual std::unique_ptr<AnyState> state(int env) const = 0;  // only while env awaits an action
  virtual void shutdown() = 0;                                 // ends the worker threads
};

// A game with its configuration loaded: the factory for states and envs.
class AnyGame {
 public:
  virtual ~AnyGame() = default;
  virtual const GameInfo& info() const = 0;
  virtual std::vector<int> observation_shape(int num_players) const = 0;
  virtual std::unique_ptr<AnyState> new_state(int num_players, uint64_t seed) const = 0;
  virtual std::unique_ptr<AnyState> state_from_json(const std::string& json) const = 0;
  virtual std::unique_ptr<AnyVectorEnv> new_vector_env(int num_envs, int num_players, uint64_t seed,
                                                       int num_threads) const = 0;
  virtual std::unique_ptr<AnyAsyncVectorEnv> new_async_vector_env(int num_envs, int num_players,
                                                                  uint64_t seed, int num_threads,
                                                                  int batch_size) const = 0;
  void check_players(int num_players) const;  // throws Error when out of range
};

struct GameEntry {
  GameInfo info;
  std::function<std::shared_ptr<AnyGame>(const ConfigNode& config)> load;
};

class Registry {
 public:
  static Registry& instance();  // filled with every game on first use
  void add(GameEntry entry);
  const GameEntry& find(const std::string& id) const;  // throws Error listing known ids
  std::vector<std::string> ids() const;

 private:
  std::vector<GameEntry> entries_;
};

// Loads a game's config and returns its factory. The config is, in order:
// `config_file` if given, else configs/games/<id>.yaml from ROCKETGYM_CONFIG_DIR
// or the source tree if present, else the copy built into the binary. Then
// `overrides` (YAML text, a mapping) is merged on top.
std::shared_ptr<AnyGame> load_game(const std::string& id, const std::string& config_file = "",
                                   const std::string& overrides = "");
// The same with parsed overrides (e.g. ConfigNode::from_settings), so that an
// error about an overridden value names the `--set` it came from.
std::shared_ptr<AnyGame> load_game(const std::string& id, const std::string& config_file,
                                   const ConfigNode& overrides);

// The YAML text built into the binary for a game (empty if none); Error for
// an unknown game.
std::string builtin_game_config(const std::string& id);

}  // namespace rocketgym
