// search: a search-trained network played with the Gumbel-root search it was
// trained with (search-based self-play), without noise: the strongest way to
// play an AlphaZero-style checkpoint. It plays as the ismcts player it stands
// for (plays_as).
#include "training/players/kinds/torch/search.h"

#include <filesystem>

#include "training/players/kinds/torch/ismcts.h"
#include "training/players/player_spec.h"

namespace rocketgym::players {

const KindInfo& Search::row() {
  static const KindInfo row{
      "search",
      "search:PATH[:SIMULATIONS]",
      "",
      {"path", "simulations"},
      "a search-trained network with the Gumbel-root search it was trained with, without noise",
      true,
      true,
      50};
  return row;
}

mcts::Options play_search_options(int simulations) {
  mcts::Options o;
  o.root = mcts::RootSelection::kGumbel;
  o.gumbel_scale = 0.0;
  o.simulations = simulations;
  return o;
}

std::unique_ptr<PlayerKind> Search::read_text(const SpecWords& in) const {
  in.at_most(3);
  auto s = std::make_unique<Search>(in.required(1, "search needs a path"));
  if (in.words.size() == 3) s->simulations = read_count(in, 2, mcts::kSimulationsRange);
  return s;
}

std::unique_ptr<PlayerKind> Search::read_yaml(const ConfigNode& node) const {
  auto s = std::make_unique<Search>(node.get_string("path"),
                                    mcts::get_count(node, mcts::kSimulationsRange, kDefaultSimulations));
  check_path(node, "path", s->path);
  return s;
}

std::string Search::text() const {
  return std::string(row().name) + ":" + path + ":" + std::to_string(simulations);
}

void Search::write_yaml(YAML::Node& mapping) const {
  mapping["path"] = path;
  mapping["simulations"] = simulations;
}

std::string Search::default_name() const {
  return row().name + std::to_string(simulations) + "+" + std::filesystem::path(path).stem().string();
}

PlayedAs Search::played_as() const { return plays_as(0)->played_as(); }

std::string* Search::checkpoint_file() { return &path; }

bool Search::needs_network() const { return true; }

std::unique_ptr<PlayerKind> Search::plays_as(int num_players) const {
  (void)num_players;
  return std::make_unique<Ismcts>(play_search_options(simulations), path);
}

const PlayerKind& search_kind() {
  static const Search kind;
  return kind;
}

}  // namespace rocketgym::players
