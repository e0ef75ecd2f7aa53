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

// Walks the one-dimensional integer array `a` (any integer dtype or layout):
// `use(i, value)` for each element in [0, limit), until the first one
// outside; returns that one's index and sets `sent` to its value in decimal,
// or returns -1. Unsigned dtypes are read through uint64 and signed ones
// through int64, so that no value wraps around into another (2**64 - 1 is
// not -1) and the message names what the caller sent.
template <class Use>
pybind11::ssize_t first_outside(const pybind11::array& a, int64_t limit, std::string& sent, Use use) {
  namespace py = pybind11;
  const auto walk = [&](auto wide, auto inside) -> py::ssize_t {
    if (!wide) throw py::error_already_set();
    for (py::ssize_t i = 0; i < a.shape(0); ++i) {
      const auto v = wide.at(i);
      if (!inside(v)) {
        sent = std::to_string(v);
        return i;
      }
      use(i, static_cast<int64_t>(v));
    }
    return -1;
  };
  if (a.dtype().kind() == 'u')
    return walk(py::array_t<uint64_t, py::array::forcecast>::ensure(a),
                [&](uint64_t v) { return v < static_cast<uint64_t>(limit); });
  return walk(py::array_t<int64_t, py::array::forcecast>::ensure(a),
              [&](int64_t v) { return v >= 0 && v < limit; });
}

// `arg` (an integer array or sequence of `n` actions) into `into` (n ints,
// allocated once by the caller). TypeError for a non-integer dtype,
// ValueError for another shape, IllegalAction for an id outside
// [0, num_actions) naming the env (action i's is env_of[i], or i); the engine
// checks legality before stepping.
inline const Action* copy_checked_actions(const pybind11::handle& arg, int n, int num_actions,
                                          std::vector<Action>& into, const int32_t* env_of = nullptr) {
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
  // Any other integer dtype or layout: each value as sent, checked before it is narrowed.
  std::string sent;
  const py::ssize_t bad = first_outside(actions, num_actions, sent, [&](py::ssize_t i, int64_t a) {
    into[static_cast<std::size_t>(i)] = static_cast<Action>(a);
  });
  if (bad >= 0)
    throw IllegalAction("env " + std::to_string(env_of ? env_of[bad] : bad) + ": action " + sent +
                        " out of range [0, " + std::to_string(num_actions - 1) + "]; no env was stepped");
  return into.data();
}

// `arg` (an integer array or sequence of env ids, one-dimensional, at most
// `most` of them) into `into`; returns how many. TypeError for a non-integer
// dtype, ValueError for another shape, Error for an id that is no env
// (below 0 or from `num_envs` on); the async env checks the rest.
inline int copy_checked_env_ids(const pybind11::handle& arg, int num_envs, std::vector<int32_t>& into) {
  namespace py = pybind11;
  py::object owner = py::reinterpret_borrow<py::object>(arg);
  if (!py::isinstance<py::array>(arg)) owner = py::module_::import("numpy").attr("asarray")(arg);
  const auto ids = py::reinterpret_borrow<py::array>(owner);
  const char kind = ids.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::type_error("env_ids must be an integer array, got dtype " + std::string(py::str(ids.dtype())));
  if (ids.ndim() != 1 || ids.shape(0) > num_envs)
    throw py::value_error("env_ids must have shape (k,) with k at most num_envs (" +
                          std::to_string(num_envs) + "), got " + shape_string(ids));
  std::string sent;
  if (first_outside(ids, num_envs, sent, [&](py::ssize_t j, int64_t id) {
        into[static_cast<std::size_t>(j)] = static_cast<int32_t>(id);
      }) >= 0)
    throw Error("env_ids: env " + sent + " out of range [0, " + std::to_string(num_envs - 1) + "]");
  return static_cast<int>(ids.shape(0));
}

}  // namespace rocketgym::python
