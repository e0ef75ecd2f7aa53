// Registry, GameInfo, Game (AnyGame) and State (AnyState).
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "envs/core/json.h"
#include "envs/core/quoted.h"
#include "envs/core/rng.h"
#include "envs/core/seed_range.h"
#include "envs/core/yaml_document.h"

namespace rocketgym::python {

namespace {

std::vector<py::ssize_t> to_shape(const std::vector<int>& dims) { return {dims.begin(), dims.end()}; }

// A Python integer naming a seat of `s`: TypeError for anything that is not
// an integer (1.5, True, "0"), Error when it is not a seat.
int to_viewer(const AnyState& s, py::handle value) {
  if (PyBool_Check(value.ptr()) || !PyIndex_Check(value.ptr()))
    throw py::type_error("a viewer must be an integer seat, not " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  const py::int_ index = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
  if (!index) throw py::error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0 || v < 0 || v >= s.num_players())
    throw Error("viewer " + int_text(index) + " out of range [0, " + std::to_string(s.num_players() - 1) +
                "]");
  return static_cast<int>(v);
}

}  // namespace

int to_players(const AnyGame& game, py::handle value) {
  const std::optional<int> n = int_value(value, "num_players");
  if (!n) {
    // Past int's range, past the game's: in check_players' words (envs/core/game.cpp).
    const GameInfo& i = game.info();
    throw Error(i.id + " is played by " + std::to_string(i.min_players) + " to " +
                std::to_string(i.max_players) + " players, not " + int_text(value));
  }
  game.check_players(*n);
  return *n;
}

namespace {

// The observation of `viewer` (default: the player to move) as a new array
// of the encoder's shape.
py::array observation(const AnyState& s, py::handle viewer_arg) {
  int viewer = s.current_player();
  if (!viewer_arg.is_none())
    viewer = to_viewer(s, viewer_arg);
  else if (viewer < 0)
    throw Error("the game is over: pass the viewer whose observation you want");
  py::array_t<float> out(to_shape(s.observation_shape()));
  s.encode(viewer, out.mutable_data());
  return std::move(out);
}

// A knowledge-model list (envs/core/knowledge.h) as an int32 array [k, 2] of
// (place, card) rows, sorted; places and cards are the game's own numbers.
py::array card_place_rows(CardPlaces places) {
  std::sort(places.begin(), places.end());
  py::array_t<int32_t> out({static_cast<py::ssize_t>(places.size()), py::ssize_t{2}});
  auto rows = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < places.size(); ++i) {
    rows(static_cast<py::ssize_t>(i), 0) = places[i].place;
    rows(static_cast<py::ssize_t>(i), 1) = places[i].card;
  }
  return std::move(out);
}

// The classes below are only made by the module (Game.new_state,
// load_game...). An object made by calling __new__ directly would have no C++
// value behind it, and its first method call would dereference null. So the
// type's C-level constructor slot refuses: a Python-level __new__ would not be
// enough, since Python then lets pybind11_object.__new__(State) through to
// pybind11's own slot. With our slot in place Python refuses that call as
// "not safe", and State(...), State.__new__(State) and subclasses all land
// here. The hint is read from the class's __rocketgym_hint__ attribute.
PyObject* refuse_direct_construction(PyTypeObject* type, PyObject*, PyObject*) {
  std::string message = std::string(type->tp_name) + " cannot be created directly";
  if (PyObject* hint = PyObject_GetAttrString(reinterpret_cast<PyObject*>(type), "__rocketgym_hint__")) {
    if (const char* text = PyUnicode_AsUTF8(hint)) message += std::string("; ") + text;
    Py_DECREF(hint);
  }
  PyErr_Clear();
  PyErr_SetString(PyExc_TypeError, message.c_str());
  return nullptr;
}

PyObject* refuse_new_call(PyObject*, PyObject* args, PyObject*) {
  // __new__(cls, ...): the class is the first argument.
  PyObject* cls = PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : nullptr;
  if (cls && PyType_Check(cls))
    return refuse_direct_construction(reinterpret_cast<PyTypeObject*>(cls), nullptr, nullptr);
  PyErr_Clear();
  PyErr_SetString(PyExc_TypeError, "__new__ needs the class as its first argument");
  return nullptr;
}

PyMethodDef refuse_new_method = {"__new__",
                                 reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(refuse_new_call)),
                                 METH_VARARGS | METH_KEYWORDS, "Refuses: made only by the module."};

template <class Class>
void forbid_direct_construction(Class& cls, const std::string& how) {
  cls.attr("__rocketgym_hint__") = how;
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  type->tp_new = refuse_direct_construction;
  // State.__new__ found in the type's own dict, set without going through
  // setattr (which would put Python's slot wrapper back in tp_new).
  py::object function = py::reinterpret_steal<py::object>(PyCFunction_New(&refuse_new_method, nullptr));
  py::object method = py::reinterpret_steal<py::object>(PyStaticMethod_New(function.ptr()));
  if (!function || !method || PyDict_SetItemString(type->tp_dict, "__new__", method.ptr()) != 0)
    throw py::error_already_set();
  PyType_Modified(type);
}

// Encodes into a caller-owned float32 buffer: no allocation, for hot loops.
void encode_into(const AnyState& s, py::handle viewer_arg, py::handle out_arg) {
  const int viewer = to_viewer(s, viewer_arg);
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

// A State made from a Game remembers it (State._game, a Python attribute),
// so that pickling the state restores it with that game's configuration
// (rocketgym/_common.py); its copies and resamples inherit it.
py::object with_game(std::unique_ptr<AnyState> state, py::handle game) {
  py::object out = py::cast(std::move(state));
  if (!game.is_none()) out.attr("_game") = game;
  return out;
}

py::object game_of(py::handle state) { return py::getattr(state, "_game", py::none()); }

py::object clone_state(py::handle self) {
  return with_game(self.cast<const AnyState&>().clone(), game_of(self));
}

std::string state_repr(const AnyState& s) {
  return "<rocketgym.State players=" + std::to_string(s.num_players()) +
         " current_player=" + std::to_string(s.current_player()) +
         (s.is_terminal() ? (s.is_truncated() ? " truncated" : " terminal") : "") + ">";
}

void bind_game_info(py::module_& m) {
  py::class_<GameInfo> cls(m, "GameInfo", "A game's static description.");
  forbid_direct_construction(cls, "use rocketgym.game_info(id) or Game.info");
  cls.def_readonly("id", &GameInfo::id, "The game's id, e.g. \"launchpad23\" (rocketgym.list_games()).")
      .def_readonly("name", &GameInfo::name, "The game's name as printed on the box, e.g. \"Launchpad 23\".")
      .def_readonly("description", &GameInfo::description, "One line about the game.")
      .def_readonly("min_players", &GameInfo::min_players, "The fewest seats the game is played with.")
      .def_readonly("max_players", &GameInfo::max_players, "The most seats the game is played with.")
      .def_readonly("num_actions", &GameInfo::num_actions,
                    "The size of the action id space (the same for every player count).")
      .def_readonly("max_decisions", &GameInfo::max_decisions,
                    "An upper bound on the decisions of one game (the game is truncated there).")
      .def_readonly("version", &GameInfo::version, "Bumped when the rules or the encoding change.")
      .def_readonly("hidden_information", &GameInfo::hidden_information,
                    "Some seat cannot see everything (hands, face-down cards, secret picks).")
      .def("__repr__", [](const GameInfo& i) {
        return "<rocketgym.GameInfo " + i.id + " players=" + std::to_string(i.min_players) + ".." +
               std::to_string(i.max_players) + " num_actions=" + std::to_string(i.num_actions) + ">";
      });
}

void bind_state(py::module_& m) {
  py::class_<AnyState, std::unique_ptr<AnyState>> cls(
      m, "State",
      "One game position (a value: clone() copies it). Made by Game.new_state or Game.state_from_json. "
      "Pickles (and deep-copies) through its JSON document, with the Game it came from.",
      py::dynamic_attr());
  forbid_direct_construction(cls, "use Game.new_state(num_players, seed) or Game.state_from_json(document)");
  cls.def("clone", &clone_state, "An independent copy of this state.")
      .def("__copy__", &clone_state)
      .def("__deepcopy__", [](py::handle self, py::handle) { return clone_state(self); })
      .def_property_readonly("num_players", &AnyState::num_players, "The number of seats.")
      .def_property_readonly("num_actions", &AnyState::num_actions, "The size of the game's action id space.")
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
          py::arg("action"), "Whether `action` is legal now (False for anything that is not an action id).")
      .def(
          "apply", [](AnyState& s, py::handle a) { s.apply(to_action(a, s.num_actions())); },
          py::arg("action"), "Plays an action; raises IllegalAction (state unchanged) if it is not legal.")
      .def("is_terminal", &AnyState::is_terminal, "Whether the game is over (by its rules or truncated).")
      .def("is_truncated", &AnyState::is_truncated,
           "Whether the game was cut short at the decision limit (every return is then 0).")
      .def("returns", &returns, "float32 [num_players]: zeros until terminal.")
      .def("scores", &scores, "int32 [num_players]: the game's own points.")
      .def(
          "redeterminize",
          [](AnyState& s, py::handle viewer, py::handle seed) {
            s.redeterminize(to_viewer(s, viewer), to_seed(seed));
          },
          py::arg("viewer"), py::arg("seed"),
          "Resamples, in place, everything `viewer` cannot see (for search), consistently with what they "
          "saw, and reseeds the state's chance. resample() does the same on a copy.")
      .def(
          "resample",
          [](py::handle self, py::handle viewer, py::handle seed) {
            const auto& s = self.cast<const AnyState&>();
            const int seat = to_viewer(s, viewer);
            const uint64_t chance_seed = to_seed(seed);
            std::unique_ptr<AnyState> copy = s.clone();
            copy->redeterminize(seat, chance_seed);
            return with_game(std::move(copy), game_of(self));
          },
          py::arg("viewer"), py::arg("seed"),
          "A new state: this one with everything `viewer` cannot see resampled consistently with what "
          "they saw (their observation is unchanged) and the chance reseeded; this state stays as it is.")
      .def("to_string", &AnyState::to_string, "The whole board as text, hidden information included.")
      .def("__str__", &AnyState::to_string)
      .def(
          "observation_string",
          [](const AnyState& s, py::handle viewer) { return s.observation_string(to_viewer(s, viewer)); },
          py::arg("viewer"),
          "The position as `viewer` may see it (other seats' hidden information left out).")
      .def(
          "view_json",
          [](const AnyState& s, py::handle viewer) {
            return s.view_json(viewer.is_none() ? kFullBoard : to_viewer(s, viewer));
          },
          py::arg("viewer"),
          "The table as `viewer` may see it, a JSON document (the browser's, web/): game, num_players, "
          "viewer, your_turn, terminal, board (the game's own structured view) and, once over, scores, "
          "returns and truncated. viewer=None: the whole board, hidden information included, with "
          "current_player.")
      .def(
          "is_public_action",
          [](const AnyState& s, py::handle a) { return s.is_public_action(to_action(a, s.num_actions())); },
          py::arg("action"),
          "Whether the other players would see which action this is if it were played now (False for "
          "secret picks, face-down cards, answers that reveal a hidden card).")
      .def(
          "card_places", [](const AnyState& s) { return card_place_rows(s.card_places()); },
          "The knowledge model's truth: int32 [k, 2] rows (place, card) for every hidden-relevant card, in "
          "the "
          "game's own numbering (see its header); empty for a game without hidden information.")
      .def(
          "known_card_places",
          [](const AnyState& s, py::handle viewer) {
            return card_place_rows(s.known_card_places(to_viewer(s, viewer)));
          },
          py::arg("viewer"),
          "The (place, card) rows `viewer` knows for certain (own hand, public table, cards seen passed...): "
          "int32 [k, 2], a sub-multiset of card_places().")
      .def("__repr__", &state_repr)
      .def(
          "action_to_string",
          [](const AnyState& s, py::handle a) { return s.action_to_string(to_action(a, s.num_actions())); },
          py::arg("action"), "The action in the rulebook's words.")
      .def("to_json", &AnyState::to_json, "An exact, readable JSON document of the state (RNG included).")
      .def_property_readonly("observation_shape", &AnyState::observation_shape,
                             "The encoder's shape for this state's game and player count.")
      .def_property_readonly("observation_size", &AnyState::observation_size,
                             "The number of floats in an observation.")
      .def("observation", &observation, py::arg("viewer") = py::none(),
           "float32 array of the encoder's shape, seen by `viewer` (default: the player to move).")
      .def("encode", &encode_into, py::arg("viewer"), py::arg("out"),
           "Writes `viewer`'s observation into a float32 C-contiguous array (no allocation).")
      .def(
          "heuristic_action",
          [](const AnyState& s, py::handle seed) { return s.heuristic_action(to_seed(seed)); },
          py::arg("seed") = 0, "The heuristic bot's action for the player to move.")
      .def("check_invariants", &AnyState::check_invariants,
           "Checks the engine's invariants; InvariantViolation (an engine bug) if one is broken.");
}

// A state document given as a dict, as JSON text. json.dumps recurses once per
// level: a dict nested past Python's recursion limit is past ours too.
std::string state_dict_text(py::handle doc) {
  try {
    return py::module_::import("json").attr("dumps")(doc).cast<std::string>();
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_RecursionError)) throw;
    throw SerializationError("state document: arrays and objects are nested more than " +
                             std::to_string(kMaxDocumentDepth) + " levels deep");
  }
}

py::object state_from_json(py::handle self, py::handle doc) {
  const auto& game = self.cast<const AnyGame&>();
  // A dict is accepted too (what json.loads gives back).
  std::string text;
  if (py::isinstance<py::str>(doc))
    text = doc.cast<std::string>();
  else if (py::isinstance<py::dict>(doc))
    text = state_dict_text(doc);
  else
    throw py::type_error("a state document must be a JSON string or a dict");
  return with_game(game.state_from_json(text), self);
}

void bind_any_game(py::module_& m) {
  py::class_<AnyGame, std::shared_ptr<AnyGame>> cls(
      m, "Game",
      "A game with its configuration loaded (see load_game); immutable. Pickles as its id and configuration "
      "(as given to rocketgym.load_game); copies are the same object.",
      py::dynamic_attr());
  forbid_direct_construction(cls, "use rocketgym.load_game(id, config)");
  cls.def_property_readonly("info", &AnyGame::info, py::return_value_policy::reference_internal,
                            "The game's GameInfo.")
      .def_property_readonly(
          "id", [](const AnyGame& g) { return g.info().id; }, "The game's id.")
      .def("observation_shape", &AnyGame::observation_shape, py::arg("num_players"),
           "The encoder's shape with `num_players` seats (a method: it depends on the player count).")
      .def("__copy__", [](py::handle self) { return py::reinterpret_borrow<py::object>(self); })
      .def("__deepcopy__",
           [](py::handle self, py::handle) { return py::reinterpret_borrow<py::object>(self); })
      .def(
          "new_state",
          [](py::handle self, py::handle num_players, py::handle seed) {
            const auto& game = self.cast<const AnyGame&>();
            return with_game(game.new_state(to_players(game, num_players), to_seed(seed)), self);
          },
          py::arg("num_players"), py::arg("seed") = 0,
          "The start of a game, with its set-up chance drawn from seed.")
      .def("state_from_json", &state_from_json, py::arg("document"),
           "Loads a state written by State.to_json() (or by hand); SerializationError if invalid.")
      .def(
          "check_players", [](const AnyGame& game, py::handle num_players) { to_players(game, num_players); },
          py::arg("num_players"),
          "Raises rocketgym.Error when the game is not played with `num_players` seats.")
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
  m.def("load_game",
        static_cast<std::shared_ptr<AnyGame> (*)(const std::string&, const std::string&, const std::string&)>(
            &load_game),
        py::arg("game_id"), py::arg("config_file") = "", py::arg("overrides") = "",
        "Loads a game: config_file (default: the game's configs/games/<id>.yaml), then the YAML mapping "
        "`overrides` merged on top. Error for an unknown id, ConfigError for a bad config.");
  // What a config and a state document may nest (python/rocketgym/_common.py).
  m.attr("MAX_CONFIG_DEPTH") = kMaxConfigDepth;
  m.attr("MAX_CONFIG_KEY_LENGTH") = kMaxConfigKeyLength;
  m.attr("MAX_SEED") = kMaxSeed;
  m.attr("MAX_DOCUMENT_DEPTH") = kMaxDocumentDepth;
  // The one rule for naming input back in a message (envs/core/quoted.h), for
  // the messages the Python layer builds (python/rocketgym/_common.py).
  m.attr("MAX_QUOTED_BYTES") = kMaxQuotedBytes;
  m.def(
      "shortened",
      [](const py::str& text, std::size_t max_bytes) {
        // A lone surrogate (from a file name) is no UTF-8: written as \udc80.
        const auto utf8 = py::reinterpret_steal<py::bytes>(
            PyUnicode_AsEncodedString(text.ptr(), "utf-8", "backslashreplace"));
        if (!utf8) throw py::error_already_set();
        return shortened(std::string(utf8), max_bytes);
      },
      py::arg("text"), py::arg("max_bytes") = kMaxQuotedBytes,
      "`text` as a message shows it: its first max_bytes bytes, \"...\" after when it was longer, control "
      "characters escaped as \\xNN.");
  m.def("builtin_game_config", &builtin_game_config, py::arg("game_id"),
        "The game's default YAML built into the module; rocketgym.Error for an unknown game.");
  m.def(
      "derive_seed",
      [](py::handle base, py::handle index) { return derive_seed(to_seed(base), to_seed(index)); },
      py::arg("base"), py::arg("index"),
      "An independent seed from a base seed and an index (C++ derive_seed).");
}

}  // namespace rocketgym::python
