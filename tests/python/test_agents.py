"""rg.load_agent: trained bots from Python (needs the module built with the training library)."""

import json
import os
import pathlib
import subprocess
import threading

import numpy as np
import pytest

import rocketgym as rg

_agents = pytest.importorskip("rocketgym._agents", reason="built without the LibTorch training library")


def _cli():
    package = pathlib.Path(rg.__file__).resolve().parents[1]  # <build>/python
    binary = package.parent / "rocketgym"
    if not binary.exists():
        pytest.skip("the rocketgym binary is not built")
    return str(binary)


@pytest.fixture(scope="module")
def zoo_dir(tmp_path_factory):
    """A tiny trained Launchpad 23 bot, exported the way models/zoo/ files are."""
    folder = tmp_path_factory.mktemp("zoo")
    export_tiny_zoo_network(folder, simulations=4)
    return folder


def export_tiny_zoo_network(folder, simulations):
    """Trains a tiny 2-player Launchpad 23 network for one update and exports it
    into `folder` as its zoo file, recommending `simulations`."""
    config = folder / "train.yaml"
    config.write_text("game: {id: launchpad23}\n"
                      "model: {hidden: 16, blocks: 1, channels: 4}\n"
                      "ppo: {envs: 4, steps_per_update: 16, epochs: 1, minibatch: 16}\n"
                      "budget: {steps: 1, minutes: 0}\n"
                      f"run: {{dir: \"{folder / 'run'}\", eval_every: 0, plot: false}}\n")
    subprocess.run([_cli(), "train", str(config), "--quiet"], check=True, capture_output=True)
    subprocess.run([_cli(), "export", str(folder / "run" / "checkpoints" / "latest.ckpt"),
                    str(folder / "launchpad23.ckpt"), "--simulations", str(simulations)],
                   check=True, capture_output=True)


@pytest.fixture
def zoo(zoo_dir, monkeypatch):
    monkeypatch.setenv("ROCKETGYM_ZOO_DIR", str(zoo_dir))
    return zoo_dir


def test_zoo_agent_plays_a_game_to_the_end(zoo):
    agent = rg.load_agent("zoo:launchpad23")
    assert agent.game_id == "launchpad23" and agent.num_players == 2 and agent.kind == "ismcts"
    state = rg.load_game("launchpad23").new_state(2, 7)
    moves = 0
    while not state.is_terminal() and moves < 40:
        action = agent.act(state, seed=moves)
        assert state.is_legal(action)
        state.apply(action)
        moves += 1
    assert moves > 0


def test_same_seed_same_move(zoo):
    agent = rg.load_agent("zoo:launchpad23")
    state = rg.load_game("launchpad23").new_state(2, 3)
    assert agent.act(state, seed=11) == agent.act(state, seed=11)


def test_raw_network_evaluates_a_batch(zoo):
    agent = rg.load_agent("zoo:launchpad23:0")  # 0 simulations: the raw network
    assert agent.kind == "checkpoint"
    vec = rg.make_vec("launchpad23", num_envs=5, seed=1)
    obs, _ = vec.reset(seed=1)
    masks = obs["action_mask"]  # int8, as the vector env gives them
    probabilities, values = agent.evaluate(obs["observation"], masks)
    assert probabilities.shape == masks.shape and values.shape == (5, 2)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-5)
    assert np.all(probabilities[~masks.astype(bool)] == 0)


def test_bad_batches_are_refused(zoo):
    agent = rg.load_agent("zoo:launchpad23:0")
    shape = rg.load_game("launchpad23").observation_shape(2)
    actions = rg.game_info("launchpad23").num_actions
    obs = np.zeros((2, *shape), dtype=np.float32)
    masks = np.ones((2, actions), dtype=np.uint8)
    with pytest.raises(TypeError, match="float32"):
        agent.evaluate(obs.astype(np.float64), masks)
    with pytest.raises(TypeError, match="bool, uint8 or int8"):
        agent.evaluate(obs, masks.astype(np.int64))
    with pytest.raises(rg.Error, match="shape"):
        agent.evaluate(obs[:, :1], masks)
    with pytest.raises(rg.Error, match="shape"):
        agent.evaluate(obs, masks[:1])
    with pytest.raises(rg.Error, match="no legal action"):
        agent.evaluate(obs, np.zeros_like(masks))


def test_non_finite_observations_are_refused_naming_the_row(zoo):
    """A NaN or an infinity would come back as NaN probabilities without a word."""
    agent = rg.load_agent("zoo:launchpad23:0")
    shape = rg.load_game("launchpad23").observation_shape(2)
    masks = np.ones((3, rg.game_info("launchpad23").num_actions), dtype=np.uint8)
    for bad in (np.nan, np.inf, -np.inf):
        obs = np.zeros((3, *shape), dtype=np.float32)
        obs.reshape(3, -1)[2, -1] = bad
        with pytest.raises(ValueError, match=r"observations must be finite numbers: row 2 holds NaN or infinity"):
            agent.evaluate(obs, masks)
        with pytest.raises(ValueError, match="observations must be finite"):
            agent.act(obs, masks)
    agent.evaluate(np.zeros((0, *shape), dtype=np.float32), masks[:0])  # an empty batch has nothing to check


def test_wrong_state_or_finished_game_is_an_error(zoo):
    agent = rg.load_agent("zoo:launchpad23")
    with pytest.raises(rg.Error, match="players"):
        agent.act(rg.load_game("launchpad23").new_state(3, 1))
    other = rg.list_games()[0] if rg.list_games()[0] != "launchpad23" else rg.list_games()[1]
    with pytest.raises(rg.Error, match="not a launchpad23 state"):
        agent.act(rg.load_game(other).new_state(2, 1))


def test_heuristic_needs_a_game_and_has_no_network():
    with pytest.raises(rg.Error, match="game="):
        rg.load_agent("heuristic")
    agent = rg.load_agent("heuristic", game="launchpad23")
    state = rg.load_game("launchpad23").new_state(2, 1)
    assert state.is_legal(agent.act(state))
    with pytest.raises(rg.Error, match="no network"):
        agent.evaluate(np.zeros((1, *rg.load_game("launchpad23").observation_shape(2)), np.float32),
                       np.ones((1, rg.game_info("launchpad23").num_actions), np.uint8))


def test_the_kinds_and_the_grammar_come_from_the_one_cpp_list():
    """rg.agent_kinds() and rg.agent_grammar() read training/players/kinds.h, as the command line's
    describe --agent-kinds, its --agent help and load_agent's docstring do: no list restated in Python."""
    kinds = rg.agent_kinds()
    cli = json.loads(subprocess.run([_cli(), "describe", "--agent-kinds"], check=True, capture_output=True,
                                    text=True).stdout)
    assert kinds == cli
    names = [k["name"] for k in kinds]
    assert {"random", "heuristic", "checkpoint", "ismcts", "search", "zoo", "human"} <= set(names)
    grammar = rg.agent_grammar()
    assert grammar.startswith("[NAME=]")
    for kind in kinds:
        assert (kind["form"] in grammar) == kind["agent"], kind["name"]
        assert (kind["form"] in _agents.load_agent.__doc__) == kind["agent"], kind["name"]
    assert all(k["name"] in _agents.Agent.kind.__doc__ for k in kinds if k["agent"])
    arena_help = subprocess.run([_cli(), "arena", "--help"], check=True, capture_output=True, text=True).stdout
    assert " ".join(grammar.split()) in " ".join(arena_help.split())
    with pytest.raises(rg.Error, match="unknown kind 'nobody'"):
        rg.load_agent("nobody", game="launchpad23")


def test_a_human_is_a_seat_not_an_agent():
    for spec in ("human", "me=human"):
        with pytest.raises(rg.Error, match="a person"):
            rg.load_agent(spec, game="launchpad23")
    with pytest.raises(rg.Error, match="a person"):
        rg.make("launchpad23", opponents=["human"])


def test_search_with_heuristic_playouts_needs_no_network():
    # Launchpad 23's strongest bot is ismcts:1600:heuristic:c_puct=0.75:rollout_depth=8; a few
    # simulations do here.
    for text in ("ismcts:20:heuristic", "ismcts:10:heuristic:2",
                 "ismcts:10:heuristic:c_puct=0.75:rollout_depth=8"):
        agent = rg.load_agent(text, game="launchpad23")
        assert agent.kind == "ismcts"
        state = rg.load_game("launchpad23").new_state(2, 4)
        for move in range(12):
            action = agent.act(state, seed=move)
            assert state.is_legal(action)
            assert agent.act(state, seed=move) == action  # same seed, same search
            state.apply(action)
    with pytest.raises(rg.Error, match="playouts per leaf"):
        rg.load_agent("ismcts:20:heuristic:none", game="launchpad23")


def test_missing_zoo_or_checkpoint_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("ROCKETGYM_ZOO_DIR", str(tmp_path))
    with pytest.raises(rg.Error, match="unknown game"):
        rg.load_agent("zoo:no_such_game_here")
    with pytest.raises(rg.Error):
        rg.load_agent(f"checkpoint:{tmp_path}/missing.ckpt")
    (tmp_path / "junk.ckpt").write_bytes(os.urandom(100))
    with pytest.raises(rg.Error):
        rg.load_agent(f"checkpoint:{tmp_path}/junk.ckpt")


@pytest.mark.parametrize("spec", ["zoo:launchpad23", "zoo:launchpad23:0", "checkpoint", "ismcts:8:heuristic"])
def test_one_agent_shared_by_threads_plays_the_moves_it_plays_alone(zoo, spec):
    # act() runs with the GIL released; calls on one agent take turns instead of sharing its buffers.
    if spec == "checkpoint":
        spec = f"checkpoint:{zoo / 'launchpad23.ckpt'}:sample"
    agent = rg.load_agent(spec, game="launchpad23")
    positions, alone = [], []
    state = rg.load_game("launchpad23").new_state(2, 5)
    for move in range(16):
        if state.is_terminal():
            break
        positions.append(state.clone())
        alone.append(agent.act(state, seed=move))
        state.apply(alone[-1])
    start = threading.Barrier(4)
    seen = [[] for _ in range(4)]

    def play(t):
        start.wait()  # all four call act() together
        for _ in range(3):
            seen[t].extend(agent.act(p, seed=i) for i, p in enumerate(positions))

    threads = [threading.Thread(target=play, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for moves in seen:
        assert moves == alone * 3


def test_agent_counts_have_the_command_lines_and_the_yamls_range():
    with pytest.raises(rg.Error, match="simulations must be a whole number from 1 to 10000000"):
        rg.load_agent("ismcts:2147483647", game="launchpad23")
    with pytest.raises(rg.Error, match=r"playouts per leaf \(rollouts\) must be a whole number from 1 to 100000"):
        rg.load_agent("ismcts:2:heuristic:2147483647", game="launchpad23")
    with pytest.raises(rg.Error, match="rollout_depth"):  # a search key after the short form: the YAML's range
        rg.load_agent("ismcts:2:heuristic:rollout_depth=100001", game="launchpad23")
    assert rg.load_agent("ismcts:10000000", game="launchpad23").kind == "ismcts"


def test_paths_and_zoo_names_are_taken_as_written(zoo, tmp_path):
    bot = zoo / "launchpad23.ckpt"
    with pytest.raises(rg.Error, match="NUL"):  # used to load `bot`, the path cut at the NUL
        rg.load_agent(f"checkpoint:{bot}\0ignored")
    with pytest.raises(rg.Error, match="game id"):  # used to load <zoo>/../<zoo name>/launchpad23.ckpt
        rg.load_agent(f"zoo:../{zoo.name}/launchpad23", game="launchpad23")
    assert rg.load_agent(str(bot)).kind == "checkpoint"  # a bare checkpoint path
    folder = tmp_path / "lr=3e-4"
    folder.mkdir()
    (folder / "bot.ckpt").write_bytes(bot.read_bytes())
    agent = rg.load_agent(f"checkpoint:{folder / 'bot.ckpt'}")  # '=' in a path is not a name
    assert agent.kind == "checkpoint" and agent.name == "bot"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_launchpad23_zoo_search_serves_every_table_size(players, monkeypatch):
    # models/zoo/launchpad23.yaml: a search per table size, over no network at 2 players and over the
    # network beside it (launchpad23.ckpt) at 3 and 4. "zoo" with game= is that game's zoo bot; ":8"
    # keeps the manifest's search at 8 simulations, so that the test is quick.
    monkeypatch.delenv("ROCKETGYM_ZOO_DIR", raising=False)
    agent = rg.load_agent("zoo", game="launchpad23", num_players=players)
    assert agent.kind == "ismcts" and agent.num_players == players
    quick = rg.load_agent("zoo:launchpad23:8", num_players=players)
    state = rg.load_game("launchpad23").new_state(players, 3)
    for move in range(6):
        action = quick.act(state, seed=move)
        assert state.is_legal(action)
        state.apply(action)
    shape = rg.load_game("launchpad23").observation_shape(players)
    batch = np.zeros((1, *shape), np.float32), np.ones((1, rg.game_info("launchpad23").num_actions), np.uint8)
    if players == 2:
        with pytest.raises(rg.Error, match="has no network"):
            agent.evaluate(*batch)
        with pytest.raises(rg.Error, match="no raw network"):
            rg.load_agent("zoo:launchpad23:0", num_players=players)
    else:
        probabilities, _ = agent.evaluate(*batch)  # the search's network
        assert np.isclose(probabilities.sum(), 1.0, atol=1e-3)
        raw = rg.load_agent("zoo:launchpad23:0", num_players=players)  # 0: the raw network, greedy
        assert raw.kind == "checkpoint" and raw.num_players == players


def network_then_search_zoo():
    """The games whose zoo manifest (models/zoo/<game>.yaml) plays its network at 2 players (raw or
    searched over) and a search over no network at 3 and 4, as the manifest says."""
    zoo = pathlib.Path(__file__).resolve().parents[2] / "models" / "zoo"
    shapes = {"3: ismcts:", "4: ismcts:"}
    return [game for game in rg.list_games() if (zoo / f"{game}.ckpt").exists() and (zoo / f"{game}.yaml").exists()
            and all(shape in (zoo / f"{game}.yaml").read_text() for shape in shapes)]


@pytest.mark.parametrize("game", network_then_search_zoo())
def test_a_zoo_entry_plays_its_network_at_2_players_and_a_search_at_3_and_4(game, monkeypatch):
    # models/zoo/<game>.yaml names the network beside it (<game>.ckpt) at 2 players (Launch Pad's: a
    # search over it) and the search whose playouts are the heuristic bot, over no network, at 3 and 4
    # (docs/agents.md, "The zoo").
    monkeypatch.delenv("ROCKETGYM_ZOO_DIR", raising=False)
    raw = rg.load_agent(f"zoo:{game}:0")  # 0: the raw network, greedy (bench_opponents.py relies on it)
    assert raw.kind == "checkpoint" and raw.num_players == 2
    vec = rg.make_vec(game, 3, seed=1)
    assert raw.act(vec.observations, vec.action_masks).shape == (3,)
    assert rg.load_agent("zoo", game=game).kind in ("checkpoint", "ismcts")  # the network at its recommendation
    for players in (3, 4):
        agent = rg.load_agent("zoo", game=game, num_players=players)
        assert agent.kind == "ismcts"
        shape = rg.load_game(game).observation_shape(players)
        with pytest.raises(rg.Error, match="has no network"):  # a search over no network
            agent.evaluate(np.zeros((1, *shape), np.float32), np.ones((1, rg.game_info(game).num_actions), np.uint8))
        quick = rg.load_agent(f"zoo:{game}:8", num_players=players)  # the same search at 8 simulations
        state = rg.load_game(game).new_state(players, 3)
        for move in range(4):
            action = quick.act(state, seed=move)
            assert state.is_legal(action)
            state.apply(action)
        with pytest.raises(rg.Error, match="no raw network"):
            rg.load_agent(f"zoo:{game}:0", num_players=players)


def test_a_mixed_zoo_entry_as_an_opponent_and_in_the_arena(monkeypatch):
    monkeypatch.delenv("ROCKETGYM_ZOO_DIR", raising=False)
    two = rg.make("last_blast", num_players=2, opponents=["zoo:last_blast:0"], seat=0)  # the raw network
    three = rg.make("last_blast", num_players=3, opponents=["zoo:last_blast:8"], seat=0)  # the search
    for env in (two, three):
        observation, _ = env.reset(seed=5)
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    report = rg.arena("last_blast", {"zoo": "zoo", "h": "heuristic"}, num_players=2, games=1, seed=2)
    assert report.report["config"]["agents"][0]["kind"] in ("checkpoint", "ismcts", "zoo")
    report = rg.arena("last_blast", {"zoo": "zoo:last_blast:8", "h": "heuristic"}, num_players=3, games=1, seed=2)
    assert report.report["config"]["agents"][0]["kind"] == "zoo"
    # models/zoo/last_blast.yaml: a search over its network at every size; launch_pad.yaml: over no network at 3.
    shape, actions = rg.load_game("last_blast").observation_shape(3), rg.game_info("last_blast").num_actions
    probabilities, values = rg.load_agent("zoo", game="last_blast", num_players=3).evaluate(
        np.zeros((1, *shape), np.float32), np.ones((1, actions), np.uint8))
    assert probabilities.shape == (1, actions) and np.isclose(probabilities.sum(), 1.0, atol=1e-3)
    shape, actions = rg.load_game("launch_pad").observation_shape(3), rg.game_info("launch_pad").num_actions
    with pytest.raises(rg.Error, match="has no network"):
        rg.load_agent("zoo", game="launch_pad", num_players=3).evaluate(
            np.zeros((1, *shape), np.float32), np.ones((1, actions), np.uint8))


def test_launchpad23_zoo_search_as_an_opponent(monkeypatch):
    monkeypatch.delenv("ROCKETGYM_ZOO_DIR", raising=False)
    env = rg.make("launchpad23", num_players=3, opponents=["zoo:launchpad23:8", "heuristic"], seat=0)
    observation, _ = env.reset(seed=5)
    action = int(np.flatnonzero(observation["action_mask"])[0])
    env.step(action)  # the zoo search answers at its seat
    report = rg.arena("launchpad23", {"zoo": "zoo:launchpad23:8", "h": "heuristic"}, num_players=3, games=1, seed=2)
    assert report.report["config"]["agents"][0]["kind"] in ("ismcts", "zoo")
