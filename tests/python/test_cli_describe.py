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


def registry_games():
    """The games the binary was built with (`rocketgym list --json`: the game registry); [] without it."""
    if not BINARY.exists():
        return []
    done = subprocess.run([str(BINARY), "list", "--json"], capture_output=True, text=True, check=True)
    return [game["id"] for game in json.loads(done.stdout)]


GAMES = registry_games()


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
             ["--zoo", "--serve-limits"], ["--agent-kinds", "--zoo"], ["launchpad23", "--agent-kinds"]]
)
def test_describe_wants_one_of_a_game_config_keys_zoo_serve_limits_or_agent_kinds(args):
    done = describe(*args)
    assert done.returncode != 0
    assert "name a game, --config-keys, --zoo, --serve-limits or --agent-kinds (one of them)" in done.stderr


def test_describe_agent_kinds_lists_every_kind_once():
    """The kinds of player from their one list (training/players/kinds.h): JSON, and the Markdown of
    docs/agents.md's grammar table."""
    done = describe("--agent-kinds")
    assert done.returncode == 0, done.stderr
    kinds = json.loads(done.stdout)
    names = [k["name"] for k in kinds]
    assert len(names) == len(set(names)) and "human" in names and "zoo" in names
    assert [k["name"] for k in kinds if not k["agent"]] == ["human"]
    table = describe("--agent-kinds", "--markdown").stdout
    assert table.startswith("| spec | YAML keys | who plays |")
    assert all(f"`{k['form']}`" in table.replace("\\|", "|") for k in kinds)


def test_describe_names_an_unknown_game_and_the_known_ones():
    done = describe("chess")
    assert done.returncode == 1
    assert "unknown game 'chess'" in done.stderr and "launchpad23" in done.stderr
