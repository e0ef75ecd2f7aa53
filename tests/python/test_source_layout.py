"""Rules of the source tree itself (docs/architecture.md): files small enough to read, one job each,
and a repository that stands alone."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The training side, the models, the Python package and the web page: no file over this many lines.
# A longer file mixes jobs; split it by job (as mcts.h became tree.h, root_selection.h, rollout.h).
MAX_LINES = 600
LIMITED_FOLDERS = ("training", "models", "python", "web")
SOURCE_SUFFIXES = {".cpp", ".h", ".py", ".js"}


def tracked_files():
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return [ROOT / line for line in out.splitlines()]


def test_no_source_file_of_the_training_side_is_over_600_lines():
    long_files = []
    for path in tracked_files():
        relative = path.relative_to(ROOT)
        if relative.parts[0] not in LIMITED_FOLDERS or path.suffix not in SOURCE_SUFFIXES:
            continue
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > MAX_LINES:
            long_files.append(f"{relative}: {lines} lines")
    assert not long_files, f"over {MAX_LINES} lines (split by job): " + ", ".join(long_files)


def test_the_code_and_docs_cite_only_files_of_the_repository():
    # The working material the project was written from (the rulebooks, the design guide) lies
    # outside the repository; docs/ (docs/architecture.md, docs/games/) is what the code cites.
    # The patterns are regular expressions, so that this file names no such path itself.
    outside = [re.compile(p) for p in (r"\.\./shared", r"shared/(rules|design)", r"DESIGN\.md")]
    citing = []
    for path in tracked_files():
        if path.suffix not in SOURCE_SUFFIXES | {".md", ".txt", ".yaml", ".yml", ".sh", ".html", ".css"}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        citing += [f"{path.relative_to(ROOT)} ({p.pattern})" for p in outside if p.search(text)]
    assert not citing, "cites a file outside the repository: " + ", ".join(citing)


# Lists of the games. A game is a folder games/<id>/ with its descriptor <id>_game.h: CMake registers
# every one, and code that needs the games asks the registry (C++ `Registry::instance().ids()`,
# Python `rg.list_games()`, the CLI `rocketgym list --json`, the web page `GET /api/games`). A list of
# the game ids written out goes stale when a game is added. A table that holds one entry per game on
# purpose (a recorded digest, a drawing, a zoo bot) stays only with a check against the registry,
# named here; `test_no_file_lists_the_games` finds the rest (four ids or more within a few lines).
LISTING_FOLDERS = ("tests", "web", "python", "scripts", "training", "models", "bench", "examples")
GAME_TABLES = {
    "tests/core/play_digest_test.cpp": "its loop over Registry::instance().ids() fails on a missing digest",
    "tests/core/config_record_test.cpp": "a mistake for every game of Registry::instance().ids()",
    "tests/training/zoo_test.cpp": "network_at has an entry for every game of Registry::instance().ids()",
    "tests/python/test_gymnasium_api.py": "NAMES has the keys of rg.list_games()",
    "web/boards.js": "tests/browser/test_browser.py draws every game of GET /api/games with its drawer",
    "tests/fuzz/game_fuzz.cpp": "one game's options (the others play the default); the ids name game folders, "
                                "test_the_game_tables_name_games",
    "scripts/callgrind_split.py": "the functions of each game; the ids name game folders, "
                                  "test_the_game_tables_name_games",
}
LISTING_WINDOW = 6  # lines
LISTING_IDS = 4


def game_ids():
    return sorted(p.parent.name for p in ROOT.glob("games/*/*_game.h") if p.name == p.parent.name + "_game.h")


def game_id_pattern(ids):
    return re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, ids)) + r")(?![A-Za-z0-9_])")


def lists_the_games(text, pattern):
    """The first line (1-based) of a window of LISTING_WINDOW lines naming LISTING_IDS game ids, or 0."""
    named = [set(pattern.findall(line)) for line in text.splitlines()]
    for first in range(len(named)):
        if named[first] and len(set().union(*named[first:first + LISTING_WINDOW])) >= LISTING_IDS:
            return first + 1
    return 0


def test_no_file_lists_the_games():
    ids = game_ids()
    assert len(ids) >= LISTING_IDS, ids
    pattern = game_id_pattern(ids)
    listing, tables = [], set()
    for path in tracked_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative.split("/")[0] not in LISTING_FOLDERS or path.suffix not in SOURCE_SUFFIXES | {".sh"}:
            continue
        line = lists_the_games(path.read_text(encoding="utf-8", errors="replace"), pattern)
        if line and relative in GAME_TABLES:
            tables.add(relative)
        elif line:
            listing.append(f"{relative}:{line}")
    assert not listing, ("lists the games (ask the registry, or name the check of a table of games in "
                         "GAME_TABLES): " + ", ".join(listing))
    assert tables == set(GAME_TABLES), f"GAME_TABLES names files without a table of games: {set(GAME_TABLES) - tables}"


def test_the_rule_finds_a_list_of_the_games():
    pattern = game_id_pattern(["a_game", "b_game", "c_game", "d_game"])
    assert lists_the_games('GAMES = ["a_game", "b_game",\n "c_game",\n\n "d_game"]', pattern) == 1
    assert lists_the_games('x\nif game in ("a_game", "b_game", "c_game"):', pattern) == 0
    assert lists_the_games("a_game\n" + "\n" * LISTING_WINDOW + "b_game c_game d_game", pattern) == 0


def test_the_game_tables_name_games():
    # The tables checked against no registry at run time: each id they name is a game folder.
    ids = set(game_ids())
    fuzz = (ROOT / "tests/fuzz/game_fuzz.cpp").read_text(encoding="utf-8")
    named = set(re.findall(r'id == "(\w+)"', fuzz))
    assert named and named <= ids, named - ids
    source = (ROOT / "scripts/callgrind_split.py").read_text(encoding="utf-8")
    named = set(re.findall(r'^\s+"(\w+)": r"', source, re.MULTILINE))
    assert named and named <= ids, named - ids


def test_the_web_page_names_no_kind_of_player():
    # The page learns the kinds from the server (GET /api/games: the seats offered and the lineup it
    # starts with; a table's `people` and `waiting`), so no kind's name is a string in its code.
    # The kinds' names come from the training library's module.
    pytest.importorskip("rocketgym._agents", reason="built without the LibTorch training library")
    import rocketgym as rg

    names = [kind["name"] for kind in rg.agent_kinds()]
    assert "human" in names
    literal = re.compile(r"""(["'`])(%s)\1""" % "|".join(map(re.escape, names)))
    naming = [f"{path.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
              for path in tracked_files() if path.relative_to(ROOT).parts[0] == "web" and path.suffix == ".js"
              for text in [path.read_text(encoding="utf-8")] for m in literal.finditer(text)]
    assert not naming, "the web page names a kind of player (ask the server): " + ", ".join(naming)


# The layers of docs/architecture.md ("Layers"), lowest first: a file includes only files of its own
# folder or of a lower layer, never of a higher one nor of another folder of its own layer. A folder
# is the longest one listed that holds the file (training/players/kinds/ is training/players;
# training/cli/torch/ is training/cli). This is a check of the #include lines, not of CMake targets:
# most of the code above models/ is templates in headers, which a link cannot check, and one library
# keeps the build to one precompiled torch/torch.h and its unity batches (docs/building.md).
LAYERS = [
    ("envs/core",),  # (the generated registry, generated/, is outside the layers: CMake writes it from games/)
    ("envs",),  # a game's rules, envs/<id>/
    ("encoders",),
    ("games",),
    ("models",),
    ("training",),  # what the training side shares: configs, the policy runner, seeds, limits
    ("training/distributed", "training/mcts"),
    ("training/players",),
    ("training/arena",),
    ("training/run",),
    ("training/ppo", "training/alphazero"),
    ("training/cli",),
]
LAYER_OF = {folder: rank for rank, folders in enumerate(LAYERS) for folder in folders}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def layer_folder(path):
    """The folder of LAYERS holding `path` (a path from the repository root), or None."""
    parts = path.split("/")
    for n in range(len(parts) - 1, 0, -1):
        if "/".join(parts[:n]) in LAYER_OF:
            return "/".join(parts[:n])
    return None


def upward_includes(sources):
    """`FILE:LINE includes INCLUDED` for each include of `sources` ({path: text}) against the layers."""
    wrong = []
    for path, text in sources.items():
        here = layer_folder(path)
        if here is None:
            continue
        for match in INCLUDE.finditer(text):
            there = layer_folder(match.group(1))
            if there is None or there == here:
                continue
            if LAYER_OF[there] >= LAYER_OF[here]:
                line = text[:match.start()].count("\n") + 1
                wrong.append(f"{path}:{line} ({here}) includes {match.group(1)} ({there})")
    return wrong


def test_each_layer_includes_only_the_layers_below_it():
    sources = {}
    for path in tracked_files():
        relative = path.relative_to(ROOT).as_posix()
        if path.suffix in {".cpp", ".h"} and layer_folder(relative) is not None:
            sources[relative] = path.read_text(encoding="utf-8")
    assert len(sources) > 100
    wrong = upward_includes(sources)
    assert not wrong, "an include against the layers of docs/architecture.md: " + "; ".join(wrong)


def test_the_layer_rule_finds_an_include_upward_or_sideways():
    assert layer_folder("training/players/kinds/torch/zoo.cpp") == "training/players"
    assert layer_folder("training/cli/torch/train_command.cpp") == "training/cli"
    assert layer_folder("envs/lift_off/lift_off.h") == "envs" and layer_folder("python/x.cpp") is None
    ok = {"training/arena/arena.h": '#include "training/players/player.h"\n#include "envs/core/game.h"\n',
          "training/mcts/tree.h": '#include "training/mcts/node.h"\n#include <vector>\n'}
    assert upward_includes(ok) == []
    up = {"training/mcts/tree.h": '// x\n#include "training/players/player.h"\n'}
    assert upward_includes(up) == ["training/mcts/tree.h:2 (training/mcts) includes training/players/player.h "
                                   "(training/players)"]
    sideways = {"training/ppo/x.cpp": '#include "training/alphazero/trainer.h"\n'}
    assert len(upward_includes(sideways)) == 1
    below = {"models/net.cpp": '#include "training/policy_runner.h"\n'}
    assert len(upward_includes(below)) == 1
