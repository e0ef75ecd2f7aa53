// The search's key table (training/mcts/search_options.h): every key reads,
// writes and reads back; keys the root or evaluator would ignore are refused
// by the key's scope; YAML and validate() share the ranges.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "tests/key_table_checks.h"
#include "training/mcts/mcts.h"

using namespace rocketgym;
using namespace rocketgym::mcts;

TEST_CASE("every search key round-trips through the table's writer and reader", "[search][keys]") {
  key_checks::check_round_trips(search_keys(), Options{});
  // Through parse_options and write_options too, for a whole block.
  const Options o = parse_options(ConfigNode::parse(
      "simulations: 64\nroot: gumbel\ngumbel_considered: 4\nc_visit: 20\nrollout_policy: heuristic\n"
      "rollout_epsilon: 0.2\nsearch_forced_moves: true\n",
      "agent.yaml"));
  YAML::Node written;
  write_options(written, o);
  std::set<std::string> names;
  for (const auto& key : search_keys().keys()) {
    names.insert(key.name);
    CHECK(written[key.name].IsDefined());
  }
  CHECK(names.size() == search_keys().keys().size());  // no key twice
  CHECK(written.size() == names.size());
  const Options again = parse_options(ConfigNode(written, "resolved.yaml", ""));
  for (const auto& key : search_keys().keys()) CHECK(key.text(again) == key.text(o));
}

TEST_CASE("search keys out of range are refused from YAML and by validate()", "[search][keys]") {
  key_checks::check_refusals(search_keys(), Options{});
  Options o;
  o.c_puct = 2e6;  // YAML's limit is validate()'s
  CHECK_THROWS_WITH(o.validate(), Catch::Contains("c_puct must be a number from 0 to 1e+06"));
  o = Options{};
  o.prior_temperature = 0.0;
  CHECK_THROWS_WITH(o.validate(), Catch::Contains("prior_temperature"));
  o = Options{};
  o.max_nodes = 1;
  CHECK_THROWS_WITH(o.validate(), Catch::Contains(kMaxNodesRange.rule() + ", not 1"));
  o = Options{};
  o.rollout_depth = kRolloutDepthRange.max + 1;
  CHECK_THROWS_WITH(o.validate(), Catch::Contains(kRolloutDepthRange.rule()));
  CHECK_THROWS_WITH(parse_options(ConfigNode::parse("rollout_depth: -1\n", "agent.yaml")),
                    Catch::Contains("agent.yaml") && Catch::Contains("rollout_depth"));
  CHECK(parse_options(ConfigNode::parse("rollout_depth: 8\n", "agent.yaml")).rollout_depth == 8);
}

TEST_CASE("a search key its root or evaluator would ignore is refused, naming the key", "[search][keys]") {
  int scoped = 0;
  for (const auto& key : search_keys().keys()) {
    if (key.scope == kAnySearch) continue;
    ++scoped;
    INFO("key " << key.name);
    // A situation in which the key's scope does not hold.
    bool with_network = true;
    std::string base;
    if (key.scope == kHeuristicPlayouts || key.scope == kNetworkLeaves) with_network = false;
    if (key.scope == kGumbelRoot) base = "root: puct\n";
    const Options defaults;
    const std::string value = key_checks::other_value<Options>(key, defaults);
    const ConfigNode node = ConfigNode::parse(base + key.name + ": " + value + "\n", "agent.yaml");
    Options o;
    search_keys().read(node, o);
    CHECK_THROWS_WITH(check_unused_keys(node, o, with_network), Catch::Contains(key.name));
    // At its default the key passes (a resolved config names every key).
    CHECK_NOTHROW(
        check_unused_keys(ConfigNode::parse(base + key.name + ": " + key.text(defaults) + "\n", "a.yaml"),
                          defaults, with_network));
  }
  CHECK(scoped == 10);
  // Where the scope holds, the key acts and passes.
  const ConfigNode gumbel = ConfigNode::parse("root: gumbel\nc_scale: 0.5\n", "agent.yaml");
  CHECK_NOTHROW(check_unused_keys(gumbel, parse_options(gumbel), true));
  const ConfigNode mixed = ConfigNode::parse(
      "playout_weight: 0.5\nrollout_policy: heuristic\nrollout_epsilon: 0.1\n", "agent.yaml");
  CHECK_NOTHROW(check_unused_keys(mixed, parse_options(mixed), true));
  const ConfigNode random_eps = ConfigNode::parse("rollout_epsilon: 0.1\n", "agent.yaml");
  CHECK_THROWS_WITH(check_unused_keys(random_eps, parse_options(random_eps), false),
                    Catch::Contains("rollout_epsilon") && Catch::Contains("rollout_policy: heuristic"));
}

TEST_CASE("the search's reference rows come from the table", "[search][keys]") {
  const auto rows = search_keys().docs();
  REQUIRE(rows.size() == search_keys().keys().size());
  CHECK(rows[0].name == "simulations");
  CHECK(rows[0].default_value == "200");
  CHECK(rows[0].range == "1 to 10000000");
  for (const auto& row : rows) {
    INFO(row.name);
    CHECK(!row.doc.empty());
    CHECK(!row.type.empty());
    CHECK(!row.default_value.empty());
  }
}
