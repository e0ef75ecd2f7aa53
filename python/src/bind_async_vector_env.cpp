// AsyncVectorEnv (AnyAsyncVectorEnv, envs/core/async_vector_env.h): N games
// stepped by threads that never wait for each other; recv() gives the first
// batch_size envs that are ready, send() their actions.
//
// Zero copy: a batch is one block of the C++ env's ring of batches, which
// never moves. The binding exposes each block as read-only numpy views whose
// base is the AsyncVectorEnv object (python/rocketgym/async_vector.py keeps
// them per block, so a recv() makes no array). recv() and reset() release the
// GIL; send() copies the actions and ids while it holds the GIL.
#include <pybind11/stl.h>

#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "action_array.h"
#include "bindings.h"
#include "envs/core/async_vector_env.h"
#include "envs/core/parallel.h"
#include "one_call_at_a_time.h"

namespace rocketgym::python {

// A namespace of its own: the unity build compiles this file with bind_vector_env.cpp.
namespace async_env {

struct AsyncVectorEnvHandle {
  std::shared_ptr<AnyGame> game;
  std::unique_ptr<AnyAsyncVectorEnv> env;
  std::vector<Action> actions;  // the caller's actions, copied while the GIL is held
  std::vector<int32_t> ids;     // the caller's env ids, the same
  std::mutex busy;              // the GIL is released in recv() and reset()
};

struct ExclusiveUse : python::OneCallAtATime<std::runtime_error> {
  explicit ExclusiveUse(std::mutex& busy)
      : python::OneCallAtATime<std::runtime_error>(
            busy, "this AsyncVectorEnv is being used by another thread; use one env per thread") {}
};

std::unique_ptr<AsyncVectorEnvHandle> make_async_vector_env(std::shared_ptr<AnyGame> game, int num_envs,
                                                            int num_players, py::handle seed, int num_threads,
                                                            py::int_ batch_size) {
  const uint64_t s = to_seed(seed);
  int64_t wide = 0;
  try {
    wide = batch_size.cast<int64_t>();
  } catch (const py::cast_error&) {  // beyond 64 bits: out of range all the same
    throw Error(batch_size_rule(num_envs) + ", got " + std::string(py::str(batch_size)));
  }
  const int k = checked_batch_size(wide, num_envs);
  auto h = std::make_unique<AsyncVectorEnvHandle>();
  {
    py::gil_scoped_release release;
    h->env = game->new_async_vector_env(num_envs, num_players, s, num_threads, k);
  }
  h->game = std::move(game);
  h->actions.resize(static_cast<std::size_t>(num_envs));
  h->ids.resize(static_cast<std::size_t>(num_envs));
  return h;
}

void send(AsyncVectorEnvHandle& h, py::handle actions_arg, py::handle ids_arg) {
  ExclusiveUse use(h.busy);
  const int count = copy_checked_env_ids(ids_arg, h.env->num_envs(), h.ids);
  copy_checked_actions(actions_arg, count, h.env->num_actions(), h.actions, h.ids.data());
  h.env->send(h.actions.data(), h.ids.data(), count);
}

int recv(AsyncVectorEnvHandle& h) {
  ExclusiveUse use(h.busy);
  py::gil_scoped_release release;
  return h.env->recv();
}

void reset(AsyncVectorEnvHandle& h, py::handle seed_arg) {
  const uint64_t seed = to_seed(seed_arg);
  ExclusiveUse use(h.busy);
  py::gil_scoped_release release;
  h.env->reset(seed);
}

// Random legal or heuristic actions for the batch into a new int32 array (or into `out`).
template <void (AnyAsyncVectorEnv::*Choose)(Action*)>
py::array choose_actions(AsyncVectorEnvHandle& h, py::object out_arg) {
  const int k = h.env->batch_size();
  py::array_t<int32_t> out;
  if (out_arg.is_none()) {
    out = py::array_t<int32_t>(k);
  } else {
    if (!py::isinstance<py::array_t<int32_t>>(out_arg))
      throw py::type_error("out must be a numpy int32 array");
    out = py::reinterpret_borrow<py::array_t<int32_t>>(out_arg);
    if (out.ndim() != 1 || out.shape(0) != k || !(out.flags() & py::array::c_style) || !out.writeable())
      throw py::value_error("out must be a writeable C-contiguous int32 array of shape (" +
                            std::to_string(k) + ",)");
  }
  ExclusiveUse use(h.busy);
  ((*h.env).*Choose)(out.mutable_data());
  return std::move(out);
}

// Block b's rows as read-only views (base: the handle), in the order of AsyncBatch.
py::tuple block_views(py::object self, int b) {
  auto& h = self.cast<AsyncVectorEnvHandle&>();
  const AsyncBatch batch = h.env->batch(b);
  const py::ssize_t k = h.env->batch_size(), p = h.env->num_players();
  std::vector<py::ssize_t> obs{k}, final_obs{k, p};
  for (int d : h.env->observation_shape()) {
    obs.push_back(d);
    final_obs.push_back(d);
  }
  return py::make_tuple(
      readonly_view(batch.env_ids, {k}, self), readonly_view(batch.observations, obs, self),
      readonly_view(reinterpret_cast<int8_t*>(batch.action_masks), {k, h.env->num_actions()}, self),
      readonly_view(batch.current_players, {k}, self), readonly_view(batch.rewards, {k, p}, self),
      readonly_view(reinterpret_cast<bool*>(batch.terminated), {k}, self),
      readonly_view(reinterpret_cast<bool*>(batch.truncated), {k}, self),
      readonly_view(batch.episode_steps, {k}, self), readonly_view(batch.final_observations, final_obs, self),
      readonly_view(batch.final_episode_steps, {k}, self));
}

}  // namespace async_env

void bind_async_vector_env(py::module_& m) {
  namespace a = async_env;
  using H = a::AsyncVectorEnvHandle;
  py::class_<H>(
      m, "AsyncVectorEnv",
      "N games stepped by threads that never wait for each other: recv() makes the first batch_size "
      "ready envs the batch, send() gives envs their actions (rocketgym.AsyncVectorEnv wraps it).")
      .def(py::init(&a::make_async_vector_env), py::arg("game"), py::arg("num_envs"), py::arg("num_players"),
           py::arg("seed"), py::arg("num_threads"), py::arg("batch_size"))
      .def_property_readonly("game", [](const H& h) { return h.game; })
      .def_property_readonly("num_envs", [](const H& h) { return h.env->num_envs(); })
      .def_property_readonly("batch_size", [](const H& h) { return h.env->batch_size(); })
      .def_property_readonly("num_players", [](const H& h) { return h.env->num_players(); })
      .def_property_readonly("num_actions", [](const H& h) { return h.env->num_actions(); })
      .def_property_readonly("observation_shape", [](const H& h) { return h.env->observation_shape(); })
      .def_property_readonly("num_threads", [](const H& h) { return h.env->num_threads(); })
      .def_property_readonly("num_blocks", [](const H& h) { return h.env->num_blocks(); })
      .def_property_readonly("_seed", [](const H& h) { return h.env->seed(); })
      .def(
          "reset", &a::reset, py::arg("seed"),
          "Waits for the envs being stepped, then restarts every env (env i's game k from episode_seed(seed, "
          "i, k)); the next recv()s give every env, in id order.")
      .def("recv", &a::recv,
           "Waits until batch_size envs are ready (stepping queued envs on this thread meanwhile) and makes "
           "them the batch; returns its block (see _block_views).")
      .def(
          "send", &a::send, py::arg("actions"), py::arg("env_ids"),
          "actions[j] for env env_ids[j], each an env awaiting its action; checks them all first (nothing is "
          "sent on an error).")
      .def("sample_actions", &a::choose_actions<&AnyAsyncVectorEnv::sample_random_actions>,
           py::arg("out") = py::none(), "A uniformly random legal action per env of the batch (int32).")
      .def("heuristic_actions", &a::choose_actions<&AnyAsyncVectorEnv::heuristic_actions>,
           py::arg("out") = py::none(), "The heuristic bot's action per env of the batch (int32).")
      .def(
          "state",
          [](H& h, py::handle i) {
            a::ExclusiveUse use(h.busy);
            return h.env->state(to_int_in(i, "env", 0, h.env->num_envs() - 1));
          },
          py::arg("env"), "A copy of env i's state, while it awaits an action.")
      .def(
          "_block_views", &a::block_views, py::arg("block"),
          "Read-only views of a block's rows: env_ids, observations, action_masks, current_players, rewards, "
          "terminated, truncated, episode_steps, final_observations, final_episode_steps.")
      .def(
          "shutdown",
          [](H& h) {
            a::ExclusiveUse use(h.busy);
            py::gil_scoped_release release;
            h.env->shutdown();
          },
          "Ends the worker threads.");
}

}  // namespace rocketgym::python
