"""The Gymnasium / PettingZoo conventions of issue 13, checked with the project's own code.

(The checkers themselves, when their sources are importable, run in test_checkers.py.)
"""

from collections import defaultdict

import numpy as np
import pytest

import rocketgym as rg
from conftest import illegal_in_range, random_legal


def decisive_action(state, mask, rng):
    """Mostly the heuristic bot's move (random play tends to run into the decision limit, where every
    reward is 0), sometimes a random legal one for variety."""
    if rng.random() < 0.8:
        return state.heuristic_action(int(rng.integers(2**32)))
    return random_legal(mask, rng)


def forfeit(num_players, seat):
    expected = np.full(num_players, 1.0 / (num_players - 1), dtype=np.float32)
    expected[seat] = -1.0
    return expected


# -- reset(options=...) ------------------------------------------------------------------------------


def test_unknown_reset_options_are_ignored(game_id):
    env = rg.make(game_id)
    plain, _ = env.reset(seed=4)
    extra, _ = env.reset(seed=4, options={"options": 1, "anything": [1, 2]})
    np.testing.assert_array_equal(plain["observation"], extra["observation"])

    aec = rg.aec_env(game_id)
    aec.reset(seed=4, options={"options": 1})  # what pettingzoo's api_test passes
    assert aec.agents == aec.possible_agents

    vec = rg.make_vec(game_id, 3, seed=1)
    vec.reset(seed=2, options={"options": 1})
    with pytest.raises(TypeError, match="options"):
        env.reset(options=["state"])


def test_the_state_option_keeps_its_meaning_among_unknown_keys(game_id, rng):
    state = rg.load_game(game_id).new_state(2, 9)
    for _ in range(3):
        state.apply(random_legal(state.legal_actions_mask(), rng))
    env = rg.make(game_id)
    obs, info = env.reset(options={"state": state.to_json(), "render": True})
    assert env.to_json() == state.to_json()
    assert info["current_player"] == state.current_player
    aec = rg.aec_env(game_id)
    aec.reset(options={"state": state.to_json(), "options": 1})
    assert aec.to_json() == state.to_json()


# -- PettingZoo AEC reward accounting ----------------------------------------------------------------


def play_aec_game(env, rng, illegal_at=None):
    """Plays one game, replaying PettingZoo's accounting (api_test's play_test) alongside: after every
    step each live agent is owed the `rewards` it was shown, and `last()` must return exactly what the
    agent is owed since its previous turn. Returns the sum of the last() rewards each agent saw."""
    owed = defaultdict(float)
    seen = defaultdict(float)
    turns = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert reward == owed[agent], f"{agent}: last() gives {reward}, PettingZoo's accounting {owed[agent]}"
        assert env._cumulative_rewards[agent] == reward
        seen[agent] += reward
        owed[agent] = 0.0
        if terminated or truncated:
            action = None
        elif turns == illegal_at:
            action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        else:
            action = decisive_action(env.get_state(), obs["action_mask"], rng)
        env.step(action)
        turns += 1
        assert set(env.rewards) == set(env._cumulative_rewards) == set(env.infos) == set(env.agents)
        for a, r in env.rewards.items():
            owed[a] += r
    return seen


def test_aec_rewards_follow_pettingzoo_accounting(game_id, num_players, rng):
    env = rg.aec_env(game_id, num_players=num_players, seed=3)
    decided = 0
    for _ in range(3):
        env.reset()
        seen = play_aec_game(env, rng)
        returns = env.get_state().returns()
        assert env.get_state().is_terminal()
        decided += bool(returns.any())
        for agent, seat in zip(env.possible_agents, range(num_players)):
            assert seen[agent] == pytest.approx(returns[seat]), "the last() rewards must add up to the return"
    assert decided, "no game had a non-zero reward to account for"


def test_removing_a_finished_agent_clears_the_rewards(game_id, num_players, rng):
    env = rg.aec_env(game_id, num_players=num_players, seed=8)
    env.reset()
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(decisive_action(env.get_state(), obs["action_mask"], rng))
    final = dict(env.rewards)
    assert any(final.values()), "the game should end with rewards"
    cumulative = dict(env._cumulative_rewards)
    first = env.agent_selection
    env.step(None)
    assert first not in env.agents
    assert all(r == 0.0 for r in env.rewards.values()), "a step that only removes an agent rewards nobody"
    for agent in env.agents:
        assert env._cumulative_rewards[agent] == cumulative[agent] == final[agent]


# -- illegal_action="lose" ---------------------------------------------------------------------------


def test_illegal_action_mode_is_checked(game_id):
    for make in (rg.make, rg.aec_env):
        with pytest.raises(ValueError, match="illegal_action"):
            make(game_id, illegal_action="ignore")
    assert rg.make(game_id).illegal_action == "raise"


def test_an_illegal_action_loses_at_once(game_id, num_players):
    env = rg.make(game_id, num_players=num_players, seed=2, illegal_action="lose")
    obs, info = env.reset()
    before = env.to_json()
    actor = info["current_player"]
    bad = illegal_in_range(env.get_state())
    if bad is None:
        pytest.skip("every action is legal at the start")
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (terminated, truncated, reward) == (True, False, -1.0)
    np.testing.assert_allclose(info["rewards"], forfeit(num_players, actor))
    assert info["rewards"].sum() == pytest.approx(0.0, abs=1e-6)
    assert info["illegal_action"] == {"player": actor, "action": bad}
    assert info["current_player"] == -1 and env.current_player == -1
    assert not obs["action_mask"].any() and env.legal_actions() == [] and not env.action_masks().any()
    assert obs in env.observation_space
    np.testing.assert_array_equal(obs["observation"], env.get_state().observation(actor))
    assert env.to_json() == before, "the engine position is the one before the illegal action"
    with pytest.raises(rg.IllegalAction, match="over"):
        env.step(int(np.flatnonzero(env.get_state().legal_actions_mask())[0]))
    obs, info = env.reset()
    assert "illegal_action" not in info and obs["action_mask"].any()


def test_an_out_of_range_action_loses_too_but_a_float_is_a_type_error(game_id):
    env = rg.make(game_id, seed=2, illegal_action="lose")
    env.reset()
    with pytest.raises(TypeError):
        env.step(1.0)
    actor = env.current_player
    _, reward, terminated, _, info = env.step(env.num_actions)
    assert terminated and reward == -1.0
    assert info["illegal_action"] == {"player": actor, "action": env.num_actions}


def test_sampling_the_action_space_without_the_mask_plays_to_the_end(game_id, num_players):
    # What gymnasium's check_env does: action_space.sample() ignores the mask.
    env = rg.make(game_id, num_players=num_players, illegal_action="lose")
    env.action_space.seed(5)
    outcomes = []
    for _ in range(2):
        env.reset(seed=11)
        steps = 0
        while True:
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
            steps += 1
            assert isinstance(terminated, bool) and isinstance(truncated, bool)
            if terminated or truncated:
                break
        outcomes.append((steps, reward, info.get("illegal_action")))
        env.action_space.seed(5)
    assert outcomes[0] == outcomes[1], "the same seeds replay the same game"


def test_aec_illegal_action_loses_at_once(game_id, num_players, rng):
    env = rg.aec_env(game_id, num_players=num_players, seed=4, illegal_action="lose")
    env.reset()
    actor = env.agent_selection
    seat = env.possible_agents.index(actor)
    seen = play_aec_game(env, rng, illegal_at=0)
    expected = forfeit(num_players, seat)
    for i, agent in enumerate(env.possible_agents):
        assert seen[agent] == pytest.approx(expected[i])
    assert not env.agents

    env.reset()
    bad = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    env.step(bad)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    for agent in env.agents:
        assert env.infos[agent]["illegal_action"] == {"player": seat, "action": bad}
        assert not env.observe(agent)["action_mask"].any()
    with pytest.raises(rg.IllegalAction):
        env.step(0)

    strict = rg.aec_env(game_id, num_players=num_players, seed=4)
    strict.reset()
    bad = int(np.flatnonzero(strict.observe(strict.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(rg.IllegalAction):
        strict.step(bad)
    assert not any(strict.terminations.values())


# -- the vector env's final observations -------------------------------------------------------------


def test_a_finished_games_final_observation_and_rewards_survive_the_autoreset(game_id, num_players):
    n, seed = 3, 5
    vec = rg.make_vec(game_id, n, num_players=num_players, seed=seed)
    game = rg.load_game(game_id)

    def new_game(i, k):
        return game.new_state(num_players, rg.derive_seed(rg.derive_seed(seed, i), k))

    # The same games replayed one State at a time.
    states = [new_game(i, 0) for i in range(n)]
    episodes, moves = [0] * n, [0] * n
    finished = decided = 0
    rng = np.random.default_rng(1)
    for _ in range(20_000):
        # Mostly the heuristic bot, so that games end with rewards, with random moves mixed in.
        actions = np.where(rng.random(n) < 0.8, vec.heuristic_actions(), vec.sample_actions())
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for i in range(n):
            s = states[i]
            s.apply(int(actions[i]))
            moves[i] += 1
            assert info["_final_obs"][i] == s.is_terminal() == (terminated[i] or truncated[i])
            if s.is_terminal():
                assert truncated[i] == s.is_truncated()
                for seat in range(num_players):
                    np.testing.assert_array_equal(info["final_obs"][i, seat], s.observation(seat))
                np.testing.assert_array_equal(rewards[i], s.returns())
                decided += bool(rewards[i].any())
                assert info["final_info"]["episode_steps"][i] == moves[i]
                assert info["final_info"]["_episode_steps"][i]
                episodes[i] += 1
                moves[i] = 0
                states[i] = new_game(i, episodes[i])
                finished += 1
            np.testing.assert_array_equal(obs["observation"][i], states[i].observation())
            assert info["episode_steps"][i] == moves[i]
        if finished >= 4:
            break
    assert finished >= 4
    assert decided > 0
    assert vec.final_observations.shape == (n, num_players) + vec.observation_shape
    assert vec.final_observations is info["final_obs"]


def test_the_vector_env_declares_same_step_autoreset(game_id):
    vec = rg.make_vec(game_id, 2, seed=0)
    mode = vec.metadata["autoreset_mode"]
    assert getattr(mode, "value", mode) == "SameStep"
    _, info = vec.reset(seed=1)
    assert not info["_final_obs"].any()


# -- hidden information from Python ------------------------------------------------------------------


def test_hidden_information_is_reachable_from_python(game_id, num_players, rng):
    game = rg.load_game(game_id)
    hidden = game.info.hidden_information
    state = game.new_state(num_players, 17)
    private_moves = 0
    views_differ = False
    knows_something = False
    for _ in range(300):
        if state.is_terminal():
            break
        for a in state.legal_actions():
            public = state.is_public_action(a)
            assert isinstance(public, bool)
            private_moves += not public
        truth = state.card_places()
        assert truth.dtype == np.int32 and truth.ndim == 2 and truth.shape[1] == 2
        for viewer in range(num_players):
            known = state.known_card_places(viewer)
            assert known.dtype == np.int32 and known.shape[1:] == (2,)
            assert is_sub_multiset(known, truth), f"seat {viewer} knows something false"
            knows_something |= known.shape[0] > 0
            text = state.observation_string(viewer)
            views_differ |= text != state.to_string()
            twin = state.clone()
            twin.redeterminize(viewer, 3)
            assert twin.observation_string(viewer) == text
            np.testing.assert_array_equal(twin.known_card_places(viewer), known)
        state.apply(random_legal(state.legal_actions_mask(), rng))
    if hidden:
        # (Secret moves are not required: a game may hide only what chance deals.)
        assert views_differ and knows_something
    else:
        assert private_moves == 0 and not views_differ


def is_sub_multiset(rows, of):
    remaining = defaultdict(int)
    for place, card in of.tolist():
        remaining[(place, card)] += 1
    for place, card in rows.tolist():
        remaining[(place, card)] -= 1
        if remaining[(place, card)] < 0:
            return False
    return True


def test_the_envs_show_each_seat_its_own_view(game_id):
    env = rg.make(game_id, seed=3)
    env.reset()
    state = env.get_state()
    assert env.observation_string() == state.observation_string(env.current_player)
    assert env.observation_string(1) == state.observation_string(1)
    assert env.is_public_action(state.legal_actions()[0]) == state.is_public_action(state.legal_actions()[0])
    aec = rg.aec_env(game_id, seed=3)
    aec.reset()
    assert aec.observation_string("player_1") == aec.get_state().observation_string(1)


# -- why the AEC env fits the simultaneous choices ---------------------------------------------------

# Games whose rules have simultaneous secret choices, modelled as sequential hidden decisions:
# Launchpad 23's set-up picks, The Last Blast's draft picks.
SIMULTANEOUS_CHOICES = [g for g in ("launchpad23", "last_blast") if g in rg.list_games()]


@pytest.mark.parametrize("game", SIMULTANEOUS_CHOICES)
def test_a_later_secret_pick_sees_nothing_of_an_earlier_one(game, rng):
    # The AEC env asks the seats of a simultaneous round one after another. That is the same game as
    # asking them at once only if a seat q picking after seat p in the round sees exactly the same
    # thing whatever p picked: p's hidden choices must leave q's observation (tensor and text) as is.
    info = rg.game_info(game)
    checked = 0
    for num_players in range(info.min_players, info.max_players + 1):
        for seed in range(4):
            state = rg.load_game(game).new_state(num_players, seed)
            while not state.is_terminal():
                p = state.current_player
                hidden = [a for a in state.legal_actions() if not state.is_public_action(a)]
                checked += compare_hidden_choices(state, p, hidden)
                state.apply(random_legal(state.legal_actions_mask(), rng))
    assert checked > 0


def compare_hidden_choices(state, p, hidden):
    """For the hidden choices of p after which a later seat q picks next, q's views must agree."""
    views = {}
    for a in hidden:
        after = state.clone()
        after.apply(a)
        q = after.current_player
        if q > p:  # the same round goes on (the round's last pick reveals them all, to seat 0 on)
            views.setdefault(q, []).append((after.observation(q), after.observation_string(q)))
    checked = 0
    for q, seen in views.items():
        for observation, text in seen[1:]:
            np.testing.assert_array_equal(observation, seen[0][0])
            assert text == seen[0][1]
            checked += 1
    return checked


def test_no_game_has_seats_that_each_decide_once_per_round(game_id, num_players, rng):
    """Why there is no parallel API (docs/python.md, "AEC, and no Parallel API"): PettingZoo's parallel
    form asks every agent for one action per step, and in every game some seat decides twice before
    another has decided once, so the AEC env is not parallelizable."""
    state = rg.load_game(game_id).new_state(num_players, 3)
    order = []
    while not state.is_terminal():
        order.append(state.current_player)
        state.apply(random_legal(state.legal_actions_mask(), rng))
    assert any(p != (order[0] + k) % num_players for k, p in enumerate(order)), order[:40]
    assert rg.aec_env(game_id, num_players=num_players).metadata["is_parallelizable"] is False
