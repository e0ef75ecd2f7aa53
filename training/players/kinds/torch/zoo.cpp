// zoo: the project's best bot for GAME at this table size: its network
// (models/zoo/GAME.ckpt) at the simulations its file recommends for the size
// (0: the raw network, greedy), or the agent its manifest
// (models/zoo/GAME.yaml) names for the size. Also the zoo's files: where a
// game's bot lies, its manifest, the table sizes it serves.
#include "training/players/kinds/torch/zoo.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>

#include "envs/core/game.h"
#include "envs/core/quoted.h"
#include "generated/source_tree.h"
#include "models/checkpoint.h"
#include "training/table_limits.h"

namespace rocketgym::players {

// A zoo bot is named by its game id: a path or ".." there would make
// zoo_path() read a file outside the zoo folder.
// And it must be a game of this build (whose id the message lists).
const std::string& checked_zoo_id(const std::string& id) {
  const bool plain = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
  if (!plain)
    throw ConfigError("zoo bot " + quote(id) +
                      ": name it by a game id (letters, digits and '_'), not a path");
  try {
    Registry::instance().find(id);
  } catch (const Error& e) {
    throw ConfigError("zoo bot " + quote(id) + ": zoo:GAME names the game by its id: " + e.what());
  }
  return id;
}

namespace {

// Whether a zoo folder holds `file`: a regular file (through a symbolic link)
// yes, nothing by that name no; anything else there (a folder, a FIFO, a
// dangling or looping symbolic link) is an Error naming it, never skipped:
// another file of the zoo would then play in its place.
bool zoo_file_here(const std::string& file) {
  struct stat link {};
  if (::lstat(file.c_str(), &link) != 0) return false;
  struct stat target {};
  if (::stat(file.c_str(), &target) != 0)
    throw Error("zoo file '" + file + "' cannot be read (" + std::strerror(errno) +
                (S_ISLNK(link.st_mode) ? "; a symbolic link that leads nowhere" : "") + ")");
  if (!S_ISREG(target.st_mode))
    throw Error("zoo file '" + file + "' is not a regular file (a zoo bot is a .ckpt or .yaml file)");
  return true;
}

// A zoo network's metadata, which must be a network of the game it is the bot of.
CheckpointMeta zoo_network_meta(const std::string& path, const std::string& game_id) {
  CheckpointMeta meta = read_checkpoint_meta(path);
  if (meta.game != game_id)
    throw CheckpointError("zoo bot '" + game_id + "' (" + path + ") is a network trained for " +
                          shortened(meta.game) + ", not " + game_id);
  return meta;
}

}  // namespace

std::string zoo_path(const std::string& game_id) {
  checked_zoo_id(game_id);
  std::vector<std::string> folders;
  if (const char* dir = std::getenv("ROCKETGYM_ZOO_DIR")) folders.emplace_back(dir);
  folders.push_back(std::string(ROCKETGYM_SOURCE_DIR) + "/models/zoo");
  std::string where;
  for (const auto& folder : folders) {
    const std::string checkpoint = folder + "/" + game_id + ".ckpt",
                      manifest = folder + "/" + game_id + ".yaml";
    // With both, the manifest is the bot and names the network per table size
    // (read_zoo_manifest refuses one that never does).
    if (zoo_file_here(manifest)) return manifest;
    if (zoo_file_here(checkpoint)) return checkpoint;
    where += (where.empty() ? "" : ", ") + checkpoint + ", " + manifest;
  }
  throw Error("no zoo bot for '" + game_id + "' (looked for " + (where.empty() ? "nothing" : where) +
              "; set ROCKETGYM_ZOO_DIR to a folder of <game>.ckpt or <game>.yaml files)");
}

bool is_zoo_manifest(const std::string& path) {
  const std::string tail = ".yaml";
  return path.size() >= tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
}

namespace {

// The word a manifest writes for the network beside it.
constexpr const char* kNetworkWord = "network";

// A zoo network played at `simulations`: 0 is the raw network, greedy.
std::unique_ptr<PlayerKind> network_at(const std::string& path, int simulations) {
  if (simulations == 0) return std::make_unique<Checkpoint>(path, true);
  return std::make_unique<Search>(path, simulations);
}

bool is_network(const PlayerSpec& agent) { return agent.is<Checkpoint>() || agent.is<Search>(); }

// A manifest's table size key as a number.
int table_size(const ConfigNode& table, const std::string& key) {
  int players = 0;
  const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), players);
  if (key.empty() || error != std::errc() || end != key.data() + key.size() || players < 1 ||
      players > kLargestTableInput)
    table.fail_key(key, "a table size is a whole number from 1 to " + std::to_string(kLargestTableInput));
  return players;
}

// A search whose checkpoint is the word `network` in a manifest, e.g.
// {kind: ismcts, checkpoint: network, mcts: {rollout_policy: heuristic, ...}}:
// the network beside the manifest as that search's priors and values.
Ismcts* search_over_network(PlayerSpec& agent) {
  auto* search = agent.get_if<Ismcts>();
  return search && search->network == kNetworkWord ? search : nullptr;
}

// One table size's agent of a manifest that is not the word `network`: it
// reads no file, or it is a search over `network` (search_over_network), and
// it takes its name from the zoo.
PlayerSpec manifest_agent(const ConfigNode& table, const std::string& key, const std::string& game_id) {
  const ConfigNode entry = table.child(key);
  PlayerSpec agent;
  try {
    agent = entry.is_map() ? parse_player(entry) : parse_player(entry.as_string());
  } catch (const ConfigError& e) {
    if (entry.is_map()) throw;  // already names the file and line
    table.fail_key(key, e.what());
  }
  if (!agent.name.empty()) table.fail_key(key, "a zoo agent takes its name from the zoo; drop the name");
  if (uses_network(agent) && !search_over_network(agent))
    table.fail_key(key, "a manifest's agent is `network` (" + game_id +
                            ".ckpt beside it), a search over it ({kind: ismcts, checkpoint: network, "
                            "mcts: {...}}) or reads no file (random, heuristic or ismcts without a "
                            "checkpoint, say), not " +
                            kind_name(agent));
  return agent;
}

}  // namespace

ZooManifest read_zoo_manifest(const std::string& path, const std::string& game_id) {
  const ConfigNode root = ConfigNode::load_file(path);
  root.expect_keys({"game", "players"});
  ZooManifest manifest;
  manifest.game = root.get_string("game");
  if (manifest.game != game_id)
    root.fail_key("game",
                  "is " + quote(manifest.game) + ", but the file is the zoo bot of '" + game_id + "'");
  const ConfigNode table = root.child("players");
  if (!table.is_map() || table.keys().empty())
    table.fail("'players' maps each table size to its agent, e.g. {2: heuristic}");
  // The network beside the manifest, its metadata read once if named.
  const std::string network = path.substr(0, path.size() - std::string(".yaml").size()) + ".ckpt";
  const bool network_here = zoo_file_here(network);
  std::optional<CheckpointMeta> meta;
  std::map<int, std::string> sizes;  // each table size once: "2" and "02" are one size
  for (const std::string& key : table.keys()) {
    const int players = table_size(table, key);
    if (const auto [named, fresh] = sizes.emplace(players, key); !fresh)
      table.fail_key(key, "table size " + std::to_string(players) + " is named twice ('" + named->second +
                              "' and '" + key + "'): give each size once");
    const ConfigNode entry = table.child(key);
    const std::string word = entry.yaml().IsScalar() ? entry.as_string() : "";
    const bool named = word == kNetworkWord;
    if (!named && word.rfind(std::string(kNetworkWord) + ":", 0) == 0)
      table.fail_key(key,
                     "write `network` alone: its simulations per table size are the network's "
                     "metadata (extra.zoo.players.<P>.simulations); zoo:" +
                         game_id + ":SIMS asks for others");
    PlayerSpec agent;
    Ismcts* search = nullptr;
    if (!named) {
      agent = manifest_agent(table, key, game_id);
      search = search_over_network(agent);
      if (!search) {
        manifest.players.emplace_back(players, std::move(agent));
        continue;
      }
    }
    if (!network_here)
      table.fail_key(key, "`network` is the " + game_id + ".ckpt beside the manifest, and there is none (" +
                              network + ")");
    if (!meta) meta = zoo_network_meta(network, game_id);
    if (!meta->serves(players))
      table.fail_key(key, "`network`: " + network + " was trained for " +
                              player_counts_text(meta->served_players()) + ", not " +
                              std::to_string(players));
    manifest.network = network;
    if (search) {
      search->network = network;
      manifest.players.emplace_back(players, std::move(agent));
    } else {
      manifest.players.emplace_back(
          players, PlayerSpec{"", network_at(network, meta->zoo_simulations(players)), nullptr});
    }
  }
  if (network_here && manifest.network.empty())
    root.fail_key("players", "never names `network`, yet " + network +
                                 " lies beside the manifest, where no table would ever play it: name "
                                 "`network` for the table sizes it plays, or remove one of the two files");
  std::sort(manifest.players.begin(), manifest.players.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return manifest;
}

std::vector<int> zoo_served_players(const std::string& game_id) {
  const std::string path = zoo_path(game_id);
  if (!is_zoo_manifest(path)) return zoo_network_meta(path, game_id).served_players();
  std::vector<int> served;
  for (const auto& [players, agent] : read_zoo_manifest(path, game_id).players) served.push_back(players);
  return served;
}

namespace {

// The agent of zoo_agent().
std::unique_ptr<PlayerKind> zoo_agent_kind(const Zoo& zoo, int num_players) {
  const std::string path = zoo_path(zoo.game);
  if (!is_zoo_manifest(path))
    return network_at(path, zoo.simulations >= 0
                                ? zoo.simulations
                                : zoo_network_meta(path, zoo.game).zoo_simulations(num_players));
  const ZooManifest manifest = read_zoo_manifest(path, zoo.game);
  std::vector<int> served;
  for (const auto& [players, agent] : manifest.players) {
    served.push_back(players);
    if (players != num_players) continue;
    if (zoo.simulations < 0) return agent.kind->clone();
    if (is_network(agent)) return network_at(manifest.network, zoo.simulations);
    // The manifest's search at the simulations asked for (zoo:GAME:SIMULATIONS);
    // 0 is the raw network of a search over it.
    std::unique_ptr<PlayerKind> kind = agent.kind->clone();
    auto* search = dynamic_cast<Ismcts*>(kind.get());
    if (zoo.simulations == 0 && search && !search->network.empty()) return network_at(search->network, 0);
    if (zoo.simulations == 0 || !search)
      throw ConfigError("zoo bot '" + zoo.game + "' (" + path + ") plays " + kind_name(agent) +
                        " over no network at " + std::to_string(num_players) + " players: " +
                        (search ? "it has no raw network to play with 0 simulations"
                                : "it has no search to give simulations to"));
    search->mcts.simulations = zoo.simulations;
    return kind;
  }
  throw Error("zoo bot '" + zoo.game + "' (" + path + ") serves " + player_counts_text(served) + ", not " +
              std::to_string(num_players));
}

}  // namespace

Kind zoo_agent(const Zoo& zoo, int num_players) { return Kind(zoo_agent_kind(zoo, num_players)); }

// --- the kind ------------------------------------------------------------------------

const KindInfo& Zoo::row() {
  static const KindInfo row{
      "zoo",
      "zoo:GAME[:SIMULATIONS]",
      "",
      {"game", "simulations"},
      "the project's best bot for GAME at this table size ([the zoo](#the-zoo-exported-bots-and-bots-"
      "elsewhere)): its network (`models/zoo/GAME.ckpt`) at the simulations its file recommends for the size "
      "(0 = the raw network, greedy), or the agent its manifest (`models/zoo/GAME.yaml`) names for the size, "
      "that network or a search over no network; `:SIMULATIONS` plays that agent at SIMULATIONS; `zoo` alone "
      "is this game's (`--seats human,zoo`, Python)",
      true,
      true,
      60};
  return row;
}

// zoo:GAME:SIMULATIONS and the YAML key read one range: 0 is the raw network.
constexpr mcts::CountRange kZooSimulations{"simulations", 0, mcts::kSimulationsRange.max};

std::unique_ptr<PlayerKind> Zoo::read_text(const SpecWords& in) const {
  in.at_most(3);
  auto z = std::make_unique<Zoo>(checked_zoo_id(in.required(1, "zoo needs a game id")));
  if (in.words.size() == 3)
    z->simulations = read_count(in, 2, kZooSimulations, "simulations (0: the raw network)");
  return z;
}

std::unique_ptr<PlayerKind> Zoo::read_yaml(const ConfigNode& node) const {
  auto z = std::make_unique<Zoo>();
  const std::string id = node.get_string("game");
  try {
    z->game = checked_zoo_id(id);
  } catch (const Error& e) {
    node.fail_key("game", e.what());
  }
  z->simulations = node.get_int("simulations", -1, kZooSimulations.min, kZooSimulations.max);
  return z;
}

std::string Zoo::at_table(const std::string& game_id) const {
  return std::string(row().name) + ":" + game_id;
}

std::string Zoo::text() const {
  return std::string(row().name) + ":" + game + (simulations >= 0 ? ":" + std::to_string(simulations) : "");
}

void Zoo::write_yaml(YAML::Node& mapping) const {
  mapping["game"] = game;
  if (simulations >= 0) mapping["simulations"] = simulations;
}

std::string Zoo::default_name() const { return text(); }

std::string Zoo::own_game() const { return game; }

bool Zoo::needs_network() const { return true; }

void Zoo::prepare(PlayerSpec& spec, const PlayerTable& table) const {
  if (game != table.game_id) throw Error("it is the zoo bot of " + game + ", not of " + table.game_id);
  if (spec.net) return;
  // A network's zoo file is read once: its network and its recommended simulations.
  if (const std::string path = zoo_path(game); !is_zoo_manifest(path)) {
    LoadedCheckpoint loaded = load_for_table(path, table);
    spec.kind = Kind(
        network_at(path, simulations >= 0 ? simulations : loaded.meta.zoo_simulations(table.num_players)));
    spec.net = loaded.net;
  }
}

std::unique_ptr<PlayerKind> Zoo::plays_as(int num_players) const {
  return zoo_agent_kind(*this, num_players);
}

const PlayerKind& zoo_kind() {
  static const Zoo kind;
  return kind;
}

}  // namespace rocketgym::players
