#!/usr/bin/env python3
"""Learner steps per second of the vector env with opponents, back to back with the plain vector env.

For each game, --num-envs envs, --threads C++ threads, each loop driven from Python:

  plain            rg.make_vec(game, n), vec.step(vec.sample_actions()): every step is one decision in
                   every env, whoever's seat it is, a random legal one drawn in C++; decisions/s
  plain heuristic  the same with vec.step(vec.heuristic_actions()): the heuristic bot on every seat,
                   the work of a game against it; decisions/s
  heuristic        rg.make_vec(game, n, opponents=["heuristic"]), vec.step(vec.sample_actions()):
                   every step is one learner decision per env and the opponents' moves that follow,
                   played in C++ inside it; learner steps/s and all decisions/s (vec.decisions_played)
  zoo network      opponents=["zoo:<game>:0"], the zoo bot's raw network (played inside the env's loop,
                   a group of up to 8 envs per forward pass), where the game has a zoo bot; learner steps/s

Two ratios compare the opponent env with the plain one. "learner / plain" (learner steps/s over plain
decisions/s) is what issue 26's target reads: with 2 players a learner step also plays about one
opponent decision, so even a free opponent gives at most about 0.5, and 0.5 means an opponent's
decision inside the env costs what a plain step does. "decisions / plain" counts every seat's
decisions of the opponent env against the plain env's: it is about twice the first, and 1.0 means
the opponent env plays a decision as fast as the plain env. Against "plain heuristic" (the same
bot on every seat) the decisions ratio isolates the opponent env's own overhead, the bot's cost
being in both.

The measurements of a game run one after the other, so a loaded machine slows them alike; the ratios
are the figures docs/opponents.md records.

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


def rate(vec, seconds, actions):
    """(steps/s, decisions/s) of vec.step(actions(vec)) for `seconds`: steps count one per env (the
    learner's decisions with opponents); decisions every seat's, where the env counts them."""
    vec.step(actions(vec))  # warm-up (OpenMP threads, network buffers)
    counted = hasattr(vec, "decisions_played")
    steps, first = 0, vec.decisions_played if counted else 0
    start = time.perf_counter()
    while True:
        for _ in range(8):
            vec.step(actions(vec))
        steps += 8 * vec.num_envs
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            decisions = vec.decisions_played - first if counted else steps
            return steps / elapsed, decisions / elapsed


def random_actions(vec):
    return vec.sample_actions()


def heuristic_actions(vec):
    return vec.heuristic_actions()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=None, help="default: every registered game")
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args()

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.num_envs} envs, {args.players} players, {args.threads} threads, {args.seconds:g} s per figure, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load}\n")
    print("| game | plain (decisions/s) | plain heuristic (decisions/s) | vs heuristic (learner steps/s) | "
          "vs heuristic (decisions/s) | learner / plain | decisions / plain | decisions / plain heuristic | "
          "vs zoo network (learner steps/s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game in args.games or rg.list_games():
        common = dict(num_players=args.players, num_threads=args.threads, seed=1)
        plain, _ = rate(rg.make_vec(game, args.num_envs, **common), args.seconds, random_actions)
        plain_bot, _ = rate(rg.make_vec(game, args.num_envs, **common), args.seconds, heuristic_actions)
        learner, decisions = rate(rg.make_vec(game, args.num_envs, opponents=["heuristic"], **common),
                                  args.seconds, random_actions)
        try:  # a game without a zoo bot, or one trained for another player count
            against_zoo = rg.make_vec(game, args.num_envs, opponents=[f"zoo:{game}:0"], **common)
            zoo = f"{rate(against_zoo, args.seconds, random_actions)[0]:,.0f}"
        except rg.Error:
            zoo = "no zoo network"
        print(f"| {game} | {plain:,.0f} | {plain_bot:,.0f} | {learner:,.0f} | {decisions:,.0f} | "
              f"{learner / plain:.2f} | {decisions / plain:.2f} | {decisions / plain_bot:.2f} | {zoo} |", flush=True)


if __name__ == "__main__":
    main()
