"""The game registry, game loading with configs, and the exception classes."""

import os
import pathlib

import pytest

import rocketgym as rg


def test_every_game_of_the_source_tree_is_registered():
    # A game is a folder games/<id>/ with its descriptor <id>_game.h, which CMake finds and registers;
    # each one must be reachable from Python (a build may leave games out: the CMake option ROCKETGYM_GAMES).
    repo = pathlib.Path(__file__).resolve().parents[2]
    folders = sorted(p.parent.name for p in repo.glob("games/*/*_game.h") if p.name == p.parent.name + "_game.h")
    assert len(folders) >= 2
    assert set(rg.list_games()) <= set(folders)
    cache = pathlib.Path(os.environ.get("ROCKETGYM_BUILD_DIR", repo / "build")) / "CMakeCache.txt"
    if cache.exists():  # the build's choice of games, if it made one (empty: every game)
        chosen = next((line.split("=", 1)[1].strip() for line in cache.read_text().splitlines()
                       if line.startswith("ROCKETGYM_GAMES:")), "")
        assert sorted(rg.list_games()) == [g for g in folders if not chosen or g in chosen.split(";")]


def test_exception_hierarchy_lets_callers_catch_value_error():
    for cls in (rg.IllegalAction, rg.ConfigError, rg.SerializationError):
        assert issubclass(cls, rg.Error)
    assert issubclass(rg.Error, ValueError)
    assert issubclass(rg.InvariantViolation, RuntimeError)
    assert rg.IllegalAction.__module__ == "rocketgym"


def test_game_info_describes_the_game(game_id):
    info = rg.game_info(game_id)
    assert info.id == game_id
    assert info.name and isinstance(info.description, str)
    assert 1 <= info.min_players <= info.max_players
    assert info.num_actions > 0 and info.max_decisions > 0
    assert rg.load_game(game_id).info.num_actions == info.num_actions


def test_unknown_game_is_an_error_listing_the_known_games():
    with pytest.raises(rg.Error, match="unknown game 'no_such_game'") as caught:
        rg.make("no_such_game")
    assert rg.list_games()[0] in str(caught.value)
    with pytest.raises(ValueError):
        rg.make_vec("no_such_game", 2)
    with pytest.raises(ValueError):
        rg.aec_env("no_such_game")


def test_game_id_must_be_a_string():
    with pytest.raises(TypeError, match="game_id"):
        rg.make(7)


def test_builtin_config_is_embedded(game_id):
    # The defaults travel inside the module, so an installed package needs no source tree.
    assert rg.builtin_game_config(game_id).strip()
    with pytest.raises(rg.Error, match="unknown game 'no_such_game'"):  # as load_game says, not ""
        rg.builtin_game_config("no_such_game")


@pytest.mark.parametrize("config", [{"reward": "win"}, "reward: win"])
def test_config_overrides_as_dict_or_yaml_text(game_id, config):
    game = rg.load_game(game_id, config)
    assert game.id == game_id


def test_whole_config_file_by_path(game_id, tmp_path):
    path = tmp_path / f"{game_id}.yaml"
    path.write_text(rg.builtin_game_config(game_id))
    assert rg.load_game(game_id, path).id == game_id
    assert rg.load_game(game_id, str(path)).id == game_id


def test_unknown_config_key_is_a_config_error_naming_the_key(game_id):
    with pytest.raises(rg.ConfigError, match="no_such_key_xyz"):
        rg.make(game_id, config={"no_such_key_xyz": 1})


def test_bad_reward_value_is_a_config_error_naming_the_key(game_id):
    with pytest.raises(rg.ConfigError, match="reward"):
        rg.make_vec(game_id, 2, config={"reward": "most_fuel"})


def test_yaml_syntax_error_names_the_file_and_line(game_id, tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("reward: rank\nlist: [1, 2\n")
    with pytest.raises(rg.ConfigError) as caught:
        rg.load_game(game_id, path)
    assert "broken.yaml" in str(caught.value)
    assert any(ch.isdigit() for ch in str(caught.value))


def test_missing_config_file_is_a_config_error(game_id, tmp_path):
    with pytest.raises(rg.ConfigError, match="not found"):
        rg.load_game(game_id, tmp_path / "missing.yaml")


def test_config_file_without_a_yaml_suffix_is_read_as_a_file(game_id, tmp_path):
    path = tmp_path / "cfgnoext"
    path.write_text("reward: no_such_reward_mode\n")
    for given in (path, str(path)):
        with pytest.raises(rg.ConfigError, match="cfgnoext") as caught:
            rg.load_game(game_id, given)
        assert "reward" in str(caught.value)  # the file was read: its bad key is named
    path.write_text(rg.builtin_game_config(game_id))
    assert rg.load_game(game_id, str(path)).id == game_id


@pytest.mark.parametrize("make", [lambda g, c: rg.load_game(g, c), lambda g, c: rg.make(g, config=c),
                                  lambda g, c: rg.make_vec(g, 2, config=c)])
def test_config_path_of_a_folder_or_nothing_is_named(game_id, tmp_path, make):
    for folder in (tmp_path, str(tmp_path), str(tmp_path) + "/"):
        with pytest.raises(rg.ConfigError, match=f"{tmp_path}/?: is a folder"):
            make(game_id, folder)
    for missing in (tmp_path / "missing", str(tmp_path / "missing"), "missing_config"):
        with pytest.raises(rg.ConfigError, match=f"{missing}: config file not found"):
            make(game_id, missing)


def test_a_long_missing_config_path_is_named_by_its_start(game_id):
    with pytest.raises(rg.ConfigError, match="config file not found") as caught:
        rg.load_game(game_id, "x" * 100_000)
    assert len(str(caught.value)) < 400


@pytest.mark.parametrize("text", ["", "{}", "# nothing\n"])
def test_empty_overrides_are_yaml_text(game_id, text):
    assert rg.load_game(game_id, text).id == game_id


def test_overrides_must_be_a_mapping(game_id):
    with pytest.raises(rg.ConfigError, match="mapping"):
        rg.load_game(game_id, "- just\n- a list\n")


def test_config_of_wrong_type_is_a_type_error(game_id):
    with pytest.raises(TypeError, match="config"):
        rg.make(game_id, config=42)


def test_unserializable_override_value_is_a_config_error(game_id):
    with pytest.raises(rg.ConfigError, match="plain data"):
        rg.load_game(game_id, {"reward": object()})


def test_a_config_dict_nested_too_deep_is_a_config_error_naming_the_key(game_id):
    deep = []
    for _ in range(100000):  # json.dumps would hit Python's recursion limit
        deep = [deep]
    for config in ({"tiles": deep}, {"variants": {"tiles": deep}}):
        with pytest.raises(rg.ConfigError, match=r"'(variants\.)?tiles' is nested more than 100 levels deep"):
            rg.make(game_id, config=config)
    with pytest.raises(rg.ConfigError, match="'tiles' is nested more than 100 levels deep"):
        rg.arena(game_id, ["random", "random"], games=1, config={"tiles": deep})
    loop = []
    loop.append(loop)  # a list that holds itself nests without end
    with pytest.raises(rg.ConfigError, match="'tiles' is nested more than 100 levels deep"):
        rg.load_game(game_id, {"tiles": loop})


def test_player_count_out_of_range_is_an_error(game_id):
    info = rg.game_info(game_id)
    for bad in (info.min_players - 1, info.max_players + 1):
        with pytest.raises(rg.Error, match="players"):
            rg.make(game_id, num_players=bad)
        with pytest.raises(rg.Error, match="players"):
            rg.load_game(game_id).new_state(bad, 0)
        with pytest.raises(rg.Error, match="players"):
            rg.make_vec(game_id, 2, num_players=bad)


def test_non_integer_arguments_are_type_errors(game_id):
    with pytest.raises(TypeError, match="num_players"):
        rg.make(game_id, num_players=2.0)
    with pytest.raises(TypeError, match="seed"):
        rg.make(game_id, seed="7")
    with pytest.raises(TypeError, match="num_envs"):
        rg.make_vec(game_id, num_envs=2.5)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_seed_out_of_range_is_a_value_error(game_id, seed):
    with pytest.raises(ValueError, match="seed"):
        rg.make(game_id, seed=seed)
    with pytest.raises(ValueError, match="seed"):
        rg.load_game(game_id).new_state(rg.game_info(game_id).min_players, seed)


def test_largest_seed_is_accepted(game_id):
    env = rg.make(game_id, seed=2**64 - 1)
    env.reset()
    assert env.current_player >= 0


def test_derive_seed_matches_the_documented_vector_env_seeding():
    # episode_seed(seed, env, episode) = derive_seed(derive_seed(seed, env), episode)
    assert rg.derive_seed(1, 2) == rg.derive_seed(1, 2)
    assert rg.derive_seed(1, 2) != rg.derive_seed(2, 1)
    assert 0 <= rg.derive_seed(2**64 - 1, 5) < 2**64


def test_package_exposes_its_version():
    assert rg.__version__.count(".") == 2
    assert pathlib.Path(rg.__file__).name == "__init__.py"


def test_yaml_syntax_error_in_override_text_is_a_config_error(game_id):
    with pytest.raises(rg.ConfigError, match="overrides"):
        rg.load_game(game_id, "reward: [rank\n")


def test_states_pickle_through_their_json_document(game_id):
    import pickle

    state = rg.load_game(game_id).new_state(rg.game_info(game_id).min_players, 0)
    # A State pickles as its Game and JSON document (test_pickle_and_copy.py plays the copies on).
    assert pickle.loads(pickle.dumps(state)).to_json() == state.to_json()
    doc = pickle.loads(pickle.dumps(state.to_json()))
    assert rg.load_game(game_id).state_from_json(doc).to_json() == state.to_json()


# -- one YAML document, plain decimal numbers, no quoted numbers ---------------------------------


@pytest.mark.parametrize("text", ["reward: rank\n---\nreward: bogus", "reward: rank\n...\nreward: bogus",
                                  "---\n---\nreward: bogus"])
def test_a_second_yaml_document_is_refused_not_dropped(text):
    with pytest.raises(rg.ConfigError, match="<overrides>:[23]: a second YAML document"):
        rg.load_game("lift_off", text)
    with pytest.raises(rg.ConfigError, match="YAML syntax error"):
        rg.load_game("lift_off", "reward: rank\n---\nfoo: [1, 2")


def test_a_second_document_in_a_config_file_is_refused(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(rg.builtin_game_config("lift_off") + "\n---\njunk: [\n")
    with pytest.raises(rg.ConfigError, match=f"{path}:\\d+: YAML syntax error"):
        rg.load_game("lift_off", str(path))
    path.write_text(rg.builtin_game_config("lift_off") + "\n---\nreward: bogus\n")
    with pytest.raises(rg.ConfigError, match=f"{path}:\\d+: a second YAML document"):
        rg.load_game("lift_off", str(path))


@pytest.mark.parametrize("value", ["010", "0x1F", "+9"])
def test_integers_are_plain_decimal_never_octal_or_hex(value):
    with pytest.raises(rg.ConfigError, match="tracks.income_max'?: expected a whole number in decimal, like 8"):
        rg.load_game("lift_off", f"tracks: {{income_start: 9, income_max: {value}}}")


def test_a_string_is_not_a_number():
    for config in ({"setup": {"start_money": "10"}}, {"tracks": {"income_max": "010"}}, 'setup: {start_money: "10"}'):
        with pytest.raises(rg.ConfigError, match="not quoted text") as caught:
            rg.load_game("lift_off", config)
        assert "start_money" in str(caught.value) or "income_max" in str(caught.value)
    assert rg.load_game("lift_off", {"setup": {"start_money": 10}}) is not None


def test_a_key_past_the_length_limit_is_named_by_its_start():
    for key in ("x" * 1100, "x" * (rg._rocketgym.MAX_CONFIG_KEY_LENGTH + 1), "é" * 100):
        with pytest.raises(rg.ConfigError, match=r"is longer than 128 bytes \(it starts '") as caught:
            rg.load_game("lift_off", {"setup": {key: 1}})
        assert len(str(caught.value)) < 200
        assert "end of map flow" not in str(caught.value)


def test_out_of_range_messages_say_so_with_the_range():
    with pytest.raises(rg.ConfigError, match=r"value -1099511627776 out of range \[0, 1000\]"):
        rg.load_game("lift_off", {"setup": {"score_start_by_seat": [-2**40, 4, 6, 8]}})


def test_one_seed_range_everywhere():
    assert rg._rocketgym.MAX_SEED == 2**64 - 1
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\), got 1000+\.\.\.$"):
        rg.make("lift_off", seed=10**400)  # its first digits only (envs/core/quoted.h)
