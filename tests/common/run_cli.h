// The rocketgym command line run from a test, as a user runs it: its path, and
// one run's exit status and output (stdout and stderr together).
#pragma once

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace rocketgym::testing {

struct CliResult {
  int status = -1;  // exit status (124 when `timeout` killed it); -1 when a signal ended it
  std::string output;
};

// $ROCKETGYM_CLI, else the binary this build made (ROCKETGYM_CLI_PATH), else "".
inline std::string cli_binary() {
  if (const char* path = std::getenv("ROCKETGYM_CLI")) return path;
#ifdef ROCKETGYM_CLI_PATH
  return ROCKETGYM_CLI_PATH;
#else
  return "";
#endif
}

// Runs `command` with /bin/sh and returns what it printed and its status.
inline CliResult run_shell(const std::string& command) {
  CliResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0;) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace rocketgym::testing
