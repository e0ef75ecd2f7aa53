"""rocketgym.make_vec: batched C++ stepping with zero-copy numpy arrays."""

import gc
import pathlib
import subprocess
import sys
import threading

import numpy as np
import pytest

import rocketgym as rg

PACKAGE_DIR = str(pathlib.Path(rg.__file__).resolve().parents[1])

N = 8


def make(game_id, num_players=2, **kw):
    kw.setdefault("seed", 7)
    return rg.make_vec(game_id, N, num_players=num_players, **kw)


def step_until_an_env_finishes(vec, max_steps=100_000):
    """Steps with random legal actions until some env ends; returns the step results of that step."""
    for _ in range(max_steps):
        result = vec.step(vec.sample_actions())
        if result[2].any() or result[3].any():
            return result
    raise AssertionError("no env finished")


def test_arrays_have_documented_shapes_and_dtypes(game_id, num_players):
    vec = make(game_id, num_players)
    shape = tuple(rg.load_game(game_id).observation_shape(num_players))
    A = rg.game_info(game_id).num_actions
    assert vec.observations.shape == (N, *shape) and vec.observations.dtype == np.float32
    assert vec.action_masks.shape == (N, A) and vec.action_masks.dtype == np.int8
    assert vec.current_players.shape == (N,) and vec.current_players.dtype == np.int32
    assert vec.rewards.shape == (N, num_players) and vec.rewards.dtype == np.float32
    assert vec.terminated.dtype == np.bool_ and vec.truncated.dtype == np.bool_
    assert vec.episode_steps.dtype == np.int32
    assert vec.single_action_space.n == A
    assert vec.single_observation_space["observation"].shape == shape


def test_step_returns_the_same_buffers_without_copying(game_id):
    vec = make(game_id)
    obs, info = vec.reset()
    addresses = [a.ctypes.data for a in (obs["observation"], obs["action_mask"], info["current_player"])]
    for _ in range(5):
        obs2, rewards, terminated, truncated, info2 = vec.step(vec.sample_actions())
        assert obs2["observation"] is vec.observations and rewards is vec.rewards
        assert [a.ctypes.data for a in (obs2["observation"], obs2["action_mask"], info2["current_player"])] == addresses
    # The raw views made by the C++ object point at the same memory, always.
    assert vec._env.observations.ctypes.data == addresses[0]


def test_buffers_are_read_only(game_id):
    vec = make(game_id)
    for array in (vec.observations, vec.action_masks, vec.current_players, vec.rewards, vec.terminated):
        with pytest.raises(ValueError, match="read-only"):
            array.flat[0] = 1


def test_views_keep_the_env_alive(game_id):
    vec = make(game_id)
    observations, masks = vec.observations, vec.action_masks
    expected = observations.copy()
    del vec
    gc.collect()
    np.testing.assert_array_equal(observations, expected)  # still valid memory
    assert masks.any()


def test_arrays_describe_each_envs_state(game_id, num_players):
    vec = make(game_id, num_players)
    for _ in range(3):
        vec.step(vec.sample_actions())
    for i in range(N):
        state = vec.state(i)
        assert vec.current_players[i] == state.current_player
        np.testing.assert_array_equal(vec.action_masks[i], state.legal_actions_mask())
        np.testing.assert_array_equal(vec.observations[i], state.observation(state.current_player))
    with pytest.raises(rg.Error, match="out of range"):
        vec.state(N)


def test_env_i_replays_alone_from_its_documented_seed(game_id, num_players):
    vec = rg.make_vec(game_id, N, num_players=num_players, seed=123)
    game = rg.load_game(game_id)
    for i in (0, N - 1):
        episode_seed = rg.derive_seed(rg.derive_seed(123, i), 0)
        assert vec.state(i).to_json() == game.new_state(num_players, episode_seed).to_json()


def test_auto_reset_reports_final_rewards_once(game_id, num_players):
    vec = make(game_id, num_players)
    obs, rewards, terminated, truncated, info = step_until_an_env_finishes(vec)
    done = terminated | truncated
    assert not (terminated & truncated).any()
    # Rewards only where a game ended, zero-sum there, zero for truncated games.
    assert not rewards[~done].any()
    np.testing.assert_allclose(rewards[done].sum(axis=1), 0.0, atol=1e-4)
    assert not rewards[truncated].any()
    # The finished envs already show their next game.
    assert (info["episode_steps"][done] == 0).all()
    assert (info["current_player"][done] >= 0).all() and obs["action_mask"][done].any(axis=1).all()
    finished = np.flatnonzero(done)
    vec.step(vec.sample_actions())
    assert not vec.rewards[finished].any() or vec.terminated[finished].any()


def test_results_do_not_depend_on_the_number_of_threads(game_id):
    one = make(game_id, num_threads=1)
    two = make(game_id, num_threads=2)
    for _ in range(30):
        actions = one.sample_actions()
        np.testing.assert_array_equal(actions, two.sample_actions())
        one.step(actions)
        two.step(actions)
    np.testing.assert_array_equal(one.observations, two.observations)
    np.testing.assert_array_equal(one.rewards, two.rewards)
    two.num_threads = 1
    assert two.num_threads == 1


def test_reset_with_a_seed_restarts_identically(game_id):
    vec = make(game_id, seed=5)
    first = vec.observations.copy()
    for _ in range(4):
        vec.step(vec.sample_actions())
    vec.reset(seed=5)
    np.testing.assert_array_equal(vec.observations, first)
    vec.reset()  # no seed: a new, different sequence of games
    assert vec.state(0).to_json() != rg.make_vec(game_id, N, seed=5).state(0).to_json()


def test_reset_zeroes_episode_steps(game_id):
    vec = make(game_id)
    for _ in range(2):
        vec.step(vec.sample_actions())
    vec.reset(seed=1)
    assert not vec.episode_steps.any()


def test_sampled_and_heuristic_actions_are_legal(game_id, num_players):
    vec = make(game_id, num_players)
    for choose in (vec.sample_actions, vec.heuristic_actions):
        actions = choose()
        assert actions.dtype == np.int32 and actions.shape == (N,)
        assert vec.action_masks[np.arange(N), actions].all()
        out = np.empty(N, dtype=np.int32)
        assert choose(out) is not None and vec.action_masks[np.arange(N), out].all()
    with pytest.raises(TypeError, match="int32"):
        vec.sample_actions(np.empty(N, dtype=np.int64))
    with pytest.raises(ValueError, match="shape"):
        vec.sample_actions(np.empty(N + 1, dtype=np.int32))


def test_other_integer_dtypes_and_layouts_are_accepted(game_id):
    a, b = make(game_id), make(game_id)
    actions = a.sample_actions()
    a.step(actions)
    strided = np.zeros(2 * N, dtype=np.int32)
    strided[::2] = actions
    b.step(strided[::2])
    np.testing.assert_array_equal(a.observations, b.observations)
    a.step(a.sample_actions().astype(np.int64))
    a.step(a.sample_actions().astype(np.uint16))
    a.step(a.sample_actions().tolist())


@pytest.mark.parametrize("actions, error, match", [
    (np.zeros(N, dtype=np.float32), TypeError, "integer"),
    (np.zeros(N, dtype=bool), TypeError, "integer"),
    (["a"] * N, TypeError, "integer"),
    (np.zeros(N + 1, dtype=np.int32), ValueError, "shape"),
    (np.zeros((N, 1), dtype=np.int32), ValueError, "shape"),
    (np.int32(0), ValueError, "shape"),
])
def test_bad_actions_are_rejected_before_stepping(game_id, actions, error, match):
    vec = make(game_id)
    before = vec.observations.copy()
    with pytest.raises(error, match=match):
        vec.step(actions)
    np.testing.assert_array_equal(vec.observations, before)
    assert not vec.episode_steps.any()


@pytest.mark.parametrize("value", [-1, 10**6, 2**40, -(2**62)])
def test_out_of_range_action_names_the_env_and_steps_nothing(game_id, value):
    for dtype in (np.int32, np.int64):
        if np.iinfo(dtype).max < abs(value):
            continue
        vec = make(game_id)
        actions = vec.sample_actions().astype(dtype)
        actions[3] = value
        with pytest.raises(rg.IllegalAction, match="env 3.*out of range"):
            vec.step(actions)
        assert not vec.episode_steps.any()


@pytest.mark.parametrize("value", [2**64 - 1, 2**63, 2**32])
def test_unsigned_action_out_of_range_is_named_as_sent_not_wrapped(game_id, value):
    vec = make(game_id)
    actions = vec.sample_actions().astype(np.uint64)
    actions[3] = value
    with pytest.raises(rg.IllegalAction, match=rf"env 3: action {value} out of range"):
        vec.step(actions)
    assert not vec.episode_steps.any()


def test_illegal_action_names_the_env_and_steps_nothing(game_id):
    vec = make(game_id)
    actions = vec.sample_actions()
    illegal = np.flatnonzero(vec.action_masks[5] == 0)
    if illegal.size == 0:
        pytest.skip("every action is legal")
    actions[5] = illegal[0]
    with pytest.raises(rg.IllegalAction, match="env 5"):
        vec.step(actions)
    assert not vec.episode_steps.any()


def test_bad_constructor_arguments(game_id):
    with pytest.raises(rg.Error, match="num_envs"):
        rg.make_vec(game_id, 0)
    with pytest.raises(rg.Error, match="num_threads"):
        rg.make_vec(game_id, 2, num_threads=0)
    with pytest.raises(ValueError, match="state"):
        make(game_id).reset(options={"state": "{}"})
    vec = make(game_id)
    with pytest.raises(rg.Error, match="num_threads"):
        vec.num_threads = 0
    # Issue 55: numbers past C++'s int, or past rocketgym's one limit, are refused naming the range.
    for n in (2**31, 2**40, 65537):
        with pytest.raises(rg.Error, match=r"num_envs must be in \[1, 65536\]"):
            rg.make_vec(game_id, n)
    for n in (2**31, rg.max_threads() + 1):
        with pytest.raises(rg.Error, match=r"num_threads must be in \[1, 256\]"):
            rg.make_vec(game_id, 2, num_threads=n)
    assert rg.max_threads() == 256  # the arena's and training's limit too


def test_step_releases_the_gil(game_id):
    # No clock: the step is held, GIL released, until another Python thread lets it go. That thread
    # can run only if step() released the GIL; if it did not, the child hangs and its timeout fails
    # the test.
    code = f"""
import sys, threading
sys.path.insert(0, {PACKAGE_DIR!r})
import rocketgym as rg
vec = rg.make_vec({game_id!r}, 16, seed=1)
vec._env._hold_next_step()
released = []
def releaser():
    while not vec._env._release_held_step():
        pass  # until step() waits at the gate
    released.append(True)
thread = threading.Thread(target=releaser)
thread.start()
vec.step(vec.sample_actions())
thread.join()
print(len(released))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1"]


def test_concurrent_use_of_one_env_is_an_error_not_a_crash(game_id):
    # Both outcomes forced, not left to the scheduler: a second thread steps the env while the first
    # is inside step() (the test hook runs there) and gets the error; after that step, the same call
    # from another thread goes through.
    vec = rg.make_vec(game_id, 8, seed=1)
    actions = vec.sample_actions()
    errors, steps = [], []

    def intruder(chosen):
        try:
            vec.step(vec.sample_actions() if chosen is None else chosen)
            steps.append(True)
        except RuntimeError as e:
            errors.append(str(e))

    def inside_step():
        other = threading.Thread(target=intruder, args=(actions,))
        other.start()
        other.join()

    vec._env._after_actions_copied = inside_step
    vec.step(actions)
    vec._env._after_actions_copied = None
    assert len(errors) == 1 and "another thread" in errors[0] and steps == []
    later = threading.Thread(target=intruder, args=(None,))
    later.start()
    later.join()
    assert len(errors) == 1 and steps == [True]


@pytest.mark.parametrize("choose", ["sample_actions", "heuristic_actions"])
def test_actions_chosen_into_out_are_those_returned_without_it(game_id, choose):
    # The same seed chooses the same actions, whether into a caller's array or a new one.
    into, fresh = rg.make_vec(game_id, 4, seed=7), rg.make_vec(game_id, 4, seed=7)
    out = np.full(4, -1, dtype=np.int32)
    returned = getattr(into, choose)(out)
    assert returned is out or np.shares_memory(returned, out)
    assert np.array_equal(out, getattr(fresh, choose)())
    assert all(into.action_masks[i, a] for i, a in enumerate(out))


@pytest.mark.parametrize("choose", ["sample_actions", "heuristic_actions"])
def test_a_wrong_out_array_is_refused_and_left_unwritten(game_id, choose):
    vec = rg.make_vec(game_id, 4, seed=7)
    method = getattr(vec, choose)
    with pytest.raises(TypeError, match="int32"):
        method(np.zeros(4, dtype=np.int64))
    with pytest.raises(TypeError, match="int32"):
        method([0, 0, 0, 0])
    for bad in (np.zeros(3, dtype=np.int32), np.zeros((4, 1), dtype=np.int32),
                np.zeros(8, dtype=np.int32)[::2]):
        with pytest.raises(ValueError, match=r"shape \(4,\)"):
            method(bad)
        assert not bad.any()
    read_only = np.zeros(4, dtype=np.int32)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        method(read_only)
