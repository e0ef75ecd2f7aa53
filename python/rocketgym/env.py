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
  (rewards are terminal: the reward mode of the game's config, rank, win or
  score, is paid when the game ends). ``info["scores"]`` holds the game's own
  points (int32 [num_players]); the AEC env's info has the same keys.
* ``terminated`` when the game ended by its rules, ``truncated`` when it hit
  the decision limit (every reward is then 0).
* ``illegal_action="raise"`` (the default): stepping an out-of-range or
  illegal action raises ``IllegalAction`` and leaves the game unchanged.
  ``illegal_action="lose"``: the acting seat loses at once instead, as in
  PettingZoo's classic games: the game ends (``terminated``), that seat's
  return is -1 (the lowest of every reward mode) and the others share +1;
  ``info["illegal_action"] = {"player": seat, "action": action}``. The engine
  position stays the one before the illegal action (``get_state()``). This is
  what lets code that samples ``action_space`` without the mask (Gymnasium's
  ``check_env``) run. A non-integer action is a ``TypeError`` in both modes.
* Stepping after the end raises ``IllegalAction`` (call ``reset()``).
* ``reset(options=...)``: ``{"state": json}`` starts from that position;
  any other key is ignored (Gymnasium treats options as free-form).
* ``observation_string(viewer)`` is the board as that seat may see it (hidden
  cards left out; ``render()`` shows everything), ``is_public_action(a)``
  whether the others would see which action ``a`` is.

Seeds: episode k after ``reset(seed=s)`` starts from ``derive_seed(s, k)``, so
the same seed replays the same games.

``pickle`` and ``copy.deepcopy`` copy the env with its game, configuration,
position (through the state's JSON document, RNG included) and seed sequence:
the copy plays on exactly as the original. ``render_mode="human"`` prints the
board on ``reset`` and on every ``step``.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _rocketgym as _core
from . import spaces
from ._common import (ConfigArg, check_illegal_action, check_num_players, check_render_mode, check_seed,
                      forfeit_returns, load_game, load_state, state_document)

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
                 config: ConfigArg = None, render_mode: Optional[str] = None, illegal_action: str = "raise"):
        self.illegal_action = check_illegal_action(illegal_action)
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
        self._forfeit: Optional[Dict[str, int]] = None  # {"player", "action"} after a losing illegal action

    # -- Gymnasium API ----------------------------------------------------------------------------

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        """Starts a new game. ``options={"state": json}`` starts from a given position instead; other
        option keys are ignored."""
        document = state_document(options)
        if seed is not None:
            self._base_seed = check_seed(seed)
            self._episode = 0
        if _gymnasium is not None:  # pragma: no cover - seeds self.np_random
            super().reset(seed=seed)
        if document is not None:
            self.set_state(document)
        else:
            episode_seed = _core.derive_seed(self._base_seed, self._episode)
            self._state = self.game.new_state(self.num_players, episode_seed)
            self._viewer = self._state.current_player
            self._forfeit = None
        self._episode += 1
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        """Plays ``action`` for the seat to move; returns ``(obs, reward, terminated, truncated, info)``
        (the reward of the seat that acted). ``IllegalAction`` for an illegal action (or the acting seat
        loses, with ``illegal_action="lose"``) and after the end of the game."""
        state = self._require_state()
        if self._is_over():
            raise _core.IllegalAction("the game is over: call reset() before stepping again")
        actor = state.current_player
        try:
            state.apply(action)  # raises before changing anything
        except _core.IllegalAction:
            if self.illegal_action == "raise":
                raise
            return self._lose_by_illegal_action(actor, action)
        self._viewer = actor if state.is_terminal() else state.current_player
        rewards = state.returns()
        truncated = state.is_truncated()
        terminated = state.is_terminal() and not truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(rewards[actor]), terminated, truncated, self._info(rewards)

    def _lose_by_illegal_action(self, actor: int, action) -> Tuple[Dict[str, np.ndarray], float, bool, bool,
                                                                    Dict[str, Any]]:
        self._forfeit = {"player": actor, "action": int(action)}
        self._viewer = actor
        rewards = forfeit_returns(self.num_players, actor)
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(rewards[actor]), True, False, self._info(rewards)

    def render(self) -> Optional[str]:
        """The board as text; printed when ``render_mode == "human"``, returned otherwise."""
        text = "" if self._state is None else self._state.to_string()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Drops the current game (``reset()`` starts a new one)."""
        self._state = None

    # -- For search and analysis ------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to move, -1 when the game is over."""
        state = self._require_state()
        return -1 if self._forfeit is not None else state.current_player

    def legal_actions(self) -> List[int]:
        """The legal action ids of the seat to move, ascending (empty once the game is over)."""
        state = self._require_state()
        return [] if self._forfeit is not None else state.legal_actions()

    def action_masks(self) -> np.ndarray:
        """Legal actions as a bool array (the method sb3-contrib's MaskablePPO calls)."""
        return self._action_mask().astype(bool)

    def observation_string(self, viewer: Optional[int] = None) -> str:
        """The board as seat ``viewer`` may see it (default: the seat whose view ``obs`` shows)."""
        state = self._require_state()
        return state.observation_string(self._viewer if viewer is None else viewer)

    def is_public_action(self, action: int) -> bool:
        """Whether the other seats would see which action ``action`` is if the player to move played it."""
        return self._require_state().is_public_action(action)

    def action_to_string(self, action: int) -> str:
        """The action in the rulebook's words, for the current position."""
        return self._require_state().action_to_string(action)

    def get_state(self) -> _core.State:
        """A copy of the current game state (apply/clone/to_json it freely). After a losing illegal
        action it is the position before that action."""
        return self._require_state().clone()

    def set_state(self, state) -> None:
        """Continues from a ``State`` or a JSON document (str or dict) of this game (copied, and checked
        against this env's game, configuration and player count)."""
        self._state = load_state(self.game, state, self.num_players)
        self._viewer = self._state.current_player if not self._state.is_terminal() else 0
        self._forfeit = None

    def to_json(self) -> str:
        """The current position as a JSON document (``set_state`` and ``reset(options={"state": ...})``
        take it back)."""
        return self._require_state().to_json()

    def clone(self) -> "RocketEnv":
        """An independent env at the same position (shares the immutable game config)."""
        twin = copy.copy(self)
        if self._forfeit is not None:
            twin._forfeit = dict(self._forfeit)
        if self._state is not None:
            twin._state = self._state.clone()
        return twin

    # -- helpers ----------------------------------------------------------------------------------

    def _require_state(self) -> _core.State:
        if self._state is None:
            raise _core.Error("call reset() before using the env")
        return self._state

    def _is_over(self) -> bool:
        return self._forfeit is not None or self._state.is_terminal()

    def _action_mask(self) -> np.ndarray:
        state = self._require_state()
        if self._forfeit is not None:
            return np.zeros(self.num_actions, dtype=np.int8)
        return state.legal_actions_mask()

    def _observation(self) -> Dict[str, np.ndarray]:
        return {"observation": self._state.observation(self._viewer), "action_mask": self._action_mask()}

    def _info(self, rewards: Optional[np.ndarray] = None) -> Dict[str, Any]:
        state = self._state
        if rewards is None:
            rewards = forfeit_returns(self.num_players, self._forfeit["player"]) if self._forfeit else state.returns()
        info = {"current_player": self.current_player, "rewards": rewards, "scores": state.scores()}
        if self._forfeit is not None:
            info["illegal_action"] = dict(self._forfeit)
        return info

    def __repr__(self) -> str:
        return f"<RocketEnv {self.game_info.id} players={self.num_players}>"
