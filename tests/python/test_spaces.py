"""The built-in space classes used when gymnasium is not installed."""

import numpy as np
import pytest

from rocketgym import spaces


def test_discrete_samples_only_unmasked_actions():
    space = spaces.Discrete(6, seed=1)
    mask = np.array([0, 1, 0, 0, 1, 0], dtype=np.int8)
    assert {space.sample(mask) for _ in range(200)} == {1, 4}
    assert {space.sample() for _ in range(500)} == set(range(6))
    with pytest.raises(ValueError, match="shape"):
        space.sample(np.ones(5, dtype=np.int8))


def test_discrete_membership():
    space = spaces.Discrete(3)
    assert 0 in space and 2 in space and np.int64(1) in space and np.array(2) in space
    assert 3 not in space and -1 not in space and 1.0 not in space and True not in space
    assert space == spaces.Discrete(3) and space != spaces.Discrete(4)
    assert space.n == 3 and space.shape == () and "Discrete(3)" == repr(space)
    with pytest.raises(ValueError):
        spaces.Discrete(0)


def test_seeded_sampling_is_reproducible():
    a, b = spaces.Discrete(100, seed=7), spaces.Discrete(100)
    b.seed(7)
    assert [a.sample() for _ in range(10)] == [b.sample() for _ in range(10)]


def test_box_bounds_dtype_and_membership():
    box = spaces.Box(0, 1, (3,), np.int8, seed=0)
    assert box.shape == (3,) and box.dtype == np.int8
    assert np.array([0, 1, 1], dtype=np.int8) in box
    assert np.array([0, 2, 1], dtype=np.int8) not in box  # above high
    assert np.array([0, 1], dtype=np.int8) not in box  # wrong shape
    assert np.array([0.0, 1.0, 1.0]) not in box  # float64 does not fit int8
    assert box.sample() in box


def test_unbounded_float_box_samples_finite_values():
    box = spaces.Box(-np.inf, np.inf, (2, 2), np.float32, seed=0)
    sample = box.sample()
    assert sample.dtype == np.float32 and np.isfinite(sample).all() and sample in box


def test_dict_space_holds_the_env_observation_layout():
    space = spaces.observation_space((4, 2), 5)
    if spaces.USING_GYMNASIUM:
        pytest.skip("gymnasium supplies the spaces")
    assert isinstance(space, spaces.Dict)
    assert set(space.keys()) == {"observation", "action_mask"}
    obs = {"observation": np.zeros((4, 2), np.float32), "action_mask": np.ones(5, np.int8)}
    assert obs in space
    assert {"observation": obs["observation"]} not in space
    assert space.sample() in space
    assert space["action_mask"].shape == (5,)
