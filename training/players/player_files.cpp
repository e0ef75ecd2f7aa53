// The files a player reads: the zoo's files (a game's zoo bot, its manifest)
// and the networks a spec resolves to (player_spec.h, "files"). Reading and
// writing specs is player_spec.cpp's.
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
#include "generated/source_tree.h"
#include "models/checkpoint.h"
#include "training/players/player_spec.h"
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
    throw ConfigError("zoo bot '" + id + "': name it by a game id (letters, digits and '_'), not a path");
  try {
    Registry::instance().find(id);
  } catch (const Error& e) {
    throw ConfigError("zoo bot '" + id + "': zoo:GAME names the game by its id: " + e.what());
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
    throw CheckpointError("zoo bot '" + game_id + "' (" + path + ") is a network trained for " + meta.game +
                          ", not " + game_id);
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
Kind network_at(const std::string& path, int simulations) {
  return simulations == 0 ? Kind{Checkpoint{path, true}} : Kind{Search{path, simulations}};
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

// One table size's agent of a manifest that is not `network`: it reads no
// file and takes its name from the zoo.
PlayerSpec file_free_agent(const ConfigNode& table, const std::string& key, const std::string& game_id) {
  const ConfigNode entry = table.child(key);
  PlayerSpec agent;
  try {
    agent = entry.is_map() ? parse_player(entry) : parse_player(entry.as_string());
  } catch (const ConfigError& e) {
    if (entry.is_map()) throw;  // already names the file and line
    table.fail_key(key, e.what());
  }
  const auto* search = std::get_if<Ismcts>(&agent.kind);
  if (!agent.name.empty()) table.fail_key(key, "a zoo agent takes its name from the zoo; drop the name");
  if (!(agent.is<Random>() || agent.is<Heuristic>() || (search && search->network.empty())))
    table.fail_key(key, "a manifest's agent is `network` (" + game_id +
                            ".ckpt beside it) or reads no file: random, heuristic or ismcts without a "
                            "checkpoint, not " +
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
    root.fail_key("game", "is '" + manifest.game + "', but the file is the zoo bot of '" + game_id + "'");
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
    if (!named) {
      manifest.players.emplace_back(players, file_free_agent(table, key, game_id));
      continue;
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
    manifest.players.emplace_back(
        players, PlayerSpec{"", network_at(network, meta->zoo_simulations(players)), nullptr});
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

Kind zoo_agent(const Zoo& zoo, int num_players) {
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
    if (zoo.simulations < 0) return agent.kind;
    if (is_network(agent)) return network_at(manifest.network, zoo.simulations);
    // The manifest's search at the simulations asked for (zoo:GAME:SIMULATIONS).
    Kind kind = agent.kind;
    auto* search = std::get_if<Ismcts>(&kind);
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

std::string* checkpoint_file(PlayerSpec& spec) {
  if (auto* c = std::get_if<Checkpoint>(&spec.kind)) return &c->path;
  if (auto* s = std::get_if<Search>(&spec.kind)) return &s->path;
  if (auto* s = std::get_if<Ismcts>(&spec.kind); s && !s->network.empty()) return &s->network;
  return nullptr;
}

std::string own_game(const PlayerSpec& spec) {
  if (const auto* z = std::get_if<Zoo>(&spec.kind)) return z->game;
  PlayerSpec copy = spec;
  if (const std::string* path = checkpoint_file(copy)) return read_checkpoint_meta(*path).game;
  return "";
}

mcts::Options play_search_options(int simulations) {
  mcts::Options o;
  o.root = mcts::RootSelection::kGumbel;
  o.gumbel_scale = 0.0;
  o.simulations = simulations;
  return o;
}

void resolve_kind(PlayerSpec& spec, int num_players) {
  if (const auto* z = std::get_if<Zoo>(&spec.kind)) spec.kind = zoo_agent(*z, num_players);
  if (const auto* s = std::get_if<Search>(&spec.kind))
    spec.kind = Ismcts{play_search_options(s->simulations), s->path};
}

bool uses_network(const PlayerSpec& spec) {
  if (const auto* s = std::get_if<Ismcts>(&spec.kind)) return !s->network.empty() || spec.net;
  return spec.is<Checkpoint>() || spec.is<Search>() || spec.is<Zoo>();
}

void resolve(PlayerSpec& spec, const std::string& game_id, int num_players,
             const std::vector<int>& observation_shape, int num_actions, torch::Device device) {
  auto load = [&](const std::string& path) {
    LoadedCheckpoint loaded = load_checkpoint(path, device);
    check_checkpoint_matches(loaded.meta, path, game_id, num_players, observation_shape, num_actions);
    loaded.net->eval();
    return loaded;
  };
  if (const auto* z = std::get_if<Zoo>(&spec.kind); z && z->game != game_id)
    throw Error("it is the zoo bot of " + z->game + ", not of " + game_id);
  if (const auto* z = std::get_if<Zoo>(&spec.kind); z && !spec.net) {
    // A network's zoo file is read once: its network and its recommended simulations.
    if (const std::string path = zoo_path(z->game); !is_zoo_manifest(path)) {
      LoadedCheckpoint loaded = load(path);
      spec.kind =
          network_at(path, z->simulations >= 0 ? z->simulations : loaded.meta.zoo_simulations(num_players));
      spec.net = loaded.net;
    }
  }
  resolve_kind(spec, num_players);  // a manifest's agent (its network too); a search player's ismcts
  if (spec.net) return;
  if (const std::string* path = checkpoint_file(spec)) spec.net = load(*path).net;
}

}  // namespace rocketgym::players
