#include "training/lean_mlp.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "envs/core/errors.h"

// The loops below are compiled twice, for processors with AVX2 and FMA
// (x86-64-v3) and for the others, and the loader picks one (GCC's
// target_clones); a row's result depends on the processor, not on the batch.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define ROCKETGYM_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ROCKETGYM_VECTOR_CLONES
#endif

namespace rocketgym {

namespace {

// Eight floats: one AVX register, or two SSE ones.
using Vec8 = float __attribute__((vector_size(32)));
constexpr int kLanes = 8;
constexpr int kTile = 2 * kLanes;  // outputs computed together per row: two vectors

// (By reference: a vector passed by value would change the calling convention
// between the two compilations.)
inline void load(Vec8& v, const float* p) { std::memcpy(&v, p, sizeof v); }
inline void store(float* p, const Vec8& v) { std::memcpy(p, &v, sizeof v); }

// A layer's weights as the loops read them.
struct View {
  const float* weights;
  const float* bias;
  int in, out;
};

// out[r][o] = bias[o] + in[r][0] w[0][o] + in[r][1] w[1][o] + ... (in that
// order) for R rows, weights by input; each weight is read once for the R rows.
template <int R>
__attribute__((always_inline)) inline void dense_group(const float* in, View layer, float* out) {
  const int n = layer.in, m = layer.out;
  int o = 0;
  for (; o + kTile <= m; o += kTile) {
    Vec8 acc[R][2];
    for (int r = 0; r < R; ++r) {
      load(acc[r][0], layer.bias + o);
      load(acc[r][1], layer.bias + o + kLanes);
    }
    for (int i = 0; i < n; ++i) {
      const float* w = layer.weights + static_cast<std::size_t>(i) * m + o;
      Vec8 w0, w1;
      load(w0, w);
      load(w1, w + kLanes);
      for (int r = 0; r < R; ++r) {
        const float x = in[static_cast<std::size_t>(r) * n + i];
        acc[r][0] += x * w0;
        acc[r][1] += x * w1;
      }
    }
    for (int r = 0; r < R; ++r) {
      store(out + static_cast<std::size_t>(r) * m + o, acc[r][0]);
      store(out + static_cast<std::size_t>(r) * m + o + kLanes, acc[r][1]);
    }
  }
  for (; o < m; ++o)  // the outputs after the last whole tile, in the same order
    for (int r = 0; r < R; ++r) {
      float acc = layer.bias[o];
      for (int i = 0; i < n; ++i)
        acc += in[static_cast<std::size_t>(r) * n + i] * layer.weights[static_cast<std::size_t>(i) * m + o];
      out[static_cast<std::size_t>(r) * m + o] = acc;
    }
}

ROCKETGYM_VECTOR_CLONES void dense(const float* in, int rows, View layer, float* out) {
  switch (rows) {
    case 1:
      return dense_group<1>(in, layer, out);
    case 2:
      return dense_group<2>(in, layer, out);
    case 3:
      return dense_group<3>(in, layer, out);
    default:
      return dense_group<4>(in, layer, out);
  }
}
static_assert(LeanMlp::kRowGroup == 4, "dense() has a case per group size");

// The first layer from the non-zero inputs only: out = bias + x[j] w[j] for
// each non-zero x[j], in the order of j.
ROCKETGYM_VECTOR_CLONES void sparse_dense(const float* in, int rows, View layer, float* out) {
  const int n = layer.in, m = layer.out;
  for (int r = 0; r < rows; ++r) {
    const float* x = in + static_cast<std::size_t>(r) * n;
    float* y = out + static_cast<std::size_t>(r) * m;
    std::copy_n(layer.bias, m, y);
    for (int j = 0; j < n; ++j) {
      if (x[j] == 0.0f) continue;  // adds nothing
      const float v = x[j];
      const float* w = layer.weights + static_cast<std::size_t>(j) * m;
      for (int c = 0; c < m; ++c) y[c] += v * w[c];
    }
  }
}

// a . b over n floats: eight partial sums (lane c adds the terms c, c + 8,
// ...), added up in a fixed order, then the terms after the last whole vector.
ROCKETGYM_VECTOR_CLONES float dot(const float* a, const float* b, int n) {
  Vec8 acc = {};
  int i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    Vec8 x, y;
    load(x, a + i);
    load(y, b + i);
    acc += x * y;
  }
  float sum = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

void relu(float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) x[i] = std::max(x[i], 0.0f);
}

}  // namespace

LeanMlp::LeanMlp(const PolicyValueNetImpl& net)
    : obs_size_(net.spec().observation_size()),
      hidden_(net.spec().config.hidden),
      num_actions_(net.spec().num_actions),
      players_(net.spec().num_players) {
  const std::string kind = net.spec().resolved_kind();
  if (kind != "mlp") throw Error("LeanMlp runs mlp networks only, not " + kind);
  // The parameters by their names in the network (and its checkpoints).
  stem_ = layer(net, "stem_linear", true);
  for (int b = 0; b < net.spec().config.blocks; ++b)
    for (const char* which : {"first", "second"})
      blocks_.push_back(layer(net, "mlp_blocks." + std::to_string(b) + "." + which, true));
  policy_ = layer(net, "policy_head", false);  // a dot product per legal action
  value_hidden_ = layer(net, "value_hidden", true);
  value_head_ = layer(net, "value_head", true);
}

LeanMlp::Layer LeanMlp::layer(const PolicyValueNetImpl& net, const std::string& name, bool by_input) {
  Layer l;
  const auto parameters = net.named_parameters();
  const torch::Tensor* weight = parameters.find(name + ".weight");
  const torch::Tensor* bias = parameters.find(name + ".bias");
  if (weight == nullptr || bias == nullptr) throw Error("LeanMlp: the network has no layer '" + name + "'");
  l.weight = *weight;
  l.bias = *bias;
  l.by_input = by_input;
  return l;
}

void LeanMlp::sync() {
  auto follow = [](Layer& l) {
    const std::pair<const void*, int64_t> weight{l.weight.data_ptr(), l.weight._version()};
    const std::pair<const void*, int64_t> bias{l.bias.data_ptr(), l.bias._version()};
    if (weight == l.copied_from[0] && bias == l.copied_from[1]) return;
    torch::NoGradGuard no_grad;
    const torch::Tensor w = (l.by_input ? l.weight.t() : l.weight).to(torch::kCPU).contiguous();
    l.weights.assign(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
    const torch::Tensor b = l.bias.to(torch::kCPU).contiguous();
    l.biases.assign(b.data_ptr<float>(), b.data_ptr<float>() + b.numel());
    l.copied_from[0] = weight;
    l.copied_from[1] = bias;
  };
  follow(stem_);
  for (Layer& l : blocks_) follow(l);
  follow(policy_);
  follow(value_hidden_);
  follow(value_head_);
}

void LeanMlp::features(const float* observations, int rows, float* features, float* scratch) const {
  const auto cells = static_cast<std::size_t>(rows) * hidden_;
  sparse_dense(observations, rows, View{stem_.weights.data(), stem_.biases.data(), obs_size_, hidden_},
               features);
  relu(features, cells);
  // Residual blocks: x = relu(x + second(relu(first(x)))).
  for (std::size_t l = 0; l < blocks_.size(); l += 2) {
    const Layer &first = blocks_[l], &second = blocks_[l + 1];
    dense(features, rows, View{first.weights.data(), first.biases.data(), hidden_, hidden_}, scratch);
    relu(scratch, cells);
    float* inner = scratch + cells;  // scratch holds 2 x cells
    dense(scratch, rows, View{second.weights.data(), second.biases.data(), hidden_, hidden_}, inner);
    for (std::size_t c = 0; c < cells; ++c) features[c] = std::max(features[c] + inner[c], 0.0f);
  }
}

void LeanMlp::policy(const float* features, const uint8_t* mask, float* p) const {
  float top = -std::numeric_limits<float>::infinity();
  for (int a = 0; a < num_actions_; ++a) {
    if (!mask[a]) {
      p[a] = 0.0f;
      continue;
    }
    p[a] =
        dot(&policy_.weights[static_cast<std::size_t>(a) * hidden_], features, hidden_) + policy_.biases[a];
    top = std::max(top, p[a]);
  }
  float total = 0.0f;
  for (int a = 0; a < num_actions_; ++a)
    if (mask[a]) total += p[a] = std::exp(p[a] - top);
  if (total > 0.0f)  // else no legal action: PolicyRunner::choose() refuses the row
    for (int a = 0; a < num_actions_; ++a) p[a] /= total;
}

void LeanMlp::values(const float* features, int rows, float* values, float* scratch) const {
  dense(features, rows, View{value_hidden_.weights.data(), value_hidden_.biases.data(), hidden_, hidden_},
        scratch);
  relu(scratch, static_cast<std::size_t>(rows) * hidden_);
  dense(scratch, rows, View{value_head_.weights.data(), value_head_.biases.data(), hidden_, players_},
        values);
  for (int k = 0; k < rows * players_; ++k) values[k] = std::tanh(values[k]);
}

}  // namespace rocketgym
