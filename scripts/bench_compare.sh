#!/usr/bin/env bash
# Compares two runs of scripts/bench.sh figure by figure:
#
#   scripts/bench_compare.sh BASE.json NEW.json     (e.g. bench/baseline.json build/bench.json)
#
# Prints NEW / BASE per figure (game, players, mode) and flags every figure
# more than THRESHOLD (default 15) percent below the base; exits 1 when any
# is, 2 on bad input. A figure found in only one file is listed, not flagged.
# Compare runs from the same machine only (the files record it): the script
# warns when the machines differ.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: scripts/bench_compare.sh BASE.json NEW.json" >&2
  exit 2
fi
exec "${PYTHON:-/usr/bin/python3}" - "$1" "$2" "${THRESHOLD:-15}" <<'PY'
import json, sys

base_path, new_path, threshold = sys.argv[1], sys.argv[2], float(sys.argv[3])

def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
        figures = {(f["game"], int(f["players"]), f["mode"]): float(f["steps_per_s"]) for f in doc["figures"]}
        return doc.get("meta", {}), figures
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"bench_compare.sh: {path}: not a scripts/bench.sh result ({type(e).__name__}: {e})", file=sys.stderr)
        sys.exit(2)

base_meta, base = load(base_path)
new_meta, new = load(new_path)
if base_meta.get("machine") != new_meta.get("machine"):
    print(f"warning: different machines: {base_meta.get('machine')!r} vs {new_meta.get('machine')!r}")
for name, meta in (("base", base_meta), ("new", new_meta)):
    print(f"{name}: {meta.get('commit', '?')} {meta.get('date', '?')}, load {meta.get('load_average_before', '?')}"
          + (f" ({meta['note']})" if meta.get("note") else ""))
print(f"\n{'game':<14}{'players':>8}  {'mode':<11}{'base':>13}{'new':>13}{'ratio':>8}")
slower = 0
for key in sorted(set(base) | set(new)):
    game, players, mode = key
    b, n = base.get(key), new.get(key)
    if b is None or n is None:
        print(f"{game:<14}{players:>8}  {mode:<11}{b or '-':>13}{n or '-':>13}{'':>8}  only in {'new' if b is None else 'base'}")
        continue
    ratio = n / b
    flag = ratio < 1.0 - threshold / 100.0
    slower += flag
    print(f"{game:<14}{players:>8}  {mode:<11}{b:>13,.0f}{n:>13,.0f}{ratio:>8.2f}" + ("  SLOWER" if flag else ""))
if slower:
    print(f"\n{slower} figure(s) more than {threshold:g} % below the base")
    sys.exit(1)
print(f"\nno figure more than {threshold:g} % below the base")
PY
