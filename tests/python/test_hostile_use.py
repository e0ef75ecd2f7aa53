"""Python misuse that used to crash the interpreter or be silently accepted (issue 16).

Whatever could kill the process runs in a child interpreter, so that a crash fails the test
instead of ending the test run.
"""

import gc
import os
import pathlib
import subprocess
import sys
import textwrap
import weakref

import numpy as np
import pytest

import rocketgym as rg

PACKAGE_DIR = str(pathlib.Path(rg.__file__).resolve().parents[1])


def run_child(game_id, body, timeout=120):
    """Runs `body` in a new interpreter with `rg` imported and `GAME` set; returns the completed process."""
    code = f"import sys\nsys.path.insert(0, {PACKAGE_DIR!r})\nimport numpy as np\nimport rocketgym as rg\n" \
           f"GAME = {game_id!r}\n" + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, OMP_NUM_THREADS="1"))


def assert_clean_exit(result):
    assert result.returncode == 0, f"child exited with {result.returncode}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_rewriting_the_actions_during_a_step_cannot_abort_the_interpreter(game_id):
    # A second thread writes illegal ids into the very array being stepped. The env must either step
    # the actions it validated or raise IllegalAction, never die in the OpenMP loop. Both outcomes are
    # forced, not left to the scheduler: the vandal thread writes only when told to, and
    # `_after_actions_copied` (a test hook) tells it to at the moment step() has copied the actions
    # and no env has stepped yet.
    out = assert_clean_exit(run_child(game_id, """
        import threading
        vec = rg.make_vec(GAME, 256, num_threads=2, seed=1)
        twin = rg.make_vec(GAME, 256, num_threads=2, seed=1)  # stepped with the same legal actions
        actions = vec.sample_actions()
        legal = actions.copy()
        # An id illegal in env 0, so that a step of the rewritten array must be refused.
        bad = np.int32(np.flatnonzero(vec.action_masks[0] == 0)[0])
        go, written = threading.Event(), threading.Event()
        def vandal():
            go.wait()
            actions[:] = bad
            written.set()
        thread = threading.Thread(target=vandal)
        thread.start()
        def rewrite_now():  # runs inside step(), after the copy: let the vandal write, wait for it
            go.set()
            written.wait()
        vec._env._after_actions_copied = rewrite_now
        vec.step(actions)  # outcome 1: the validated copy is stepped, the rewrite comes too late
        vec._env._after_actions_copied = None
        thread.join()
        assert (actions == bad).all(), "the vandal thread did not rewrite the array"
        twin.step(legal)
        assert np.array_equal(vec.observations, twin.observations)
        assert np.array_equal(vec.episode_steps, twin.episode_steps)
        before = vec.observations.copy()
        try:  # outcome 2: the rewritten array is validated, and refused before any env steps
            vec.step(actions)
            print("stepped")
        except rg.IllegalAction as e:
            print("refused")
        assert np.array_equal(vec.observations, before)
    """))
    assert out.split() == ["refused"]


def test_an_impossible_thread_count_is_refused(game_id):
    out = assert_clean_exit(run_child(game_id, """
        for n in (2**31 - 1, 2**31, 10**6, 0, -1, "max + 1"):
            n = rg.max_threads() + 1 if n == "max + 1" else n
            try:
                rg.make_vec(GAME, 2, num_threads=n)
                print("accepted", n)
            except rg.Error as e:
                assert "num_threads" in str(e), e
        vec = rg.make_vec(GAME, 2, num_threads=rg.max_threads())
        vec.step(vec.sample_actions())
        for n in (2**31 - 1, rg.max_threads() + 1):
            try:
                vec.num_threads = n
                print("accepted", n)
            except rg.Error:
                pass
        vec.step(vec.sample_actions())
        print("ok")
    """))
    assert out.split() == ["ok"]
    assert rg.max_threads() >= 8


def test_module_classes_cannot_be_made_without_a_value():
    # Every way to reach the allocator without the module: the class's own
    # __new__, calling the class, the pybind11 base's __new__ (which Python
    # calls "not safe" once our slot is in place) and a subclass.
    out = assert_clean_exit(run_child(None, """
        base = rg.State.__mro__[1]
        for cls in (rg.State, rg.Game, rg.GameInfo):
            class Sub(cls):
                pass
            for make in (lambda: cls.__new__(cls), lambda: cls(), lambda: cls(1, 2),
                         lambda: base.__new__(cls), lambda: object.__new__(cls),
                         lambda: Sub(), lambda: base.__new__(Sub), lambda: cls.__new__(Sub)):
                try:
                    obj = make()
                except TypeError as e:
                    assert "cannot be created directly" in str(e) or "is not safe" in str(e), e
                    continue
                print("made", cls.__name__, obj.num_players)
        print("ok")
    """))
    assert out.split() == ["ok"]


def test_direct_construction_still_works_through_the_module(game_id):
    game = rg.load_game(game_id)
    state = game.new_state(2, 1)
    assert isinstance(state, rg.State) and isinstance(state.clone(), rg.State)
    assert isinstance(game, rg.Game) and isinstance(game.info, rg.GameInfo)


@pytest.mark.skipif(len(rg.list_games()) < 2, reason="needs two registered games")
def test_set_state_refuses_another_games_state(game_id, rng):
    other_id = next(g for g in rg.list_games() if g != game_id)
    other = rg.load_game(other_id).new_state(2, 1)
    for env in (rg.make(game_id),):
        env.reset(seed=0)
        before = env.to_json()
        with pytest.raises(rg.Error, match=other_id):
            env.set_state(other)
        with pytest.raises(rg.Error, match=other_id):
            env.set_state(other.to_json())
        assert env.to_json() == before
    aec = rg.aec_env(game_id)
    with pytest.raises(rg.Error, match=other_id):
        aec.reset(options={"state": other.to_json()})


def test_set_state_takes_the_position_not_the_object(game_id):
    # The env keeps its own copy, bound to its own game and configuration.
    game = rg.load_game(game_id)
    state = game.new_state(2, 3)
    env = rg.make(game_id)
    env.set_state(state)
    state.apply(state.legal_actions()[0])
    assert env.to_json() != state.to_json()
    assert env.get_state().current_player == game.new_state(2, 3).current_player


def test_a_state_document_naming_another_game_is_refused(game_id):
    import json

    document = json.loads(rg.load_game(game_id).new_state(2, 1).to_json())
    document["game"] = "not_" + game_id
    with pytest.raises(rg.Error, match="not_" + game_id):
        rg.make(game_id).set_state(document)


def test_deep_state_documents_are_refused_naming_the_limit_not_a_crash():
    # Once a stack overflow in every game: the C++ reader dumped the bad value into its message.
    child = run_child(None, """
        import json
        deep = "[" * 100000 + "]" * 100000
        for g in rg.list_games():
            game = rg.load_game(g)
            document = json.loads(game.new_state(rg.game_info(g).min_players, 1).to_json())
            field = json.dumps(dict(document, turn="@")).replace('"@"', deep)
            for text in (deep, field):
                try:
                    game.state_from_json(text)
                except rg.SerializationError as e:
                    assert "nested more than 100 levels deep" in str(e), (g, str(e)[:200])
                else:
                    raise AssertionError(g + ": accepted")
        print("refused")
    """)
    assert child.returncode == 0 and "refused" in child.stdout, child.stderr[-2000:]


def test_a_state_dict_nested_past_the_recursion_limit_is_a_serialization_error(game_id):
    deep = []
    for _ in range(100000):
        deep = [deep]
    document = {"game": game_id, "turn": deep}
    with pytest.raises(rg.SerializationError, match="nested more than 100 levels deep"):
        rg.load_game(game_id).state_from_json(document)
    with pytest.raises(rg.SerializationError, match="nested more than 100 levels deep"):
        rg.make(game_id).set_state(document)
    with pytest.raises(rg.SerializationError, match="nested more than 100 levels deep"):
        rg.make(game_id).set_state("[" * 100000 + "]" * 100000)


def test_close_lets_the_vector_env_go(game_id):
    vec = rg.make_vec(game_id, 4, seed=1)
    obs, info = vec.reset()
    kept = obs["observation"]
    copy = kept.copy()
    handle = weakref.ref(vec._env)
    assert not vec.closed
    vec.close()
    assert vec.closed
    np.testing.assert_array_equal(kept, copy)  # arrays kept stay readable
    for call in (lambda: vec.step(np.zeros(4, np.int32)), vec.reset, vec.sample_actions, vec.heuristic_actions,
                 lambda: vec.state(0), lambda: vec.num_threads, lambda: setattr(vec, "num_threads", 1)):
        with pytest.raises(rg.Error, match="closed"):
            call()
    vec.close()  # again: nothing happens
    assert "closed" in repr(vec)
    del obs, info, kept
    gc.collect()
    assert handle() is None, "the C++ env must be freed once nothing refers to its buffers"


def test_the_vector_env_is_a_context_manager(game_id):
    with rg.make_vec(game_id, 2, seed=1) as vec:
        vec.step(vec.sample_actions())
    assert vec.closed


def test_a_viewer_must_be_an_integer(game_id):
    state = rg.load_game(game_id).new_state(2, 1)
    out = np.empty(state.observation_shape, dtype=np.float32)
    calls = [
        lambda v: state.observation(viewer=v),
        lambda v: state.observation_string(v),
        lambda v: state.known_card_places(v),
        lambda v: state.encode(v, out),
        lambda v: state.clone().redeterminize(v, 0),
    ]
    for call in calls:
        for bad in (1.5, 1.0, True, "1", None if call is not calls[0] else [1]):
            with pytest.raises(TypeError, match="viewer|integer"):
                call(bad)
        for out_of_range in (-1, 2, 2**70):
            with pytest.raises(rg.Error, match="viewer"):
                call(out_of_range)
        call(np.int64(1))
