#!/usr/bin/env python3
"""Writes (or checks) the generated part of every docs/games/<id>.md.

Each game page holds its hand-written introduction, then the output of
`rocketgym describe <id> --markdown` (action ids, observation layout, config
keys) between the lines BEGIN and END below. The tables come from the code, so
they cannot drift from it: run this after changing an encoder, an action codec
or a shipped game config, and commit the pages (scripts/docs.sh does).

Usage: scripts/docs_tables.py [--check] [--cli build/rocketgym]
  --check  change nothing; exit 1 naming each page that differs from the code.
"""
import argparse
import json
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[1]
BEGIN = "<!-- BEGIN rocketgym describe: generated, do not edit -->"
END = "<!-- END rocketgym describe -->"


def generated(cli, game_id):
    return subprocess.run([cli, "describe", game_id, "--markdown"], check=True, capture_output=True,
                          text=True).stdout


def page_with_tables(text, tables, page):
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{page}: no '{BEGIN}' ... '{END}' section")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + tables + END + tail


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--cli", default=str(REPO / "build" / "rocketgym"))
    args = parser.parse_args()
    games = [g["id"] for g in json.loads(subprocess.run([args.cli, "list", "--json"], check=True,
                                                        capture_output=True, text=True).stdout)]
    stale = []
    for game_id in games:
        page = REPO / "docs" / "games" / f"{game_id}.md"
        if not page.exists():
            stale.append(f"{page.relative_to(REPO)}: missing (every game has a page)")
            continue
        text = page.read_text()
        new = page_with_tables(text, generated(args.cli, game_id), page)
        if new != text:
            if args.check:
                stale.append(f"{page.relative_to(REPO)}: differs from `rocketgym describe {game_id} --markdown`")
            else:
                page.write_text(new)
                print(f"docs: regenerated {page.relative_to(REPO)}")
    if stale:
        print("\n".join(stale) + "\nrun scripts/docs.sh (or scripts/docs_tables.py) and commit the pages",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
