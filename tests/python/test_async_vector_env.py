"""The async vector env (rg.make_vec(..., batch_size=K), issue 56): each env's games equal the sync
env's whatever the completion order, batch_size == num_envs runs as the sync env, zero-copy batches,
and errors naming their argument instead of a hang or a crash."""

import hashlib
import pickle

import numpy as np
import pytest

import rocketgym as rg

GAMES = rg.list_games()


def policy(env_id, step, observation, mask):
    """A legal action that depends only on (env, its step count, its observation)."""
    digest = hashlib.blake2b(observation.tobytes() + bytes([env_id % 256, step % 256, step // 256 % 256]),
                             digest_size=8).digest()
    legal = np.flatnonzero(mask)
    return int(legal[int.from_bytes(digest, "little") % len(legal)])


def add(hashes, env_id, obs, mask, rewards, terminated, truncated, final_obs):
    h = hashes[env_id]
    for array in (obs, mask, rewards, np.asarray([terminated, truncated])):
        h.update(np.ascontiguousarray(array).tobytes())
    if terminated or truncated:
        h.update(np.ascontiguousarray(final_obs).tobytes())


def sync_hashes(game, n, steps, seed):
    vec = rg.make_vec(game, num_envs=n, num_threads=2, seed=seed)
    obs, info = vec.reset(seed=seed)
    hashes = [hashlib.sha256() for _ in range(n)]
    rewards = np.zeros((n, vec.num_players), np.float32)
    terminated = truncated = np.zeros(n, bool)
    finished = 0
    for step in range(steps + 1):
        for i in range(n):
            add(hashes, i, obs["observation"][i], obs["action_mask"][i], rewards[i], terminated[i], truncated[i],
                info["final_obs"][i])
        if step == steps:
            break
        actions = [policy(i, step, obs["observation"][i], obs["action_mask"][i]) for i in range(n)]
        obs, rewards, terminated, truncated, info = vec.step(np.asarray(actions))
        finished += int(info["_final_obs"].sum())
    return [h.hexdigest() for h in hashes], finished


def async_hashes(game, n, steps, seed, batch_size, threads, order):
    vec = rg.make_vec(game, num_envs=n, num_threads=threads, seed=seed, batch_size=batch_size)
    obs, info = vec.reset(seed=seed)
    rewards = np.zeros((batch_size, vec.num_players), np.float32)
    terminated = truncated = np.zeros(batch_size, bool)
    hashes = [hashlib.sha256() for _ in range(n)]
    taken = [0] * n
    held = []
    while min(taken) <= steps:
        ids, actions = [], []
        for j, i in enumerate(info["env_id"]):
            i = int(i)
            if taken[i] <= steps:
                add(hashes, i, obs["observation"][j], obs["action_mask"][j], rewards[j], terminated[j],
                    truncated[j], info["final_obs"][j])
            actions.append(policy(i, taken[i], obs["observation"][j], obs["action_mask"][j]))
            ids.append(i)
            taken[i] += 1
        if order == "reversed":
            vec.send(actions[::-1], ids[::-1])
        elif order == "one_by_one":
            for a, i in zip(actions, ids):
                vec.send([a], [i])
        elif order == "hold_one_back":  # this batch's first env waits a round
            if held:
                vec.send([held[1]], [held[0]])
            held = [ids[0], actions[0]]
            vec.send(actions[1:], ids[1:])
        else:
            vec.send(actions, ids)
        obs, rewards, terminated, truncated, info = vec.recv()
    vec.close()
    return [h.hexdigest() for h in hashes]


@pytest.mark.parametrize("game", ["rocket_squad", "lift_off"])
def test_each_env_plays_the_sync_envs_games_whatever_the_order_it_completes_in(game):
    n, steps, seed = 5, 400, 9
    expected, finished = sync_hashes(game, n, steps, seed)
    assert finished > 0  # the hashes cover final views and auto-resets
    for order in ("as_received", "reversed", "one_by_one", "hold_one_back"):
        # One thread: the envs complete in the order they were sent, so each order gives other
        # batches, deterministically; three threads: whatever order the scheduler makes.
        for threads in (1, 3):
            assert async_hashes(game, n, steps, seed, 2, threads, order) == expected, (order, threads)


@pytest.mark.parametrize("game", GAMES)
def test_batch_size_equal_to_num_envs_runs_as_the_sync_env(game):
    n = 4
    sync = rg.make_vec(game, num_envs=n, num_threads=2, seed=3)
    vec = rg.make_vec(game, num_envs=n, num_threads=2, seed=3, batch_size=n)
    assert vec.batch_size == n and isinstance(vec, rg.AsyncVectorEnv)
    s_obs, s_info = sync.reset(seed=3)
    a_obs, a_info = vec.reset(seed=3)
    finished = 0
    for _ in range(800):
        np.testing.assert_array_equal(a_info["env_id"], np.arange(n))
        np.testing.assert_array_equal(a_obs["observation"], s_obs["observation"])
        np.testing.assert_array_equal(a_obs["action_mask"], s_obs["action_mask"])
        np.testing.assert_array_equal(a_info["current_player"], s_info["current_player"])
        np.testing.assert_array_equal(a_info["episode_steps"], s_info["episode_steps"])
        actions = vec.sample_actions()
        np.testing.assert_array_equal(actions, sync.sample_actions())
        s_obs, s_rewards, s_term, s_trunc, s_info = sync.step(actions)
        a_obs, a_rewards, a_term, a_trunc, a_info = vec.step(actions)
        np.testing.assert_array_equal(a_rewards, s_rewards)
        np.testing.assert_array_equal(a_term, s_term)
        np.testing.assert_array_equal(a_trunc, s_trunc)
        done = a_info["_final_obs"]
        np.testing.assert_array_equal(done, s_info["_final_obs"])
        np.testing.assert_array_equal(a_info["final_obs"][done], s_info["final_obs"][done])
        finished += int(done.sum())
    assert finished > 0


def test_a_batch_is_read_only_views_of_the_ring_made_once_per_block():
    vec = rg.make_vec("lift_off", num_envs=4, batch_size=2, num_threads=2, seed=0)
    obs, info = vec.reset()
    assert not obs["observation"].flags.writeable and not info["env_id"].flags.writeable
    first = obs["observation"]
    seen = {id(first)}
    for _ in range(12):
        vec.send(vec.sample_actions())
        obs, rewards, terminated, truncated, info = vec.recv()
        assert obs["observation"].shape == (2,) + vec.observation_shape
        assert rewards.shape == (2, vec.num_players) and info["final_obs"].shape[:2] == (2, vec.num_players)
        seen.add(id(obs["observation"]))
    # The ring has num_envs / batch_size + 1 blocks: the same few arrays come back, no new ones.
    assert len(seen) == 3


def test_bad_arguments_name_themselves_and_change_nothing():
    with pytest.raises(rg.Error, match=r"batch_size must be in \[1, num_envs \(4\)\], got 0"):
        rg.make_vec("lift_off", num_envs=4, batch_size=0)
    with pytest.raises(rg.Error, match=r"batch_size .* got 5"):
        rg.make_vec("lift_off", num_envs=4, batch_size=5)
    with pytest.raises(rg.Error, match=r"batch_size .* got 1180591620717411303424"):
        rg.make_vec("lift_off", num_envs=4, batch_size=2**70)
    with pytest.raises(TypeError, match="batch_size"):
        rg.make_vec("lift_off", num_envs=4, batch_size=2.0)
    with pytest.raises(rg.Error, match="num_threads"):
        rg.make_vec("lift_off", num_envs=4, batch_size=2, num_threads=0)
    with pytest.raises(rg.Error, match="opponents"):
        rg.make_vec("lift_off", num_envs=4, batch_size=2, opponents=["random"])

    vec = rg.make_vec("lift_off", num_envs=4, batch_size=2, num_threads=2, seed=1)
    with pytest.raises(rg.Error, match="send before recv"):
        vec.send([0, 0])
    with pytest.raises(rg.Error, match="send before recv"):
        vec.send([0], [0])
    obs, info = vec.reset(seed=1)
    np.testing.assert_array_equal(info["env_id"], [0, 1])
    actions = vec.sample_actions()
    with pytest.raises(rg.Error, match="env_ids: env 0 appears more than once"):
        vec.send(actions, [0, 0])
    with pytest.raises(rg.Error, match=r"env_ids: env 7 out of range \[0, 3\]"):
        vec.send(actions, [0, 7])
    # Unsigned ids and actions are named as sent (2**64 - 1 is not -1).
    with pytest.raises(rg.Error, match=rf"env_ids: env {2**64 - 1} out of range \[0, 3\]"):
        vec.send(actions, np.array([0, 2**64 - 1], dtype=np.uint64))
    with pytest.raises(rg.IllegalAction, match=rf"env 1: action {2**63} out of range"):
        vec.send(np.array([0, 2**63], dtype=np.uint64), [0, 1])
    with pytest.raises(rg.Error, match="env_ids: env 2 does not await an action"):
        vec.send(actions, [0, 2])
    with pytest.raises(TypeError, match="env_ids must be an integer array"):
        vec.send(actions, [0.0, 1.0])
    with pytest.raises(ValueError, match="env_ids must have shape"):
        vec.send(actions, [[0, 1]])
    with pytest.raises(ValueError, match=r"actions must have shape \(1,\)"):
        vec.send(actions, [0])
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(rg.IllegalAction, match="env 1: action"):
        vec.send([actions[0], illegal], [0, 1])
    with pytest.raises(rg.IllegalAction, match="env 1: action 9999"):
        vec.send(np.asarray([actions[0], 9999], np.int64), [0, 1])
    with pytest.raises(rg.Error, match="env 3 is being stepped"):
        vec.state(3)
    # Nothing was sent: both still await their action.
    vec.send([actions[0]], [0])
    with pytest.raises(rg.Error, match="sent already"):
        vec.sample_actions()
    _, _, _, _, info = vec.recv()  # envs 2 and 3, ready since the reset
    np.testing.assert_array_equal(info["env_id"], [2, 3])
    with pytest.raises(rg.Error, match=r"recv: only 1 envs .* fewer than batch_size 2"):
        vec.recv()  # only env 0 is being stepped: it would wait for ever
    vec.send([actions[1]], [1])
    _, _, _, _, info = vec.recv()
    assert sorted(info["env_id"].tolist()) == [0, 1]


def test_state_render_close_and_pickle():
    vec = rg.make_vec("rocket_squad", num_envs=3, batch_size=3, seed=4, render_mode="ansi")
    sync = rg.make_vec("rocket_squad", num_envs=3, seed=4, render_mode="ansi")
    vec.reset(seed=4)
    sync.reset(seed=4)
    assert vec.state(2).to_json() == sync.state(2).to_json()
    assert vec.render() == sync.render()
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(vec)
    assert "batch_size=3" in repr(vec)
    with vec:
        pass
    assert vec.closed and "closed" in repr(vec)
    with pytest.raises(rg.Error, match="closed"):
        vec.recv()
    vec.close()  # again: nothing
