#!/usr/bin/env bash
# Builds the documentation site (MkDocs, docs/ -> build/site) with --strict:
# a link to a missing page or anchor-less file is an error. First regenerates the tables of docs/games/<id>.md from the code
# (`rocketgym describe`, scripts/docs_tables.py), so it needs build/rocketgym
# (scripts/build.sh). Usage: scripts/docs.sh [--check]
#   --check  do not rewrite the game pages; fail if they differ from the code.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"
/usr/bin/python3 scripts/docs_tables.py --cli "$BUILD/rocketgym" "$@"
/usr/bin/python3 -m mkdocs build --strict --quiet --site-dir "$BUILD/site"
echo "docs: built $BUILD/site/index.html"
