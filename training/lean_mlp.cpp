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
// order) for R rows and the T * kLanes outputs from `o`, weights by input;
// each weight is read once for the R rows. R * T sums stay in registers: a
// group of few rows computes more outputs at once, so that there are always
// enough independent sums to keep the multiply-add unit busy (one row's
// 2 x 8 sums, as before, waited on each other's latency). A sum's terms and
// their order do not depend on R or T, only the speed does.
template <int R, int T>
__attribute__((always_inline)) inline void dense_tile(const float* in, View layer, float* out, int o) {
  const int n = layer.in, m = layer.out;
  Vec8 acc[R][T];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) load(acc[r][t], layer.bias + o + t * kLanes);
  for (int i = 0; i < n; ++i) {
    const float* w = layer.weights + static_cast<std::size_t>(i) * m + o;
    Vec8 wt[T];
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) load(wt[t], w + t * kLanes);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const float x = in[static_cast<std::size_t>(r) * n + i];
#pragma GCC unroll 8
      for (int t = 0; t < T; ++t) acc[r][t] += x * wt[t];
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) store(out + static_cast<std::size_t>(r) * m + o + t * kLanes, acc[r][t]);
}

// Every output of R rows: tiles of T vectors, then of one vector, then the
// outputs after the last whole vector one by one, in the same order.
template <int R, int T>
__attribute__((always_inline)) inline void dense_group(const float* in, View layer, float* out) {
  const int n = layer.in, m = layer.out;
  int o = 0;
  for (; o + T * kLanes <= m; o += T * kLanes) dense_tile<R, T>(in, layer, out, o);
  for (; o + kLanes <= m; o += kLanes) dense_tile<R, 1>(in, layer, out, o);
  for (; o < m; ++o)
    for (int r = 0; r < R; ++r) {
      float acc = layer.bias[o];
      for (int i = 0; i < n; ++i)
        acc += in[static_cast<std::size_t>(r) * n + i] * layer.weights[static_cast<std::size_t>(i) * m + o];
      out[static_cast<std::size_t>(r) * m + o] = acc;
    }
}

// (R, T): 7 to 12 sums in registers, with the T weights and a broadcast input
// within AVX2's 16 registers.
ROCKETGYM_VECTOR_CLONES void dense(const float* in, int rows, View layer, float* out) {
  switch (rows) {
    case 1:
      return dense_group<1, 8>(in, layer, out);
    case 2:
      return dense_group<2, 4>(in, layer, out);
    case 3:
      return dense_group<3, 3>(in, layer, out);
    case 4:
      return dense_group<4, 2>(in, layer, out);
    case 5:
      return dense_group<5, 2>(in, layer, out);
    case 6:
      return dense_group<6, 2>(in, layer, out);
    case 7:
      return dense_group<7, 1>(in, layer, out);
    default:
      return dense_group<8, 1>(in, layer, out);
  }
}
static_assert(LeanMlp::kRowGroup == 8, "dense() has a case per group size");

// Whether the eight floats from x are all zero (+0 or -0), read as bits: most
// of an observation is, and a block of zeros costs one test.
inline bool all_zero8(const float* x) {
  uint64_t bits[4];
  std::memcpy(bits, x, sizeof bits);
  return ((bits[0] | bits[1] | bits[2] | bits[3]) & 0x7FFFFFFF7FFFFFFFULL) == 0;
}

// y += value[k] w[index[k]] for k = 0, 1, ..., count - 1 (in that order),
// weights by input; the sums of T vectors of outputs stay in registers
// across the terms.
template <int T>
__attribute__((always_inline)) inline void add_rows_tile(const int* index, const float* value, int count,
                                                         View layer, float* y, int o) {
  Vec8 acc[T];
#pragma GCC unroll 8
  for (int t = 0; t < T; ++t) load(acc[t], y + o + t * kLanes);
  for (int k = 0; k < count; ++k) {
    const float* w = layer.weights + static_cast<std::size_t>(index[k]) * layer.out + o;
#pragma GCC unroll 8
    for (int t = 0; t < T; ++t) {
      Vec8 wt;
      load(wt, w + t * kLanes);
      acc[t] += value[k] * wt;
    }
  }
#pragma GCC unroll 8
  for (int t = 0; t < T; ++t) store(y + o + t * kLanes, acc[t]);
}

__attribute__((always_inline)) inline void add_rows(const int* index, const float* value, int count,
                                                    View layer, float* y) {
  constexpr int kWide = 8;  // vectors of outputs per tile: 8 independent sums
  const int m = layer.out;
  int o = 0;
  for (; o + kWide * kLanes <= m; o += kWide * kLanes) add_rows_tile<kWide>(index, value, count, layer, y, o);
  for (; o + kLanes <= m; o += kLanes) add_rows_tile<1>(index, value, count, layer, y, o);
  for (; o < m; ++o)
    for (int k = 0; k < count; ++k)
      y[o] += value[k] * layer.weights[static_cast<std::size_t>(index[k]) * m + o];
}

// The first layer from the non-zero inputs only: out = bias + x[j] w[j] for
// each non-zero x[j], in the order of j. The non-zero inputs are gathered
// (kGather at a time, skipping blocks of eight zeros), then added to every
// output.
ROCKETGYM_VECTOR_CLONES void sparse_dense(const float* in, int rows, View layer, float* out) {
  constexpr int kGather = 64;
  const int n = layer.in, m = layer.out;
  int index[kGather];
  float value[kGather];
  for (int r = 0; r < rows; ++r) {
    const float* x = in + static_cast<std::size_t>(r) * n;
    float* y = out + static_cast<std::size_t>(r) * m;
    std::copy_n(layer.bias, m, y);
    for (int j = 0; j < n;) {
      int count = 0;
      while (j < n && count < kGather) {
        if (j + kLanes <= n && all_zero8(x + j)) {
          j += kLanes;
          continue;
        }
        if (x[j] != 0.0f) {  // a zero adds nothing
          index[count] = j;
          value[count++] = x[j];
        }
        ++j;
      }
      add_rows(index, value, count, layer, y);
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
  const int actions = num_actions_, hidden = hidden_;
  std::fill_n(p, actions, 0.0f);
  float top = -std::numeric_limits<float>::infinity();
  for_each_legal(mask, actions, [&](int a) {
    p[a] = dot(&policy_.weights[static_cast<std::size_t>(a) * hidden], features, hidden) + policy_.biases[a];
    top = std::max(top, p[a]);
  });
  float total = 0.0f;
  for_each_legal(mask, actions, [&](int a) { total += p[a] = std::exp(p[a] - top); });
  if (total > 0.0f)  // else no legal action: PolicyRunner::choose() refuses the row
    for_each_legal(mask, actions, [&](int a) { p[a] /= total; });
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
