#!/usr/bin/env python3
"""Steps per second of rocketgym driven from Python vs the same loop in C++.

For each game, with random legal actions and a vector env of --num-envs envs:

  cpp-loop     the loop of `rocketgym bench`, entirely in C++: sample_actions + step
               (VectorEnv._bench_cpp_loop, one Python call for the whole run)
  py-vector    the same loop driven from Python: vec.step(vec.sample_actions())
  py-vector-np Python picks the random legal actions itself from the shared masks
               (numpy), as a Python agent would, then vec.step(actions)
  py-single    single envs (rocketgym.make) stepped one at a time from Python,
               random legal actions from the obs["action_mask"]
  cli-bench    `rocketgym bench <game> --json` (the lead's C++ command, concrete types,
               no virtual call), when the binary is found (--cli, default build/rocketgym)

    PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/bench_vector_env.py \
        --num-envs 256 --threads 1 --seconds 3

Prints a Markdown table (steps = single-env decisions).
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

try:
    import rocketgym as rg
except ImportError:  # source checkout with the default build folder
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "build", "python"))
    import rocketgym as rg


def timed(fn, seconds):
    """Calls fn() (which returns the steps it made) until `seconds` pass, at least once however loaded
    the machine is (a rate is never 0 for want of a call); returns steps per second."""
    fn()  # warm-up
    start = time.perf_counter()
    steps = fn()
    while time.perf_counter() - start < seconds:
        steps += fn()
    return steps / (time.perf_counter() - start)


def bench_cpp_loop(game, n, players, threads, seconds):
    vec = rg.make_vec(game, n, num_players=players, num_threads=threads, seed=1)
    iterations = 64
    return timed(lambda: n * iterations if vec._env._bench_cpp_loop(iterations) >= 0 else 0, seconds)


def bench_py_vector(game, n, players, threads, seconds):
    vec = rg.make_vec(game, n, num_players=players, num_threads=threads, seed=1)
    actions = np.empty(n, dtype=np.int32)

    def run():
        for _ in range(16):
            vec.step(vec.sample_actions(actions))
        return 16 * n

    return timed(run, seconds)


def bench_py_vector_numpy(game, n, players, threads, seconds):
    vec = rg.make_vec(game, n, num_players=players, num_threads=threads, seed=1)
    rng = np.random.default_rng(1)
    masks = vec.action_masks

    def run():
        for _ in range(16):
            # Uniform among legal actions: argmax of random keys where the mask is 1.
            keys = rng.random(masks.shape, dtype=np.float32) * masks
            vec.step(keys.argmax(axis=1).astype(np.int32))
        return 16 * n

    return timed(run, seconds)


def bench_py_single(game, players, seconds):
    env = rg.make(game, num_players=players, seed=1)
    rng = np.random.default_rng(1)
    state = {"obs": env.reset()[0]}

    def run():
        obs = state["obs"]
        for _ in range(64):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.integers(legal.size)]))
            if terminated or truncated:
                obs, _ = env.reset()
        state["obs"] = obs
        return 64

    return timed(run, seconds)


def bench_cli(cli, game, n, players, threads, steps):
    """vector-env steps/s reported by `rocketgym bench`, or None when it cannot run."""
    mode = "vector_1" if threads == 1 else "vector_2"
    try:
        out = subprocess.run([cli, "bench", game, "--json", "--envs", str(n), "--players", str(players),
                              "--steps", str(int(steps)), "--modes", mode],
                             capture_output=True, text=True, timeout=600, check=True)
        result = json.loads(out.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return result.get("vector_1_thread_steps_per_s" if threads == 1 else "vector_2_threads_steps_per_s")


def main():
    parser = argparse.ArgumentParser(description="rocketgym Python vs C++ stepping benchmark")
    parser.add_argument("--games", nargs="*", default=None, help="default: every registered game")
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    default_cli = os.path.join(os.path.dirname(__file__), "..", "..", "build", "rocketgym")
    parser.add_argument("--cli", default=default_cli, help="the rocketgym binary for cli-bench ('' to skip)")
    args = parser.parse_args()
    use_cli = bool(args.cli) and os.access(args.cli, os.X_OK)

    games = args.games or rg.list_games()
    print(f"num_envs={args.num_envs} players={args.players} threads={args.threads} "
          f"(steps/s; ratio = py-vector / cpp-loop)\n")
    print("| game | cli-bench | cpp-loop | py-vector | ratio | py-vector-np | py-single |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game in games:
        cpp = bench_cpp_loop(game, args.num_envs, args.players, args.threads, args.seconds)
        vec = bench_py_vector(game, args.num_envs, args.players, args.threads, args.seconds)
        vnp = bench_py_vector_numpy(game, args.num_envs, args.players, args.threads, args.seconds)
        single = bench_py_single(game, args.players, args.seconds)
        cli = bench_cli(args.cli, game, args.num_envs, args.players, args.threads, cpp * args.seconds) \
            if use_cli and args.threads <= 2 else None
        cli_text = "n/a" if cli is None else f"{cli:,.0f}"
        print(f"| {game} | {cli_text} | {cpp:,.0f} | {vec:,.0f} | {vec / cpp:.2f} | {vnp:,.0f} | {single:,.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
