#include "training/cli/torch/training_commands.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "models/checkpoint.h"
#include "training/mcts/mcts.h"
#include "training/players/any_player.h"
#include "training/players/table.h"

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
    std::cerr << "error: " << e.what() << "\n";
    throw CLI::RuntimeError(1);
  } catch (const std::logic_error& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    throw CLI::RuntimeError(2);
  } catch (const c10::Error& e) {
    std::cerr << "LibTorch error: " << e.msg() << "\n";
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
    throw Error("'" + text + "' plays " + own + ", not " + id);
  players::resolve_kind(spec, players);  // a zoo bot's agent at that size (throws when it does not serve it)
  if (const std::string* path = players::checkpoint_file(spec)) {
    const std::vector<int> served = read_checkpoint_meta(*path).served_players();
    if (std::find(served.begin(), served.end(), players) == served.end())
      throw Error("'" + text + "' does not play " + std::to_string(players) + " players");
  }
  if (const auto* search = std::get_if<players::Ismcts>(&spec.kind))
    return static_cast<long>(search->mcts.simulations) *
           (search->network.empty() ? search->mcts.rollouts : 1);
  return 1;
}

void add_training_commands(CLI::App& app) {
  cli::add_train_command(app);
  cli::add_arena_command(app);
  cli::add_export_command(app);
  cli::add_bench_search_command(app);
}

}  // namespace rocketgym
