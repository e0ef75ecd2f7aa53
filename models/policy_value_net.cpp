#include "models/policy_value_net.h"

#include <algorithm>
#include <initializer_list>
#include <memory>

#include "envs/core/quoted.h"

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

Json NetConfig::to_json() const {
  return Json{{"kind", kind}, {"hidden", hidden}, {"blocks", blocks}, {"channels", channels}};
}

NetConfig NetConfig::from_json(const Json& doc) {
  NetConfig c;
  c.kind = json_get<std::string>(doc, "kind");
  if (c.kind != "auto" && c.kind != "mlp" && c.kind != "conv")
    throw SerializationError("network kind " + quote(c.kind) + " is not auto, mlp or conv");
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

namespace {

constexpr int64_t kCountCap = int64_t{1} << 62;

int64_t capped_product(std::initializer_list<int64_t> factors) {
  int64_t out = 1;
  for (int64_t f : factors)
    if (__builtin_mul_overflow(out, f, &out) || out > kCountCap) return kCountCap;
  return out;
}

// Weights and biases of a Linear(in, out) layer, or a Conv2d with a k x k kernel.
int64_t linear_count(int64_t in, int64_t out) { return capped_product({in + 1, out}); }
int64_t conv_count(int64_t in, int64_t out, int64_t k) { return capped_product({in * k * k + 1, out}); }

}  // namespace

int64_t NetSpec::parameter_count() const {
  int64_t cells = 1;  // the observation's element count, in 64 bits (observation_size() is an int)
  for (int d : observation_shape) cells = capped_product({cells, d});
  const int64_t hidden = config.hidden, blocks = config.blocks;
  int64_t total = 0;
  auto add = [&](int64_t n) { total = std::min(kCountCap, total + n); };
  if (resolved_kind() == "conv" && observation_shape.size() == 3) {
    const int64_t channels = config.channels;
    add(conv_count(observation_shape[0], channels, 3));
    add(capped_product({2 * blocks, conv_count(channels, channels, 3)}));
    add(linear_count(capped_product({channels, observation_shape[1], observation_shape[2]}), hidden));
  } else {
    add(linear_count(cells, hidden));
    add(capped_product({2 * blocks, linear_count(hidden, hidden)}));
  }
  add(linear_count(hidden, num_actions));
  add(linear_count(hidden, hidden));
  add(linear_count(hidden, num_players));
  return total;
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

namespace {

// A 3x3 convolution with padding 1 keeps the H x W planes: each weight is
// used once per cell; a Linear layer's once.
int64_t layer_multiply_adds(const torch::nn::Module& module, int64_t cells) {
  if (const auto* linear = module.as<torch::nn::LinearImpl>()) return linear->weight.numel();
  if (const auto* conv = module.as<torch::nn::Conv2dImpl>()) return conv->weight.numel() * cells;
  return 0;
}

}  // namespace

int64_t PolicyValueNetImpl::multiply_adds() const {
  int64_t total = 0;
  for (const auto& module : modules(/*include_self=*/false)) total += layer_multiply_adds(*module, cells());
  return total;
}

int64_t PolicyValueNetImpl::first_layer_multiply_adds() const {
  return conv_ ? layer_multiply_adds(*stem_conv_, cells()) : layer_multiply_adds(*stem_linear_, 1);
}

int64_t PolicyValueNetImpl::cells() const {
  return conv_ ? int64_t{spec_.observation_shape[1]} * spec_.observation_shape[2] : 1;
}

torch::Tensor PolicyValueNetImpl::trunk(torch::Tensor x) {
  if (conv_) {
    const auto& s = spec_.observation_shape;
    x = torch::relu(stem_conv_(x.view({x.size(0), s[0], s[1], s[2]})));
    for (const auto& block : *conv_blocks_) x = block->as<ResidualConvBlock>()->forward(x);
    x = x.flatten(1);
  }
  return trunk_from_stem(stem_linear_(x));
}

torch::Tensor PolicyValueNetImpl::trunk_from_stem(torch::Tensor x) {
  x = torch::relu(x);
  for (const auto& block : *mlp_blocks_) x = block->as<ResidualMlpBlock>()->forward(x);
  return x;
}

torch::Tensor PolicyValueNetImpl::values(const torch::Tensor& features) {
  return torch::tanh(value_head_(torch::relu(value_hidden_(features))));
}

PolicyValueOutput PolicyValueNetImpl::forward(torch::Tensor observations, Heads heads) {
  const torch::Tensor features = trunk(observations);
  PolicyValueOutput out;
  out.logits = policy_head_(features);
  if (heads == Heads::kBoth) out.values = values(features);
  return out;
}

torch::Tensor masked_logits(const torch::Tensor& logits, const torch::Tensor& mask) {
  return logits.masked_fill(mask.logical_not(), -1e9f);
}

torch::Tensor seat_mask(const torch::Tensor& table_players, int64_t width) {
  const torch::Tensor seats = torch::arange(width, table_players.options().dtype(torch::kInt64));
  return (seats.unsqueeze(0) < table_players.to(torch::kInt64).unsqueeze(1)).to(torch::kFloat32);
}

torch::Tensor masked_entropy(const torch::Tensor& masked) {
  const torch::Tensor log_p = torch::log_softmax(masked, -1);
  return -(log_p.exp() * log_p).sum(-1);
}

}  // namespace rocketgym
