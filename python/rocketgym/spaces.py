"""Observation and action spaces.

When ``gymnasium`` is importable the envs use its real space classes (so
wrappers and checkers that test ``isinstance(space, gymnasium.spaces.Box)``
work). Without it they use the small classes below, which have the same
attributes and methods that RL code usually touches: ``shape``, ``dtype``,
``n``, ``low``/``high``, ``sample(mask=None)``, ``contains``/``in``, ``seed``.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

import numpy as np

try:  # pragma: no cover - depends on the installation
    import gymnasium as _gymnasium
    from gymnasium import spaces as _gym_spaces
except ImportError:  # pragma: no cover
    _gymnasium = None
    _gym_spaces = None

#: True when the envs build gymnasium's own spaces.
USING_GYMNASIUM = _gymnasium is not None


class Space:
    """Base of the built-in spaces: a shape, a dtype and a seeded sampler."""

    def __init__(self, shape, dtype, seed: Optional[int] = None):
        self.shape = None if shape is None else tuple(int(d) for d in shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random = np.random.default_rng(seed)

    @property
    def np_random(self) -> np.random.Generator:
        return self._np_random

    def seed(self, seed: Optional[int] = None):
        self._np_random = np.random.default_rng(seed)
        return [seed]

    def sample(self, mask=None):  # pragma: no cover - overridden
        raise NotImplementedError

    def contains(self, x) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def __contains__(self, x) -> bool:
        return self.contains(x)


class Discrete(Space):
    """The integers ``start .. start + n - 1`` (an action id)."""

    def __init__(self, n: int, seed: Optional[int] = None, start: int = 0):
        if int(n) < 1:
            raise ValueError(f"Discrete needs n >= 1, got {n}")
        super().__init__((), np.int64, seed)
        self.n = int(n)
        self.start = int(start)

    def sample(self, mask=None) -> int:
        """A uniform element; with ``mask`` (int8 array of n), among the 1 entries."""
        if mask is None:
            return self.start + int(self._np_random.integers(self.n))
        mask = np.asarray(mask)
        if mask.shape != (self.n,):
            raise ValueError(f"mask must have shape ({self.n},), got {mask.shape}")
        allowed = np.flatnonzero(mask)
        if allowed.size == 0:
            return self.start
        return self.start + int(self._np_random.choice(allowed))

    def contains(self, x) -> bool:
        if isinstance(x, (bool, np.bool_)):
            return False
        if isinstance(x, (int, np.integer)) or (isinstance(x, np.ndarray) and x.shape == () and x.dtype.kind in "iu"):
            return self.start <= int(x) < self.start + self.n
        return False

    def __repr__(self) -> str:
        return f"Discrete({self.n})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Discrete) and other.n == self.n and other.start == self.start


class Box(Space):
    """An array of ``shape`` and ``dtype`` with values in ``[low, high]``."""

    def __init__(self, low, high, shape=None, dtype=np.float32, seed: Optional[int] = None):
        dtype = np.dtype(dtype)
        if shape is None:
            shape = np.shape(low)
        super().__init__(shape, dtype, seed)
        self.low = np.full(self.shape, low, dtype=dtype)
        self.high = np.full(self.shape, high, dtype=dtype)

    def sample(self, mask=None) -> np.ndarray:
        if self.dtype.kind == "f":
            low = np.where(np.isfinite(self.low), self.low, -1.0)
            high = np.where(np.isfinite(self.high), self.high, 1.0)
            return self._np_random.uniform(low, high, size=self.shape).astype(self.dtype)
        return self._np_random.integers(self.low, self.high, size=self.shape, endpoint=True).astype(self.dtype)

    def contains(self, x) -> bool:
        if not isinstance(x, np.ndarray) or x.shape != self.shape:
            return False
        if not np.can_cast(x.dtype, self.dtype):
            return False
        return bool(np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self) -> str:
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, Box) and other.shape == self.shape and other.dtype == self.dtype
                and np.array_equal(other.low, self.low) and np.array_equal(other.high, self.high))


class Dict(Space):
    """A mapping of named spaces; elements are dicts with the same keys."""

    def __init__(self, spaces: Mapping[str, Space], seed: Optional[int] = None):
        super().__init__(None, None, seed)
        self.spaces = dict(spaces)

    def __getitem__(self, key: str) -> Space:
        return self.spaces[key]

    def keys(self):
        return self.spaces.keys()

    def items(self):
        return self.spaces.items()

    def seed(self, seed: Optional[int] = None):
        super().seed(seed)
        for i, space in enumerate(self.spaces.values()):
            space.seed(None if seed is None else seed + i)
        return [seed]

    def sample(self, mask=None) -> dict:
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x) -> bool:
        return (isinstance(x, Mapping) and set(x.keys()) == set(self.spaces)
                and all(s.contains(x[k]) for k, s in self.spaces.items()))

    def __repr__(self) -> str:
        return "Dict(" + ", ".join(f"{k!r}: {s!r}" for k, s in self.spaces.items()) + ")"


class MultiDiscrete(Space):
    """One action id per env: ``nvec[i]`` ids for env i (what a batch of ``Discrete`` spaces makes)."""

    def __init__(self, nvec, seed: Optional[int] = None):
        nvec = np.asarray(nvec, dtype=np.int64)
        super().__init__(nvec.shape, np.int64, seed)
        self.nvec = nvec

    def sample(self, mask=None) -> np.ndarray:
        """Uniform ids, one per entry (``mask`` is not supported here; gymnasium's class takes one)."""
        if mask is not None:
            raise NotImplementedError("rocketgym.spaces.MultiDiscrete.sample takes no mask")
        return self._np_random.integers(0, self.nvec).astype(self.dtype)

    def contains(self, x) -> bool:
        x = np.asarray(x)
        return x.shape == self.shape and x.dtype.kind in "iu" and bool(np.all((x >= 0) & (x < self.nvec)))

    def __repr__(self) -> str:
        return f"MultiDiscrete({self.nvec.tolist()})"

    def __eq__(self, other) -> bool:
        return isinstance(other, MultiDiscrete) and np.array_equal(other.nvec, self.nvec)


def discrete(n: int) -> Any:
    """An action space of ``n`` ids (gymnasium's class when available)."""
    return _gym_spaces.Discrete(n) if USING_GYMNASIUM else Discrete(n)


def observation_space(shape, num_actions: int, batch: Optional[int] = None) -> Any:
    """The envs' observation space: ``{"observation": float32 Box, "action_mask": int8 Box}`` (the mask
    of shape ``(batch, num_actions)`` when ``batch`` is given)."""
    mask_shape = (num_actions,) if batch is None else (batch, num_actions)
    if USING_GYMNASIUM:
        return _gym_spaces.Dict({
            "observation": _gym_spaces.Box(-np.inf, np.inf, tuple(shape), np.float32),
            "action_mask": _gym_spaces.Box(0, 1, mask_shape, np.int8),
        })
    return Dict({
        "observation": Box(-np.inf, np.inf, tuple(shape), np.float32),
        "action_mask": Box(0, 1, mask_shape, np.int8),
    })


def batched_observation_space(shape, num_actions: int, num_envs: int) -> Any:
    """The vector env's observation space: ``observation_space`` with a leading ``num_envs`` axis on
    both arrays (what ``gymnasium.vector.utils.batch_space`` makes of it)."""
    return observation_space((num_envs,) + tuple(shape), num_actions, batch=num_envs)


def batched_discrete(n: int, num_envs: int) -> Any:
    """The vector env's action space: ``MultiDiscrete([n] * num_envs)`` (gymnasium's class when available)."""
    nvec = np.full(num_envs, n, dtype=np.int64)
    return _gym_spaces.MultiDiscrete(nvec) if USING_GYMNASIUM else MultiDiscrete(nvec)
