#!/usr/bin/env python3
"""Writes (or checks) the generated parts of docs/games/<id>.md, docs/training.md, docs/search.md, docs/agents.md and docs/browser.md.

Each game page holds its hand-written introduction, then the output of
`rocketgym describe <id> --markdown` (action ids, observation layout, config
keys) between the lines BEGIN and END below. docs/training.md and
docs/search.md hold the config key tables, `rocketgym describe --config-keys
ppo|alphazero|search --markdown`, between markers naming the table. The tables
come from the code, so they cannot drift from it: run this after changing an
encoder, an action codec, a shipped game config or a config key, and commit
the pages (scripts/docs.sh does). docs/agents.md holds the zoo's table, what
`zoo:<id>` plays at each table size (`rocketgym describe --zoo --markdown`),
read from models/zoo/ of the source tree (never $ROCKETGYM_ZOO_DIR): run this
after changing a zoo file too. docs/browser.md holds the limits of `rocketgym
serve` (`rocketgym describe --serve-limits --markdown`, training/cli/serve_limits.h).
docs/agents.md also holds the grammar of an agent spec, a row per kind of player
(`rocketgym describe --agent-kinds --markdown`, training/players/kinds.h): run
this after changing a kind.
docs/python.md holds the Gymnasium ids, the list
`import rocketgym` registers (rocketgym._registration.ids_markdown(), from the
Python package of the build the CLI sits in): run this after bumping a game's
version.

Usage: scripts/docs_tables.py [--check] [--cli build/rocketgym]
  --check  change nothing; exit 1 naming each page that differs from the code.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[1]
BEGIN = "<!-- BEGIN rocketgym describe: generated, do not edit -->"
END = "<!-- END rocketgym describe -->"


# The config key tables: page, name of the table (--config-keys).
CONFIG_TABLES = [("docs/training.md", "ppo"), ("docs/training.md", "alphazero"), ("docs/search.md", "search"),
                 ("docs/agents.md", "arena")]


def config_markers(name):
    return (f"<!-- BEGIN rocketgym describe --config-keys {name}: generated, do not edit -->",
            f"<!-- END rocketgym describe --config-keys {name} -->")


def describe_table(page, flag):
    """A table `rocketgym describe FLAG --markdown` prints: page, flag, markers."""
    return (page, flag, f"<!-- BEGIN rocketgym describe {flag}: generated, do not edit -->",
            f"<!-- END rocketgym describe {flag} -->")


# The kinds of player, the zoo's table and the limits of `rocketgym serve`.
DESCRIBE_TABLES = [describe_table("docs/agents.md", "--agent-kinds"), describe_table("docs/agents.md", "--zoo"),
                   describe_table("docs/browser.md", "--serve-limits")]


# The Gymnasium ids: page, markers.
GYMNASIUM_IDS = ("docs/python.md", "<!-- BEGIN rocketgym gymnasium ids: generated, do not edit -->",
                 "<!-- END rocketgym gymnasium ids -->")


def gymnasium_ids_table(cli):
    """rocketgym._registration.ids_markdown() of the package built beside the CLI (<build>/python)."""
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(cli).resolve().parent / "python"))
    code = "from rocketgym._registration import ids_markdown; print(ids_markdown(), end='')"
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                          env=env).stdout


def generated(cli, *args):
    # The shipped zoo, whatever folder the caller's environment points at.
    env = {k: v for k, v in os.environ.items() if k != "ROCKETGYM_ZOO_DIR"}
    return subprocess.run([cli, "describe", *args, "--markdown"], check=True, capture_output=True,
                          text=True, env=env).stdout


def page_with_tables(text, tables, page, begin=BEGIN, end=END):
    if begin not in text or end not in text:
        raise SystemExit(f"{page}: no '{begin}' ... '{end}' section")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + tables + end + tail


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--cli", default=str(REPO / "build" / "rocketgym"))
    args = parser.parse_args()
    games = [g["id"] for g in json.loads(subprocess.run([args.cli, "list", "--json"], check=True,
                                                        capture_output=True, text=True).stdout)]
    stale = []

    def update(page, new, text, command):
        if new != text:
            if args.check:
                stale.append(f"{page.relative_to(REPO)}: differs from `{command}`")
            else:
                page.write_text(new)
                print(f"docs: regenerated {page.relative_to(REPO)} ({command})")

    for game_id in games:
        page = REPO / "docs" / "games" / f"{game_id}.md"
        if not page.exists():
            stale.append(f"{page.relative_to(REPO)}: missing (every game has a page)")
            continue
        text = page.read_text()
        update(page, page_with_tables(text, generated(args.cli, game_id), page), text,
               f"rocketgym describe {game_id} --markdown")
    for page_name, name in CONFIG_TABLES:
        page = REPO / page_name
        text = page.read_text()
        new = page_with_tables(text, generated(args.cli, "--config-keys", name), page, *config_markers(name))
        update(page, new, text, f"rocketgym describe --config-keys {name} --markdown")
    for page_name, flag, begin, end in DESCRIBE_TABLES:
        page = REPO / page_name
        text = page.read_text()
        update(page, page_with_tables(text, generated(args.cli, flag), page, begin, end), text,
               f"rocketgym describe {flag} --markdown")
    page = REPO / GYMNASIUM_IDS[0]
    text = page.read_text()
    update(page, page_with_tables(text, gymnasium_ids_table(args.cli), page, *GYMNASIUM_IDS[1:]), text,
           "rocketgym._registration.ids_markdown()")
    if stale:
        print("\n".join(stale) + "\nrun scripts/docs.sh (or scripts/docs_tables.py) and commit the pages",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
