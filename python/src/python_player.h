// A players::Player<G> played by Python code: wherever a player sits (the
// opponent seats of rocketgym.make(opponents=...), the arena), a Python agent
// can sit too.
//
// The agent is an object with `act(observations, action_masks) -> actions`,
// or a plain callable with that signature, asked for a batch: float32
// observations [n, *observation_shape] (each row encoded for the seat to move
// in its game) and bool masks [n, num_actions]. It answers one integer action
// per row (a numpy integer array or a sequence of ints of length n).
//
// Seeds: an agent whose act takes a `seeds` argument (by that name, or
// **kwargs) also gets `seeds=`, uint64 [n]: one draw per row from that
// decision's own random stream (Decision::rng, derived from the game's seed
// and the move number), so that an agent drawing its row's move from its
// row's seed plays the same games whatever batch the row came in (the
// arena's `parallel`, the env's num_envs, the thread count).
//
// Ctrl-C: a KeyboardInterrupt raised in the agent's code is kept by the
// caller's SignalPoll (signal_poll.h), when it gave one, and stops the work
// (players::Interrupted) like a Ctrl-C seen between two batches.
//
// act() is called by C++ with the GIL released (the env steps without it):
// the player takes the GIL for the call and gives it back, and for letting
// go of its Python references when it is destroyed. An exception raised
// by the agent reaches Python as it was raised (plus a note naming the
// agent); an answer of the wrong type, length or dtype, or an out-of-range
// or illegal action, is a rocketgym.Error naming the agent and the row.
//
//   auto player = python::make_python_player<G>(agent, "mine", observation_shape);
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/core/errors.h"
#include "envs/core/quoted.h"
#include "signal_poll.h"
#include "training/players/player.h"
#include "training/players/table.h"

namespace rocketgym::python {

namespace py = pybind11;

// The callable a Python agent stands for: its `act` method, or itself.
// Throws Error naming the agent when it is neither.
inline py::object python_agent_callable(const py::object& agent, const std::string& name) {
  if (py::hasattr(agent, "act")) return agent.attr("act");
  if (PyCallable_Check(agent.ptr())) return agent;
  throw Error("agent " + quote(name) + " is a " + std::string(py::str(py::type::of(agent).attr("__name__"))) +
              ": an agent is a player spec string, a rocketgym.load_agent object, an object with "
              "act(observations, action_masks) or a callable with that signature");
}

// Whether `act` takes a `seeds` argument (by name or through **kwargs).
inline bool takes_seeds(const py::object& act) {
  py::object signature;
  try {
    signature = py::module_::import("inspect").attr("signature")(act);
  } catch (py::error_already_set&) {
    return false;  // no signature to read (some builtins): called without seeds
  }
  for (const auto& item : signature.attr("parameters").attr("values")()) {
    const std::string name = py::str(item.attr("name"));
    const std::string kind = py::str(item.attr("kind").attr("name"));
    if (kind == "VAR_KEYWORD" || (name == "seeds" && kind != "POSITIONAL_ONLY" && kind != "VAR_POSITIONAL"))
      return true;
  }
  return false;
}

template <class G>
class PythonPlayer final : public players::Player<G> {
 public:
  PythonPlayer(py::object agent, std::string name, std::vector<int> observation_shape, SignalPoll* signals)
      : agent_(std::move(agent)),
        name_(std::move(name)),
        shape_(std::move(observation_shape)),
        signals_(signals) {
    act_ = python_agent_callable(agent_, name_);
    seeds_ = takes_seeds(act_);
    obs_size_ = 1;
    for (int d : shape_) obs_size_ *= d;
  }

  ~PythonPlayer() override {
    py::gil_scoped_acquire gil;  // a no-op where the caller holds it
    act_ = py::object();
    agent_ = py::object();
  }

  void act(players::Decision<G>* d, int count) override {
    if (count == 0) return;
    const int actions = G::info().num_actions;
    py::gil_scoped_acquire gil;
    std::vector<py::ssize_t> shape{count};
    shape.insert(shape.end(), shape_.begin(), shape_.end());
    py::array_t<float> observations(shape);
    py::array_t<bool> masks({static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(actions)});
    float* obs = observations.mutable_data();
    auto* mask = reinterpret_cast<uint8_t*>(masks.mutable_data());
    for (int k = 0; k < count; ++k) {
      float* row = obs + static_cast<std::size_t>(k) * obs_size_;
      uint8_t* legal = mask + static_cast<std::size_t>(k) * actions;
      if (d[k].observation)
        std::copy_n(d[k].observation, obs_size_, row);
      else
        G::Encoder::encode(*d[k].state, d[k].seat, row);
      if (d[k].mask)
        std::copy_n(d[k].mask, actions, legal);
      else
        d[k].state->legal_actions_mask(legal);
      for (int a = 0; a < actions; ++a) legal[a] = legal[a] != 0;  // a bool array holds 0 or 1
    }
    py::object answer;
    try {
      if (seeds_) {
        py::array_t<uint64_t> seeds(count);
        uint64_t* seed = seeds.mutable_data();
        for (int k = 0; k < count; ++k) seed[k] = d[k].rng->next();
        answer = act_(observations, masks, py::arg("seeds") = seeds);
      } else {
        answer = act_(observations, masks);
      }
    } catch (py::error_already_set& e) {
      if (signals_ && e.matches(PyExc_KeyboardInterrupt)) {
        signals_->keep(std::move(e));
        throw players::Interrupted();
      }
      // The agent's own exception goes on as it was raised, with a note
      // (Python 3.11+) saying where it came from.
      if (py::hasattr(e.value(), "add_note"))
        e.value().attr("add_note")("raised by agent " + quote(name_) + ", asked for " +
                                   std::to_string(count) + (count == 1 ? " move" : " moves"));
      throw;
    }
    read_answer(answer, d, count);
  }

 private:
  // Checks the agent's answer and writes decisions[k].action; GIL held.
  void read_answer(const py::object& answer, players::Decision<G>* d, int count) const {
    const py::array array = py::module_::import("numpy").attr("asarray")(answer);
    const char kind = array.dtype().kind();
    if (kind != 'i' && kind != 'u')
      throw Error("agent " + quote(name_) + " returned actions of dtype " +
                  std::string(py::str(array.dtype())) +
                  ": it must return integers (a numpy integer array or a sequence of ints)");
    if (array.ndim() != 1 || array.shape(0) != count)
      throw Error("agent " + quote(name_) + " returned actions of shape " +
                  std::string(py::str(py::tuple(array.attr("shape")))) + " for " + std::to_string(count) +
                  " observations: expected shape (" + std::to_string(count) + ",)");
    // Unsigned answers are read as unsigned: 2**63 + 5 is named as itself, never as a wrapped negative.
    const bool is_unsigned = kind == 'u';
    const auto wide = py::array_t<int64_t, py::array::forcecast>::ensure(array);
    const auto wide_unsigned = py::array_t<uint64_t, py::array::forcecast>::ensure(array);
    if (!wide || !wide_unsigned) throw py::error_already_set();
    for (int k = 0; k < count; ++k) {
      const int actions = G::info().num_actions;
      const int64_t a = is_unsigned ? -1 : wide.at(k);
      const uint64_t u = is_unsigned ? wide_unsigned.at(k) : 0;
      const bool in_range = is_unsigned ? u < static_cast<uint64_t>(actions) : a >= 0 && a < actions;
      const Action action = !in_range ? -1 : static_cast<Action>(is_unsigned ? static_cast<int64_t>(u) : a);
      const std::string fault = action < 0 ? "out of range [0, " + std::to_string(actions - 1) + "]"
                                           : players::action_fault<G>(*d[k].state, action);
      if (!fault.empty())
        throw Error("agent " + quote(name_) + " returned action " +
                    (is_unsigned ? std::to_string(u) : std::to_string(a)) + " for row " + std::to_string(k) +
                    ": " + fault);
      d[k].action = action;
    }
  }

  py::object agent_, act_;
  std::string name_;
  std::vector<int> shape_;
  SignalPoll* signals_;
  bool seeds_ = false;  // act takes seeds=
  int obs_size_ = 0;
};

// A player for game G that asks the Python `agent` for its moves (see above);
// `observation_shape` is the encoder's shape at the table it plays at;
// `signals` (may be null) keeps a KeyboardInterrupt raised in the agent.
template <class G>
std::unique_ptr<players::Player<G>> make_python_player(py::object agent, std::string name,
                                                       std::vector<int> observation_shape,
                                                       SignalPoll* signals = nullptr) {
  return std::make_unique<PythonPlayer<G>>(std::move(agent), std::move(name), std::move(observation_shape),
                                           signals);
}

}  // namespace rocketgym::python
