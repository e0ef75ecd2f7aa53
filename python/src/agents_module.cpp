// rocketgym._agents: trained bots from Python (a checkpoint, a search agent,
// the zoo), the same agents as the arena's and `rocketgym play`'s.
//
// A module of its own because it links LibTorch: `import rocketgym` stays
// light, and builds without the training library still have the envs.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/game.h"
#include "envs/core/quoted.h"
#include "int_args.h"
#include "models/checkpoint.h"
#include "signal_poll.h"
#include "training/players/any_player.h"
#include "training/players/kinds.h"
#include "training/players/table.h"

namespace py = pybind11;

namespace rocketgym::python {

void bind_opponent_env(py::module_& m);  // bind_opponent_env.cpp

namespace {

// An agent with the game it plays (the states it is given must be of it).
struct Agent {
  std::shared_ptr<AnyGame> game;
  std::unique_ptr<players::AnyPlayer> agent;
  int num_players;
};

Agent load_agent(const std::string& text, std::shared_ptr<AnyGame> game, int num_players) {
  // With a game, a bare "zoo" is that game's zoo bot.
  const players::PlayerSpec spec =
      game ? players::parse_player(text, game->info().id) : players::parse_player(text);
  if (!game) {
    // The zoo's game, or the game a checkpoint was trained for.
    const std::string id = players::own_game(spec);
    if (id.empty()) throw Error("agent " + quote(text) + " does not name its game: pass game=");
    game = load_game(id);
  }
  Agent out{game, nullptr, num_players};
  out.agent = players::make_any_player(spec, *game, num_players);
  return out;
}

using FloatArray = py::array_t<float, py::array::c_style>;

// A NaN or an infinity in an observation would come back as NaN
// probabilities; no encoder writes one, so it is a caller's bug, named here
// (a scan of the Python call's batch only: training never passes through).
void check_finite_observations(const FloatArray& obs) {
  const py::ssize_t batch = obs.shape(0), row = batch > 0 ? obs.size() / batch : 0;
  const float* data = obs.data();
  for (py::ssize_t k = 0; k < obs.size(); ++k)
    if (!std::isfinite(data[k]))
      throw py::value_error("observations must be finite numbers: row " + std::to_string(k / row) +
                            " holds NaN or infinity (at flat index " + std::to_string(k % row) + ")");
}

// Strict: float32 observations [B, *observation_shape] and one-byte masks
// (bool, uint8, or the vector env's int8) [B, num_actions]; anything else is a TypeError/ValueError, never a
// silent conversion (a float64 batch would be copied at every call).
py::tuple evaluate(Agent& a, const py::array& observations, const py::array& masks) {
  const std::vector<int> shape = a.game->observation_shape(a.num_players);
  const int actions = a.game->info().num_actions;
  if (!observations.dtype().equal(py::dtype::of<float>()))
    throw py::type_error("observations must be a float32 numpy array, not " +
                         std::string(py::str(observations.dtype())));
  const char mask_kind = masks.dtype().kind();
  if (masks.itemsize() != 1 || (mask_kind != 'b' && mask_kind != 'u' && mask_kind != 'i'))
    throw py::type_error("masks must be a bool, uint8 or int8 numpy array, not " +
                         std::string(py::str(masks.dtype())));
  bool same_shape = observations.ndim() == static_cast<py::ssize_t>(shape.size()) + 1;
  for (std::size_t d = 0; same_shape && d < shape.size(); ++d)
    same_shape = observations.shape(static_cast<py::ssize_t>(d + 1)) == shape[d];
  if (!same_shape) {
    std::string expected = "(batch";
    for (int d : shape) expected += ", " + std::to_string(d);
    throw Error("observations must have shape " + expected + ") for " + a.game->info().id + " with " +
                std::to_string(a.num_players) + " players, got " +
                std::string(py::str(py::tuple(observations.attr("shape")))));
  }
  const py::ssize_t batch = observations.shape(0);
  if (masks.ndim() != 2 || masks.shape(0) != batch || masks.shape(1) != actions)
    throw Error("masks must have shape [" + std::to_string(batch) + ", " + std::to_string(actions) + "]");
  const auto obs = py::array_t<float, py::array::c_style>::ensure(observations);  // copies a strided view
  check_finite_observations(obs);
  const auto mask = py::array_t<uint8_t, py::array::c_style>::ensure(masks.attr("view")("uint8"));
  FloatArray probabilities({batch, static_cast<py::ssize_t>(actions)});
  FloatArray values({batch, static_cast<py::ssize_t>(a.num_players)});
  {
    py::gil_scoped_release release;
    a.agent->evaluate(obs.data(), mask.data(), static_cast<int>(batch), probabilities.mutable_data(),
                      values.mutable_data());
  }
  return py::make_tuple(probabilities, values);
}

// The most probable legal action per row: one forward pass of the agent's
// network (a search agent's raw network, without its search).
py::array act_batch(Agent& a, const py::array& observations, const py::array& action_masks) {
  if (!players::uses_network(a.agent->spec()))
    throw Error("agent " + quote(a.agent->spec().name) + " (" + players::kind_name(a.agent->spec()) +
                ") has no network: act(observations, action_masks) needs one; use act(state, seed)");
  const py::tuple out = evaluate(a, observations, action_masks);
  const auto probabilities = out[0].cast<FloatArray>();
  const auto masks = py::array_t<uint8_t, py::array::c_style>::ensure(action_masks.attr("view")("uint8"));
  const py::ssize_t batch = probabilities.shape(0), actions = probabilities.shape(1);
  py::array_t<int32_t> chosen(batch);
  for (py::ssize_t row = 0; row < batch; ++row) {
    const float* p = probabilities.data(row, 0);
    const uint8_t* legal = masks.data(row, 0);
    Action best = -1;
    for (py::ssize_t k = 0; k < actions; ++k)
      if (legal[k] && (best < 0 || p[k] > p[best])) best = static_cast<Action>(k);
    chosen.mutable_at(row) = best;
  }
  return std::move(chosen);
}

// The agent reads a copy of the state taken while the GIL is held: with the
// GIL released, another Python thread could step `state` during the search.
// Calls from several threads on one agent take turns (AnyPlayer's lock).
Action act(Agent& a, const AnyState& state, py::handle seed_arg) {
  const uint64_t seed = to_seed(seed_arg);
  if (state.num_players() != a.num_players)
    throw Error("the agent plays " + std::to_string(a.num_players) + "-player games; this state has " +
                std::to_string(state.num_players()) + " players");
  const std::unique_ptr<AnyState> copy = state.clone();
  py::gil_scoped_release release;
  return a.agent->act(*copy, seed);
}

}  // namespace

const players::PlayerSpec* agent_spec(py::handle agent) {
  if (!py::isinstance<Agent>(agent)) return nullptr;
  return &agent.cast<const Agent&>().agent->spec();
}
void bind_arena(py::module_& m);  // bind_arena.cpp: rocketgym.arena

}  // namespace rocketgym::python

PYBIND11_MODULE(_agents, m) {
  using namespace rocketgym;
  using namespace rocketgym::python;
  m.doc() = "Trained bots (checkpoints, search, the zoo): use rocketgym.load_agent.";
  py::module_::import("rocketgym._rocketgym");  // State, Game and the error types
  bind_opponent_env(m);
  // Docstrings from the kinds' one list (kinds.h).
  static const std::string kind_doc = "The spec's kind: " + players::agent_kind_names() + ".";
  static const std::string load_doc =
      "Loads an agent from the arena's spec: [NAME=]" + players::agent_grammar(", ") +
      ". `game`: a rocketgym.Game (default: the zoo's or the checkpoint's game with its default config).";
  py::class_<Agent>(m, "Agent", "A bot that picks moves: a checkpoint, a search agent or a zoo bot.")
      .def("act", &act, py::arg("state"), py::arg("seed") = 0,
           "The move for the player to move in `state` (a rocketgym.State of the agent's game). "
           "`seed` drives sampling and search. Thread-safe: calls on one agent from several threads take "
           "turns (for moves in parallel, load one agent per thread).")
      .def("act", &act_batch, py::arg("observations"), py::arg("action_masks"),
           "Batched, for agents with a network: the most probable legal action per row (int32 [B]) for "
           "float32 observations [B, *observation_shape] and bool/uint8/int8 masks [B, num_actions], in "
           "one forward pass. A search agent (zoo, search:, ismcts:PATH) answers with its raw network "
           "here; act(state, seed) searches. Random and heuristic agents need act(state, seed).")
      .def("evaluate", &evaluate, py::arg("observations"), py::arg("masks"),
           "The network's masked policy [B, num_actions] and value per seat [B, num_players] "
           "(relative to the seat each row was encoded for), for float32 observations and bool/uint8/int8 "
           "masks. Observations holding NaN or infinity are a ValueError. Thread-safe like act().")
      .def_property_readonly(
          "name", [](const Agent& a) { return a.agent->spec().name; }, "The agent's name, as in the arena.")
      .def_property_readonly(
          "kind", [](const Agent& a) { return players::kind_name(a.agent->spec()); }, kind_doc.c_str())
      .def_property_readonly(
          "game_id", [](const Agent& a) { return a.game->info().id; }, "The id of the game the agent plays.")
      .def_property_readonly(
          "num_players", [](const Agent& a) { return a.num_players; }, "The player count the agent plays.")
      .def("__repr__", [](const Agent& a) {
        return "<rocketgym.Agent " + a.agent->spec().name + " (" + players::kind_name(a.agent->spec()) +
               ") for " + a.game->info().id + ", " + std::to_string(a.num_players) + " players>";
      });
  m.def("load_agent", &load_agent, py::arg("spec"), py::arg("game") = nullptr, py::arg("num_players") = 2,
        load_doc.c_str());
  m.def(
      "agent_kinds", [] { return py::module_::import("json").attr("loads")(players::kinds_json().dump()); },
      "Every kind of player (training/players/kinds.h), one dict each: name, form (its command-line form), "
      "alias, yaml (its YAML keys), help, agent (False for a seat only a person plays) and network.");
  m.def(
      "agent_grammar", [] { return "[NAME=]" + players::agent_grammar(); },
      "The grammar of an agent spec, as the arena's --agent reads it.");
  bind_arena(m);
  m.def(
      "_raise_sigint_at_poll", [](long n) { polls_until_sigint = n > 0 ? n : 0; }, py::arg("n"),
      "For tests: the n-th poll for Ctrl-C from now on (rg.arena, an opponent env's step) raises SIGINT "
      "itself just before it checks, as a Ctrl-C arriving then would; 0 turns it off (signal_poll.h).");
}
