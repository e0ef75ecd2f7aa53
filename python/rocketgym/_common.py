"""Argument checking shared by the envs (game loading, seeds, player counts), the ids the games are
registered under in Gymnasium, and the pickling of ``Game`` and ``State``."""

from __future__ import annotations

import json
import os
import secrets
import tempfile
from typing import Any, Mapping, Optional, Tuple, Union

import numpy as np

from . import _rocketgym as _core

ConfigArg = Union[None, str, "os.PathLike[str]", Mapping[str, Any]]


def quoted(value: Any) -> str:
    """``value`` as a message names it, by the C++ side's one rule (``envs/core/quoted.h``): a str in
    quotes, cut to its first ``MAX_QUOTED_BYTES`` bytes and escaped; another value by its repr, cut
    the same way (an int too long for ``str()`` by its size in bits, as the C++ side says it)."""
    if isinstance(value, str):
        return "'" + _core.shortened(value) + "'"
    try:
        text = repr(value)
    except ValueError:  # an int past str()'s digit limit (4,300 by default), maybe inside a container
        if isinstance(value, int):
            return f"an integer of {value.bit_length()} bits"
        text = f"a {type(value).__name__}"
    return _core.shortened(text)


def _quoted_config(text: str) -> str:
    """A config path as a message names it (unquoted: the path starts the message)."""
    return _core.shortened(text)


def _config_file(path: str) -> str:
    """``path`` if it names a file; ConfigError naming it otherwise (a folder, or nothing there)."""
    if os.path.isdir(path):
        raise _core.ConfigError(f"{_quoted_config(path)}: is a folder, not a config file")
    if not os.path.isfile(path):
        raise _core.ConfigError(f"{_quoted_config(path)}: config file not found")
    return path


def _names_a_file(text: str) -> bool:
    """Whether a ``config`` string is a path rather than YAML text: one line that names something on
    disk, ends in ``.yaml``/``.yml``, or holds no ``:`` (overrides are ``key: value`` pairs, so a
    single line without one, ``{}`` and blank text aside, cannot be any)."""
    if "\n" in text or "\0" in text:
        return False
    line = text.strip()
    if not line or line.startswith(("{", "[", "#")):
        return False
    return os.path.lexists(text) or line.endswith((".yaml", ".yml")) or ":" not in line


def config_parts(config: ConfigArg) -> Tuple[str, str]:
    """``(config file, overrides as YAML text)`` of a ``config`` argument (see ``load_game``); either may
    be empty. ConfigError for a path that names no file, TypeError for another type."""
    if config is None:
        return "", ""
    if isinstance(config, Mapping):
        return "", config_overrides_text(config)
    if isinstance(config, os.PathLike):
        path = os.fspath(config)
        if not isinstance(path, str):
            raise TypeError(f"a config path must be a str path, not {type(path).__name__}")
        return _config_file(path), ""
    if isinstance(config, str):
        return (_config_file(config), "") if _names_a_file(config) else ("", config)
    raise TypeError(f"config must be None, a dict, a YAML string or a path, not {type(config).__name__}")


def load_game(game_id: str, config: ConfigArg = None) -> _core.Game:
    """Loads a game with its configuration.

    ``config`` may be:
      * ``None``: the game's default ``configs/games/<id>.yaml``;
      * a mapping: overrides merged onto the default, e.g. ``{"reward": "win"}``;
      * a path: a whole config file, whatever its name ends in. An ``os.PathLike``, or a string of one
        line that names an existing file, ends in ``.yaml``/``.yml``, or holds no ``:``;
      * any other string: YAML text of overrides, e.g. ``"reward: win"``.

    Raises ``rocketgym.Error`` for an unknown game and ``rocketgym.ConfigError``
    (naming file, line and key) for a bad config, a folder or a missing file.
    """
    if not isinstance(game_id, str):
        raise TypeError(f"game_id must be a string, not {type(game_id).__name__}")
    path, overrides = config_parts(config)
    if not path:
        return _remember_recipe(_core.load_game(game_id, "", overrides) if config is not None
                                else _core.load_game(game_id), (game_id, None, overrides))
    game = _core.load_game(game_id, path, "")
    # The file as it was read (it may change or vanish before the game is unpickled).
    with open(path, encoding="utf-8") as f:
        return _remember_recipe(game, (game_id, f.read(), ""))


def config_overrides_text(config: Mapping[str, Any]) -> str:
    """A dict of config overrides as text for the core: JSON, which is valid YAML.

    ``rocketgym.ConfigError`` if it is not plain data or nests deeper than a config may (checked
    first, without recursion: ``json.dumps`` would hit Python's recursion limit).
    """
    _check_config_depth(config)
    try:
        return json.dumps(dict(config))
    except (TypeError, ValueError) as e:
        raise _core.ConfigError(f"config overrides must be plain data (str, numbers, lists, dicts): {e}") from e


def _check_config_depth(config: Mapping[str, Any]) -> None:
    """``ConfigError`` naming the key (dotted, as in a config file) under which lists and dicts
    nest more than ``MAX_CONFIG_DEPTH`` levels, or the start of a key longer than
    ``MAX_CONFIG_KEY_LENGTH`` (the core's YAML reader could not read it in the JSON it gets)."""
    limit = _core.MAX_CONFIG_DEPTH
    pending = [(config, "", 0)]
    while pending:
        value, key, depth = pending.pop()
        if depth > limit:
            raise _core.ConfigError(f"config overrides: {quoted(key)} is nested more than {limit} levels deep")
        if isinstance(value, Mapping):
            _check_key_lengths(value, key)
            pending.extend((v, f"{key}.{k}" if key else str(k), depth + 1) for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            pending.extend((v, key, depth + 1) for v in value)


def _check_key_lengths(mapping: Mapping[str, Any], where: str) -> None:
    longest = _core.MAX_CONFIG_KEY_LENGTH
    for k in mapping:
        # Bytes of UTF-8, as the core counts them (JSON's escapes keep such a key within yaml-cpp's limit).
        if len(str(k).encode("utf-8", "surrogatepass")) > longest:
            start = ascii(str(k)[:20])
            raise _core.ConfigError(f"config overrides: a key in '{where or '<top>'}' is longer than {longest} bytes "
                                    f"(it starts {start}...)")


# -- Gymnasium ids -------------------------------------------------------------------------------


def gymnasium_id(game_id: str) -> str:
    """The id a game is registered under in Gymnasium: ``"rocketgym/<GameName>-v<version>"``, the game
    id in CamelCase (``"last_blast"`` -> ``"rocketgym/LastBlast-v<version>"``) and ``GameInfo.version``, which is
    bumped when the rules or the encoding change (the same version as the AEC env's metadata name)."""
    name = "".join(part[:1].upper() + part[1:] for part in game_id.split("_"))
    return f"rocketgym/{name}-v{_core.game_info(game_id).version}"


# -- pickling ------------------------------------------------------------------------------------
#
# A Game pickles as the arguments it was loaded with (id, the config file's text, the overrides),
# a State as its Game and its JSON document (RNG included, so the restored state plays on exactly as
# the original). A Game loaded with the default configuration is restored with the default
# configuration of the process that unpickles it (configs/games/<id>.yaml or the built-in copy).

GameRecipe = Tuple[str, Optional[str], str]  # (game id, config file text or None, overrides YAML)


def _remember_recipe(game: _core.Game, recipe: GameRecipe) -> _core.Game:
    game._recipe = recipe
    return game


def restore_game(game_id: str, config_text: Optional[str], overrides: str) -> _core.Game:
    """A Game loaded again from its pickled recipe (see ``Game.__reduce__``)."""
    if config_text is None:
        game = _core.load_game(game_id, "", overrides)
    else:
        # load_game reads a config file (errors name its lines): the saved text goes back into one.
        with tempfile.TemporaryDirectory(prefix="rocketgym-") as folder:
            path = os.path.join(folder, f"{game_id}.yaml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(config_text)
            game = _core.load_game(game_id, path, overrides)
    return _remember_recipe(game, (game_id, config_text, overrides))


def _reduce_game(game: _core.Game):
    recipe = getattr(game, "_recipe", None)
    if recipe is None:
        raise TypeError(f"cannot pickle {game!r}: it was not made by rocketgym.load_game, so its "
                        "configuration is unknown")
    return restore_game, recipe


def restore_state(game: _core.Game, document: str) -> _core.State:
    """A State loaded again from its pickled Game and JSON document (see ``State.__reduce__``)."""
    return game.state_from_json(document)


def _reduce_state(state: _core.State):
    game = getattr(state, "_game", None)
    if game is None:
        raise TypeError(f"cannot pickle {state!r}: it does not know its Game; pickle "
                        "(game, state.to_json()) and use game.state_from_json")
    return restore_state, (game, state.to_json())


def restore_game_info(game_id: str) -> _core.GameInfo:
    """A game's static description, from the registry (see ``GameInfo.__reduce__``)."""
    return _core.game_info(game_id)


def _reduce_game_info(info: _core.GameInfo):
    return restore_game_info, (info.id,)


_core.GameInfo.__reduce__ = _reduce_game_info
_core.Game.__reduce__ = _reduce_game
_core.State.__reduce__ = _reduce_state


def check_int(value: Any, name: str) -> int:
    """``value`` as a Python int; TypeError for floats, bools and the like."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}")
    return int(value.__index__())


def check_bool(value: Any, name: str) -> bool:
    """``value`` as a Python bool: only ``True``/``False`` (numpy's too); TypeError for anything else,
    so that ``"false"``, ``"no"`` or ``0`` never reads as a yes or a no by its truthiness."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    return bool(value)


def check_num_envs(n: Any) -> int:
    """``n`` envs, refused (``rocketgym.Error`` naming the range) beyond rocketgym's limit on games
    stepped together (the CLI's ``--envs``), before any C++ call sees the number."""
    n = check_int(n, "num_envs")
    if not 1 <= n <= _core.max_envs():
        raise _core.Error(f"num_envs must be in [1, {_core.max_envs()}] (rocketgym's limit on games stepped "
                          f"together, as the arena's and training's envs), got {quoted(n)}")
    return n


def check_num_players(game: _core.Game, num_players: Any) -> int:
    num_players = check_int(num_players, "num_players")
    game.check_players(num_players)
    return num_players


def check_seed(seed: Optional[int]) -> int:
    """A seed in [0, MAX_SEED] (2**64 - 1, the range of every seed: ``kMaxSeed`` in
    envs/core/seed_range.h); ``None`` draws one from the OS."""
    if seed is None:
        return secrets.randbits(64)
    seed = check_int(seed, "seed")
    if not 0 <= seed <= _core.MAX_SEED:
        raise ValueError(f"seed must be in [0, 2**64), got {quoted(seed)}")
    return seed


def check_render_mode(render_mode: Optional[str], modes) -> Optional[str]:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {list(modes)}, got {quoted(render_mode)}")
    return render_mode


ILLEGAL_ACTION_MODES = ("raise", "lose")


def check_illegal_action(mode: Any) -> str:
    """``"raise"`` (an illegal action raises IllegalAction) or ``"lose"`` (the acting seat forfeits)."""
    if not isinstance(mode, str) or mode not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"illegal_action must be one of {list(ILLEGAL_ACTION_MODES)}, got {quoted(mode)}")
    return mode


def forfeit_returns(num_players: int, seat: int) -> np.ndarray:
    """Returns when ``seat`` loses by an illegal action: -1 for it (the lowest return of every reward
    mode), the others share +1 equally (zero-sum, as in the rank and win modes)."""
    returns = np.full(num_players, 1.0 / (num_players - 1), dtype=np.float32)
    returns[seat] = -1.0
    return returns


def state_document(options: Any) -> Optional[Any]:
    """The ``"state"`` entry of ``reset(options=...)``, or None.

    Gymnasium and PettingZoo treat ``options`` as a free-form dict that an env may ignore, and their
    checkers pass keys of their own: every key but ``"state"`` is ignored.
    """
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict or None, not {type(options).__name__}")
    return options.get("state")


def load_state(game: _core.Game, state: Any, num_players: int) -> _core.State:
    """A copy of ``state`` (a ``State`` or a JSON document, str or dict) as a state of ``game``.

    The state goes through ``game.state_from_json``: a position of another game, or one that this
    game's configuration cannot hold, is refused (``rocketgym.Error`` / ``SerializationError``)
    instead of being played with the wrong rules and encoder.
    """
    # json recurses once per level: a document nested past Python's recursion limit is past ours too.
    too_deep = _core.SerializationError(
        f"state document: arrays and objects are nested more than {_core.MAX_DOCUMENT_DEPTH} levels deep")
    if isinstance(state, _core.State):
        text = state.to_json()
    elif isinstance(state, str):
        text = state
    elif isinstance(state, Mapping):
        try:
            text = json.dumps(dict(state))
        except RecursionError:
            raise too_deep from None
    else:
        raise TypeError(f"a state must be a rocketgym.State or a JSON document (str or dict), "
                        f"not {type(state).__name__}")
    try:
        document = json.loads(text)
    except ValueError as e:
        raise _core.SerializationError(f"state document is not valid JSON: {e}") from e
    except RecursionError:
        raise too_deep from None
    game_id = document.get("game") if isinstance(document, dict) else None
    if game_id is not None and game_id != game.id:
        raise _core.Error(f"the state is a {quoted(game_id)} position; this env plays {game.id!r}")
    loaded = game.state_from_json(text)
    if loaded.num_players != num_players:
        raise _core.Error(f"the state has {loaded.num_players} players, this env {num_players}")
    return loaded
