#include "training/arena/agents.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "models/checkpoint.h"

namespace rocketgym::arena {

namespace {

// `search:PATH` without a count.
constexpr int kDefaultSearchSimulations = 32;

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!text.empty() && text.back() == sep) parts.emplace_back();
  return parts;
}

// A count typed in an agent spec, in the range the YAML keys take (the table
// in training/mcts/mcts.h).
int parse_count(const std::string& text, const mcts::CountRange& range, const std::string& spec,
                const std::string& label = "") {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || !range.contains(value))
    throw ConfigError("agent '" + spec + "': " + range.rule(label) + ", not '" + text + "'");
  return static_cast<int>(value);
}

bool is_plain_name(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+' ||
           c == '#';
  });
}

bool is_kind(const std::string& word) {
  for (const char* kind : {"random", "heuristic", "checkpoint", "ismcts", "search", "zoo"})
    if (word == kind) return true;
  return false;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// A zoo bot is named by its game id: a path or ".." there would make
// zoo_path() read a file outside the zoo folder.
const std::string& checked_zoo_id(const std::string& id) {
  const bool plain = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
  if (!plain)
    throw ConfigError("zoo bot '" + id + "': name it by a game id (letters, digits and '_'), not a path");
  return id;
}

// A path the operating system reads as written: a NUL (YAML's "\0" escape) would
// cut it short.
void check_path(const ConfigNode& node, const char* key, const std::string& path) {
  if (path.find('\0') != std::string::npos) node.fail_key(key, "the path contains a NUL character");
}

}  // namespace

AgentSpec parse_agent(const std::string& text) {
  if (text.find('\0') != std::string::npos)
    throw ConfigError("agent '" + text.substr(0, text.find('\0')) +
                      "...': the spec contains a NUL character");
  AgentSpec a;
  std::string body = text;
  // `name=` only when the name is a plain one, so that a path holding '='
  // (checkpoint:runs/lr=3e-4/latest.ckpt) is not split.
  if (const auto eq = text.find('='); eq != std::string::npos && is_plain_name(text.substr(0, eq))) {
    a.name = text.substr(0, eq);
    body = text.substr(eq + 1);
  }
  const auto parts = split(body, ':');
  if (parts.empty() || parts[0].empty()) throw ConfigError("agent '" + text + "': missing kind");
  if (!is_kind(parts[0]) && ends_with(body, ".ckpt")) {
    a.kind = "checkpoint";  // a bare checkpoint path: checkpoint:PATH, greedy
    a.path = body;
    return a;
  }
  a.kind = parts[0];
  auto expect_at_most = [&](std::size_t n) {
    if (parts.size() > n) throw ConfigError("agent '" + text + "': too many ':' arguments for " + a.kind);
  };
  if (a.kind == "random" || a.kind == "heuristic") {
    expect_at_most(1);
  } else if (a.kind == "checkpoint") {
    expect_at_most(3);
    if (parts.size() < 2 || parts[1].empty())
      throw ConfigError("agent '" + text + "': checkpoint needs a path");
    a.path = parts[1];
    if (parts.size() == 3) {
      if (parts[2] != "greedy" && parts[2] != "sample")
        throw ConfigError("agent '" + text + "': mode '" + parts[2] + "' is not greedy or sample");
      a.greedy = parts[2] == "greedy";
    }
  } else if (a.kind == "ismcts") {
    const bool heuristic = parts.size() >= 3 && parts[2] == "heuristic";
    expect_at_most(heuristic ? 4 : 3);
    if (parts.size() >= 2) a.mcts.simulations = parse_count(parts[1], mcts::kSimulationsRange, text);
    if (heuristic) {
      // Playouts by the game's heuristic bot, half the prior on its move: the
      // setting measured for Launchpad 23 (configs/arena/launchpad23_search.yaml).
      a.mcts.rollout_policy = mcts::RolloutPolicy::kHeuristic;
      a.mcts.heuristic_prior = 0.5;
      if (parts.size() == 4)
        a.mcts.rollouts = parse_count(parts[3], mcts::kRolloutsRange, text, "playouts per leaf (rollouts)");
    } else if (parts.size() == 3) {
      a.path = parts[2];  // a checkpoint as evaluator (./heuristic for a file of that name)
    }
  } else if (a.kind == "search") {
    expect_at_most(3);
    if (parts.size() < 2 || parts[1].empty()) throw ConfigError("agent '" + text + "': search needs a path");
    a.path = parts[1];
    a.kind = "ismcts";
    a.mcts = play_search_options(parts.size() == 3 ? parse_count(parts[2], mcts::kSimulationsRange, text)
                                                   : kDefaultSearchSimulations);
  } else if (a.kind == "zoo") {
    expect_at_most(3);
    if (parts.size() < 2 || parts[1].empty()) throw ConfigError("agent '" + text + "': zoo needs a game id");
    a.zoo_game = checked_zoo_id(parts[1]);
    if (parts.size() == 3)
      a.zoo_simulations = parts[2] == "0" ? 0 : parse_count(parts[2], mcts::kSimulationsRange, text);
  } else {
    throw ConfigError("agent '" + text + "': unknown kind '" + a.kind +
                      "' (random, heuristic, checkpoint:PATH[:greedy|:sample], a path ending in .ckpt, "
                      "ismcts[:SIMULATIONS[:PATH|:heuristic[:PLAYOUTS]]], "
                      "search:PATH[:SIMULATIONS], zoo:GAME[:SIMULATIONS])");
  }
  return a;
}

AgentSpec parse_agent(const ConfigNode& node) {
  if (!node.is_map()) node.fail("an agent is a mapping with at least 'kind'");
  node.expect_keys({"name", "kind", "path", "mode", "mcts", "checkpoint", "game", "simulations"});
  AgentSpec a;
  a.name = node.get_string("name", "");
  a.kind = node.get_choice("kind", "", {"random", "heuristic", "checkpoint", "ismcts", "search", "zoo"});
  if ((node.has("game") && a.kind != "zoo") || (node.has("simulations") && a.kind != "zoo" && a.kind != "search"))
    node.fail("'game' belongs to zoo agents, 'simulations' to zoo and search agents");
  if (a.kind == "zoo") {
    if (node.has("path") || node.has("mode") || node.has("mcts") || node.has("checkpoint"))
      node.fail("a zoo agent takes only 'game' and 'simulations'");
    const std::string game = node.get_string("game");
    try {
      a.zoo_game = checked_zoo_id(game);
    } catch (const Error& e) {
      node.fail_key("game", e.what());
    }
    a.zoo_simulations =
        node.get_int("simulations", -1, 0, mcts::kSimulationsRange.max);  // 0: the raw network
    return a;
  }
  if (a.kind == "search") {
    if (node.has("mode") || node.has("mcts") || node.has("checkpoint"))
      node.fail("a search agent takes only 'path' and 'simulations'");
    a.kind = "ismcts";
    a.path = node.get_string("path");
    a.mcts = play_search_options(mcts::get_count(node, mcts::kSimulationsRange, kDefaultSearchSimulations));
    check_path(node, "path", a.path);
    return a;
  }
  if (a.kind == "checkpoint") {
    a.path = node.get_string("path");
    a.greedy = node.get_choice("mode", "greedy", {"greedy", "sample"}) == "greedy";
    check_path(node, "path", a.path);
  } else if (node.has("path") || node.has("mode")) {
    node.fail("'path' and 'mode' belong to checkpoint agents");
  }
  if (a.kind == "ismcts") {
    try {
      a.mcts = mcts::parse_options(node.child_or_empty("mcts"));
      a.mcts.validate();
    } catch (const ConfigError&) {
      throw;
    } catch (const Error& e) {
      node.fail_key("mcts", e.what());
    }
    a.path = node.get_string("checkpoint", "");
    check_path(node, "checkpoint", a.path);
    if (node.has("mcts")) mcts::check_unused_keys(node.child("mcts"), a.mcts, !a.path.empty());
  } else if (node.has("mcts") || node.has("checkpoint")) {
    node.fail("'mcts' and 'checkpoint' belong to ismcts agents");
  }
  return a;
}

std::string zoo_path(const std::string& game_id) {
  checked_zoo_id(game_id);
  std::vector<std::string> tried;
  if (const char* dir = std::getenv("ROCKETGYM_ZOO_DIR")) tried.push_back(std::string(dir) + "/" + game_id + ".ckpt");
#ifdef ROCKETGYM_TRAINING_SOURCE_DIR
  tried.push_back(std::string(ROCKETGYM_TRAINING_SOURCE_DIR) + "/models/zoo/" + game_id + ".ckpt");
#endif
  for (const auto& path : tried)
    if (std::filesystem::is_regular_file(path)) return path;
  std::string where;
  for (const auto& path : tried) where += (where.empty() ? "" : ", ") + path;
  throw Error("no zoo bot for '" + game_id + "' (looked for " + (where.empty() ? "nothing" : where) +
              "; set ROCKETGYM_ZOO_DIR to a folder of <game>.ckpt files)");
}

mcts::Options play_search_options(int simulations) {
  mcts::Options o;
  o.root = mcts::RootSelection::kGumbel;
  o.gumbel_scale = 0.0;
  o.simulations = simulations;
  return o;
}

void resolve_zoo(AgentSpec& agent) {
  if (agent.kind != "zoo") return;
  agent.path = zoo_path(agent.zoo_game);
  int simulations = agent.zoo_simulations;
  if (simulations < 0) simulations = read_checkpoint_meta(agent.path).zoo_simulations();
  if (simulations == 0) {
    agent.kind = "checkpoint";
    agent.greedy = true;
  } else {
    agent.kind = "ismcts";
    agent.mcts = play_search_options(simulations);
  }
}

void name_agents(std::vector<AgentSpec>& agents) {
  for (auto& a : agents) {
    if (!a.name.empty()) continue;
    if (a.kind == "checkpoint") {
      a.name = std::filesystem::path(a.path).stem().string();
      // runs/<run>/checkpoints/latest.ckpt reads better as the run's name
      const auto parent = std::filesystem::path(a.path).parent_path();
      if (parent.filename() == "checkpoints" && parent.has_parent_path())
        a.name = parent.parent_path().filename().string() + "/" + a.name;
      if (!a.greedy) a.name += ":sample";
    } else if (a.kind == "ismcts" && a.mcts.root == mcts::RootSelection::kGumbel && !a.path.empty()) {
      a.name = "search" + std::to_string(a.mcts.simulations) + "+" + std::filesystem::path(a.path).stem().string();
    } else if (a.kind == "ismcts") {
      a.name = "ismcts" + std::to_string(a.mcts.simulations) + (a.path.empty() ? "" : "+net");
    } else if (a.kind == "zoo") {
      a.name = "zoo:" + a.zoo_game + (a.zoo_simulations >= 0 ? ":" + std::to_string(a.zoo_simulations) : "");
    } else {
      a.name = a.kind;
    }
  }
  for (std::size_t i = 0; i < agents.size(); ++i) {
    int copies = 1;
    for (std::size_t j = i + 1; j < agents.size(); ++j)
      if (agents[j].name == agents[i].name) agents[j].name += "#" + std::to_string(++copies);
  }
}

}  // namespace rocketgym::arena
