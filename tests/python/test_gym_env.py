"""rocketgym.make: the Gymnasium-style single env."""

import json

import numpy as np
import pytest
from conftest import illegal_in_range, random_legal

import rocketgym as rg
from rocketgym import spaces


def play_episode(env, rng, seed=None):
    """Random legal moves until the end; returns the list of step results."""
    obs, info = env.reset(seed=seed)
    steps = []
    while True:
        result = env.step(random_legal(obs["action_mask"], rng))
        steps.append(result)
        obs, _, terminated, truncated, info = result
        if terminated or truncated:
            return steps


def test_reset_returns_observation_dict_and_info(game_id, num_players):
    env = rg.make(game_id, num_players=num_players, seed=1)
    obs, info = env.reset()
    assert set(obs) == {"observation", "action_mask"}
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert obs["observation"].shape == env.observation_space["observation"].shape
    assert obs["action_mask"].shape == (env.action_space.n,)
    assert obs["action_mask"].any()
    assert obs in env.observation_space
    assert info["current_player"] == env.current_player
    assert info["rewards"].shape == (num_players,) and not info["rewards"].any()
    assert info["scores"].shape == (num_players,)


def test_spaces_describe_the_game(game_id, num_players):
    env = rg.make(game_id, num_players=num_players)
    assert env.action_space.n == rg.game_info(game_id).num_actions
    assert env.observation_space["observation"].shape == tuple(rg.load_game(game_id).observation_shape(num_players))
    assert env.observation_space["observation"].dtype == np.float32
    assert env.observation_space["action_mask"].dtype == np.int8


def test_a_random_episode_ends_with_zero_sum_rewards(game_id, num_players, rng):
    env = rg.make(game_id, num_players=num_players, seed=5)
    steps = play_episode(env, rng)
    assert len(steps) <= rg.game_info(game_id).max_decisions
    for obs, reward, terminated, truncated, info in steps[:-1]:
        assert reward == 0.0 and not terminated and not truncated
        assert obs["action_mask"].any() and info["current_player"] >= 0
    obs, reward, terminated, truncated, info = steps[-1]
    assert terminated != truncated
    assert info["current_player"] == -1 and not obs["action_mask"].any()
    assert abs(float(info["rewards"].sum())) < 1e-4
    assert isinstance(reward, float)


def test_reward_is_the_acting_seats_reward(game_id, num_players, rng):
    env = rg.make(game_id, num_players=num_players, seed=6)
    obs, info = env.reset()
    while True:
        actor = info["current_player"]
        obs, reward, terminated, truncated, info = env.step(random_legal(obs["action_mask"], rng))
        assert reward == pytest.approx(float(info["rewards"][actor]))
        if terminated or truncated:
            break


def test_same_seed_replays_the_same_games(game_id, num_players):
    def trajectory(env, seed):
        rng = np.random.default_rng(0)
        return [(o["observation"].tobytes(), r, i["current_player"]) for o, r, _, _, i in play_episode(env, rng, seed)]

    a = rg.make(game_id, num_players=num_players, seed=3)
    b = rg.make(game_id, num_players=num_players)
    assert trajectory(a, None) == trajectory(b, 3)
    # Episode k after reset(seed=s) starts from derive_seed(s, k).
    first = rg.load_game(game_id).new_state(num_players, rg.derive_seed(3, 0)).to_json()
    a.reset(seed=3)
    assert a.to_json() == first


def test_step_after_the_end_raises(game_id, rng):
    env = rg.make(game_id, seed=2)
    play_episode(env, rng)
    with pytest.raises(rg.IllegalAction, match="reset"):
        env.step(0)


def test_step_before_reset_raises(game_id):
    env = rg.make(game_id)
    with pytest.raises(rg.Error, match="reset"):
        env.step(0)


@pytest.mark.parametrize("value", [np.uint64(2**64 - 1), np.uint64(2**63), 2**64 - 1])
def test_unsigned_action_out_of_range_is_named_as_sent(game_id, value):
    env = rg.make(game_id, seed=1)
    env.reset()
    with pytest.raises(rg.IllegalAction, match=rf"action {int(value)} out of range"):
        env.step(value)


def test_illegal_or_out_of_range_action_raises_and_changes_nothing(game_id, num_players):
    env = rg.make(game_id, num_players=num_players, seed=1)
    env.reset()
    before = env.to_json()
    with pytest.raises(rg.IllegalAction, match="out of range"):
        env.step(env.action_space.n)
    with pytest.raises(TypeError):
        env.step(0.5)
    bad = illegal_in_range(env.get_state())
    if bad is not None:
        with pytest.raises(rg.IllegalAction):
            env.step(bad)
    assert env.to_json() == before


def test_render_is_text(game_id, capsys):
    env = rg.make(game_id, seed=0)
    assert env.render() == ""
    env.reset()
    assert env.render() == env.get_state().to_string()
    human = rg.make(game_id, seed=0, render_mode="human")
    human.reset()
    assert human.render() is None
    assert capsys.readouterr().out.strip()
    with pytest.raises(ValueError, match="render_mode"):
        rg.make(game_id, render_mode="rgb_array")


def test_search_helpers(game_id, num_players):
    env = rg.make(game_id, num_players=num_players, seed=4)
    obs, _ = env.reset()
    assert env.legal_actions() == [int(a) for a in np.flatnonzero(obs["action_mask"])]
    np.testing.assert_array_equal(env.action_masks(), obs["action_mask"].astype(bool))
    assert env.action_to_string(env.legal_actions()[0]).strip()
    before = env.to_json()
    copy = env.get_state()  # a copy: moving it leaves the env where it was
    copy.apply(copy.legal_actions()[0])
    assert env.to_json() == before


def test_clone_does_not_share_the_state(game_id, rng):
    env = rg.make(game_id, seed=4)
    obs, _ = env.reset()
    before = env.to_json()
    twin = env.clone()
    twin.step(random_legal(obs["action_mask"], rng))
    assert env.to_json() == before


def test_set_state_and_reset_from_a_position(game_id, num_players, rng):
    env = rg.make(game_id, num_players=num_players, seed=4)
    obs, _ = env.reset()
    for _ in range(3):
        obs, *_ = env.step(random_legal(obs["action_mask"], rng))
    position = env.to_json()
    other = rg.make(game_id, num_players=num_players)
    obs2, info2 = other.reset(options={"state": position})
    assert other.to_json() == position
    np.testing.assert_array_equal(obs2["observation"], obs["observation"])
    other.set_state(json.loads(position))
    assert other.to_json() == position
    other.set_state(env.get_state())
    assert other.to_json() == position


def test_set_state_checks_the_document(game_id):
    env = rg.make(game_id)
    with pytest.raises(rg.SerializationError):
        env.reset(options={"state": "{}"})


def test_state_with_another_player_count_is_refused(game_id):
    info = rg.game_info(game_id)
    if info.min_players == info.max_players:
        pytest.skip("one player count only")
    other = rg.load_game(game_id).new_state(info.max_players, 0)
    env = rg.make(game_id, num_players=info.min_players)
    with pytest.raises(rg.Error, match="players"):
        env.set_state(other)


def test_is_a_gymnasium_env_when_gymnasium_is_installed(game_id):
    gymnasium = pytest.importorskip("gymnasium")
    env = rg.make(game_id)
    assert isinstance(env, gymnasium.Env)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    assert isinstance(env.observation_space, gymnasium.spaces.Dict)


def test_uses_builtin_spaces_without_gymnasium(game_id):
    if rg.USING_GYMNASIUM:
        pytest.skip("gymnasium is installed")
    env = rg.make(game_id)
    assert isinstance(env.action_space, spaces.Discrete)
    assert isinstance(env.observation_space, spaces.Dict)
    assert isinstance(env.observation_space["observation"], spaces.Box)
