"""rg.arena (the CLI arena from Python), game records (arena --records, rg.load_records) and
`rocketgym replay` (issue 26 items 4 and 5)."""
import json
import pathlib
import re
import subprocess
import zlib

import numpy as np
import pytest

import rocketgym as rg

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "data" / "arena_golden"

try:
    from rocketgym import _agents  # noqa: F401
except ImportError:
    pytest.skip("the module is built without the training library", allow_module_level=True)


def _cli():
    binary = pathlib.Path(rg.__file__).resolve().parents[1].parent / "rocketgym"  # <build>/rocketgym
    if not binary.exists():
        pytest.skip("the rocketgym binary is not built")
    return str(binary)


def _run(*args, check=True):
    return subprocess.run([_cli(), *args], check=check, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)


def random_legal(observations, action_masks):
    """A Python agent: a random legal action per row, drawn from the row alone (so the same in any batch)."""
    return np.array([np.random.default_rng(zlib.crc32(row.tobytes())).choice(np.flatnonzero(mask))
                     for row, mask in zip(observations, action_masks)], dtype=np.int64)


class FirstLegal:
    """A Python agent as an object with act(); counts the rows it was asked for."""

    def __init__(self):
        self.rows = 0

    def act(self, observations, action_masks):
        assert observations.dtype == np.float32 and action_masks.dtype == bool
        assert observations.shape[0] == action_masks.shape[0]
        self.rows += len(observations)
        return action_masks.argmax(axis=1)


# --- the same games as the command line ----------------------------------------------------------

@pytest.mark.parametrize("golden_game", ["last_blast"])  # test_arena_golden.py runs both games on the CLI
def test_arena_plays_the_cli_golden_games(golden_game, tmp_path):
    if golden_game not in rg.list_games():
        pytest.skip(f"{golden_game} is not built")
    # The golden recording's command (tests/python/test_arena_golden.py), from Python.
    report = rg.arena(golden_game, ["heuristic", "random", "ismcts:30"], games=10, seed=4242, num_players=2,
                      parallel=7, threads=2, output=tmp_path)
    assert (tmp_path / "games.csv").read_bytes() == (GOLDEN / f"{golden_game}.games.csv").read_bytes()
    assert report.table == (tmp_path / "table.txt").read_text()
    assert len(report.games) == 3 * 10 * 2


def test_arena_table_equals_the_cli_table(tmp_path):
    cli = tmp_path / "cli"
    _run("arena", "--game", "last_blast", "--agent", "h=heuristic", "--agent", "r=random", "--agent", "s=ismcts:6",
         "--games", "4", "--seed", "77", "--threads", "1", "--envs", "3", "--output", str(cli), "--no-plot", "--quiet",
         "--records", str(tmp_path / "cli.jsonl"))
    report = rg.arena("last_blast", {"h": "heuristic", "r": "random", "s": "ismcts:6"}, games=4, seed=77,
                      records=tmp_path / "py.jsonl")
    assert report.table == (cli / "table.txt").read_text()
    # The same records, line for line, whatever the games in flight and threads.
    assert (tmp_path / "py.jsonl").read_bytes() == (tmp_path / "cli.jsonl").read_bytes()
    cli_report = json.loads((cli / "report.json").read_text())
    assert report.ratings == {a["name"]: a["rating"] for a in cli_report["agents"]}


def test_win_rate_and_ratings_are_those_of_the_table():
    report = rg.arena("launchpad23", {"h": "heuristic", "r": "random"}, games=5, seed=3)
    rate, low, high = report.win_rate("h", "r")
    assert low <= rate <= high + 1e-12
    assert f"h vs r: {100 * rate:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] over 10" in report.table
    own, own_low, own_high = report.win_rate("h")
    line = next(line for line in report.table.splitlines() if line.startswith("h "))
    assert f"{100 * own:.1f}%" in line and f"[{100 * own_low:.1f}%, {100 * own_high:.1f}%]" in line
    assert f"{report.ratings['h']:+.0f}" in line
    assert report.ratings["h"] > report.ratings["r"]
    assert sum(row["players"].count("h") for row in report.games) == report.agents["h"]["games"]
    with pytest.raises(rg.Error, match="no agent 'x'"):
        report.win_rate("x")


# --- Python agents -------------------------------------------------------------------------------

def test_python_agents_take_seats(tmp_path):
    first = FirstLegal()
    report = rg.arena("last_blast", {"mine": random_legal, "first": first, "heuristic": "heuristic"}, games=2,
                      seed=5, records=tmp_path / "games.jsonl")
    assert len(report.games) == 3 * 2 * 2
    assert first.rows > 0
    assert set(report.ratings) == {"mine", "first", "heuristic"}
    assert report.report["config"]["agents"][0] == {"name": "mine", "kind": "external"}
    # Same seeds, same answers: a Python agent that depends only on its input plays the same games.
    again = rg.arena("last_blast", {"mine": random_legal, "first": FirstLegal(), "heuristic": "heuristic"},
                     games=2, seed=5, parallel=1)
    assert again.table == report.table


def test_load_agent_objects_take_seats():
    zoo = rg.load_agent("zoo:last_blast:0", game="last_blast")
    report = rg.arena("last_blast", {"zoo": zoo, "r": "random"}, games=2, seed=1)
    by_spec = rg.arena("last_blast", {"zoo": "zoo:last_blast:0", "r": "random"}, games=2, seed=1)
    assert report.table == by_spec.table
    shorthand = rg.arena("last_blast", {"zoo": "zoo", "r": "random"}, games=1, seed=1)
    assert shorthand.report["config"]["agents"][0]["kind"] in ("checkpoint", "ismcts", "zoo")


# --- records -------------------------------------------------------------------------------------

def test_records_round_trip(tmp_path):
    path = tmp_path / "games.jsonl"
    report = rg.arena("launch_pad", {"mine": random_legal, "h": "heuristic"}, games=2, seed=9, num_players=3,
                      config={"reward": "win"}, records=path)
    records = rg.load_records(path)
    assert len(records) == len(report.games)
    for record, row in zip(records, report.games):
        assert record.game == "launch_pad"
        assert record.config == {"reward": "win"}
        assert record.seed == row["seed"]
        assert record.players == row["players"]
        assert record.returns == pytest.approx(row["returns"])
        states = record.states()
        assert len(states) == len(record.actions) + 1 == len(record) + 1
        assert states[-1].is_terminal() and not states[0].is_terminal()
        assert list(states[-1].returns()) == pytest.approx(record.returns)
        assert state_doc(record.state_at(3)) == state_doc(states[3])
        assert state_doc(record.state_at(-1)) == state_doc(states[-1])
    with pytest.raises(IndexError):
        records[0].state_at(len(records[0]) + 1)
    with pytest.raises(rg.Error, match="exists"):
        rg.arena("launch_pad", {"mine": random_legal, "h": "heuristic"}, games=1, num_players=3, records=path)


def state_doc(state):
    return state.to_json()


def test_a_bad_records_file_names_file_and_line(tmp_path):
    good = tmp_path / "good.jsonl"
    rg.arena("launchpad23", ["heuristic", "random"], games=1, seed=2, records=good)
    lines = good.read_text().splitlines()
    doc = json.loads(lines[1])
    doc["actions"][0] = doc["actions"][1] if doc["actions"][1] != doc["actions"][0] else 10**6
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n" + json.dumps(doc) + "\n")
    with pytest.raises(rg.SerializationError, match=re.escape(f"{bad}:2")):
        rg.load_records(bad)
    (tmp_path / "broken.jsonl").write_text("{not json\n")
    with pytest.raises(rg.SerializationError, match="broken.jsonl:1"):
        rg.load_records(tmp_path / "broken.jsonl")


# --- bad input -----------------------------------------------------------------------------------

def test_bad_agents_are_errors_naming_them(tmp_path):
    with pytest.raises(rg.Error, match="alphago"):
        rg.arena("last_blast", {"a": "alphago", "r": "random"}, games=1)
    with pytest.raises(rg.Error, match="agent 'other'.*last_blast|agent 'other'"):
        rg.arena("launchpad23", {"other": "zoo:last_blast", "r": "random"}, games=1)
    lift = rg.load_agent("zoo:lift_off:0", game="lift_off")
    with pytest.raises(rg.Error, match="agent 'z' was loaded for lift_off"):
        rg.arena("launchpad23", {"z": lift, "r": "random"}, games=1)
    with pytest.raises(rg.Error, match="agent 'n'"):
        rg.arena("last_blast", {"n": 42, "r": "random"}, games=1)
    with pytest.raises(rg.ConfigError, match="games"):
        rg.arena("last_blast", ["random", "heuristic"], games=0)
    with pytest.raises(rg.Error):
        rg.arena("no_such_game", ["random"], games=1)
    with pytest.raises(rg.ConfigError, match="rocketgym.arena config"):
        rg.arena("last_blast", ["random", "heuristic"], games=1, config="reward: [")
    with pytest.raises(rg.ConfigError, match="no_such_key"):
        rg.arena("last_blast", ["random", "heuristic"], games=1, config={"no_such_key": 1})
    with pytest.raises(rg.ConfigError, match="seed"):
        rg.arena("last_blast", ["random", "heuristic"], games=1, seed=-1)


@pytest.mark.parametrize("answer, message", [
    (lambda obs, masks: np.full(len(masks), 10**6), r"agent 'bad' returned action 1000000 .*out of range"),
    (lambda obs, masks: (~masks).argmax(axis=1), r"agent 'bad' returned action \d+ .*not legal"),
    (lambda obs, masks: np.zeros((len(masks), 2), dtype=np.int64), r"agent 'bad' returned .*shape"),
    (lambda obs, masks: np.zeros(len(masks), dtype=np.float32), r"agent 'bad' returned actions of dtype float32: it must return integers"),
    # Issue 55: an answer past int64 is named as itself, not as a wrapped negative value.
    (lambda obs, masks: [2**63 + 5] * len(masks), r"agent 'bad' returned action 9223372036854775813 .*out of range"),
])
def test_a_python_agent_s_bad_answer_is_an_error_naming_it(answer, message, tmp_path):
    records = tmp_path / "games.jsonl"
    with pytest.raises(rg.Error, match=message):
        rg.arena("last_blast", {"bad": answer, "r": "random"}, games=1, records=records)
    assert not records.exists()  # a failed arena leaves no records file


def test_an_exception_from_a_python_agent_reaches_the_caller():
    def broken(observations, masks):
        raise KeyError("my bug")

    with pytest.raises(KeyError, match="my bug"):
        rg.arena("last_blast", {"broken": broken, "r": "random"}, games=1)
    # The arena is usable after it.
    assert len(rg.arena("last_blast", ["random", "heuristic"], games=1).games) == 2


# --- issue 55: records that survive interruption, files that cannot hurt ----------------------------

def test_a_last_line_cut_short_is_skipped_with_a_warning(tmp_path):
    path = tmp_path / "games.jsonl"
    rg.arena("launchpad23", ["heuristic", "random"], games=2, seed=3, records=path)
    text = path.read_text()
    lines = text.splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    with pytest.warns(UserWarning, match=re.escape(f"{path}:{len(lines)}: the last line is cut short")):
        records = rg.load_records(path)
    assert len(records) == len(lines) - 1


def test_an_interrupted_arena_continues_its_records(tmp_path):
    whole, path = tmp_path / "whole.jsonl", tmp_path / "games.jsonl"
    agents = ["heuristic", "random", "ismcts:4"]
    expected = rg.arena("launchpad23", agents, games=2, seed=5, records=whole, config={"max_turns": 60})
    lines = whole.read_text().splitlines()
    path.write_text("\n".join([lines[4], lines[2], lines[3]]) + "\n")  # three games, in the order they ended
    with pytest.raises(rg.Error, match="--continue-records"):
        rg.arena("launchpad23", agents, games=2, seed=5, records=path, config={"max_turns": 60})
    report = rg.arena("launchpad23", agents, games=2, seed=5, records=path, config={"max_turns": 60},
                      continue_records=True)
    assert report.table == expected.table
    assert path.read_text() == whole.read_text()


def test_records_may_not_name_a_result_file(tmp_path):
    out = tmp_path / "out"
    for name in ("report.json", "games.csv"):
        with pytest.raises(rg.Error, match=re.escape(f"the arena's {name} (in --output)")):
            rg.arena("launchpad23", ["heuristic", "random"], games=1, output=out, records=out / name)
        assert not (out / name).exists()


def test_state_at_out_of_range_names_the_index_given(tmp_path):
    path = tmp_path / "games.jsonl"
    rg.arena("launchpad23", ["heuristic", "random"], games=1, seed=2, records=path)
    record = rg.load_records(path)[0]
    for k in (-len(record) - 2, len(record) + 1):
        with pytest.raises(IndexError, match=re.escape(f"state_at({k}): the record has positions 0 to {len(record)}")):
            record.state_at(k)
    assert record.state_at(-len(record) - 1).to_json() == record.state_at(0).to_json()
    # An integer past any index is the same IndexError; a bool is no index (as for a list's index).
    with pytest.raises(IndexError, match=re.escape("state_at(18446744073709551616): the record has positions")):
        record.state_at(2**64)
    with pytest.raises(TypeError, match=r"state_at\(k\): k must be an integer, not bool"):
        record.state_at(True)
    assert record.state_at(np.int64(1)).to_json() == record.state_at(1).to_json()


def test_arena_key_errors_name_the_function_and_the_range():
    with pytest.raises(rg.ConfigError) as error:
        rg.arena("last_blast", ["random", "heuristic"], games=1, seed=2**64)
    message = str(error.value)
    assert f"rocketgym.arena: key 'seed': value {2**64} out of range [0, {2**64 - 1}]" in message
    assert ":?" not in message
    with pytest.raises(rg.ConfigError, match=re.escape("key 'threads': value 257 out of range [1, 256]")):
        rg.arena("last_blast", ["random", "heuristic"], games=1, threads=rg.max_threads() + 1)


def test_arena_flags_take_only_booleans(tmp_path):
    # continue_records="false" (or "no") continued an existing records file: truthiness, not a bool.
    path = tmp_path / "games.jsonl"
    path.write_text("not a record of this arena\n")
    for value in ("false", "no", 0, None):
        with pytest.raises(TypeError, match=f"continue_records must be True or False, not {type(value).__name__}"):
            rg.arena("lift_off", ["random", "heuristic"], games=1, records=path, continue_records=value)
        with pytest.raises(TypeError, match=f"plot must be True or False, not {type(value).__name__}"):
            rg.arena("lift_off", ["random", "heuristic"], games=1, plot=value)
    assert path.read_text() == "not a record of this arena\n"
    report = rg.arena("lift_off", ["random", "heuristic"], games=1, plot=np.bool_(False),
                      continue_records=np.False_)
    assert report.report["games"] == 2


def test_arena_size_is_capped_before_anything_is_allocated(tmp_path):
    # games=10_000_000 at 2 players was a MemoryError after gigabytes.
    with pytest.raises(rg.ConfigError, match=re.escape("key 'games': value 10000000 out of range [1, 1048576]")):
        rg.arena("lift_off", {"a": "random", "b": "heuristic"}, games=10_000_000, num_players=2)
    with pytest.raises(rg.ConfigError, match=r"games: 600000 seeds per lineup, each played 2 times .* "
                                             r"lower games \(--games\) to at most 524288"):
        rg.arena("lift_off", {"a": "random", "b": "heuristic"}, games=600_000, num_players=2)
    with pytest.raises(rg.ConfigError, match="agents: 200 agents; an arena seats at most 100"):
        rg.arena("lift_off", {f"a{k}": "random" for k in range(200)}, games=1, num_players=4)
    done = _run("arena", "--game", "lift_off", "--agent", "random", "--agent", "heuristic", "--games", "600000",
                "--quiet", "--no-plot", "--output", str(tmp_path / "out"), check=False)
    assert done.returncode != 0 and "games: 600000 seeds per lineup" in done.stderr


def test_arena_names_follow_the_command_line_rule():
    for name in ("a\nb", "a,b", "my bot", "tab\there", "n" * 65):
        with pytest.raises(rg.Error, match=re.escape("agents: a dict key is not an agent name: an agent's name is "
                                                     "1 to 64 letters, digits and _ - . + #")):
            rg.arena("lift_off", {name: "random", "h": "heuristic"}, games=1)
    assert rg.arena("lift_off", {"ppo-2.1+x#2": "random", "h": "heuristic"}, games=1).names[0] == "ppo-2.1+x#2"


def test_replay_refuses_control_bytes_in_a_name_and_shows_them_escaped(tmp_path):
    records = tmp_path / "games.jsonl"
    # The arena names agents plainly; a records file edited by hand may hold anything: a name the
    # arena never writes is refused, named escaped.
    rg.arena("launchpad23", {"red": "heuristic", "plain": "random"}, games=1, seed=4, records=records)
    records.write_text(records.read_text().replace('"red"', '"\\u001b[31mred\\u0007"'))
    out = subprocess.run([_cli(), "replay", str(records)], capture_output=True, timeout=600, stdin=subprocess.DEVNULL)
    assert out.returncode == 1 and out.stdout == b""
    assert b"\x1b" not in out.stderr and b"\x07" not in out.stderr
    assert b"'\\x1B[31mred\\x07', is not a name the arena writes" in out.stderr


# --- the command line: arena --records and replay --------------------------------------------------

def test_cli_records_refuses_an_existing_file(tmp_path):
    records = tmp_path / "games.jsonl"
    records.write_text("earlier\n")
    result = _run("arena", "--game", "launchpad23", "--agent", "random", "--agent", "heuristic", "--games", "1",
                  "--output", str(tmp_path / "out"), "--no-plot", "--quiet", "--records", str(records), check=False)
    assert result.returncode == 1
    assert str(records) in result.stderr and "exists" in result.stderr
    assert records.read_text() == "earlier\n"


def test_replay_prints_a_whole_game_without_a_terminal(tmp_path):
    records = tmp_path / "games.jsonl"
    rg.arena("last_blast", ["heuristic", "random"], games=1, seed=4, records=records)
    game = rg.load_records(records)[1]
    full = _run("replay", str(records), "--game", "1").stdout
    assert "seed " + str(game.seed) in full and "the full board" in full
    start = game.state_at(0)
    assert start.to_string() in full
    assert f"1. player {start.current_player} ({game.players[start.current_player]}): " \
           f"{start.action_to_string(game.actions[0])}" in full
    assert f"{len(game.actions)}. " in full
    assert game.state_at(len(game)).to_string() in full
    assert "returns:" in full
    seat = _run("replay", str(records), "--game", "1", "--seat", "0").stdout
    assert "seen from seat 0" in seat
    assert start.observation_string(0) in seat
    # Seen from seat 0, what seat 1 holds stays hidden: the full board is not in the output.
    assert start.observation_string(0) != start.to_string()
    assert start.to_string() not in seat


def test_replay_errors_name_the_file_and_the_argument(tmp_path):
    records = tmp_path / "games.jsonl"
    rg.arena("launchpad23", ["heuristic", "random"], games=1, seed=4, records=records)
    out = _run("replay", str(records), "--game", "5", check=False)
    assert out.returncode == 1 and "--game 5" in out.stderr and "holds 2 games" in out.stderr
    out = _run("replay", str(records), "--seat", "2", check=False)
    assert out.returncode == 1 and "--seat 2" in out.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text(records.read_text().splitlines()[0] + "\n{\"record\": 1}\n")
    out = _run("replay", str(bad), "--game", "1", check=False)
    assert out.returncode == 1 and f"{bad}:2" in out.stderr
    # --game N reads no further than game N: game 0 shows whatever follows it.
    assert "; the full board" in _run("replay", str(bad)).stdout
    out = _run("replay", str(tmp_path / "missing.jsonl"), check=False)
    assert out.returncode != 0 and "missing.jsonl" in out.stderr


# --- issue 54: sampling agents whatever the batch, one against each ------------------------------


class SeededSampler:
    """A sampling Python agent that draws each row's move from the seed the arena gives that row."""

    def act(self, observations, action_masks, seeds):
        return np.array([np.random.default_rng(int(s)).choice(np.flatnonzero(m))
                         for s, m in zip(seeds, action_masks)], dtype=np.int64)


def _sampling_torch_agent():
    torch = pytest.importorskip("torch")
    torch.manual_seed(1)
    size = int(np.prod(rg.load_game("lift_off").observation_shape(2)))
    module = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(size, rg.game_info("lift_off").num_actions))
    return rg.TorchAgent(module, greedy=False, seed=3, name="sampler")


@pytest.mark.parametrize("agent", ["torch", "python"])
def test_a_sampling_agent_plays_the_same_games_for_any_parallel_and_threads(agent, tmp_path):
    mine = _sampling_torch_agent() if agent == "torch" else SeededSampler()
    played = []
    for k, (parallel, threads) in enumerate([(64, 2), (1, 1), (3, 2)]):
        records = tmp_path / f"{k}.jsonl"
        report = rg.arena("lift_off", agents={"mine": mine, "r": "random"}, games=2, seed=5, parallel=parallel,
                          threads=threads, records=records)
        played.append(([json.loads(line)["actions"] for line in records.read_text().splitlines()], report.games))
    assert all(p == played[0] for p in played[1:])


def test_one_vs_each_plays_only_the_named_agents_games():
    report = rg.arena("lift_off", agents={"mine": FirstLegal(), "h": "heuristic", "r": "random"}, games=2,
                      one_vs_each="mine")
    assert len(report.games) == 2 * 2 * 2  # 2 opponents x 2 seeds x 2 seat rotations
    assert sorted({tuple(sorted(g["players"])) for g in report.games}) == [("h", "mine"), ("mine", "r")]
    three = rg.arena("last_blast", agents={"mine": "random", "h": "heuristic", "r": "random"}, games=1,
                     num_players=3, one_vs_each="mine")
    assert sorted(sorted(g["players"]) for g in three.games if g["rotation"] == 0) == [
        ["h", "h", "mine"], ["mine", "r", "r"]]  # it against each: the other agent in every other seat
    assert three.report["config"]["one_vs_each"] == "mine"
    with pytest.raises(rg.ConfigError, match=r"one_vs_each: no agent named 'nobody' \(the agents: mine, h, r\)"):
        rg.arena("lift_off", agents={"mine": "random", "h": "heuristic", "r": "random"}, games=1,
                 one_vs_each="nobody")
    with pytest.raises(rg.Error, match="one_vs_each must name"):
        rg.arena("lift_off", agents=["random", "heuristic"], one_vs_each="")
