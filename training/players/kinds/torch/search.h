// The search kind: a search-trained network with the search it was trained
// with, without noise; it plays as an ismcts player (search.cpp).
#pragma once

#include <memory>
#include <string>

#include "training/mcts/search_options.h"
#include "training/players/kinds.h"

namespace rocketgym::players {

class Search final : public KindOf<Search> {
 public:
  static const KindInfo& row();
  static constexpr int kDefaultSimulations = 32;                        // `search:PATH` without a count
  Search(std::string path = "", int simulations = kDefaultSimulations)  // NOLINT
      : path(std::move(path)), simulations(simulations) {}

  std::string path;
  int simulations = kDefaultSimulations;

  std::unique_ptr<PlayerKind> read_text(const SpecWords& in) const override;
  std::unique_ptr<PlayerKind> read_yaml(const ConfigNode& node) const override;
  std::string text() const override;
  void write_yaml(YAML::Node& mapping) const override;
  std::string default_name() const override;
  PlayedAs played_as() const override;
  std::string* checkpoint_file() override;
  bool needs_network() const override;
  std::unique_ptr<PlayerKind> plays_as(int num_players) const override;
};

// Search options for playing a search-trained network: gumbel root, no noise.
mcts::Options play_search_options(int simulations);

}  // namespace rocketgym::players
