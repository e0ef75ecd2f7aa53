"""PettingZoo AEC-style environment: ``rocketgym.aec_env(game_id, ...)``.

Agents are ``"player_0" .. "player_{n-1}"`` (seat i is ``player_i``). Usual loop::

    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs["observation"], obs["action_mask"])
        env.step(action)

* ``observe(agent)`` is ``{"observation": float32, "action_mask": int8}`` from that
  agent's seat; the mask is all zeros unless the agent is the one to move.
* Rewards follow PettingZoo's accounting exactly: ``rewards`` holds every
  live agent's reward from the last ``step`` (non-zero only on the final step;
  a step that removes a finished agent clears them all to 0);
  ``_cumulative_rewards[agent]`` is the sum of the ``rewards`` the agent was
  shown since it last acted (its own entry is cleared when it acts), and
  ``last()`` returns it. So the sum of ``last()`` rewards an agent sees over a
  game is its return.
* When the game ends every agent is terminated (or truncated) at once; each
  then gets one last turn in ``agent_iter`` and must be stepped with ``None``,
  which removes it from ``agents``.
* ``illegal_action="raise"`` (the default): an illegal or out-of-range action
  raises ``IllegalAction`` (nothing changes). ``illegal_action="lose"``: the
  acting agent loses at once (the game ends; it gets -1, the others share +1;
  every agent's info holds ``"illegal_action": {"player": seat, "action": a}``).
  A non-None action for a finished agent raises ``IllegalAction`` in both modes.
* ``reset(seed, options)``: ``options={"state": json}`` starts from that
  position; other keys are ignored.
* ``infos[agent]`` holds ``current_player`` and ``scores`` (the game's points
  of every seat, int32 [num_players]), the same keys as the single env's info.
  ``info["score"]`` (that agent's points) is a deprecated alias.
* ``pickle`` / ``copy.deepcopy`` copy the env, its position (through the
  state's JSON document) and its seed sequence; ``render_mode="human"`` prints
  the board on ``reset`` and every ``step``.
* ``observation_string(agent)`` is the board as that agent may see it;
  ``is_public_action(a)`` whether the others would see which action ``a`` is.

Why AEC and no Parallel API: every game is turn-based in the engine (one seat
decides at a time; docs/python.md, "AEC, and no Parallel API"). Simultaneous choices, such as The Last Blast's draft picks and
Launchpad 23's set-up picks, are sequential decisions whose content is hidden
from the others until everyone has chosen (``is_public_action`` is False), so
an agent picking later in a round sees exactly what it would see picking at
the same time (tests/python/test_conventions.py checks this), and some picks
take two decisions (The Last Blast's blind draw: draw, look, then choose the
end), which a one-action-per-agent parallel step cannot express. PettingZoo's
``aec_to_parallel`` is there for code that wants a parallel loop anyway.

The class subclasses ``pettingzoo.AECEnv`` when pettingzoo is installed.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Iterator, Optional

import numpy as np

from . import _rocketgym as _core
from . import spaces
from ._common import (ConfigArg, quoted, check_illegal_action, check_num_players, check_render_mode, check_seed,
                      forfeit_returns, load_game, load_state, state_document)

try:  # pragma: no cover - depends on the installation
    from pettingzoo import AECEnv as _AECBase

    USING_PETTINGZOO = True
except ImportError:  # pragma: no cover
    _AECBase = object
    USING_PETTINGZOO = False


class _AgentInfo(dict):
    """An agent's info dict; ``info["score"]`` (that agent's points, the old key) still works but warns:
    use ``info["scores"][seat]``, as in the single env."""

    _score = 0

    def __missing__(self, key):
        if key == "score":
            warnings.warn('info["score"] is deprecated: use info["scores"][seat] (every seat\'s points, '
                          "as in the single env)", DeprecationWarning, stacklevel=2)
            return self._score
        raise KeyError(key)

    def get(self, key, default=None):
        """``dict.get``, with the deprecated ``"score"`` key."""
        return self[key] if key in self or key == "score" else default


class RocketAECEnv(_AECBase):
    """A rocketgym game behind the PettingZoo AEC API."""

    metadata = {"render_modes": ["ansi", "human"], "name": "rocketgym", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, game_id: str, num_players: int = 2, seed: Optional[int] = None,
                 config: ConfigArg = None, render_mode: Optional[str] = None, illegal_action: str = "raise"):
        if USING_PETTINGZOO:  # pragma: no cover
            super().__init__()
        self.illegal_action = check_illegal_action(illegal_action)
        self.game = load_game(game_id, config)
        self.game_info = self.game.info
        self.metadata = dict(self.metadata, name=f"rocketgym_{self.game_info.id}_v{self.game_info.version}")
        n = check_num_players(self.game, num_players)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        shape = tuple(self.game.observation_shape(n))
        num_actions = self.game_info.num_actions
        self.observation_spaces = {a: spaces.observation_space(shape, num_actions) for a in self.possible_agents}
        self.action_spaces = {a: spaces.discrete(num_actions) for a in self.possible_agents}
        self._base_seed = check_seed(seed)
        self._episode = 0
        self._state: Optional[_core.State] = None
        self.agents = []
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self.agent_selection: Optional[str] = None
        self._forfeit: Optional[Dict[str, int]] = None  # {"player", "action"} after a losing illegal action

    # -- spaces -----------------------------------------------------------------------------------

    def observation_space(self, agent: str):
        """``agent``'s observation space: ``Dict(observation=Box float32, action_mask=Box int8)``."""
        return self.observation_spaces[self._check_agent(agent)]

    def action_space(self, agent: str):
        """``agent``'s action space: ``Discrete(num_actions)``."""
        return self.action_spaces[self._check_agent(agent)]

    @property
    def num_agents(self) -> int:
        """The number of agents still in ``agents``."""
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        """The number of seats."""
        return len(self.possible_agents)

    # -- AEC API ----------------------------------------------------------------------------------

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Starts a new game (``options={"state": json}`` starts from that position; other keys are ignored)."""
        document = state_document(options)
        if seed is not None:
            self._base_seed = check_seed(seed)
            self._episode = 0
        if document is not None:
            state = load_state(self.game, document, len(self.possible_agents))
            if state.is_terminal():
                raise _core.Error("cannot start from a finished game")
            self._state = state
        else:
            self._state = self.game.new_state(len(self.possible_agents),
                                              _core.derive_seed(self._base_seed, self._episode))
        self._episode += 1
        self._forfeit = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._update_infos()
        self.agent_selection = self.possible_agents[self._state.current_player]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` from ``agent``'s seat (the mask is all zeros unless it is
        to move)."""
        state = self._require_state()
        seat = self._seat[self._check_agent(agent)]
        if seat == state.current_player and self._forfeit is None:
            mask = state.legal_actions_mask()
        else:
            mask = np.zeros(self.game_info.num_actions, dtype=np.int8)
        return {"observation": state.observation(seat), "action_mask": mask}

    def last(self, observe: bool = True):
        """(observation, accumulated reward, termination, truncation, info) of ``agent_selection``."""
        agent = self.agent_selection
        if agent is None or agent not in self.terminations:
            raise _core.Error("no agent to move: call reset()")
        observation = self.observe(agent) if observe else None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action) -> None:
        """Plays ``action`` for ``agent_selection`` (``None`` removes a finished agent)."""
        state = self._require_state()
        agent = self.agent_selection
        if agent is None or not self.agents:
            raise _core.IllegalAction("every agent is done: call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise _core.IllegalAction(f"{agent} is done: step it with None")
            self._remove_done_agent(agent)
            return
        if action is None:
            raise _core.IllegalAction(f"{agent} is to move: None is only for finished agents")
        try:
            state.apply(action)  # raises before changing anything
            returns = state.returns()
        except _core.IllegalAction:
            if self.illegal_action == "raise":
                raise
            self._forfeit = {"player": self._seat[agent], "action": int(action)}
            returns = forfeit_returns(len(self.possible_agents), self._seat[agent])

        # PettingZoo's accounting: the acting agent's running total restarts, then every live agent
        # adds this step's reward.
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = float(returns[self._seat[a]])
            self._cumulative_rewards[a] += self.rewards[a]
        if self._forfeit is not None or state.is_terminal():
            done = self.truncations if self._forfeit is None and state.is_truncated() else self.terminations
            for a in self.agents:
                done[a] = True
            # Each finished agent gets one last turn, starting after the last mover.
            self.agent_selection = self._next_agent_after(agent)
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """Yields ``agent_selection`` until every agent is done (or ``max_iter`` turns)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def render(self) -> Optional[str]:
        """The board as text; printed when ``render_mode == "human"``, returned otherwise."""
        text = "" if self._state is None else self._state.to_string()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (present for the PettingZoo API)."""

    # -- for search and analysis ------------------------------------------------------------------

    def get_state(self) -> _core.State:
        """A copy of the current game state."""
        return self._require_state().clone()

    def legal_actions(self):
        """The legal action ids of ``agent_selection``, ascending (empty once the game is over)."""
        state = self._require_state()
        return [] if self._forfeit is not None else state.legal_actions()

    def action_to_string(self, action: int) -> str:
        """The action in the rulebook's words, for the current position."""
        return self._require_state().action_to_string(action)

    def to_json(self) -> str:
        """The current position as a JSON document (``reset(options={"state": ...})`` takes it back)."""
        return self._require_state().to_json()

    def observation_string(self, agent: str) -> str:
        """The board as ``agent`` may see it (other seats' hidden cards left out)."""
        return self._require_state().observation_string(self._seat[self._check_agent(agent)])

    def is_public_action(self, action: int) -> bool:
        """Whether the other agents would see which action ``action`` is if the agent to move played it."""
        return self._require_state().is_public_action(action)

    # -- helpers ----------------------------------------------------------------------------------

    def _require_state(self) -> _core.State:
        if self._state is None:
            raise _core.Error("call reset() before using the env")
        return self._state

    def _check_agent(self, agent: str) -> str:
        if agent not in self._seat:
            raise _core.Error(f"unknown agent {quoted(agent)}; agents are {self.possible_agents}")
        return agent

    def _next_agent_after(self, agent: str) -> str:
        n = len(self.possible_agents)
        start = self._seat[agent]
        for k in range(1, n + 1):
            candidate = self.possible_agents[(start + k) % n]
            if candidate in self.agents:
                return candidate
        return agent

    def _remove_done_agent(self, agent: str) -> None:
        following = self._next_agent_after(agent)
        self.agents.remove(agent)
        for table in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            del table[agent]
        # This step gave nobody a reward (PettingZoo clears `rewards` here too); the running totals stay.
        for a in self.rewards:
            self.rewards[a] = 0.0
        self.agent_selection = following if self.agents else None

    def _update_infos(self) -> None:
        state = self._state
        scores = state.scores()
        current = -1 if self._forfeit is not None else state.current_player
        for agent in self.agents:
            self.infos[agent] = _AgentInfo(current_player=current, scores=scores.copy())
            self.infos[agent]._score = int(scores[self._seat[agent]])
            if self._forfeit is not None:
                self.infos[agent]["illegal_action"] = dict(self._forfeit)

    def __repr__(self) -> str:
        return f"<RocketAECEnv {self.game_info.id} players={len(self.possible_agents)}>"
