// SelfPlay<G>: many games of search-based self-play at once.
//
// Every decision of every seat is chosen by an information-set search
// (training/mcts/mcts.h) from the point of view of the player to move, with
// the network's priors and value vector as evaluator. That player is whoever
// the game asks, so out-of-turn decisions (reactions, hidden draft picks) are
// searched like any other, and chance (shuffles, dice) is resampled in every
// simulation's world.
//
// All games advance together: each round, every unfinished search runs until
// it needs a leaf evaluated (in parallel, OpenMP), then the pending leaves go
// through the network in one batch. A search has at most one pending leaf, so
// the result does not depend on how searches are batched. Searches keep their
// node arenas from one move to the next, so a simulation allocates nothing.
//
// Each decision with a choice that got the full search becomes a training
// position: the observation of the player to move, the legal mask and the
// search's improved policy; its value target (the outcome for every seat,
// relative to that player) is filled in when the game ends. With playout cap
// randomization (selfplay.full_search_share < 1) the other decisions get a
// fast search and are only played.
//
// Mixed tables (game.players a list or mapping): each game draws its table
// size from its own seed (derive_seed(seed, k) as above), weighted as the
// config says, so the same seed gives the same tables whatever the threads
// or the number of games in flight. Value targets fill the seats of the
// game's own table (ReplayBuffer::finish).
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "envs/core/rng.h"
#include "training/alphazero/replay_buffer.h"
#include "training/alphazero/train_config.h"
#include "training/game_setup.h"
#include "training/mcts/mcts.h"
#include "training/mcts/network_evaluator.h"
#include "training/policy_runner.h"

namespace rocketgym::alphazero {

struct SelfPlayStats {
  int64_t positions = 0;  // training positions recorded
  int64_t decisions = 0;  // moves played (forced moves included)
  int64_t games = 0;      // games finished
  int64_t simulations = 0;
  int64_t leaves = 0;            // network evaluations
  int64_t batches = 0;           // forward passes they took
  double seconds = 0.0;          // wall time in play()
  double network_seconds = 0.0;  // of which in forward passes
};

template <class G>
class SelfPlay {
 public:
  using State = typename G::State;
  using Config = typename G::Config;

  // Game k of this self-play (counting across play() calls) is seeded
  // derive_seed(seed, k); searches of its n-th decision and its table size
  // (among `tables`) derive from that.
  SelfPlay(std::shared_ptr<const Config> config, std::vector<TableShare> tables, const TrainConfig& cfg,
           PolicyRunner& runner, uint64_t seed)
      : config_(std::move(config)),
        tables_(std::move(tables)),
        cfg_(cfg),
        evaluator_(runner, cfg.threads, cfg.search),  // the search block may mix in the heuristic
        seed_(seed),
        num_actions_(G::info().num_actions) {
    slots_.reserve(static_cast<std::size_t>(cfg.games));
    for (int i = 0; i < cfg.games; ++i) {
      slots_.push_back(std::make_unique<Slot>(*config_, tables_.front().players, cfg.search));
      new_game(*slots_.back());
    }
    searching_.assign(slots_.size(), 0);
    leaves_.reserve(slots_.size());
    returns_.resize(static_cast<std::size_t>(G::info().max_players));
    relative_.resize(static_cast<std::size_t>(G::info().max_players));
  }

  // Plays until at least `positions` new training positions are in `buffer`
  // (the games under way at the end go on in the next call).
  SelfPlayStats play(int positions, ReplayBuffer& buffer) {
    SelfPlayStats stats;
    const auto started = std::chrono::steady_clock::now();
    const double network_before = evaluator_.network_seconds();
    const long long leaves_before = evaluator_.leaves();
    const long long batches_before = evaluator_.batches();
    while (stats.positions < positions) {
      start_searches();
      run_searches();
      for (auto& slot : slots_) {
        stats.simulations += slot->search.simulations_done();
        play_decision(*slot, buffer, stats);
      }
    }
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    stats.network_seconds = evaluator_.network_seconds() - network_before;
    stats.leaves = evaluator_.leaves() - leaves_before;
    stats.batches = evaluator_.batches() - batches_before;
    return stats;
  }

  int64_t games_started() const { return games_started_; }
  // Games started at each table size so far (index: players).
  const std::vector<int64_t>& games_at() const { return games_at_; }

 private:
  struct Pending {
    ReplayBuffer::Ticket ticket;
    int player = 0;
  };
  struct Slot {
    Slot(const Config& config, int players, const mcts::Options& options)
        : state(config, players, 0), search(options) {}
    State state;
    mcts::Search<G> search;
    uint64_t seed = 0;
    int decisions = 0;
    bool full = true;              // this decision gets the full search and is recorded
    std::vector<Pending> pending;  // positions of this game awaiting its outcome
  };

  void new_game(Slot& slot) {
    slot.seed = derive_seed(seed_, static_cast<uint64_t>(games_started_++));
    const int players = draw_table_size(tables_, slot.seed);
    ++games_at_[static_cast<std::size_t>(players)];
    slot.state = State(*config_, players, slot.seed);
    slot.decisions = 0;
    slot.pending.clear();
  }

  // Each decision draws, from its game's stream, whether it gets the full
  // search (and is recorded) or a fast one.
  void start_searches() {
    for (auto& slot : slots_) {
      const uint64_t seed = derive_seed(slot->seed ^ 0x5E1F'9A7EULL, static_cast<uint64_t>(slot->decisions));
      Rng draw(seed);
      slot->full = cfg_.full_search_share >= 1.0 || draw.uniform01() < cfg_.full_search_share;
      slot->search.set_simulations(slot->full ? cfg_.search.simulations : cfg_.fast_simulations);
      slot->search.reseed(seed);
      const bool greedy = cfg_.greedy_after > 0 && slot->decisions >= cfg_.greedy_after;
      slot->search.set_gumbel_scale(greedy ? 0.0 : cfg_.search.gumbel_scale);
      slot->search.start(slot->state);
    }
  }

  // Advances every search to its end; each round evaluates one leaf per
  // unfinished search in a single batch.
  void run_searches() {
    const int n = static_cast<int>(slots_.size());
    for (;;) {
#pragma omp parallel for schedule(dynamic, 4) num_threads(cfg_.threads)
      for (int i = 0; i < n; ++i) {
        mcts::Search<G>& search = slots_[static_cast<std::size_t>(i)]->search;
        searching_[static_cast<std::size_t>(i)] = !search.finished() && search.advance();
      }
      leaves_.clear();
      for (int i = 0; i < n; ++i)
        if (searching_[static_cast<std::size_t>(i)])
          leaves_.push_back(slots_[static_cast<std::size_t>(i)]->search.pending());
      if (leaves_.empty()) return;
      evaluator_.evaluate(leaves_.data(), static_cast<int>(leaves_.size()));
    }
  }

  // Records the position (unless the move was forced), plays the search's
  // move and, when the game ends, gives its positions their value targets.
  void play_decision(Slot& slot, ReplayBuffer& buffer, SelfPlayStats& stats) {
    State& state = slot.state;
    const int player = state.current_player();
    if (slot.full && !slot.search.forced()) {  // a forced move teaches nothing
      const ReplayBuffer::Ticket ticket = buffer.add();
      G::Encoder::encode(state, player, buffer.observation(ticket.slot));
      state.legal_actions_mask(buffer.mask(ticket.slot));
      slot.search.improved_policy(buffer.policy(ticket.slot));
      slot.pending.push_back({ticket, player});
      ++stats.positions;
    }
    state.apply(slot.search.choose_action());
    ++slot.decisions;
    ++stats.decisions;
    if (!state.is_terminal()) return;
    state.returns(returns_.data());
    const int players = state.num_players();
    for (const Pending& p : slot.pending) {
      for (int j = 0; j < players; ++j)
        relative_[static_cast<std::size_t>(j)] = returns_[static_cast<std::size_t>((p.player + j) % players)];
      buffer.finish(p.ticket, relative_.data(), players);
    }
    ++stats.games;
    new_game(slot);
  }

  std::shared_ptr<const Config> config_;
  std::vector<TableShare> tables_;  // the table sizes drawn, with their weights
  std::vector<int64_t> games_at_ =
      std::vector<int64_t>(static_cast<std::size_t>(G::info().max_players) + 1, 0);
  const TrainConfig& cfg_;
  mcts::NetworkEvaluator<G> evaluator_;
  uint64_t seed_;
  int num_actions_;
  int64_t games_started_ = 0;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<uint8_t> searching_;
  std::vector<mcts::Leaf<State>> leaves_;
  std::vector<float> returns_, relative_;
};

}  // namespace rocketgym::alphazero
