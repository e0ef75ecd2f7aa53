#include "models/policy_value_net.h"

#include <memory>

namespace rocketgym {

namespace {

// relu(x + W2 relu(W1 x)): keeps the gradient path short in deeper trunks.
struct ResidualMlpBlockImpl : torch::nn::Module {
  explicit ResidualMlpBlockImpl(int width)
      : first(register_module("first", torch::nn::Linear(width, width))),
        second(register_module("second", torch::nn::Linear(width, width))) {}
  torch::Tensor forward(const torch::Tensor& x) { return torch::relu(x + second(torch::relu(first(x)))); }
  torch::nn::Linear first, second;
};
TORCH_MODULE(ResidualMlpBlock);

struct ResidualConvBlockImpl : torch::nn::Module {
  explicit ResidualConvBlockImpl(int channels)
      : first(register_module("first", make_conv(channels))),
        second(register_module("second", make_conv(channels))) {}
  static torch::nn::Conv2d make_conv(int channels) {
    return torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, channels, 3).padding(1));
  }
  torch::Tensor forward(const torch::Tensor& x) { return torch::relu(x + second(torch::relu(first(x)))); }
  torch::nn::Conv2d first, second;
};
TORCH_MODULE(ResidualConvBlock);

}  // namespace

NetConfig NetConfig::from_yaml(const ConfigNode& node) {
  NetConfig c;
  if (node.is_null()) return c;
  node.expect_keys({"kind", "hidden", "blocks", "channels"});
  c.kind = node.get_choice("kind", c.kind, {"auto", "mlp", "conv"});
  c.hidden = node.get_int("hidden", c.hidden, 4, 4096);
  c.blocks = node.get_int("blocks", c.blocks, 0, 32);
  c.channels = node.get_int("channels", c.channels, 1, 1024);
  return c;
}

Json NetConfig::to_json() const {
  return Json{{"kind", kind}, {"hidden", hidden}, {"blocks", blocks}, {"channels", channels}};
}

NetConfig NetConfig::from_json(const Json& doc) {
  NetConfig c;
  c.kind = json_get<std::string>(doc, "kind");
  if (c.kind != "auto" && c.kind != "mlp" && c.kind != "conv")
    throw SerializationError("network kind '" + c.kind + "' is not auto, mlp or conv");
  c.hidden = json_get_int(doc, "hidden", 4, 4096);
  c.blocks = json_get_int(doc, "blocks", 0, 32);
  c.channels = json_get_int(doc, "channels", 1, 1024);
  return c;
}

int NetSpec::observation_size() const {
  int size = 1;
  for (int d : observation_shape) size *= d;
  return size;
}

std::string NetSpec::resolved_kind() const {
  if (config.kind != "auto") return config.kind;
  return observation_shape.size() == 3 ? "conv" : "mlp";
}

PolicyValueNetImpl::PolicyValueNetImpl(const NetSpec& spec) : spec_(spec) {
  if (spec.num_actions < 1 || spec.num_players < 1 || spec.observation_size() < 1)
    throw Error("network spec needs positive observation size, action count and player count");
  conv_ = spec.resolved_kind() == "conv";
  if (conv_ && spec.observation_shape.size() != 3)
    throw Error("a conv network needs C x H x W observations; this encoder gives " +
                std::to_string(spec.observation_shape.size()) + " dimensions (use model.kind: mlp)");
  const int hidden = spec.config.hidden;
  int trunk_out = spec.observation_size();
  if (conv_) {
    const int channels = spec.config.channels;
    stem_conv_ = register_module(
        "stem_conv",
        torch::nn::Conv2d(torch::nn::Conv2dOptions(spec.observation_shape[0], channels, 3).padding(1)));
    conv_blocks_ = register_module("conv_blocks", torch::nn::ModuleList());
    for (int i = 0; i < spec.config.blocks; ++i) conv_blocks_->push_back(ResidualConvBlock(channels));
    trunk_out = channels * spec.observation_shape[1] * spec.observation_shape[2];
  }
  stem_linear_ = register_module("stem_linear", torch::nn::Linear(trunk_out, hidden));
  mlp_blocks_ = register_module("mlp_blocks", torch::nn::ModuleList());
  // The conv trunk already has its residual blocks; the mlp gets them here.
  if (!conv_)
    for (int i = 0; i < spec.config.blocks; ++i) mlp_blocks_->push_back(ResidualMlpBlock(hidden));
  policy_head_ = register_module("policy_head", torch::nn::Linear(hidden, spec.num_actions));
  value_hidden_ = register_module("value_hidden", torch::nn::Linear(hidden, hidden));
  value_head_ = register_module("value_head", torch::nn::Linear(hidden, spec.num_players));
  // Small initial policy weights: the first policy is close to uniform over
  // the legal actions, which keeps early self-play exploratory.
  torch::NoGradGuard no_grad;
  policy_head_->weight.mul_(0.01);
  policy_head_->bias.zero_();
}

torch::Tensor PolicyValueNetImpl::trunk(torch::Tensor x) {
  if (conv_) {
    const auto& s = spec_.observation_shape;
    x = torch::relu(stem_conv_(x.view({x.size(0), s[0], s[1], s[2]})));
    for (const auto& block : *conv_blocks_) x = block->as<ResidualConvBlock>()->forward(x);
    x = x.flatten(1);
  }
  x = torch::relu(stem_linear_(x));
  for (const auto& block : *mlp_blocks_) x = block->as<ResidualMlpBlock>()->forward(x);
  return x;
}

PolicyValueOutput PolicyValueNetImpl::forward(torch::Tensor observations) {
  const torch::Tensor features = trunk(observations);
  PolicyValueOutput out;
  out.logits = policy_head_(features);
  out.values = torch::tanh(value_head_(torch::relu(value_hidden_(features))));
  return out;
}

torch::Tensor masked_logits(const torch::Tensor& logits, const torch::Tensor& mask) {
  return logits.masked_fill(mask.logical_not(), -1e9f);
}

torch::Tensor masked_entropy(const torch::Tensor& masked) {
  const torch::Tensor log_p = torch::log_softmax(masked, -1);
  return -(log_p.exp() * log_p).sum(-1);
}

}  // namespace rocketgym
