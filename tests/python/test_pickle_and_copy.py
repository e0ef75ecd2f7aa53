"""Pickling and copy.deepcopy of games, states, envs and agents (issue 26, conventions): the copy is
an independent object that plays on exactly as the original (same actions -> same observations,
rewards and ends)."""

import copy
import pickle

import numpy as np
import pytest

import rocketgym as rg

COPIES = {"pickle": lambda x: pickle.loads(pickle.dumps(x)), "deepcopy": copy.deepcopy}


@pytest.fixture(params=sorted(COPIES))
def duplicate(request):
    return COPIES[request.param]


def test_a_game_keeps_its_configuration(duplicate, tmp_path):
    overridden = rg.load_game("lift_off", {"reward": "win"})
    twin = duplicate(overridden)
    assert twin.id == "lift_off" and twin._recipe == overridden._recipe
    # The override travels: a finished game pays the win reward (1 / 0 / -1 style), as the original.
    path = tmp_path / "last_blast.yaml"
    path.write_text(rg.builtin_game_config("last_blast").replace("reward: rank", "reward: score"))
    from_file = rg.load_game("last_blast", path)
    path.unlink()  # the pickle holds the file's text, not its name
    restored = duplicate(from_file)
    assert restored._recipe[1] is not None and "reward: score" in restored._recipe[1]
    for game, twin in ((overridden, twin), (from_file, restored)):
        a, b = game.new_state(2, 5), twin.new_state(2, 5)
        rng = np.random.default_rng(1)
        while not a.is_terminal():
            action = int(rng.choice(a.legal_actions()))
            a.apply(action)
            b.apply(action)
        np.testing.assert_array_equal(a.returns(), b.returns())


def test_a_game_copies_to_itself_and_pickles_only_when_loaded_by_load_game():
    game = rg.load_game("launchpad23")
    assert copy.copy(game) is game and copy.deepcopy(game) is game  # immutable
    assert pickle.loads(pickle.dumps(game.info)).id == "launchpad23"


def test_a_state_plays_on_identically(game_id, duplicate):
    game = rg.load_game(game_id)
    state = game.new_state(2, 11)
    rng = np.random.default_rng(3)
    for _ in range(5):
        state.apply(int(rng.choice(state.legal_actions())))
    twin = duplicate(state)
    assert twin is not state and twin.to_json() == state.to_json()
    while not state.is_terminal():
        action = state.heuristic_action(int(rng.integers(1000)))
        state.apply(action)
        twin.apply(action)
        np.testing.assert_array_equal(state.observation(0), twin.observation(0))
        assert state.current_player == twin.current_player
    np.testing.assert_array_equal(state.returns(), twin.returns())
    assert twin.is_terminal()


def test_a_state_keeps_its_game_configuration():
    game = rg.load_game("lift_off", "reward: win")
    state = pickle.loads(pickle.dumps(game.new_state(2, 0).clone().resample(0, 3)))
    assert state._game._recipe == ("lift_off", None, "reward: win")


def test_a_state_without_its_game_says_how_to_pickle_it():
    vec = rg.make_vec("lift_off", 1, seed=0)
    state = vec._env.state(0)  # straight from C++: no Game attached
    with pytest.raises(TypeError, match="state_from_json"):
        pickle.dumps(state)
    assert pickle.loads(pickle.dumps(vec.state(0))).to_json() == state.to_json()  # the env attaches it


def _step_both(a, b, steps, seed):
    """Steps env a and its copy b with the same legal actions; checks every output matches."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        action = int(rng.choice(a.legal_actions()))
        out_a, out_b = a.step(action), b.step(action)
        np.testing.assert_array_equal(out_a[0]["observation"], out_b[0]["observation"])
        np.testing.assert_array_equal(out_a[0]["action_mask"], out_b[0]["action_mask"])
        assert out_a[1:4] == out_b[1:4]
        np.testing.assert_array_equal(out_a[4]["rewards"], out_b[4]["rewards"])
        if out_a[2] or out_a[3]:
            # The next episode comes from the same seed sequence too.
            obs_a, _ = a.reset()
            obs_b, _ = b.reset()
            np.testing.assert_array_equal(obs_a["observation"], obs_b["observation"])


def test_rocket_env_copies_play_on_identically(game_id, duplicate):
    env = rg.make(game_id, num_players=2, seed=7, config={"reward": "score"} if game_id == "lift_off" else None)
    env.reset()
    _step_both(env, env.clone(), 3, 0)  # clone() is the cheap in-process copy
    twin = duplicate(env)
    assert twin.game._recipe == env.game._recipe
    _step_both(env, twin, 400, 1)


def test_aec_env_copies_play_on_identically(game_id, duplicate):
    env = rg.aec_env(game_id, num_players=3 if game_id != "lift_off" else 2, seed=4)
    env.reset()
    for _ in range(4):
        env.step(int(env.legal_actions()[0]))
    twin = duplicate(env)
    rng = np.random.default_rng(2)
    for agent in env.agent_iter(2000):
        assert twin.agent_selection == agent
        obs, reward, term, trunc, info = env.last()
        twin_obs, twin_reward, twin_term, twin_trunc, twin_info = twin.last()
        np.testing.assert_array_equal(obs["observation"], twin_obs["observation"])
        assert (reward, term, trunc) == (twin_reward, twin_term, twin_trunc)
        np.testing.assert_array_equal(info["scores"], twin_info["scores"])
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        twin.step(action)
    assert not twin.agents


def test_vector_env_copies_step_on_identically(game_id, duplicate):
    vec = rg.make_vec(game_id, num_envs=3, num_players=2, num_threads=2, seed=9)
    vec.reset()
    vec.reset()  # a reset without a seed: the copy continues the same seed sequence
    for _ in range(20):
        vec.step(vec.sample_actions())
    twin = duplicate(vec)
    assert twin.num_threads == 2 and twin.num_envs == 3
    np.testing.assert_array_equal(twin.observations, vec.observations)
    np.testing.assert_array_equal(twin.episode_steps, vec.episode_steps)
    assert not twin.terminated.any() and not twin.rewards.any()  # the last step's outcome is not copied
    np.testing.assert_array_equal(vec.sample_actions(), twin.sample_actions())  # the action streams too
    steps_after_an_end = 0
    while steps_after_an_end < 5:  # until a game has ended and the next one, from the seed sequence, runs
        actions = vec.heuristic_actions()  # decisive play: random play rarely ends Launchpad 23
        np.testing.assert_array_equal(actions, twin.heuristic_actions())
        vec.step(actions)
        twin.step(actions)
        for name in ("observations", "action_masks", "rewards", "terminated", "truncated", "current_players",
                     "episode_steps"):
            np.testing.assert_array_equal(getattr(vec, name), getattr(twin, name), err_msg=name)
        if steps_after_an_end or vec.terminated.any() or vec.truncated.any():
            steps_after_an_end += 1
    vec.reset()
    twin.reset()
    np.testing.assert_array_equal(vec.observations, twin.observations)


def test_vector_env_copy_is_independent_and_closed_ones_refuse():
    vec = rg.make_vec("launchpad23", num_envs=2, seed=1)
    twin = copy.deepcopy(vec)
    before = twin.observations.copy()
    vec.step(vec.sample_actions())
    np.testing.assert_array_equal(twin.observations, before)
    vec.close()
    with pytest.raises(TypeError, match="closed"):
        pickle.dumps(vec)


def test_vector_env_restore_checks_its_input():
    vec = rg.make_vec("lift_off", num_envs=2, seed=1)
    episode, steps, stream = vec._env._slot(0)
    with pytest.raises(rg.Error, match="out of range"):
        vec._env._restore(2, vec.state(0), episode, steps, stream)
    with pytest.raises(rg.Error, match="not a lift_off position"):
        vec._env._restore(0, rg.load_game("last_blast").new_state(2, 0), episode, steps, stream)
    with pytest.raises(rg.Error, match="players"):
        vec._env._restore(0, rg.load_game("lift_off").new_state(3, 0), episode, steps, stream)
    finished = rg.load_game("lift_off").new_state(2, 0)
    rng = np.random.default_rng(0)
    while not finished.is_terminal():
        finished.apply(int(rng.choice(finished.legal_actions())))
    with pytest.raises(rg.Error, match="finished"):
        vec._env._restore(0, finished, episode, steps, stream)


def test_agents_pickle_as_their_spec(tmp_path):
    pytest.importorskip("rocketgym._agents", reason="the module was built without the training library")
    game = rg.load_game("last_blast", {"reward": "win"})
    for agent in (rg.load_agent("heuristic", game=game, num_players=3), rg.load_agent("ismcts:8", game="lift_off")):
        for duplicate in COPIES.values():
            twin = duplicate(agent)
            assert twin is not agent and repr(twin) == repr(agent)
            state = rg.load_game(agent.game_id).new_state(agent.num_players, 3)
            for seed in range(3):
                assert twin.act(state, seed=seed) == agent.act(state, seed=seed)
