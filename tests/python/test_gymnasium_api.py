"""Gymnasium's own API on rocketgym (issue 26, conventions): every game registered for
``gymnasium.make`` / ``gymnasium.make_vec``, and the vector env a ``gymnasium.vector.VectorEnv``.

Gymnasium is not in Debian: this module is skipped without it, like test_checkers.py (set
ROCKETGYM_FARAMA, docs/python.md "Official checkers").
"""

import pickle
import re
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not importable (docs/python.md, "
                                "\"Official checkers\", says how to put its sources on the path)")

import rocketgym as rg  # noqa: E402

NAMES = {"last_blast": "LastBlast", "launch_pad": "LaunchPad", "launchpad23": "Launchpad23",
         "lift_off": "LiftOff", "rocket_squad": "RocketSquad"}


def test_every_game_is_registered_under_its_camel_case_name():
    from rocketgym._registration import gymnasium_ids

    registered = sorted(k for k in gymnasium.registry if k.startswith("rocketgym/"))
    assert registered == sorted(i for entry in gymnasium_ids() for i in [entry.id, *entry.deprecated])
    assert [entry.id for entry in gymnasium_ids()] == [rg.gymnasium_id(g) for g in rg.list_games()]
    assert sorted(NAMES) == sorted(rg.list_games()), "NAMES has a name for each game of the registry"
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


# -- issue 54: every keyword, earlier ids, one vector form per id, the opponents' vector env ----------

def _needs_agents():
    pytest.importorskip("rocketgym._agents", reason="built without the LibTorch training library")


def test_gymnasium_make_and_make_vec_take_every_keyword_of_rg_make():
    _needs_agents()
    env_id = rg.gymnasium_id("last_blast")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PassiveEnvChecker's advice on infinite Box bounds
        env = gymnasium.make(env_id, opponents=["heuristic"], seat=1, illegal_action="raise", seed=3,
                             render_mode="ansi")
        obs, info = env.reset(seed=3)
    assert isinstance(env.unwrapped, rg.OpponentEnv)
    assert info["seat"] == 1 and env.unwrapped.illegal_action == "raise" and env.spec.id == env_id
    mine = rg.make("last_blast", opponents=["heuristic"], seat=1, seed=3)
    np.testing.assert_array_equal(obs["observation"], mine.reset(seed=3)[0]["observation"])
    assert env.render() == mine.render()
    vec = gymnasium.make_vec(env_id, num_envs=3, opponents=["random"], seat="random", seed=2, num_threads=2)
    assert isinstance(vec, rg.OpponentVectorEnv) and vec.seat == "random" and vec.num_threads == 2
    assert vec.spec.kwargs["opponents"] == ["random"]


def _earlier_ids():
    """(earlier id, current id, game id) of every game past its first version."""
    out = []
    for game_id in rg.list_games():
        current = rg.gymnasium_id(game_id)
        out += [(f"{current.rsplit('-v', 1)[0]}-v{v}", current, game_id)
                for v in range(1, rg.game_info(game_id).version)]
    return out


def test_earlier_ids_make_the_current_env_with_a_warning_naming_the_new_id():
    earlier = _earlier_ids()
    assert earlier, "no game has an earlier version"
    for old, current, game_id in earlier:
        with pytest.warns(DeprecationWarning, match=re.escape(f"{old} is deprecated: use {current}")):
            env = gymnasium.make(old, seed=1)
        assert isinstance(env.unwrapped, rg.RocketEnv) and env.unwrapped.game.id == game_id
        with pytest.warns(DeprecationWarning, match=re.escape(current)):
            vec = gymnasium.make_vec(old, num_envs=2)
        assert isinstance(vec, rg.VectorEnv) and vec.game.id == game_id


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasiums_vectorizers_are_refused_saying_what_to_use(mode):
    env_id = rg.gymnasium_id("lift_off")
    with pytest.raises(rg.Error, match=r"one vector form: gymnasium.make_vec\('rocketgym/LiftOff-v\d+', "
                                       r"num_envs=N\) without vectorization_mode"):
        gymnasium.make_vec(env_id, num_envs=2, vectorization_mode=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for earlier, _, _ in _earlier_ids()[:1]:
            with pytest.raises(rg.Error, match="one vector form"):
                gymnasium.make_vec(earlier, num_envs=2, vectorization_mode=mode)


def test_one_autoreset_mode_and_reward_shape_per_id():
    same_step = gymnasium.vector.AutoresetMode.SAME_STEP
    plain = gymnasium.make_vec(rg.gymnasium_id("lift_off"), num_envs=3, num_players=3, seed=0)
    plain.reset(seed=0)
    assert plain.metadata["autoreset_mode"] is same_step
    assert plain.step(plain.sample_actions())[1].shape == (3, 3)
    _needs_agents()
    bots = gymnasium.make_vec(rg.gymnasium_id("lift_off"), num_envs=3, num_players=3, opponents=["random"])
    bots.reset(seed=0)
    assert bots.metadata["autoreset_mode"] is same_step
    assert bots.step(bots.sample_actions())[1].shape == (3,)


def test_the_opponent_vector_env_is_a_gymnasium_vector_env():
    _needs_agents()
    vec = rg.make_vec("last_blast", num_envs=4, opponents=["heuristic"], seat="random", seed=0)
    assert isinstance(vec, gymnasium.vector.VectorEnv)
    assert vec.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    assert vec.observation_space == gymnasium.vector.utils.batch_space(vec.single_observation_space, 4)
    assert vec.action_space == gymnasium.vector.utils.batch_space(vec.single_action_space, 4)
    assert vec.unwrapped is vec
    # Gymnasium's own vector wrappers: episode statistics, info as a list of dicts.
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(vec)
    obs, _ = wrapped.reset(seed=0)
    assert obs["observation"] in vec.observation_space["observation"]
    returns, rng = [], np.random.default_rng(0)
    while len(returns) < 6:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks])
        assert actions in vec.action_space
        obs, rewards, terminated, truncated, info = wrapped.step(actions)
        done = terminated | truncated
        if done.any():
            np.testing.assert_array_equal(info["episode"]["r"][done], rewards[done])  # rewards are terminal
            np.testing.assert_array_equal(info["episode"]["l"][done], info["final_info"]["episode_steps"][done])
            returns.extend(rewards[done])
    listed = gymnasium.wrappers.vector.DictInfoToList(vec)
    listed.reset(seed=1)
    infos = listed.step(vec.sample_actions())[4]
    assert len(infos) == 4 and all("seat" in i for i in infos)
    torch = pytest.importorskip("torch")
    views = vec.torch_views()
    assert set(views) == {"observations", "rewards", "terminated", "truncated", "final_observations",
                          "final_episode_steps", "final_seats", "final_returns", "final_scores"}
    vec.step(vec.sample_actions())
    assert torch.equal(views["observations"], torch.from_numpy(vec.observations.copy()))


def test_the_gymnasium_example_of_the_docs_runs():
    """docs/python.md's Gymnasium block is marked skip for test_docs.py (gymnasium is not in Debian):
    it runs here, where gymnasium is importable."""
    _needs_agents()
    import pathlib

    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text()
    marker = "<!-- docs-test: skip gymnasium is not in Debian"
    block = text.split(marker, 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    scope = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PassiveEnvChecker's advice on infinite Box bounds
        exec(compile(block, "docs/python.md (Gymnasium registration)", "exec"), scope)
    assert isinstance(scope["bots"].unwrapped, rg.OpponentEnv)
    assert isinstance(scope["vs"], rg.OpponentVectorEnv) and isinstance(scope["vec"], rg.VectorEnv)
