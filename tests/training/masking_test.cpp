// Masked policies: illegal actions get probability 0 and are never chosen.
#include <catch2/catch.hpp>

#include "envs/core/rng.h"
#include "models/policy_value_net.h"
#include "training/policy_runner.h"

using namespace rocketgym;

TEST_CASE("masked logits give illegal actions probability zero", "[masking]") {
  const auto logits = torch::tensor({{5.0f, 1.0f, 3.0f, 0.0f}});
  const auto mask = torch::tensor({{0, 1, 1, 0}}, torch::kUInt8);
  const auto probs = torch::softmax(masked_logits(logits, mask), -1);
  CHECK(probs[0][0].item<float>() == 0.0f);
  CHECK(probs[0][3].item<float>() == 0.0f);
  // The legal ones keep their relative odds: e^1 : e^3.
  CHECK(probs[0][2].item<float>() / probs[0][1].item<float>() == Approx(std::exp(2.0f)));
  CHECK(probs.sum().item<float>() == Approx(1.0f));
}

TEST_CASE("masked entropy counts only legal actions and is finite", "[masking]") {
  const auto logits = torch::zeros({1, 6});
  const auto mask = torch::tensor({{1, 0, 1, 0, 1, 0}}, torch::kUInt8);
  const auto h = masked_entropy(masked_logits(logits, mask));
  CHECK(h[0].item<float>() == Approx(std::log(3.0f)));
  // A single legal action: entropy 0, not NaN.
  const auto one = torch::tensor({{0, 0, 1, 0, 0, 0}}, torch::kUInt8);
  CHECK(masked_entropy(masked_logits(logits, one))[0].item<float>() == Approx(0.0f).margin(1e-6));
}

TEST_CASE("choose_action never picks an illegal action, even one with high probability", "[masking]") {
  // A (bad) distribution putting most mass on an illegal id.
  const float probs[4] = {0.7f, 0.1f, 0.0f, 0.2f};
  const uint8_t mask[4] = {0, 1, 1, 1};
  Rng rng(3);
  int counts[4] = {0, 0, 0, 0};
  for (int i = 0; i < 3000; ++i) ++counts[choose_action(probs, mask, 4, false, rng)];
  CHECK(counts[0] == 0);
  CHECK(counts[2] == 0);  // zero probability among the legal ones
  // Sampling follows the legal probabilities (1 : 2).
  CHECK(static_cast<double>(counts[3]) / counts[1] == Approx(2.0).epsilon(0.15));
  CHECK(choose_action(probs, mask, 4, true, rng) == 3);  // greedy: most probable legal
}

TEST_CASE("choose_action refuses a row with no legal action", "[masking]") {
  const float probs[2] = {0.5f, 0.5f};
  const uint8_t mask[2] = {0, 0};
  Rng rng(1);
  CHECK_THROWS_AS(choose_action(probs, mask, 2, false, rng), Error);
}

TEST_CASE("a network's masked policy samples only legal actions", "[masking]") {
  NetSpec spec;
  spec.config.kind = "mlp";
  spec.config.hidden = 16;
  spec.observation_shape = {5};
  spec.num_actions = 7;
  spec.num_players = 2;
  PolicyRunner runner(PolicyValueNet(spec), torch::kCPU, 3);
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 5; ++i) runner.observation_row(k)[i] = static_cast<float>(k * i) - 2.0f;
    for (int a = 0; a < 7; ++a) runner.mask_row(k)[a] = (a + k) % 3 == 0;
  }
  runner.evaluate(3);
  Rng rng(11);
  for (int k = 0; k < 3; ++k) {
    float legal_mass = 0.0f;
    for (int a = 0; a < 7; ++a) {
      if (runner.mask_row(k)[a])
        legal_mass += runner.probabilities(k)[a];
      else
        CHECK(runner.probabilities(k)[a] == 0.0f);
    }
    CHECK(legal_mass == Approx(1.0f));
    for (int draw = 0; draw < 200; ++draw) CHECK(runner.mask_row(k)[runner.choose(k, false, rng)] == 1);
    CHECK(runner.values(k)[0] >= -1.0f);
    CHECK(runner.values(k)[1] <= 1.0f);
  }
}

TEST_CASE("conv and mlp networks produce a logit per action and a value per seat", "[masking]") {
  NetSpec spec;
  spec.observation_shape = {4, 3, 3};
  spec.num_actions = 10;
  spec.num_players = 3;
  spec.config.hidden = 16;
  spec.config.channels = 4;
  CHECK(spec.resolved_kind() == "conv");
  PolicyValueNet conv(spec);
  auto out = conv->forward(torch::randn({2, 36}));
  CHECK(out.logits.sizes() == torch::IntArrayRef({2, 10}));
  CHECK(out.values.sizes() == torch::IntArrayRef({2, 3}));
  spec.config.kind = "mlp";
  PolicyValueNet mlp(spec);
  CHECK(mlp->forward(torch::randn({5, 36})).values.sizes() == torch::IntArrayRef({5, 3}));
  // A conv trunk needs planes.
  spec.config.kind = "conv";
  spec.observation_shape = {36};
  CHECK_THROWS_AS(PolicyValueNet(spec), Error);
}
