"""`rocketgym describe GAME` (JSON, the default) and its refusals (issue 30: the CLI's JSON output
had no test). Runs ``$ROCKETGYM_BUILD_DIR/rocketgym`` (default ``<repo>/build/rocketgym``); skipped
when it is missing."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("ROCKETGYM_BUILD_DIR", REPO / "build")) / "rocketgym"
GAMES = ["last_blast", "launch_pad", "launchpad23", "lift_off", "rocket_squad"]


def describe(*args):
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}: build the rocketgym target first")
    return subprocess.run([str(BINARY), "describe", *args], capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("game", GAMES)
def test_describe_json_tiles_the_actions_and_each_observation(game):
    done = describe(game)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["id"] == game and doc["name"]
    # The action ranges cover 0 .. num_actions - 1 in order, each once.
    first = 0
    for r in doc["actions"]:
        assert r["first"] == first and r["count"] > 0 and r["says"] and r["meaning"]
        first += r["count"]
    assert first == doc["num_actions"]
    # Each player count's blocks follow one another from offset 0.
    assert doc["observation"]
    for players, blocks in doc["observation"].items():
        assert int(players) >= 1
        offset = 0
        for b in blocks:
            assert b["offset"] == offset and b["size"] > 0 and b["name"]
            assert isinstance(b["visibility"], str) and b["visibility"]
            offset += b["size"]
    assert all(key["path"] for key in doc["config_keys"])


@pytest.mark.parametrize(
    "args", [[], ["launchpad23", "--config-keys", "ppo"], ["launchpad23", "--zoo"], ["--zoo", "--config-keys", "ppo"],
             ["--zoo", "--serve-limits"]]
)
def test_describe_wants_one_of_a_game_config_keys_zoo_or_serve_limits(args):
    done = describe(*args)
    assert done.returncode != 0
    assert "name a game, --config-keys, --zoo or --serve-limits (one of them)" in done.stderr


def test_describe_names_an_unknown_game_and_the_known_ones():
    done = describe("chess")
    assert done.returncode == 1
    assert "unknown game 'chess'" in done.stderr and "launchpad23" in done.stderr
