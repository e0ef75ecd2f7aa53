#!/usr/bin/env python3
"""Learner steps per second of the vector env with opponents, back to back with the plain vector env.

For each game, --num-envs envs, --threads C++ threads, random legal learner actions drawn in C++
(``vec.sample_actions()``), each loop driven from Python (``vec.step(vec.sample_actions())``):

  plain        rg.make_vec(game, n): every step is one decision in every env, whoever's seat it
               is; decisions/s counts them all (what a self-play learner gets)
  heuristic    rg.make_vec(game, n, opponents=["heuristic"]): every step is one learner decision
               per env, the opponents' moves played in C++ inside it; learner steps/s
  zoo network  opponents=["zoo:<game>:0"], the zoo bot's raw network (one batched forward pass
               per round of opponent moves), where the game has a zoo bot; learner steps/s

The measurements of a game run one after the other, so a loaded machine slows them alike; the ratio
heuristic / plain is the figure docs/opponents.md records.

    PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/bench_opponents.py --threads 2

Prints a Markdown table.
"""

import argparse
import os
import sys
import time

try:
    import rocketgym as rg
except ImportError:  # source checkout with the default build folder
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "build", "python"))
    import rocketgym as rg


def rate(vec, seconds):
    """Learner (or plain) steps per second: vec.step(vec.sample_actions()) until `seconds` pass."""
    vec.step(vec.sample_actions())  # warm-up (OpenMP threads, network buffers)
    steps, start = 0, time.perf_counter()
    while True:
        for _ in range(8):
            vec.step(vec.sample_actions())
        steps += 8 * vec.num_envs
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=None, help="default: every registered game")
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args()

    print(f"{args.num_envs} envs, {args.players} players, {args.threads} threads, {args.seconds:g} s per figure\n")
    print("| game | plain (decisions/s) | vs heuristic (learner steps/s) | heuristic / plain | "
          "vs zoo network (learner steps/s) |")
    print("|---|---:|---:|---:|---:|")
    for game in args.games or rg.list_games():
        common = dict(num_players=args.players, num_threads=args.threads, seed=1)
        plain = rate(rg.make_vec(game, args.num_envs, **common), args.seconds)
        heuristic = rate(rg.make_vec(game, args.num_envs, opponents=["heuristic"], **common), args.seconds)
        try:  # a game without a zoo bot, or one trained for another player count
            against_zoo = rg.make_vec(game, args.num_envs, opponents=[f"zoo:{game}:0"], **common)
            zoo = f"{rate(against_zoo, args.seconds):,.0f}"
        except rg.Error:
            zoo = "no zoo bot"
        print(f"| {game} | {plain:,.0f} | {heuristic:,.0f} | {heuristic / plain:.2f} | {zoo} |", flush=True)


if __name__ == "__main__":
    main()
