"""training/plot.py draws the learning curve and the arena figure, edge cases included."""
import json
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")

PLOT = pathlib.Path(__file__).resolve().parents[2] / "training" / "plot.py"


def run_plot(kind, source, target):
    return subprocess.run([sys.executable, str(PLOT), kind, str(source), str(target)],
                          capture_output=True, text=True)


def test_arena_plot_with_agents_at_zero_and_one_hundred_percent(tmp_path):
    # Wilson bounds computed in floating point can sit a hair inside a 0 % or
    # 100 % rate; the error bars must not go negative.
    report = {
        "games": 400, "num_players": 2, "truncated": 0, "mean_decisions": 50.0,
        "rating_model": "Bradley-Terry",
        "agents": [
            {"name": "ppo", "games": 200, "wins": 200, "win_rate": 1.0, "win_rate_low": 0.981,
             "win_rate_high": 0.9999999999999999, "mean_return": 1.0, "rating": 900.0},
            {"name": "random", "games": 200, "wins": 0, "win_rate": 0.0, "win_rate_low": 1e-17,
             "win_rate_high": 0.019, "mean_return": -1.0, "rating": 0.0},
        ],
        "head_to_head": [[0.0, 1.0], [0.0, 0.0]],
        "head_to_head_count": [[0, 200], [200, 0]],
    }
    source = tmp_path / "report.json"
    source.write_text(json.dumps(report))
    result = run_plot("arena", source, tmp_path / "arena.png")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "arena.png").stat().st_size > 0


def test_learning_curve_plot_skips_empty_cells(tmp_path):
    source = tmp_path / "metrics.csv"
    source.write_text(
        "update,step,env_steps,episodes,elapsed_s,samples_per_s,policy_loss,value_loss,entropy,approx_kl,"
        "clip_fraction,train_win_vs_pool,train_win_vs_random,train_win_vs_heuristic,eval_win_vs_random,"
        "eval_win_vs_heuristic\n"
        "1,100,50,2,1.0,100,0.1,0.5,1.2,0.01,0.1,,0.5,,,\n"
        "2,200,100,4,2.0,100,0.05,0.4,1.1,0.01,0.1,0.5,,1.0,0.9,0.2\n")
    result = run_plot("curve", source, tmp_path / "curve.png")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "curve.png").stat().st_size > 0


def test_learning_curve_plots_a_line_per_opponent_column(tmp_path):
    # PPO's training columns are named after its opponents (the pool and each
    # agent of opponents.agents): each gets its line, whatever the names.
    import importlib.util
    spec = importlib.util.spec_from_file_location("rocketgym_plot", PLOT)
    plot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot)
    header = ("update,step,env_steps,episodes,elapsed_s,samples_per_s,policy_loss,value_loss,entropy,"
              "approx_kl,clip_fraction,train_win_vs_pool,train_win_vs_zoo:launch_pad,train_win_vs_ismcts4,"
              "eval_win_vs_random,eval_win_vs_heuristic")
    assert plot.win_rate_series(header.split(",")) == [
        ("eval_win_vs_random", "greedy vs random"),
        ("eval_win_vs_heuristic", "greedy vs heuristic"),
        ("train_win_vs_pool", "training vs pool"),
        ("train_win_vs_zoo:launch_pad", "training vs zoo:launch_pad"),
        ("train_win_vs_ismcts4", "training vs ismcts4"),
    ]
    source = tmp_path / "metrics.csv"
    source.write_text(header + "\n1,100,50,2,1.0,100,0.1,0.5,1.2,0.01,0.1,,0.25,0.5,,\n")
    result = run_plot("curve", source, tmp_path / "curve.png")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "curve.png").stat().st_size > 0


def test_plot_script_usage_error():
    result = run_plot("pie", "a", "b")
    assert result.returncode == 2
