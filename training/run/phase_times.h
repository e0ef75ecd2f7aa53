// Where a training iteration's time goes: the seconds of each phase of
// collecting and updating, summed over one iteration. PPO writes them to
// metrics.csv (columns seconds_<phase>); scripts/profile_ppo.sh turns them
// into the profile of docs/benchmarks.md ("Where PPO's time goes").
#pragma once

#include <array>
#include <chrono>
#include <string>

namespace rocketgym::run {

// In the order of an iteration: collecting, then updating.
enum class Phase : int {
  kEnvStep,    // stepping the envs and closing finished episodes
  kPolicy,     // the learner's forward passes while collecting
  kOpponents,  // the other seats' agents and snapshots choosing their moves
  kRecord,     // sampling the learner's actions and storing its decisions
  kBatch,      // the update's batch built from the store (and moved to the device)
  kWait,       // the first collective of the update: waiting for the other ranks to finish collecting
  kForward,    // forward passes and losses of the update's minibatches
  kBackward,   // their backward passes
  kAllReduce,  // summing gradients, statistics and advantage moments over the ranks
  kOptimizer,  // gradient clipping and the optimizer's steps
};
inline constexpr int kPhases = 10;
inline constexpr std::array<const char*, kPhases> kPhaseNames = {
    "env_step", "policy",  "opponents", "record",     "batch",
    "wait",     "forward", "backward",  "all_reduce", "optimizer"};

// Seconds since some fixed moment; a test passes a fake one.
using SecondsClock = double (*)();
inline double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct PhaseTimes {
  std::array<double, kPhases> seconds{};
  SecondsClock now = steady_seconds;

  double& operator[](Phase phase) { return seconds[static_cast<int>(phase)]; }
  double operator[](Phase phase) const { return seconds[static_cast<int>(phase)]; }
  void clear() { seconds.fill(0.0); }
  static std::string column(int phase) {
    return std::string("seconds_") + kPhaseNames[static_cast<std::size_t>(phase)];
  }
};

// Adds the seconds from its construction to its destruction to one phase;
// with no PhaseTimes (nullptr) it reads no clock.
class PhaseTimer {
 public:
  PhaseTimer(PhaseTimes* times, Phase phase)
      : times_(times), phase_(phase), start_(times ? times->now() : 0.0) {}
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;
  ~PhaseTimer() {
    if (times_) (*times_)[phase_] += times_->now() - start_;
  }

 private:
  PhaseTimes* times_;
  Phase phase_;
  double start_;
};

}  // namespace rocketgym::run
