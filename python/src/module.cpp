// rocketgym._rocketgym: the compiled core of the `rocketgym` Python package.
#include "bindings.h"

PYBIND11_MODULE(_rocketgym, m) {
  m.doc() = "rocketgym C++ core: game registry, states and vector envs (use the `rocketgym` package).";
  rocketgym::python::bind_errors(m);
  rocketgym::python::bind_game(m);
  rocketgym::python::bind_vector_env(m);
  rocketgym::python::bind_async_vector_env(m);
  rocketgym::python::bind_records(m);
}
