"""Gymnasium's check_env and PettingZoo's api_test on every game and player count, and check_env on the
envs with opponents with their defaults.

Neither package is installed by scripts/setup.sh (no Debian package); this module is skipped unless
their sources are importable (docs/python.md, "Official checkers", says how). The conventions they
check are also covered without them in test_conventions.py.
"""

import contextlib
import io
import pickle
import warnings

import numpy as np

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


def test_gymnasium_check_env_on_the_opponents_env_with_its_defaults(game_id):
    """docs/opponents.md says the env with opponents passes check_env: with its defaults, nothing else
    (issue 54; its illegal_action is "lose", since check_env steps unmasked samples of action_space)."""
    pytest.importorskip("rocketgym._agents", reason="built without the LibTorch training library")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env_checker.check_env(rg.make(game_id, opponents=["heuristic"]))


def test_gymnasium_checks_on_the_opponents_vector_env(game_id):
    """Gymnasium has no check_env for vector envs: its passive checks of reset and step outputs on
    each sub-env's view, and the envs a pickled copy makes matching the original's
    (gymnasium.utils.env_match), stand in for it."""
    pytest.importorskip("rocketgym._agents", reason="built without the LibTorch training library")
    from gymnasium.utils.passive_env_checker import check_obs

    vec = rg.make_vec(game_id, num_envs=3, opponents=["random"], seat="random", seed=0)
    obs, _ = vec.reset(seed=0)
    check_obs(obs, vec.observation_space, "reset")
    for _ in range(20):
        obs, rewards, terminated, truncated, info = vec.step(vec.sample_actions())
        check_obs(obs, vec.observation_space, "step")
        assert rewards.shape == terminated.shape == truncated.shape == (3,) and rewards.dtype == np.float32
    from gymnasium.utils.env_match import check_environments_match

    single = rg.make(game_id, opponents=["random"], seed=0)
    single.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_environments_match(single, pickle.loads(pickle.dumps(single)), num_steps=50, seed=4,
                                 skip_obs=False, skip_rew=False, skip_terminal=False, skip_truncated=False)


def test_pettingzoos_aec_to_parallel_refuses_the_aec_env_as_the_docs_say():
    """No game has seats that each decide once per round: the AEC env is not parallelizable, and
    docs/python.md says PettingZoo's aec_to_parallel refuses it (issue 54: it offered that wrapper)."""
    from pettingzoo.utils.conversions import aec_to_parallel

    env = rg.aec_env("lift_off")
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)
