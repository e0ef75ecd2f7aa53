"""Batched environments: ``rocketgym.make_vec(game_id, num_envs, ...)``.

N games run in C++ and are stepped together (on ``num_threads`` threads, the
caller's among them, each taking its share of the envs and then what is left of
the others', so that no thread waits for a descheduled one: envs/core/worker_pool.h)
with the GIL released. ``make_vec(..., batch_size=K)`` gives the async form
(``rocketgym.async_vector``). The arrays this class returns are **read-only views
of C++ buffers**: ``step()`` and ``reset()`` overwrite them in place and
return the very same objects, so nothing is copied per step. Copy what you
want to keep (``arr.copy()``).

========================  ========================  ===========================================
array                     shape / dtype             meaning
========================  ========================  ===========================================
``observations``          [N, *obs_shape] float32   env i seen by its player to move
``action_masks``          [N, num_actions] int8     legal actions of env i
``current_players``       [N] int32                 seat to move in env i
``rewards``               [N, num_players] float32  per seat, non-zero only on a final step
``terminated``            [N] bool                  env i's game ended on this step
``truncated``             [N] bool                  env i's game hit the decision limit
``episode_steps``         [N] int32                 decisions so far in env i's current game
``final_observations``    [N, P, *obs_shape] f32   seat p's view of env i's game that just ended
``final_episode_steps``   [N] int32                 decisions in env i's game that just ended
========================  ========================  ===========================================

Auto-reset follows Gymnasium 1.x's ``AutoresetMode.SAME_STEP``
(``vec.metadata["autoreset_mode"]``): when env i's game ends, ``step``
reports its final ``rewards`` and ``terminated``/``truncated`` once, and its
observation, mask and current player already belong to the next game. The
finished game's last observation is in ``info["final_obs"]``
(= ``final_observations``, rows valid where ``info["_final_obs"]``, i.e.
``terminated | truncated``) and ``info["final_info"]["episode_steps"]``, so a
learner can bootstrap from it (for a truncated game, the value of the final
position). Unlike Gymnasium's single-agent ``final_obs`` it holds every seat's
view, because every seat gets a reward on the final step.

Why SAME_STEP rather than Gymnasium's default NEXT_STEP: with NEXT_STEP the
step after a game ends would only restart it, taking (and ignoring) an action
for that env; every env would then waste a step per game and callers would
have to send dummy actions. With SAME_STEP every ``step`` is one decision in
every env, and the C++ side writes the final views into buffers allocated
once (no allocation per step).

Env i's k-th game starts from ``episode_seed(seed, i, k)`` (see
envs/core/vector_env.h), whatever the number of threads.

With gymnasium importable the class subclasses ``gymnasium.vector.VectorEnv``:
``observation_space`` / ``action_space`` are the batched spaces (a ``Dict`` of
``[N, *obs_shape]`` and ``[N, num_actions]`` boxes; ``MultiDiscrete([num_actions]
* N)``), ``single_observation_space`` / ``single_action_space`` one env's.

PyTorch: ``torch.from_numpy`` warns on the read-only views (torch has no
read-only tensors). ``vec.torch_views()`` gives, once, tensors that share the
C++ buffers that C++ only writes (observations, rewards, terminated,
truncated, current players, final observations and lengths), without the
warning: a write into them changes what you read until the next step, never a
game. The two buffers that C++ reads back, ``action_masks`` (checked before
every step) and ``episode_steps`` (counted on), stay read-only: copy them
(``torch.from_numpy(vec.action_masks.copy())``, or ``.to(device)``, which copies).

``pickle`` / ``copy.deepcopy`` copy the game, the seed and, for every env, its
state (JSON document), which game of its seed sequence it plays, its decisions
so far and its random-action stream: the copy steps on exactly as the original.
The outcome of the last step (``rewards``, ``terminated``, ``final_observations``...)
is not copied (the copy starts with no outcome); a closed env cannot be pickled.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _rocketgym as _core
from . import spaces
from ._common import (ConfigArg, quoted, check_int, check_num_envs, check_num_players, check_render_mode, check_seed,
                      load_game)

try:  # pragma: no cover - depends on the installation
    from gymnasium.vector import AutoresetMode as _AutoresetMode
    from gymnasium.vector import VectorEnv as _VectorBase

    _SAME_STEP: Any = _AutoresetMode.SAME_STEP
except ImportError:  # pragma: no cover
    _SAME_STEP = "SameStep"  # the value of gymnasium.vector.AutoresetMode.SAME_STEP
    _VectorBase = object

# The zero-copy views, by name: every array the C++ env owns.
_VIEWS = ("observations", "action_masks", "current_players", "rewards", "terminated", "truncated",
          "episode_steps", "final_observations", "final_episode_steps")
# The buffers C++ reads back (the masks are checked before each step, the step counts incremented):
# torch_views() leaves them out, so that a write into a tensor cannot change a game.
_READ_BACK = ("action_masks", "episode_steps")


def _check_num_threads(n: Any) -> int:
    """``n`` threads, refused (``rocketgym.Error``) beyond ``max_threads()``, rocketgym's one thread limit."""
    n = check_int(n, "num_threads")
    if not 1 <= n <= _core.max_threads():
        raise _core.Error(f"num_threads must be in [1, {_core.max_threads()}] (rocketgym.max_threads()), "
                          f"got {quoted(n)}")
    return n


def _open_game(game_id: str, config: ConfigArg, num_players: Any, render_mode: Optional[str], seed: Any,
               render_modes) -> Tuple[_core.Game, int, Optional[str], int]:
    """The checks a vector env's constructor starts with, in their order: the game (with its config),
    the player count, the render mode and the seed."""
    game = load_game(game_id, config)
    return game, check_num_players(game, num_players), check_render_mode(render_mode, render_modes), check_seed(seed)


def _reset_seed(env: Any, seed: Optional[int], options: Optional[Dict[str, Any]]) -> int:
    """The C++ seed of a vector env's ``reset(seed, options)``: ``seed`` starts a new sequence; without
    one, the env's sequence goes on (``env._seed``, ``env._resets``)."""
    if options is not None and "state" in options:
        raise ValueError(f"{type(env).__name__}.reset cannot start from a given state; use rocketgym.make for that")
    if seed is not None:
        env._seed = check_seed(seed)
        env._resets = 0
        return env._seed
    env._resets += 1
    return _core.derive_seed(env._seed, env._resets)


def _torch_views(env: Any, names, read_back) -> Dict[str, Any]:
    """torch.from_numpy of each of ``env``'s arrays in ``names`` but ``read_back``, without the warning on
    read-only arrays (torch has no read-only tensors; these buffers may be written: see torch_views)."""
    if env.closed:  # its arrays are gone
        raise _core.Error(f"this {type(env).__name__} is closed")
    import torch  # only when asked: rocketgym does not depend on torch

    views = {}
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*not writable.*", category=UserWarning)
        for name in names:
            if name not in read_back:
                views[name] = torch.from_numpy(getattr(env, name))
    return views


class _ClosedEnv:
    """Stands in for the C++ env after close(): any use raises (and costs the open env nothing).
    ``kind`` names the env in the message ("this AsyncVectorEnv is closed")."""

    def __init__(self, kind: str = "VectorEnv"):
        object.__setattr__(self, "_kind", kind)

    def __getattr__(self, name: str):
        raise _core.Error(f"this {self._kind} is closed")

    def __setattr__(self, name: str, value) -> None:
        raise _core.Error(f"this {self._kind} is closed")


class _ClosesOnce:
    """What VectorEnv and OpponentVectorEnv share about ``close()``: after it, every method and every
    array (the class's ``_VIEWS``) raises ``rocketgym.Error`` ("this VectorEnv is closed"). A call
    running when another thread closes the env finishes (the C++ env lives until it returns, and arrays
    kept stay valid) or raises that same error: ``step``/``reset`` read their outcome
    (``_outcome``, set by ``_open``, dropped by close) in one go after the call, so never a TypeError
    from what close() dropped."""

    _VIEWS: Tuple[str, ...] = ()

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return isinstance(self._env, _ClosedEnv)

    @closed.setter
    def closed(self, value: bool) -> None:
        # gymnasium's VectorEnv.close and its wrappers set `closed`; only closing means anything here.
        if value:
            self.close()

    def _let_go(self) -> None:
        """close()'s work: the C++ env goes first (so that an array read now says why it is gone),
        then the arrays and the outcome."""
        self._env = _ClosedEnv(type(self).__name__)
        self._outcome = None
        for name in self._VIEWS:
            self.__dict__.pop(name, None)

    def _outcome_now(self):
        """``(obs, rewards, terminated, truncated, info)`` after a step or reset (``info`` a new dict)."""
        outcome = self._outcome
        if outcome is None:
            raise _core.Error(f"this {type(self).__name__} is closed")
        obs, rewards, terminated, truncated, info = outcome
        return obs, rewards, terminated, truncated, dict(info)

    def __getattr__(self, name: str):
        # Reached only for what is not set: the arrays after close() say so, not None.
        if name in self._VIEWS and isinstance(self.__dict__.get("_env"), _ClosedEnv):
            raise _core.Error(f"this {type(self).__name__} is closed: {name} went with it")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class VectorEnv(_ClosesOnce, _VectorBase):
    """``num_envs`` games of one game stepped together in C++ (a ``gymnasium.vector.VectorEnv`` when
    gymnasium is installed)."""

    metadata = {"autoreset_mode": _SAME_STEP, "render_modes": ["ansi"]}
    _VIEWS = _VIEWS

    def __init__(self, game_id: str, num_envs: int, num_players: int = 2, num_threads: int = 1,
                 seed: Optional[int] = None, config: ConfigArg = None, render_mode: Optional[str] = None):
        game, num_players, self.render_mode, self._seed = _open_game(game_id, config, num_players, render_mode,
                                                                     seed, self.metadata["render_modes"])
        self._resets = 0
        self._open(game, check_num_envs(num_envs), num_players, _check_num_threads(num_threads), self._seed)

    def _open(self, game: _core.Game, num_envs: int, num_players: int, num_threads: int, cpp_seed: int) -> None:
        """Makes the C++ env (reset with ``cpp_seed``) and everything derived from it."""
        self.game = game
        self.game_info = game.info
        self._env = _core.VectorEnv(game, num_envs, num_players, cpp_seed, num_threads)
        self.num_envs = self._env.num_envs
        self.num_players = num_players
        self.num_actions = self._env.num_actions
        self.observation_shape = tuple(self._env.observation_shape)
        self.single_observation_space = spaces.observation_space(self.observation_shape, self.num_actions)
        self.single_action_space = spaces.discrete(self.num_actions)
        self.observation_space = spaces.batched_observation_space(self.observation_shape, self.num_actions,
                                                                  self.num_envs)
        self.action_space = spaces.batched_discrete(self.num_actions, self.num_envs)
        # The zero-copy views, made once: each keeps the C++ env alive.
        for name in _VIEWS:
            setattr(self, name, getattr(self._env, name))
        finished = self._env.finished  # terminated | truncated, written by step() in C++
        info = {"current_player": self.current_players, "episode_steps": self.episode_steps,
                "final_obs": self.final_observations, "_final_obs": finished,
                "final_info": {"episode_steps": self.final_episode_steps, "_episode_steps": finished}}
        self._outcome = ({"observation": self.observations, "action_mask": self.action_masks}, self.rewards,
                         self.terminated, self.truncated, info)

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        """Restarts every env; without a seed, continues the env's own seed sequence.

        Returns ``(obs, info)``: ``obs = {"observation", "action_mask"}``, ``info`` as for ``step``
        (shared arrays). ``options`` keys are ignored, except ``"state"``, which only the single envs
        take.
        """
        self._env.reset(_reset_seed(self, seed, options))
        obs, _, _, _, info = self._outcome_now()
        return obs, info

    def step(self, actions) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Steps every env with ``actions`` (integers, shape ``(num_envs,)``; int32 is copied as is).

        Returns ``(obs, rewards [N, P], terminated [N], truncated [N], info)``, all shared arrays
        (``info`` is a new dict of them, so that wrappers may add keys); ``info`` holds
        ``current_player``, ``episode_steps`` and, for the envs whose game just ended, ``final_obs`` /
        ``_final_obs`` / ``final_info`` (see the module doc).
        Raises TypeError (not integers), ValueError (wrong shape) or IllegalAction naming the env
        (nothing is stepped then).
        """
        self._env.step(actions)
        return self._outcome_now()

    def sample_actions(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """A uniformly random legal action per env (int32), drawn in C++."""
        return self._env.sample_actions(out)

    def heuristic_actions(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The heuristic bot's action per env (int32)."""
        return self._env.heuristic_actions(out)

    def state(self, env: int) -> _core.State:
        """A copy of env ``env``'s current game state."""
        state = self._env.state(check_int(env, "env"))
        state._game = self.game  # so that it pickles with this env's configuration
        return state

    def torch_views(self) -> Dict[str, Any]:
        """PyTorch tensors sharing the C++ buffers that C++ only writes, by the names of the arrays:
        ``observations``, ``current_players``, ``rewards``, ``terminated``, ``truncated``,
        ``final_observations``, ``final_episode_steps``. Zero copy and no warning; ``step``/``reset``
        overwrite them in place like the arrays. Writing into them changes only what you read back
        until the next step, never a game. ``action_masks`` and ``episode_steps`` are not there: C++
        reads them back, so they stay read-only numpy arrays (copy them for torch)."""
        return _torch_views(self, _VIEWS, _READ_BACK)

    def render(self) -> Optional[Tuple[str, ...]]:
        """With ``render_mode="ansi"``: each env's whole board (this env plays every seat, as
        ``rocketgym.make`` without opponents does) as text, a tuple of one per env, as Gymnasium's vector
        envs return; None otherwise."""
        if self.closed:
            raise _core.Error("this VectorEnv is closed")
        if self.render_mode != "ansi":
            return None
        return tuple(self._env.state(i).to_string() for i in range(self.num_envs))

    @property
    def num_threads(self) -> int:
        """The threads that step the envs, the caller's included (settable, at most ``rocketgym.max_threads()``)."""
        return self._env.num_threads

    @num_threads.setter
    def num_threads(self, n: int) -> None:
        self._env.num_threads = _check_num_threads(n)

    def close(self) -> None:
        """Lets the C++ envs go: every later call raises ``rocketgym.Error``. Their buffers are freed
        once no array returned by this env is referenced any more (arrays kept stay valid). Calling
        it again does nothing."""
        if not self.closed:
            self._let_go()

    def __getstate__(self) -> Dict[str, Any]:
        if self.closed:
            raise TypeError("a closed VectorEnv cannot be pickled")
        envs = []
        for i in range(self.num_envs):
            episode, steps, action_rng = self._env._slot(i)
            envs.append((self._env.state(i).to_json(), episode, steps, action_rng))
        return {"game": self.game, "num_envs": self.num_envs, "num_players": self.num_players,
                "num_threads": self.num_threads, "seed": self._seed, "resets": self._resets,
                "cpp_seed": self._env._seed, "envs": envs, "render_mode": self.render_mode,
                "spec": getattr(self, "spec", None), "np_random": getattr(self, "_np_random", None)}

    def __setstate__(self, saved: Dict[str, Any]) -> None:
        self._seed, self._resets = saved["seed"], saved["resets"]
        self.render_mode = saved.get("render_mode")
        self._open(saved["game"], saved["num_envs"], saved["num_players"], saved["num_threads"], saved["cpp_seed"])
        for i, (document, episode, steps, action_rng) in enumerate(saved["envs"]):
            self._env._restore(i, self.game.state_from_json(document), episode, steps, action_rng)
        if saved["spec"] is not None:
            self.spec = saved["spec"]
        if saved["np_random"] is not None:
            self._np_random = saved["np_random"]

    def __repr__(self) -> str:
        if self.closed:
            return f"<rocketgym.VectorEnv {self.game_info.id} num_envs={self.num_envs} closed>"
        return (f"<rocketgym.VectorEnv {self.game_info.id} num_envs={self.num_envs} "
                f"players={self.num_players} threads={self.num_threads}>")
