"""The Python API's own conventions (issue 26): one naming rule for properties and methods, a
docstring on every public name, the same info keys in every env, render on reset, resample(), the
vector env's batched spaces and torch views, load_agent's scripted bots, and the docs' pointers."""

import inspect
import json
import pathlib
import re
import warnings

import numpy as np
import pytest

import rocketgym as rg

REPO = pathlib.Path(__file__).resolve().parents[2]


def public_classes():
    classes = [getattr(rg, name) for name in rg.__all__ if inspect.isclass(getattr(rg, name))]
    try:
        from rocketgym import _agents
        classes.append(_agents.Agent)
    except ImportError:
        pass
    return [c for c in classes if not issubclass(c, BaseException)]


def own_public_members(cls):
    """(name, raw attribute) of the public members rocketgym defines (not those inherited from object,
    gymnasium or pettingzoo)."""
    for klass in cls.__mro__:
        if not klass.__module__.startswith("rocketgym"):
            continue
        for name, value in vars(klass).items():
            if not name.startswith("_"):
                yield name, value


# -- naming rule -------------------------------------------------------------------------------------


def test_questions_are_methods_and_properties_are_nouns():
    """docs/python.md, "Naming": a noun that reads a stored value without arguments is a property; a
    question (is_..., has_...), a computation and anything with arguments is a method."""
    checked = 0
    for cls in public_classes():
        for name, value in own_public_members(cls):
            is_property = isinstance(value, property) or type(value).__name__ == "property"
            if name.startswith(("is_", "has_")):
                assert not is_property, f"{cls.__name__}.{name} is a question: make it a method"
                checked += 1
            if is_property:
                assert not name.startswith(("get_", "to_", "compute_")), f"{cls.__name__}.{name}: a verb"
                checked += 1
    assert checked > 10
    state = rg.load_game("lift_off").new_state(2, 0)
    assert isinstance(state.current_player, int) and state.is_terminal() is False
    env = rg.make("lift_off")
    assert env.observation_shape == tuple(env.game.observation_shape(2))  # argument -> method


# -- docstrings ---------------------------------------------------------------------------------------


def test_every_public_name_and_method_has_a_docstring():
    missing = []
    for name in rg.__all__:
        obj = getattr(rg, name)
        if callable(obj) and not (obj.__doc__ or "").strip():
            missing.append(name)
    for cls in public_classes():
        for name, value in own_public_members(cls):
            doc = getattr(value, "__doc__", None) if not isinstance(value, (int, str, dict, list, tuple)) else "data"
            # pybind11 puts the signature first: a docstring is more than that line.
            text = (doc or "").strip()
            if text.startswith(name + "("):
                text = text.split("\n", 1)[1].strip() if "\n" in text else ""
            if not text:
                missing.append(f"{cls.__name__}.{name}")
    assert not missing, f"no docstring: {missing}"


# -- info keys ----------------------------------------------------------------------------------------


def test_the_envs_share_their_info_keys():
    env = rg.make("rocket_squad", num_players=3, seed=1)
    _, single = env.reset()
    aec = rg.aec_env("rocket_squad", num_players=3, seed=1)
    aec.reset()
    for info in [single] + list(aec.infos.values()):
        assert {"current_player", "scores"} <= set(info)
        assert info["scores"].dtype == np.int32 and info["scores"].shape == (3,)
    np.testing.assert_array_equal(aec.infos["player_1"]["scores"], single["scores"])


def test_the_old_aec_score_key_still_works_with_a_warning():
    aec = rg.aec_env("lift_off", seed=0)
    aec.reset()
    info = aec.infos["player_1"]
    with pytest.warns(DeprecationWarning, match='info\\["scores"\\]'):
        assert info["score"] == info["scores"][1]
    with pytest.warns(DeprecationWarning):
        assert info.get("score") == info["scores"][1]
    assert info.get("nothing", 5) == 5
    with pytest.raises(KeyError):
        info["nothing"]


# -- render_mode="human" ------------------------------------------------------------------------------


def test_human_rendering_prints_on_reset_and_step(capsys):
    env = rg.make("launchpad23", render_mode="human", seed=0)
    env.reset()
    first = capsys.readouterr().out
    assert first.strip() == env.get_state().to_string().strip()
    env.step(env.legal_actions()[0])
    assert capsys.readouterr().out.strip()
    aec = rg.aec_env("launchpad23", render_mode="human", seed=0)
    aec.reset()
    assert capsys.readouterr().out.strip() == aec.get_state().to_string().strip()


# -- resample -----------------------------------------------------------------------------------------


def without_chance(state):
    document = json.loads(state.to_json())
    document.pop("rng", None)  # reseeded by every resample
    return document


def test_resample_returns_a_new_state_the_viewer_cannot_tell_apart(game_id):
    game = rg.load_game(game_id)
    state = game.new_state(3 if game.info.max_players >= 3 else 2, 21)
    rng = np.random.default_rng(0)
    changed = False
    for moves in (1, 11):  # early (Launchpad 23's secret set-up picks) and later in the game
        for _ in range(moves):
            if not state.is_terminal():
                state.apply(int(rng.choice(state.legal_actions())))
        before = state.to_json()
        for viewer in range(state.num_players):
            for seed in range(4):
                world = state.resample(viewer, seed)
                assert world is not state and state.to_json() == before  # the original stays as it is
                np.testing.assert_array_equal(world.observation(viewer), state.observation(viewer))
                assert world.observation_string(viewer) == state.observation_string(viewer)
                # the same as redeterminize on a copy
                in_place = state.clone()
                in_place.redeterminize(viewer, seed)
                assert in_place.to_json() == world.to_json()
                changed |= without_chance(world) != without_chance(state)
    if game.info.hidden_information:
        assert changed, "hidden information never changed: resample did nothing"
    with pytest.raises(rg.Error, match="viewer"):
        state.resample(state.num_players, 0)


# -- vector env -----------------------------------------------------------------------------------------


def test_vector_env_has_batched_and_single_spaces():
    vec = rg.make_vec("last_blast", num_envs=5, seed=0)
    obs, _ = vec.reset()
    assert vec.observation_space["observation"].shape == (5,) + vec.observation_shape
    assert vec.observation_space["action_mask"].shape == (5, vec.num_actions)
    assert vec.single_observation_space["observation"].shape == vec.observation_shape
    assert vec.single_action_space.n == vec.num_actions
    assert list(vec.action_space.nvec) == [vec.num_actions] * 5
    assert obs["observation"] in vec.observation_space["observation"]
    assert vec.sample_actions().astype(np.int64) in vec.action_space
    assert str(vec.metadata["autoreset_mode"]).lower().endswith("same_step") or \
        vec.metadata["autoreset_mode"] == "SameStep"


def test_torch_views_share_the_buffers_without_a_warning():
    torch = pytest.importorskip("torch")
    vec = rg.make_vec("lift_off", num_envs=4, seed=0)
    vec.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        views = vec.torch_views()
    assert "action_masks" not in views and "episode_steps" not in views  # C++ reads those back
    assert views["observations"].data_ptr() == vec.observations.ctypes.data  # zero copy
    for _ in range(3):
        vec.step(vec.sample_actions())
        for name, tensor in views.items():
            np.testing.assert_array_equal(tensor.numpy(), getattr(vec, name), err_msg=name)
    # A write changes only what is read back: the next step overwrites it and the games go on.
    views["observations"].fill_(7.0)
    vec.step(vec.sample_actions())
    assert not torch.all(views["observations"] == 7.0)
    del vec
    assert torch.isfinite(views["observations"]).all()  # the tensors keep the buffers alive


# -- load_agent -----------------------------------------------------------------------------------------


def test_scripted_agents_need_a_game_and_say_which():
    pytest.importorskip("rocketgym._agents", reason="the module was built without the training library")
    for spec in ("heuristic", "random", "ismcts:4"):
        with pytest.raises(rg.Error, match="pass game=") as error:
            rg.load_agent(spec)
        for game_id in rg.list_games():
            assert game_id in str(error.value)
        agent = rg.load_agent(spec, game="lift_off")
        state = rg.load_game("lift_off").new_state(2, 0)
        assert state.is_legal(agent.act(state, seed=1))


# -- docs -----------------------------------------------------------------------------------------------


def doc_and_source_files():
    files = [REPO / "README.md", REPO / "python" / "README.md", REPO / "setup.py", REPO / "pyproject.toml"]
    files += sorted((REPO / "docs").rglob("*.md")) + sorted((REPO / "python").rglob("*.py"))
    files += sorted((REPO / "scripts").glob("*.sh")) + sorted((REPO / "examples").glob("*.py"))
    files += sorted((REPO / "tests" / "python").glob("*.py"))
    return [f for f in files if f.is_file()]


OUTSIDE_THE_REPOSITORY = re.compile(r"DESIGN\.md|shared/(rules|design)|/work/")


def test_the_docs_and_comments_point_to_nothing_outside_the_repository():
    """The project stands alone: its docs, comments and configs cite only files inside it (the
    rulebooks and the design guide we worked from are not part of it)."""
    files = doc_and_source_files() + sorted((REPO / "configs").rglob("*.yaml"))
    for folder in ("envs", "encoders", "games", "training", "models", "python", "tests", "web", "bench"):
        files += [f for f in sorted((REPO / folder).rglob("*"))
                  if f.suffix in (".h", ".cpp", ".md", ".js", ".html", ".css", ".txt") and f.is_file()]
    offenders = []
    for path in sorted(set(files)):
        if path.name == "test_api_conventions.py":
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE_THE_REPOSITORY.search(line):
                offenders.append(f"{path.relative_to(REPO)}:{number}")
    assert not offenders, offenders


def test_one_build_folder_name_everywhere():
    """scripts/build.sh builds into build/ (the package in build/python); no doc, script or test
    names another build folder."""
    offenders = []
    for path in doc_and_source_files():
        if path.name == "test_api_conventions.py":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"build-python|build_python\b", line):
                offenders.append(f"{path.relative_to(REPO)}:{number}")
    assert not offenders, offenders


# -- install ----------------------------------------------------------------------------------------


def test_an_installed_package_finds_its_own_zoo(tmp_path):
    """`pip install .` copies models/zoo/ into the package (setup.py); the package points the C++ side
    at it (ROCKETGYM_ZOO_DIR) unless the user chose a folder, so zoo bots load from anywhere."""
    import os
    import shutil
    import subprocess
    import sys

    package = tmp_path / "site" / "rocketgym"
    shutil.copytree(pathlib.Path(rg.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__", "zoo"))
    (package / "zoo").mkdir()
    shutil.copy2(REPO / "models" / "zoo" / "lift_off.ckpt", package / "zoo")
    code = ("import os, rocketgym as rg; print(os.environ['ROCKETGYM_ZOO_DIR']);"
            "print(rg.load_agent('zoo:lift_off:0').game_id)")
    env = {k: v for k, v in os.environ.items() if k not in ("ROCKETGYM_ZOO_DIR", "PYTHONPATH")}
    env["PYTHONPATH"] = str(tmp_path / "site")
    try:
        import rocketgym._agents  # noqa: F401
    except ImportError:
        code = "import os, rocketgym as rg; print(os.environ['ROCKETGYM_ZOO_DIR'])"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split()
    assert lines[0] == str(package / "zoo")
    assert lines[1:] in ([], ["lift_off"])
    # A folder the user chose wins.
    env["ROCKETGYM_ZOO_DIR"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-c", "import os, rocketgym; print(os.environ['ROCKETGYM_ZOO_DIR'])"],
                            cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.stdout.strip() == str(tmp_path)
