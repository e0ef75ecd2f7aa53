#include "training/players/kinds.h"

namespace rocketgym::players {

namespace {

// Each kind's row: the one place its name, forms and help are written.
const std::vector<KindInfo> kKinds = {
    {KindId::kRandom, "random", "random", "", "", "a uniformly random legal action", true, false},
    {KindId::kHeuristic, "heuristic", "heuristic", "", "", "the game's hand-written heuristic bot", true,
     false},
    {KindId::kCheckpoint, "checkpoint", "checkpoint:PATH[:greedy|:sample]", "PATH.ckpt", "path, mode",
     "a trained network: the most probable legal action (default) or a draw from its masked policy; a "
     "bare path ending in `.ckpt` is `checkpoint:PATH`",
     true, true},
    {KindId::kIsmcts, "ismcts", "ismcts[:SIMULATIONS[:PATH|:heuristic[:PLAYOUTS][:KEY=VALUE...]]]", "",
     "mcts, checkpoint",
     "information-set MCTS ([Search](search.md)): random playouts by default; `:heuristic` plays them by the "
     "heuristic bot with half the prior on its move (`:heuristic:4` averages 4 playouts per leaf; any other "
     "[search key](search.md#options-yaml-keys-all-optional) follows as `:KEY=VALUE`, read and refused as in "
     "YAML: Launchpad 23's strongest bot is `ismcts:1600:heuristic:c_puct=0.75:rollout_depth=8`; a key given "
     "twice, or one the short form already says (`simulations`, `rollout_policy`, and `rollouts` after "
     "PLAYOUTS: `ismcts:10:heuristic:simulations=20`), is refused naming it); `:PATH` uses a checkpoint's "
     "priors and values",
     true, true},
    {KindId::kSearch, "search", "search:PATH[:SIMULATIONS]", "", "path, simulations",
     "a search-trained network with the Gumbel-root search it was trained with, without noise", true, true},
    {KindId::kZoo, "zoo", "zoo:GAME[:SIMULATIONS]", "", "game, simulations",
     "the project's best bot for GAME at this table size ([the zoo](#the-zoo-exported-bots-and-bots-"
     "elsewhere)): its network (`models/zoo/GAME.ckpt`) at the simulations its file recommends for the size "
     "(0 = the raw network, greedy), or the agent its manifest (`models/zoo/GAME.yaml`) names for the size, "
     "that network or a search over no network; `:SIMULATIONS` plays that agent at SIMULATIONS; `zoo` alone "
     "is this game's (`--seats human,zoo`, Python)",
     true, true},
    {KindId::kHuman, "human", "human", "", "",
     "a person: at the terminal (`rocketgym play --seats`) or in the browser (`rocketgym serve`); not an "
     "agent, so not a seat of the arena, an opponent or Python's load_agent",
     false, false},
};

std::string escaped_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

const std::vector<KindInfo>& player_kinds() { return kKinds; }

const KindInfo& kind_info(KindId id) { return kKinds.at(static_cast<std::size_t>(id)); }

const char* kind_name(KindId id) { return kind_info(id).name; }

const KindInfo* find_kind(const std::string& name) {
  for (const KindInfo& k : kKinds)
    if (name == k.name) return &k;
  return nullptr;
}

std::string agent_grammar(const std::string& separator) {
  std::string out;
  for (const KindInfo& k : kKinds) {
    if (!k.agent) continue;
    out += (out.empty() ? "" : separator) + k.form;
    if (*k.alias) out += separator + k.alias;
  }
  return out;
}

std::string agent_kind_names() {
  std::string out;
  for (const KindInfo& k : kKinds)
    if (k.agent) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

bool is_human(const std::string& seat) { return seat == kind_name(KindId::kHuman); }

std::string kinds_markdown() {
  std::string out = "| spec | YAML keys | who plays |\n| --- | --- | --- |\n";
  for (const KindInfo& k : kKinds) {
    std::string spec = "`" + escaped_cell(k.form) + "`";
    if (*k.alias) spec += ", `" + escaped_cell(k.alias) + "`";
    const std::string keys = *k.yaml ? "`" + std::string(k.yaml) + "`" : (k.agent ? "" : "(no YAML form)");
    out += "| " + spec + " | " + keys + " | " + escaped_cell(k.help) + " |\n";
  }
  return out;
}

Json kinds_json() {
  Json rows = Json::array();
  for (const KindInfo& k : kKinds)
    rows.push_back(Json{{"name", k.name},
                        {"form", k.form},
                        {"alias", k.alias},
                        {"yaml", k.yaml},
                        {"help", k.help},
                        {"agent", k.agent},
                        {"network", k.network}});
  return rows;
}

}  // namespace rocketgym::players
