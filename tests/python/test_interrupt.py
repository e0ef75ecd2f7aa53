"""Ctrl-C in the C++ work that runs without the GIL (issue 54): rg.arena and an opponent env's step
stop at the next poll between batches, and the arena keeps the games finished so far.

No timer: SIGINT comes either from rocketgym._agents._raise_sigint_at_poll(n) (the n-th poll raises
SIGINT itself, as a Ctrl-C arriving at that point would, and Python's own handler turns it into a
KeyboardInterrupt) or from a Python agent raising KeyboardInterrupt at a fixed call.
"""

import json
import signal

import numpy as np
import pytest

import rocketgym as rg

agents = pytest.importorskip("rocketgym._agents", reason="built without the LibTorch training library")

GAME = "lift_off"


@pytest.fixture(autouse=True)
def _hook_off():
    # Python's own SIGINT handler, whatever this process inherited: a shell starts a background
    # job (`scripts/test.sh &`) with SIGINT ignored, and Python then installs no handler, so the
    # raised SIGINT would do nothing (as a real Ctrl-C would not reach such a process either).
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    agents._raise_sigint_at_poll(0)
    signal.signal(signal.SIGINT, inherited)


def _key(game):
    return (game["lineup"], game["rotation"], game["seed"])


def test_ctrl_c_stops_an_arena_of_builtin_agents_and_keeps_the_finished_games(tmp_path):
    complete = rg.arena(GAME, agents=["heuristic", "random"], games=30, parallel=4, threads=1)
    records = tmp_path / "games.jsonl"
    agents._raise_sigint_at_poll(600)  # round 600 of about 3,000: 60 games of about 200 moves, 4 at a time
    with pytest.raises(rg.ArenaInterrupted) as stopped:
        rg.arena(GAME, agents=["heuristic", "random"], games=30, parallel=4, threads=1, records=records)
    assert isinstance(stopped.value, KeyboardInterrupt)
    assert isinstance(stopped.value.__cause__, KeyboardInterrupt)  # what Python's SIGINT handler raised
    report, scheduled = stopped.value.report, stopped.value.scheduled
    assert scheduled == len(complete.games) == 60
    assert 0 < len(report.games) < scheduled
    assert report.report["games"] == len(report.games)
    # The finished games are those of the uninterrupted arena, in schedule order.
    order = {_key(g): k for k, g in enumerate(complete.games)}
    places = [order[_key(g)] for g in report.games]
    assert places == sorted(places)
    for game, place in zip(report.games, places):
        assert game == complete.games[place]
    lines = records.read_text().splitlines()
    assert len(lines) == len(report.games)
    assert [json.loads(line)["returns"] for line in lines] == [g["returns"] for g in report.games]


def test_ctrl_c_inside_a_python_agent_stops_the_arena_the_same_way():
    calls = []

    def interrupted_at_the_fifth_call(observations, action_masks):
        calls.append(len(observations))
        if len(calls) == 5:
            raise KeyboardInterrupt
        return np.argmax(action_masks, axis=1)

    with pytest.raises(rg.ArenaInterrupted) as stopped:
        rg.arena(GAME, agents={"mine": interrupted_at_the_fifth_call, "h": "heuristic"}, games=4, parallel=1)
    assert len(calls) == 5 and stopped.value.scheduled == 8
    assert stopped.value.report.games == []  # no game finished in 4 of its moves


def test_ctrl_c_stops_an_opponent_env_step_between_searches():
    vec = rg.make_vec(GAME, 6, opponents=["ismcts:50"], seed=1)
    before = [vec.state(i).to_json() for i in range(6)]
    # Poll 1: the round of the search opponent's moves; poll 2: its first search.
    agents._raise_sigint_at_poll(2)
    with pytest.raises(KeyboardInterrupt):
        vec.step(vec.sample_actions())
    assert vec._env.broken  # stopped mid-turn: the learner's moves were played, not the bot's
    assert [vec.state(i).to_json() for i in range(6)] != before
    with pytest.raises(rg.Error, match="call reset"):
        vec.step(vec.sample_actions())
    vec.reset(seed=1)
    vec.step(vec.sample_actions())


def test_ctrl_c_inside_a_python_opponent_stops_the_step():
    calls = []

    def opponent(observations, action_masks):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return np.argmax(action_masks, axis=1)

    env = rg.make(GAME, opponents=[opponent], seed=0)
    obs, _ = env.reset()
    with pytest.raises(KeyboardInterrupt):
        for _ in range(10):
            obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(calls) == 3
    with pytest.raises(rg.Error, match="call reset"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_off_the_main_thread_the_work_never_polls():
    """Python runs signal handlers on its main thread only: a step started elsewhere does not take
    the GIL to look for them (the hook's SIGINT would otherwise come)."""
    import threading

    vec = rg.make_vec(GAME, 2, opponents=["ismcts:10"], seed=1)
    agents._raise_sigint_at_poll(1)
    errors = []

    def steps():
        try:
            for _ in range(3):
                vec.step(vec.sample_actions())
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    worker = threading.Thread(target=steps)
    worker.start()
    worker.join()
    assert errors == [] and not vec._env.broken
