"""Registers every game with Gymnasium when it is importable (``import rocketgym`` does it):

    gymnasium.make("rocketgym/LastBlast-v2", num_players=3, seed=0)          # rocketgym.make(...)
    gymnasium.make("rocketgym/LastBlast-v2", opponents=["heuristic"])        # an OpponentEnv
    gymnasium.make_vec("rocketgym/LastBlast-v2", num_envs=64)                # rocketgym.make_vec(...)

The ids come from one list, ``gymnasium_ids()`` (every game of ``rocketgym.list_games()``, named by
``gymnasium_id``); ``scripts/docs_tables.py`` writes the same list into docs/python.md. Every keyword
goes to ``rocketgym.make`` / ``rocketgym.make_vec`` (opponents, seat, illegal_action, config...).

Earlier versions of a game's id (``-v1`` when the game is at ``-v2``) stay registered: they make the
current version, with a ``DeprecationWarning`` naming the id to use (the old rules and encoding are
gone).

One vector form per id: ``gymnasium.make_vec(id, num_envs=N)`` gives rocketgym's C++ vector env
(auto-reset SAME_STEP; rewards ``[N, num_players]``, or ``[N]`` with ``opponents=``).
``vectorization_mode="sync"`` or ``"async"`` would give, under the same id, Gymnasium's NEXT_STEP
auto-reset and the acting seat's reward ``[N]``: it is refused with an error saying what to use.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any, List, NamedTuple

from . import _rocketgym as _core
from ._common import gymnasium_id


class RegisteredId(NamedTuple):
    """A game's Gymnasium id and the earlier ids that still make it (with a DeprecationWarning)."""

    game_id: str
    id: str
    deprecated: List[str]


def gymnasium_ids() -> List[RegisteredId]:
    """Every id rocketgym registers, from the game registry: the one list registration and the docs use."""
    out = []
    for game_id in _core.list_games():
        current = gymnasium_id(game_id)
        version = _core.game_info(game_id).version
        stem = current[:-len(f"-v{version}")]
        out.append(RegisteredId(game_id, current, [f"{stem}-v{v}" for v in range(1, version)]))
    return out


def ids_markdown() -> str:
    """The table of ids for docs/python.md (scripts/docs_tables.py writes it there)."""
    lines = ["| game | Gymnasium id | earlier ids (deprecated, make the current version) |",
             "| --- | --- | --- |"]
    for entry in gymnasium_ids():
        old = ", ".join(f"`{i}`" for i in entry.deprecated) or "none"
        lines.append(f"| `{entry.game_id}` | `{entry.id}` | {old} |")
    return "\n".join(lines) + "\n"


_VECTORIZER_FRAME = ("gymnasium.envs.registration", "create_single_env")


def _refuse_gymnasium_vectorizers(game_id: str) -> None:
    """Raises when gymnasium.make_vec(vectorization_mode="sync" | "async") is making the single envs."""
    frame = sys._getframe(2)
    while frame is not None:
        if (frame.f_globals.get("__name__"), frame.f_code.co_name) == _VECTORIZER_FRAME:
            env_id = gymnasium_id(game_id)
            raise _core.Error(
                f"{env_id} has one vector form: gymnasium.make_vec({env_id!r}, num_envs=N) without "
                "vectorization_mode (rocketgym's C++ vector env: auto-reset SAME_STEP, rewards [N, num_players], "
                "or [N] with opponents=; the same as rocketgym.make_vec). vectorization_mode='sync' or 'async' "
                "would give NEXT_STEP auto-reset and the acting seat's reward [N] under the same id, so it is "
                "refused; for Gymnasium's own vector env of single envs, build it: "
                "gymnasium.vector.SyncVectorEnv([lambda: rocketgym.make(...)] * N)")
        frame = frame.f_back


def make_env(game_id: str, **kwargs: Any):
    """``gymnasium.make``'s entry point: ``rocketgym.make(game_id, **kwargs)``."""
    _refuse_gymnasium_vectorizers(game_id)
    from . import make

    return make(game_id, **kwargs)


make_env.metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # what gymnasium.make checks


def make_vec_env(game_id: str, num_envs: int = 1, **kwargs: Any):
    """``gymnasium.make_vec``'s entry point: ``rocketgym.make_vec(game_id, num_envs, **kwargs)``."""
    from . import make_vec

    return make_vec(game_id, num_envs, **kwargs)


class _DeprecatedId:
    """The entry point of an earlier id: warns, naming the current id, then makes the current env."""

    def __init__(self, old_id: str, new_id: str, make: Any):
        self.old_id, self.new_id, self.make = old_id, new_id, make
        self.metadata = getattr(make, "metadata", {})

    def __call__(self, game_id: str, **kwargs: Any):
        warnings.warn(f"{self.old_id} is deprecated: use {self.new_id} (it makes the same env, the game's "
                      "current rules and encoding; the earlier version is gone)", DeprecationWarning, stacklevel=3)
        if self.make is make_env:
            _refuse_gymnasium_vectorizers(game_id)
        return self.make(game_id, **kwargs)


def register_games() -> list:
    """Registers every id of ``gymnasium_ids()`` that is not yet registered; returns the current ids
    (empty without gymnasium)."""
    try:
        import gymnasium
    except ImportError:
        return []
    ids = []
    for entry in gymnasium_ids():
        if entry.id not in gymnasium.registry:
            gymnasium.register(entry.id, entry_point="rocketgym._registration:make_env",
                               vector_entry_point="rocketgym._registration:make_vec_env",
                               kwargs={"game_id": entry.game_id})
        for old in entry.deprecated:
            if old not in gymnasium.registry:
                gymnasium.register(old, entry_point=_DeprecatedId(old, entry.id, make_env),
                                   vector_entry_point=_DeprecatedId(old, entry.id, make_vec_env),
                                   kwargs={"game_id": entry.game_id})
        ids.append(entry.id)
    return ids
