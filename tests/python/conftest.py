"""pytest set-up: import `rocketgym` from the build tree and parametrize over every game.

Where `rocketgym` is imported from, first match wins:
  * ``ROCKETGYM_PYTHON_PATH=<dir>``: a folder holding ``rocketgym/``, or ``installed`` to test the
    copy installed with ``pip install .``;
  * ``ROCKETGYM_BUILD_DIR=<build>``: the CMake build folder (the package is in ``<build>/python``);
  * ``<repo>/build/python`` (the build folder of scripts/build.sh and of ``pip install .``).

Gymnasium and PettingZoo (not in Debian) are used when importable; ``ROCKETGYM_FARAMA=<dir>`` puts
their source checkouts on the path first (``<dir>/Gymnasium``, ``<dir>/PettingZoo``, ``<dir>/stubs``:
docs/python.md, "Official checkers"). Without them the tests that need them are skipped, saying so.

A test that takes a ``game_id`` argument runs once per registered game; one that
takes ``game_id`` and ``num_players`` runs for every player count of every game.
"""

import os
import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]


def _package_folder():
    if "ROCKETGYM_PYTHON_PATH" in os.environ:
        return os.environ["ROCKETGYM_PYTHON_PATH"]
    if "ROCKETGYM_BUILD_DIR" in os.environ:
        return str(pathlib.Path(os.environ["ROCKETGYM_BUILD_DIR"]) / "python")
    return str(REPO / "build" / "python")


if os.environ.get("ROCKETGYM_FARAMA"):
    for _name in ("stubs", "PettingZoo", "Gymnasium"):
        sys.path.insert(0, str(pathlib.Path(os.environ["ROCKETGYM_FARAMA"]) / _name))

_where = _package_folder()
if _where != "installed":
    if not (pathlib.Path(_where) / "rocketgym").is_dir():
        raise RuntimeError(f"no rocketgym package under {_where}: build it first "
                           "(scripts/build.sh) or set ROCKETGYM_PYTHON_PATH / ROCKETGYM_BUILD_DIR")
    sys.path.insert(0, _where)

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rocketgym as rg  # noqa: E402

GAMES = rg.list_games()
SEATINGS = [(g, n) for g in GAMES for n in range(rg.game_info(g).min_players, rg.game_info(g).max_players + 1)]


def pytest_generate_tests(metafunc):
    names = metafunc.fixturenames
    if "game_id" in names and "num_players" in names:
        metafunc.parametrize(("game_id", "num_players"), SEATINGS, ids=[f"{g}-{n}p" for g, n in SEATINGS])
    elif "game_id" in names:
        metafunc.parametrize("game_id", GAMES)


def random_legal(mask, rng):
    """A uniformly random legal action from an int8 mask."""
    return int(rng.choice(np.flatnonzero(mask)))


def play_to_end(state, rng, max_moves=100_000):
    """Plays random legal moves on `state` until the game is over; returns the number of moves."""
    moves = 0
    while not state.is_terminal():
        state.apply(random_legal(state.legal_actions_mask(), rng))
        moves += 1
        assert moves <= max_moves, "the game did not end"
    return moves


def illegal_in_range(state):
    """An in-range action that is not legal now, or None when every action is legal."""
    illegal = np.flatnonzero(state.legal_actions_mask() == 0)
    return int(illegal[0]) if illegal.size else None


@pytest.fixture
def rng():
    return np.random.default_rng(20261121)
