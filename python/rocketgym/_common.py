"""Argument checking shared by the envs: game loading, seeds, player counts."""

from __future__ import annotations

import json
import os
import secrets
from typing import Any, Mapping, Optional, Union

from . import _rocketgym as _core

ConfigArg = Union[None, str, "os.PathLike[str]", Mapping[str, Any]]


def load_game(game_id: str, config: ConfigArg = None) -> _core.Game:
    """Loads a game with its configuration.

    ``config`` may be:
      * ``None``: the game's default ``configs/games/<id>.yaml``;
      * a mapping: overrides merged onto the default, e.g. ``{"reward": "win"}``;
      * a path (``os.PathLike`` or a string ending in ``.yaml``/``.yml``): a whole config file;
      * any other string: YAML text of overrides, e.g. ``"reward: win"``.

    Raises ``rocketgym.Error`` for an unknown game and ``rocketgym.ConfigError``
    (naming file, line and key) for a bad config.
    """
    if not isinstance(game_id, str):
        raise TypeError(f"game_id must be a string, not {type(game_id).__name__}")
    if config is None:
        return _core.load_game(game_id)
    if isinstance(config, Mapping):
        # JSON is valid YAML, so a dict travels as JSON text.
        try:
            text = json.dumps(dict(config))
        except (TypeError, ValueError) as e:
            raise _core.ConfigError(f"config overrides must be plain data (str, numbers, lists, dicts): {e}") from e
        return _core.load_game(game_id, "", text)
    if isinstance(config, os.PathLike) or (isinstance(config, str) and config.endswith((".yaml", ".yml"))):
        path = os.fspath(config)
        if not os.path.isfile(path):
            raise _core.ConfigError(f"{path}: config file not found")
        return _core.load_game(game_id, path, "")
    if isinstance(config, str):
        return _core.load_game(game_id, "", config)
    raise TypeError(f"config must be None, a dict, a YAML string or a path, not {type(config).__name__}")


def check_int(value: Any, name: str) -> int:
    """``value`` as a Python int; TypeError for floats, bools and the like."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}")
    return int(value.__index__())


def check_num_players(game: _core.Game, num_players: Any) -> int:
    num_players = check_int(num_players, "num_players")
    game.check_players(num_players)
    return num_players


def check_seed(seed: Optional[int]) -> int:
    """A seed in [0, 2**64); ``None`` draws one from the OS."""
    if seed is None:
        return secrets.randbits(64)
    seed = check_int(seed, "seed")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return seed


def check_render_mode(render_mode: Optional[str], modes) -> Optional[str]:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {list(modes)}, got {render_mode!r}")
    return render_mode
