#include "envs/core/returns.h"

#include <algorithm>
#include <cmath>

#include "envs/core/config.h"

namespace rocketgym {

RewardMode parse_reward_mode(const ConfigNode& root) {
  const std::string m = root.get_choice("reward", "rank", {"rank", "win", "score"});
  if (m == "win") return RewardMode::kWin;
  if (m == "score") return RewardMode::kScore;
  return RewardMode::kRank;
}

const char* reward_mode_name(RewardMode mode) {
  switch (mode) {
    case RewardMode::kWin:
      return "win";
    case RewardMode::kScore:
      return "score";
    default:
      return "rank";
  }
}

void compute_returns(RewardMode mode, int n, const double* standing, const double* score, float* out) {
  if (n < 2) {
    for (int i = 0; i < n; ++i) out[i] = 0.0f;
    return;
  }
  if (mode == RewardMode::kRank) {
    for (int i = 0; i < n; ++i) {
      int balance = 0;
      for (int j = 0; j < n; ++j) balance += (standing[i] > standing[j]) - (standing[i] < standing[j]);
      out[i] = static_cast<float>(balance) / static_cast<float>(n - 1);
    }
  } else if (mode == RewardMode::kWin) {
    const double best = *std::max_element(standing, standing + n);
    const int winners = static_cast<int>(std::count(standing, standing + n, best));
    for (int i = 0; i < n; ++i) {
      if (winners == n)
        out[i] = 0.0f;
      else if (standing[i] == best)
        out[i] = 1.0f / static_cast<float>(winners);
      else
        out[i] = -1.0f / static_cast<float>(n - winners);
    }
  } else {
    double mean = 0.0;
    for (int i = 0; i < n; ++i) mean += score[i];
    mean /= n;
    double scale = 1.0;
    for (int i = 0; i < n; ++i) scale = std::max(scale, std::fabs(score[i] - mean));
    for (int i = 0; i < n; ++i) out[i] = static_cast<float>((score[i] - mean) / scale);
  }
}

}  // namespace rocketgym
