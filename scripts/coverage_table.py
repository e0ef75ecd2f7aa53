"""Turns gcovr's --json-summary into the markdown tables of docs/coverage.md.

    python3 scripts/coverage_table.py build-cov/coverage/summary.json

Prints one row per folder (envs/core, envs/<id>, encoders/<id>, games,
models, training/<part>, python/src), then one row per area with the target
the project set for it (issue 30), then the files of each area below its
line target, least covered first.
"""

import json
import sys
from collections import defaultdict

# Area: (line target %, branch target % or None). The first path component
# names the area.
TARGETS = {
    "envs": (95, 85),
    "encoders": (95, 85),
    "games": (95, 85),
    "training": (85, None),
    "models": (85, None),
    "python": (85, None),
}


def folder_of(path):
    parts = path.split("/")
    # envs/core/x.cpp -> envs/core; training/x.cpp -> training; games/<id>/x.h -> games
    if parts[0] == "games":
        return "games"
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def percent(covered, total):
    return "–" if total == 0 else f"{100.0 * covered / total:.1f} %"


def add(counts, entry):
    for key in ("line_covered", "line_total", "branch_covered", "branch_total"):
        counts[key] += entry[key]


def main(path):
    with open(path) as f:
        summary = json.load(f)
    folders = defaultdict(lambda: defaultdict(int))
    areas = defaultdict(lambda: defaultdict(int))
    files_by_area = defaultdict(list)
    for entry in summary["files"]:
        name = entry["filename"]
        add(folders[folder_of(name)], entry)
        area = name.split("/")[0]
        add(areas[area], entry)
        files_by_area[area].append(entry)

    print("| folder | lines | line coverage | branches | branch coverage |")
    print("|---|---:|---:|---:|---:|")
    for name in sorted(folders):
        c = folders[name]
        print(f"| {name} | {c['line_covered']}/{c['line_total']} | "
              f"{percent(c['line_covered'], c['line_total'])} | "
              f"{c['branch_covered']}/{c['branch_total']} | "
              f"{percent(c['branch_covered'], c['branch_total'])} |")
    print()
    print("| area | line coverage (target) | branch coverage (target) |")
    print("|---|---:|---:|")
    for name in sorted(areas):
        c = areas[name]
        line_target, branch_target = TARGETS.get(name, (None, None))
        lt = f" (≥ {line_target} %)" if line_target else ""
        bt = f" (≥ {branch_target} %)" if branch_target else ""
        print(f"| {name}/ | {percent(c['line_covered'], c['line_total'])}{lt} | "
              f"{percent(c['branch_covered'], c['branch_total'])}{bt} |")
    print()
    print("Files below their area's line target, least covered first "
          "(lines not covered):")
    print()
    below = []
    for area, entries in files_by_area.items():
        line_target = TARGETS.get(area, (100, None))[0]
        for e in entries:
            if e["line_total"] and 100.0 * e["line_covered"] / e["line_total"] < line_target:
                below.append((e["line_covered"] / e["line_total"], e))
    for _, e in sorted(below, key=lambda item: item[0]):
        print(f"- `{e['filename']}`: {percent(e['line_covered'], e['line_total'])} "
              f"({e['line_total'] - e['line_covered']} lines)")


if __name__ == "__main__":
    main(sys.argv[1])
