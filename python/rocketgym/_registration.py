"""Registers every game with Gymnasium when it is importable (``import rocketgym`` does it):

    gymnasium.make("rocketgym/LastBlast-v1", num_players=3, seed=0)   # a RocketEnv
    gymnasium.make_vec("rocketgym/LastBlast-v1", num_envs=64)         # rocketgym's C++ VectorEnv

The ids come from the game registry (``rocketgym.list_games()``, named by ``gymnasium_id``); keyword
arguments go to ``rocketgym.make`` / ``rocketgym.make_vec``. ``gymnasium.make`` wraps the env in
Gymnasium's usual checkers (``PassiveEnvChecker``, ``OrderEnforcing``); ``gymnasium.make_vec`` gives
the C++ vector env itself (its ``vector_entry_point``), or with ``vectorization_mode="sync"``
Gymnasium's ``SyncVectorEnv`` of single envs.
"""

from __future__ import annotations

from . import _rocketgym as _core
from ._common import gymnasium_id


def register_games() -> list:
    """Registers every game that is not yet registered; returns the ids (empty without gymnasium)."""
    try:
        import gymnasium
    except ImportError:
        return []
    ids = []
    for game_id in _core.list_games():
        env_id = gymnasium_id(game_id)
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="rocketgym.env:RocketEnv",
                               vector_entry_point="rocketgym.vector:VectorEnv", kwargs={"game_id": game_id})
        ids.append(env_id)
    return ids
