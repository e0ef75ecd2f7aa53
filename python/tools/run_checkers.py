#!/usr/bin/env python3
"""Runs Gymnasium's and PettingZoo's own API checkers on every game and player count.

    gymnasium.utils.env_checker.check_env(rg.make(game, num_players=n, illegal_action="lose"))
    pettingzoo.test.api_test(rg.aec_env(game, num_players=n), num_cycles=300)

Neither package is a Debian package; put their sources on PYTHONPATH (see docs/python.md,
"Official checkers"), together with the rocketgym build:

    PYTHONPATH=build/python:$EXT/Gymnasium:$EXT/PettingZoo:$EXT/stubs \\
        /usr/bin/python3 python/tools/run_checkers.py [--games g ...] [--cycles 300]

Prints a Markdown table (one row per game and player count) and exits non-zero if any run failed
(or 2 if the checkers cannot be imported).
"""

import argparse
import contextlib
import io
import sys
import traceback
import warnings


def import_checkers():
    try:
        from gymnasium.utils.env_checker import check_env
        from pettingzoo.test import api_test
    except ImportError as e:
        print(f"cannot import the checkers ({e}); see docs/python.md, 'Official checkers'", file=sys.stderr)
        sys.exit(2)
    return check_env, api_test


def run(check, *args, **kwargs):
    """'pass' (with the number of warnings) or 'FAIL: <last line of the error>'."""
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        try:
            check(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - every failure is reported, not raised
            detail = "".join(traceback.format_exception_only(type(e), e)).strip().splitlines()[-1]
            return False, f"FAIL: {detail}"
    return True, f"pass ({len(caught)} warnings)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=None, help="default: every registered game")
    parser.add_argument("--cycles", type=int, default=300, help="api_test num_cycles")
    args = parser.parse_args()

    check_env, api_test = import_checkers()
    import gymnasium
    import pettingzoo

    import rocketgym as rg

    if not (rg.USING_GYMNASIUM and rg.USING_PETTINGZOO):
        print("rocketgym was imported without gymnasium/pettingzoo", file=sys.stderr)
        sys.exit(2)
    print(f"gymnasium {gymnasium.__version__}, pettingzoo {pettingzoo.__version__}, "
          f"api_test num_cycles={args.cycles}\n")
    print("| game | players | gymnasium check_env (illegal_action=lose) | pettingzoo api_test |")
    print("| --- | ---: | --- | --- |")
    failures = runs = 0
    for game in args.games or rg.list_games():
        info = rg.game_info(game)
        for n in range(info.min_players, info.max_players + 1):
            ok_gym, gym_text = run(check_env, rg.make(game, num_players=n, illegal_action="lose"))
            ok_pz, pz_text = run(api_test, rg.aec_env(game, num_players=n), num_cycles=args.cycles)
            runs += 2
            failures += (not ok_gym) + (not ok_pz)
            print(f"| {game} | {n} | {gym_text} | {pz_text} |", flush=True)
    print(f"\n{runs - failures} of {runs} checker runs passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
