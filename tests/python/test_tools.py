"""The example and the benchmark run end to end and report what they promise."""

import os
import re
import subprocess
import sys

import pytest

import rocketgym as rg
from conftest import REPO


def run(script, *args, timeout=300):
    env = dict(os.environ)
    package_dir = os.path.dirname(os.path.dirname(rg.__file__))
    env["PYTHONPATH"] = package_dir + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, str(REPO / script), *args], capture_output=True, text=True,
                         timeout=timeout, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_training_example_prints_win_rates_against_random():
    pytest.importorskip("torch")
    game = "last_blast" if "last_blast" in rg.list_games() else rg.list_games()[0]
    out = run("examples/train_masked_policy.py", "--game", game, "--seconds", "2", "--eval-games", "100",
              "--batch", "256", "--num-envs", "32")
    rates = re.findall(r"win rate (\d\.\d+)", out)
    assert len(rates) == 2 and all(0.0 <= float(r) <= 1.0 for r in rates)


def test_benchmark_prints_a_row_per_game():
    game = rg.list_games()[0]
    out = run("python/benchmarks/bench_vector_env.py", "--games", game, "--seconds", "0.2", "--num-envs", "16",
              "--cli", "")
    row = next(line for line in out.splitlines() if line.startswith(f"| {game} |"))
    numbers = [float(x.replace(",", "")) for x in re.findall(r"[\d,]+\.?\d*", row.split("|", 2)[2])]
    assert numbers and all(n > 0 for n in numbers)
