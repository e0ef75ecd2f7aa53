// VectorEnv (AnyVectorEnv): N games stepped together in C++.
//
// Zero copy: the observation, mask, reward... buffers are owned by the C++
// vector env and never move, so each is exposed as a read-only numpy view
// whose base is the VectorEnv object (the view keeps it alive). step() and
// reset() overwrite them in place and release the GIL while C++ runs.
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "action_array.h"
#include "bindings.h"
#include "envs/core/parallel.h"
#include "one_call_at_a_time.h"

namespace rocketgym::python {

namespace {

// Tests only: shows that step() releases the GIL without timing anything.
// After _hold_next_step(), the next step() waits, GIL released, until
// another Python thread calls _release_held_step(), which that thread can
// only run if the GIL really is free (else the test hangs and times out).
struct StepGate {
  std::mutex mutex;
  std::condition_variable changed;
  bool hold = false;     // the next step waits
  bool waiting = false;  // a step is waiting now

  void pass() {  // called by step() with the GIL released
    std::unique_lock<std::mutex> lock(mutex);
    if (!hold) return;
    waiting = true;
    changed.wait(lock, [this] { return !hold; });
    waiting = false;
  }
  bool release() {  // false while no step is waiting
    const std::lock_guard<std::mutex> lock(mutex);
    if (!waiting) return false;
    hold = false;
    changed.notify_all();
    return true;
  }
};

// The C++ vector env plus what the binding needs around it.
struct VectorEnvHandle {
  std::shared_ptr<AnyGame> game;
  std::unique_ptr<AnyVectorEnv> env;
  std::vector<Action> actions;    // the caller's actions, copied while the GIL is held
  std::vector<Action> sampled;    // scratch for sample/heuristic actions
  std::vector<uint8_t> finished;  // terminated | truncated after the last step (Gymnasium's "_final_obs")
  std::mutex busy;                // the GIL is released while stepping
  // Tests only (VectorEnv._after_actions_copied): called, GIL held, once
  // step() has its private copy of the actions and before any env steps, so
  // that a test can rewrite the caller's array at exactly that moment.
  py::object after_actions_copied = py::none();
  StepGate gate;  // tests only: holds a step with the GIL released
};

// One call at a time (one_call_at_a_time.h): a RuntimeError for the second.
struct ExclusiveUse : python::OneCallAtATime<std::runtime_error> {
  explicit ExclusiveUse(std::mutex& busy)
      : python::OneCallAtATime<std::runtime_error>(
            busy, "this VectorEnv is being used by another thread; use one env per thread") {}
};

// The caller's actions, checked and copied into h.actions (action_array.h).
const Action* checked_actions(VectorEnvHandle& h, const py::handle& arg) {
  return copy_checked_actions(arg, h.env->num_envs(), h.env->num_actions(), h.actions);
}

// A thread count is refused above rocketgym's one thread limit (kMaxThreads,
// envs/core/parallel.h), as for the arena and training (whose OpenMP ends the
// process when it fails to start the threads it is asked for).
int max_threads() { return kMaxThreads; }

int checked_num_threads(int n) {
  if (n < 1 || n > max_threads())
    throw Error("num_threads must be in [1, " + std::to_string(max_threads()) +
                "] (rocketgym's thread limit, as the arena's and training's threads), got " +
                std::to_string(n));
  return n;
}

// rocketgym's one limit on games stepped together (kMaxEnvs, as --envs).
int checked_num_envs(int n) {
  if (n < 1 || n > kMaxEnvs)
    throw Error("num_envs must be in [1, " + std::to_string(kMaxEnvs) +
                "] (rocketgym's limit on games stepped together, as the arena's and training's envs), got " +
                std::to_string(n));
  return n;
}

std::unique_ptr<VectorEnvHandle> make_vector_env(std::shared_ptr<AnyGame> game, int num_envs, int num_players,
                                                 py::handle seed, int num_threads) {
  checked_num_envs(num_envs);
  checked_num_threads(num_threads);
  const uint64_t s = to_seed(seed);
  auto h = std::make_unique<VectorEnvHandle>();
  {
    py::gil_scoped_release release;
    h->env = game->new_vector_env(num_envs, num_players, s, num_threads);
  }
  h->game = std::move(game);
  h->sampled.resize(static_cast<std::size_t>(num_envs));
  h->actions.resize(static_cast<std::size_t>(num_envs));
  h->finished.assign(static_cast<std::size_t>(num_envs), 0);
  return h;
}

void step(VectorEnvHandle& h, py::handle actions_arg) {
  ExclusiveUse use(h.busy);
  const Action* actions = checked_actions(h, actions_arg);
  if (!h.after_actions_copied.is_none()) h.after_actions_copied();
  py::gil_scoped_release release;
  h.gate.pass();
  h.env->step(actions);
  const uint8_t* terminated = h.env->terminated();
  const uint8_t* truncated = h.env->truncated();
  for (std::size_t i = 0; i < h.finished.size(); ++i) h.finished[i] = terminated[i] | truncated[i];
}

void reset(VectorEnvHandle& h, py::handle seed_arg) {
  const uint64_t seed = to_seed(seed_arg);
  ExclusiveUse use(h.busy);
  py::gil_scoped_release release;
  h.env->reset(seed);
  std::fill(h.finished.begin(), h.finished.end(), uint8_t{0});
}

// Random legal or heuristic actions into a new int32 array (or into `out`).
template <void (AnyVectorEnv::*Choose)(Action*)>
py::array choose_actions(VectorEnvHandle& h, py::object out_arg) {
  const int n = h.env->num_envs();
  py::array_t<int32_t> out;
  if (out_arg.is_none()) {
    out = py::array_t<int32_t>(n);
  } else {
    if (!py::isinstance<py::array_t<int32_t>>(out_arg))
      throw py::type_error("out must be a numpy int32 array");
    out = py::reinterpret_borrow<py::array_t<int32_t>>(out_arg);
    if (out.ndim() != 1 || out.shape(0) != n || !(out.flags() & py::array::c_style) || !out.writeable())
      throw py::value_error("out must be a writeable C-contiguous int32 array of shape (" +
                            std::to_string(n) + ",)");
  }
  ExclusiveUse use(h.busy);
  Action* dst = out.mutable_data();
  {
    py::gil_scoped_release release;
    ((*h.env).*Choose)(dst);
  }
  return std::move(out);
}

// The loop of `rocketgym bench`, run entirely in C++: random legal actions
// sampled from the masks, then one step of all envs. Returns the seconds
// spent, for comparison with the same loop driven from Python.
double bench_cpp_loop(VectorEnvHandle& h, int iterations) {
  ExclusiveUse use(h.busy);
  py::gil_scoped_release release;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    h.env->sample_random_actions(h.sampled.data());
    h.env->step(h.sampled.data());
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void bind_vector_env(py::module_& m) {
  using H = VectorEnvHandle;
  m.def(
      "max_envs", [] { return kMaxEnvs; }, "The largest num_envs a vector env accepts (as --envs).");
  m.def(
      "max_threads", &max_threads,
      "The largest num_threads a vector env accepts: rocketgym's one thread limit (as the arena's threads).");
  py::class_<H>(m, "VectorEnv",
                "N games of one game stepped together in C++ (threads of its own), with auto-reset. The "
                "array properties are read-only views of C++ buffers, overwritten in place by every "
                "step()/reset().")
      .def(py::init(&make_vector_env), py::arg("game"), py::arg("num_envs"), py::arg("num_players"),
           py::arg("seed") = 0, py::arg("num_threads") = 1)
      .def_property_readonly("game", [](const H& h) { return h.game; })
      .def_property_readonly("num_envs", [](const H& h) { return h.env->num_envs(); })
      .def_property_readonly("num_players", [](const H& h) { return h.env->num_players(); })
      .def_property_readonly("num_actions", [](const H& h) { return h.env->num_actions(); })
      .def_property_readonly("observation_shape", [](const H& h) { return h.env->observation_shape(); })
      .def_property_readonly("observation_size", [](const H& h) { return h.env->observation_size(); })
      .def_property(
          "num_threads", [](const H& h) { return h.env->num_threads(); },
          [](H& h, int n) {
            checked_num_threads(n);
            ExclusiveUse use(h.busy);
            h.env->set_num_threads(n);
          })
      .def_readwrite("_after_actions_copied", &H::after_actions_copied,
                     "Tests only: a callable run by step() after it copied the actions, before stepping.")
      .def(
          "_hold_next_step",
          [](H& h) {
            const std::lock_guard<std::mutex> lock(h.gate.mutex);
            h.gate.hold = true;
          },
          "Tests only: the next step() waits, GIL released, for _release_held_step() from another thread.")
      .def(
          "_release_held_step", [](H& h) { return h.gate.release(); },
          "Tests only: lets a held step() go on; False while no step is waiting.")
      .def("reset", &reset, py::arg("seed"),
           "Restarts every env; env i's episode k uses episode_seed(seed, i, k).")
      .def("step", &step, py::arg("actions"),
           "One action per env (integer array of shape (num_envs,)). Validates all of them first "
           "(IllegalAction names the env, nothing is stepped), then steps all envs; a finished env reports "
           "its final rewards and terminated/truncated once and restarts at once.")
      .def("sample_actions", &choose_actions<&AnyVectorEnv::sample_random_actions>,
           py::arg("out") = py::none(),
           "A uniformly random legal action per env (int32), from each env's own stream.")
      .def("heuristic_actions", &choose_actions<&AnyVectorEnv::heuristic_actions>,
           py::arg("out") = py::none(), "The heuristic bot's action per env (int32).")
      .def(
          "state",
          [](H& h, py::handle i) {
            ExclusiveUse use(h.busy);
            return h.env->state(to_int_in(i, "env", 0, h.env->num_envs() - 1));
          },
          py::arg("env"), "A copy of env i's current state.")
      .def_property_readonly("observations",
                             [](py::object self) {
                               auto& h = self.cast<H&>();
                               std::vector<py::ssize_t> shape{h.env->num_envs()};
                               for (int d : h.env->observation_shape()) shape.push_back(d);
                               return readonly_view(h.env->observations(), shape, self);
                             })
      .def_property_readonly("action_masks",
                             [](py::object self) {
                               auto& h = self.cast<H&>();
                               return readonly_view(reinterpret_cast<int8_t*>(h.env->action_masks()),
                                                    {h.env->num_envs(), h.env->num_actions()}, self);
                             })
      .def_property_readonly("current_players",
                             [](py::object self) {
                               auto& h = self.cast<H&>();
                               return readonly_view(h.env->current_players(), {h.env->num_envs()}, self);
                             })
      .def_property_readonly(
          "rewards",
          [](py::object self) {
            auto& h = self.cast<H&>();
            return readonly_view(h.env->rewards(), {h.env->num_envs(), h.env->num_players()}, self);
          })
      .def_property_readonly("terminated",
                             [](py::object self) {
                               auto& h = self.cast<H&>();
                               return readonly_view(reinterpret_cast<bool*>(h.env->terminated()),
                                                    {h.env->num_envs()}, self);
                             })
      .def_property_readonly("truncated",
                             [](py::object self) {
                               auto& h = self.cast<H&>();
                               return readonly_view(reinterpret_cast<bool*>(h.env->truncated()),
                                                    {h.env->num_envs()}, self);
                             })
      .def_property_readonly("episode_steps",
                             [](py::object self) {
                               auto& h = self.cast<H&>();
                               return readonly_view(h.env->episode_steps(), {h.env->num_envs()}, self);
                             })
      .def_property_readonly("final_observations",
                             [](py::object self) {
                               auto& h = self.cast<H&>();
                               std::vector<py::ssize_t> shape{h.env->num_envs(), h.env->num_players()};
                               for (int d : h.env->observation_shape()) shape.push_back(d);
                               return readonly_view(h.env->final_observations(), shape, self);
                             })
      .def_property_readonly("finished",
                             [](py::object self) {
                               auto& h = self.cast<H&>();
                               return readonly_view(reinterpret_cast<bool*>(h.finished.data()),
                                                    {h.env->num_envs()}, self);
                             })
      .def_property_readonly("final_episode_steps",
                             [](py::object self) {
                               auto& h = self.cast<H&>();
                               return readonly_view(h.env->final_episode_steps(), {h.env->num_envs()}, self);
                             })
      .def_property_readonly(
          "_seed", [](const H& h) { return h.env->seed(); }, "The seed of the last reset (for pickling).")
      .def(
          "_slot",
          [](H& h, int i) {
            ExclusiveUse use(h.busy);
            const VectorEnvSlot slot = h.env->slot(i);
            return py::make_tuple(slot.episode, slot.episode_steps,
                                  py::make_tuple(slot.action_rng[0], slot.action_rng[1], slot.action_rng[2],
                                                 slot.action_rng[3]));
          },
          py::arg("env"), "Env i's (episode, episode_steps, action stream) for pickling (VectorEnvSlot).")
      .def(
          "_restore",
          [](H& h, int i, const AnyState& state, uint64_t episode, int32_t steps,
             const std::array<uint64_t, 4>& action_rng) {
            ExclusiveUse use(h.busy);
            h.env->restore(i, state, VectorEnvSlot{episode, steps, action_rng});
            h.finished[static_cast<std::size_t>(i)] = 0;
          },
          py::arg("env"), py::arg("state"), py::arg("episode"), py::arg("episode_steps"),
          py::arg("action_rng"),
          "Puts a copy of `state` into env i with its slot (the inverse of _slot, for unpickling).")
      .def("_bench_cpp_loop", &bench_cpp_loop, py::arg("iterations"),
           "Runs `iterations` rounds of sample_actions + step in C++; returns the seconds taken.");
}

}  // namespace rocketgym::python
