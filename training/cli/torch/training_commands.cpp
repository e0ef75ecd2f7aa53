#include "training/cli/torch/training_commands.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <variant>

#include "envs/core/files.h"
#include "envs/core/game_model.h"
#include "envs/core/quoted.h"
#include "generated/game_list.h"
#include "models/checkpoint.h"
#include "training/mcts/network_evaluator.h"
#include "training/mcts/rollout.h"
#include "training/players/any_player.h"
#include "training/players/kinds/torch/zoo.h"
#include "training/players/table.h"
#include "training/policy_runner.h"

namespace rocketgym {

// A zoo file's recommended simulations feed the search: the checkpoint reader
// (models/, below the search) keeps its own copy of the search's limit.
static_assert(kMaxZooSimulations == mcts::kSimulationsRange.max);

namespace cli {

ConfigNode load_with_overrides(const std::string& file, const Overrides& overrides) {
  ConfigNode base = file.empty() ? ConfigNode(YAML::Node(YAML::NodeType::Map), "<command line>", "")
                                 : ConfigNode::load_file(file);
  if (!base.is_map()) base.fail("the config must be a mapping");
  return overrides.empty() ? base : base.merged(overrides.node());
}

void report_errors(const std::function<void()>& body) {
  try {
    body();
  } catch (const Error& e) {
    // Messages may quote files (names, paths): printable text only.
    std::cerr << "error: " << files::printable(e.what()) << "\n";
    throw CLI::RuntimeError(1);
  } catch (const std::logic_error& e) {
    std::cerr << "internal error: " << files::printable(e.what()) << "\n";
    throw CLI::RuntimeError(2);
  } catch (const c10::Error& e) {
    std::cerr << "LibTorch error: " << files::printable(e.msg()) << "\n";
    throw CLI::RuntimeError(1);
  }
}

dist::Context join_ranks(const std::string& timeout) {
  const int seconds = timeout.empty() ? dist::kDefaultTimeoutSeconds : std::stoi(timeout);
  return dist::Context::from_environment(std::chrono::seconds(seconds));
}

void add_rank_timeout(CLI::App* cmd, std::string& seconds) {
  cmd->add_option("--rank-timeout", seconds,
                  "under torchrun: seconds a rank waits for the others before stopping with an error")
      ->check(cli::whole_number(1, 7 * 24 * 3600));
}

}  // namespace cli

cli::SeatBot make_seat_bot(const std::string& spec, const AnyGame& game, int players) {
  std::shared_ptr<players::AnyPlayer> agent = players::make_any_player(
      players::parse_player(spec, game.info().id), game, players);  // `zoo`: this game's
  return [agent](const AnyState& state, uint64_t seed) { return agent->act(state, seed); };
}

long seat_bot_work(const std::string& text, const AnyGame& game, int players) {
  game.check_players(players);
  players::PlayerSpec spec = players::parse_player(text, game.info().id);
  const std::string& id = game.info().id;
  if (const std::string own = players::own_game(spec); !own.empty() && own != id)
    throw Error(quote(text) + " plays " + own + ", not " + id);
  players::resolve_kind(spec, players);  // a zoo bot's agent at that size (throws when it does not serve it)
  if (const std::string* path = players::checkpoint_file(spec)) {
    const std::vector<int> served = read_checkpoint_meta(*path).served_players();
    if (std::find(served.begin(), served.end(), players) == served.end())
      throw Error(quote(text) + " does not play " + std::to_string(players) + " players");
  }
  if (const auto* search = spec.get_if<players::Ismcts>())
    return static_cast<long>(search->mcts.simulations) *
           (search->network.empty() ? search->mcts.rollouts : 1);
  return 1;
}

namespace {

// The zoo bot of a game at one table size, asked what it makes of a decision:
// a network's policy and value on the observation of the player to move, or a
// search's visits (at most max_work simulations times playouts per leaf).
template <class G>
class ZooAnalyst {
 public:
  ZooAnalyst(players::PlayerSpec spec, std::string by, long max_work) : by_(std::move(by)) {
    if (const auto* search = spec.get_if<players::Ismcts>()) {
      mcts::Options options = search->mcts;
      const long playouts = spec.net ? 1 : std::max(1, options.rollouts);
      options.simulations = static_cast<int>(std::clamp<long>(max_work / playouts, 1, options.simulations));
      search_ = std::make_unique<mcts::Search<G>>(options);
      if (spec.net) {
        runner_ = std::make_unique<PolicyRunner>(spec.net, torch::kCPU, 1);
        network_ = std::make_unique<mcts::NetworkEvaluator<G>>(*runner_, 1, options);
      } else {
        rollouts_ = std::make_unique<mcts::RolloutEvaluator<G>>(options);
      }
      how_ = std::string(spec.net ? "search over its network, " : "search over playouts, ") +
             std::to_string(options.simulations) + " simulations";
    } else if (spec.is<players::Checkpoint>()) {
      runner_ = std::make_unique<PolicyRunner>(spec.net, torch::kCPU, 1);
      how_ = "network";
    } else {
      throw Error(by_ + " plays " + players::playing_kind_name(spec) + ": nothing to analyze with");
    }
  }

  cli::PositionAnalysis analyze(const AnyState& any, int seat, uint64_t seed) {
    const auto* model = dynamic_cast<const StateModel<G>*>(&any);
    if (model == nullptr) throw Error("analysis: the state is not a " + G::info().id + " state");
    const typename G::State& state = model->state();
    if (state.is_terminal()) throw Error("analysis: the game is over");
    const int players = state.num_players();
    if (seat < 0 || seat >= players) throw Error("analysis: no seat " + std::to_string(seat));
    const std::lock_guard<std::mutex> turn(busy_);
    const int me = state.current_player(), actions = G::info().num_actions;
    std::vector<uint8_t> legal(static_cast<std::size_t>(actions));
    state.legal_actions_mask(legal.data());
    cli::PositionAnalysis out{by_, how_, 0.0f, {}};
    if (search_) {
      search_->reseed(seed);
      if (network_)
        search_->run(state, *network_);
      else
        search_->run(state, *rollouts_);
      std::vector<float> policy(static_cast<std::size_t>(actions));
      search_->improved_policy(policy.data());
      for (Action a = 0; a < actions; ++a)
        if (legal[static_cast<std::size_t>(a)])
          out.moves.push_back({a, policy[static_cast<std::size_t>(a)], search_->child_visits(a)});
      out.value = search_->root_value(seat);
    } else {
      G::Encoder::encode(state, me, runner_->observation_row(0));
      std::copy(legal.begin(), legal.end(), runner_->mask_row(0));
      runner_->evaluate(1);
      for (Action a = 0; a < actions; ++a)
        if (legal[static_cast<std::size_t>(a)]) out.moves.push_back({a, runner_->probabilities(0)[a], 0});
      // Relative to the seat encoded for (the player to move): seat me + j at j.
      out.value = runner_->values(0)[(seat - me + players) % players];
    }
    return out;
  }

 private:
  std::string by_, how_;
  std::unique_ptr<PolicyRunner> runner_;
  std::unique_ptr<mcts::NetworkEvaluator<G>> network_;
  std::unique_ptr<mcts::RolloutEvaluator<G>> rollouts_;
  std::unique_ptr<mcts::Search<G>> search_;
  std::mutex busy_;  // one analysis at a time: they share the buffers and the tree
};

}  // namespace

cli::Analyst make_zoo_analyst(const AnyGame& game, int players, long max_work) {
  const std::string& id = game.info().id;
  const std::string zoo = players::kind_name<players::Zoo>();
  players::PlayerSpec spec = players::parse_player(zoo, id);
  players::resolve(spec, id, players, game.observation_shape(players), game.info().num_actions, torch::kCPU);
  return visit_game(id, [&](auto g) -> cli::Analyst {
    using G = decltype(g);
    auto analyst = std::make_shared<ZooAnalyst<G>>(std::move(spec), zoo + ":" + id, max_work);
    return [analyst](const AnyState& state, int seat, uint64_t seed) {
      return analyst->analyze(state, seat, seed);
    };
  });
}

std::string zoo_seat(const std::string& game) { return players::Zoo(game).text(); }

void add_training_commands(CLI::App& app) {
  cli::add_train_command(app);
  cli::add_arena_command(app);
  cli::add_export_command(app);
  cli::add_bench_search_command(app);
}

}  // namespace rocketgym
