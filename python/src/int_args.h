// Integers from Python for arguments the C++ side takes as an int or a seed:
// a message that names the argument and its range (TypeError for another
// type, ValueError past the range), never pybind11's "incompatible function
// arguments" with the object's repr. Inline: both modules (_rocketgym and
// _agents) use them.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "envs/core/errors.h"
#include "envs/core/quoted.h"

namespace rocketgym::python {

namespace py = pybind11;

namespace int_args {

// Whether `value` is a numpy bool (numpy.bool_, a 0-d bool array), which
// numpy still lets pass as an index (with a DeprecationWarning).
inline bool is_numpy_bool(py::handle value) {
  if (PyLong_CheckExact(value.ptr()) || !py::hasattr(value, "dtype")) return false;
  const py::object kind = value.attr("dtype").attr("kind");
  return py::isinstance<py::str>(kind) && kind.cast<std::string>() == "b";
}

// `value` as a Python int: an int, a numpy integer or a 0-d integer array; a
// bool (Python's or numpy's) or a float is a TypeError "`what` must be an
// integer, not float", an array of one or more dimensions (a batch given
// where one number goes) a TypeError naming its shape, not numpy's "only
// integer scalar arrays...".
inline py::int_ integer_of(py::handle value, const std::string& what) {
  if (py::isinstance<py::array>(value) && py::reinterpret_borrow<py::array>(value).ndim() != 0)
    throw py::type_error(what + " must be one integer, not an array of shape " +
                         std::string(py::str(value.attr("shape"))));
  if (PyBool_Check(value.ptr()) || is_numpy_bool(value) || !PyIndex_Check(value.ptr()))
    throw py::type_error(what + " must be an integer, not " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  const py::int_ index = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
  if (!index) throw py::error_already_set();
  return index;
}

}  // namespace int_args

// A Python integer for a message: its digits (shortened, envs/core/quoted.h),
// or its size in bits where str() refuses it (past 4,300 digits).
inline std::string int_text(py::handle integer) {
  const py::int_ index =
      py::reinterpret_steal<py::int_>(PyNumber_Index(integer.ptr()));  // a numpy integer too
  if (!index) throw py::error_already_set();
  PyObject* digits = PyObject_Str(index.ptr());
  if (digits == nullptr) {  // past sys.get_int_max_str_digits() (4,300 by default)
    PyErr_Clear();
    return "an integer of " + std::to_string(py::cast<std::size_t>(index.attr("bit_length")())) + " bits";
  }
  return shortened(std::string(py::reinterpret_steal<py::str>(digits)));
}

// `value` as an int if it fits one (nullopt if not); TypeError naming `what`
// for another type than an integer.
inline std::optional<int> int_value(py::handle value, const std::string& what) {
  const py::int_ index = int_args::integer_of(value, what);
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0 || v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    return std::nullopt;
  return static_cast<int>(v);
}

// `value` as an int in [min, max] (an env index): TypeError as int_value, or
// Error (a ValueError) "`what` 7 out of range [min, max]", as for a viewer.
inline int to_int_in(py::handle value, const std::string& what, int min, int max) {
  const std::optional<int> v = int_value(value, what);
  if (!v || *v < min || *v > max)
    throw Error(what + " " + int_text(value) + " out of range [" + std::to_string(min) + ", " +
                std::to_string(max) + "]");
  return *v;
}

// A Python integer in [0, 2**64) as a seed: TypeError "a seed must be an
// integer, not float" or ValueError "seed must be in [0, 2**64), got -1".
inline uint64_t to_seed(py::handle value) {
  const py::int_ index = int_args::integer_of(value, "a seed");
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  const unsigned long long v = overflow == 0 && small < 0 ? 0 : PyLong_AsUnsignedLongLong(index.ptr());
  if ((overflow == 0 && small < 0) || PyErr_Occurred()) {
    PyErr_Clear();
    // The words of rocketgym's Python layer (check_seed, python/rocketgym/_common.py).
    throw py::value_error("seed must be in [0, 2**64), got " + int_text(index));
  }
  return static_cast<uint64_t>(v);
}

}  // namespace rocketgym::python
