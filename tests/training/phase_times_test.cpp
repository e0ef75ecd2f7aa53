// The profile's phase timer (training/run/phase_times.h), on a fake clock.
#include "training/run/phase_times.h"

#include <catch2/catch.hpp>

using namespace rocketgym::run;

namespace {
double fake_now = 0.0;
double fake_clock() { return fake_now; }
}  // namespace

TEST_CASE("a phase timer adds the seconds between its start and its end to its phase", "[phase_times]") {
  PhaseTimes times;
  times.now = fake_clock;
  fake_now = 10.0;
  {
    PhaseTimer timer(&times, Phase::kForward);
    fake_now = 10.25;
  }
  {
    PhaseTimer timer(&times, Phase::kForward);
    fake_now = 11.0;
  }
  CHECK(times[Phase::kForward] == 1.0);
  CHECK(times[Phase::kBackward] == 0.0);
  times.clear();
  CHECK(times[Phase::kForward] == 0.0);
}

TEST_CASE("a phase timer without times reads no clock", "[phase_times]") {
  PhaseTimer timer(nullptr, Phase::kEnvStep);  // must not crash, nothing to add to
  SUCCEED();
}

TEST_CASE("each phase has its metrics column", "[phase_times]") {
  CHECK(PhaseTimes::column(static_cast<int>(Phase::kEnvStep)) == "seconds_env_step");
  CHECK(PhaseTimes::column(static_cast<int>(Phase::kOptimizer)) == "seconds_optimizer");
  CHECK(PhaseTimes::column(kPhases - 1) == "seconds_optimizer");  // the list ends with the last phase
}
