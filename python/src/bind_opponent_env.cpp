// rocketgym._agents.OpponentVectorEnv: N games where the learner (Python)
// plays one seat and opponents play the others inside C++
// (training/players/opponent_env.h); rocketgym.opponents builds the
// Gymnasium-style envs on top.
//
// Opponents are player specs ("heuristic", "zoo", "checkpoint:PATH", ...) or
// Python agents (python_player.h). The arrays are read-only numpy views of
// the C++ buffers, as for the plain VectorEnv; step() and reset() release the
// GIL while C++ runs (a Python opponent takes it back for its own calls), and
// poll Python's signal handlers between rounds of opponents' moves, so that
// Ctrl-C stops them (signal_poll.h): the games are then mid-turn, as after an
// opponent's failure, and step() refuses until reset().
//
// _slot() and _restore() copy an env's game and counters (pickling).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "action_array.h"
#include "bindings.h"
#include "envs/core/game_model.h"
#include "envs/core/parallel.h"
#include "envs/core/quoted.h"
#include "generated/game_list.h"
#include "one_call_at_a_time.h"
#include "python_player.h"
#include "signal_poll.h"
#include "training/game_setup.h"
#include "training/players/opponent_env.h"
#include "training/players/table.h"

namespace rocketgym::python {

// The resolved spec inside a rocketgym.load_agent object, or null (agents_module.cpp).
const players::PlayerSpec* agent_spec(py::handle agent);

namespace {

// The typed env behind one interface (one virtual call per step, not per env).
class AnyOpponentEnv {
 public:
  virtual ~AnyOpponentEnv() = default;
  virtual int num_envs() const = 0;
  virtual int num_actions() const = 0;
  virtual void reset(uint64_t seed) = 0;
  virtual void step(const Action* actions) = 0;
  virtual void sample_random_actions(Action* out) = 0;
  virtual std::unique_ptr<AnyState> state(int env) const = 0;
  virtual int num_threads() const = 0;
  virtual void set_num_threads(int n) = 0;
  virtual float* observations() = 0;
  virtual uint8_t* action_masks() = 0;
  virtual float* rewards() = 0;
  virtual uint8_t* terminated() = 0;
  virtual uint8_t* truncated() = 0;
  virtual int32_t* seats() = 0;
  virtual int32_t* episode_steps() = 0;
  virtual float* final_observations() = 0;
  virtual int32_t* final_episode_steps() = 0;
  virtual int32_t* final_seats() = 0;
  virtual float* final_returns() = 0;
  virtual int32_t* final_scores() = 0;
  virtual uint64_t decisions_played() const = 0;
  virtual bool broken() const = 0;
  virtual players::OpponentEnvSlot slot(int env) const = 0;
  virtual void restore(uint64_t seed, int env, const AnyState& state,
                       const players::OpponentEnvSlot& slot) = 0;
};

template <class G>
class OpponentEnvModel final : public AnyOpponentEnv {
 public:
  template <class... Args>
  explicit OpponentEnvModel(Args&&... args) : env_(std::forward<Args>(args)...) {}
  int num_envs() const override { return env_.num_envs(); }
  int num_actions() const override { return env_.num_actions(); }
  void reset(uint64_t seed) override { env_.reset(seed); }
  void step(const Action* actions) override { env_.step(actions); }
  void sample_random_actions(Action* out) override { env_.sample_random_actions(out); }
  std::unique_ptr<AnyState> state(int i) const override {
    if (i < 0 || i >= env_.num_envs())
      throw Error("env " + std::to_string(i) + " out of range [0, " + std::to_string(env_.num_envs() - 1) +
                  "]");
    return std::make_unique<StateModel<G>>(env_.config(), env_.state(i));
  }
  int num_threads() const override { return env_.num_threads(); }
  void set_num_threads(int n) override { env_.set_num_threads(n); }
  float* observations() override { return env_.observations(); }
  uint8_t* action_masks() override { return env_.action_masks(); }
  float* rewards() override { return env_.rewards(); }
  uint8_t* terminated() override { return env_.terminated(); }
  uint8_t* truncated() override { return env_.truncated(); }
  int32_t* seats() override { return env_.seats(); }
  int32_t* episode_steps() override { return env_.episode_steps(); }
  float* final_observations() override { return env_.final_observations(); }
  int32_t* final_episode_steps() override { return env_.final_episode_steps(); }
  int32_t* final_seats() override { return env_.final_seats(); }
  float* final_returns() override { return env_.final_returns(); }
  int32_t* final_scores() override { return env_.final_scores(); }
  uint64_t decisions_played() const override { return env_.decisions_played(); }
  bool broken() const override { return env_.broken(); }
  players::OpponentEnvSlot slot(int i) const override {
    if (i < 0 || i >= env_.num_envs())
      throw Error("env " + std::to_string(i) + " out of range [0, " + std::to_string(env_.num_envs() - 1) +
                  "]");
    return env_.slot(i);
  }
  void restore(uint64_t seed, int i, const AnyState& state, const players::OpponentEnvSlot& slot) override {
    const auto* own = dynamic_cast<const StateModel<G>*>(&state);
    if (!own) throw Error("env " + std::to_string(i) + ": the state is not a " + G::info().id + " position");
    env_.restore(seed, i, own->state(), slot);
  }
  players::OpponentVectorEnv<G>& typed() { return env_; }

 private:
  players::OpponentVectorEnv<G> env_;
};

struct OpponentEnvHandle {
  // First, so that it outlives the opponents that poll it.
  std::unique_ptr<SignalPoll> signals = std::make_unique<SignalPoll>();
  std::shared_ptr<AnyGame> game;
  int num_players = 0;
  std::vector<int> observation_shape;
  std::vector<std::string> opponent_names;
  std::unique_ptr<AnyOpponentEnv> env;
  std::vector<Action> actions;    // the learner's actions, copied while the GIL is held
  std::vector<uint8_t> finished;  // terminated | truncated after the last step
  std::mutex busy;                // the GIL is released while stepping
  uint64_t seed = 0;              // the seed of the last reset
};

// One call at a time (one_call_at_a_time.h), a Python opponent stepping the env it
// plays in included: an rg.Error for the second.
struct ExclusiveUse : python::OneCallAtATime<Error> {
  explicit ExclusiveUse(std::mutex& busy)
      : python::OneCallAtATime<Error>(
            busy,
            "this OpponentVectorEnv is being used by another call (another thread, or an "
            "opponent stepping the env it plays in)") {}
};

// The name an opponent goes by in errors: a spec's own name, a Python
// agent's `name` attribute, its function or class name.
std::string python_agent_name(const py::handle& agent) {
  if (py::hasattr(agent, "name") && py::isinstance<py::str>(agent.attr("name")))
    return agent.attr("name").cast<std::string>();
  if (py::hasattr(agent, "__name__")) return py::str(agent.attr("__name__"));
  return py::str(py::type::of(agent).attr("__name__"));
}

// One opponent of game G: a spec string (parsed, checked against the game,
// its network loaded) or a Python agent.
template <class G>
std::unique_ptr<players::Player<G>> make_opponent(const py::handle& entry, std::string& name,
                                                  const AnyGame& game, int num_players,
                                                  const std::vector<int>& shape,
                                                  const players::PlayerOptions& options,
                                                  SignalPoll& signals) {
  // A rocketgym.load_agent object sits as the spec it was loaded from (any
  // kind, scripted ones included), checked against this table.
  if (const players::PlayerSpec* loaded = agent_spec(entry)) {
    const std::string game_id = entry.attr("game_id").cast<std::string>();
    const int players = entry.attr("num_players").cast<int>();
    if (game_id != game.info().id || players != num_players)
      throw Error("opponent " + quote(loaded->name) + " was loaded for " + game_id + " with " +
                  std::to_string(players) + " players; this table plays " + game.info().id + " with " +
                  std::to_string(num_players) + " players");
    name = loaded->name;
    return players::make_player<G>(*loaded, options);
  }
  if (!py::isinstance<py::str>(entry)) {
    name = python_agent_name(entry);
    return make_python_player<G>(py::reinterpret_borrow<py::object>(entry), name, shape, &signals);
  }
  const std::string text = entry.cast<std::string>();
  name = text;
  try {
    std::vector<players::PlayerSpec> one{players::parse_player(text, game.info().id)};
    players::name_players(one);
    players::PlayerSpec& spec = one.front();
    name = spec.name;
    const std::string own = spec.kind->own_game();  // a zoo bot's (a checkpoint's is checked on loading)
    if (!own.empty() && own != game.info().id)
      throw Error("it is the zoo bot of " + own + ", not of " + game.info().id);
    py::gil_scoped_release release;  // loading a network takes a while
    players::resolve(spec, game.info().id, num_players, shape, game.info().num_actions, torch::kCPU);
    return players::make_player<G>(spec, options);
  } catch (const ConfigError& e) {
    throw ConfigError("opponent " + quote(text) + ": " + e.what());
  } catch (const Error& e) {
    throw Error("opponent " + quote(text) + ": " + e.what());
  }
}

std::unique_ptr<OpponentEnvHandle> make_opponent_env(std::shared_ptr<AnyGame> game, int num_envs,
                                                     int num_players, const py::list& opponents, int seat,
                                                     uint64_t seed, int num_threads, bool auto_reset,
                                                     bool start) {
  game->check_players(num_players);
  if (num_envs < 1 || num_envs > kMaxEnvs)  // rocketgym's one limit (envs/core/parallel.h)
    throw Error("num_envs must be in [1, " + std::to_string(kMaxEnvs) + "], got " + std::to_string(num_envs));
  if (num_threads < 1) throw Error("num_threads must be at least 1, got " + std::to_string(num_threads));
  const auto count = static_cast<int>(opponents.size());
  if (count != 1 && count != num_players - 1)
    throw Error("a " + std::to_string(num_players) + "-player table takes 1 opponent" +
                (num_players == 2 ? std::string()
                                  : " (it plays every other seat) or " + std::to_string(num_players - 1) +
                                        " (one per seat, clockwise from the learner)") +
                ", got " + std::to_string(count));
  auto h = std::make_unique<OpponentEnvHandle>();
  h->seed = seed;
  h->game = game;
  h->num_players = num_players;
  h->observation_shape = game->observation_shape(num_players);
  try {
    h->env = visit_game(game->info().id, [&](auto g) -> std::unique_ptr<AnyOpponentEnv> {
      using G = decltype(g);
      const auto config = typed_config<G>(*game);
      // Network opponents run their forward pass on the env's threads too.
      players::PlayerOptions options{num_threads, num_envs, torch::kCPU, num_threads};
      options.interrupt = h->signals->interrupt();
      std::vector<std::unique_ptr<players::Player<G>>> seated;
      std::vector<std::string> names(static_cast<std::size_t>(count));
      for (int k = 0; k < count; ++k)
        seated.push_back(make_opponent<G>(opponents[static_cast<std::size_t>(k)],
                                          names[static_cast<std::size_t>(k)], *game, num_players,
                                          h->observation_shape, options, *h->signals));
      h->opponent_names = names;
      h->signals->arm();
      // The first games' opponent moves may call Python opponents: they take the GIL back.
      py::gil_scoped_release release;
      auto model =
          std::make_unique<OpponentEnvModel<G>>(config, num_envs, num_players, seat, std::move(seated),
                                                std::move(names), seed, num_threads, auto_reset, false);
      model->typed().set_interrupt(h->signals->interrupt());
      if (start) model->reset(seed);
      return model;
    });
  } catch (const players::Interrupted&) {
    h->signals->raise_kept();
  }
  h->actions.resize(static_cast<std::size_t>(num_envs));
  h->finished.assign(static_cast<std::size_t>(num_envs), 0);
  return h;
}

// The learner's actions, checked and copied into h.actions (action_array.h).
const Action* checked_actions(OpponentEnvHandle& h, const py::handle& arg) {
  return copy_checked_actions(arg, h.env->num_envs(), h.env->num_actions(), h.actions);
}

void mark_finished(OpponentEnvHandle& h) {
  const uint8_t* terminated = h.env->terminated();
  const uint8_t* truncated = h.env->truncated();
  for (std::size_t i = 0; i < h.finished.size(); ++i) h.finished[i] = terminated[i] | truncated[i];
}

// Runs `work` without the GIL, polling Python's signal handlers; a
// KeyboardInterrupt caught there is raised here.
template <class F>
void run_interruptibly(OpponentEnvHandle& h, F&& work) {
  h.signals->arm();
  try {
    py::gil_scoped_release release;
    work();
  } catch (const players::Interrupted&) {
    h.signals->raise_kept();
  }
}

void step(OpponentEnvHandle& h, const py::handle& actions_arg) {
  ExclusiveUse use(h.busy);
  const Action* actions = checked_actions(h, actions_arg);
  std::fill(h.finished.begin(), h.finished.end(), uint8_t{0});
  run_interruptibly(h, [&] {
    h.env->step(actions);
    mark_finished(h);
  });
}

void reset(OpponentEnvHandle& h, uint64_t seed) {
  ExclusiveUse use(h.busy);
  std::fill(h.finished.begin(), h.finished.end(), uint8_t{0});
  h.seed = seed;
  run_interruptibly(h, [&] { h.env->reset(seed); });
}

py::array sample_actions(OpponentEnvHandle& h) {
  ExclusiveUse use(h.busy);
  py::array_t<int32_t> out(h.env->num_envs());
  Action* dst = out.mutable_data();
  {
    py::gil_scoped_release release;
    h.env->sample_random_actions(dst);
  }
  return std::move(out);
}

// What a buffer holds per env, after its first dimension (the env).
enum class Row { kOne, kSeats, kActions, kObservation };

// A property returning a read-only view of one of the env's buffers.
template <class T, class Get>
auto view(Get get, Row row) {
  return [get, row](py::object self) {
    auto& h = self.cast<OpponentEnvHandle&>();
    std::vector<py::ssize_t> shape{h.env->num_envs()};
    if (row == Row::kSeats) shape.push_back(h.num_players);
    if (row == Row::kActions) shape.push_back(h.env->num_actions());
    if (row == Row::kObservation)
      shape.insert(shape.end(), h.observation_shape.begin(), h.observation_shape.end());
    return readonly_view(reinterpret_cast<T*>(get(*h.env)), shape, self);
  };
}

}  // namespace

void bind_opponent_env(py::module_& m) {
  using H = OpponentEnvHandle;
  using E = AnyOpponentEnv;
  py::class_<H>(m, "OpponentVectorEnv",
                "N games where the learner plays one seat and opponents (player specs or Python agents) the "
                "others, in C++; use rocketgym.make_vec(..., opponents=[...]).")
      .def(py::init(&make_opponent_env), py::arg("game"), py::arg("num_envs"), py::arg("num_players"),
           py::arg("opponents"), py::arg("seat"), py::arg("seed"), py::arg("num_threads") = 1,
           py::arg("auto_reset") = true, py::arg("start") = true,
           "`seat`: the learner's seat, or -1 for a seat drawn from each game's seed. Without `auto_reset`, "
           "a finished game stays over (mask all zeros) until reset(). Without `start`, no game is started "
           "(no opponent is asked): _restore() every env before stepping.")
      .def_property_readonly(
          "_seed", [](const H& h) { return h.seed; }, "The seed of the last reset (for pickling).")
      .def_property_readonly(
          "broken", [](const H& h) { return h.env->broken(); },
          "Whether the last step or reset stopped mid-turn (an opponent failed, or Ctrl-C): step() refuses "
          "until reset().")
      .def(
          "_slot",
          [](H& h, int i) {
            ExclusiveUse use(h.busy);
            const players::OpponentEnvSlot slot = h.env->slot(i);
            return py::make_tuple(slot.episode, slot.moves, slot.learner_steps, slot.seat, slot.played,
                                  py::make_tuple(slot.action_rng[0], slot.action_rng[1], slot.action_rng[2],
                                                 slot.action_rng[3]));
          },
          py::arg("env"),
          "Env i's (episode, moves, learner steps, seat, moves played, action stream), for pickling.")
      .def(
          "_restore",
          [](H& h, uint64_t seed, int i, const AnyState& state, uint64_t episode, int32_t moves,
             int32_t learner_steps, int32_t seat, uint64_t played,
             const std::array<uint64_t, 4>& action_rng) {
            ExclusiveUse use(h.busy);
            h.env->restore(seed, i, state, {episode, moves, learner_steps, seat, played, action_rng});
            h.seed = seed;
            h.finished[static_cast<std::size_t>(i)] = 0;
          },
          py::arg("seed"), py::arg("env"), py::arg("state"), py::arg("episode"), py::arg("moves"),
          py::arg("learner_steps"), py::arg("seat"), py::arg("played"), py::arg("action_rng"),
          "Puts a copy of `state` into env i with its counters (the inverse of _slot, for unpickling).")
      .def_property_readonly("game", [](const H& h) { return h.game; })
      .def_property_readonly("num_envs", [](const H& h) { return h.env->num_envs(); })
      .def_property_readonly("num_players", [](const H& h) { return h.num_players; })
      .def_property_readonly("num_actions", [](const H& h) { return h.env->num_actions(); })
      .def_property_readonly("observation_shape", [](const H& h) { return h.observation_shape; })
      .def_property_readonly("opponent_names", [](const H& h) { return h.opponent_names; })
      .def_property_readonly(
          "decisions_played", [](const H& h) { return h.env->decisions_played(); },
          "Every seat's decisions played in all the envs since the env was made, the learner's and the "
          "opponents'.")
      .def_property(
          "num_threads", [](const H& h) { return h.env->num_threads(); },
          [](H& h, int n) {
            if (n < 1) throw Error("num_threads must be at least 1, got " + std::to_string(n));
            ExclusiveUse use(h.busy);
            h.env->set_num_threads(n);
          })
      .def("reset", &reset, py::arg("seed"),
           "Restarts every env; env i's game k uses episode_seed(seed, i, k).")
      .def("step", &step, py::arg("actions"),
           "The learner's action per env; then the opponents play until the learner is to move again.")
      .def("sample_actions", &sample_actions, "A uniformly random legal learner action per env (int32).")
      .def(
          "state",
          [](H& h, py::handle i) {
            ExclusiveUse use(h.busy);
            return h.env->state(to_int_in(i, "env", 0, h.env->num_envs() - 1));
          },
          py::arg("env"), "A copy of env i's current state.")
      .def_property_readonly("observations",
                             view<float>([](E& e) { return e.observations(); }, Row::kObservation))
      .def_property_readonly("action_masks",
                             view<int8_t>([](E& e) { return e.action_masks(); }, Row::kActions))
      .def_property_readonly("rewards", view<float>([](E& e) { return e.rewards(); }, Row::kOne))
      .def_property_readonly("terminated", view<bool>([](E& e) { return e.terminated(); }, Row::kOne))
      .def_property_readonly("truncated", view<bool>([](E& e) { return e.truncated(); }, Row::kOne))
      .def_property_readonly("seats", view<int32_t>([](E& e) { return e.seats(); }, Row::kOne))
      .def_property_readonly("episode_steps",
                             view<int32_t>([](E& e) { return e.episode_steps(); }, Row::kOne))
      .def_property_readonly("final_observations",
                             view<float>([](E& e) { return e.final_observations(); }, Row::kObservation))
      .def_property_readonly("final_episode_steps",
                             view<int32_t>([](E& e) { return e.final_episode_steps(); }, Row::kOne))
      .def_property_readonly("final_seats", view<int32_t>([](E& e) { return e.final_seats(); }, Row::kOne))
      .def_property_readonly("final_returns",
                             view<float>([](E& e) { return e.final_returns(); }, Row::kSeats))
      .def_property_readonly("final_scores",
                             view<int32_t>([](E& e) { return e.final_scores(); }, Row::kSeats))
      .def_property_readonly("finished", [](py::object self) {
        auto& h = self.cast<H&>();
        return readonly_view(reinterpret_cast<bool*>(h.finished.data()), {h.env->num_envs()}, self);
      });
}

}  // namespace rocketgym::python
