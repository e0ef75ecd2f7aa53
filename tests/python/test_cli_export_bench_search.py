"""`rocketgym export --simulations-at` and `rocketgym bench-search` (issue 30: the per-table-size
recommendation of an export, its refusals, and bench-search's refusal and result lines had no test).
Runs ``$ROCKETGYM_BUILD_DIR/rocketgym`` (default ``<repo>/build/rocketgym``); skipped when it is missing
or built without the training library. The timeouts only guard against a hang; no assertion depends on
time or speed."""

import json
import os
import pathlib
import re
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("ROCKETGYM_BUILD_DIR", REPO / "build")) / "rocketgym"
HANG_GUARD = 600  # seconds


def rocketgym(*args, env=None):
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}: build the rocketgym target first")
    return subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=HANG_GUARD,
                          env=None if env is None else {**os.environ, **env})


@pytest.fixture(scope="module", autouse=True)
def training_commands():
    """Every test here needs the commands of the training build."""
    if "bench-search" not in rocketgym("--help").stdout:
        pytest.skip("rocketgym is built without the training library")


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """A tiny Launchpad 23 network trained for one update at 2 and 3 players (it serves those sizes,
    not 4)."""
    folder = tmp_path_factory.mktemp("export")
    config = folder / "train.yaml"
    config.write_text("game: {id: launchpad23, players: [2, 3]}\n"
                      "model: {hidden: 16, blocks: 1, channels: 4}\n"
                      "ppo: {envs: 4, steps_per_update: 16, epochs: 1, minibatch: 16}\n"
                      "budget: {steps: 1, minutes: 0}\n"
                      f"run: {{dir: \"{folder / 'run'}\", eval_every: 0, plot: false}}\n")
    done = rocketgym("train", str(config), "--quiet")
    assert done.returncode == 0, done.stderr
    return folder / "run" / "checkpoints" / "latest.ckpt"


def export(checkpoint, target, *args):
    return rocketgym("export", str(checkpoint), str(target), *args)


def zoo_table(zoo_dir):
    """What `rocketgym describe --zoo` says zoo:launchpad23 plays at each table size, with `zoo_dir`
    looked in first."""
    done = rocketgym("describe", "--zoo", env={"ROCKETGYM_ZOO_DIR": str(zoo_dir)})
    assert done.returncode == 0, done.stderr
    row = next(r for r in json.loads(done.stdout) if r["game"] == "launchpad23")
    assert row["files"] == ["launchpad23.ckpt"]
    return row["players"]


# --- export --simulations-at ----------------------------------------------------------------------

def test_export_stores_the_recommended_search_per_table_size(checkpoint, tmp_path):
    done = export(checkpoint, tmp_path / "launchpad23.ckpt", "--simulations", "4", "--simulations-at", "3=8")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {tmp_path / 'launchpad23.ckpt'} (")
    assert zoo_table(tmp_path) == {"2": "network, search of 4 simulations", "3": "network, search of 8 simulations",
                                   "4": "not served"}


def test_export_simulations_at_0_is_the_raw_network_at_that_size(checkpoint, tmp_path):
    done = export(checkpoint, tmp_path / "launchpad23.ckpt", "--simulations", "16", "--simulations-at", "2=0")
    assert done.returncode == 0, done.stderr
    assert zoo_table(tmp_path) == {"2": "network, greedy", "3": "network, search of 16 simulations",
                                   "4": "not served"}


def test_export_simulations_at_alone_leaves_the_other_sizes_to_the_raw_network(checkpoint, tmp_path):
    done = export(checkpoint, tmp_path / "launchpad23.ckpt", "--simulations-at", "3=10000000")
    assert done.returncode == 0, done.stderr
    assert zoo_table(tmp_path) == {"2": "network, greedy", "3": "network, search of 10000000 simulations",
                                   "4": "not served"}


@pytest.mark.parametrize("setting", ["3", "=8", "3=", "3:8", "3=8=9", "x=8", "3=eight", "3=8.5", "3 =8", "3= 8",
                                     "0=8", "65=8", "-2=8", "3=-1", "3=10000001", "99999999999=8",
                                     "3=99999999999"])
def test_export_refuses_a_setting_that_is_not_players_equals_simulations(checkpoint, tmp_path, setting):
    target = tmp_path / "out.ckpt"
    done = export(checkpoint, target, "--simulations-at", setting)
    assert done.returncode != 0
    assert "--simulations-at" in done.stderr
    assert f"must be PLAYERS=SIMULATIONS (players 1 to 64, simulations 0 to 10000000), not '{setting}'" in done.stderr
    assert not target.exists()


def test_export_refuses_a_table_size_given_twice(checkpoint, tmp_path):
    target = tmp_path / "out.ckpt"
    done = export(checkpoint, target, "--simulations-at", "3=8", "--simulations-at", "2=4", "--simulations-at", "3=16")
    assert done.returncode == 1
    assert ("--simulations-at 3=16: 3 players is already set by --simulations-at 3=8 "
            "(one recommendation per table size)") in done.stderr
    assert not target.exists()


@pytest.mark.parametrize("players", [1, 4, 64])
def test_export_refuses_a_table_size_the_checkpoint_does_not_serve(checkpoint, tmp_path, players):
    target = tmp_path / "out.ckpt"
    done = export(checkpoint, target, "--simulations-at", f"{players}=8")
    assert done.returncode == 1
    served = f"checkpoint '{checkpoint}' serves 2 and 3 players, not {players}"
    assert f"--simulations-at {players}=8: {served}" in done.stderr
    assert not target.exists()


def test_export_simulations_at_of_a_missing_checkpoint_names_the_file(tmp_path):
    missing = tmp_path / "missing.ckpt"
    done = export(missing, tmp_path / "out.ckpt", "--simulations-at", "3=8")
    assert done.returncode != 0
    assert str(missing) in done.stderr


# --- bench-search ---------------------------------------------------------------------------------

def tiny_search_config(folder):
    config = folder / "az.yaml"
    config.write_text("algorithm: alphazero\n"
                      "game: {id: launchpad23, players: 2}\n"
                      "model: {hidden: 16, blocks: 1, channels: 4}\n"
                      "search: {simulations: 4, gumbel_considered: 2}\n"
                      "selfplay: {games: 2, samples_per_iteration: 16}\n"
                      f"run: {{dir: \"{folder / 'az_run'}\", threads: 1, plot: false}}\n")
    return config


def bench_search(config, *args):
    return rocketgym("bench-search", str(config), "--seconds", "1", "--warmup", "0", *args)


def test_bench_search_refuses_a_ppo_config_naming_it(tmp_path):
    config = tmp_path / "ppo.yaml"
    config.write_text("game: {id: launchpad23}\nmodel: {hidden: 16, blocks: 1, channels: 4}\n")
    done = bench_search(config)
    assert done.returncode == 1
    assert f"{config}: bench-search needs a search-based config (algorithm: alphazero)" in done.stderr
    assert done.stdout == ""


def test_bench_search_json_has_every_field_with_sane_values(tmp_path):
    done = bench_search(tiny_search_config(tmp_path), "--json", "--simulations", "3", "--envs", "2",
                        "--threads", "1")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "launchpad23"
    assert (result["players"], result["games"], result["simulations_per_search"], result["threads"]) == (2, 2, 3, 1)
    for rate in ("seconds", "simulations_per_s", "leaf_evaluations_per_s", "decisions_per_s", "mean_batch"):
        assert isinstance(result[rate], (int, float)) and result[rate] >= 0, rate
    assert 0 <= result["network_share"] <= 1
    assert set(result) == {"game", "players", "games", "simulations_per_search", "threads", "seconds",
                           "simulations_per_s", "leaf_evaluations_per_s", "decisions_per_s", "mean_batch",
                           "network_share"}


def test_bench_search_text_lines(tmp_path):
    done = bench_search(tiny_search_config(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"launchpad23, 2 players: 2 games searched together, 4 simulations per search, 1 threads, "
                        r"\d+\.\d s", lines[0]), lines[0]
    number = r"\s+(\d+(?:\.\d+)?)"
    labels = ["simulations/s", "leaf evaluations/s", "decisions/s", "mean batch"]
    for line, label in zip(lines[1:5], labels):
        match = re.fullmatch(r"  " + re.escape(label) + number, line)
        assert match and float(match.group(1)) >= 0, line
    share = re.fullmatch(r"  network forward\s+(\d+\.\d)% of self-play time", lines[5])
    assert share and 0 <= float(share.group(1)) <= 100, lines[5]
    assert len(lines) == 6
