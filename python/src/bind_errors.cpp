// C++ errors become Python exceptions of the same names, importable as
// rocketgym.Error, rocketgym.IllegalAction, ...:
//
//   Error(ValueError)                   any rocketgym error (unknown game, bad
//   ├── IllegalAction(Error)            player count, out-of-range viewer...)
//   ├── ConfigError(Error)
//   └── SerializationError(Error)
//   InvariantViolation(RuntimeError)    an engine bug, not a usage error
//
// Error derives from ValueError because every one of them is a bad argument
// from the caller's point of view; `except ValueError` keeps working for code
// that does not know rocketgym.
#include <yaml-cpp/exceptions.h>

#include <nlohmann/json.hpp>

#include "bindings.h"
#include "envs/core/json.h"
#include "envs/core/quoted.h"

namespace rocketgym::python {

namespace {

// Owned for the life of the process: exception types must outlive every
// module object, so they are never decref'ed (no destructor at exit).
PyObject* error_type = nullptr;
PyObject* illegal_action_type = nullptr;
PyObject* config_error_type = nullptr;
PyObject* serialization_error_type = nullptr;
PyObject* invariant_violation_type = nullptr;

PyObject* new_exception(py::module_& m, const char* name, const char* doc, PyObject* base) {
  const std::string qualified = std::string("rocketgym.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!type) throw py::error_already_set();
  Py_INCREF(type);  // one reference for the module attribute, one kept here
  m.add_object(name, py::handle(type));
  return type;
}

// Raises `type` with `message`. Not PyErr_SetString: a message holding bytes
// that are not UTF-8 (a file's broken text, quoted) would raise the exception
// with no message at all; they become \xNN escapes here.
void set_error(PyObject* type, const std::string& message) {
  PyObject* text =
      PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "backslashreplace");
  if (text == nullptr) return;  // the decoding error is raised instead (out of memory)
  PyErr_SetObject(type, text);
  Py_DECREF(text);
}

void translate(std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const IllegalAction& e) {
    set_error(illegal_action_type, e.what());
  } catch (const ConfigError& e) {
    set_error(config_error_type, e.what());
  } catch (const SerializationError& e) {
    set_error(serialization_error_type, e.what());
  } catch (const Error& e) {
    set_error(error_type, e.what());
  } catch (const InvariantViolation& e) {
    set_error(invariant_violation_type, e.what());
  } catch (const nlohmann::json::exception& e) {
    // A game's from_json should wrap these; this is the safety net.
    set_error(serialization_error_type, "state document: " + json_error_text(e.what()));
  } catch (const YAML::Exception& e) {
    set_error(config_error_type, "configuration: " + shortened(e.what()));
  }
}

}  // namespace

void bind_errors(py::module_& m) {
  error_type = new_exception(m, "Error", "Any rocketgym error: a bad argument, game id or player count.",
                             PyExc_ValueError);
  illegal_action_type = new_exception(
      m, "IllegalAction", "An action out of range or not legal now; nothing was changed.", error_type);
  config_error_type = new_exception(
      m, "ConfigError", "A malformed or invalid configuration; the message names file, line and key.",
      error_type);
  serialization_error_type =
      new_exception(m, "SerializationError", "A state document (JSON) that cannot be loaded.", error_type);
  invariant_violation_type = new_exception(
      m, "InvariantViolation", "A broken game invariant: a bug in the engine.", PyExc_RuntimeError);
  py::register_exception_translator(&translate);
}

Action to_action(py::handle value, int num_actions) {
  const py::int_ index = int_args::integer_of(value, "an action");
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0 || v < 0 || v >= num_actions)
    throw IllegalAction("action " + int_text(index) + " out of range [0, " + std::to_string(num_actions - 1) +
                        "]");
  return static_cast<Action>(v);
}

}  // namespace rocketgym::python
