// rocketgym.load_records: game records (envs/core/game_record.h; written by
// `rocketgym arena --records` and rocketgym.arena(records=...)) read back and
// replayed into states. In the core module: it needs no LibTorch.
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "envs/core/game_record.h"
#include "envs/core/json.h"
#include "int_args.h"

namespace rocketgym::python {

namespace {

// k as Python indexes a list: an integer (TypeError for a bool or a float,
// python/src/int_args.h), IndexError naming the index given for any integer
// beyond the positions, 2**64 as well.
std::unique_ptr<AnyState> state_at(const LoadedRecord& r, const py::object& asked) {
  const std::optional<int> given = int_value(asked, "state_at(k): k");
  const int moves = static_cast<int>(r.record.actions.size());  // a line holds at most 1 MiB of them
  const int k = given && *given < 0 ? *given + moves + 1 : given.value_or(-1);  // -1: the final position
  if (!given || k < 0 || k > moves)  // the index as given, not as counted from the end
    throw py::index_error("state_at(" + int_text(asked) + "): the record has positions 0 to " +
                          std::to_string(moves) + " (-" + std::to_string(moves + 1) +
                          " to -1 from the end; " + std::to_string(moves) + " moves)");
  return r.state_at(static_cast<std::size_t>(k));
}

// Every position, the start to the end (len(actions) + 1 states), replayed once.
std::vector<std::unique_ptr<AnyState>> states(const LoadedRecord& r) {
  std::vector<std::unique_ptr<AnyState>> out;
  out.push_back(r.state_at(0));
  for (const Action a : r.record.actions) {
    out.push_back(out.back()->clone());
    out.back()->apply(a);
  }
  return out;
}

}  // namespace

void bind_records(py::module_& m) {
  py::class_<LoadedRecord, std::shared_ptr<LoadedRecord>>(
      m, "Record", "One recorded game (rocketgym.load_records): its setup, every action and the returns.")
      .def_property_readonly(
          "game", [](const LoadedRecord& r) { return r.record.game; }, "the game id")
      .def_property_readonly(
          "config",
          [](const LoadedRecord& r) { return py::module_::import("json").attr("loads")(r.record.config); },
          "the config overrides the game was played with (a dict)")
      .def_property_readonly(
          "seed", [](const LoadedRecord& r) { return r.record.seed; }, "the seed of Game.new_state")
      .def_property_readonly("num_players", [](const LoadedRecord& r) { return r.record.num_players; })
      .def_property_readonly(
          "players", [](const LoadedRecord& r) { return r.record.players; }, "the agent's name at each seat")
      .def_property_readonly(
          "actions", [](const LoadedRecord& r) { return r.record.actions; },
          "every action, in the order played")
      .def_property_readonly(
          "returns", [](const LoadedRecord& r) { return r.record.returns; },
          "the returns per seat of the finished game")
      .def_property_readonly(
          "source", [](const LoadedRecord& r) { return r.source; }, "\"file:line\"")
      .def_property_readonly(
          "game_object", [](const LoadedRecord& r) { return r.game; },
          "the Game, loaded with the record's config")
      .def("state_at", &state_at, py::arg("k"),
           "The position before move k (0: the start, len(actions): the end; negative counts from the end).")
      .def("states", &states, "Every position from the start to the end: len(actions) + 1 States.")
      .def(
          "__len__", [](const LoadedRecord& r) { return r.record.actions.size(); }, "the number of moves")
      .def("__repr__", [](const LoadedRecord& r) {
        return "<rocketgym.Record " + r.record.game + " seed " + std::to_string(r.record.seed) + ", " +
               std::to_string(r.record.actions.size()) + " moves (" + r.source + ")>";
      });
  m.def(
      "load_records",
      [](const std::string& path) {
        LoadedRecords read = read_records(path);
        // A last line cut short (an interrupted arena) is skipped, and said.
        if (!read.torn.empty())
          py::module_::import("warnings").attr("warn")(read.torn, py::arg("stacklevel") = 2);
        std::vector<std::shared_ptr<LoadedRecord>> out;
        for (LoadedRecord& r : read.records) out.push_back(std::make_shared<LoadedRecord>(std::move(r)));
        return out;
      },
      py::arg("path"),
      "Reads a records file and replays every game; SerializationError names file:line and what is wrong. "
      "A last line cut short (an interrupted arena) is skipped with a warning.");
}

}  // namespace rocketgym::python
