"""rocketgym.aec_env: the PettingZoo AEC-style env."""

import numpy as np
import pytest
from conftest import illegal_in_range, random_legal

import rocketgym as rg


def run_episode(env, rng, seed=0):
    """The standard AEC loop with random legal actions; returns what last() gave each turn."""
    env.reset(seed=seed)
    turns = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        turns.append((agent, obs, reward, termination, truncation, info))
        action = None if termination or truncation else random_legal(obs["action_mask"], rng)
        env.step(action)
    return turns


def test_agents_and_spaces(game_id, num_players):
    env = rg.aec_env(game_id, num_players=num_players)
    assert env.possible_agents == [f"player_{i}" for i in range(num_players)]
    assert env.max_num_agents == num_players
    shape = tuple(rg.load_game(game_id).observation_shape(num_players))
    for agent in env.possible_agents:
        assert env.observation_space(agent)["observation"].shape == shape
        assert env.action_space(agent).n == rg.game_info(game_id).num_actions
    with pytest.raises(rg.Error, match="unknown agent"):
        env.action_space("player_99")
    assert env.metadata["name"].startswith(f"rocketgym_{game_id}")


def test_reset_selects_the_player_to_move(game_id, num_players):
    env = rg.aec_env(game_id, num_players=num_players, seed=1)
    env.reset()
    assert env.agents == env.possible_agents and env.num_agents == num_players
    state = env.get_state()
    assert env.agent_selection == f"player_{state.current_player}"
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {a: 0.0 for a in env.agents}


def test_only_the_agent_to_move_has_a_mask(game_id, num_players):
    env = rg.aec_env(game_id, num_players=num_players, seed=1)
    env.reset()
    for agent in env.agents:
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].any() == (agent == env.agent_selection)
        np.testing.assert_array_equal(obs["observation"], env.get_state().observation(int(agent.split("_")[1])))


def test_a_whole_game_through_agent_iter(game_id, num_players, rng):
    env = rg.aec_env(game_id, num_players=num_players, seed=2)
    turns = run_episode(env, rng)
    assert env.agents == []
    final = turns[-num_players:]
    # Every agent gets exactly one last turn once the game is over, with its final reward.
    assert sorted(agent for agent, *_ in final) == env.possible_agents
    assert all(term or trunc for _, _, _, term, trunc, _ in final)
    assert abs(sum(reward for _, _, reward, *_ in final)) < 1e-4
    for agent, obs, reward, term, trunc, info in turns[:-num_players]:
        assert not term and not trunc and obs["action_mask"].any()


def test_final_rewards_match_the_game_returns(game_id, num_players, rng):
    env = rg.aec_env(game_id, num_players=num_players, seed=3)
    env.reset()
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            break
        env.step(random_legal(obs["action_mask"], rng))
    returns = env.get_state().returns()
    assert {a: env.rewards[a] for a in env.possible_agents} == {
        f"player_{i}": pytest.approx(float(r)) for i, r in enumerate(returns)}


def test_illegal_action_raises_and_changes_nothing(game_id, num_players):
    env = rg.aec_env(game_id, num_players=num_players, seed=1)
    env.reset()
    before, selected = env.to_json(), env.agent_selection
    with pytest.raises(rg.IllegalAction, match="out of range"):
        env.step(-1)
    bad = illegal_in_range(env.get_state())
    if bad is not None:
        with pytest.raises(rg.IllegalAction):
            env.step(bad)
    with pytest.raises(rg.IllegalAction, match="None"):
        env.step(None)
    assert env.to_json() == before and env.agent_selection == selected


def test_finished_agents_must_be_stepped_with_none(game_id, rng):
    env = rg.aec_env(game_id, seed=4)
    env.reset()
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            with pytest.raises(rg.IllegalAction, match="None"):
                env.step(0)
            break
        env.step(random_legal(obs["action_mask"], rng))
    with pytest.raises(rg.IllegalAction):
        while True:
            env.step(None)
    assert env.agents == []


def test_using_before_reset_is_an_error(game_id):
    env = rg.aec_env(game_id)
    with pytest.raises(rg.Error, match="reset"):
        env.last()
    with pytest.raises(rg.Error, match="reset"):
        env.step(0)


def test_reset_from_a_position(game_id, num_players, rng):
    env = rg.aec_env(game_id, num_players=num_players, seed=5)
    env.reset()
    for _ in range(3):
        env.step(random_legal(env.observe(env.agent_selection)["action_mask"], rng))
    position = env.to_json()
    other = rg.aec_env(game_id, num_players=num_players)
    other.reset(options={"state": position})
    assert other.to_json() == position and other.agent_selection == env.agent_selection


def test_seeded_episodes_replay(game_id, num_players):
    a = run_episode(rg.aec_env(game_id, num_players=num_players), np.random.default_rng(1), seed=9)
    b = run_episode(rg.aec_env(game_id, num_players=num_players), np.random.default_rng(1), seed=9)
    assert [(t[0], t[1]["observation"].tobytes(), t[2]) for t in a] == \
           [(t[0], t[1]["observation"].tobytes(), t[2]) for t in b]


def test_render_is_text(game_id):
    env = rg.aec_env(game_id, seed=0)
    env.reset()
    assert env.render() == env.get_state().to_string()


def test_is_a_pettingzoo_env_when_pettingzoo_is_installed(game_id, rng):
    pettingzoo = pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    env = rg.aec_env(game_id, seed=0)
    assert isinstance(env, pettingzoo.AECEnv)
    api_test(env, num_cycles=100)
