"""The documentation cannot rot (docs/docs-tests.md).

* Every ```python block of README.md, python/README.md and docs/**/*.md runs, each in a fresh interpreter in a
  scratch folder that sees the repository's build/, configs/, models/ and examples/.
  A block preceded by the line ``<!-- docs-test: skip REASON -->`` is not run (keep those few).
* Every ```sh block preceded by ``<!-- docs-test: run -->`` runs with bash in the same kind of
  folder (one per page, shared by its blocks in order); ``<!-- docs-test: run "OLD" "NEW" ... -->``
  first replaces each OLD with NEW (tiny budgets).
* The generated tables of docs/games/<id>.md are what `rocketgym describe <id> --markdown` prints.
"""
import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("ROCKETGYM_BUILD_DIR", REPO / "build"))
MARKER = re.compile(r"<!--\s*docs-test:\s*(skip|run)\b(.*?)-->")
FENCE = re.compile(r"^```(\w*)\s*$")


def markdown_files():
    return [REPO / "README.md", REPO / "python" / "README.md"] + sorted((REPO / "docs").rglob("*.md"))


def code_blocks():
    """(file, line, language, code, marker, marker argument) of every fenced block."""
    for path in markdown_files():
        lines = path.read_text().splitlines()
        i = 0
        while i < len(lines):
            fence = FENCE.match(lines[i])
            if not fence:
                i += 1
                continue
            start, language = i, fence.group(1)
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            previous = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
            marker = MARKER.search(previous)
            yield (path.relative_to(REPO), start + 1, language, "\n".join(lines[start + 1:end]),
                   marker.group(1) if marker else None, marker.group(2).strip() if marker else "")
            i = end + 1


def block_id(block):
    return f"{block[0]}:{block[1]}"


PYTHON_BLOCKS = [b for b in code_blocks() if b[2] == "python"]
SHELL_BLOCKS = [b for b in code_blocks() if b[2] in ("sh", "bash") and b[4] == "run"]


def scratch(tmp_path):
    """Makes tmp_path look like the repository root for the commands of the docs; returns the
    environment they run in."""
    for name in ("build", "configs", "models", "examples", "scripts", "python"):
        if not (tmp_path / name).exists():
            (tmp_path / name).symlink_to(BUILD if name == "build" else REPO / name)
    env = dict(os.environ, PYTHONPATH=str(BUILD / "python"), OMP_NUM_THREADS="1",
               OMP_WAIT_POLICY="passive", ROCKETGYM_CONFIG_DIR=str(REPO / "configs" / "games"),
               ROCKETGYM_ZOO_DIR=str(REPO / "models" / "zoo"), MPLBACKEND="Agg")
    return env


def test_the_docs_have_examples_and_few_skips():
    assert len(PYTHON_BLOCKS) >= 5 and SHELL_BLOCKS
    skipped = [block_id(b) for b in PYTHON_BLOCKS if b[4] == "skip"]
    assert len(skipped) <= 3, f"too many skipped Python blocks: {skipped}"
    for b in PYTHON_BLOCKS:
        if b[4] == "skip":
            assert b[5], f"{block_id(b)}: a skipped block says why"


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=block_id)
def test_python_block_runs(block, tmp_path):
    path, line, _, code, marker, reason = block
    if marker == "skip":
        pytest.skip(f"docs-test: skip {reason}")
    env = scratch(tmp_path)
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, f"{path}:{line}\n{code}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"


_FOLDERS = {}


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=block_id)
def test_runnable_shell_block_runs(block, tmp_path_factory):
    """The runnable blocks of one page share a folder, in page order: a later block may use what
    an earlier one wrote (the arena rates the bot the training block trained)."""
    path, line, _, code, _, argument = block
    if path not in _FOLDERS:
        _FOLDERS[path] = tmp_path_factory.mktemp("docs")
    tmp_path = _FOLDERS[path]
    replacements = shlex.split(argument)
    assert len(replacements) % 2 == 0, f"{path}:{line}: docs-test: run takes pairs \"OLD\" \"NEW\""
    for old, new in zip(replacements[::2], replacements[1::2]):
        assert old in code, f"{path}:{line}: '{old}' is not in the block"
        code = code.replace(old, new)
    env = scratch(tmp_path)
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", code], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{path}:{line}\n{code}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"


def test_generated_game_pages_match_the_code():
    cli = BUILD / "rocketgym"
    assert cli.exists(), f"{cli} is missing: build it (scripts/build.sh)"
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "docs_tables.py"), "--check", "--cli", str(cli)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_no_page_offers_the_parallel_wrapper_that_refuses_the_aec_env():
    """PettingZoo's aec_to_parallel refuses the AEC env (is_parallelizable is False: no game has
    seats that each decide once per round; test_checkers.py checks the refusal). A page may name it
    only to say so, not offer it as the parallel form (issue 54)."""
    for path in markdown_files():
        blocks = re.split(r"\n\s*\n|\n(?=\* )", path.read_text())
        for block in blocks:
            if "aec_to_parallel" in block:
                assert "refuse" in block, f"{path.relative_to(REPO)} offers aec_to_parallel:\n{block}"
