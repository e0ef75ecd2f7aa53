// Opponents<G>: who sits at each of PPO's envs, drawn per episode, and the
// opponents' moves.
//
// Each episode of an env draws by the opponents: weights (train_config.h)
// the learner at every seat (self_play), or the learner at one random seat
// and a single opponent at all the others: an earlier snapshot of the pool
// (sampling from its policy like the learner) or one of opponents.agents, any
// agent spec (training/players/player_spec.h). The agents are resolved once,
// at start, for every table size of the run: a checkpoint's or zoo bot's
// network is loaded then, never per episode (with several ranks each reads
// rank 0's checkpoint files, arena_ranks.h); an error names where the config
// gave the agent. Per step the opponents to move are asked in one round of
// the seat loop (players/seat_round.h): each player (an agent at one table
// size, a snapshot) gets all its decisions in one act() call. Nothing is
// allocated per step once the round has room.
//
// Seeds: the draws come from one stream per update (streams::kPpoSeating); a
// move's random stream is its env's (the learner's), and its search seed
// derives from the env, the player and the step (streams::kPpoSearch), so the
// same seed plays the same games.
//
// Counting: the learner's share of the win (as the arena counts it) in each
// game against the pool and against each agent: the columns pool, then the
// agents in the config's order, for metrics.csv (train_win_vs_<name>) and the
// progress line.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/core/rng.h"
#include "models/checkpoint.h"
#include "training/arena/arena_ranks.h"
#include "training/arena/results.h"
#include "training/distributed/distributed.h"
#include "training/players/player.h"
#include "training/players/seat_round.h"
#include "training/ppo/train_config.h"
#include "training/seed_streams.h"

namespace rocketgym::ppo {

template <class G>
class Opponents {
 public:
  // Who controls a seat: the learner, a pool snapshot (its index, >= 0) or
  // agent a (kFirstAgent - a).
  static constexpr int kLearner = -1, kFirstAgent = -2;
  // What an episode was drawn to be: self-play, or the column of its opponent.
  static constexpr int kSelfPlay = -1, kPool = 0;

  // Resolves the config's agents for each table size of `table_sizes`
  // (ascending, as the run plays them). A collective with several ranks.
  // Throws ConfigError, CheckpointError or Error naming the agent.
  Opponents(const TrainConfig& config, std::vector<int> table_sizes,
            const std::vector<int>& observation_shape, torch::Device device, const dist::Context& context)
      : cfg_(config), sizes_(std::move(table_sizes)), device_(device) {
    std::vector<players::PlayerSpec> specs;
    for (const OpponentAgent& a : cfg_.agents) specs.push_back(a.spec);
    arena::use_rank0_files(specs, context);
    for (std::size_t a = 0; a < specs.size(); ++a) {
      const OpponentAgent& agent = cfg_.agents[a];
      const std::string who =
          (agent.where.empty() ? "opponents.agents '" + agent.name() + "'" : agent.where) + ": ";
      for (int players : sizes_) {
        players::PlayerSpec spec = specs[a];
        spec.name = agent.name();
        try {
          players::resolve(spec, G::info().id, players, observation_shape, G::info().num_actions, device);
        } catch (const CheckpointError& e) {
          throw CheckpointError(who + e.what());
        } catch (const ConfigError& e) {
          throw ConfigError(who + e.what());
        } catch (const Error& e) {
          throw Error(who + e.what());
        }
        resolved_.push_back(std::move(spec));
      }
    }
    const std::size_t columns = 1 + cfg_.agents.size();
    wins_.assign(columns, 0.0);
    games_.assign(columns, 0.0);
    last_rate_.assign(columns, -1.0);
  }

  // --- the pool ------------------------------------------------------------------

  std::size_t pool_size() const { return pool_.size(); }
  // A snapshot joins the pool (a resumed run's, or the current network's).
  // Returns true when the oldest one left it to keep cfg.pool_size.
  bool add_snapshot(PolicyValueNet snapshot) {
    pool_.push_back(std::move(snapshot));
    seated_.resize(resolved_.size());  // the snapshots' players follow the pool's: made on demand
    if (static_cast<int>(pool_.size()) <= cfg_.pool_size) return false;
    pool_.erase(pool_.begin());
    // Episodes under way against a snapshot keep their (shifted) opponent;
    // those against the dropped one finish against the next oldest.
    for (auto& seats : seats_)
      for (int& who : seats)
        if (who > 0) --who;
    return true;
  }

  // --- drawing the tables --------------------------------------------------------

  // Draws every env's first table, from this update's stream; `env` gives the
  // envs' table sizes.
  template <class Env>
  void begin(const Env& env, int envs, uint64_t rank_seed, int64_t updates) {
    const auto n = static_cast<std::size_t>(envs);
    seats_.assign(n, {});
    drawn_.assign(n, kSelfPlay);
    size_index_.assign(n, 0);
    search_base_.assign(n, 0);
    table_rng_.reseed(derive_seed(rank_seed ^ streams::kPpoSeating, static_cast<uint64_t>(updates)));
    for (std::size_t i = 0; i < n; ++i) {
      const int players = env.players(static_cast<int>(i));
      size_index_[i] = static_cast<int>(std::find(sizes_.begin(), sizes_.end(), players) - sizes_.begin());
      search_base_[i] = derive_seed(rank_seed ^ streams::kPpoSearch, i);
    }
    seated_.reserve(resolved_.size() + static_cast<std::size_t>(cfg_.pool_size) + 1);
    for (std::size_t i = 0; i < n; ++i) seat(static_cast<int>(i), env.players(static_cast<int>(i)));
  }

  // Draws env i's next table (`players` seats).
  void seat(int i, int players) {
    const double pool_weight = pool_.empty() ? 0.0 : cfg_.pool;
    double total = cfg_.self_play + pool_weight;
    for (const OpponentAgent& a : cfg_.agents) total += a.weight;
    double u = table_rng_.uniform01() * total;
    // The first option whose weight u falls in; a rounding remainder goes to
    // the last option with a weight (none: the pool's share before its first snapshot).
    int drawn = kSelfPlay, last = kSelfPlay;
    bool found = false;
    auto consider = [&](int column, double weight) {
      if (weight > 0) last = column;
      if (!found && (u -= weight) < 0) drawn = column, found = true;
    };
    consider(kSelfPlay, cfg_.self_play);
    consider(kPool, pool_weight);
    for (std::size_t a = 0; a < cfg_.agents.size(); ++a)
      consider(kPool + 1 + static_cast<int>(a), cfg_.agents[a].weight);
    if (!found) drawn = last;
    drawn_[static_cast<std::size_t>(i)] = drawn;
    auto& seats = seats_[static_cast<std::size_t>(i)];
    if (drawn == kSelfPlay) {
      seats.fill(kLearner);
      return;
    }
    const int opponent = drawn == kPool
                             ? static_cast<int>(table_rng_.below(static_cast<uint32_t>(pool_.size())))
                             : kFirstAgent - (drawn - kPool - 1);
    seats.fill(opponent);
    seats[table_rng_.below(static_cast<uint32_t>(players))] = kLearner;
  }

  // Who controls `seat` of env i in its episode.
  int controller(int i, int seat) const {
    return seats_[static_cast<std::size_t>(i)][static_cast<std::size_t>(seat)];
  }

  // --- the opponents' moves ------------------------------------------------------

  // Asks the opponents to move wherever one is to move in `env` (a
  // MixedVectorEnv), writing their actions into `actions`. `rngs`: the envs'
  // random streams; `step`: the run's env step, for the search seeds.
  template <class Env>
  void act(Env& env, std::vector<Rng>& rngs, int64_t step, std::vector<Action>& actions) {
    const std::size_t agent_players = resolved_.size(), sizes = sizes_.size();
    round_.reserve(agent_players + pool_.size(), drawn_.size());
    round_.clear();
    for (int i = 0; i < static_cast<int>(drawn_.size()); ++i) {
      const int seat = env.current_player(i), who = controller(i, seat);
      if (who == kLearner) continue;
      const auto e = static_cast<std::size_t>(i);
      const std::size_t p = who >= 0 ? agent_players + static_cast<std::size_t>(who)
                                     : static_cast<std::size_t>(kFirstAgent - who) * sizes +
                                           static_cast<std::size_t>(size_index_[e]);
      round_.add(p, i,
                 {&env.state(i), seat, &rngs[e],
                  streams::search_seed(search_base_[e], p, static_cast<uint64_t>(step)), env.observation(i),
                  env.action_mask(i)});
    }
    seated_.resize(agent_players + pool_.size());
    const players::PlayerOptions options{1, static_cast<int>(drawn_.size()), device_};
    for (std::size_t p = 0; p < seated_.size(); ++p) {
      if (seated_[p] || !round_.waits_for(p))
        continue;  // made on demand, kept (a snapshot's: until the pool changes)
      seated_[p] = players::make_player<G>(
          p < agent_players
              ? resolved_[p]
              : players::PlayerSpec{kPoolName, players::Checkpoint{"", false}, pool_[p - agent_players]},
          options);
    }
    round_.ask(
        seated_,
        [&](std::size_t p) { return p < agent_players ? resolved_[p].name : std::string(kPoolName); },
        [&](int i, Action a) { actions[static_cast<std::size_t>(i)] = a; });
  }

  // --- counting ------------------------------------------------------------------

  // Env i's episode ended with `returns`: counts the learner's share of the
  // win against its opponent (nothing for self-play).
  void count(int i, const float* returns, int players) {
    const int column = drawn_[static_cast<std::size_t>(i)];
    if (column == kSelfPlay) return;
    arena::GameRecord r;
    r.num_players = players;
    std::copy_n(returns, players, r.returns.begin());
    const auto c = static_cast<std::size_t>(column);
    for (int s = 0; s < players; ++s)
      if (controller(i, s) == kLearner) wins_[c] += arena::win_share(r, s);
    games_[c] += 1;
  }

  // The columns: the pool, then each agent.
  std::size_t columns() const { return wins_.size(); }
  std::vector<std::string> names() const {
    std::vector<std::string> out{kPoolName};
    for (const OpponentAgent& a : cfg_.agents) out.push_back(a.name());
    return out;
  }
  // This update's counts, wins then games per column, appended to `out`
  // (summed over the ranks, then given back to set_counts).
  void append_counts(std::vector<double>& out) const {
    out.insert(out.end(), wins_.begin(), wins_.end());
    out.insert(out.end(), games_.begin(), games_.end());
  }
  void set_counts(const double* counts) {
    std::copy_n(counts, wins_.size(), wins_.begin());
    std::copy_n(counts + wins_.size(), games_.size(), games_.begin());
  }
  // This update's win rate against column c ("" when no game was played).
  std::string rate_text(std::size_t c) const {
    return games_[c] == 0 ? std::string() : std::to_string(wins_[c] / games_[c]);
  }
  // Keeps this update's rates for the progress line and starts counting the next.
  void close_update() {
    for (std::size_t c = 0; c < wins_.size(); ++c) last_rate_[c] = games_[c] ? wins_[c] / games_[c] : -1.0;
    std::fill(wins_.begin(), wins_.end(), 0.0);
    std::fill(games_.begin(), games_.end(), 0.0);
  }
  // The last closed update's rate against column c (-1: no game).
  double last_rate(std::size_t c) const { return last_rate_[c]; }

 private:
  const TrainConfig& cfg_;
  std::vector<int> sizes_;  // the table sizes played, ascending
  torch::Device device_;
  // The agents resolved: agent a at table size s is resolved_[a * sizes + s],
  // the round's player of that index; the pool's snapshots follow.
  std::vector<players::PlayerSpec> resolved_;
  std::vector<PolicyValueNet> pool_;
  std::vector<std::unique_ptr<players::Player<G>>> seated_;  // the round's players, made on demand
  players::SeatRound<G> round_;
  std::vector<std::array<int, arena::kMaxSeats>> seats_;  // per env: who controls each seat
  std::vector<int> drawn_;                                // per env: kSelfPlay or the column
  std::vector<int> size_index_;                           // per env: its table size's index in sizes_
  std::vector<uint64_t> search_base_;                     // per env: its search seeds' stream
  Rng table_rng_;
  std::vector<double> wins_, games_, last_rate_;  // per column
};

}  // namespace rocketgym::ppo
