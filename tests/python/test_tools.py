"""The example, the benchmark and the format check run end to end and report what they promise."""

import os
import re
import shutil
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


def test_format_check_names_the_file_that_is_off_and_format_mends_it(tmp_path):
    """scripts/format.sh --check (run by scripts/test.sh) fails naming an unformatted file and changes
    nothing; scripts/format.sh then formats it, and the check passes."""
    if shutil.which("clang-format") is None:
        pytest.skip("clang-format is not installed (scripts/setup.sh installs it)")
    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "format.sh", tmp_path / "scripts" / "format.sh")
    shutil.copy(REPO / ".clang-format", tmp_path / ".clang-format")
    ugly = "int  add( int a,int b ){return a+b;}\n"
    (tmp_path / "ugly.cpp").write_text(ugly)
    (tmp_path / "untracked.cpp").write_text(ugly)  # not in git: not checked
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "ugly.cpp", "scripts", ".clang-format"], cwd=tmp_path, check=True)
    script = str(tmp_path / "scripts" / "format.sh")

    check = subprocess.run([script, "--check"], capture_output=True, text=True)
    assert check.returncode == 1
    assert "ugly.cpp" in check.stdout and "untracked.cpp" not in check.stdout
    assert "1 files are not clang-formatted" in check.stderr
    assert (tmp_path / "ugly.cpp").read_text() == ugly

    assert subprocess.run([script], capture_output=True, text=True).returncode == 0
    assert (tmp_path / "ugly.cpp").read_text() == "int add(int a, int b) { return a + b; }\n"
    assert (tmp_path / "untracked.cpp").read_text() == ugly
    assert subprocess.run([script, "--check"], capture_output=True, text=True).returncode == 0

    wrong = subprocess.run([script, "--fix"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "unknown argument '--fix'" in wrong.stderr


def test_expert_vs_teacher_prints_the_win_share_of_each_checkpoint(tmp_path):
    """scripts/expert_vs_teacher.sh (docs/training.md, expert iteration) plays a checkpoint's search
    against the untrained teacher and prints its win share, interval and rating; a checkpoint that is
    not there is refused by name before any game."""
    network = REPO / "models" / "zoo" / "last_blast.ckpt"
    if "last_blast" not in rg.list_games() or not network.exists():
        pytest.skip("needs The Last Blast and its zoo network")
    env = dict(os.environ, OUT=str(tmp_path), SIMULATIONS="4", PLAYOUTS="1")
    script = str(REPO / "scripts" / "expert_vs_teacher.sh")
    out = subprocess.run([script, "last_blast", "3", "7", "1", str(network)], capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    row = out.stdout.splitlines()[-1]
    share, low, high, rating = re.search(r"([\d.]+) % \[([\d.]+), ([\d.]+)\]\s+([+-]\d+)$", row).groups()
    assert 0 <= float(low) <= float(share) <= float(high) <= 100
    assert (tmp_path / "last_blast_3p_models_last_blast" / "report.json").exists()
    missing = subprocess.run([script, "last_blast", "3", "7", "1", str(tmp_path / "none.ckpt")],
                             capture_output=True, text=True, timeout=60, env=env)
    assert missing.returncode == 2 and "none.ckpt" in missing.stderr
