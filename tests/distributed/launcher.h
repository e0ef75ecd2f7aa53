// A test-only launcher: starts the ranks of a job as child processes on
// 127.0.0.1 with the variables torchrun sets (RANK, WORLD_SIZE, LOCAL_RANK,
// MASTER_ADDR, MASTER_PORT), each writing its output to its own log file,
// so that tests can watch, stop, kill or freeze one rank.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace rocketgym::testing {

struct Job {
  std::vector<pid_t> pids;        // by rank
  std::vector<std::string> logs;  // stdout and stderr of each rank
};

// A TCP port nobody listens on now (the kernel's pick).
int free_port();

// Starts `ranks` processes of `program args`; ranks == 0 starts one process
// without any of torchrun's variables (a plain one-process run). "{rank}" in
// an argument becomes the process's rank (e.g. a config file per rank).
Job launch(const std::string& program, const std::vector<std::string>& args, int ranks,
           const std::string& log_prefix);

// The exit status of `pid` (its code, or 128 + the signal that ended it),
// or -1 if it is still running after `seconds` (it is then left running).
int wait_for(pid_t pid, double seconds);
// Waits for every rank (up to `seconds` in all), kills the ones still
// running, and returns their statuses (-1: had to be killed).
std::vector<int> wait_all(const Job& job, double seconds);

std::string read_text(const std::string& path);

}  // namespace rocketgym::testing
