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


# -- the envs with opponents and rg.TorchAgent (issue 54) ------------------------------------------


class CountingAgent:
    """A Python opponent with state of its own (a call counter and a generator): its copy must carry
    both for the copied env to play on as the original."""

    def __init__(self, seed):
        self.calls = 0
        self.rng = np.random.default_rng(seed)

    def act(self, observations, action_masks):
        self.calls += 1
        return np.array([int(self.rng.choice(np.flatnonzero(m))) for m in action_masks])


def _tiny_policy(game_id, num_players):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    size = int(np.prod(rg.load_game(game_id).observation_shape(num_players)))
    return torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(size, rg.game_info(game_id).num_actions))


def test_an_opponent_env_copy_plays_on_identically(duplicate):
    pytest.importorskip("rocketgym._agents", reason="the module was built without the training library")
    env = rg.make("last_blast", num_players=3, opponents=[CountingAgent(1), "heuristic"], seat="random", seed=5)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(3):
        obs, *_ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    twin = duplicate(env)
    assert twin.opponents == env.opponents and twin.seat == env.seat
    assert twin._vec._opponent_args[0] is not env._vec._opponent_args[0]  # the agent is copied by value
    assert twin._vec._opponent_args[0].calls == env._vec._opponent_args[0].calls
    episodes = 0
    while episodes < 2:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        out, out_twin = env.step(action), twin.step(action)
        np.testing.assert_array_equal(out[0]["observation"], out_twin[0]["observation"])
        np.testing.assert_array_equal(out[0]["action_mask"], out_twin[0]["action_mask"])
        assert out[1:4] == out_twin[1:4] and out[4]["seat"] == out_twin[4]["seat"]
        obs = out[0]
        if out[2] or out[3]:
            episodes += 1
            obs, info = env.reset()
            twin_obs, twin_info = twin.reset()
            np.testing.assert_array_equal(obs["observation"], twin_obs["observation"])
            assert info["seat"] == twin_info["seat"]


def test_an_opponent_vector_env_copy_steps_on_identically(duplicate):
    pytest.importorskip("rocketgym._agents", reason="the module was built without the training library")
    sampler = rg.TorchAgent(_tiny_policy("lift_off", 3), greedy=False, seed=4)
    vec = rg.make_vec("lift_off", 4, num_players=3, opponents=[sampler, "random"], seat="random", num_threads=2,
                      seed=8)
    vec.reset()  # a reset without a seed: the copy continues the same seed sequence
    for _ in range(15):
        vec.step(vec.sample_actions())
    twin = duplicate(vec)
    assert twin.num_envs == 4 and twin.num_threads == 2 and twin.opponents == vec.opponents
    assert twin.decisions_played == vec.decisions_played
    np.testing.assert_array_equal(twin.observations, vec.observations)
    np.testing.assert_array_equal(twin.seats, vec.seats)
    assert not twin.terminated.any() and not twin.rewards.any()  # the last step's outcome is not copied
    ended = 0
    for _ in range(400):
        actions = vec.sample_actions()
        np.testing.assert_array_equal(actions, twin.sample_actions())  # the action streams too
        vec.step(actions)
        twin.step(actions)
        for name in ("observations", "action_masks", "rewards", "terminated", "truncated", "seats",
                     "episode_steps", "final_returns"):
            np.testing.assert_array_equal(getattr(vec, name), getattr(twin, name), err_msg=name)
        ended += int(vec.terminated.sum() + vec.truncated.sum())
        if ended >= 3:
            break
    assert ended >= 3  # games ended and the next ones, from the seed sequence, ran the same
    vec.reset()
    twin.reset()
    np.testing.assert_array_equal(vec.observations, twin.observations)
    vec.close()
    with pytest.raises(TypeError, match="closed"):
        pickle.dumps(vec)


def test_a_torch_agent_copies_its_module_by_value(duplicate):
    torch = pytest.importorskip("torch")
    module = _tiny_policy("lift_off", 2)
    agent = rg.TorchAgent(module, greedy=False, seed=2, name="mine")
    vec = rg.make_vec("lift_off", 5, seed=0)
    twin = duplicate(agent)
    assert twin.module is not module and twin.name == "mine"
    np.testing.assert_array_equal(twin.act(vec.observations, vec.action_masks),
                                  agent.act(vec.observations, vec.action_masks))
    weight = module[1].weight.detach().clone()
    with torch.no_grad():
        module[1].weight.mul_(-1.0)  # the original's weights change; the copy's were copied
    assert torch.equal(twin.module[1].weight, weight)
