// Arena<G>: plays a schedule of games (schedule.h) between players
// (training/players) for one concrete game type, many games at once.
//
// `parallel` games are in flight. Each round, the games are grouped by the
// player to move and each player is asked for its group's moves in one call
// (players::Player<G>::act): a network player encodes its group and runs one
// batched forward pass, the others act on their games in parallel (OpenMP).
// Every random choice a player makes in a game comes from streams derived
// from that game's seed and move number, so results do not depend on
// `parallel`, on the thread count or on the order games finish.
//
// The caller may supply the player of some agents itself (rg.arena's Python
// agents): a non-null entry of `supplied` plays for that agent, whose spec
// then only names it. play() can also keep every game's moves (for game
// records, envs/core/game_record.h), in schedule order like the results.
//
// With an Interrupt (options.interrupt, players/interrupt.h), play() polls it
// before every round of moves, and the search players between searches; on
// a stop it returns the games finished so far (interrupted() says so).
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "envs/core/rng.h"
#include "training/arena/results.h"
#include "training/arena/schedule.h"
#include "training/players/player.h"

namespace rocketgym::arena {

struct ArenaOptions {
  int parallel = 64;  // games in flight
  int threads = 2;    // OpenMP threads for the players that do not batch
  torch::Device device = torch::kCPU;
  players::Interrupt* interrupt = nullptr;  // polled between rounds (null: plays to the end)
};

template <class G>
class Arena {
 public:
  using State = typename G::State;
  using Config = typename G::Config;
  using Progress = std::function<void(int done, int total)>;

  using Supplied = std::vector<std::shared_ptr<players::Player<G>>>;

  // The players must be resolved, network players with `net` set
  // (players::resolve()), except those `supplied` (one entry per agent or
  // none; a null entry: made from the agent's spec).
  Arena(std::shared_ptr<const Config> config, int num_players, std::vector<players::PlayerSpec> agents,
        ArenaOptions options, Supplied supplied = {})
      : config_(std::move(config)), players_(num_players), agents_(std::move(agents)), options_(options) {
    options_.parallel = std::max(1, options_.parallel);
    options_.threads = std::max(1, options_.threads);
    if (!supplied.empty() && supplied.size() != agents_.size())
      throw Error("arena: " + std::to_string(supplied.size()) + " supplied players for " +
                  std::to_string(agents_.size()) + " agents");
    for (std::size_t a = 0; a < agents_.size(); ++a) {
      if (!supplied.empty() && supplied[a]) {
        seated_.push_back(std::move(supplied[a]));
        continue;
      }
      const auto& agent = agents_[a];
      if (players::uses_network(agent) && !agent.net)
        throw Error("arena: agent '" + agent.name + "' has no network loaded");
      players::PlayerOptions player_options{options_.threads, options_.parallel, options_.device};
      player_options.interrupt = options_.interrupt;
      seated_.push_back(players::make_player<G>(agent, player_options));
    }
  }

  // Plays the schedule; returns one result per scheduled game, in schedule
  // order. With `moves`, also every game's actions (moves[k]: game k's, in
  // the order they were played); without, no move is kept. Interrupted
  // (options.interrupt), only the finished games, still in schedule order.
  std::vector<GameRecord> play(const std::vector<ScheduledGame>& schedule, const Progress& progress = nullptr,
                               std::vector<std::vector<Action>>* moves = nullptr) {
    interrupted_ = false;
    const int total = static_cast<int>(schedule.size());
    const int slots = std::min(options_.parallel, std::max(1, total));
    states_.clear();
    for (int s = 0; s < slots; ++s) states_.emplace_back(*config_, players_, 0);
    game_of_.assign(static_cast<std::size_t>(slots), -1);
    decisions_.assign(static_cast<std::size_t>(slots), 0);
    actions_.assign(static_cast<std::size_t>(slots), 0);
    rngs_.assign(static_cast<std::size_t>(slots), Rng(0));
    if (moves) {
      moves->assign(static_cast<std::size_t>(total), {});
      slot_moves_.resize(static_cast<std::size_t>(slots));
      for (auto& m : slot_moves_) m.reserve(kMovesReserved);  // kept from game to game
    }
    std::vector<std::vector<int>> to_move(agents_.size());
    std::vector<std::vector<players::Decision<G>>> asked(agents_.size());  // per agent, this round
    for (std::size_t a = 0; a < agents_.size(); ++a) {
      to_move[a].reserve(static_cast<std::size_t>(slots));
      asked[a].reserve(static_cast<std::size_t>(slots));
    }
    std::vector<GameRecord> records(static_cast<std::size_t>(total));
    std::vector<uint8_t> finished(static_cast<std::size_t>(total), 0);
    int next = 0, active = 0, done = 0;
    auto start_game = [&](int s) {
      game_of_[static_cast<std::size_t>(s)] = next < total ? next++ : -1;
      if (game_of_[static_cast<std::size_t>(s)] < 0) return;
      const ScheduledGame& g = schedule[static_cast<std::size_t>(game_of_[static_cast<std::size_t>(s)])];
      states_[static_cast<std::size_t>(s)] = State(*config_, players_, g.seed);
      decisions_[static_cast<std::size_t>(s)] = 0;
      ++active;
    };
    for (int s = 0; s < slots; ++s) start_game(s);
    while (active > 0) {
      if (players::stop_requested(options_.interrupt)) {
        interrupted_ = true;
        break;
      }
      for (auto& group : to_move) group.clear();
      for (int s = 0; s < slots; ++s) {
        const int g = game_of_[static_cast<std::size_t>(s)];
        if (g < 0) continue;
        const int player = states_[static_cast<std::size_t>(s)].current_player();
        to_move[static_cast<std::size_t>(
                    schedule[static_cast<std::size_t>(g)].agent[static_cast<std::size_t>(player)])]
            .push_back(s);
        // The agent's random stream for this move: a function of the game's
        // seed and the move number only.
        rngs_[static_cast<std::size_t>(s)].reseed(
            derive_seed(schedule[static_cast<std::size_t>(g)].seed ^ 0xA2E4A5EEDULL,
                        static_cast<uint64_t>(decisions_[static_cast<std::size_t>(s)])));
      }
      try {
        for (std::size_t a = 0; a < agents_.size(); ++a)
          if (!to_move[a].empty()) act(a, to_move[a], asked[a], schedule);
      } catch (const players::Interrupted&) {
        interrupted_ = true;  // a player stopped mid-round: this round's moves are not played
        break;
      }
#pragma omp parallel for schedule(static) num_threads(options_.threads)
      for (int s = 0; s < slots; ++s) {
        if (game_of_[static_cast<std::size_t>(s)] < 0) continue;
        states_[static_cast<std::size_t>(s)].apply(actions_[static_cast<std::size_t>(s)]);
        if (moves) slot_moves_[static_cast<std::size_t>(s)].push_back(actions_[static_cast<std::size_t>(s)]);
        ++decisions_[static_cast<std::size_t>(s)];
      }
      for (int s = 0; s < slots; ++s) {
        const int g = game_of_[static_cast<std::size_t>(s)];
        if (g < 0 || !states_[static_cast<std::size_t>(s)].is_terminal()) continue;
        records[static_cast<std::size_t>(g)] = record(schedule[static_cast<std::size_t>(g)], s);
        finished[static_cast<std::size_t>(g)] = 1;
        if (moves) {
          std::vector<Action>& played = slot_moves_[static_cast<std::size_t>(s)];
          (*moves)[static_cast<std::size_t>(g)].assign(played.begin(), played.end());
          played.clear();
        }
        --active;
        ++done;
        if (progress) progress(done, total);
        start_game(s);
      }
    }
    if (interrupted_) keep_finished(finished, records, moves);
    return records;
  }

  // Whether the last play() stopped on its Interrupt before the end.
  bool interrupted() const { return interrupted_; }

 private:
  static constexpr std::size_t kMovesReserved = 512;  // per slot: most games are shorter

  // Drops the games that did not finish (kept in schedule order).
  static void keep_finished(const std::vector<uint8_t>& finished, std::vector<GameRecord>& records,
                            std::vector<std::vector<Action>>* moves) {
    std::size_t kept = 0;
    for (std::size_t g = 0; g < records.size(); ++g) {
      if (!finished[g]) continue;
      if (kept != g) {
        records[kept] = records[g];
        if (moves) (*moves)[kept] = std::move((*moves)[g]);
      }
      ++kept;
    }
    records.resize(kept);
    if (moves) moves->resize(kept);
  }

  GameRecord record(const ScheduledGame& g, int s) const {
    const State& state = states_[static_cast<std::size_t>(s)];
    GameRecord r;
    r.lineup = g.lineup;
    r.rotation = g.rotation;
    r.seed = g.seed;
    r.num_players = players_;
    r.agent = g.agent;
    state.returns(r.returns.data());
    r.truncated = state.is_truncated();
    r.decisions = decisions_[static_cast<std::size_t>(s)];
    return r;
  }

  // Asks player `a` for the moves of the games in `group` (slots), in one call.
  void act(std::size_t a, const std::vector<int>& group, std::vector<players::Decision<G>>& batch,
           const std::vector<ScheduledGame>& schedule) {
    batch.clear();
    for (int slot : group) {
      const auto s = static_cast<std::size_t>(slot);
      const State& state = states_[s];
      // A search is seeded by game, move and the player's place in the
      // lineup, like the other random streams.
      const uint64_t search_seed =
          derive_seed(schedule[static_cast<std::size_t>(game_of_[s])].seed ^ (0x5EA4C4ULL + a),
                      static_cast<uint64_t>(decisions_[s]));
      batch.push_back({&state, state.current_player(), &rngs_[s], search_seed});
    }
    seated_[a]->act(batch.data(), static_cast<int>(batch.size()));
    for (std::size_t k = 0; k < group.size(); ++k)
      actions_[static_cast<std::size_t>(group[k])] = batch[k].action;
  }

  std::shared_ptr<const Config> config_;
  int players_;
  std::vector<players::PlayerSpec> agents_;
  ArenaOptions options_;
  std::vector<std::shared_ptr<players::Player<G>>> seated_;  // per agent
  std::vector<State> states_;
  std::vector<int> game_of_, decisions_;
  std::vector<Action> actions_;
  std::vector<Rng> rngs_;
  std::vector<std::vector<Action>> slot_moves_;  // the moves of each slot's game so far, when kept
  bool interrupted_ = false;
};

}  // namespace rocketgym::arena
