// The player unit (training/players): every kind's spec written back (string
// and YAML) parses into the same spec, and a player asked for many moves at
// once gives the moves it gives one at a time.
#include "training/players/player.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "games/launchpad23/launchpad23_game.h"
#include "training/game_setup.h"
#include "training/players/player_spec.h"

using namespace rocketgym;
using players::PlayerSpec;

namespace {

// Two specs are the same when every field is: the YAML form writes them all.
void check_same(const PlayerSpec& a, const PlayerSpec& b) {
  CHECK(players::kind_name(a) == players::kind_name(b));
  CHECK(a.name == b.name);
  CHECK(players::to_yaml(a) == players::to_yaml(b));
}

PlayerSpec from_yaml(const std::string& text) {
  return players::parse_player(ConfigNode::parse(text, "p.yaml"));
}

}  // namespace

TEST_CASE("every kind's spec written back parses into the same spec", "[players]") {
  // One spec per kind and form of argument, from the command line and from YAML.
  std::vector<PlayerSpec> specs;
  for (const char* text :
       {"random", "me=heuristic", "checkpoint:runs/x/checkpoints/latest.ckpt", "ppo=checkpoint:x.ckpt:sample",
        "runs/lr=3e-4/a:b.ckpt", "best=runs/lr=3e-4/a:b.ckpt", "ismcts", "ismcts:50", "ismcts:50:./net.ckpt",
        "ismcts:800:heuristic", "bot=ismcts:200:heuristic:4",
        "ismcts:1600:heuristic:rollout_depth=8:c_puct=0.75", "bot=ismcts:200:heuristic:2:rollout_epsilon=0.1",
        "search:x.ckpt", "search:x.ckpt:64", "zoo:last_blast", "zoo:last_blast:0", "zoo:launchpad23:16"})
    specs.push_back(players::parse_player(text));
  for (const char* text :
       {"{kind: ismcts, checkpoint: x.ckpt, mcts: {rollout_policy: heuristic, playout_weight: 1}}",
        "{name: g, kind: ismcts, mcts: {root: gumbel, gumbel_considered: 8, c_scale: 0.25}}",
        "{name: my_bot, kind: checkpoint, path: 'a b:c.ckpt', mode: sample}"})
    specs.push_back(from_yaml(text));
  for (const PlayerSpec& spec : specs) {
    INFO(players::to_yaml(spec));
    check_same(from_yaml(players::to_yaml(spec)), spec);
    bool has_short_form = true;
    std::string text;
    try {
      text = players::to_string(spec);
    } catch (const Error& e) {
      has_short_form = false;
      CHECK_THAT(e.what(), Catch::Contains("write it in YAML"));
    }
    INFO(text);
    if (has_short_form) check_same(players::parse_player(text), spec);
  }
  // What the short form cannot say is refused, never written wrong.
  CHECK_THROWS_WITH(players::to_string(specs[specs.size() - 2]), Catch::Contains("write it in YAML"));
  CHECK_THROWS_WITH(players::to_string(specs.back()), Catch::Contains("write it in YAML"));
  CHECK(players::to_string(players::parse_player("ismcts:200:heuristic:4")) == "ismcts:200:heuristic:4");
  CHECK(players::to_string(players::parse_player("ismcts:1600:heuristic:c_puct=0.75:rollout_depth=8")) ==
        "ismcts:1600:heuristic:c_puct=0.75:rollout_depth=8");  // in the key table's order
  CHECK(players::to_string(players::parse_player("zoo:last_blast")) == "zoo:last_blast");
  CHECK(players::to_string(players::parse_player("x.ckpt")) == "checkpoint:x.ckpt");
}

TEST_CASE("search and zoo specs resolve into the players they stand for", "[players]") {
  PlayerSpec search = players::parse_player("search:x.ckpt:64");
  CHECK(players::kind_name(search) == "search");
  CHECK(players::playing_kind_name(search) == "ismcts");
  players::resolve_kind(search, 2);
  REQUIRE(search.is<players::Ismcts>());
  CHECK(search.as<players::Ismcts>().network == "x.ckpt");
  CHECK(search.as<players::Ismcts>().mcts.simulations == 64);
  CHECK(search.as<players::Ismcts>().mcts.root == mcts::RootSelection::kGumbel);
  CHECK(search.as<players::Ismcts>().mcts.gumbel_scale == 0.0);
  std::vector<PlayerSpec> named{players::parse_player("search:runs/a/checkpoints/best.ckpt:8"),
                                players::parse_player("zoo:last_blast:0"),
                                players::parse_player("ismcts:9:n.ckpt")};
  players::name_players(named);
  CHECK(named[0].name == "search8+best");
  CHECK(named[1].name == "zoo:last_blast:0");
  CHECK(named[2].name == "ismcts9+net");
}

TEST_CASE("a player asked for many moves at once gives the moves it gives one at a time", "[players]") {
  using G = launchpad23::Game;
  const auto game = load_game("launchpad23");
  const auto config = typed_config<G>(*game);
  // Positions of several games, a few moves in.
  std::vector<G::State> states;
  for (uint64_t seed = 1; seed <= 9; ++seed) {
    G::State state(*config, 2, seed);
    Rng rng(seed);
    for (int move = 0; move < static_cast<int>(seed % 4) && !state.is_terminal(); ++move)
      state.apply(G::heuristic_action(state, rng));
    if (!state.is_terminal()) states.push_back(state);
  }
  REQUIRE(states.size() > 3);
  for (const char* text : {"random", "heuristic", "ismcts:12", "ismcts:6:heuristic:2"}) {
    INFO(text);
    const PlayerSpec spec = players::parse_player(text);
    auto one_by_one = players::make_player<G>(spec, {1, 1, torch::kCPU});
    auto batched = players::make_player<G>(spec, {2, 4, torch::kCPU});
    std::vector<Rng> alone_rngs, batch_rngs;
    std::vector<players::Decision<G>> batch;
    std::vector<Action> alone;
    for (std::size_t k = 0; k < states.size(); ++k) {
      alone_rngs.emplace_back(100 + k);
      batch_rngs.emplace_back(100 + k);
    }
    for (std::size_t k = 0; k < states.size(); ++k) {
      players::Decision<G> d{&states[k], states[k].current_player(), &alone_rngs[k], 7 + k};
      one_by_one->act(&d, 1);
      REQUIRE(states[k].is_legal(d.action));
      alone.push_back(d.action);
      batch.push_back({&states[k], states[k].current_player(), &batch_rngs[k], 7 + k});
    }
    batched->act(batch.data(), static_cast<int>(batch.size()));
    for (std::size_t k = 0; k < states.size(); ++k) CHECK(batch[k].action == alone[k]);
  }
  CHECK_THROWS_WITH(players::make_player<G>(players::parse_player("zoo:launchpad23"), {}),
                    Catch::Contains("network"));
}

// A count in a spec has the one number form of configs and --set
// (envs/core/numbers.h): 010 was read as 10 here while YAML read it as 8.
TEST_CASE("a count in an agent spec is a whole number in decimal", "[players]") {
  const std::pair<const char*, const char*> refused[] = {
      {"ismcts:010", "simulations must be a whole number from 1 to 10000000, not '010'"},
      {"ismcts:0x10", "not '0x10'"},
      {"ismcts:+5", "not '+5'"},
      {"ismcts:10:heuristic:04", "must be a whole number from 1 to 100000, not '04'"},
      {"zoo:lift_off:010", "not '010'"},
  };
  for (const auto& [text, message] : refused) {
    INFO(text);
    CHECK_THROWS_WITH(players::parse_player(text), Catch::Contains(message));
  }
  CHECK(players::parse_player("ismcts:10:heuristic:4").as<players::Ismcts>().mcts.rollouts == 4);
}

// Issue 55: a search key is said once, neither twice as KEY=VALUE nor over what
// the short form says by position; the message names the key.
TEST_CASE("an ismcts spec that says a search key twice is refused naming the key", "[players]") {
  const std::pair<const char*, const char*> refused[] = {
      {"ismcts:10:heuristic:simulations=20",
       "search key 'simulations' is given twice: by the short form (SIMULATIONS 10)"},
      {"ismcts:10:heuristic:c_puct=1:c_puct=2",
       "search key 'c_puct' is given twice ('c_puct=1' and 'c_puct=2')"},
      {"ismcts:10:heuristic:4:rollouts=2",
       "search key 'rollouts' is given twice: by the short form (PLAYOUTS 4)"},
      {"ismcts:10:heuristic:rollout_policy=random", "search key 'rollout_policy' is given twice"},
  };
  for (const auto& [text, message] : refused) {
    INFO(text);
    CHECK_THROWS_AS(players::parse_player(text), ConfigError);
    CHECK_THROWS_WITH(players::parse_player(text), Catch::Contains(text) && Catch::Contains(message));
  }
  // What the short form leaves unsaid may follow: PLAYOUTS as a key, the prior.
  const PlayerSpec spec = players::parse_player("ismcts:10:heuristic:rollouts=3:heuristic_prior=0.25");
  CHECK(spec.as<players::Ismcts>().mcts.rollouts == 3);
  CHECK(spec.as<players::Ismcts>().mcts.heuristic_prior == 0.25);
  CHECK(spec.as<players::Ismcts>().mcts.simulations == 10);
}

// A name before '=' that the name rule refuses is said to be a name, not read
// as an unknown kind; an empty part quotes the spec by the one quoting rule.
TEST_CASE("a NAME= the name rule refuses is named as a name, not as an unknown kind", "[players]") {
  const std::string long_name(65, 'a');
  for (const std::string& text : {long_name + "=heuristic", std::string("my bot=ismcts:10")}) {
    INFO(text);
    CHECK_THROWS_AS(players::parse_player(text), ConfigError);
    CHECK_THROWS_WITH(
        players::parse_player(text),
        Catch::Contains("the name before '=' is not an agent name") && !Catch::Contains("unknown kind"));
  }
  CHECK(players::parse_player(std::string(64, 'a') + "=heuristic").name == std::string(64, 'a'));
  CHECK_THROWS_WITH(players::parse_player("ismcts:10::4"), Catch::Contains("agent 'ismcts:10::4': part 3"));
  CHECK_THROWS_WITH(players::parse_player("ismcts:10:\x1b[2J:"),
                    !Catch::Contains("\x1b") && Catch::Contains("part 4"));
}

// A default name comes from a file name, which may hold a line break, a comma
// or a thousand characters: the name a table row and a CSV field show keeps
// to the name rule's characters (and '/', ':') and to kMaxAgentName bytes.
TEST_CASE("default agent names from file names keep to the name rule", "[players]") {
  const std::string stem(100, 'x');
  std::vector<PlayerSpec> named{
      players::parse_player("checkpoint:runs/a b,c\x1b[31m/checkpoints/latest.ckpt"),
      players::parse_player("checkpoint:" + stem + "1.ckpt"),
      players::parse_player("checkpoint:" + stem + "2.ckpt"),
      players::parse_player("checkpoint:runs/lr=3e-4/checkpoints/latest.ckpt")};
  players::name_players(named);
  CHECK(named[0].name == "a_b_c__31m/latest");
  CHECK(named[1].name == std::string(64, 'x'));
  CHECK(named[2].name == std::string(64, 'x') + "#2");
  CHECK(named[3].name == "lr_3e-4/latest");
}
