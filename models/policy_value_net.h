// Policy-value networks over a game's encoder output.
//
// The input is the encoder's flat float vector [B, obs_size]. Two trunks:
//   mlp:  Linear -> ReLU -> `blocks` residual blocks (Linear-ReLU-Linear + skip)
//   conv: for encoders with C x H x W planes: 3x3 conv -> `blocks` residual
//         conv blocks -> flatten -> Linear
// and two heads on the trunk's `hidden` features:
//   policy: one logit per action id (mask them with masked_logits below)
//   value:  one value per seat, relative to the viewer (index 0 = the player
//           to move, 1 = the next seat clockwise, ...), squashed by tanh since
//           every reward mode lies in [-1, 1]. It has an output per seat of
//           the largest table the network may serve (NetSpec::num_players);
//           at a P-player table only the first P mean anything and are read.
#pragma once

#include <torch/torch.h>

#include <string>
#include <vector>

#include "envs/core/config.h"
#include "envs/core/json.h"

namespace rocketgym {

struct NetConfig {
  std::string kind = "auto";  // auto (conv for 3-d observations, else mlp) | mlp | conv
  int hidden = 256;           // trunk width
  int blocks = 2;             // residual blocks
  int channels = 32;          // conv trunk channels

  Json to_json() const;
  static NetConfig from_json(const Json& doc);  // throws SerializationError
};

// Everything needed to rebuild a network: the config and the game's sizes.
struct NetSpec {
  NetConfig config;
  std::vector<int> observation_shape;
  int num_actions = 0;
  int num_players = 0;  // the value head's outputs: seats of the largest table served

  int observation_size() const;
  std::string resolved_kind() const;  // "mlp" or "conv"
  // The number of weights the network has, computed without building it
  // (saturating at 2^62), so that a checkpoint whose metadata describes a
  // network far larger than its model section is refused before allocating.
  int64_t parameter_count() const;
};

struct PolicyValueOutput {
  torch::Tensor logits;  // [B, num_actions], not masked
  torch::Tensor values;  // [B, num_players], viewer-relative seats (the first P at a P-player table)
};

class PolicyValueNetImpl : public torch::nn::Module {
 public:
  // Which heads forward() runs: both, or the policy alone for an agent that
  // only acts (out.values is then left undefined).
  enum class Heads { kBoth, kPolicy };

  explicit PolicyValueNetImpl(const NetSpec& spec);
  PolicyValueOutput forward(torch::Tensor observations, Heads heads = Heads::kBoth);
  const NetSpec& spec() const { return spec_; }
  // Multiply-adds of one observation's forward pass through every layer
  // (both heads), counted from the layers themselves: a dense forward pass
  // costs twice this in FLOPs, its backward pass about twice the forward's.
  int64_t multiply_adds() const;
  // Those of the first layer, the one fed the observation: its backward pass
  // computes only the weights' gradient (the observation needs none).
  int64_t first_layer_multiply_adds() const;

  // Pieces of forward() for a caller that computes some layers itself (an
  // agent's PolicyRunner computes the first layer from the non-zero inputs
  // and the logits of the legal actions only): the trunk's features from the
  // output of its first Linear layer (before its ReLU), the values from the
  // features, and the two layers it computes.
  torch::Tensor trunk_from_stem(torch::Tensor stem_output);
  torch::Tensor values(const torch::Tensor& features);
  const torch::nn::Linear& stem_linear() const { return stem_linear_; }
  const torch::nn::Linear& policy_head() const { return policy_head_; }

 private:
  torch::Tensor trunk(torch::Tensor x);
  int64_t cells() const;  // H x W of a conv trunk's planes, else 1

  NetSpec spec_;
  bool conv_ = false;
  // conv trunk
  torch::nn::Conv2d stem_conv_{nullptr};
  torch::nn::ModuleList conv_blocks_{nullptr};
  // mlp trunk (also the conv trunk's final projection)
  torch::nn::Linear stem_linear_{nullptr};
  torch::nn::ModuleList mlp_blocks_{nullptr};
  torch::nn::Linear policy_head_{nullptr};
  torch::nn::Linear value_hidden_{nullptr}, value_head_{nullptr};
};
TORCH_MODULE(PolicyValueNet);

// Logits with every illegal action set to a large negative number, so that
// softmax gives it probability 0 and (unlike -inf) p * log p stays 0.
// `mask` is [B, num_actions] of uint8/bool, non-zero for legal actions.
torch::Tensor masked_logits(const torch::Tensor& logits, const torch::Tensor& mask);

// [B, width] of 0/1 floats: row b's first table_players[b] seats are 1 (the
// seats at its table), the others 0, so that a value loss over a network
// serving larger tables reads only the seats that exist. `table_players`:
// [B] integers.
torch::Tensor seat_mask(const torch::Tensor& table_players, int64_t width);

// Entropy of the masked categorical distribution per row.
torch::Tensor masked_entropy(const torch::Tensor& masked_logits);

}  // namespace rocketgym
