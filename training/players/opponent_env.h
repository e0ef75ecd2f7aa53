// OpponentVectorEnv<G>: N games of one game where a learner plays one seat
// and players::Player<G> objects play the others, stepped together.
//
// Every step takes one action per env, the learner's. After reset() and after
// applying the learner's actions, the opponents' moves are played until the
// learner is to move again in every env. The heuristic bot and random play
// (a move that depends on the state and its random stream alone) are played
// inline: in the same parallel loop over the envs as the learner's move,
// right after the move before theirs, so that a step against them is one
// loop over the envs, with no batch to gather and no call through Player.
// A network opponent that runs in plain C++ (an mlp on the CPU, lean_mlp.h)
// is played in the same loop too: each thread takes a slice of the envs and
// plays its network moves a group of envs at a time (one forward pass of up
// to PolicyRunner::kGroupRows rows, each weight read once for the group),
// until the learner or another opponent is to move in each of them, so that
// a step wakes the threads once, not twice per round of moves, and a thread
// never waits for the other between two moves of a long turn. A row's result
// does not depend on its group (policy_runner.h), so the moves are those the
// network would choose asked in rounds.
// The other opponents are asked like the arena asks them, in rounds (the
// arena's seat loop, seat_round.h): each round gathers the envs whose player
// to move is one of them, groups them by opponent and asks each opponent for
// its group's moves in one act() call, so a network opponent runs one forward
// pass for all its envs. Which way an opponent is played is its own answer
// (Player::acts_alone, Player::group_rows). An answer is
// checked before it is applied: an opponent's out-of-range or illegal action
// is an Error naming it, and the games, stopped mid-turn, must be reset.
//
// Auto-reset is Gymnasium's SAME_STEP, as in VectorEnv: when env i's game
// ends (on the learner's move or on an opponent's), step() reports the
// learner's return in rewards(), terminated/truncated, the learner's view of
// the final position in final_observations(), the finished game's seat,
// returns and scores, and env i already shows the learner's first decision of
// its next game. Without auto-reset (a single env), a finished game stays as
// it ended (its mask all zeros, its observation the learner's final view)
// until reset().
//
// Seats: the learner sits at `seat` in every game, or (kRandomSeat) at a seat
// drawn from each game's seed. With one opponent, it plays every other seat;
// with num_players - 1 of them, opponent k plays the k-th seat after the
// learner's, clockwise: seat (learner + 1 + k) % num_players.
//
// Seeds: env i's game k starts from episode_seed(seed, i, k) (vector_env.h).
// An opponent's random stream and search seed for a move derive from that
// game seed and the move number (every seat's moves counted) exactly as the
// arena derives them (training/seed_streams.h), so a game does not depend on the number of
// envs, the thread count or which envs share a batch.
//
// Stopping early: with an Interrupt (interrupt.h, set_interrupt), step() and
// reset() poll it before every round of batched opponents' moves (and the
// search opponents between searches) and throw Interrupted; the games are
// then mid-turn, as after an opponent's failure: reset() before stepping.
//
// Saving: slot(i) and restore() copy an env's game and its counters (not the
// outcome of the last step), so that a copy steps on as the original does.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/parallel.h"
#include "envs/core/quoted.h"
#include "envs/core/vector_env.h"
#include "training/players/interrupt.h"
#include "training/players/player.h"
#include "training/players/seat_round.h"
#include "training/players/table.h"
#include "training/seed_streams.h"

namespace rocketgym::players {

// What restore() needs of env i besides its state (slot()).
struct OpponentEnvSlot {
  uint64_t episode = 0;       // the game of the env's seed sequence it plays
  int32_t moves = 0;          // every seat's moves so far in that game
  int32_t learner_steps = 0;  // the learner's decisions so far in that game
  int32_t seat = 0;           // the learner's seat in that game
  uint64_t played = 0;        // every seat's moves in the env since it was made
  Rng::State action_rng{};    // the learner's random-action stream
};

template <class G>
class OpponentVectorEnv {
 public:
  using Config = typename G::Config;
  using State = typename G::State;
  using Encoder = typename G::Encoder;

  static constexpr int kRandomSeat = -1;

  // `names[k]` names opponent k in errors. Throws Error for a bad seat or
  // number of opponents. Without `start`, no game is started (no opponent
  // is asked): restore() every env before stepping.
  OpponentVectorEnv(std::shared_ptr<const Config> config, int num_envs, int num_players, int seat,
                    std::vector<std::unique_ptr<Player<G>>> opponents, std::vector<std::string> names,
                    uint64_t seed, int num_threads, bool auto_reset = true, bool start = true)
      : config_(std::move(config)),
        n_(num_envs),
        players_(num_players),
        seat_(seat),
        threads_(std::max(1, num_threads)),
        auto_reset_(auto_reset),
        opponents_(std::move(opponents)),
        names_(std::move(names)) {
    if (num_envs < 1) throw Error("num_envs must be at least 1, got " + std::to_string(num_envs));
    if (seat != kRandomSeat && (seat < 0 || seat >= players_))
      throw Error("seat " + std::to_string(seat) + " is not a seat of a " + std::to_string(players_) +
                  "-player game (0 to " + std::to_string(players_ - 1) + ", or random)");
    const auto count = static_cast<int>(opponents_.size());
    if (count != 1 && count != players_ - 1)
      throw Error("a " + std::to_string(players_) + "-player game takes 1 opponent" +
                  (players_ == 2
                       ? std::string()
                       : " (for every other seat) or " + std::to_string(players_ - 1) + " (one per seat)") +
                  ", got " + std::to_string(count));
    if (names_.size() != opponents_.size()) throw Error("one name per opponent");
    for (const auto& opponent : opponents_) {
      plays_.push_back(how_it_plays(*opponent, num_envs));
      networks_.push_back(plays_.back() == Plays::kNetwork ? opponent.get() : nullptr);
    }
    any_batched_ = std::count(plays_.begin(), plays_.end(), Plays::kBatched) > 0;
    any_network_ = std::count(plays_.begin(), plays_.end(), Plays::kNetwork) > 0;
    const auto shape = Encoder::shape(*config_, players_);
    obs_size_ = 1;
    for (int d : shape) obs_size_ *= d;
    actions_ = G::info().num_actions;
    const auto envs = static_cast<std::size_t>(n_);
    obs_.assign(envs * obs_size_, 0.0f);
    mask_.assign(envs * actions_, 0);
    rewards_.assign(envs, 0.0f);
    terminated_.assign(envs, 0);
    truncated_.assign(envs, 0);
    seats_.assign(envs, 0);
    learner_steps_.assign(envs, 0);
    final_obs_.assign(envs * obs_size_, 0.0f);
    final_steps_.assign(envs, 0);
    final_seats_.assign(envs, 0);
    final_returns_.assign(envs * players_, 0.0f);
    final_scores_.assign(envs * players_, 0);
    game_seed_.assign(envs, 0);
    episode_.assign(envs, 0);
    moves_.assign(envs, 0);
    played_.assign(envs, 0);
    reported_.assign(envs, 0);
    answer_.assign(envs, 0);
    asker_.assign(envs, 0);
    illegal_.assign(envs, 0);
    pending_.assign(envs, 0);
    decisions_.assign(envs, {});
    move_rng_.assign(envs, Rng(0));
    action_rng_.assign(envs, Rng(0));
    round_.reserve(opponents_.size(), envs);
    moving_.reserve(envs);
    states_.reserve(envs);
    for (int i = 0; i < n_; ++i) states_.emplace_back(*config_, players_, 0);
    if (start) {
      reset(seed);
    } else {
      seed_ = seed;
      broken_ = true;  // until restored
    }
  }

  // Polled by step() and reset() (see the top of the file); null: none. The
  // search opponents poll the Interrupt their PlayerOptions gave them.
  void set_interrupt(Interrupt* interrupt) { interrupt_ = interrupt; }

  // Env i's counters, for a copy (restore()).
  OpponentEnvSlot slot(int i) const {
    const auto e = static_cast<std::size_t>(i);
    return {episode_.at(e), moves_[e], learner_steps_[e], seats_[e], played_[e], action_rng_[e].state()};
  }

  // Puts a copy of `state` into env i with its counters, the env seeded
  // `seed` (every env of a copy takes the original's seed). The state must be
  // at the learner's decision (or over, without auto-reset). Once every env
  // is restored, the env steps on as the one slot() was read from.
  void restore(uint64_t seed, int i, const State& state, const OpponentEnvSlot& slot) {
    if (i < 0 || i >= n_)
      throw Error("env " + std::to_string(i) + " out of range [0, " + std::to_string(n_ - 1) + "]");
    if (state.num_players() != players_)
      throw Error("env " + std::to_string(i) + ": the state has " + std::to_string(state.num_players()) +
                  " players, the env " + std::to_string(players_));
    if (slot.seat < 0 || slot.seat >= players_ || (seat_ != kRandomSeat && slot.seat != seat_))
      throw Error("env " + std::to_string(i) + ": seat " + std::to_string(slot.seat) +
                  " is not the learner's seat of this env");
    if (slot.moves < 0 || slot.learner_steps < 0)
      throw Error("env " + std::to_string(i) + ": negative move counts");
    if (state.is_terminal() ? auto_reset_ : state.current_player() != slot.seat)
      throw Error("env " + std::to_string(i) + ": the state is not at the learner's decision");
    const auto e = static_cast<std::size_t>(i);
    seed_ = seed;
    states_[e] = state;
    episode_[e] = slot.episode;
    game_seed_[e] = episode_seed(seed_, e, episode_[e]);
    moves_[e] = slot.moves;
    learner_steps_[e] = slot.learner_steps;
    seats_[e] = slot.seat;
    played_[e] = slot.played;
    action_rng_[e].set_state(slot.action_rng);
    final_steps_[e] = 0;
    reported_[e] = 0;
    clear_outcome(i);
    observe(i);
    broken_ = false;
  }

  // Whether an opponent failed (or a stop was requested) during the last
  // step or reset: the games stopped mid-turn, and step() refuses.
  bool broken() const { return broken_; }

  // Starts a new game in every env; env i's game k uses episode_seed(seed, i, k).
  void reset(uint64_t seed) {
    seed_ = seed;
    broken_ = true;  // until every opponent has moved: a failure leaves the games mid-turn
    std::fill(reported_.begin(), reported_.end(), uint8_t{0});
    for_each_env([&](int i) {
      const auto e = static_cast<std::size_t>(i);
      episode_[e] = 0;
      final_steps_[e] = 0;
      action_rng_[e].reseed(derive_seed(seed_ ^ 0xA5A5A5A5ULL, e));  // VectorEnv's learner stream
      start_game(i);
      clear_outcome(i);
      settle(i);
    });
    play_opponents();
    broken_ = false;
  }

  // The learner's action per env. Validates them all first (IllegalAction
  // naming the env; nothing is stepped), then applies them and plays the
  // opponents. An opponent's bad answer throws Error naming it; the games
  // are then mid-turn and step() refuses until reset().
  void step(const Action* actions) {
    if (broken_)
      throw Error("an opponent failed during the last step and the games stopped mid-turn: call reset()");
    validate(actions);
    std::fill(reported_.begin(), reported_.end(), uint8_t{0});
    broken_ = true;  // until every opponent has moved: a failure leaves the games mid-turn
    for_each_env([&](int i) {
      const auto e = static_cast<std::size_t>(i);
      clear_outcome(i);
      states_[e].apply(actions[i]);
      ++moves_[e];
      ++played_[e];
      ++learner_steps_[e];
      settle(i);
    });
    play_opponents();
    broken_ = false;
  }

  // A uniformly random legal action per env for the learner (each env has its own stream).
  void sample_random_actions(Action* out) {
    parallel_for(n_, threads_, [&](int i) {
      out[i] = random_legal_action(&mask_[static_cast<std::size_t>(i) * actions_], actions_,
                                   action_rng_[static_cast<std::size_t>(i)]);
    });
  }

  int num_envs() const { return n_; }
  int num_players() const { return players_; }
  int num_actions() const { return actions_; }
  int observation_size() const { return obs_size_; }
  int seat() const { return seat_; }
  int num_threads() const { return threads_; }
  void set_num_threads(int n) { threads_ = std::max(1, n); }
  int num_opponents() const { return static_cast<int>(opponents_.size()); }
  const std::string& opponent_name(int k) const { return names_.at(static_cast<std::size_t>(k)); }
  const State& state(int i) const { return states_.at(static_cast<std::size_t>(i)); }
  const std::shared_ptr<const Config>& config() const { return config_; }

  // The learner's view, always at its decision: [N, obs_size] and [N, num_actions].
  float* observations() { return obs_.data(); }
  uint8_t* action_masks() { return mask_.data(); }
  // [N]: the learner's return where its game ended on the last step, else 0.
  float* rewards() { return rewards_.data(); }
  uint8_t* terminated() { return terminated_.data(); }
  uint8_t* truncated() { return truncated_.data(); }
  // [N]: the learner's seat in env i's current game.
  int32_t* seats() { return seats_.data(); }
  // [N]: the learner's decisions so far in env i's current game.
  int32_t* episode_steps() { return learner_steps_.data(); }
  // Written when env i's game ends, valid where terminated or truncated is
  // set: the learner's view of the final position [N, obs_size], its number
  // of decisions, its seat, every seat's return and score [N, P].
  float* final_observations() { return final_obs_.data(); }
  int32_t* final_episode_steps() { return final_steps_.data(); }
  int32_t* final_seats() { return final_seats_.data(); }
  float* final_returns() { return final_returns_.data(); }
  int32_t* final_scores() { return final_scores_.data(); }

  // Every seat's decisions played in all the envs since the env was made,
  // the learner's and the opponents' (what a benchmark compares with the
  // plain vector env's steps).
  uint64_t decisions_played() const {
    uint64_t total = 0;
    for (uint64_t n : played_) total += n;
    return total;
  }

 private:
  // How an opponent's moves are played (see the top of the file): asked
  // in rounds, inline (Player::act_alone) or in groups of envs (Player::act_group).
  enum class Plays : uint8_t { kBatched, kAlone, kNetwork };

  static Plays how_it_plays(const Player<G>& opponent, int num_envs) {
    if (opponent.acts_alone()) return Plays::kAlone;
    // Its rows are the envs' (a slice's group uses the rows of its first envs).
    if (opponent.group_rows() >= num_envs) return Plays::kNetwork;
    return Plays::kBatched;
  }

  // body(i) for every env, then the network opponents' moves that follow,
  // in one parallel loop: each thread takes a slice of the envs.
  template <class F>
  void for_each_env(F&& body) {
    if (!any_network_) return parallel_for(n_, threads_, body);
    for (auto* network : networks_)
      if (network) network->prepare_groups();
    const int slices = std::min(n_, threads_);
    parallel_for(slices, threads_, [&](int slice) {
      const int begin = slice_begin(slice, slices), end = slice_begin(slice + 1, slices);
      for (int i = begin; i < end; ++i) body(i);
      play_network_moves(begin, end);
    });
  }

  int slice_begin(int slice, int slices) const {
    return static_cast<int>(static_cast<int64_t>(slice) * n_ / slices);
  }

  // Whether a network opponent is to move in env i, and which one.
  bool network_to_move(int i, std::size_t& k) const {
    const auto e = static_cast<std::size_t>(i);
    const State& s = states_[e];
    if (s.is_terminal()) return false;
    const int player = s.current_player();
    if (player == seats_[e]) return false;
    k = opponent_of(e, player);
    return plays_[k] == Plays::kNetwork;
  }

  // Plays the network opponents' moves in envs [begin, end) until none is to
  // move in any of them, a group of envs per forward pass: the envs waiting
  // for network k, split into groups of at most kGroupRows (of even sizes).
  // A group uses the runner's rows from `begin` (its size is at most the
  // number of envs waiting, so the rows stay within the slice's).
  void play_network_moves(int begin, int end) {
    int* waiting = &pending_[static_cast<std::size_t>(begin)];
    Decision<G>* d = &decisions_[static_cast<std::size_t>(begin)];
    int count = 0;
    std::size_t k = 0;
    for (int i = begin; i < end; ++i)
      if (network_to_move(i, k)) waiting[count++] = i;
    while (count > 0) {
      // Only the envs that waited can wait again (the others wait for the
      // learner or a batched opponent): the next pass looks at them only.
      int next = 0;
      for (std::size_t net = 0; net < networks_.size(); ++net) {
        if (!networks_[net]) continue;
        int asked = 0;  // network `net`'s envs, moved to the front of `waiting`'s free part
        for (int j = next; j < count; ++j) {
          if (!network_to_move(waiting[j], k) || k != net) continue;
          std::swap(waiting[j], waiting[next + asked]);
          ++asked;
        }
        const int groups = PolicyRunner::groups(asked);
        for (int g = 0; g < groups; ++g) {
          const int first = PolicyRunner::group_begin(asked, g),
                    last = PolicyRunner::group_begin(asked, g + 1);
          for (int j = first; j < last; ++j) d[j - first] = decision(waiting[next + j], net);
          naming_agent([&]() -> const std::string& { return names_[net]; },
                       [&] { networks_[net]->act_group(d, last - first, begin); });
          for (int j = first; j < last; ++j) {
            const int i = waiting[next + j];
            answer_[static_cast<std::size_t>(i)] = d[j - first].action;
            play_answer(i);
            settle(i);
          }
        }
        next += asked;
      }
      // Those where a network is to move again, kept in order.
      int again = 0;
      for (int j = 0; j < next; ++j)
        if (network_to_move(waiting[j], k)) waiting[again++] = waiting[j];
      count = again;
    }
  }

  // Env i's decision for opponent k, its random stream seeded as gather() seeds it.
  Decision<G> decision(int i, std::size_t k) {
    const auto e = static_cast<std::size_t>(i);
    move_rng_[e].reseed(move_seed(e));
    asker_[e] = static_cast<int>(k);
    return {&states_[e], states_[e].current_player(), &move_rng_[e], search_seed(e, k)};
  }

  void validate(const Action* actions) {
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (int i = 0; i < n_; ++i) {
      const Action a = actions[i];
      illegal_[static_cast<std::size_t>(i)] =
          a < 0 || a >= actions_ ||
          !mask_[static_cast<std::size_t>(i) * actions_ + static_cast<std::size_t>(a)];
    }
    for (int i = 0; i < n_; ++i)
      if (illegal_[static_cast<std::size_t>(i)])
        throw IllegalAction("env " + std::to_string(i) + ": action " + std::to_string(actions[i]) + " " +
                            action_fault<G>(states_[static_cast<std::size_t>(i)], actions[i]) +
                            "; no env was stepped");
  }

  void start_game(int i) {
    const auto e = static_cast<std::size_t>(i);
    game_seed_[e] = episode_seed(seed_, e, episode_[e]);
    states_[e] = State(*config_, players_, game_seed_[e]);
    seats_[e] = seat_ != kRandomSeat
                    ? seat_
                    : static_cast<int32_t>(Rng(derive_seed(game_seed_[e], streams::kLearnerSeat))
                                               .below(static_cast<uint32_t>(players_)));
    moves_[e] = 0;
    learner_steps_[e] = 0;
  }

  // Which opponent plays `player` in env e.
  std::size_t opponent_of(std::size_t e, int player) const {
    if (opponents_.size() == 1) return 0;
    return static_cast<std::size_t>((player - seats_[e] - 1 + players_) % players_);
  }

  // After env i's game moved on: reports it if it ended (and starts the
  // next one), plays the inline opponents' moves, and encodes the learner's
  // view once the learner is to move (only then, and only the learner's).
  // Done where the move was applied, so that a step runs as few parallel
  // loops as it can (each one wakes the threads up).
  void settle(int i) {
    const auto e = static_cast<std::size_t>(i);
    for (;;) {
      end_if_over(i);
      const State& s = states_[e];
      const int player = s.current_player();
      if (player == seats_[e] || s.is_terminal()) {
        observe(i);
        return;
      }
      const std::size_t k = opponent_of(e, player);
      if (plays_[k] == Plays::kBatched) return;  // asked in the next round of play_opponents
      if (plays_[k] == Plays::kNetwork) return;  // played by play_network_moves
      play_inline(i, k);
    }
  }

  // Opponent k's move in env i, played inline (Player::act_alone): the
  // stream act() would give it, the same move.
  void play_inline(int i, std::size_t k) {
    const auto e = static_cast<std::size_t>(i);
    move_rng_[e].reseed(move_seed(e));
    const Decision<G> d{&states_[e], states_[e].current_player(), &move_rng_[e], search_seed(e, k)};
    // The learner's mask row is free until the learner is to move (observe writes it then).
    naming_agent(
        [&]() -> const std::string& { return names_[k]; },
        [&] { answer_[e] = opponents_[k]->act_alone(d, &mask_[e * static_cast<std::size_t>(actions_)]); });
    asker_[e] = static_cast<int>(k);
    play_answer(i);
  }

  uint64_t move_seed(std::size_t e) const {
    return streams::move_seed(game_seed_[e], static_cast<uint64_t>(moves_[e]));
  }
  uint64_t search_seed(std::size_t e, std::size_t k) const {
    return streams::search_seed(game_seed_[e], k, static_cast<uint64_t>(moves_[e]));
  }

  // Plays the batched opponents' moves, round by round, until the learner is
  // to move in every env.
  void play_opponents() {
    if (!any_batched_) return;  // settle() played every move already
    while (gather()) {
      if (interrupt_) interrupt_->check();
      round_.ask(
          opponents_, [&](std::size_t k) -> const std::string& { return names_[k]; },
          [&](int i, Action a) { answer_[static_cast<std::size_t>(i)] = a; });
      parallel_for(static_cast<int>(moving_.size()), threads_, [&](int j) {
        const int i = moving_[static_cast<std::size_t>(j)];
        play_answer(i);
        settle(i);
      });
      if (any_network_) for_each_env([](int) {});  // the network moves that follow
    }
  }

  // Groups the envs where an opponent is to move by opponent; false if none.
  bool gather() {
    moving_.clear();
    round_.clear();
    for (int i = 0; i < n_; ++i) {
      const auto e = static_cast<std::size_t>(i);
      const int player = states_[e].current_player();
      if (player == seats_[e] || states_[e].is_terminal()) continue;
      const std::size_t k = opponent_of(e, player);
      if (plays_[k] != Plays::kBatched) continue;  // a network's: play_network_moves plays it
      round_.add(k, i, decision(i, k));
      moving_.push_back(i);
    }
    return !moving_.empty();
  }

  // Applies the opponent's answer in env i, checked first: an out-of-range or
  // illegal action is never applied (the game would break on it).
  void play_answer(int i) {
    const auto e = static_cast<std::size_t>(i);
    const Action a = answer_[e];
    if (a < 0 || a >= actions_ || !states_[e].is_legal(a))
      throw Error("opponent " + quote(names_[static_cast<std::size_t>(asker_[e])]) + " returned action " +
                  std::to_string(a) + " in env " + std::to_string(i) + ": " + action_fault<G>(states_[e], a));
    states_[e].apply(a);
    ++moves_[e];
    ++played_[e];
  }

  // Reports env i's game if it is over, and starts the next one.
  void end_if_over(int i) {
    const auto e = static_cast<std::size_t>(i);
    State& s = states_[e];
    if (!s.is_terminal()) return;
    // A game that ends before the learner's first move would need two
    // reports in one step; none of the games can end that early.
    if (reported_[e])
      throw InvariantViolation("env " + std::to_string(i) + ": a game ended before the learner's first move");
    reported_[e] = 1;
    float* returns = &final_returns_[e * static_cast<std::size_t>(players_)];
    s.returns(returns);
    s.scores(&final_scores_[e * static_cast<std::size_t>(players_)]);
    rewards_[e] = returns[seats_[e]];
    (s.is_truncated() ? truncated_ : terminated_)[e] = 1;
    Encoder::encode(s, seats_[e], &final_obs_[e * static_cast<std::size_t>(obs_size_)]);
    final_steps_[e] = learner_steps_[e];
    final_seats_[e] = seats_[e];
    if (!auto_reset_) return;
    ++episode_[e];
    start_game(i);
  }

  void clear_outcome(int i) {
    const auto e = static_cast<std::size_t>(i);
    rewards_[e] = 0.0f;
    terminated_[e] = 0;
    truncated_[e] = 0;
  }

  void observe(int i) {
    const auto e = static_cast<std::size_t>(i);
    const State& s = states_[e];
    s.legal_actions_mask(&mask_[e * static_cast<std::size_t>(actions_)]);
    Encoder::encode(s, seats_[e], &obs_[e * static_cast<std::size_t>(obs_size_)]);
  }

  std::shared_ptr<const Config> config_;
  int n_, players_, seat_, threads_;
  bool auto_reset_;
  int obs_size_ = 0, actions_ = 0;
  uint64_t seed_ = 0;
  bool broken_ = false;  // an opponent failed mid-round: reset() before stepping
  Interrupt* interrupt_ = nullptr;
  std::vector<std::unique_ptr<Player<G>>> opponents_;
  std::vector<std::string> names_;
  std::vector<Plays> plays_;          // per opponent
  std::vector<Player<G>*> networks_;  // per opponent: the network played in groups, or null
  bool any_batched_ = false, any_network_ = false;
  std::vector<State> states_;
  std::vector<float> obs_;
  std::vector<uint8_t> mask_;
  std::vector<float> rewards_;
  std::vector<uint8_t> terminated_, truncated_, illegal_, reported_;
  std::vector<int32_t> seats_, learner_steps_;
  std::vector<float> final_obs_;
  std::vector<int32_t> final_steps_, final_seats_;
  std::vector<float> final_returns_;
  std::vector<int32_t> final_scores_;
  std::vector<uint64_t> game_seed_, episode_;
  std::vector<int> moves_;              // every seat's moves in env i's current game
  std::vector<uint64_t> played_;        // every seat's moves in env i since construction
  std::vector<Action> answer_;          // the opponents' answers of the current round, per env
  std::vector<int> asker_;              // which opponent gave it
  std::vector<Rng> move_rng_;           // the opponent's stream for the current move, per env
  std::vector<Rng> action_rng_;         // the learner's random actions (sample_random_actions)
  SeatRound<G> round_;                  // the batched opponents' decisions this round
  std::vector<int> moving_;             // every env asked this round
  std::vector<int> pending_;            // per env slice: the envs waiting for a network's move
  std::vector<Decision<G>> decisions_;  // per env slice: a group's decisions
};

}  // namespace rocketgym::players
