"""The arena plays the same games as before the player redesign (issue 25).

tests/data/arena_golden/<game>.games.csv were recorded, before training/players/ existed, with
    rocketgym arena --game G --players 2 --agent heuristic --agent random --agent ismcts:30
        --games 10 --seed 4242 --threads 1 --output DIR --no-plot --quiet
The same command, and the same with other thread and batch counts, must give that games.csv byte
for byte: a player's randomness comes from the seed, the game and the move only.
"""
import pathlib
import subprocess

import pytest

import rocketgym as rg

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "data" / "arena_golden"


def _cli():
    binary = pathlib.Path(rg.__file__).resolve().parents[1].parent / "rocketgym"  # <build>/rocketgym
    if not binary.exists():
        pytest.skip("the rocketgym binary is not built")
    return str(binary)


@pytest.mark.parametrize("golden_game", ["last_blast", "launchpad23"])
@pytest.mark.parametrize("threads", [["--threads", "1"], ["--threads", "2", "--parallel", "7"]],
                         ids=["threads1", "threads2-parallel7"])
def test_arena_games_match_the_recording(golden_game, threads, tmp_path):
    if golden_game not in rg.list_games():
        pytest.skip(f"{golden_game} is not built")
    command = [_cli(), "arena", "--game", golden_game, "--players", "2", "--agent", "heuristic", "--agent", "random",
               "--agent", "ismcts:30", "--games", "10", "--seed", "4242", *threads, "--output", str(tmp_path),
               "--no-plot", "--quiet"]
    subprocess.run(command, check=True, capture_output=True, timeout=600)
    assert (tmp_path / "games.csv").read_bytes() == (GOLDEN / f"{golden_game}.games.csv").read_bytes()
