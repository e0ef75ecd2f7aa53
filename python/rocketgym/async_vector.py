"""The async vector env: ``rocketgym.make_vec(game_id, num_envs, batch_size=K, num_threads=T)``.

``num_envs`` games are stepped in C++ by threads that never wait for each other (EnvPool's async mode).
``recv()`` returns the first ``batch_size`` envs that are ready, ``send(actions, env_ids)`` gives them
their actions, and the envs not in the batch go on being stepped meanwhile::

    vec = rg.make_vec("lift_off", num_envs=64, batch_size=16, num_threads=2, seed=0)
    obs, info = vec.reset()                      # the first batch: envs 0..15
    for _ in range(100):
        actions = vec.sample_actions()           # or your policy on obs["observation"], obs["action_mask"]
        vec.send(actions, info["env_id"])
        obs, rewards, terminated, truncated, info = vec.recv()

A batch holds, for its ``K`` envs (ids in ``info["env_id"]``), what the sync ``VectorEnv``'s ``step``
holds for all of them, row for row: ``obs = {"observation": [K, *obs_shape], "action_mask": [K,
num_actions]}``, ``rewards`` ``[K, num_players]``, ``terminated`` / ``truncated`` ``[K]``, and ``info``
with ``env_id``, ``current_player``, ``episode_steps``, ``final_obs`` / ``_final_obs`` and ``final_info``
(Gymnasium's SAME_STEP auto-reset, as ``rocketgym.vector``). The arrays are **read-only views of C++
buffers** valid until the next ``recv()`` (copy what you keep). ``step(actions)`` is ``send(actions,
info["env_id"])`` then ``recv()``.

Each env's games depend only on the seed and the actions sent to it: env i's k-th game starts from
``episode_seed(seed, i, k)`` as in the sync env, whichever thread steps it and whenever; only which envs
share a batch depends on timing. After a ``reset`` every env is ready in id order, and with
``batch_size == num_envs`` every batch is every env in id order: the env then runs as the sync
``VectorEnv``, step for step.

``num_threads`` threads step the envs: ``num_threads - 1`` workers, and the caller's thread while it
waits in ``recv()``. Errors (``rocketgym.Error``, ``IllegalAction``, ``TypeError``, ``ValueError``)
name the argument and change nothing: ``send`` before ``recv``, an id out of range, repeated or not
awaiting an action, actions and ids of different lengths, an illegal action; ``recv`` when fewer than
``batch_size`` envs are being stepped or ready (it would wait for ever: send the others first).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _rocketgym as _core
from . import spaces
from ._common import ConfigArg, check_int, check_num_envs
from .vector import _SAME_STEP, _ClosedEnv, _check_num_threads, _open_game, _reset_seed

# The block views cached (per block of the C++ ring); beyond, a recv() makes its views afresh.
_MAX_CACHED_BLOCKS = 1024


class AsyncVectorEnv:
    """``num_envs`` games stepped by threads that never wait for each other; ``recv()`` gives the first
    ``batch_size`` that are ready (see the module doc)."""

    metadata = {"autoreset_mode": _SAME_STEP, "render_modes": ["ansi"]}

    def __init__(self, game_id: str, num_envs: int, batch_size: int, num_players: int = 2, num_threads: int = 1,
                 seed: Optional[int] = None, config: ConfigArg = None, render_mode: Optional[str] = None):
        game, num_players, self.render_mode, self._seed = _open_game(game_id, config, num_players, render_mode,
                                                                     seed, self.metadata["render_modes"])
        self._resets = 0
        num_envs = check_num_envs(num_envs)
        self.game = game
        self.game_info = game.info
        self._env = _core.AsyncVectorEnv(game, num_envs, num_players, self._seed, _check_num_threads(num_threads),
                                         check_int(batch_size, "batch_size"))
        self.num_envs = num_envs
        self.batch_size = self._env.batch_size
        self.num_players = num_players
        self.num_actions = self._env.num_actions
        self.observation_shape = tuple(self._env.observation_shape)
        self.single_observation_space = spaces.observation_space(self.observation_shape, self.num_actions)
        self.single_action_space = spaces.discrete(self.num_actions)
        self._blocks: Dict[int, Tuple[Any, ...]] = {}
        self._batch: Optional[Tuple[Any, ...]] = None

    def _views(self, block: int) -> Tuple[Any, ...]:
        """(obs, rewards, terminated, truncated, info, env_ids) of a block, made once per block."""
        views = self._blocks.get(block)
        if views is None:
            (env_ids, observations, masks, current, rewards, terminated, truncated, steps, final_obs,
             final_steps) = self._env._block_views(block)
            finished = np.zeros(self.batch_size, dtype=bool)
            info = {"env_id": env_ids, "current_player": current, "episode_steps": steps, "final_obs": final_obs,
                    "_final_obs": finished,
                    "final_info": {"episode_steps": final_steps, "_episode_steps": finished}}
            views = ({"observation": observations, "action_mask": masks}, rewards, terminated, truncated, info,
                     env_ids, finished)
            if len(self._blocks) < _MAX_CACHED_BLOCKS:
                self._blocks[block] = views
        return views

    def recv(self) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Waits until ``batch_size`` envs are ready and returns them: ``(obs, rewards [K, P], terminated [K],
        truncated [K], info)``, read-only views valid until the next ``recv()``; ``info["env_id"]`` says
        which env each row is. ``rocketgym.Error`` when fewer than ``batch_size`` envs are being stepped or
        ready (send the actions of the others first)."""
        self._batch = views = self._views(self._env.recv())
        obs, rewards, terminated, truncated, info, _, finished = views
        np.logical_or(terminated, truncated, out=finished)
        return obs, rewards, terminated, truncated, dict(info)

    def send(self, actions, env_ids=None) -> None:
        """``actions[j]`` for env ``env_ids[j]`` (integer arrays of one length; default ids: the last
        batch's). Any subset of the envs awaiting an action, in any order; each is checked first, and
        on an error nothing is sent."""
        if self.closed:  # before the check of a batch, which close() dropped
            raise _core.Error("this AsyncVectorEnv is closed")
        if env_ids is None:
            if self._batch is None:
                raise _core.Error("send before recv: no env awaits an action; reset() or recv() returns the "
                                  "envs whose actions are due")
            env_ids = self._batch[5]
        self._env.send(actions, env_ids)

    def step(self, actions, env_ids=None):
        """``send(actions, env_ids)`` then ``recv()``."""
        self.send(actions, env_ids)
        return self.recv()

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        """Restarts every env (waiting for those being stepped) and returns the first batch, envs
        ``0..batch_size-1``: ``(obs, info)`` as ``recv`` gives them. Without a seed the env's own seed
        sequence goes on, as for ``VectorEnv.reset``."""
        self._env.reset(_reset_seed(self, seed, options))
        obs, _, _, _, info = self.recv()
        return obs, info

    def sample_actions(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """A uniformly random legal action per env of the batch (int32, ``[batch_size]``), drawn in C++
        from each env's own stream (the sync env's)."""
        return self._env.sample_actions(out)

    def heuristic_actions(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The heuristic bot's action per env of the batch (int32)."""
        return self._env.heuristic_actions(out)

    def state(self, env: int) -> _core.State:
        """A copy of env ``env``'s game state, while it awaits an action (``rocketgym.Error`` otherwise:
        a thread may be stepping it)."""
        state = self._env.state(check_int(env, "env"))
        state._game = self.game
        return state

    def render(self) -> Optional[Tuple[str, ...]]:
        """With ``render_mode="ansi"``: the boards of the batch's envs as text, one per row."""
        if self.closed:
            raise _core.Error("this AsyncVectorEnv is closed")
        if self.render_mode != "ansi" or self._batch is None:
            return None
        return tuple(self._env.state(int(i)).to_string() for i in self._batch[5])

    @property
    def num_threads(self) -> int:
        """The threads that step the envs (the caller's, in ``recv``, among them); fixed at creation."""
        return self._env.num_threads

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return isinstance(self._env, _ClosedEnv)

    def close(self) -> None:
        """Ends the worker threads; every later call raises ``rocketgym.Error``. Arrays you kept stay
        valid. Calling it again does nothing."""
        if self.closed:
            return
        self._env.shutdown()
        self._env = _ClosedEnv("AsyncVectorEnv")
        self._blocks = {}
        self._batch = None

    def __getstate__(self):
        raise TypeError("an AsyncVectorEnv cannot be pickled (its envs are being stepped); pickle a VectorEnv")

    def __enter__(self) -> "AsyncVectorEnv":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"players={self.num_players} threads={self.num_threads}"
        return (f"<rocketgym.AsyncVectorEnv {self.game_info.id} num_envs={self.num_envs} "
                f"batch_size={self.batch_size} {state}>")
