// The actions a caller hands a batched env from Python (the plain vector env,
// the opponent env): checked and copied while the GIL is held.
//
// C++ then reads only that private copy: another Python thread may rewrite
// the caller's array while the GIL is released, and an action that changed
// between validation and use would throw inside the OpenMP loop, which ends
// the process. Header-only because each Python module (_rocketgym, _agents)
// compiles its own copy.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/game.h"

namespace rocketgym::python {

// "(3,)", "(2, 4)": a numpy shape as Python prints it.
inline std::string shape_string(const pybind11::array& a) {
  std::string out = "(";
  for (pybind11::ssize_t d = 0; d < a.ndim(); ++d) out += (d ? ", " : "") + std::to_string(a.shape(d));
  return out + (a.ndim() == 1 ? ",)" : ")");
}

// `arg` (an integer array or sequence of `n` actions) into `into` (n ints,
// allocated once by the caller). TypeError for a non-integer dtype,
// ValueError for another shape, IllegalAction for an id outside
// [0, num_actions); the engine checks legality before stepping.
inline const Action* copy_checked_actions(const pybind11::handle& arg, int n, int num_actions,
                                          std::vector<Action>& into) {
  namespace py = pybind11;
  py::object owner = py::reinterpret_borrow<py::object>(arg);
  if (!py::isinstance<py::array>(arg)) owner = py::module_::import("numpy").attr("asarray")(arg);
  const auto actions = py::reinterpret_borrow<py::array>(owner);
  const char kind = actions.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::type_error("actions must be an integer array, got dtype " +
                         std::string(py::str(actions.dtype())));
  if (actions.ndim() != 1 || actions.shape(0) != n)
    throw py::value_error("actions must have shape (" + std::to_string(n) + ",), got " +
                          shape_string(actions));
  // int32 (what sample_actions and TorchAgent give) is copied as it is.
  const bool native_int32 = kind == 'i' && actions.itemsize() == 4 && actions.dtype().byteorder() != '>';
  if (native_int32 && (actions.flags() & py::array::c_style)) {
    std::memcpy(into.data(), actions.data(), static_cast<std::size_t>(n) * sizeof(Action));
    return into.data();
  }
  // Any other integer dtype or layout: through int64, so that a huge value is
  // reported as such instead of wrapping around.
  const auto wide = py::array_t<int64_t, py::array::forcecast>::ensure(actions);
  if (!wide) throw py::error_already_set();
  for (int i = 0; i < n; ++i) {
    const int64_t a = wide.at(i);
    if (a < 0 || a >= num_actions)
      throw IllegalAction("env " + std::to_string(i) + ": action " + std::to_string(a) +
                          " out of range [0, " + std::to_string(num_actions - 1) + "]; no env was stepped");
    into[static_cast<std::size_t>(i)] = static_cast<Action>(a);
  }
  return into.data();
}

}  // namespace rocketgym::python
