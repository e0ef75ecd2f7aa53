#include "tests/distributed/launcher.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

namespace rocketgym::testing {

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("free_port: no socket");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(fd);
    throw std::runtime_error("free_port: bind failed");
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

namespace {

bool is_launch_variable(const std::string& entry) {
  for (const char* name : {"RANK=", "WORLD_SIZE=", "LOCAL_RANK=", "MASTER_ADDR=", "MASTER_PORT=",
                           "TORCHELASTIC_USE_AGENT_STORE=", "TORCHELASTIC_RESTART_COUNT="})
    if (entry.rfind(name, 0) == 0) return true;
  return false;
}

}  // namespace

Job launch(const std::string& program, const std::vector<std::string>& args, int ranks,
           const std::string& log_prefix) {
  Job job;
  const int port = ranks > 0 ? free_port() : 0;
  const int processes = ranks > 0 ? ranks : 1;
  for (int rank = 0; rank < processes; ++rank) {
    const std::string log = log_prefix + ".rank" + std::to_string(rank) + ".log";
    job.logs.push_back(log);
    // Everything the child needs is built here: between fork and exec a
    // child of a threaded process may only make system calls.
    std::vector<std::string> environment;
    for (char** e = environ; *e; ++e)
      if (!is_launch_variable(*e)) environment.emplace_back(*e);
    if (ranks > 0) {
      environment.push_back("RANK=" + std::to_string(rank));
      environment.push_back("LOCAL_RANK=" + std::to_string(rank));
      environment.push_back("WORLD_SIZE=" + std::to_string(ranks));
      environment.push_back("MASTER_ADDR=127.0.0.1");
      environment.push_back("MASTER_PORT=" + std::to_string(port));
    }
    std::vector<char*> envp, argv{const_cast<char*>(program.c_str())};
    for (auto& e : environment) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> own_args;
    for (std::string a : args) {
      for (std::size_t at = a.find("{rank}"); at != std::string::npos; at = a.find("{rank}"))
        a.replace(at, 6, std::to_string(rank));
      own_args.push_back(std::move(a));
    }
    for (auto& a : own_args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("launch: fork failed");
    if (pid == 0) {
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
        ::close(fd);
      }
      ::execve(program.c_str(), argv.data(), envp.data());
      ::_exit(127);
    }
    job.pids.push_back(pid);
  }
  return job;
}

int wait_for(pid_t pid, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (done < 0) return -2;  // not our child (already reaped)
    if (std::chrono::steady_clock::now() >= deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

std::vector<int> wait_all(const Job& job, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::vector<int> statuses;
  for (pid_t pid : job.pids) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    int status = wait_for(pid, std::max(left, 0.0));
    if (status == -1) {
      ::kill(pid, SIGKILL);
      wait_for(pid, 10.0);
    }
    statuses.push_back(status);
  }
  return statuses;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace rocketgym::testing
