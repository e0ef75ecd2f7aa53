"""The State API that researchers use for search: apply, clone, JSON, legal actions, views."""

import copy
import json

import numpy as np
import pytest
from conftest import illegal_in_range, play_to_end, random_legal

import rocketgym as rg


def midgame_state(game_id, num_players, rng, moves=8, seed=3):
    """A state a few random moves into a game (still running)."""
    state = rg.load_game(game_id).new_state(num_players, seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        snapshot = state.clone()
        state.apply(random_legal(state.legal_actions_mask(), rng))
        if state.is_terminal():
            return snapshot
    return state


def test_same_seed_same_start_different_seed_may_differ(game_id, num_players):
    game = rg.load_game(game_id)
    assert game.new_state(num_players, 11).to_json() == game.new_state(num_players, 11).to_json()


def test_new_state_describes_its_seating(game_id, num_players):
    state = rg.load_game(game_id).new_state(num_players, 1)
    assert state.num_players == num_players
    assert state.num_actions == rg.game_info(game_id).num_actions
    assert 0 <= state.current_player < num_players
    assert not state.is_terminal() and not state.is_truncated()
    assert "State" in repr(state)


def test_legal_actions_match_the_mask(game_id, num_players, rng):
    state = midgame_state(game_id, num_players, rng)
    mask = state.legal_actions_mask()
    assert mask.dtype == np.int8 and mask.shape == (state.num_actions,)
    assert state.legal_actions() == [int(a) for a in np.flatnonzero(mask)]
    assert all(state.is_legal(a) for a in state.legal_actions())
    assert not state.is_legal(-1) and not state.is_legal(state.num_actions) and not state.is_legal(1.5)


def test_every_legal_action_has_a_readable_name(game_id, num_players, rng):
    state = midgame_state(game_id, num_players, rng)
    for a in state.legal_actions():
        text = state.action_to_string(a)
        assert isinstance(text, str) and text.strip()


def test_clone_is_independent(game_id, num_players, rng):
    state = midgame_state(game_id, num_players, rng)
    before = state.to_json()
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        twin.apply(random_legal(twin.legal_actions_mask(), rng))
        assert state.to_json() == before


def test_json_round_trip_is_exact_and_replays_chance(game_id, num_players, rng):
    game = rg.load_game(game_id)
    state = midgame_state(game_id, num_players, rng)
    loaded = game.state_from_json(state.to_json())
    assert loaded.to_json() == state.to_json()
    assert game.state_from_json(json.loads(state.to_json())).to_json() == state.to_json()
    # The RNG travels with the state: the same moves give the same chance draws.
    for _ in range(20):
        if state.is_terminal():
            break
        a = random_legal(state.legal_actions_mask(), rng)
        state.apply(a)
        loaded.apply(a)
        assert loaded.to_json() == state.to_json()


@pytest.mark.parametrize("document", ["", "{not json", "[1, 2, 3]", "{}", '{"players": "many"}'])
def test_bad_state_documents_are_serialization_errors(game_id, document):
    with pytest.raises(rg.SerializationError):
        rg.load_game(game_id).state_from_json(document)


def test_state_document_of_wrong_type_is_a_type_error(game_id):
    with pytest.raises(TypeError, match="JSON"):
        rg.load_game(game_id).state_from_json(42)


def test_corrupted_field_is_a_serialization_error(game_id, num_players, rng):
    doc = json.loads(midgame_state(game_id, num_players, rng).to_json())
    if "rng" not in doc:
        pytest.skip("the document keeps its RNG under another name")
    doc["rng"] = "not an rng"
    with pytest.raises(rg.SerializationError):
        rg.load_game(game_id).state_from_json(doc)


def test_out_of_range_action_raises_and_changes_nothing(game_id, num_players, rng):
    state = midgame_state(game_id, num_players, rng)
    before = state.to_json()
    for bad in (-1, state.num_actions, 2**40, -(2**70)):
        with pytest.raises(rg.IllegalAction, match="out of range"):
            state.apply(bad)
        assert state.to_json() == before


def test_illegal_action_raises_and_changes_nothing(game_id, num_players, rng):
    state = midgame_state(game_id, num_players, rng)
    bad = illegal_in_range(state)
    if bad is None:
        pytest.skip("every action is legal in this position")
    before = state.to_json()
    with pytest.raises(rg.IllegalAction):
        state.apply(bad)
    assert state.to_json() == before


@pytest.mark.parametrize("bad", [1.0, True, "1", None, np.float32(1)])
def test_non_integer_action_is_a_type_error(game_id, bad):
    state = rg.load_game(game_id).new_state(rg.game_info(game_id).min_players, 0)
    before = state.to_json()
    with pytest.raises(TypeError, match="integer"):
        state.apply(bad)
    assert state.to_json() == before


def test_numpy_integer_actions_are_accepted(game_id, num_players, rng):
    state = rg.load_game(game_id).new_state(num_players, 0)
    a = state.legal_actions()[0]
    twin = state.clone()
    state.apply(np.int64(a))
    twin.apply(np.array(a, dtype=np.int16))
    assert state.to_json() == twin.to_json()


def test_observation_has_the_encoder_shape_for_every_viewer(game_id, num_players, rng):
    state = midgame_state(game_id, num_players, rng)
    game = rg.load_game(game_id)
    shape = tuple(game.observation_shape(num_players))
    # One shape for every player count, so one network serves every table (issue 31).
    assert all(tuple(game.observation_shape(n)) == shape
               for n in range(game.info.min_players, game.info.max_players + 1))
    assert tuple(state.observation_shape) == shape
    assert state.observation_size == int(np.prod(shape))
    for viewer in range(num_players):
        obs = state.observation(viewer)
        assert obs.dtype == np.float32 and obs.shape == shape and np.isfinite(obs).all()
    np.testing.assert_array_equal(state.observation(), state.observation(state.current_player))


def test_encode_into_a_buffer_matches_observation(game_id, num_players, rng):
    state = midgame_state(game_id, num_players, rng)
    out = np.full(state.observation_size, np.nan, dtype=np.float32)
    state.encode(0, out)
    np.testing.assert_array_equal(out, state.observation(0).ravel())


def test_encode_rejects_bad_buffers(game_id):
    state = rg.load_game(game_id).new_state(rg.game_info(game_id).min_players, 0)
    with pytest.raises(TypeError, match="float32"):
        state.encode(0, np.zeros(state.observation_size, dtype=np.float64))
    with pytest.raises(ValueError, match="elements"):
        state.encode(0, np.zeros(state.observation_size + 1, dtype=np.float32))
    with pytest.raises(ValueError, match="contiguous"):
        state.encode(0, np.zeros(2 * state.observation_size, dtype=np.float32)[::2])
    with pytest.raises(TypeError):
        state.encode(0, [0.0] * state.observation_size)


def test_viewer_out_of_range_is_an_error(game_id, num_players):
    state = rg.load_game(game_id).new_state(num_players, 0)
    for bad in (-1, num_players):
        with pytest.raises(rg.Error, match="viewer"):
            state.observation(bad)
        with pytest.raises(rg.Error, match="viewer"):
            state.observation_string(bad)
        with pytest.raises(rg.Error, match="viewer"):
            state.redeterminize(bad, 0)


def test_text_views(game_id, num_players):
    state = rg.load_game(game_id).new_state(num_players, 0)
    assert str(state) == state.to_string() and state.to_string().strip()
    assert all(state.observation_string(v).strip() for v in range(num_players))


def test_redeterminize_keeps_what_the_viewer_sees(game_id, num_players, rng):
    state = midgame_state(game_id, num_players, rng)
    viewer = state.current_player
    world = state.clone()
    world.redeterminize(viewer, 99)
    np.testing.assert_array_equal(world.observation(viewer), state.observation(viewer))
    np.testing.assert_array_equal(world.legal_actions_mask(), state.legal_actions_mask())


def test_heuristic_action_is_legal(game_id, num_players, rng):
    state = midgame_state(game_id, num_players, rng)
    assert state.is_legal(state.heuristic_action(seed=5))


def test_returns_are_zero_until_the_end_then_the_game_is_closed(game_id, num_players, rng):
    state = rg.load_game(game_id).new_state(num_players, 4)
    assert not state.returns().any()
    assert state.returns().dtype == np.float32 and state.scores().dtype == np.int32
    play_to_end(state, rng)
    assert state.current_player == -1
    assert state.legal_actions() == [] and not state.legal_actions_mask().any()
    returns = state.returns()
    assert returns.shape == (num_players,)
    assert abs(float(returns.sum())) < 1e-4  # every reward mode is zero-sum (envs/core/returns.h)
    if state.is_truncated():
        assert not returns.any()
    with pytest.raises(rg.IllegalAction):
        state.apply(0)
    with pytest.raises(rg.Error, match="over"):
        state.heuristic_action()
    with pytest.raises(rg.Error, match="viewer"):
        state.observation()
    assert state.observation(0).shape == tuple(state.observation_shape)


def test_check_invariants_holds_along_a_game(game_id, num_players, rng):
    state = rg.load_game(game_id).new_state(num_players, 8)
    for _ in range(50):
        state.check_invariants()
        if state.is_terminal():
            break
        state.apply(random_legal(state.legal_actions_mask(), rng))


def test_view_json_is_the_seats_view_of_the_table(game_id):
    state = rg.load_game(game_id).new_state(3 if game_id != "lift_off" else 2, 5)
    mine = json.loads(state.view_json(0))
    assert mine["game"] == game_id and mine["viewer"] == 0 and mine["terminal"] is False
    assert mine["your_turn"] == (state.current_player == 0) and "board" in mine
    everything = json.loads(state.view_json(None))
    assert everything["viewer"] == -1 and everything["current_player"] == state.current_player
    if rg.game_info(game_id).hidden_information:  # somewhere in a game, seat 0 cannot see everything
        rng = np.random.default_rng(0)
        while json.loads(state.view_json(0))["board"] == json.loads(state.view_json(None))["board"]:
            assert not state.is_terminal(), "seat 0 saw everything in a whole game"
            state.apply(random_legal(state.legal_actions_mask(), rng))
    with pytest.raises(rg.Error, match="viewer 7 out of range"):
        state.view_json(7)
    with pytest.raises(TypeError, match="integer seat"):
        state.view_json(1.0)
