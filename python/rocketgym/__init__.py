"""rocketgym: rocket-themed tabletop games as reinforcement-learning environments.

    import rocketgym as rg
    rg.list_games()
    env = rg.make("launchpad23", num_players=2, seed=0)        # Gymnasium conventions
    aec = rg.aec_env("launchpad23", num_players=3)             # PettingZoo AEC conventions
    vec = rg.make_vec("launchpad23", num_envs=256, num_threads=2, seed=0)   # batched, zero-copy

For search written in Python, ``rg.load_game(id).new_state(n, seed)`` gives a
``State`` with ``legal_actions()``, ``apply()``, ``clone()``, ``to_json()``,
``action_to_string()``, ``observation()``, ``redeterminize()``...

Trained bots: ``rg.load_agent("zoo:last_blast")`` gives an ``Agent`` with
``act(state, seed)`` and ``evaluate(observations, masks)`` (needs the module
built with the training library).

Errors: ``rg.Error`` (a ValueError) and its subclasses ``IllegalAction``,
``ConfigError``, ``SerializationError``; ``InvariantViolation`` (a
RuntimeError) signals an engine bug.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ._common import ConfigArg, load_game
from ._rocketgym import (ConfigError, Error, Game, GameInfo, IllegalAction, InvariantViolation,
                         SerializationError, State, builtin_game_config, derive_seed, game_info,
                         list_games, max_threads)
from .aec import USING_PETTINGZOO, RocketAECEnv
from .env import RocketEnv
from .opponents import OpponentEnv, OpponentVectorEnv, TorchAgent
from .spaces import USING_GYMNASIUM
from .vector import VectorEnv

__version__ = "0.1.0"

__all__ = [
    "ConfigError", "Error", "Game", "GameInfo", "IllegalAction", "InvariantViolation", "OpponentEnv",
    "OpponentVectorEnv", "RocketAECEnv", "RocketEnv", "SerializationError", "State", "TorchAgent",
    "USING_GYMNASIUM", "USING_PETTINGZOO", "VectorEnv",
    "aec_env", "builtin_game_config", "derive_seed", "game_info", "list_games", "load_game", "make",
    "load_agent", "make_vec", "max_threads",
]


def make(game_id: str, num_players: int = 2, seed: Optional[int] = None, config: ConfigArg = None,
         render_mode: Optional[str] = None, illegal_action: str = "raise",
         opponents: Optional[Sequence[Any]] = None, seat: Any = 0):
    """A single Gymnasium-style env (see ``rocketgym.env``). ``config``: see ``load_game``.

    ``illegal_action``: ``"raise"`` (IllegalAction, nothing changes) or ``"lose"`` (the acting seat
    loses at once, reported in ``info["illegal_action"]``).

    With ``opponents`` (a list of player specs such as ``"heuristic"`` or ``"zoo"``, or Python agents;
    see ``rocketgym.opponents``), an ``OpponentEnv``: you play seat ``seat`` (or ``"random"``), the
    opponents play the others inside ``step``, and obs and reward are yours only.
    """
    if opponents is not None:
        return OpponentEnv(game_id, opponents, seat=seat, num_players=num_players, seed=seed, config=config,
                           render_mode=render_mode, illegal_action=illegal_action)
    if seat != 0:
        raise Error("seat= needs opponents= (without opponents the env plays every seat)")
    return RocketEnv(game_id, num_players=num_players, seed=seed, config=config, render_mode=render_mode,
                     illegal_action=illegal_action)


def aec_env(game_id: str, num_players: int = 2, seed: Optional[int] = None, config: ConfigArg = None,
            render_mode: Optional[str] = None, illegal_action: str = "raise") -> RocketAECEnv:
    """A PettingZoo AEC-style env (see ``rocketgym.aec``; ``illegal_action`` as for ``make``)."""
    return RocketAECEnv(game_id, num_players=num_players, seed=seed, config=config, render_mode=render_mode,
                        illegal_action=illegal_action)


def make_vec(game_id: str, num_envs: int, num_players: int = 2, num_threads: int = 1,
             seed: Optional[int] = None, config: ConfigArg = None, opponents: Optional[Sequence[Any]] = None,
             seat: Any = 0):
    """``num_envs`` games stepped together in C++ with zero-copy numpy outputs (see ``rocketgym.vector``).

    ``num_threads`` is at most ``max_threads()`` (4 x the machine's hardware threads, at least 8).

    With ``opponents`` (see ``make``), an ``OpponentVectorEnv``: one learner action per env, the
    opponents' moves played in C++ (batched across the envs), learner-only observations and rewards.
    """
    if opponents is not None:
        return OpponentVectorEnv(game_id, num_envs, opponents, seat=seat, num_players=num_players,
                                 num_threads=num_threads, seed=seed, config=config)
    if seat != 0:
        raise Error("seat= needs opponents= (without opponents the env plays every seat)")
    return VectorEnv(game_id, num_envs, num_players=num_players, num_threads=num_threads, seed=seed,
                     config=config)


def load_agent(spec: str, game=None, num_players: int = 2, config: ConfigArg = None):
    """A trained bot, named as in the arena: ``"zoo:<game>[:SIMS]"``, ``"search:PATH[:SIMS]"``,
    ``"checkpoint:PATH[:greedy|:sample]"``, ``"ismcts[:SIMS[:PATH|:heuristic[:PLAYOUTS]]]"``, ``"heuristic"``, ``"random"``.

    ``game``: a game id or a ``Game`` (default: the zoo's game, or the one the checkpoint was trained
    for); ``config`` as for ``load_game``. The agent's ``act(state, seed=0)`` picks a move for the
    player to move; ``evaluate(observations, masks)`` returns the network's policy and values for a
    batch (float32 observations, bool/uint8 masks).

    The spec follows the arena's grammar and limits (``training/README.md``). An agent may be shared
    by several threads: its ``act`` and ``evaluate`` calls take turns. For moves in parallel, load one
    agent per thread.
    """
    try:
        from . import _agents
    except ImportError as e:  # built without the LibTorch training library
        raise Error("rocketgym.load_agent needs the module built with the training library "
                    "(scripts/build.sh builds it): " + str(e)) from None
    if isinstance(game, str):
        game = load_game(game, config)
    elif game is None and config is not None:
        raise Error("load_agent: config= needs game=")
    return _agents.load_agent(spec, game, num_players)
