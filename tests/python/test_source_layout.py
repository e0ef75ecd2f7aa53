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
