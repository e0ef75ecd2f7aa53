// The zoo (models/zoo/, training/players/player_spec.h): what `zoo:<id>`
// plays at each table size, the files that say it, and what they may not say.
#include "training/players/kinds/torch/zoo.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

#include "envs/core/game.h"
#include "generated/source_tree.h"
#include "models/checkpoint.h"
#include "tests/common/temp_dir.h"
#include "training/players/any_player.h"
#include "training/players/zoo_table.h"

using namespace rocketgym;

namespace {

const std::filesystem::path kShippedZoo = std::filesystem::path(ROCKETGYM_SOURCE_DIR) / "models" / "zoo";

// The search options of an ismcts spec.
const mcts::Options& mcts_of(const players::PlayerSpec& spec) { return spec.as<players::Ismcts>().mcts; }

bool game_is_built(const std::string& id) {
  try {
    Registry::instance().find(id);
    return true;
  } catch (const Error&) {
    return false;  // a game not built in this configuration
  }
}

// A few moves of `agent` from a fresh game: each must be legal.
void check_plays_legal_moves(players::AnyPlayer& agent, const AnyGame& game, int players, int moves = 40) {
  auto state = game.new_state(players, 5);
  for (int move = 0; move < moves && !state->is_terminal(); ++move) {
    const Action a = agent.act(*state, static_cast<uint64_t>(move));
    REQUIRE(state->is_legal(a));
    state->apply(a);
  }
}

players::PlayerSpec resolved(const std::string& text, int players) {
  players::PlayerSpec spec = players::parse_player(text);
  players::resolve_kind(spec, players);
  return spec;
}

// Whether a resolved player is a zoo network (raw, or under its search).
bool plays_network(const players::PlayerSpec& spec) {
  return spec.is<players::Checkpoint>() ||
         (spec.is<players::Ismcts>() && !spec.as<players::Ismcts>().network.empty());
}

using testing::ZooDirForTest;

}  // namespace

// The zoo's network files ship with the source: each must still fit its
// game's encoder and actions (a changed encoder makes it a clear error, caught
// here before a user meets it), stay within the 3 MB budget, and pick legal
// moves at the table sizes it serves.
TEST_CASE("every shipped zoo network loads for its game and plays legal moves", "[arena][zoo]") {
  if (!std::filesystem::exists(kShippedZoo)) return;
  for (const auto& entry : std::filesystem::directory_iterator(kShippedZoo)) {
    if (entry.path().extension() != ".ckpt") continue;
    const std::string id = entry.path().stem().string();
    INFO(entry.path().string());
    CHECK(std::filesystem::file_size(entry.path()) <= 3'000'000);
    const CheckpointMeta meta = read_checkpoint_meta(entry.path().string());
    CHECK(meta.game == id);
    CHECK(meta.half_precision);
    CHECK(meta.extra.contains("zoo"));
    if (!game_is_built(id)) continue;
    const auto game = load_game(id);
    // Every table size of the game: the sizes the file serves play legal
    // moves (all three for a file declaring players [2, 3, 4]); the others
    // are refused with an error naming the file and the sizes it serves.
    for (int players = game->info().min_players; players <= game->info().max_players; ++players) {
      INFO(players << " players");
      const players::PlayerSpec spec = players::parse_player("checkpoint:" + entry.path().string());
      if (!meta.serves(players)) {
        CHECK_THROWS_WITH(players::make_any_player(spec, *game, players),
                          Catch::Contains(entry.path().filename().string()) &&
                              Catch::Contains("was trained for " + player_counts_text(meta.served_players()) +
                                              ", not " + std::to_string(players)));
        continue;
      }
      check_plays_legal_moves(*players::make_any_player(spec, *game, players), *game, players);
    }
    CHECK(meta.serves(2));  // every zoo network plays the 2-player game
  }
}

// A zoo manifest serves every table size of its game, each with the agent it
// names; the moves are checked at 16 simulations for a search over no network
// (the manifest's own searches take seconds a game).
TEST_CASE("every shipped zoo manifest serves every table size of its game", "[arena][zoo]") {
  if (!std::filesystem::exists(kShippedZoo)) return;
  int manifests = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kShippedZoo)) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string id = entry.path().stem().string();
    INFO(entry.path().string());
    ++manifests;
    const players::ZooManifest manifest = players::read_zoo_manifest(entry.path().string(), id);
    // A network beside the manifest is the one it names.
    CHECK(manifest.network.empty() == !std::filesystem::exists(kShippedZoo / (id + ".ckpt")));
    if (!game_is_built(id)) continue;
    const auto game = load_game(id);
    std::vector<int> served, sizes;
    for (const auto& [players, agent] : manifest.players) served.push_back(players);
    for (int players = game->info().min_players; players <= game->info().max_players; ++players)
      sizes.push_back(players);
    CHECK(served == sizes);
    for (const auto& [players, agent] : manifest.players) {
      INFO(players << " players");
      // The manifest's own agent, before a search player becomes ismcts.
      CHECK(players::to_yaml({"", players::zoo_agent(players::Zoo{id, -1}, players), nullptr}) ==
            players::to_yaml(agent));
      const std::string quick = "zoo:" + id + (agent.is<players::Ismcts>() ? ":16" : "");
      check_plays_legal_moves(*players::make_any_player(players::parse_player(quick), *game, players), *game,
                              players);
    }
  }
  CHECK(manifests >= 4);  // Launchpad 23's, Launch Pad's, Rocket Squad's, The Last Blast's
}

// What each game's zoo bot is at each table size, as issues 31 and 52
// measured (docs/results.md, "Bots for every table", "Expert iteration"): a
// network, or a search over it, where it wins; the search whose playouts are
// the heuristic bot where no network does.
// Each plays legal moves at 2, 3 and 4 players: a few moves as resolved by
// default, more at 8 simulations where it searches.
TEST_CASE("every game's zoo bot plays legal moves at 2, 3 and 4 players", "[arena][zoo]") {
  // Per game, per table size 2, 3, 4: whether the zoo bot plays the network.
  const std::map<std::string, std::vector<bool>> network_at{{"lift_off", {true, true, true}},
                                                            {"rocket_squad", {true, true, true}},
                                                            {"launch_pad", {true, false, false}},
                                                            {"last_blast", {true, true, true}},
                                                            {"launchpad23", {false, true, true}}};
  for (const auto& id : Registry::instance().ids())
    CHECK(network_at.count(id) == 1);  // every game has a zoo bot
  int games = 0;
  for (const auto& [id, network] : network_at) {
    if (!game_is_built(id)) continue;
    ++games;
    const auto game = load_game(id);
    CHECK(players::zoo_served_players(id) == std::vector<int>{2, 3, 4});
    for (int players = 2; players <= 4; ++players) {
      INFO(id << " at " << players << " players");
      const players::PlayerSpec plays = resolved("zoo:" + id, players);
      CHECK(plays_network(plays) == network[static_cast<std::size_t>(players - 2)]);
      if (!plays_network(plays)) CHECK(plays.is<players::Ismcts>());  // a search over no network
      check_plays_legal_moves(*players::make_any_player(players::parse_player("zoo:" + id), *game, players),
                              *game, players, 2);
      const std::string quick = "zoo:" + id + (plays.is<players::Ismcts>() ? ":8" : "");
      check_plays_legal_moves(*players::make_any_player(players::parse_player(quick), *game, players), *game,
                              players, 16);
    }
  }
  CHECK(games == static_cast<int>(Registry::instance().ids().size()));  // every game built has a row
}

TEST_CASE("a zoo manifest names a search per table size and refuses what it cannot serve", "[arena][zoo]") {
  const ZooDirForTest zoo("zoo_manifest");
  const std::string file = zoo.file("launchpad23.yaml");
  auto write = [&](const std::string& text) { zoo.write("launchpad23.yaml", text); };

  write(
      "game: launchpad23\nplayers:\n  3: {kind: ismcts, mcts: {simulations: 50, c_puct: 0.5, rollout_policy: "
      "heuristic, rollout_depth: 4}}\n"
      "  2: ismcts:40:heuristic:rollout_depth=8\n");
  CHECK(players::zoo_path("launchpad23") == file);
  const players::ZooManifest manifest = players::read_zoo_manifest(file, "launchpad23");
  REQUIRE(manifest.players.size() == 2);
  CHECK(manifest.players[0].first == 2);  // by table size
  CHECK(manifest.network.empty());
  CHECK(players::zoo_served_players("launchpad23") == std::vector<int>{2, 3});
  players::PlayerSpec two = resolved("zoo:launchpad23", 2);
  CHECK(players::to_string(two) == "ismcts:40:heuristic:rollout_depth=8");
  CHECK(mcts_of(resolved("zoo:launchpad23", 3)).c_puct == 0.5);
  CHECK(mcts_of(resolved("zoo:launchpad23:8", 2)).simulations == 8);    // the simulations asked for
  CHECK(mcts_of(resolved("zoo:launchpad23:8", 2)).rollout_depth == 8);  // the rest as the manifest says
  CHECK_THROWS_WITH(resolved("zoo:launchpad23", 4),
                    Catch::Contains(file) && Catch::Contains("serves 2 and 3 players, not 4"));
  CHECK_THROWS_WITH(resolved("zoo:launchpad23:0", 2), Catch::Contains("no raw network"));
  if (game_is_built("launchpad23")) {
    const auto game = load_game("launchpad23");
    CHECK_THROWS_WITH(players::make_any_player(players::parse_player("zoo:launchpad23"), *game, 4),
                      Catch::Contains("not 4"));
    check_plays_legal_moves(*players::make_any_player(players::parse_player("zoo:launchpad23:4"), *game, 3),
                            *game, 3);
  }
  if (game_is_built("launch_pad"))  // another game's table refuses Launchpad 23's bot
    CHECK_THROWS_WITH(
        players::make_any_player(players::parse_player("zoo:launchpad23"), *load_game("launch_pad"), 2),
        Catch::Contains("zoo bot of launchpad23, not of launch_pad"));

  write("game: launchpad23\nplayers: {2: heuristic}\n");
  CHECK(resolved("zoo:launchpad23", 2).is<players::Heuristic>());
  CHECK_THROWS_WITH(resolved("zoo:launchpad23:8", 2), Catch::Contains("no search"));

  // What a manifest may not hold, each named with the file and key.
  const std::pair<const char*, const char*> refused[] = {
      {"game: launch_pad\nplayers: {2: heuristic}\n", "zoo bot of 'launchpad23'"},
      {"game: launchpad23\nplayers: {two: heuristic}\n", "table size"},
      {"game: launchpad23\nplayers: {0: heuristic}\n", "table size"},
      {"game: launchpad23\nplayers: {}\n", "maps each table size"},
      {"game: launchpad23\nplayers: {2: 'checkpoint:/etc/passwd.ckpt'}\n", "reads no file"},
      {"game: launchpad23\nplayers: {2: 'ismcts:8:x.ckpt'}\n", "reads no file"},
      {"game: launchpad23\nplayers: {2: 'zoo:launchpad23'}\n", "reads no file"},
      {"game: launchpad23\nplayers: {2: {kind: search, path: x.ckpt}}\n", "reads no file"},
      {"game: launchpad23\nplayers: {2: 'best=heuristic'}\n", "drop the name"},
      {"game: launchpad23\nplayers: {2: 'ismcts:abc'}\n", "simulations"},
      {"game: launchpad23\nplayers: {2: heuristic}\nsimulations: 3\n", "simulations"},
      // `network` is the .ckpt beside the manifest: there is none here.
      {"game: launchpad23\nplayers: {2: heuristic, 3: network}\n", "`network` is the launchpad23.ckpt"},
      {"game: launchpad23\nplayers: {2: 'network:64'}\n", "write `network` alone"},
  };
  for (const auto& [text, message] : refused) {
    INFO(text);
    write(text);
    CHECK_THROWS_AS(resolved("zoo:launchpad23", 2), ConfigError);
    CHECK_THROWS_WITH(resolved("zoo:launchpad23", 2), Catch::Contains(file) && Catch::Contains(message));
  }
}

// Issue 31: the network wins at 2 players, a search over no network at 3 and
// 4. A manifest beside the game's .ckpt names, per table size, `network` (that
// file, at the simulations its metadata recommends) or an agent reading no file.
TEST_CASE("a zoo manifest names the network beside it at some table sizes and a search at others",
          "[arena][zoo]") {
  const std::string shipped = (kShippedZoo / "last_blast.ckpt").string();
  if (!std::filesystem::exists(shipped) || !game_is_built("last_blast")) return;
  const ZooDirForTest zoo("zoo_mixed");
  std::filesystem::copy_file(shipped, zoo.dir / "last_blast.ckpt");
  const std::string network = zoo.file("last_blast.ckpt"), file = zoo.file("last_blast.yaml");
  const CheckpointMeta meta = read_checkpoint_meta(network);
  REQUIRE(meta.serves(2));
  REQUIRE(meta.zoo_simulations(2) > 0);  // the shipped file recommends a search at 2 players
  zoo.write("last_blast.yaml", "game: last_blast\nplayers:\n  2: network\n  3: ismcts:20:heuristic:2\n");

  CHECK(players::zoo_path("last_blast") == file);  // the manifest is the bot
  const players::ZooManifest manifest = players::read_zoo_manifest(file, "last_blast");
  CHECK(manifest.network == network);
  CHECK(players::zoo_served_players("last_blast") == std::vector<int>{2, 3});  // the manifest's sizes
  // At 2 players the network, as a network zoo file plays: its recommended search...
  players::PlayerSpec two = resolved("zoo:last_blast", 2);
  REQUIRE(two.is<players::Ismcts>());
  CHECK(two.as<players::Ismcts>().network == network);
  CHECK(mcts_of(two).simulations == meta.zoo_simulations(2));
  CHECK(mcts_of(two).root == mcts::RootSelection::kGumbel);
  // ... at the simulations asked for, and 0 is the raw network, greedy.
  CHECK(mcts_of(resolved("zoo:last_blast:8", 2)).simulations == 8);
  const players::PlayerSpec raw = resolved("zoo:last_blast:0", 2);
  REQUIRE(raw.is<players::Checkpoint>());
  CHECK(raw.as<players::Checkpoint>().path == network);
  CHECK(raw.as<players::Checkpoint>().greedy);
  // At 3 players the search over no network, at its own or the asked simulations.
  const players::PlayerSpec three = resolved("zoo:last_blast", 3);
  REQUIRE(three.is<players::Ismcts>());
  CHECK(three.as<players::Ismcts>().network.empty());
  CHECK(players::to_string(three) == "ismcts:20:heuristic:2");
  CHECK(mcts_of(resolved("zoo:last_blast:8", 3)).simulations == 8);
  CHECK_THROWS_WITH(resolved("zoo:last_blast:0", 3), Catch::Contains("no raw network"));
  CHECK_THROWS_WITH(resolved("zoo:last_blast", 4), Catch::Contains("serves 2 and 3 players, not 4"));
  CHECK(players::own_game(players::parse_player("zoo:last_blast")) == "last_blast");

  // Played: the network loaded at 2 players (raw and searching), none at 3.
  const auto game = load_game("last_blast");
  const auto raw_player = players::make_any_player(players::parse_player("zoo:last_blast:0"), *game, 2);
  CHECK(raw_player->spec().is<players::Checkpoint>());
  CHECK(players::uses_network(raw_player->spec()));
  check_plays_legal_moves(*raw_player, *game, 2);
  check_plays_legal_moves(*players::make_any_player(players::parse_player("zoo:last_blast:4"), *game, 2),
                          *game, 2, 8);
  const auto search = players::make_any_player(players::parse_player("zoo:last_blast:4"), *game, 3);
  CHECK_FALSE(players::uses_network(search->spec()));
  check_plays_legal_moves(*search, *game, 3, 8);

  // The zoo's table (docs/agents.md) says the same, from the same files.
  const Json table = players::zoo_table_json();
  const auto row =
      std::find_if(table.begin(), table.end(), [](const Json& r) { return r["game"] == "last_blast"; });
  REQUIRE(row != table.end());
  CHECK((*row)["files"] == Json{"last_blast.yaml", "last_blast.ckpt"});
  CHECK((*row)["players"]["2"] ==
        "network, search of " + std::to_string(meta.zoo_simulations(2)) + " simulations");
  CHECK((*row)["players"]["3"] == "`ismcts:20:heuristic:2`");
  CHECK((*row)["players"]["4"] == "not served");
  CHECK_THAT(players::zoo_table_markdown(),
             Catch::Contains("| last_blast | `last_blast.yaml` + `last_blast.ckpt` |"));

  // Without the manifest the .ckpt alone is the bot again, at every size it serves.
  std::filesystem::remove(file);
  CHECK(players::zoo_path("last_blast") == network);
  CHECK(plays_network(resolved("zoo:last_blast", 3)));
}

// Issue 52: a trained network's best play at 3 and 4 players is a search
// that takes its priors from the network and its values from heuristic
// playouts: a manifest names it as an ismcts whose checkpoint is `network`.
TEST_CASE("a zoo manifest names a search over the network beside it, with settings of its own",
          "[arena][zoo]") {
  const std::string shipped = (kShippedZoo / "last_blast.ckpt").string();
  if (!std::filesystem::exists(shipped) || !game_is_built("last_blast")) return;
  const ZooDirForTest zoo("zoo_search_over_network");
  const std::string network = zoo.file("last_blast.ckpt"), file = zoo.file("last_blast.yaml");
  const std::string manifest =
      "game: last_blast\nplayers:\n  2: network\n  3: {kind: ismcts, checkpoint: network, mcts: "
      "{simulations: 20, rollout_policy: heuristic, rollouts: 2, playout_weight: 1, heuristic_prior: "
      "0.25}}\n";
  zoo.write("last_blast.yaml", manifest);
  // No network beside the manifest: the key and the file it looked for.
  CHECK_THROWS_WITH(resolved("zoo:last_blast", 3), Catch::Contains(file) && Catch::Contains("players.2") &&
                                                       Catch::Contains("there is none"));
  std::filesystem::copy_file(shipped, network);

  const players::ZooManifest read = players::read_zoo_manifest(file, "last_blast");
  CHECK(read.network == network);
  const players::PlayerSpec three = resolved("zoo:last_blast", 3);
  REQUIRE(three.is<players::Ismcts>());
  CHECK(three.as<players::Ismcts>().network == network);  // the word stands for the file beside it
  CHECK(mcts_of(three).simulations == 20);
  CHECK(mcts_of(three).rollout_policy == mcts::RolloutPolicy::kHeuristic);
  CHECK(mcts_of(three).rollouts == 2);
  CHECK(mcts_of(three).playout_weight == 1.0);
  CHECK(mcts_of(three).heuristic_prior == 0.25);
  // The simulations asked for keep the other settings and the network; 0 is the raw network.
  const players::PlayerSpec eight = resolved("zoo:last_blast:8", 3);
  CHECK(mcts_of(eight).simulations == 8);
  CHECK(mcts_of(eight).rollouts == 2);
  CHECK(eight.as<players::Ismcts>().network == network);
  const players::PlayerSpec raw = resolved("zoo:last_blast:0", 3);
  REQUIRE(raw.is<players::Checkpoint>());
  CHECK(raw.as<players::Checkpoint>().path == network);

  const auto game = load_game("last_blast");
  const auto search = players::make_any_player(players::parse_player("zoo:last_blast:4"), *game, 3);
  CHECK(players::uses_network(search->spec()));
  check_plays_legal_moves(*search, *game, 3, 8);

  const Json table = players::zoo_table_json();
  const auto row =
      std::find_if(table.begin(), table.end(), [](const Json& r) { return r["game"] == "last_blast"; });
  REQUIRE(row != table.end());
  CHECK((*row)["players"]["3"] ==
        "network, search of 20 simulations (rollouts=2, rollout_policy=heuristic, heuristic_prior=0.25, "
        "playout_weight=1)");

  // Only a search may name `network` as its checkpoint, and only where the network serves.
  zoo.write("last_blast.yaml",
            "game: last_blast\nplayers: {2: network, 3: {kind: checkpoint, path: network}}\n");
  CHECK_THROWS_WITH(resolved("zoo:last_blast", 3),
                    Catch::Contains(file) && Catch::Contains("a search over it"));
  zoo.write("last_blast.yaml",
            "game: last_blast\nplayers: {2: network, 5: {kind: ismcts, checkpoint: network}}\n");
  CHECK_THROWS_WITH(resolved("zoo:last_blast", 2), Catch::Contains(file) && Catch::Contains("players.5"));
}

TEST_CASE("a zoo manifest naming the network refuses what the network cannot play", "[arena][zoo]") {
  const std::string shipped = (kShippedZoo / "launch_pad.ckpt").string();
  if (!std::filesystem::exists(shipped)) return;
  const ZooDirForTest zoo("zoo_network_refused");
  const std::string network = zoo.file("launch_pad.ckpt"), file = zoo.file("launch_pad.yaml");
  auto refused = [&](const std::string& manifest, const std::vector<std::string>& says) {
    INFO(manifest);
    zoo.write("launch_pad.yaml", manifest);
    CHECK_THROWS_AS(resolved("zoo:launch_pad", 2), ConfigError);
    try {
      resolved("zoo:launch_pad", 2);
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      CHECK_THAT(what, Catch::Contains(file));
      for (const std::string& part : says) CHECK_THAT(what, Catch::Contains(part));
    }
  };
  // `network` with no .ckpt beside the manifest: the key and the file it looked for.
  refused("game: launch_pad\nplayers: {2: network, 3: heuristic}\n", {"players.2", "there is none", network});

  std::filesystem::copy_file(shipped, network);
  const CheckpointMeta meta = read_checkpoint_meta(network);
  REQUIRE_FALSE(meta.serves(3));  // Launch Pad's zoo network serves 2 players only
  // A table size the network was not trained for.
  refused("game: launch_pad\nplayers: {2: network, 3: network}\n",
          {"players.3", "was trained for " + player_counts_text(meta.served_players()) + ", not 3"});
  // Both files, the manifest never naming the network: it would lie there unplayed.
  refused("game: launch_pad\nplayers: {2: heuristic, 3: heuristic}\n",
          {"players", "never names `network`", "launch_pad.ckpt"});
  // The network's simulations are its metadata's, not the manifest's.
  refused("game: launch_pad\nplayers: {2: 'network:32'}\n", {"players.2", "write `network` alone"});
  // The same manifest naming the network where it serves is the bot.
  zoo.write("launch_pad.yaml", "game: launch_pad\nplayers: {2: network, 3: heuristic}\n");
  CHECK(plays_network(resolved("zoo:launch_pad", 2)));
  CHECK(resolved("zoo:launch_pad", 3).is<players::Heuristic>());
  // A zoo bot is still named by its game id, never a path.
  CHECK_THROWS_WITH(players::parse_player("zoo:../" + zoo.dir.filename().string() + "/launch_pad"),
                    Catch::Contains("not a path"));
}

// Issue 55: a manifest may name a table size once ("2" and "02" are one size),
// said with the file and line.
TEST_CASE("a zoo manifest naming a table size twice is refused with its file and line", "[arena][zoo]") {
  const ZooDirForTest zoo("zoo_twice");
  const std::string file = zoo.file("launchpad23.yaml");
  zoo.write("launchpad23.yaml", "game: launchpad23\nplayers:\n  2: heuristic\n  \"02\": random\n");
  CHECK_THROWS_AS(resolved("zoo:launchpad23", 2), ConfigError);
  CHECK_THROWS_WITH(
      resolved("zoo:launchpad23", 2),
      Catch::Contains(file + ":4") && Catch::Contains("table size 2 is named twice ('2' and '02')"));
}

// Issue 55: a zoo file that is there but cannot be read is an error naming it,
// never skipped for another file (the .ckpt would then play at every size).
TEST_CASE("a zoo file that is a folder, a dangling link or a link loop is an error naming it",
          "[arena][zoo]") {
  const std::string shipped = (kShippedZoo / "launch_pad.ckpt").string();
  const ZooDirForTest zoo("zoo_unreadable");
  if (std::filesystem::exists(shipped)) std::filesystem::copy_file(shipped, zoo.dir / "launch_pad.ckpt");
  const std::string manifest = zoo.file("launch_pad.yaml");
  std::filesystem::create_directories(manifest);
  CHECK_THROWS_WITH(players::zoo_path("launch_pad"),
                    Catch::Contains(manifest) && Catch::Contains("not a regular file"));
  std::filesystem::remove(manifest);
  std::filesystem::create_symlink(zoo.file("nowhere.yaml"), manifest);
  CHECK_THROWS_WITH(players::zoo_path("launch_pad"),
                    Catch::Contains(manifest) && Catch::Contains("a symbolic link that leads nowhere"));
  std::filesystem::remove(manifest);
  std::filesystem::create_symlink(manifest, manifest);  // a loop
  CHECK_THROWS_WITH(players::zoo_path("launch_pad"),
                    Catch::Contains(manifest) && Catch::Contains("cannot be read"));
  std::filesystem::remove(manifest);
  if (std::filesystem::exists(shipped)) CHECK(players::zoo_path("launch_pad") == zoo.file("launch_pad.ckpt"));
}

// Issue 55: another game's network in a zoo file plays nowhere, and the zoo's
// table (describe --zoo) does not show it as playing.
TEST_CASE("a zoo network of another game is refused, in the zoo's table too", "[arena][zoo]") {
  const std::string shipped = (kShippedZoo / "lift_off.ckpt").string();
  if (!std::filesystem::exists(shipped) || !game_is_built("last_blast")) return;
  const ZooDirForTest zoo("zoo_other_game");
  std::filesystem::copy_file(shipped, zoo.dir / "last_blast.ckpt");
  const std::string file = zoo.file("last_blast.ckpt");
  CHECK_THROWS_WITH(
      players::zoo_served_players("last_blast"),
      Catch::Contains(file) && Catch::Contains("a network trained for lift_off, not last_blast"));
  CHECK_THROWS_WITH(resolved("zoo:last_blast", 2), Catch::Contains("trained for lift_off"));
  CHECK_THROWS_WITH(players::zoo_table_json(), Catch::Contains("trained for lift_off"));
}

// Issue 55: zoo:GAME names a game of this build; the message says what a game id is and lists them.
TEST_CASE("a zoo bot of no game is refused with the games there are", "[arena][zoo]") {
  for (const char* text : {"zoo:0", "zoo:chess"}) {
    INFO(text);
    CHECK_THROWS_AS(players::parse_player(text), ConfigError);
    CHECK_THROWS_WITH(players::parse_player(text),
                      Catch::Contains("zoo:GAME names the game by its id") && Catch::Contains("known games"));
  }
}
