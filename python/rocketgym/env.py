"""Gymnasium-style single environment: ``rocketgym.make(game_id, ...)``.

One object plays a whole game for every seat in turn (the seat to move is
``info["current_player"]``). Conventions:

* ``reset(seed=None, options=None) -> (obs, info)``;
  ``step(action) -> (obs, reward, terminated, truncated, info)``.
* ``obs = {"observation": float32 array of the encoder's shape,
  "action_mask": int8 array [num_actions]}``, seen by the player to move (by
  the player who made the last move once the game is over; the mask is then
  all zeros).
* ``reward`` is the reward of the seat that just acted; ``info["rewards"]``
  holds every seat's (float32 [num_players]), non-zero only on the final step
  (see DESIGN.md section 5). ``info["scores"]`` holds the game's own points.
* ``terminated`` when the game ended by its rules, ``truncated`` when it hit
  the decision limit (every reward is then 0).
* Stepping an out-of-range or illegal action raises ``IllegalAction`` and
  leaves the game unchanged; stepping after the end raises ``IllegalAction``
  too (call ``reset()``).

Seeds: episode k after ``reset(seed=s)`` starts from ``derive_seed(s, k)``, so
the same seed replays the same games.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _rocketgym as _core
from . import spaces
from ._common import ConfigArg, check_num_players, check_render_mode, check_seed, load_game

try:  # pragma: no cover - depends on the installation
    import gymnasium as _gymnasium

    _EnvBase = _gymnasium.Env
except ImportError:  # pragma: no cover
    _gymnasium = None
    _EnvBase = object


class RocketEnv(_EnvBase):
    """A rocketgym game behind the Gymnasium ``Env`` API (a subclass of it when gymnasium is installed)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game_id: str, num_players: int = 2, seed: Optional[int] = None,
                 config: ConfigArg = None, render_mode: Optional[str] = None):
        self.game = load_game(game_id, config)
        self.game_info = self.game.info
        self.num_players = check_num_players(self.game, num_players)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.num_actions = self.game_info.num_actions
        self.observation_shape = tuple(self.game.observation_shape(self.num_players))
        self.observation_space = spaces.observation_space(self.observation_shape, self.num_actions)
        self.action_space = spaces.discrete(self.num_actions)
        self._base_seed = check_seed(seed)
        self._episode = 0
        self._state: Optional[_core.State] = None
        self._viewer = 0  # whose view obs shows: the player to move, else the last mover

    # -- Gymnasium API ----------------------------------------------------------------------------

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        """Starts a new game. ``options={"state": json}`` starts from a given position instead."""
        if seed is not None:
            self._base_seed = check_seed(seed)
            self._episode = 0
        if _gymnasium is not None:  # pragma: no cover - seeds self.np_random
            super().reset(seed=seed)
        options = dict(options or {})
        document = options.pop("state", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; the only option is 'state'")
        if document is not None:
            self.set_state(document)
        else:
            episode_seed = _core.derive_seed(self._base_seed, self._episode)
            self._state = self.game.new_state(self.num_players, episode_seed)
            self._viewer = self._state.current_player
        self._episode += 1
        return self._observation(), self._info()

    def step(self, action) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        state = self._require_state()
        if state.is_terminal():
            raise _core.IllegalAction("the game is over: call reset() before stepping again")
        actor = state.current_player
        state.apply(action)  # raises before changing anything
        if state.is_terminal():
            self._viewer = actor
        else:
            self._viewer = state.current_player
        rewards = state.returns()
        truncated = state.is_truncated()
        terminated = state.is_terminal() and not truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(rewards[actor]), terminated, truncated, self._info(rewards)

    def render(self) -> Optional[str]:
        """The board as text; printed when ``render_mode == "human"``, returned otherwise."""
        text = "" if self._state is None else self._state.to_string()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._state = None

    # -- For search and analysis ------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to move, -1 when the game is over."""
        return self._require_state().current_player

    def legal_actions(self) -> List[int]:
        return self._require_state().legal_actions()

    def action_masks(self) -> np.ndarray:
        """Legal actions as a bool array (the method sb3-contrib's MaskablePPO calls)."""
        return self._require_state().legal_actions_mask().astype(bool)

    def action_to_string(self, action: int) -> str:
        return self._require_state().action_to_string(action)

    def get_state(self) -> _core.State:
        """A copy of the current game state (apply/clone/to_json it freely)."""
        return self._require_state().clone()

    def set_state(self, state) -> None:
        """Continues from a ``State`` (copied) or a JSON document (str or dict) of this game."""
        if isinstance(state, _core.State):
            state = state.clone()
        else:
            state = self.game.state_from_json(state)
        if state.num_players != self.num_players:
            raise _core.Error(f"the state has {state.num_players} players, this env {self.num_players}")
        self._state = state
        self._viewer = state.current_player if not state.is_terminal() else 0

    def to_json(self) -> str:
        return self._require_state().to_json()

    def clone(self) -> "RocketEnv":
        """An independent env at the same position (shares the immutable game config)."""
        twin = copy.copy(self)
        if self._state is not None:
            twin._state = self._state.clone()
        return twin

    # -- helpers ----------------------------------------------------------------------------------

    def _require_state(self) -> _core.State:
        if self._state is None:
            raise _core.Error("call reset() before using the env")
        return self._state

    def _observation(self) -> Dict[str, np.ndarray]:
        state = self._state
        return {
            "observation": state.observation(self._viewer),
            "action_mask": state.legal_actions_mask(),
        }

    def _info(self, rewards: Optional[np.ndarray] = None) -> Dict[str, Any]:
        state = self._state
        return {
            "current_player": state.current_player,
            "rewards": state.returns() if rewards is None else rewards,
            "scores": state.scores(),
        }

    def __repr__(self) -> str:
        return f"<RocketEnv {self.game_info.id} players={self.num_players}>"
