// Static descriptions of a game's tensors for its documentation: the feature
// blocks of its observation and the id ranges of its actions. Each game's
// descriptor declares `observation_layout(players)` and `action_ranges()`,
// written beside its encoder and action codec from the same constants, and
// `rocketgym describe <game> --markdown` prints them (docs/games/<id>.md is
// generated from it). Tests check that the blocks tile the observation and the
// ranges tile the action ids, so the description cannot drift from the code.
// Nothing here is on a hot path.
#pragma once

#include <string>
#include <vector>

#include "envs/core/game.h"

namespace rocketgym {

// What a seat may see of a feature block.
enum class Visibility {
  kPublic,     // on the table: every seat sees the same value
  kOwn,        // the viewer's own secret (hand, hidden pick); never another seat's
  kKnowledge,  // what the viewer has seen of hidden cards (zero for what it has not seen)
  kDerived,    // worked out from public facts only
};
const char* visibility_name(Visibility v);

struct FeatureBlock {
  std::string name;
  int offset = 0;  // first float of the flat observation
  int size = 0;    // floats
  std::string meaning;
  Visibility visibility = Visibility::kPublic;
};

// The player-count feature of every game's observation (issue 31: one network
// serves 2, 3 and 4 players, so it must be told the table size): one-hot 2, 3, 4
// players. Writes every float of its block.
constexpr int kPlayerCountFeatures = 3;
inline void encode_player_count(int num_players, float* out) {
  for (int i = 0; i < kPlayerCountFeatures; ++i) out[i] = i == num_players - 2 ? 1.0f : 0.0f;
}

// Appends blocks one after the other, so offsets follow from the sizes the
// encoder uses.
class LayoutBuilder {
 public:
  LayoutBuilder& add(std::string name, int size, std::string meaning, Visibility v = Visibility::kPublic);
  // The "player count" block that encode_player_count writes.
  LayoutBuilder& add_player_count();
  const std::vector<FeatureBlock>& blocks() const { return blocks_; }
  int size() const { return end_; }

 private:
  std::vector<FeatureBlock> blocks_;
  int end_ = 0;
};

// Seat name relative to the viewer, as the encoders order seats:
// 0 "viewer", 1 "next seat clockwise (+1)", ...
std::string relative_seat_name(int offset);

struct ActionRange {
  Action first = 0;
  int count = 1;
  std::string says;     // words action_to_string uses for every id of the range
  std::string meaning;  // how an id of the range decodes
};

// A game's description, through the registry's compile-time game list.
std::vector<FeatureBlock> observation_layout(const std::string& game_id, int num_players);
std::vector<ActionRange> action_ranges(const std::string& game_id);
// Markdown tables: players, config keys (the built-in config), actions,
// observation for every player count. Generated into docs/games/<id>.md.
std::string describe_markdown(const std::string& game_id);

}  // namespace rocketgym
