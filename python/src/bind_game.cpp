// Registry, GameInfo, Game (AnyGame) and State (AnyState).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.h"
#include "envs/core/rng.h"

namespace rocketgym::python {

namespace {

std::vector<py::ssize_t> to_shape(const std::vector<int>& dims) { return {dims.begin(), dims.end()}; }

void check_viewer(const AnyState& s, int viewer) {
  if (viewer < 0 || viewer >= s.num_players())
    throw Error("viewer " + std::to_string(viewer) + " out of range [0, " +
                std::to_string(s.num_players() - 1) + "]");
}

// The observation of `viewer` (default: the player to move) as a new array
// of the encoder's shape.
py::array observation(const AnyState& s, py::object viewer_arg) {
  int viewer = s.current_player();
  if (!viewer_arg.is_none())
    viewer = viewer_arg.cast<int>();
  else if (viewer < 0)
    throw Error("the game is over: pass the viewer whose observation you want");
  check_viewer(s, viewer);
  py::array_t<float> out(to_shape(s.observation_shape()));
  s.encode(viewer, out.mutable_data());
  return std::move(out);
}

// Encodes into a caller-owned float32 buffer: no allocation, for hot loops.
void encode_into(const AnyState& s, int viewer, py::handle out_arg) {
  check_viewer(s, viewer);
  if (!py::isinstance<py::array>(out_arg)) throw py::type_error("out must be a numpy array of float32");
  auto out = py::reinterpret_borrow<py::array>(out_arg);
  if (out.dtype().kind() != 'f' || out.itemsize() != 4)
    throw py::type_error("out must have dtype float32, not " + std::string(py::str(out.dtype())));
  if (!(out.flags() & py::array::c_style) || !out.writeable())
    throw py::value_error("out must be C-contiguous and writeable");
  if (out.size() != s.observation_size())
    throw py::value_error("out has " + std::to_string(out.size()) + " elements, the observation has " +
                          std::to_string(s.observation_size()));
  s.encode(viewer, static_cast<float*>(out.mutable_data()));
}

py::array legal_actions_mask(const AnyState& s) {
  py::array_t<int8_t> mask(s.num_actions());
  s.legal_actions_mask(reinterpret_cast<uint8_t*>(mask.mutable_data()));
  return std::move(mask);
}

py::array returns(const AnyState& s) {
  py::array_t<float> out(s.num_players());
  s.returns(out.mutable_data());
  return std::move(out);
}

py::array scores(const AnyState& s) {
  py::array_t<int32_t> out(s.num_players());
  std::vector<int> values = s.scores();
  for (int i = 0; i < s.num_players(); ++i) out.mutable_at(i) = values[static_cast<std::size_t>(i)];
  return std::move(out);
}

std::string state_repr(const AnyState& s) {
  return "<rocketgym.State players=" + std::to_string(s.num_players()) +
         " current_player=" + std::to_string(s.current_player()) +
         (s.is_terminal() ? (s.is_truncated() ? " truncated" : " terminal") : "") + ">";
}

void bind_game_info(py::module_& m) {
  py::class_<GameInfo>(m, "GameInfo", "A game's static description.")
      .def_readonly("id", &GameInfo::id)
      .def_readonly("name", &GameInfo::name)
      .def_readonly("description", &GameInfo::description)
      .def_readonly("min_players", &GameInfo::min_players)
      .def_readonly("max_players", &GameInfo::max_players)
      .def_readonly("num_actions", &GameInfo::num_actions)
      .def_readonly("max_decisions", &GameInfo::max_decisions)
      .def_readonly("version", &GameInfo::version)
      .def("__repr__", [](const GameInfo& i) {
        return "<rocketgym.GameInfo " + i.id + " players=" + std::to_string(i.min_players) + ".." +
               std::to_string(i.max_players) + " num_actions=" + std::to_string(i.num_actions) + ">";
      });
}

void bind_state(py::module_& m) {
  py::class_<AnyState, std::unique_ptr<AnyState>>(
      m, "State",
      "One game position (a value: clone() copies it). Made by Game.new_state or Game.state_from_json.")
      .def("clone", &AnyState::clone, "An independent copy of this state.")
      .def("__copy__", &AnyState::clone)
      .def("__deepcopy__", [](const AnyState& s, py::handle) { return s.clone(); })
      .def_property_readonly("num_players", &AnyState::num_players)
      .def_property_readonly("num_actions", &AnyState::num_actions)
      .def_property_readonly("current_player", &AnyState::current_player,
                             "The seat to move, -1 when terminal.")
      .def("legal_actions", py::overload_cast<>(&AnyState::legal_actions, py::const_),
           "The legal action ids, ascending.")
      .def("legal_actions_mask", &legal_actions_mask, "int8 array [num_actions], 1 where legal.")
      .def(
          "is_legal",
          [](const AnyState& s, py::handle a) {
            if (PyBool_Check(a.ptr()) || !PyIndex_Check(a.ptr())) return false;
            try {
              return s.is_legal(to_action(a, s.num_actions()));
            } catch (const IllegalAction&) {
              return false;
            }
          },
          py::arg("action"))
      .def(
          "apply", [](AnyState& s, py::handle a) { s.apply(to_action(a, s.num_actions())); },
          py::arg("action"), "Plays an action; raises IllegalAction (state unchanged) if it is not legal.")
      .def("is_terminal", &AnyState::is_terminal)
      .def("is_truncated", &AnyState::is_truncated)
      .def("returns", &returns, "float32 [num_players]: zeros until terminal.")
      .def("scores", &scores, "int32 [num_players]: the game's own points.")
      .def(
          "redeterminize",
          [](AnyState& s, int viewer, py::handle seed) { s.redeterminize(viewer, to_seed(seed)); },
          py::arg("viewer"), py::arg("seed"),
          "Resamples everything `viewer` cannot see (for search), consistently with what they saw.")
      .def("to_string", &AnyState::to_string)
      .def("__str__", &AnyState::to_string)
      .def("observation_string", &AnyState::observation_string, py::arg("viewer"),
           "The position as `viewer` may see it (hidden information left out).")
      .def("__repr__", &state_repr)
      .def(
          "action_to_string",
          [](const AnyState& s, py::handle a) { return s.action_to_string(to_action(a, s.num_actions())); },
          py::arg("action"), "The action in the rulebook's words.")
      .def("to_json", &AnyState::to_json, "An exact, readable JSON document of the state (RNG included).")
      .def_property_readonly("observation_shape", &AnyState::observation_shape)
      .def_property_readonly("observation_size", &AnyState::observation_size)
      .def("observation", &observation, py::arg("viewer") = py::none(),
           "float32 array of the encoder's shape, seen by `viewer` (default: the player to move).")
      .def("encode", &encode_into, py::arg("viewer"), py::arg("out"),
           "Writes `viewer`'s observation into a float32 C-contiguous array (no allocation).")
      .def(
          "heuristic_action",
          [](const AnyState& s, py::handle seed) { return s.heuristic_action(to_seed(seed)); },
          py::arg("seed") = 0, "The heuristic bot's action for the player to move.")
      .def("check_invariants", &AnyState::check_invariants);
}

std::unique_ptr<AnyState> state_from_json(const AnyGame& game, py::handle doc) {
  // A dict is accepted too (what json.loads gives back).
  std::string text;
  if (py::isinstance<py::str>(doc))
    text = doc.cast<std::string>();
  else if (py::isinstance<py::dict>(doc))
    text = py::module_::import("json").attr("dumps")(doc).cast<std::string>();
  else
    throw py::type_error("a state document must be a JSON string or a dict");
  return game.state_from_json(text);
}

void bind_any_game(py::module_& m) {
  py::class_<AnyGame, std::shared_ptr<AnyGame>>(m, "Game",
                                                "A game with its configuration loaded (see load_game).")
      .def_property_readonly("info", &AnyGame::info, py::return_value_policy::reference_internal)
      .def_property_readonly("id", [](const AnyGame& g) { return g.info().id; })
      .def("observation_shape", &AnyGame::observation_shape, py::arg("num_players"))
      .def(
          "new_state",
          [](const AnyGame& g, int num_players, py::handle seed) {
            return g.new_state(num_players, to_seed(seed));
          },
          py::arg("num_players"), py::arg("seed") = 0,
          "The start of a game, with its set-up chance drawn from seed.")
      .def("state_from_json", &state_from_json, py::arg("document"),
           "Loads a state written by State.to_json() (or by hand); SerializationError if invalid.")
      .def("check_players", &AnyGame::check_players, py::arg("num_players"))
      .def("__repr__", [](const AnyGame& g) { return "<rocketgym.Game " + g.info().id + ">"; });
}

}  // namespace

void bind_game(py::module_& m) {
  bind_game_info(m);
  bind_state(m);
  bind_any_game(m);

  m.def(
      "list_games", [] { return Registry::instance().ids(); }, "The ids of every registered game.");
  m.def(
      "game_info", [](const std::string& id) { return Registry::instance().find(id).info; },
      py::arg("game_id"), "A registered game's description (Error if unknown).");
  m.def("load_game", &load_game, py::arg("game_id"), py::arg("config_file") = "", py::arg("overrides") = "",
        "Loads a game: config_file (default: the game's configs/games/<id>.yaml), then the YAML mapping "
        "`overrides` merged on top. Error for an unknown id, ConfigError for a bad config.");
  m.def("builtin_game_config", &builtin_game_config, py::arg("game_id"),
        "The game's default YAML built into the module.");
  m.def(
      "derive_seed",
      [](py::handle base, py::handle index) { return derive_seed(to_seed(base), to_seed(index)); },
      py::arg("base"), py::arg("index"),
      "An independent seed from a base seed and an index (C++ derive_seed).");
}

}  // namespace rocketgym::python
