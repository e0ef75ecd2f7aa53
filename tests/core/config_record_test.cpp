// The config key tables of the game pages (envs/core/config_record.h,
// envs/core/describe_config.h): what a loader's getters check is what the
// table says, and recording changes nothing the loader sees.
#include "envs/core/config_record.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "envs/core/describe.h"
#include "envs/core/describe_config.h"
#include "envs/core/game.h"

using namespace rocketgym;

namespace {

const ConfigKey* find_key(const std::vector<ConfigKey>& keys, const std::string& path) {
  for (const auto& key : keys)
    if (key.path == path) return &key;
  return nullptr;
}

std::string load_error(const std::string& game_id, const std::string& overrides) {
  try {
    load_game(game_id, "", overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a recording notes each key once, with the range and fallback its getter checks",
          "[config][describe]") {
  const ConfigNode root = ConfigNode::parse(
      "size: 5\nname: x\ncards:\n  - {n: 1}\n  - {n: 2, flag: true}\nvalues: [3, 4]\n", "test.yaml");
  ConfigKeyRecording recording;
  REQUIRE(ConfigKeyRecording::active() == &recording);
  root.expect_keys({"size", "name", "cards", "values", "unused"});
  CHECK(root.get_int("size", 2, 1, 9) == 5);
  CHECK(root.get_choice("name", "", {"x", "y"}) == "x");
  for (const auto& card : root.child("cards").items()) {
    card.get_int("n", 0, 0, 3);
    card.get_bool("flag", false);
  }
  for (const auto& value : root.child("values").items()) value.as_int();

  const auto& keys = recording.keys();
  std::vector<std::string> paths;
  for (const auto& key : keys) paths.push_back(key.path);
  // In the order the loader lists them; the items of a list share their paths.
  CHECK(paths == std::vector<std::string>{"size", "name", "cards", "values", "unused", "cards[].n",
                                          "cards[].flag", "values[]"});
  const ConfigKey* size = find_key(keys, "size");
  REQUIRE(size != nullptr);
  // get_int reads through child and as_int: only the getter the loader called is noted.
  CHECK(size->type == "integer");
  CHECK(size->accepts == "1 to 9");
  CHECK(size->if_absent == "2");
  CHECK(size->value == "5");
  const ConfigKey* name = find_key(keys, "name");
  CHECK(name->accepts == "x, y");
  CHECK(name->if_absent == "required");  // the fallback "" is not a choice
  CHECK(find_key(keys, "cards")->type == "list");
  CHECK(find_key(keys, "cards")->value == "2 items");
  CHECK(find_key(keys, "cards[].flag")->if_absent == "false");
  CHECK(find_key(keys, "values")->value == "[3, 4]");
  CHECK(find_key(keys, "unused")->type.empty());  // allowed, never read

  // A loader's own declaration replaces what a getter noted.
  declare_config_key(root, "size", "", "1 to another key", "required");
  CHECK(find_key(recording.keys(), "size")->accepts == "1 to another key");
  CHECK(find_key(recording.keys(), "size")->type == "integer");
}

TEST_CASE("without a recording nothing is noted and declarations are ignored", "[config][describe]") {
  { ConfigKeyRecording recording; }
  CHECK(ConfigKeyRecording::active() == nullptr);
  const ConfigNode root = ConfigNode::parse("size: 5\n", "test.yaml");
  declare_config_key(root, "size", "integer", "[0, 1]", "required");  // no effect, no error
  CHECK(root.get_int("size", 2, 1, 9) == 5);
}

TEST_CASE("every game's key table gives ranges and defaults from its loader", "[config][describe]") {
  const auto squad = game_config_keys("rocket_squad");
  const ConfigKey* hand = find_key(squad, "hand_size");
  REQUIRE(hand != nullptr);
  CHECK(hand->type == "integer");
  CHECK(hand->accepts == "1 to 6");
  CHECK(hand->if_absent == "4");
  CHECK(hand->value == "4");
  const ConfigKey* values = find_key(squad, "boosters.blue.values");
  REQUIRE(values != nullptr);
  CHECK(values->accepts == "each 1 to 12, at most once");
  CHECK(find_key(squad, "boosters.blue.values[]") == nullptr);  // folded into the list

  // A key the loader checks for itself is declared there: required, not get_int's fallback 0.
  const auto launch_pad = game_config_keys("launch_pad");  // kept: find_key points into it
  const ConfigKey* pads = find_key(launch_pad, "cards.launch_pad");
  REQUIRE(pads != nullptr);
  CHECK(pads->accepts == "1 to 4");
  CHECK(pads->if_absent == "required");

  const auto lift_off = game_config_keys("lift_off");
  const ConfigKey* weight = find_key(lift_off, "missions.level1[].weight");
  REQUIRE(weight != nullptr);
  CHECK(weight->accepts == "1 to 20");
  CHECK(weight->if_absent == "1");
  CHECK(find_key(lift_off, "tracks.income_max")->accepts == "income_start to 50");
  CHECK(find_key(lift_off, "objectives[].tiers[][]") == nullptr);  // described by objectives[].tiers

  for (const auto& id : Registry::instance().ids()) {
    INFO(id);
    const auto keys = game_config_keys(id);
    const ConfigKey* reward = find_key(keys, "reward");
    REQUIRE(reward != nullptr);
    CHECK(reward->accepts == "rank, win, score");
    CHECK(reward->if_absent == "rank");
    const std::string md = describe_markdown(id);
    CHECK(md.find("| `reward` | one of | rank, win, score | rank | `rank` |") != std::string::npos);
  }
  const std::string md = describe_markdown("rocket_squad");
  CHECK(md.find("| `hand_size` | integer | 1 to 6 | 4 | `4` |") != std::string::npos);
  CHECK(describe_markdown("lift_off").find("`missions.level1`<br>`missions.level2`") != std::string::npos);
}

TEST_CASE("recording the keys leaves loading and its errors as they were", "[config][describe]") {
  // One mistake of each kind a loader refuses: a range of its getter, a range it
  // checks itself, a bound set by another key, a required key, an unknown key;
  // at least one for every game of the registry (checked below).
  const std::vector<std::pair<std::string, std::string>> mistakes = {
      {"rocket_squad", "hand_size: 9"},         {"rocket_squad", "boosters: {blue: {values: [0]}}"},
      {"lift_off", "tracks: {income_max: 3}"},  {"lift_off", "setup: {score_start_by_seat: [1, 2, 3, 9999]}"},
      {"launch_pad", "cards: {launch_pad: 0}"}, {"launch_pad", "cards: {no_such_card: 1}"},
      {"last_blast", "symbols: [{name: a}]"},   {"launchpad23", "max_turns: 0"},
  };
  for (const auto& id : Registry::instance().ids()) {
    INFO("a mistake in " << id << "'s config");
    CHECK(std::any_of(mistakes.begin(), mistakes.end(), [&](const auto& m) { return m.first == id; }));
  }
  std::vector<std::string> plain;
  for (const auto& [id, overrides] : mistakes) plain.push_back(load_error(id, overrides));
  CHECK(plain[0] == "<overrides>:1: key 'hand_size': value 9 out of range [1, 6]");
  CHECK_THAT(plain[2], Catch::Contains("key 'tracks.income_max' must be at least key 'tracks.income_start', "
                                       "but it is 3"));
  CHECK_THAT(plain[4], Catch::Contains("key 'cards.launch_pad': value 0 out of range [1, 4]"));
  CHECK_THAT(plain[5], Catch::Contains("unknown key 'cards.no_such_card'"));
  const std::string plain_state = load_game("lift_off")->new_state(3, 7)->to_json();
  ConfigKeyRecording recording;
  for (std::size_t i = 0; i < mistakes.size(); ++i) {
    INFO(mistakes[i].first << ": " << mistakes[i].second);
    CHECK(plain[i] != "(no error)");
    CHECK(load_error(mistakes[i].first, mistakes[i].second) == plain[i]);
  }
  // And a game loaded while recording is the game loaded without.
  CHECK(load_game("lift_off")->new_state(3, 7)->to_json() == plain_state);
  CHECK(!recording.keys().empty());
  {
    ConfigKeyRecording inner;  // the enclosing recording pauses...
    CHECK(ConfigKeyRecording::active() == &inner);
  }
  CHECK(ConfigKeyRecording::active() == &recording);  // ...and resumes
}
