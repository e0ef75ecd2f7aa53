"""Errors name a long or hostile argument by a short, escaped prefix (envs/core/quoted.h, one rule for
the C++ and the Python messages), name the argument, and a Python integer out of a parameter's range
is a ValueError naming it, not pybind11's "incompatible function arguments"."""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import rocketgym as rg
from rocketgym import _rocketgym as core

LONG = "x" * 100_000
SHOWN = "x" * core.MAX_QUOTED_BYTES + "..."
REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("ROCKETGYM_BUILD_DIR", REPO / "build")) / "rocketgym"


def _has_agents():
    try:
        import rocketgym._agents  # noqa: F401
    except ImportError:
        return False
    return True


ROUTES = {
    "make_vec": (lambda: rg.make_vec(LONG, 2), "unknown game"),
    "game_info": (lambda: rg.game_info(LONG), "unknown game"),
    "load_game": (lambda: rg.load_game(LONG), "unknown game"),
    "gymnasium_id": (lambda: rg.gymnasium_id(LONG), "unknown game"),
    "builtin_game_config": (lambda: rg.builtin_game_config(LONG), "unknown game"),
    "render_mode": (lambda: rg.make("lift_off", render_mode=LONG), "render_mode"),
    "illegal_action": (lambda: rg.make("lift_off", illegal_action=LONG), "illegal_action"),
    "config value": (lambda: rg.make("lift_off", config={"reward": LONG}), "'reward'"),
}
AGENT_ROUTES = {
    "seat": (lambda: rg.make("lift_off", opponents=["random"], seat=LONG), "seat"),
    "opponents": (lambda: rg.make("lift_off", opponents=[LONG]), "opponent"),
    "load_agent": (lambda: rg.load_agent(LONG, game="lift_off"), "agent"),
}


@pytest.mark.parametrize("route", [*ROUTES, *AGENT_ROUTES])
def test_a_long_value_is_named_by_its_start(route):
    call, names = {**ROUTES, **AGENT_ROUTES}[route]
    if route in AGENT_ROUTES and not _has_agents():
        pytest.skip("built without the LibTorch training library")
    with pytest.raises((rg.Error, ValueError)) as caught:
        call()
    message = str(caught.value)
    assert len(message) < 4 * core.MAX_QUOTED_BYTES + 400, message[:300]
    assert names in message and SHOWN in message


def test_a_control_character_is_escaped_not_printed():
    with pytest.raises(rg.Error) as caught:
        rg.load_game("lift\x1b[31mRED\nline2")
    assert str(caught.value).startswith("unknown game 'lift\\x1B[31mRED\\x0Aline2'")


def test_the_python_layer_quotes_by_the_same_rule():
    assert core.shortened("a\nb") == "a\\x0Ab"
    assert core.shortened(LONG) == SHOWN
    assert core.shortened(LONG, 3) == "xxx..."
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\), got an integer of 100001 bits"):
        rg.make("lift_off").reset(seed=2**100_000)


def test_builtin_game_config_of_an_unknown_game_is_an_error():
    with pytest.raises(rg.Error, match="unknown game 'no_such_game'"):
        rg.builtin_game_config("no_such_game")
    assert "reward" in rg.builtin_game_config("lift_off")


def test_numbers_past_a_parameters_range_name_it():
    with pytest.raises(rg.Error, match=r"lift_off is played by 2 to 4 players, not 1099511627776"):
        rg.make_vec("lift_off", 2, num_players=2**40)
    with pytest.raises(rg.Error, match="played by 2 to 4 players, not an integer of 100001 bits"):
        rg.load_game("lift_off").new_state(2**100_000)
    with pytest.raises(rg.Error, match="played by 2 to 4 players, not " + "9" * core.MAX_QUOTED_BYTES + r"\.\.\.$"):
        rg.load_game("lift_off").new_state(10**1000 - 1)
    vec = rg.make_vec("lift_off", 2, seed=1)
    for env in (2, -1, 2**64):
        with pytest.raises(rg.Error, match=r"env (2|-1|18446744073709551616) out of range \[0, 1\]"):
            vec.state(env)
    with pytest.raises(TypeError, match="env must be an integer, not float"):
        vec.state(1.0)


@pytest.mark.skipif(not _has_agents(), reason="built without the LibTorch training library")
def test_an_agents_seed_is_checked_as_every_seed():
    agent = rg.load_agent("random", game="lift_off")
    state = rg.load_game("lift_off").new_state(2, 1)
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\), got"):
            agent.act(state, seed=seed)
    with pytest.raises(TypeError, match="a seed must be an integer, not float"):
        agent.act(state, seed=1.5)
    assert state.is_legal(agent.act(state, seed=np.uint64(2**64 - 1)))


def test_step_takes_one_action_not_an_array():
    env = rg.make("lift_off")
    env.reset(seed=1)
    action = int(np.flatnonzero(env.action_masks())[0])
    for given, shape in ((np.array([action]), r"\(1,\)"), (np.array([[action]]), r"\(1, 1\)")):
        with pytest.raises(TypeError, match=r"an action must be one integer, not an array of shape " + shape):
            env.step(given)
    env.step(np.array(action))  # a 0-d array is one integer


def test_a_closed_vector_env_says_so():
    vec = rg.make_vec("lift_off", 2, seed=1)
    vec.close()
    for call in (lambda: vec.observations, lambda: vec.action_masks, vec.torch_views, vec.render):
        with pytest.raises(rg.Error, match="this VectorEnv is closed"):
            call()
    against = rg.make_vec("lift_off", 2, seed=1, opponents=["random"], render_mode="ansi")
    against.close()
    with pytest.raises(rg.Error, match="this OpponentVectorEnv is closed"):
        against.render()
    with pytest.raises(AttributeError):
        vec.no_such_attribute
    async_vec = rg.AsyncVectorEnv("lift_off", 4, batch_size=2, seed=1)
    async_vec.reset()
    async_vec.close()
    for call in (lambda: async_vec.step(np.zeros(2, np.int32)), async_vec.render):
        with pytest.raises(rg.Error, match="this AsyncVectorEnv is closed"):
            call()


def _cli(*args):
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}: build the rocketgym target first")
    return subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=300)


def _training_cli():
    if " train " not in _cli("--help").stdout:
        pytest.skip("built without the LibTorch training library")


ARG = "y" * 5000


@pytest.mark.parametrize("args, names, echoed", [
    (["play", "lift_off", "-p", ARG], "--players", False),  # "must be a whole number in decimal": no echo
    (["play", ARG], "unknown game", True),
    (["bench", "--modes", ARG], "--modes", True),
    (["bench", "--modes=" + ARG], "--modes", True),
    (["play", "lift_off", ARG, "--bots"], "not expected", True),
])
def test_the_cli_names_a_long_argument_by_its_start(args, names, echoed):
    result = _cli(*args)
    assert result.returncode != 0
    assert len(result.stderr) < 4 * core.MAX_QUOTED_BYTES + 400 and names in result.stderr, result.stderr[:300]
    assert ("y" * core.MAX_QUOTED_BYTES + "..." in result.stderr) == echoed
    assert "y" * (core.MAX_QUOTED_BYTES + 1) not in result.stderr


@pytest.mark.parametrize("args, names", [
    (["describe", "--config-keys", ARG], "--config-keys"),
    (["train", str(REPO / "configs/train/lift_off_ppo.yaml"), "--device", ARG], "--device"),
    (["train", str(REPO / "configs/train/lift_off_ppo.yaml"), "--set", ARG + "=1"], "a key is longer than"),
    (["arena", "--game", "lift_off", "--agent", ARG, "--agent", "random"], "unknown kind"),
])
def test_the_training_cli_names_a_long_argument_by_its_start(args, names):
    _training_cli()
    result = _cli(*args)
    assert result.returncode != 0
    assert len(result.stderr) < 4 * core.MAX_QUOTED_BYTES + 600 and names in result.stderr, result.stderr[:300]
    assert "y" * (core.MAX_QUOTED_BYTES + 1) not in result.stderr


def test_a_run_dir_that_is_a_file_is_named(tmp_path):
    _training_cli()
    run_dir = tmp_path / "afile"
    run_dir.write_text("")
    result = _cli("train", str(REPO / "configs/train/lift_off_ppo.yaml"), "--run-dir", str(run_dir),
                  "--quiet")
    assert result.returncode != 0
    assert f"run.dir (--run-dir) '{run_dir}' cannot be created" in result.stderr, result.stderr


def _every_string_long(document, game_id):
    if isinstance(document, dict):
        return {k: _every_string_long(v, game_id) for k, v in document.items()}
    if isinstance(document, list):
        return [_every_string_long(v, game_id) for v in document]
    return LONG if isinstance(document, str) and document != game_id else document


def test_a_state_document_with_long_names_is_refused_by_their_start(game_id):
    game = rg.load_game(game_id)
    document = _every_string_long(json.loads(game.new_state(2, 1).to_json()), game_id)
    with pytest.raises(rg.SerializationError) as caught:
        game.state_from_json(json.dumps(document))
    assert len(str(caught.value)) < 4 * core.MAX_QUOTED_BYTES + 400, str(caught.value)[:300]


# A JSON parse error quotes the place and the last bytes read, never the whole
# token: nlohmann's own message ends with everything read since the token began.
def test_a_json_parse_error_shows_the_last_bytes_read_not_the_whole_input(tmp_path):
    text = '{"game": "' + "A" * 500_000 + '\x01"}'
    with pytest.raises(rg.SerializationError) as state_error:
        rg.load_game("lift_off").state_from_json(text)
    message = str(state_error.value)
    assert "last read: '..." in message and "A" * 41 not in message and len(message) < 600
    with pytest.raises(rg.SerializationError) as number_error:
        rg.load_game("lift_off").state_from_json('{"players": 1' + "0" * 5000 + "}")
    assert len(str(number_error.value)) < 600
    records = tmp_path / "records.jsonl"
    records.write_text(text + "\n")
    with pytest.raises(rg.Error) as records_error:
        rg.load_records(str(records))
    assert str(records) in str(records_error.value) and len(str(records_error.value)) < 1000


# Bytes that are not UTF-8 in a message (a file's broken text) are escaped, not
# turned into an exception without a message.
def test_a_message_with_bytes_that_are_not_utf8_keeps_its_text(tmp_path):
    records = tmp_path / "records.jsonl"
    records.write_bytes(b'{"game": "\xff"}\n')
    with pytest.raises(rg.Error) as error:
        rg.load_records(str(records))
    assert str(records) in str(error.value) and ":1:" in str(error.value)


# numpy's bool still passes as an index (with a DeprecationWarning): refused
# like Python's bool wherever one integer is read.
def test_a_numpy_bool_is_not_an_integer():
    env = rg.make("last_blast")
    env.reset(seed=1)
    for value in (np.bool_(True), np.array(True)):
        with pytest.raises(TypeError, match="must be an integer, not"):
            env.step(value)
    state = rg.load_game("last_blast").new_state(2, 1)
    with pytest.raises(TypeError, match="must be an integer"):
        state.apply(np.bool_(True))
