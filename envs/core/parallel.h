// An OpenMP loop whose body may throw. An exception escaping an OpenMP region
// ends the process (std::terminate), so each iteration's exception is caught,
// the loop finishes, and the one of the lowest index is rethrown on the
// calling thread: the caller (Python, the CLI) sees an ordinary error.
#pragma once

#include <exception>
#include <vector>

namespace rocketgym {

// The most threads any thread count of rocketgym may ask for (the arena's and
// training's `threads`, --threads, a vector env's num_threads): one limit
// everywhere. OpenMP ends the process when it fails to start the threads it
// is asked for, so a count is refused above this, far above any useful one.
constexpr int kMaxThreads = 256;
// The most games stepped or played together (--envs, a trainer's and the
// arena's envs/parallel, a vector env's num_envs): one limit everywhere.
constexpr int kMaxEnvs = 1 << 16;

template <class F>
void parallel_for(int n, int threads, F&& body) {
  std::exception_ptr first;
  int first_index = n;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int i = 0; i < n; ++i) {
    try {
      body(i);
    } catch (...) {
#pragma omp critical(rocketgym_parallel_for)
      if (i < first_index) {
        first_index = i;
        first = std::current_exception();
      }
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace rocketgym
