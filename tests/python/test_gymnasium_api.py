"""Gymnasium's own API on rocketgym (issue 26, conventions): every game registered for
``gymnasium.make`` / ``gymnasium.make_vec``, and the vector env a ``gymnasium.vector.VectorEnv``.

Gymnasium is not in Debian: this module is skipped without it, like test_checkers.py (set
ROCKETGYM_FARAMA, docs/python.md "Official checkers").
"""

import pickle
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not importable (docs/python.md, "
                                "\"Official checkers\", says how to put its sources on the path)")

import rocketgym as rg  # noqa: E402

NAMES = {"last_blast": "LastBlast", "launch_pad": "LaunchPad", "launchpad23": "Launchpad23",
         "lift_off": "LiftOff", "rocket_squad": "RocketSquad"}


def test_every_game_is_registered_under_its_camel_case_name():
    registered = sorted(k for k in gymnasium.registry if k.startswith("rocketgym/"))
    assert registered == sorted(rg.gymnasium_id(g) for g in rg.list_games())
    for game_id, name in NAMES.items():
        assert rg.gymnasium_id(game_id) == f"rocketgym/{name}-v{rg.game_info(game_id).version}"


def test_gymnasium_make_passes_the_arguments_through(game_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PassiveEnvChecker's advice on infinite Box bounds
        env = gymnasium.make(rg.gymnasium_id(game_id), num_players=3 if game_id != "lift_off" else 2, seed=5,
                             config={"reward": "win"})
        obs, info = env.reset(seed=1)
        plain = rg.make(game_id, num_players=env.unwrapped.num_players, config={"reward": "win"})
        expected, _ = plain.reset(seed=1)
        np.testing.assert_array_equal(obs["observation"], expected["observation"])
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert isinstance(env.unwrapped, rg.RocketEnv)
    assert env.unwrapped.game._recipe[2] == '{"reward": "win"}'
    assert env.spec.id == rg.gymnasium_id(game_id)


def test_gymnasium_make_vec_gives_the_cpp_vector_env():
    vec = gymnasium.make_vec(rg.gymnasium_id("lift_off"), num_envs=4, seed=3, num_threads=2)
    assert isinstance(vec, rg.VectorEnv) and isinstance(vec, gymnasium.vector.VectorEnv)
    assert vec.spec.id == rg.gymnasium_id("lift_off") and vec.num_threads == 2
    obs, _ = vec.reset(seed=0)
    mine = rg.make_vec("lift_off", num_envs=4)
    np.testing.assert_array_equal(obs["observation"], mine.reset(seed=0)[0]["observation"])
    vec.close()
    assert vec.closed
    sync = gymnasium.make_vec(rg.gymnasium_id("lift_off"), num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    sync.close()


def test_the_vector_env_is_a_gymnasium_vector_env_with_batched_spaces():
    vec = rg.make_vec("rocket_squad", num_envs=3, num_players=2, seed=0)
    assert isinstance(vec, gymnasium.vector.VectorEnv)
    assert vec.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    assert vec.observation_space == gymnasium.vector.utils.batch_space(vec.single_observation_space, 3)
    assert vec.action_space == gymnasium.vector.utils.batch_space(vec.single_action_space, 3)
    obs, _ = vec.reset(seed=0)
    assert obs["observation"] in vec.observation_space["observation"]
    assert vec.sample_actions().astype(np.int64) in vec.action_space
    assert vec.unwrapped is vec and vec.render_mode is None
    assert pickle.loads(pickle.dumps(vec)).observation_space == vec.observation_space
