"""Batched environments: ``rocketgym.make_vec(game_id, num_envs, ...)``.

N games run in C++ and are stepped together (OpenMP over ``num_threads``)
with the GIL released. The arrays this class returns are **read-only views
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
========================  ========================  ===========================================

Auto-reset: when env i's game ends, ``step`` reports its final ``rewards``
and ``terminated``/``truncated`` once, and its observation, mask and current
player already belong to the next game. Env i's k-th game starts from
``episode_seed(seed, i, k)`` (see envs/core/vector_env.h), whatever the
number of threads.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _rocketgym as _core
from . import spaces
from ._common import ConfigArg, check_int, check_num_players, check_seed, load_game


class VectorEnv:
    """``num_envs`` games of one game stepped together in C++."""

    def __init__(self, game_id: str, num_envs: int, num_players: int = 2, num_threads: int = 1,
                 seed: Optional[int] = None, config: ConfigArg = None):
        self.game = load_game(game_id, config)
        self.game_info = self.game.info
        num_players = check_num_players(self.game, num_players)
        self._seed = check_seed(seed)
        self._resets = 0
        self._env = _core.VectorEnv(self.game, check_int(num_envs, "num_envs"), num_players, self._seed,
                                    check_int(num_threads, "num_threads"))
        self.num_envs = self._env.num_envs
        self.num_players = num_players
        self.num_actions = self._env.num_actions
        self.observation_shape = tuple(self._env.observation_shape)
        self.single_observation_space = spaces.observation_space(self.observation_shape, self.num_actions)
        self.single_action_space = spaces.discrete(self.num_actions)
        # The zero-copy views, made once: each keeps the C++ env alive.
        self.observations = self._env.observations
        self.action_masks = self._env.action_masks
        self.current_players = self._env.current_players
        self.rewards = self._env.rewards
        self.terminated = self._env.terminated
        self.truncated = self._env.truncated
        self.episode_steps = self._env.episode_steps
        self._obs = {"observation": self.observations, "action_mask": self.action_masks}
        self._info = {"current_player": self.current_players, "episode_steps": self.episode_steps}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        """Restarts every env; without a seed, continues the env's own seed sequence.

        Returns ``(obs, info)``: ``obs = {"observation", "action_mask"}``,
        ``info = {"current_player", "episode_steps"}`` (shared arrays).
        """
        if options:
            raise ValueError("VectorEnv.reset takes no options")
        if seed is not None:
            self._seed = check_seed(seed)
            self._resets = 0
            episode_seed = self._seed
        else:
            self._resets += 1
            episode_seed = _core.derive_seed(self._seed, self._resets)
        self._env.reset(episode_seed)
        return self._obs, self._info

    def step(self, actions) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Steps every env with ``actions`` (integers, shape ``(num_envs,)``; int32 is used as is).

        Returns ``(obs, rewards [N, P], terminated [N], truncated [N], info)``, all
        shared arrays. Raises TypeError (not integers), ValueError (wrong shape)
        or IllegalAction naming the env (nothing is stepped then).
        """
        self._env.step(actions)
        return self._obs, self.rewards, self.terminated, self.truncated, self._info

    def sample_actions(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """A uniformly random legal action per env (int32), drawn in C++."""
        return self._env.sample_actions(out)

    def heuristic_actions(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The heuristic bot's action per env (int32)."""
        return self._env.heuristic_actions(out)

    def state(self, env: int) -> _core.State:
        """A copy of env ``env``'s current game state."""
        return self._env.state(check_int(env, "env"))

    @property
    def num_threads(self) -> int:
        return self._env.num_threads

    @num_threads.setter
    def num_threads(self, n: int) -> None:
        self._env.num_threads = check_int(n, "num_threads")

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return (f"<rocketgym.VectorEnv {self.game_info.id} num_envs={self.num_envs} "
                f"players={self.num_players} threads={self.num_threads}>")
