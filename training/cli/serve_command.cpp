// `rocketgym serve`: the browser table (docs/browser.md). The page (web/) and
// a small JSON API over the tables of table_server.h, answered by
// serve_app.h over the HTTP server of http_server.h.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <thread>

#include "generated/source_tree.h"
#include "training/cli/commands.h"
#include "training/cli/http_server.h"
#include "training/cli/number_checks.h"
#include "training/cli/serve_app.h"
#include "training/cli/serve_limits.h"
#include "training/cli/table_server.h"

namespace rocketgym::cli {
namespace {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8023;
  std::string web_dir;
  int max_tables = serve::kDefaultMaxTables;
  int idle_minutes = serve::kDefaultIdleMinutes;
  std::vector<std::string> records;         // game records to watch (envs/core/game_record.h)
  std::vector<std::string> allowed_agents;  // --allow-agent
};

// The seats a client may choose: human, random and heuristic; the zoo bot of
// each game at the sizes it serves, within kMaxBotWorkPerMove; the agents of
// --allow-agent at the games and sizes they can play (each within the cap,
// else the server does not start).
serve::SeatKinds seat_kinds(const ServeOptions& opt, const ServeBots& bots) {
  serve::SeatKinds kinds = serve::SeatKinds::basic();
  if (!bots.work) {
    if (!opt.allowed_agents.empty())
      throw Error(
          "--allow-agent: this rocketgym was built without the training library (only random and "
          "heuristic bots)");
    return kinds;
  }
  std::vector<bool> seated(opt.allowed_agents.size(), false);
  std::vector<std::string> why(opt.allowed_agents.size());
  for (const std::string& id : Registry::instance().ids()) {
    const auto game = load_game(id);
    for (int n = game->info().min_players; n <= game->info().max_players; ++n) {
      try {
        const std::string zoo = bots.zoo(id);
        if (bots.work(zoo, *game, n) <= serve::kMaxBotWorkPerMove) kinds.add(id, n, zoo);
      } catch (const Error&) {
        // no zoo file for the game, or not for this size: not offered
      }
      for (std::size_t i = 0; i < opt.allowed_agents.size(); ++i) {
        const std::string& spec = opt.allowed_agents[i];
        long work = 0;
        try {
          work = bots.work(spec, *game, n);
        } catch (const Error& e) {
          if (why[i].empty()) why[i] = e.what();
          continue;
        }
        if (work > serve::kMaxBotWorkPerMove)
          throw Error("--allow-agent " + spec + ": " + std::to_string(work) +
                      " units of search work a move at " + id + " with " + std::to_string(n) +
                      " players, above serve's cap of " + std::to_string(serve::kMaxBotWorkPerMove) +
                      " (kMaxBotWorkPerMove: simulations times playouts per leaf)");
        kinds.add(id, n, spec);
        seated[i] = true;
      }
    }
  }
  for (std::size_t i = 0; i < seated.size(); ++i)
    if (!seated[i])
      throw Error("--allow-agent " + opt.allowed_agents[i] + ": it can sit at no table: " + why[i]);
  return kinds;
}

// The write end of StopOnSignal's pipe, for its signal handler (-1: none).
std::atomic<int> stop_pipe_write{-1};

// The handler does only what is safe in a signal handler: one write(2) of the
// signal's number into the pipe. Whichever thread the signal lands on, the
// watcher thread reads it and stops the server from outside the handler.
extern "C" void write_signal_to_stop_pipe(int signal) {
  const int saved_errno = errno;
  const auto byte = static_cast<unsigned char>(signal);
  const int fd = stop_pipe_write.load();
  if (fd >= 0) (void)!write(fd, &byte, 1);
  errno = saved_errno;
}

// SIGINT and SIGTERM stop the server: from construction on, the first of them
// wakes a watcher thread (blocked in poll without a timeout, so the idle server
// still uses no CPU), which puts both signals back to their default action (a
// second one ends the process at once) and calls `on_signal`. The destructor
// ends the watcher and restores the previous handlers.
class StopOnSignal {
 public:
  explicit StopOnSignal(std::function<void()> on_signal) {
    if (pipe2(pipe_, O_CLOEXEC) != 0)
      throw Error(std::string("serve: cannot create a pipe: ") + std::strerror(errno));
    stop_pipe_write = pipe_[1];
    struct sigaction action {};
    action.sa_handler = write_signal_to_stop_pipe;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;  // the other threads' system calls go on; the watcher stops them
    sigaction(SIGINT, &action, &previous_int_);
    sigaction(SIGTERM, &action, &previous_term_);
    watcher_ = std::thread([this, on_signal = std::move(on_signal)] {
      const int signal = wait_for_byte();
      if (signal == 0) return;  // woken by the destructor
      received_ = signal;
      restore_handlers();
      on_signal();
    });
  }
  ~StopOnSignal() {
    const unsigned char wake = 0;
    (void)!write(pipe_[1], &wake, 1);
    watcher_.join();
    restore_handlers();
    stop_pipe_write = -1;
    close(pipe_[0]);
    close(pipe_[1]);
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

  // SIGINT or SIGTERM once one came, else 0.
  int received() const { return received_; }

 private:
  int wait_for_byte() const {
    pollfd readable{pipe_[0], POLLIN, 0};
    unsigned char byte = 0;
    while (true) {
      if (poll(&readable, 1, -1) < 0 && errno != EINTR) return 0;
      const ssize_t n = read(pipe_[0], &byte, 1);
      if (n == 1) return byte;
      if (n < 0 && errno != EINTR && errno != EAGAIN) return 0;
    }
  }
  void restore_handlers() {
    sigaction(SIGINT, &previous_int_, nullptr);
    sigaction(SIGTERM, &previous_term_, nullptr);
  }

  int pipe_[2] = {-1, -1};
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
  std::atomic<int> received_{0};
  std::thread watcher_;
};

void serve(const ServeOptions& opt, const ServeBots& bots) {
  serve::TableLimits limits;
  limits.max_tables = opt.max_tables;
  limits.idle_expiry = std::chrono::minutes(opt.idle_minutes);
  serve::TableServer tables(bots.make, seat_kinds(opt, bots), limits);
  tables.set_analyst(bots.analyst);
  for (const std::string& path : opt.records) tables.add_records(load_records_to_show(path));
  std::string web = opt.web_dir;
  if (web.empty())
    web = std::getenv("ROCKETGYM_WEB_DIR") ? std::getenv("ROCKETGYM_WEB_DIR") : ROCKETGYM_SOURCE_DIR "/web";
  struct stat index {};
  if (stat((web + "/index.html").c_str(), &index) != 0 || !S_ISREG(index.st_mode))
    throw Error("--web " + web + ": not a directory with the page (web/index.html of the source tree)");
  std::unique_ptr<serve::ServeApp> app;
  serve::HttpServer server([&app](const serve::HttpRequest& request) { return app->handle(request); });
  const int port = server.bind(opt.host, opt.port);
  app = std::make_unique<serve::ServeApp>(tables, web, serve::served_authorities(opt.host, port));
  // SIGINT or SIGTERM stops the server: it takes no new connection, closes the
  // connections still sending their request, finishes the answers under way,
  // then serve returns (exit status 0). The tables live in memory only:
  // nothing is written, so there is nothing to leave half-done. Caught before
  // the address is printed, so that a script may signal as soon as it reads
  // it (a stop before run() starts makes run() return at once).
  StopOnSignal stop_on_signal([&server] { server.stop(); });
  // The address first, on its own line and flushed: scripts and tests read it.
  const std::string shown = opt.host.find(':') != std::string::npos ? "[" + opt.host + "]" : opt.host;
  std::cout << "rocketgym serve: open http://" << shown << ":" << port
            << "/ in a browser (Ctrl-C or SIGTERM stops)" << std::endl;
  server.run();
  if (stop_on_signal.received() != 0)
    std::cout << "rocketgym serve: stopped by "
              << (stop_on_signal.received() == SIGINT ? "SIGINT" : "SIGTERM")
              << " (open tables dropped: " << tables.num_tables() << ")" << std::endl;
}

}  // namespace

void add_serve_command(CLI::App& app, ServeBots bots) {
  auto opt = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand(
      "serve",
      "Play against the bots in a web browser: starts a local server, then open the address it prints "
      "(http://127.0.0.1:8023/ by default) in a browser. See docs/browser.md");
  cmd->add_option("--port", opt->port, "TCP port (0 = any free port; the address is printed)")
      ->check(whole_number(0, 65535, "a TCP port"));
  cmd->add_option("--host", opt->host,
                  "Address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to the "
                  "network); requests must name it (or, for 0.0.0.0, an address of this machine) in their "
                  "Host header. See docs/browser.md before opening it to a network");
  cmd->add_option("--web", opt->web_dir,
                  "Folder of the page (default: web/ of the source tree, or $ROCKETGYM_WEB_DIR)");
  cmd->add_option("--records", opt->records,
                  "Game records to watch, one JSON line per game (written by the arena's --records); "
                  "each game is replayed and checked at start");
  cmd->add_option("--allow-agent", opt->allowed_agents,
                  "An agent spec players may seat, besides human, random, heuristic and the zoo bots "
                  "(e.g. ismcts:200:heuristic:4 or checkpoint:PATH); repeatable. Offered at the games and "
                  "sizes it can play; its search work a move must be within kMaxBotWorkPerMove (" +
                      std::to_string(serve::kMaxBotWorkPerMove) + ")");
  cmd->add_option("--max-tables", opt->max_tables, "Tables open at once (more are refused)")
      ->check(whole_number(1, serve::kMaxTablesLimit, "a number of tables"));
  cmd->add_option("--idle-minutes", opt->idle_minutes, "A table nobody looked at for this long is closed")
      ->check(whole_number(1, serve::kMaxIdleMinutes, "minutes"));
  cmd->callback([opt, bots] { serve(*opt, bots); });
}

}  // namespace rocketgym::cli
