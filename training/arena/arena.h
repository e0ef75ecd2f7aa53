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
#include <string>
#include <vector>

#include "envs/core/quoted.h"
#include "envs/core/rng.h"
#include "training/arena/results.h"
#include "training/arena/schedule.h"
#include "training/players/player.h"
#include "training/players/seat_round.h"
#include "training/seed_streams.h"

namespace rocketgym::arena {

// Games in flight unless said otherwise: the arena config's `parallel`
// default (arena_run.h) and the players' batch.
inline constexpr int kDefaultParallel = 64;

struct ArenaOptions {
  int parallel = kDefaultParallel;  // games in flight
  int threads = 2;                  // OpenMP threads for the players that do not batch
  torch::Device device = torch::kCPU;
  players::Interrupt* interrupt = nullptr;  // polled between rounds (null: plays to the end)
};

template <class G>
class Arena {
 public:
  using State = typename G::State;
  using Config = typename G::Config;
  using Progress = std::function<void(int done, int total)>;
  // Called as each game ends (in the order they end): its index in the
  // schedule, its result and its moves (those kept with `moves`).
  using Finished = std::function<void(int game, const GameRecord& result, const std::vector<Action>& moves)>;

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
        throw Error("arena: agent " + quote(agent.name) + " has no network loaded");
      players::PlayerOptions player_options{options_.threads, options_.parallel, options_.device};
      player_options.interrupt = options_.interrupt;
      seated_.push_back(players::make_player<G>(agent, player_options));
    }
  }

  // Plays the schedule; returns one result per scheduled game, in schedule
  // order. With `moves`, also every game's actions (moves[k]: game k's, in
  // the order they were played); without, no move is kept. `finished` hears
  // of each game as it ends (its moves are empty without `moves`).
  // Interrupted (options.interrupt), only the finished games, still in
  // schedule order.
  std::vector<GameRecord> play(const std::vector<ScheduledGame>& schedule, const Progress& progress = nullptr,
                               std::vector<std::vector<Action>>* moves = nullptr,
                               const Finished& finished = nullptr) {
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
    round_.reserve(agents_.size(), static_cast<std::size_t>(slots));
    std::vector<GameRecord> records(static_cast<std::size_t>(total));
    std::vector<uint8_t> ended(static_cast<std::size_t>(total), 0);  // the games that finished
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
      // Each game's decision waits for the agent whose seat is to move. Its
      // random stream and search seed: functions of the game's seed, the
      // move number and (the search's) the agent's place in the lineup only.
      round_.clear();
      for (int s = 0; s < slots; ++s) {
        const auto slot = static_cast<std::size_t>(s);
        const int g = game_of_[slot];
        if (g < 0) continue;
        const ScheduledGame& game = schedule[static_cast<std::size_t>(g)];
        const int player = states_[slot].current_player();
        const auto agent = static_cast<std::size_t>(game.agent[static_cast<std::size_t>(player)]);
        const auto move = static_cast<uint64_t>(decisions_[slot]);
        rngs_[slot].reseed(streams::move_seed(game.seed, move));
        round_.add(agent, s,
                   {&states_[slot], player, &rngs_[slot], streams::search_seed(game.seed, agent, move)});
      }
      try {
        ask_round();
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
        ended[static_cast<std::size_t>(g)] = 1;
        if (moves) {
          std::vector<Action>& played = slot_moves_[static_cast<std::size_t>(s)];
          (*moves)[static_cast<std::size_t>(g)].assign(played.begin(), played.end());
          played.clear();
        }
        if (finished)
          finished(g, records[static_cast<std::size_t>(g)],
                   moves ? (*moves)[static_cast<std::size_t>(g)] : no_moves_);
        --active;
        ++done;
        if (progress) progress(done, total);
        start_game(s);
      }
    }
    if (interrupted_) keep_finished(ended, records, moves);
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

  // Every agent with decisions waiting, in index order (its errors name it).
  void ask_round() {
    round_.ask(
        seated_, [&](std::size_t a) -> const std::string& { return agents_[a].name; },
        [&](int s, Action action) { actions_[static_cast<std::size_t>(s)] = action; });
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
  players::SeatRound<G> round_;
  std::vector<std::vector<Action>> slot_moves_;  // the moves of each slot's game so far, when kept
  const std::vector<Action> no_moves_;
  bool interrupted_ = false;
};

}  // namespace rocketgym::arena
