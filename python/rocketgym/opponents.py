"""Playing against bots: ``rocketgym.make(game_id, opponents=[...])`` and
``rocketgym.make_vec(game_id, num_envs, opponents=[...])``.

The learner plays one seat; the other seats are played inside the env, in C++
with the GIL released, until the learner is to move again. Single-agent code
(CleanRL, Stable-Baselines-style loops) sees only the learner's decisions:

* ``obs = {"observation", "action_mask"}`` is always the learner's view;
* ``reward`` is the learner's: its return when its game ends, on its own move
  or on an opponent's, else 0, so the rewards of an episode sum to the
  learner's return;
* ``info["seat"]`` is the learner's seat in the game.

Opponents: a list of one (it plays every other seat) or ``num_players - 1``
(opponent k plays the k-th seat after the learner's, clockwise). Each is an
agent spec string, as in the arena (its forms: ``rocketgym.agent_grammar()``,
from the C++ list of kinds), e.g. ``"heuristic"``, ``"bot=random"`` or
``"zoo"`` (this game's zoo bot; ``"zoo:0"`` is not a spec, write
``"zoo:<game>:0"`` for its raw network), or a **Python agent**: an object with
``act(observations, action_masks) -> actions`` or a plain callable with that
signature. It is asked for a batch: float32 observations
``[n, *observation_shape]`` (each row seen by the seat it moves for) and bool
masks ``[n, num_actions]``, and answers ``n`` integer actions. Its name in
errors is its ``name`` attribute, else its function or class name.
``rocketgym.TorchAgent(module)`` makes a PyTorch policy such an agent.

Errors (``rocketgym.Error``, naming the opponent): an unknown spec, a bot of
another game or player count, the wrong number of opponents; an opponent
answering an out-of-range or illegal action, or a Python agent answering the
wrong shape or dtype. After an opponent fails during ``step``, the games have
stopped mid-turn: ``step`` refuses until ``reset()``. An exception raised by a
Python agent reaches the caller as it was raised, with the same rule.

Seeds: game k of env i starts from ``episode_seed(seed, i, k)`` as in
``rocketgym.VectorEnv``; ``seat="random"`` draws the learner's seat from that
game's seed, and every opponent move draws from the game's seed and the move
number, as in the arena. Env i plays the same games whatever ``num_envs`` and
``num_threads``.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _rocketgym as _core
from . import spaces
from ._common import (ConfigArg, quoted, check_bool, check_illegal_action, check_int, check_num_envs, check_num_players,
                      check_render_mode, check_seed, forfeit_returns, load_game, state_document)
from .vector import _SAME_STEP, _ClosesOnce, _VectorBase, _check_num_threads, _torch_views

try:  # pragma: no cover - depends on the installation
    import gymnasium as _gymnasium

    _EnvBase = _gymnasium.Env
except ImportError:  # pragma: no cover
    _gymnasium = None
    _EnvBase = object

RANDOM_SEAT = "random"


def _agents_module():
    try:
        from . import _agents
    except ImportError as e:  # built without the LibTorch training library
        raise _core.Error("opponents= needs the module built with the training library "
                          "(scripts/build.sh builds it): " + str(e)) from None
    return _agents


def _check_opponents(opponents: Any) -> List[Any]:
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        raise TypeError(f"opponents must be a list of player specs or agents, e.g. opponents=['heuristic'], "
                        f"not {type(opponents).__name__}")
    return list(opponents)


def _check_seat(seat: Any, num_players: int) -> int:
    """The learner's seat for C++: 0 .. num_players - 1, or -1 for ``"random"``."""
    if isinstance(seat, str):
        if seat != RANDOM_SEAT:
            raise _core.Error(f"seat must be a seat number or 'random', got {quoted(seat)}")
        return -1
    seat = check_int(seat, "seat")
    if not 0 <= seat < num_players:
        raise _core.Error(f"seat {seat} is not a seat of a {num_players}-player game "
                          f"(0 to {num_players - 1}, or 'random')")
    return seat


# The zero-copy views, by name: every array the C++ env owns.
_VIEWS = ("observations", "action_masks", "rewards", "terminated", "truncated", "seats", "episode_steps",
          "final_observations", "final_episode_steps", "final_seats", "final_returns", "final_scores")
# The buffers C++ reads back (the masks are checked before each step, the seats say who plays whom, the
# step counts are counted on): torch_views() leaves them out, so that a write cannot change a game.
_READ_BACK = ("action_masks", "seats", "episode_steps")


class OpponentVectorEnv(_ClosesOnce, _VectorBase):
    """``num_envs`` games where the learner plays one seat and ``opponents`` the others (see the module doc),
    a ``gymnasium.vector.VectorEnv`` when gymnasium is installed.

    Like ``rocketgym.VectorEnv``, the arrays are read-only views of C++ buffers, overwritten in place by
    every ``step``/``reset`` (copy what you keep), and auto-reset is Gymnasium's SAME_STEP:

    ========================  ========================  ===========================================
    array                     shape / dtype             meaning
    ========================  ========================  ===========================================
    ``observations``          [N, *obs_shape] float32   the learner's view of env i
    ``action_masks``          [N, num_actions] int8     the learner's legal actions in env i
    ``rewards``               [N] float32               the learner's return where its game ended
    ``terminated``            [N] bool                  env i's game ended on this step
    ``truncated``             [N] bool                  env i's game hit the decision limit
    ``seats``                 [N] int32                 the learner's seat in env i's current game
    ``episode_steps``         [N] int32                 the learner's decisions in env i's game
    ``final_observations``    [N, *obs_shape] float32   the learner's view of the game that ended
    ``final_episode_steps``   [N] int32                 the learner's decisions in that game
    ``final_seats``           [N] int32                 the learner's seat in that game
    ``final_returns``         [N, P] float32            every seat's return in that game
    ``final_scores``          [N, P] int32              every seat's score (points) in that game
    ========================  ========================  ===========================================

    The ``final_*`` rows are valid where ``terminated | truncated``. ``observation_space`` and
    ``action_space`` are the batched spaces (``single_*`` one env's), as for ``rocketgym.VectorEnv``.

    ``pickle`` / ``copy.deepcopy`` copy the game, the seeds, the opponents (spec strings as they are,
    Python agents and ``rocketgym.TorchAgent`` by value, ``load_agent`` objects loaded again) and every
    env's state, its place in its seed sequence, its move counts and its random-action stream: the copy
    steps on exactly as the original. The outcome of the last step is not copied; a closed env, or one
    stopped mid-turn (an opponent's failure, Ctrl-C), cannot be pickled.
    """

    metadata = {"autoreset_mode": _SAME_STEP, "render_modes": ["ansi"]}
    _VIEWS = _VIEWS

    def __init__(self, game_id: str, num_envs: int, opponents: Sequence[Any], seat: Any = 0,
                 num_players: int = 2, num_threads: int = 1, seed: Optional[int] = None,
                 config: ConfigArg = None, render_mode: Optional[str] = None, _auto_reset: bool = True):
        game = load_game(game_id, config)
        num_players = check_num_players(game, num_players)
        opponents = _check_opponents(opponents)
        seat_arg = _check_seat(seat, num_players)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._seed = check_seed(seed)
        self._resets = 0
        self._open(game, check_num_envs(num_envs), num_players, opponents, seat_arg,
                   _check_num_threads(num_threads), self._seed, _auto_reset, True)

    def _open(self, game: _core.Game, num_envs: int, num_players: int, opponents: List[Any], seat_arg: int,
              num_threads: int, cpp_seed: int, auto_reset: bool, start: bool) -> None:
        """Makes the C++ env (its games started from ``cpp_seed`` when ``start``) and what derives from it."""
        agents = _agents_module()
        self.game = game
        self.game_info = game.info
        self.num_players = num_players
        self.seat = RANDOM_SEAT if seat_arg < 0 else seat_arg
        self._opponent_args = list(opponents)  # as given: what a copy is made from
        self._auto_reset = auto_reset
        self._env = agents.OpponentVectorEnv(game, num_envs, num_players, opponents, seat_arg, cpp_seed,
                                             num_threads, auto_reset, start)
        self.opponents: List[str] = list(self._env.opponent_names)
        self.num_envs = self._env.num_envs
        self.num_actions = self._env.num_actions
        self.observation_shape = tuple(self._env.observation_shape)
        self.single_observation_space = spaces.observation_space(self.observation_shape, self.num_actions)
        self.single_action_space = spaces.discrete(self.num_actions)
        self.observation_space = spaces.batched_observation_space(self.observation_shape, self.num_actions,
                                                                  self.num_envs)
        self.action_space = spaces.batched_discrete(self.num_actions, self.num_envs)
        for name in _VIEWS:
            setattr(self, name, getattr(self._env, name))  # zero-copy views, made once
        finished = self._env.finished
        info = {"seat": self.seats, "episode_steps": self.episode_steps,
                "final_obs": self.final_observations, "_final_obs": finished,
                "final_info": {"seat": self.final_seats, "_seat": finished,
                               "returns": self.final_returns, "_returns": finished,
                               "scores": self.final_scores, "_scores": finished,
                               "episode_steps": self.final_episode_steps, "_episode_steps": finished}}
        self._outcome = ({"observation": self.observations, "action_mask": self.action_masks}, self.rewards,
                         self.terminated, self.truncated, info)

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        """Restarts every env (the same seed sequence as ``rocketgym.VectorEnv``); returns ``(obs, info)``."""
        if state_document(options) is not None:
            raise ValueError("OpponentVectorEnv.reset cannot start from a given state")
        if seed is not None:
            self._seed = check_seed(seed)
            self._resets = 0
            episode_seed = self._seed
        else:
            self._resets += 1
            episode_seed = _core.derive_seed(self._seed, self._resets)
        self._env.reset(episode_seed)
        obs, _, _, _, info = self._outcome_now()
        return obs, info

    def step(self, actions) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """The learner's action per env (integers, shape ``(num_envs,)``), then the opponents' moves.

        Returns ``(obs, rewards [N], terminated [N], truncated [N], info)``, shared arrays (``info`` is a
        new dict of them, so that wrappers may add keys); ``info`` holds ``seat``, ``episode_steps``,
        ``final_obs`` / ``_final_obs`` and ``final_info`` (``seat``, ``returns``, ``scores``,
        ``episode_steps``). Raises TypeError / ValueError / IllegalAction naming the env before anything
        is stepped.
        """
        self._env.step(actions)
        return self._outcome_now()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal learner action per env (int32), from each env's own stream."""
        return self._env.sample_actions()

    @property
    def decisions_played(self) -> int:
        """Every seat's decisions played in all the envs since the env was made: the learner's and the
        opponents' (a step plays one learner decision per env and the opponents' that follow)."""
        return self._env.decisions_played

    def state(self, env: int) -> _core.State:
        """A copy of env ``env``'s current game state."""
        state = self._env.state(check_int(env, "env"))
        state._game = self.game  # so that it pickles with this env's configuration
        return state

    def render(self) -> Optional[Tuple[str, ...]]:
        """With ``render_mode="ansi"``: each env's board as the learner may see it (a tuple of texts, as
        Gymnasium's vector envs return one frame per env); None otherwise."""
        if self.closed:
            raise _core.Error("this OpponentVectorEnv is closed")
        if self.render_mode != "ansi":
            return None
        return tuple(self._env.state(i).observation_string(int(self.seats[i])) for i in range(self.num_envs))

    def torch_views(self) -> Dict[str, Any]:
        """PyTorch tensors sharing the C++ buffers that C++ only writes, by the names of the arrays:
        ``observations``, ``rewards``, ``terminated``, ``truncated``, ``final_observations``,
        ``final_episode_steps``, ``final_seats``, ``final_returns``, ``final_scores``; zero copy, no
        warning, overwritten in place by ``step``/``reset`` (as for ``rocketgym.VectorEnv``). Not there:
        ``action_masks``, ``seats`` and ``episode_steps``, which C++ reads back (they stay read-only numpy
        arrays; copy them for torch)."""
        return _torch_views(self, _VIEWS, _READ_BACK)

    @property
    def num_threads(self) -> int:
        """The C++ threads that step the envs and play the opponents (settable, 1 to ``max_threads()``)."""
        return self._env.num_threads

    @num_threads.setter
    def num_threads(self, n: int) -> None:
        self._env.num_threads = _check_num_threads(n)

    def close(self) -> None:
        """Lets the C++ envs and the opponents go: every later call raises ``rocketgym.Error`` (arrays
        kept stay valid). Calling it again does nothing."""
        if not self.closed:
            self._let_go()

    def __getstate__(self) -> Dict[str, Any]:
        if self.closed:
            raise TypeError("a closed OpponentVectorEnv cannot be pickled")
        if self._env.broken:
            raise TypeError("this OpponentVectorEnv stopped mid-turn (an opponent failed, or Ctrl-C): "
                            "reset() it before pickling")
        envs = [(self._env.state(i).to_json(),) + tuple(self._env._slot(i)) for i in range(self.num_envs)]
        return {"game": self.game, "num_envs": self.num_envs, "num_players": self.num_players,
                "opponents": self._opponent_args, "seat": self.seat, "num_threads": self.num_threads,
                "seed": self._seed, "resets": self._resets, "cpp_seed": self._env._seed,
                "auto_reset": self._auto_reset, "render_mode": self.render_mode, "envs": envs,
                "spec": getattr(self, "spec", None), "np_random": getattr(self, "_np_random", None)}

    def __setstate__(self, saved: Dict[str, Any]) -> None:
        self._seed, self._resets = saved["seed"], saved["resets"]
        self.render_mode = saved["render_mode"]
        seat_arg = -1 if saved["seat"] == RANDOM_SEAT else saved["seat"]
        # No game is started (no opponent is asked): every env is put back as it was.
        self._open(saved["game"], saved["num_envs"], saved["num_players"], saved["opponents"], seat_arg,
                   saved["num_threads"], saved["cpp_seed"], saved["auto_reset"], False)
        for i, (document, *slot) in enumerate(saved["envs"]):
            self._env._restore(saved["cpp_seed"], i, self.game.state_from_json(document), *slot)
        if saved["spec"] is not None:
            self.spec = saved["spec"]
        if saved["np_random"] is not None:
            self._np_random = saved["np_random"]

    def __repr__(self) -> str:
        if self.closed:
            return f"<rocketgym.OpponentVectorEnv {self.game_info.id} num_envs={self.num_envs} closed>"
        return (f"<rocketgym.OpponentVectorEnv {self.game_info.id} num_envs={self.num_envs} "
                f"players={self.num_players} seat={self.seat} opponents={self.opponents}>")


class OpponentEnv(_EnvBase):
    """One game against bots behind the Gymnasium ``Env`` API (see the module doc).

    No auto-reset: once the game is over, ``step`` raises ``IllegalAction`` until ``reset()``.
    ``info`` holds ``seat`` (the learner's), ``current_player`` (the learner's seat while the game
    goes on, -1 once it is over), ``rewards`` (every seat's, float32 [P], non-zero only at the end)
    and ``scores`` (every seat's points).

    ``illegal_action="lose"`` (the default here: a single-agent env, which code sampling
    ``action_space`` without the mask, such as Gymnasium's ``check_env``, must be able to step)
    makes the learner lose at once (reward -1, ``terminated``, ``info["illegal_action"]``);
    ``"raise"`` raises ``IllegalAction`` and changes nothing.

    ``render()``: the board as the learner may see it (``render_mode="ansi"`` returns it, ``"human"``
    prints it on every reset and step); ``get_state().to_string()`` shows everything.
    ``pickle`` / ``copy.deepcopy`` copy the env with its game, its opponents and its seeds: the copy
    plays on exactly as the original (see ``OpponentVectorEnv``).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game_id: str, opponents: Sequence[Any], seat: Any = 0, num_players: int = 2,
                 seed: Optional[int] = None, config: ConfigArg = None, render_mode: Optional[str] = None,
                 illegal_action: str = "lose"):
        self.illegal_action = check_illegal_action(illegal_action)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._base_seed = check_seed(seed)
        self._vec = OpponentVectorEnv(game_id, 1, opponents, seat=seat, num_players=num_players, seed=0,
                                      config=config, _auto_reset=False)
        self.game = self._vec.game
        self.game_info = self._vec.game_info
        self.num_players = self._vec.num_players
        self.num_actions = self._vec.num_actions
        self.opponents = self._vec.opponents
        self.observation_shape = self._vec.observation_shape
        self.observation_space = spaces.observation_space(self.observation_shape, self.num_actions)
        self.action_space = spaces.discrete(self.num_actions)
        self._episode = 0
        self._started = False
        self._over = False
        self._forfeit: Optional[Dict[str, int]] = None

    @property
    def seat(self) -> int:
        """The learner's seat in the current game."""
        return int(self._vec.seats[0] if not self._over else self._vec.final_seats[0])

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        """Starts a new game and plays the opponents until the learner is to move; returns ``(obs, info)``.
        Game k after ``reset(seed=s)`` is the first game of a vector env seeded ``derive_seed(s, k)``."""
        if state_document(options) is not None:
            raise ValueError("an env with opponents cannot start from a given state; use rocketgym.make "
                             "without opponents for that")
        if seed is not None:
            self._base_seed = check_seed(seed)
            self._episode = 0
        if _gymnasium is not None:  # pragma: no cover - seeds self.np_random
            super().reset(seed=seed)
        self._vec.reset(_core.derive_seed(self._base_seed, self._episode))
        self._episode += 1
        self._started, self._over, self._forfeit = True, False, None
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info(np.zeros(self.num_players, dtype=np.float32))

    def step(self, action) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        """The learner's move, then the opponents' until the learner is to move or the game ends:
        ``(obs, reward, terminated, truncated, info)``, the learner's only. Stepping after the end
        raises ``IllegalAction`` (call ``reset()``)."""
        if not self._started:
            raise _core.Error("call reset() before using the env")
        if self._over:
            raise _core.IllegalAction("the game is over: call reset() before stepping again")
        action = self._checked_action(action)
        if action is None:  # illegal, illegal_action="lose"
            return self._lose_by_illegal_action()
        self._vec.step(np.array([action], dtype=np.int32))
        vec = self._vec
        self._over = bool(vec.terminated[0] or vec.truncated[0])
        rewards = vec.final_returns[0].copy() if self._over else np.zeros(self.num_players, dtype=np.float32)
        if self.render_mode == "human":
            self.render()
        return (self._observation(), float(vec.rewards[0]), bool(vec.terminated[0]), bool(vec.truncated[0]),
                self._info(rewards))

    def _checked_action(self, action) -> Optional[int]:
        """``action`` as an int when legal; None when illegal under ``illegal_action="lose"``."""
        if isinstance(action, (bool, np.bool_)) or not hasattr(action, "__index__"):
            raise TypeError(f"an action must be an integer, not {type(action).__name__}")
        action = int(action.__index__())
        if 0 <= action < self.num_actions and self._vec.action_masks[0, action]:
            return action
        if self.illegal_action == "lose":
            self._forfeit = {"player": self.seat, "action": action}
            return None
        if not 0 <= action < self.num_actions:
            raise _core.IllegalAction(f"action {action} out of range [0, {self.num_actions - 1}]")
        raise _core.IllegalAction(f"action {action} ('{self._vec.state(0).action_to_string(action)}') "
                                  "is not legal")

    def _lose_by_illegal_action(self):
        self._over = True
        rewards = forfeit_returns(self.num_players, self._forfeit["player"])
        if self.render_mode == "human":
            self.render()
        return (self._observation(), float(rewards[self._forfeit["player"]]), True, False, self._info(rewards))

    def render(self) -> Optional[str]:
        """The board as the learner may see it (other seats' hidden cards left out); printed when
        ``render_mode == "human"``, returned otherwise."""
        text = self._vec.state(0).observation_string(self.seat) if self._started else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Ends the episode; ``reset()`` starts a new one."""
        self._started = False

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool array (the method sb3-contrib's MaskablePPO calls)."""
        return self._mask().astype(bool)

    def get_state(self) -> _core.State:
        """A copy of the game state (the final position once the game is over)."""
        return self._vec.state(0)

    def observation_string(self) -> str:
        """The board as the learner may see it."""
        return self._vec.state(0).observation_string(self.seat)

    # -- helpers ----------------------------------------------------------------------------------

    def _mask(self) -> np.ndarray:
        if self._forfeit is not None:
            return np.zeros(self.num_actions, dtype=np.int8)
        return self._vec.action_masks[0].copy()  # all zeros once the game is over

    def _observation(self) -> Dict[str, np.ndarray]:
        return {"observation": self._vec.observations[0].copy(), "action_mask": self._mask()}

    def _info(self, rewards: np.ndarray) -> Dict[str, Any]:
        state = self._vec._env.state(0)  # for its scores only: no Game attached
        info = {"seat": self.seat, "current_player": -1 if self._over else self.seat, "rewards": rewards,
                "scores": np.asarray(state.scores(), dtype=np.int32)}
        if self._forfeit is not None:
            info["illegal_action"] = dict(self._forfeit)
        return info

    def __repr__(self) -> str:
        return (f"<rocketgym.OpponentEnv {self.game_info.id} players={self.num_players} "
                f"seat={self._vec.seat} opponents={self.opponents}>")


def _uniforms(seeds: np.ndarray, salt: int) -> np.ndarray:
    """One uniform float64 in [0, 1) per uint64 seed, mixed with ``salt`` (splitmix64's finalizer): a
    row's draw depends on its seed only, not on the batch it came in."""
    with np.errstate(over="ignore"):
        x = np.asarray(seeds, dtype=np.uint64) ^ np.uint64(salt)
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x = x ^ (x >> np.uint64(31))
    return (x >> np.uint64(11)).astype(np.float64) * 2.0**-53


class TorchAgent:
    """A PyTorch policy as a rocketgym agent: ``module(observations) -> logits [B, num_actions]``, or a
    tuple whose first item is the logits (a policy-value net's ``(logits, value)``).

    ``act(observations, action_masks, seeds=None)`` runs one forward pass without gradients, masks the
    illegal actions and takes the most probable one (``greedy=True``) or draws from the masked softmax
    (``greedy=False``). Each row draws from its own seed: the arena and the opponent envs pass
    ``seeds`` (one per decision, from the game's seed and the move number), so a sampling agent plays
    the same games whatever ``parallel``, ``num_envs`` or the thread count; ``seed`` is mixed into
    every draw (another seed, other draws). Called without ``seeds``, the rows draw from a stream
    seeded by ``seed``. (The draw is the row's own; the logits are the module's, and torch's CPU matrix
    products may round a row's last bits differently in another batch size: a move can then differ
    only where a draw falls within that rounding of the boundary between two actions.) Observations go to torch without a copy when they are float32 and
    C-contiguous (the vector envs' read-only views included: the module only reads them).

    Use it as an opponent, in the arena, or directly::

        agent = rg.TorchAgent(policy)              # policy: a torch.nn.Module
        env = rg.make("last_blast", opponents=[agent])

    ``pickle`` / ``copy.deepcopy`` copy the module by value (its parameters and buffers) with the
    seed and the draw stream: the copy answers as the original would.
    """

    def __init__(self, module, device: str = "cpu", greedy: bool = True, seed: Optional[int] = None,
                 name: Optional[str] = None):
        import torch

        self.module = module
        self.device = torch.device(device)
        self.greedy = check_bool(greedy, "greedy")
        self.name = name or type(module).__name__
        self.seed = check_seed(seed)
        self._rng = np.random.default_rng(self.seed)  # the rows' seeds when act() gets none

    def act(self, observations, action_masks, seeds=None) -> np.ndarray:
        """One action per row (int64 [B]) for float32 observations [B, ...] and masks [B, num_actions];
        ``seeds`` (uint64 [B]): each row's draw (sampling only)."""
        import torch

        legal = np.asarray(action_masks) != 0
        array = np.asarray(observations)
        if array.dtype != np.float32 or not array.flags.c_contiguous:
            array = np.ascontiguousarray(array, dtype=np.float32)
        with warnings.catch_warnings():
            # A read-only view (the vector envs'): the module reads it, never writes it.
            warnings.filterwarnings("ignore", message=".*not writable.*", category=UserWarning)
            obs = torch.from_numpy(array)
        with torch.no_grad():
            out = self.module(obs.to(self.device))
        logits = out[0] if isinstance(out, (tuple, list)) else out
        if not isinstance(logits, torch.Tensor) or tuple(logits.shape) != legal.shape:
            got = tuple(logits.shape) if isinstance(logits, torch.Tensor) else type(logits).__name__
            raise _core.Error(f"agent '{self.name}': the module returned logits of shape {got}, expected "
                              f"{legal.shape} (batch, num_actions), or a tuple (logits, ...)")
        if legal.shape[0] and not legal.any(axis=1).all():
            raise _core.Error(f"agent '{self.name}': row {int(np.flatnonzero(~legal.any(axis=1))[0])} "
                              "has no legal action")
        masked = np.where(legal, logits.detach().to("cpu", torch.float64).numpy(), -np.inf)
        if self.greedy:
            return masked.argmax(axis=1)
        if seeds is None:
            seeds = self._rng.integers(0, 2**64, size=legal.shape[0], dtype=np.uint64)
        seeds = np.asarray(seeds, dtype=np.uint64)
        if seeds.shape != (legal.shape[0],):
            raise _core.Error(f"agent '{self.name}': seeds of shape {seeds.shape} for {legal.shape[0]} rows")
        # The masked softmax's inverse CDF at each row's uniform, row by row in float64 (numpy reduces a
        # row alone, so a row's draw does not depend on the others).
        weights = np.exp(masked - masked.max(axis=1, keepdims=True))
        cumulative = np.cumsum(weights, axis=1)
        targets = _uniforms(seeds, self.seed) * cumulative[:, -1]
        chosen = (cumulative <= targets[:, None]).sum(axis=1)
        last_legal = legal.shape[1] - 1 - np.argmax(legal[:, ::-1], axis=1)
        return np.minimum(chosen, last_legal)  # a rounding at the very top stays on a legal action

    __call__ = act

    def __repr__(self) -> str:
        return f"<rocketgym.TorchAgent {self.name} greedy={self.greedy} device={self.device}>"
