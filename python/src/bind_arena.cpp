// rocketgym.arena (python/rocketgym/arena.py) in C++: the CLI arena's
// schedule, seeds and statistics (training/arena/), with agents given from
// Python: player spec strings, rocketgym.load_agent objects, or Python agents
// (an object with act(observations, action_masks) -> actions, or a callable),
// which the arena asks for their moves like any other player.
//
// Ctrl-C (signal_poll.h): the arena polls Python's signal handlers between
// rounds of moves (and its search players between searches); on a
// KeyboardInterrupt it stops and play_arena returns what the finished games
// give (report, table, records and output files), with "interrupted" holding
// the exception for rg.arena to raise.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <yaml-cpp/yaml.h>

#include <memory>
#include <string>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/quoted.h"
#include "generated/game_list.h"
#include "python_player.h"
#include "signal_poll.h"
#include "training/arena/arena_run.h"
#include "training/players/player_spec.h"
#include "training/players/table.h"
#include "training/run_support.h"

namespace py = pybind11;

namespace rocketgym::python {

// The resolved spec inside a rocketgym.load_agent object, or null for any
// other object (agents_module.cpp).
const players::PlayerSpec* agent_spec(py::handle agent);
void bind_arena(py::module_& m);

namespace {

// --- the arena -----------------------------------------------------------------

// The arena's keys from rg.arena's arguments (`keys`: games, seed, parallel,
// threads, output, records, continue_records, plot, one_vs_each; None: the default), read by the CLI's
// reader, ArenaConfig::from_yaml: the same ranges and messages.
arena::ArenaConfig arena_config(const std::string& game_id, const py::object& num_players,
                                const py::dict& keys, const std::string& config_file,
                                const std::string& overrides) {
  YAML::Node root(YAML::NodeType::Map);
  root["game"]["id"] = game_id;
  if (!num_players.is_none()) root["game"]["players"] = std::string(py::str(num_players));
  if (!config_file.empty()) root["game"]["config"] = config_file;
  if (!overrides.empty())
    root["game"]["overrides"] = ConfigNode::parse(overrides, "rocketgym.arena config").yaml();
  for (const auto& item : keys) {
    if (item.second.is_none()) continue;
    const std::string key = py::str(item.first);
    if (py::isinstance<py::bool_>(item.second))
      root[key] = item.second.cast<bool>();
    else if (py::isinstance<py::str>(item.second)) {
      root[key] = item.second.cast<std::string>();
      root[key].SetTag("!");  // a text value stays text, as if quoted: seed="10" is no number
    } else
      root[key] = std::string(py::str(item.second));  // an integer, read with its range
  }
  return arena::ArenaConfig::from_yaml(ConfigNode(root, "rocketgym.arena", ""));
}

// An agent: its spec and, for a Python agent, the object that plays.
struct AgentArg {
  players::PlayerSpec spec;
  py::object python = py::none();  // None unless a Python agent
};

AgentArg agent_arg(const std::string& name, const py::object& value, const arena::ArenaConfig& config) {
  AgentArg out;
  // The names of the command line and the YAML (not shown: it may be anything).
  if (!name.empty() && !players::is_agent_name(name))
    throw Error(std::string("agents: a dict key is not an agent name: ") + players::kAgentNameRule);
  if (py::isinstance<py::str>(value)) {
    out.spec = players::parse_player(value.cast<std::string>(), config.game.id);
  } else if (const players::PlayerSpec* spec = agent_spec(value)) {
    const std::string game = value.attr("game_id").cast<std::string>();
    const int players = value.attr("num_players").cast<int>();
    if (game != config.game.id || players != config.game.players)
      throw Error("agent " + quote(name) + " was loaded for " + game + " with " + std::to_string(players) +
                  " players; this arena plays " + config.game.id + " with " +
                  std::to_string(config.game.players) + " players");
    out.spec = *spec;
  } else {
    python_agent_callable(value, name);                     // refuses what cannot act, naming the agent
    out.spec = players::default_player<players::Random>();  // only its name is used
    out.python = value;
  }
  if (!name.empty()) out.spec.name = name;
  return out;
}

py::dict play_arena(const std::string& game_id, const py::list& agents, const py::object& num_players,
                    const py::dict& keys, const std::string& config_file, const std::string& overrides) {
  arena::ArenaConfig config = arena_config(game_id, num_players, keys, config_file, overrides);
  const bool write_files = keys.contains("output") && !keys["output"].is_none();
  if (!write_files) config.output.clear();  // no files: report.json's config says so
  std::vector<py::object> python;
  for (const auto& item : agents) {
    const auto pair = item.cast<py::tuple>();
    const std::string name = pair[0].is_none() ? "" : pair[0].cast<std::string>();
    AgentArg arg = agent_arg(name, pair[1], config);
    config.agents.push_back(std::move(arg.spec));
    config.supplied.push_back(!arg.python.is_none());
    python.push_back(std::move(arg.python));
  }
  arena::check_arena_files(config);  // the records file is none of the others (envs/core/files.h)
  std::unique_ptr<RunFolderLock> output_lock;
  if (write_files) output_lock = arena::prepare_arena_output(config);
  const std::unique_ptr<arena::RecordsFile> records = arena::claim_records_file(config);
  arena::ArenaSetup setup = arena::set_up_arena(config);
  SignalPoll signals;
  setup.options.interrupt = signals.interrupt();
  const std::vector<int> shape = setup.game->observation_shape(config.game.players);
  signals.arm();
  const arena::ArenaRun run = visit_game(config.game.id, [&](auto g) {
    using G = decltype(g);
    typename arena::Arena<G>::Supplied supplied(setup.agents.size());
    for (std::size_t a = 0; a < supplied.size(); ++a)
      if (config.is_supplied(a))
        supplied[a] = make_python_player<G>(python[a], setup.agents[a].name, shape, &signals);
    // The Python players drop their objects here, with the GIL held, when
    // `supplied` goes; the arena only shares them.
    py::gil_scoped_release release;
    return arena::play_arena_typed<G>(config, setup, supplied, nullptr, {}, records.get());
  });
  if (write_files) arena::write_arena_outputs(config, run);

  Json report = arena::report_to_json(run.report);
  report["config"] = config.to_json();
  py::list games;
  for (const arena::GameRecord& g : run.games) {
    py::list seats, returns;
    for (int s = 0; s < g.num_players; ++s) {
      seats.append(setup.agents[static_cast<std::size_t>(g.agent[static_cast<std::size_t>(s)])].name);
      returns.append(g.returns[static_cast<std::size_t>(s)]);
    }
    py::dict row;
    row["lineup"] = g.lineup;
    row["rotation"] = g.rotation;
    row["seed"] = g.seed;
    row["players"] = seats;
    row["returns"] = returns;
    row["truncated"] = g.truncated;
    row["decisions"] = g.decisions;
    games.append(row);
  }
  py::dict out;
  out["report"] = report.dump();
  out["table"] = arena::format_table(run.report);
  out["games"] = games;
  out["scheduled"] = setup.schedule.size();
  out["interrupted"] = py::none();
  if (run.interrupted) {
    try {
      signals.raise_kept();
    } catch (py::error_already_set& e) {
      out["interrupted"] = e.value();  // rg.arena raises it, with the report of the finished games
    }
  }
  return out;
}

}  // namespace

void bind_arena(py::module_& m) {
  m.def("play_arena", &play_arena, py::arg("game_id"), py::arg("agents"), py::arg("num_players"),
        py::arg("keys"), py::arg("config_file"), py::arg("overrides"),
        "The CLI arena from Python (use rocketgym.arena): agents is a list of (name, agent) pairs.");
}

}  // namespace rocketgym::python
