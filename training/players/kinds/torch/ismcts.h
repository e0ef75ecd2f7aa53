// The ismcts kind: information-set MCTS over playouts or a network (ismcts.cpp).
#pragma once

#include <memory>
#include <string>

#include "training/mcts/search_options.h"
#include "training/players/kinds.h"

namespace rocketgym::players {

class Ismcts final : public KindOf<Ismcts> {
 public:
  static const KindInfo& row();
  Ismcts(mcts::Options mcts = {}, std::string network = "")  // NOLINT
      : mcts(std::move(mcts)), network(std::move(network)) {}

  mcts::Options mcts;
  std::string network;  // a checkpoint as evaluator; empty: playouts (mcts.rollouts per leaf)

  std::unique_ptr<PlayerKind> read_text(const SpecWords& in) const override;
  std::unique_ptr<PlayerKind> read_yaml(const ConfigNode& node) const override;
  std::string text() const override;
  // The search keys that differ from the defaults, simulations aside, as
  // "KEY=VALUE, ..." (empty: none): how the zoo's table describes a search
  // over a network, which has no command-line form.
  std::string settings_text() const;
  void write_yaml(YAML::Node& mapping) const override;
  std::string default_name() const override;
  PlayedAs played_as() const override;
  std::string* checkpoint_file() override;
  bool needs_network() const override;
  std::unique_ptr<UntypedPlayer> make_player(const PlayerSetup& setup) const override;
};

}  // namespace rocketgym::players
