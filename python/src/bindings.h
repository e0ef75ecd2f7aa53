// Shared pieces of the pybind11 module `rocketgym._rocketgym`.
//
// The module binds the type-erased API of envs/core/game.h (AnyGame,
// AnyState, AnyVectorEnv, the Registry). The Python package
// python/rocketgym/ builds the Gymnasium / PettingZoo style envs on top.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>

#include "envs/core/game.h"
#include "int_args.h"

namespace rocketgym::python {

namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_game(py::module_& m);
void bind_vector_env(py::module_& m);
void bind_async_vector_env(py::module_& m);  // bind_async_vector_env.cpp
void bind_records(py::module_& m);           // bind_records.cpp: load_records, Record

// A Python integer (int, numpy integer, 0-d integer array) as an action id.
// Raises TypeError for anything that is not an integer (floats and bools
// included) and IllegalAction when it is outside [0, num_actions).
Action to_action(py::handle value, int num_actions);

// A player count for `game`: Error in check_players' words (envs/core/game.cpp)
// for a count it is not played with, a number past int's range included.
int to_players(const AnyGame& game, py::handle value);

// A read-only numpy view of memory owned by `owner` (kept alive by the view).
template <class T>
py::array readonly_view(T* data, const std::vector<py::ssize_t>& shape, py::handle owner) {
  py::array_t<T> view(shape, data, owner);
  view.attr("setflags")(py::arg("write") = false);
  return std::move(view);
}

}  // namespace rocketgym::python
