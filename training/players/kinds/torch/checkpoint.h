// The checkpoint kind: a trained network, greedy or sampling (checkpoint.cpp).
#pragma once

#include <memory>
#include <string>

#include "training/players/kinds.h"

namespace rocketgym::players {

class Checkpoint final : public KindOf<Checkpoint> {
 public:
  static const KindInfo& row();
  Checkpoint(std::string path = "", bool greedy = true) : path(std::move(path)), greedy(greedy) {}  // NOLINT

  std::string path;
  bool greedy = true;  // false: sample from the masked policy

  std::unique_ptr<PlayerKind> read_text(const SpecWords& in) const override;
  std::unique_ptr<PlayerKind> read_yaml(const ConfigNode& node) const override;
  std::unique_ptr<PlayerKind> read_alias(const std::string& text) const override;
  std::string text() const override;
  void write_yaml(YAML::Node& mapping) const override;
  std::string default_name() const override;
  PlayedAs played_as() const override;
  std::string* checkpoint_file() override;
  bool needs_network() const override;
  std::unique_ptr<UntypedPlayer> make_player(const PlayerSetup& setup) const override;
};

}  // namespace rocketgym::players
