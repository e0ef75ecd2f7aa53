"""rocketgym: rocket-themed tabletop games as reinforcement-learning environments.

    import rocketgym as rg
    rg.list_games()
    env = rg.make("launchpad23", num_players=2, seed=0)        # Gymnasium conventions
    aec = rg.aec_env("launchpad23", num_players=3)             # PettingZoo AEC conventions
    vec = rg.make_vec("launchpad23", num_envs=256, num_threads=2, seed=0)   # batched, zero-copy
    fast = rg.make_vec("launchpad23", num_envs=256, num_threads=2, batch_size=128)   # async: recv/send

For search written in Python, ``rg.load_game(id).new_state(n, seed)`` gives a
``State`` with ``legal_actions()``, ``apply()``, ``clone()``, ``to_json()``,
``action_to_string()``, ``observation()``, ``redeterminize()``...

Trained bots: ``rg.load_agent("zoo:last_blast")`` gives an ``Agent`` with
``act(state, seed)`` and ``evaluate(observations, masks)`` (needs the module
built with the training library); scripted ones need their game:
``rg.load_agent("heuristic", game="lift_off")``.

With gymnasium importable, every game is registered (ids: ``rg.gymnasium_id(game_id)``, e.g.
``gymnasium.make(rg.gymnasium_id("last_blast"), opponents=["heuristic"])``): every keyword goes to
``rg.make`` / ``rg.make_vec`` (``rocketgym._registration``).

Naming rule: a noun that reads a stored value without arguments is a property
(``state.current_player``, ``env.observation_shape``, ``game.info``); a
question (``is_terminal()``), anything that computes or builds a new object
(``legal_actions()``, ``returns()``) and anything that takes arguments
(``game.observation_shape(num_players)``) is a method.

Games, states, envs and agents pickle and ``copy.deepcopy`` (docs/python.md).

``rg.arena(game_id, agents={...})`` plays them, and Python agents, as ``rocketgym arena``
does; ``rg.load_records(path)`` reads the games it recorded back into states.

Errors: ``rg.Error`` (a ValueError) and its subclasses ``IllegalAction``,
``ConfigError``, ``SerializationError``; ``InvariantViolation`` (a
RuntimeError) signals an engine bug.
"""

from __future__ import annotations

import os
import weakref
from typing import Any, Dict, List, Optional, Sequence

from ._common import ConfigArg, gymnasium_id, load_game
from ._common import quoted as _quoted
from ._rocketgym import (ConfigError, Error, Game, GameInfo, IllegalAction, InvariantViolation,
                         SerializationError, State, builtin_game_config, derive_seed, game_info,
                         list_games, max_threads)
from .aec import USING_PETTINGZOO, RocketAECEnv
from ._registration import register_games
from .arena import ArenaInterrupted, ArenaReport, arena, load_records
from .async_vector import AsyncVectorEnv
from .env import RocketEnv
from .opponents import OpponentEnv, OpponentVectorEnv, TorchAgent
from .spaces import USING_GYMNASIUM
from .vector import VectorEnv

register_games()

# An installed package carries the zoo bots in rocketgym/zoo/ (setup.py copies models/zoo/ there); the
# C++ side finds them through ROCKETGYM_ZOO_DIR unless the user chose another folder.
_PACKAGED_ZOO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zoo")
if os.path.isdir(_PACKAGED_ZOO):
    os.environ.setdefault("ROCKETGYM_ZOO_DIR", _PACKAGED_ZOO)

__version__ = "0.1.0"

__all__ = [
    "ArenaInterrupted", "ArenaReport", "AsyncVectorEnv", "ConfigError", "Error", "Game", "GameInfo", "IllegalAction",
    "InvariantViolation",
    "OpponentEnv", "OpponentVectorEnv", "RocketAECEnv", "RocketEnv", "SerializationError", "State", "TorchAgent",
    "USING_GYMNASIUM", "USING_PETTINGZOO", "VectorEnv",
    "aec_env", "arena", "builtin_game_config", "derive_seed", "game_info", "gymnasium_id", "list_games",
    "agent_grammar", "agent_kinds", "load_agent", "load_game", "load_records", "make", "make_vec", "max_threads",
]


def make(game_id: str, num_players: int = 2, seed: Optional[int] = None, config: ConfigArg = None,
         render_mode: Optional[str] = None, illegal_action: Optional[str] = None,
         opponents: Optional[Sequence[Any]] = None, seat: Any = 0):
    """A single Gymnasium-style env (see ``rocketgym.env``). ``config``: see ``load_game``.

    ``illegal_action``: ``"raise"`` (IllegalAction, nothing changes) or ``"lose"`` (the acting seat
    loses at once, reported in ``info["illegal_action"]``); None: the env's default, ``"raise"``
    without opponents, ``"lose"`` with them (``OpponentEnv``: a single-agent env passes Gymnasium's
    ``check_env``, which steps unmasked samples of ``action_space``).

    With ``opponents`` (a list of player specs such as ``"heuristic"`` or ``"zoo"``, or Python agents;
    see ``rocketgym.opponents``), an ``OpponentEnv``: you play seat ``seat`` (or ``"random"``), the
    opponents play the others inside ``step``, and obs and reward are yours only.
    """
    chosen = {} if illegal_action is None else {"illegal_action": illegal_action}
    if opponents is not None:
        return OpponentEnv(game_id, opponents, seat=seat, num_players=num_players, seed=seed, config=config,
                           render_mode=render_mode, **chosen)
    if seat != 0:
        raise Error("seat= needs opponents= (without opponents the env plays every seat)")
    return RocketEnv(game_id, num_players=num_players, seed=seed, config=config, render_mode=render_mode,
                     **chosen)


def aec_env(game_id: str, num_players: int = 2, seed: Optional[int] = None, config: ConfigArg = None,
            render_mode: Optional[str] = None, illegal_action: str = "raise") -> RocketAECEnv:
    """A PettingZoo AEC-style env (see ``rocketgym.aec``; ``illegal_action`` as for ``make``)."""
    return RocketAECEnv(game_id, num_players=num_players, seed=seed, config=config, render_mode=render_mode,
                        illegal_action=illegal_action)


def make_vec(game_id: str, num_envs: int, num_players: int = 2, num_threads: int = 1,
             seed: Optional[int] = None, config: ConfigArg = None, opponents: Optional[Sequence[Any]] = None,
             seat: Any = 0, render_mode: Optional[str] = None, batch_size: Optional[int] = None):
    """``num_envs`` games stepped together in C++ with zero-copy numpy outputs (see ``rocketgym.vector``).

    ``num_threads`` is at most ``max_threads()`` (256, every thread count's limit) and ``num_envs`` at most 65,536.
    ``render_mode="ansi"``: ``render()`` returns each env's board as text (the learner's view with opponents,
    the whole board without).

    With ``opponents`` (see ``make``), an ``OpponentVectorEnv``: one learner action per env, the
    opponents' moves played in C++ (batched across the envs), learner-only observations and rewards.
    Both auto-reset in Gymnasium's SAME_STEP mode; rewards are ``[N, num_players]`` without opponents
    (every seat's), ``[N]`` with them (the learner's).

    With ``batch_size`` (1 to ``num_envs``), an ``AsyncVectorEnv`` (see ``rocketgym.async_vector``):
    threads that never wait for each other step the envs; ``recv()`` returns the first ``batch_size``
    ready ones, ``send(actions, env_ids)`` their actions.
    """
    if batch_size is not None:
        if opponents is not None:
            raise Error("batch_size= (the async vector env) cannot be combined with opponents=")
        if seat != 0:
            raise Error("seat= needs opponents= (without opponents the env plays every seat)")
        return AsyncVectorEnv(game_id, num_envs, batch_size, num_players=num_players, num_threads=num_threads,
                              seed=seed, config=config, render_mode=render_mode)
    if opponents is not None:
        return OpponentVectorEnv(game_id, num_envs, opponents, seat=seat, num_players=num_players,
                                 num_threads=num_threads, seed=seed, config=config, render_mode=render_mode)
    if seat != 0:
        raise Error("seat= needs opponents= (without opponents the env plays every seat)")
    return VectorEnv(game_id, num_envs, num_players=num_players, num_threads=num_threads, seed=seed,
                     config=config, render_mode=render_mode)


def _agents_module(what: str):
    try:
        from . import _agents
    except ImportError as e:  # built without the LibTorch training library
        raise Error(f"rocketgym.{what} needs the module built with the training library "
                    "(scripts/build.sh builds it): " + str(e)) from None
    return _agents


def agent_kinds() -> List[Dict[str, Any]]:
    """Every kind of player, one dict each (``name``, ``form``: its command-line form, ``alias``,
    ``yaml``: its YAML keys, ``help``, ``agent``: False for a seat only a person plays, ``network``), from
    the one C++ list of kinds (``training/players/kinds.h``) that the arena, ``rocketgym play`` and
    ``load_agent`` read."""
    return _agents_module("agent_kinds").agent_kinds()


def agent_grammar() -> str:
    """The grammar of an agent spec (``load_agent``, opponents, the arena's ``--agent``):
    ``[NAME=]random | heuristic | ...``, from the C++ list of kinds."""
    return _agents_module("agent_grammar").agent_grammar()


def load_agent(spec: str, game=None, num_players: int = 2, config: ConfigArg = None):
    """A bot, named by an agent spec as in the arena, e.g. ``"zoo:<game>"``, ``"heuristic"`` or
    ``"checkpoint:PATH"``: its forms are ``agent_grammar()``, each kind's help ``agent_kinds()``
    (both from the C++ list of kinds, ``training/players/kinds.h``).

    ``game``: a game id or a ``Game`` (with it, ``"zoo"`` alone is that game's zoo bot). A zoo bot or a
    checkpoint knows its game (the default); the
    heuristic, random and ismcts bots play any game, so they need ``game=`` (an ``rg.Error`` listing
    the games otherwise). ``config`` as for ``load_game``. The agent's ``act(state, seed=0)`` picks a
    move for the player to move; ``evaluate(observations, masks)`` returns the network's policy and
    values for a batch (float32 observations, bool/uint8 masks).

    The spec follows the arena's grammar and limits (``docs/agents.md``). An agent may be shared
    by several threads: its ``act`` and ``evaluate`` calls take turns. For moves in parallel, load one
    agent per thread. An agent pickles (and deep-copies) as its spec, game and player count: the copy
    is loaded again (the same moves for the same states and seeds).
    """
    _agents = _agents_module("load_agent")
    if isinstance(game, str):
        game = load_game(game, config)
    elif game is None and config is not None:
        raise Error("load_agent: config= needs game=")
    try:
        agent = _agents.load_agent(spec, game, num_players)
    except Error as e:
        # A spec without a game of its own (heuristic, random, ismcts without a network): say which
        # games there are.
        if game is None and "pass game=" in str(e):
            raise Error(f"load_agent({_quoted(spec)}) plays any game: pass game= (one of "
                        f"{', '.join(list_games())}), e.g. rocketgym.load_agent({_quoted(spec)}, "
                        f"game={list_games()[0]!r})") from None
        raise
    _AGENT_RECIPES[agent] = (spec, game, num_players)
    _agents.Agent.__reduce__ = _reduce_agent  # pickling loads the agent again from its recipe
    return agent


# How each agent was loaded (pickling loads it again). Weak keys: an agent is dropped with its entry.
_AGENT_RECIPES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _restore_agent(spec: str, game, num_players: int):
    return load_agent(spec, game, num_players)


def _reduce_agent(agent):
    recipe = _AGENT_RECIPES.get(agent)
    if recipe is None:
        raise TypeError(f"cannot pickle {agent!r}: it was not made by rocketgym.load_agent")
    return _restore_agent, recipe
