"""Opponents inside the env: rg.make / rg.make_vec with opponents=[...], Python agents, rg.TorchAgent,
and the batched Agent.act (needs the module built with the training library)."""

import os
import pathlib
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

import rocketgym as rg

_agents = pytest.importorskip("rocketgym._agents", reason="built without the LibTorch training library")

GAME = "last_blast" if "last_blast" in rg.list_games() else rg.list_games()[0]


def first_legal(masks):
    """The first legal action per row (a function of the position only)."""
    return np.argmax(np.asarray(masks) != 0, axis=1).astype(np.int32)


def random_legal(mask, rng):
    return int(rng.choice(np.flatnonzero(mask)))


class Scripted:
    """A Python agent that plays the first legal action, until told to misbehave."""

    def __init__(self, name="mine"):
        self.name = name
        self.answer = None  # a function (observations, masks) -> answer, for the next call only
        self.calls = 0

    def act(self, observations, action_masks):
        self.calls += 1
        assert observations.dtype == np.float32 and action_masks.dtype == bool
        assert observations.shape[0] == action_masks.shape[0]
        if self.answer is not None:
            answer, self.answer = self.answer, None
            return answer(observations, action_masks)
        return first_legal(action_masks)


# -- the learner's view and reward -------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, "random"])
def test_observations_are_the_learners_and_it_is_always_to_move(seat):
    vec = rg.make_vec(GAME, 6, num_players=3, opponents=["heuristic"], seat=seat, seed=3)
    obs, info = vec.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        for i in range(vec.num_envs):
            state = vec.state(i)
            learner = int(info["seat"][i])
            assert seat == "random" or learner == seat
            assert state.current_player == learner
            np.testing.assert_array_equal(obs["observation"][i], state.observation(learner))
            np.testing.assert_array_equal(obs["action_mask"][i], state.legal_actions_mask())
        actions = np.array([random_legal(m, rng) for m in obs["action_mask"]], dtype=np.int32)
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert rewards.shape == (6,) and rewards.dtype == np.float32


def test_rewards_sum_to_the_learners_return_even_when_an_opponent_ends_the_game():
    env = rg.make(GAME, opponents=["heuristic"], seat=1, seed=11)
    rng = np.random.default_rng(1)
    ended_by_opponent = 0
    for _ in range(25):
        obs, info = env.reset()
        total, terminated, truncated = 0.0, False, False
        while not (terminated or truncated):
            action = random_legal(obs["action_mask"], rng)
            after_my_move = env.get_state()
            after_my_move.apply(action)
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
        final = env.get_state()
        assert final.is_terminal()
        assert total == pytest.approx(final.returns()[1])
        assert info["rewards"][1] == pytest.approx(total) and info["seat"] == 1
        np.testing.assert_array_equal(info["scores"], final.scores())
        np.testing.assert_array_equal(obs["observation"], final.observation(1))
        assert not obs["action_mask"].any() and info["current_player"] == -1
        ended_by_opponent += not after_my_move.is_terminal()
        with pytest.raises(rg.IllegalAction, match="game is over"):
            env.step(0)
    assert ended_by_opponent > 0


def test_vector_env_reports_the_finished_game_and_restarts():
    vec = rg.make_vec(GAME, 8, opponents=["heuristic"], seat="random", seed=5)
    obs, info = vec.reset(seed=5)
    totals = np.zeros(8)
    finished = 0
    while finished < 20:
        obs, rewards, terminated, truncated, info = vec.step(vec.sample_actions())
        totals += rewards
        for i in np.flatnonzero(terminated | truncated):
            seat = info["final_info"]["seat"][i]
            assert rewards[i] == info["final_info"]["returns"][i, seat]
            assert info["_final_obs"][i]
            totals[i] = 0
            finished += 1
            assert info["episode_steps"][i] == 0


# -- seeds ------------------------------------------------------------------------------------------


def test_env_i_plays_the_same_games_whatever_num_envs_and_threads():
    wide = rg.make_vec(GAME, 7, num_players=3, opponents=["random", "heuristic"], seat="random", seed=9)
    narrow = rg.make_vec(GAME, 3, num_players=3, opponents=["random", "heuristic"], seat="random", seed=9,
                         num_threads=2)
    for _ in range(60):
        for i in range(3):
            assert wide.state(i).to_json() == narrow.state(i).to_json()
        assert (wide.seats[:3] == narrow.seats).all()
        wide.step(first_legal(wide.action_masks))
        narrow.step(first_legal(narrow.action_masks))


def test_random_seat_covers_every_seat_and_follows_the_seed():
    seats = [rg.make_vec(GAME, 60, num_players=3, opponents=["heuristic"], seat="random", seed=s).seats.copy()
             for s in (4, 4, 5)]
    assert set(seats[0]) == {0, 1, 2}
    assert (seats[0] == seats[1]).all() and (seats[0] != seats[2]).any()
    single = [rg.make(GAME, num_players=3, opponents=["heuristic"], seat="random", seed=4) for _ in range(2)]
    drawn = [[env.reset()[1]["seat"] for _ in range(30)] for env in single]
    assert drawn[0] == drawn[1] and set(drawn[0]) == {0, 1, 2}


def test_a_closed_vector_env_refuses_to_step():
    vec = rg.make_vec(GAME, 2, opponents=["heuristic"], seed=1)
    actions = vec.sample_actions()
    vec.close()
    vec.close()
    assert vec.closed
    with pytest.raises(rg.Error, match="closed"):
        vec.step(actions)


class _ClosesDuringCalls:
    """Stands in for a vector env's C++ env and closes the env inside each call into it, after the C++
    call returned and before the Python method goes on: a close() from another thread while a method
    runs, forced instead of timed."""

    def __init__(self, vec):
        self._vec, self._inner = vec, vec._env

    def __getattr__(self, name):
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr

        def then_close(*args, **kwargs):
            result = attr(*args, **kwargs)
            self._vec.close()
            return result
        return then_close


@pytest.mark.parametrize("opponents", [None, ["heuristic"]], ids=["VectorEnv", "OpponentVectorEnv"])
def test_a_vector_env_closed_during_or_before_a_call_says_it_is_closed(opponents):
    # A close() from another thread during step() or reset() gave a TypeError ('NoneType' object is not
    # iterable): the outcome the method returns went with the env.
    kind = "VectorEnv" if opponents is None else "OpponentVectorEnv"
    calls = {"step": lambda vec: vec.step(first_legal(vec.action_masks)), "reset": lambda vec: vec.reset(),
             "render": lambda vec: vec.render(), "pickle": lambda vec: pickle.dumps(vec)}
    for name, call in calls.items():
        vec = rg.make_vec(GAME, 2, seed=1, opponents=opponents, render_mode="ansi")
        vec._env = _ClosesDuringCalls(vec)
        with pytest.raises(rg.Error, match=f"^this {kind} is closed"):
            call(vec)
        assert vec.closed, name
    # After close(), every method and array says so.
    vec = rg.make_vec(GAME, 2, seed=1, opponents=opponents, render_mode="ansi")
    actions = first_legal(vec.action_masks)
    vec.close()
    public = [lambda: vec.step(actions), vec.reset, vec.sample_actions, lambda: vec.state(0), vec.render,
              vec.torch_views, lambda: vec.num_threads, lambda: setattr(vec, "num_threads", 1),
              lambda: vec.observations, lambda: vec.rewards, lambda: vec.action_masks]
    public.append(vec.heuristic_actions if opponents is None else lambda: vec.decisions_played)
    for call in public:
        with pytest.raises(rg.Error, match=f"^this {kind} is closed"):
            call()
    with pytest.raises(TypeError, match=f"a closed {kind} cannot be pickled"):
        pickle.dumps(vec)


def test_single_env_reset_with_a_seed_replays_the_game():
    env = rg.make(GAME, opponents=["heuristic"], seat=1)
    first, _ = env.reset(seed=42)
    again, _ = env.reset(seed=42)
    np.testing.assert_array_equal(first["observation"], again["observation"])


# -- bad input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("opponents, message", [
    (["nobody"], "opponent 'nobody': agent 'nobody': unknown kind 'nobody'"),
    (["zoo:lift_off" if GAME != "lift_off" else "zoo:last_blast"], "is the zoo bot of"),
    (["heuristic", "heuristic"], "a 2-player table takes 1 opponent, got 2"),
    ([], "got 0"),
    ([42], "is a int: an agent is a player spec string"),
    # Issue 55: a zoo bot is named by a game id of this build, and the message says so.
    (["zoo:0"], "zoo bot '0': zoo:GAME names the game by its id: unknown game '0' (known games:"),
])
def test_bad_opponents_are_refused(opponents, message):
    with pytest.raises(rg.Error) as error:
        rg.make_vec(GAME, 2, opponents=opponents)
    assert message in str(error.value)


def test_a_bot_for_another_player_count_is_refused(tmp_path, monkeypatch):
    # The shipped zoo networks serve 2-4 players, so the refusal is shown with a
    # tiny 2-player network exported into a zoo folder of its own.
    from test_agents import export_tiny_zoo_network
    export_tiny_zoo_network(tmp_path, simulations=0)
    monkeypatch.setenv("ROCKETGYM_ZOO_DIR", str(tmp_path))
    assert rg.make("launchpad23", num_players=2, opponents=["zoo"]) is not None
    with pytest.raises(rg.Error, match=r"opponent 'zoo'.*trained for 2 players, not 3"):
        rg.make("launchpad23", num_players=3, opponents=["zoo"])


def test_bad_seats_and_arguments_are_refused():
    with pytest.raises(rg.Error, match="seat 2 is not a seat of a 2-player game"):
        rg.make(GAME, opponents=["heuristic"], seat=2)
    with pytest.raises(rg.Error, match="seat must be a seat number or 'random', got 'left'"):
        rg.make_vec(GAME, 2, opponents=["heuristic"], seat="left")
    with pytest.raises(rg.Error, match="seat= needs opponents="):
        rg.make(GAME, seat=1)
    with pytest.raises(TypeError, match=r"opponents=\['heuristic'\]"):
        rg.make(GAME, opponents="heuristic")


def test_a_learners_illegal_action_is_refused_and_nothing_moves():
    vec = rg.make_vec(GAME, 3, opponents=["heuristic"], seed=2)
    before = vec.state(0).to_json()
    actions = first_legal(vec.action_masks)
    actions[1] = vec.num_actions
    with pytest.raises(rg.IllegalAction, match=r"env 1: action \d+ out of range"):
        vec.step(actions)
    actions[1] = int(np.flatnonzero(vec.action_masks[1] == 0)[0])
    with pytest.raises(rg.IllegalAction, match="env 1: action .* is not legal; no env was stepped"):
        vec.step(actions)
    with pytest.raises(TypeError, match="integer"):
        vec.step(actions.astype(np.float32))
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        vec.step(actions[:2])
    assert vec.state(0).to_json() == before
    env = rg.make(GAME, opponents=["heuristic"], seed=2, illegal_action="raise")
    obs, _ = env.reset()
    with pytest.raises(rg.IllegalAction, match="is not legal"):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    lose = rg.make(GAME, opponents=["heuristic"], seed=2)  # "lose" is the default with opponents
    assert lose.illegal_action == "lose" and rg.make(GAME).illegal_action == "raise"
    obs, _ = lose.reset()
    obs, reward, terminated, truncated, info = lose.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert terminated and reward == -1.0 and info["illegal_action"]["player"] == 0


# -- Python agents -----------------------------------------------------------------------------------


def bad_answers(num_actions):
    """(answer, message) pairs: what a broken agent returns and what the error says."""
    def illegal(obs, masks):
        out = first_legal(masks)
        out[-1] = int(np.flatnonzero(~masks[-1])[0])
        return out
    return [
        (lambda obs, masks: np.full(len(masks), 999 + num_actions), f"returned action {999 + num_actions} for row 0: "
                                                                      f"out of range [0, {num_actions - 1}]"),
        (illegal, "is not legal"),
        (lambda obs, masks: first_legal(masks)[:-1] if len(masks) > 1 else np.zeros((1, 1), np.int64),
         "returned actions of shape"),
        (lambda obs, masks: first_legal(masks).astype(np.float32), "returned actions of dtype float32"),
        (lambda obs, masks: None, "returned actions of dtype object"),
    ]


@pytest.mark.parametrize("case", range(5))
def test_a_python_agents_bad_answer_is_an_error_and_the_env_stays_usable(case):
    agent = Scripted("mine")
    vec = rg.make_vec(GAME, 4, opponents=[agent], seed=8)
    answer, message = bad_answers(vec.num_actions)[case]
    agent.answer = answer
    with pytest.raises(rg.Error) as error:
        for _ in range(5):
            vec.step(first_legal(vec.action_masks))
    assert "agent 'mine'" in str(error.value) and message in str(error.value)
    with pytest.raises(rg.Error, match=r"call reset\(\)"):
        vec.step(first_legal(vec.action_masks))
    vec.reset()
    for _ in range(10):
        vec.step(first_legal(vec.action_masks))


def test_an_exception_raised_by_a_python_agent_propagates_and_the_env_stays_usable():
    class Boom(Exception):
        pass

    calls = {"n": 0}

    def agent(observations, action_masks):
        calls["n"] += 1
        if calls["n"] == 3:
            raise Boom("my policy broke")
        return first_legal(action_masks)

    env = rg.make(GAME, opponents=[agent], seed=1)
    obs, _ = env.reset()
    with pytest.raises(Boom, match="my policy broke") as raised:
        for _ in range(10):
            obs, *_ = env.step(first_legal(obs["action_mask"][None])[0])
    if sys.version_info >= (3, 11):
        assert "raised by agent 'agent', asked for 1 move" in raised.value.__notes__
    obs, info = env.reset()
    for _ in range(5):
        obs, reward, terminated, truncated, info = env.step(first_legal(obs["action_mask"][None])[0])
        if terminated or truncated:
            obs, info = env.reset()


def test_a_python_agent_is_asked_in_batches_and_named():
    vec_cpp = rg.make_vec(GAME, 4, opponents=["random"], seed=3)
    seen = []

    def agent(observations, action_masks):
        seen.append(len(observations))
        return first_legal(action_masks)

    vec_py = rg.make_vec(GAME, 4, opponents=[agent], seed=3)
    assert vec_py.opponents == ["agent"] and vec_cpp.opponents == ["random"]
    for _ in range(30):
        vec_py.step(first_legal(vec_py.action_masks))
    assert 4 in seen and max(seen) == 4  # one call for the envs where it is to move
    for i in range(4):
        state = vec_py.state(i)
        assert state.current_player == vec_py.seats[i]


def test_torch_agent_masks_and_plays():
    torch = pytest.importorskip("torch")
    game = rg.load_game(GAME)
    size = int(np.prod(game.observation_shape(2)))
    module = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(size, game.info.num_actions))
    agent = rg.TorchAgent(module)
    vec = rg.make_vec(GAME, 4, opponents=[agent], seed=6)
    obs = vec.observations
    actions = agent.act(obs, vec.action_masks)
    assert actions.shape == (4,) and all(vec.action_masks[i, a] for i, a in enumerate(actions))
    with torch.no_grad():
        logits = module(torch.tensor(np.array(obs))).numpy()
    logits[np.asarray(vec.action_masks) == 0] = -np.inf
    np.testing.assert_array_equal(actions, logits.argmax(1))
    sampler = rg.TorchAgent(module, greedy=False, seed=1)
    assert all(vec.action_masks[i, a] for i, a in enumerate(sampler(obs, vec.action_masks)))
    with pytest.raises(TypeError, match="greedy must be True or False, not str"):
        rg.TorchAgent(module, greedy="false")  # once read as True by its truthiness
    for _ in range(20):
        vec.step(agent.act(vec.observations, vec.action_masks))
    wrong = rg.TorchAgent(torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(size, 3)), name="tiny")
    with pytest.raises(rg.Error, match=r"agent 'tiny': the module returned logits of shape \(4, 3\)"):
        wrong.act(obs, vec.action_masks)


# -- the batched Agent.act ------------------------------------------------------------------------------


def test_agent_act_over_a_batch_and_the_evaluate_shape_message():
    if not (pathlib.Path(__file__).resolve().parents[2] / "models" / "zoo" / f"{GAME}.ckpt").exists():
        pytest.skip("needs a zoo bot's network (models/zoo/<game>.ckpt)")
    agent = rg.load_agent(f"zoo:{GAME}")
    vec = rg.make_vec(GAME, 5, seed=1)
    actions = agent.act(vec.observations, vec.action_masks)
    assert actions.shape == (5,) and actions.dtype == np.int32
    probabilities, _ = agent.evaluate(vec.observations, vec.action_masks)
    np.testing.assert_array_equal(actions, probabilities.argmax(1))
    assert agent.act(vec.state(0), 3) in vec.state(0).legal_actions()  # the one-state form is unchanged
    shape = tuple(rg.load_game(GAME).observation_shape(2))
    with pytest.raises(rg.Error, match=rf"must have shape \(batch, {', '.join(map(str, shape))}\) for {GAME} "
                                       rf"with 2 players, got \(5, {int(np.prod(shape)) - 1}\)"):
        agent.evaluate(np.asarray(vec.observations).reshape(5, -1)[:, 1:].copy(), vec.action_masks)
    heuristic = rg.load_agent("heuristic", game=GAME)
    with pytest.raises(rg.Error, match=r"agent 'heuristic' \(heuristic\) has no network.*use act\(state, seed\)"):
        heuristic.act(vec.observations, vec.action_masks)
    # A network agent is an opponent too (through its batched act).
    against = rg.make_vec(GAME, 3, opponents=[agent], seed=2)
    for _ in range(10):
        against.step(first_legal(against.action_masks))


# -- the example -------------------------------------------------------------------------------------


def test_the_ppo_example_trains_against_the_heuristic_and_is_rated_against_the_zoo_bot_in_the_arena():
    pytest.importorskip("torch")
    if "last_blast" not in rg.list_games():
        pytest.skip("the example's default game is not built")
    repo = pathlib.Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(rg.__file__).resolve().parents[1]))
    out = subprocess.run([sys.executable, str(repo / "examples" / "ppo_vs_heuristic.py"), "--total-steps", "1024",
                          "--num-envs", "8", "--num-steps", "32", "--eval-games", "6",
                          "--eval-opponent", "zoo:last_blast:0"],
                         capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr
    assert re.search(r"win rate against heuristic \d\.\d{3}", out.stdout)
    m = re.search(r"win rate against zoo:last_blast:0: (\d\.\d{3}) \[(\d\.\d{3}), (\d\.\d{3})\] over (\d+) games",
                  out.stdout)
    assert m, out.stdout
    rate, low, high, games = float(m[1]), float(m[2]), float(m[3]), int(m[4])
    assert low <= rate <= high and games == 6  # 3 seeds, each in both seat rotations (the arena's schedule)
    assert "ppo" in out.stdout and "opponent" in out.stdout  # the arena's table


def test_a_loaded_agent_sits_as_an_opponent_by_its_spec():
    """A rg.load_agent object, scripted ones included, plays as the spec it was loaded from; one loaded for
    another game or table size is refused, naming it."""
    heuristic = rg.load_agent("heuristic", game="last_blast")
    env = rg.make("last_blast", opponents=[heuristic], seed=3)
    by_string = rg.make("last_blast", opponents=["heuristic"], seed=3)
    obs, _ = env.reset(seed=3)
    obs2, _ = by_string.reset(seed=3)
    for _ in range(200):
        assert np.array_equal(obs["observation"], obs2["observation"])
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, done, trunc, _ = env.step(action)
        obs2, reward2, done2, trunc2, _ = by_string.step(action)
        assert (reward, done, trunc) == (reward2, done2, trunc2)
        if done or trunc:
            break
    with pytest.raises(rg.Error, match="was loaded for lift_off"):
        rg.make("last_blast", opponents=[rg.load_agent("heuristic", game="lift_off")])


# -- issue 54: sampling whatever the batch, (logits, value) modules, views, render -------------------


def _module(num_players=2, value_head=False):
    torch = pytest.importorskip("torch")
    torch.manual_seed(7)
    size = int(np.prod(rg.load_game(GAME).observation_shape(num_players)))
    trunk = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(size, rg.game_info(GAME).num_actions))
    if not value_head:
        return trunk

    class PolicyValue(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.trunk = trunk

        def forward(self, obs):
            logits = self.trunk(obs)
            return logits, logits.sum(dim=1)

    return PolicyValue()


def test_a_sampling_torch_opponent_plays_env_i_s_games_whatever_num_envs_and_threads():
    trajectories = []
    for num_envs, threads in ((1, 1), (5, 2), (3, 1)):
        sampler = rg.TorchAgent(_module(), greedy=False, seed=9)
        vec = rg.make_vec(GAME, num_envs, opponents=[sampler], seat=1, num_threads=threads, seed=4)
        steps = []
        for _ in range(60):
            steps.append((vec.observations[0].copy(), vec.rewards[0], vec.terminated[0]))
            vec.step(first_legal(vec.action_masks))
        trajectories.append(steps)
    for other in trajectories[1:]:
        for (obs, reward, done), (obs2, reward2, done2) in zip(trajectories[0], other):
            np.testing.assert_array_equal(obs, obs2)
            assert (reward, done) == (reward2, done2)


def test_torch_agent_takes_a_policy_value_module_and_views_without_copy_or_warning():
    import warnings

    vec = rg.make_vec(GAME, 4, opponents=["random"], seed=3)
    logits_only, policy_value = rg.TorchAgent(_module()), rg.TorchAgent(_module(value_head=True))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # torch.from_numpy's "not writable" warning would fail here
        actions = policy_value.act(vec.observations, vec.action_masks)
    np.testing.assert_array_equal(actions, logits_only.act(vec.observations, vec.action_masks))
    seen = []
    original = policy_value.module.forward

    def spy(obs):
        seen.append(obs)
        return original(obs)

    policy_value.module.forward = spy
    policy_value.act(vec.observations, vec.action_masks)
    assert seen[0].data_ptr() == vec.observations.__array_interface__["data"][0]  # the C++ buffer itself
    sampler = rg.TorchAgent(_module(), greedy=False, seed=1)
    seeds = np.arange(4, dtype=np.uint64)
    first = sampler.act(vec.observations, vec.action_masks, seeds=seeds)
    np.testing.assert_array_equal(first, sampler.act(vec.observations, vec.action_masks, seeds=seeds))
    for row in range(4):  # a row's draw depends on its seed alone
        alone = sampler.act(vec.observations[row:row + 1], vec.action_masks[row:row + 1], seeds=seeds[row:row + 1])
        assert alone[0] == first[row] and vec.action_masks[row, first[row]]


def test_render_shows_the_learners_view():
    env = rg.make(GAME, num_players=3, opponents=["heuristic"], seat=2, seed=0, render_mode="ansi")
    env.reset()
    assert env.render() == env.get_state().observation_string(2)
    vec = rg.make_vec(GAME, 2, opponents=["random"], seat="random", seed=0, render_mode="ansi")
    assert vec.render() == tuple(vec.state(i).observation_string(int(vec.seats[i])) for i in range(2))
    plain = rg.make_vec(GAME, 2, seed=0, render_mode="ansi")
    assert plain.render() == tuple(plain.state(i).to_string() for i in range(2))
    assert rg.make_vec(GAME, 2).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        rg.make_vec(GAME, 2, opponents=["random"], render_mode="human")
