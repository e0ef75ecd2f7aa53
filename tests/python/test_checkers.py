"""Gymnasium's check_env and PettingZoo's api_test on every game and player count.

Neither package is installed by scripts/setup.sh (no Debian package); this module is skipped unless
their sources are importable (docs/python.md, "Official checkers", says how). The conventions they
check are also covered without them in test_conventions.py.
"""

import contextlib
import io
import warnings

import pytest

env_checker = pytest.importorskip("gymnasium.utils.env_checker")
pettingzoo_test = pytest.importorskip("pettingzoo.test")

import rocketgym as rg  # noqa: E402


def test_rocketgym_uses_the_real_base_classes():
    assert rg.USING_GYMNASIUM and rg.USING_PETTINGZOO


def test_gymnasium_check_env(game_id, num_players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # infinite Box bounds, no registered spec: advice, not failures
        env_checker.check_env(rg.make(game_id, num_players=num_players, illegal_action="lose"))


def test_pettingzoo_api_test(game_id, num_players):
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # "observation is not a NumPy array": it is the masked dict
        pettingzoo_test.api_test(rg.aec_env(game_id, num_players=num_players), num_cycles=300)


def test_gymnasium_check_env_against_the_heuristic_bot(game_id):
    pytest.importorskip("rocketgym._agents", reason="built without the LibTorch training library")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env_checker.check_env(rg.make(game_id, opponents=["heuristic"], seat="random", illegal_action="lose"))
