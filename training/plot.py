#!/usr/bin/env python3
"""Plots for rocketgym training runs and arena results (called by the C++ code).

    plot.py curve runs/<run>/metrics.csv runs/<run>/learning_curve.png
    plot.py arena runs/arena/<x>/report.json runs/arena/<x>/arena.png
    plot.py compute GAME=report.json[,GAME=report.json...] out.png
        rating against training minutes: the arena's agents named m<minutes>
        (scripts/rating_vs_compute.sh), with the heuristic bot as a line

Uses Debian's matplotlib (/usr/bin/python3); only the standard library otherwise.
"""
import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def column(rows, name):
    xs, ys = [], []
    for row in rows:
        x, y = number(row.get("step")), number(row.get(name))
        if x is not None and y is not None:
            xs.append(x)
            ys.append(y)
    return xs, ys


TRAIN_PREFIX = "train_win_vs_"


def win_rate_series(columns):
    """The win-rate columns of a metrics.csv header and their labels: the greedy
    evaluations, then a training column per opponent (PPO's train_win_vs_<name>:
    the pool and each agent of opponents.agents, in the file's order)."""
    series = [(name, label) for name, label in [("eval_win_vs_random", "greedy vs random"),
                                                ("eval_win_vs_heuristic", "greedy vs heuristic")]
              if name in columns]
    series += [(name, "training vs " + name[len(TRAIN_PREFIX):])
               for name in columns if name.startswith(TRAIN_PREFIX)]
    return series


def plot_curve(metrics_file, out_file):
    with open(metrics_file, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        columns = reader.fieldnames or []
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for name, label in win_rate_series(columns):
        xs, ys = column(rows, name)
        if xs:
            style = "-o" if name.startswith("eval") else "-"
            top.plot(xs, ys, style, label=label, markersize=3, alpha=1.0 if name.startswith("eval") else 0.5)
    top.set_ylabel("win rate (ties count half)")
    top.set_ylim(0, 1)
    top.grid(alpha=0.3)
    top.legend(loc="lower right", fontsize=8)
    for name in ["policy_loss", "value_loss", "entropy", "approx_kl"]:
        xs, ys = column(rows, name)
        if xs:
            bottom.plot(xs, ys, label=name)
    bottom.set_xlabel("learner decisions")
    bottom.grid(alpha=0.3)
    bottom.legend(fontsize=8)
    fig.suptitle("rocketgym PPO: " + metrics_file)
    fig.tight_layout()
    fig.savefig(out_file, dpi=100)


def plot_arena(report_file, out_file):
    with open(report_file) as f:
        report = json.load(f)
    agents = report["agents"]
    names = [a["name"] for a in agents]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    rates = [a["win_rate"] for a in agents]
    # Clamped: at 0 % or 100 % rounding can put the interval a hair inside the rate.
    low = [max(0.0, a["win_rate"] - a["win_rate_low"]) for a in agents]
    high = [max(0.0, a["win_rate_high"] - a["win_rate"]) for a in agents]
    left.bar(range(len(names)), rates, yerr=[low, high], capsize=4, color="tab:blue")
    for i, a in enumerate(agents):
        left.text(i, 0.02, "%+.0f Elo" % a["rating"], ha="center", color="white", fontsize=8)
    left.axhline(1.0 / report["num_players"], color="grey", linestyle="--", label="fair share")
    left.set_xticks(range(len(names)))
    left.set_xticklabels(names, rotation=20, ha="right")
    left.set_ylim(0, 1)
    left.set_ylabel("win rate with 95% interval")
    left.legend()
    # Pairs that never met (the diagonal) are left blank rather than drawn as 0%.
    matrix = [[value if count else float("nan") for value, count in zip(row, counts)]
              for row, counts in zip(report["head_to_head"], report["head_to_head_count"])]
    image = right.imshow(matrix, vmin=0, vmax=1, cmap="RdBu")
    right.set_xticks(range(len(names)))
    right.set_yticks(range(len(names)))
    right.set_xticklabels(names, rotation=20, ha="right")
    right.set_yticklabels(names)
    right.set_title("row finishes ahead of column")
    for i in range(len(names)):
        for j in range(len(names)):
            if report["head_to_head_count"][i][j]:
                right.text(j, i, "%.0f%%" % (100 * report["head_to_head"][i][j]), ha="center", va="center",
                           fontsize=8)
    fig.colorbar(image, ax=right)
    fig.suptitle("%s: %d games, %d players" % (report["config"]["game"]["id"] if "config" in report else "arena",
                                               report["games"], report["num_players"]))
    fig.tight_layout()
    fig.savefig(out_file, dpi=100)


def plot_compute(reports, out_file):
    fig, axis = plt.subplots(figsize=(8.5, 4.5))
    for item in reports.split(","):
        game, report_file = item.split("=", 1)
        with open(report_file) as f:
            agents = json.load(f)["agents"]
        # Ratings are relative: each game's curve starts from its heuristic bot.
        base = next(a["rating"] for a in agents if a["name"] == "heuristic")
        points = sorted((int(a["name"][1:]), a["rating"] - base) for a in agents
                        if a["name"][:1] == "m" and a["name"][1:].isdigit())
        line, = axis.plot([m for m, _ in points], [r for _, r in points], "-o", label=game)
        for m, r in points:
            axis.annotate("%+.0f" % r, (m, r), textcoords="offset points", xytext=(0, 6), ha="center",
                          fontsize=7, color=line.get_color())
    axis.axhline(0.0, color="grey", linestyle="--", label="heuristic bot")
    axis.set_xlabel("minutes of training (2-core machine, 1 thread)")
    axis.set_ylabel("Elo above the heuristic bot")
    axis.grid(alpha=0.3)
    axis.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))  # outside: the curves fill the plot
    fig.suptitle("rocketgym: strength against training time")
    fig.tight_layout()
    fig.savefig(out_file, dpi=100)


def main(argv):
    kinds = {"curve": plot_curve, "arena": plot_arena, "compute": plot_compute}
    if len(argv) != 4 or argv[1] not in kinds:
        sys.stderr.write(__doc__)
        return 2
    kinds[argv[1]](argv[2], argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
