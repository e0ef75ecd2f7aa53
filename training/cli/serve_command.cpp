// `rocketgym serve`: the browser table (docs/browser.md). The page (web/) and
// a small JSON API over the tables of table_server.h, on cpp-httplib.
#include <atomic>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <thread>

#include "generated/source_tree.h"
#include "training/cli/commands.h"
#include "training/cli/number_checks.h"
#include "training/cli/table_server.h"

#ifdef ROCKETGYM_WITH_SERVE
#include <fcntl.h>
#include <httplib.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#endif

namespace rocketgym::cli {
namespace {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8023;
  std::string web_dir;
  int max_tables = 64;
  int idle_minutes = 30;
  std::vector<std::string> records;  // game records to watch (envs/core/game_record.h)
};

constexpr std::size_t kMaxBody = 64 * 1024;  // a request is a few hundred bytes

#ifdef ROCKETGYM_WITH_SERVE

void send_json(httplib::Response& res, const nlohmann::json& body, int status = 200) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, {{"error", message}, {"status", status}}, status);
}

// Runs one API call; every refusal becomes {"error": ...} with its status.
template <class Call>
void answer(httplib::Response& res, Call call) {
  try {
    send_json(res, call());
  } catch (const serve::ApiError& e) {
    send_error(res, e.status, e.what());
  } catch (const std::exception& e) {
    send_error(res, 500, std::string("internal error: ") + e.what());
  }
}

void add_routes(httplib::Server& server, serve::TableServer& tables) {
  using httplib::Request;
  using httplib::Response;
  auto now = [] { return serve::Clock::now(); };
  server.Get("/api/games",
             [&](const Request&, Response& res) { answer(res, [&] { return tables.games(); }); });
  server.Post("/api/tables", [&, now](const Request& req, Response& res) {
    answer(res, [&] { return tables.create_table(serve::parse_request(req.body), now()); });
  });
  server.Get(R"(/api/tables/([0-9a-f]+))", [&, now](const Request& req, Response& res) {
    answer(res, [&] {
      return tables.table(req.matches[1], req.has_param("seat") ? req.get_param_value("seat") : "", now());
    });
  });
  server.Post(R"(/api/tables/([0-9a-f]+)/move)", [&, now](const Request& req, Response& res) {
    answer(res, [&] { return tables.move(req.matches[1], serve::parse_request(req.body), now()); });
  });
  server.Post(R"(/api/tables/([0-9a-f]+)/step)", [&, now](const Request& req, Response& res) {
    answer(res, [&] { return tables.step(req.matches[1], serve::parse_request(req.body), now()); });
  });
  server.Post(R"(/api/tables/([0-9a-f]+)/undo)", [&, now](const Request& req, Response& res) {
    answer(res, [&] { return tables.undo(req.matches[1], serve::parse_request(req.body), now()); });
  });
  server.Get("/api/records",
             [&](const Request&, Response& res) { answer(res, [&] { return tables.records(); }); });
  server.Get("/api/arena",
             [&](const Request&, Response& res) { answer(res, [&] { return tables.arena_tables(); }); });
  server.Get(R"(/api/records/([0-9]+))", [&](const Request& req, Response& res) {
    answer(res, [&] {
      return tables.record(req.matches[1], req.has_param("move") ? req.get_param_value("move") : "",
                           req.has_param("seat") ? req.get_param_value("seat") : "");
    });
  });
  // Anything else under /api, a body over the limit, an unknown page: a JSON error.
  server.set_error_handler([](const Request& req, Response& res) {
    if (!res.body.empty()) return;  // an API answer already
    if (res.status == 413)
      send_error(res, 413, "request body too large (at most " + std::to_string(kMaxBody) + " bytes)");
    else if (res.status == 404)
      send_error(res, 404, "no such page or API call: " + req.method + " " + req.path);
    else
      send_error(res, res.status, "request refused (HTTP " + std::to_string(res.status) + ")");
  });
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

void serve(const ServeOptions& opt, const SeatBotFactory& make_bot) {
  serve::TableLimits limits;
  limits.max_tables = opt.max_tables;
  limits.idle_expiry = std::chrono::minutes(opt.idle_minutes);
  serve::TableServer tables(make_bot, limits);
  for (const std::string& path : opt.records) tables.add_records(load_records(path));
  httplib::Server server;
  server.set_payload_max_length(kMaxBody);
  // cpp-httplib's worker polls a connection's socket until its request comes
  // or the keep-alive timeout passes. So one request per connection (no
  // worker polling a kept-alive connection after its answer), and a connection
  // opened without a request (a browser's preconnect) is dropped after 1 s:
  // then every thread blocks (tests/browser/test_serve_api.py checks it).
  server.set_keep_alive_max_count(1);
  server.set_keep_alive_timeout(1);
  std::string web = opt.web_dir;
  if (web.empty())
    web = std::getenv("ROCKETGYM_WEB_DIR") ? std::getenv("ROCKETGYM_WEB_DIR") : ROCKETGYM_SOURCE_DIR "/web";
  if (!server.set_mount_point("/", web))
    throw Error("--web " + web + ": not a directory with the page (web/index.html of the source tree)");
  add_routes(server, tables);
  const int port = opt.port == 0 ? server.bind_to_any_port(opt.host) : opt.port;
  if (opt.port != 0 && !server.bind_to_port(opt.host, opt.port))
    throw Error("cannot listen on " + opt.host + ":" + std::to_string(opt.port) +
                " (in use, or not an address here)");
  if (port < 0) throw Error("cannot listen on " + opt.host + " (no free port)");
  // SIGINT or SIGTERM stops the server: it takes no new connection, answers the
  // requests it is serving, closes the connections that sent none yet, then
  // serve returns (exit status 0). The tables live in memory only: nothing is
  // written, so there is nothing to leave half-done. Caught before the address
  // is printed, so that a script may signal as soon as it reads it; stop()
  // takes effect only once listen_after_bind runs, so the watcher waits for that.
  std::atomic<bool> listen_returned{false};
  StopOnSignal stop_on_signal([&] {
    while (!server.is_running() && !listen_returned) std::this_thread::yield();
    server.stop();
  });
  // The address first, on its own line and flushed: scripts and tests read it.
  std::cout << "rocketgym serve: open http://" << opt.host << ":" << port
            << "/ in a browser (Ctrl-C or SIGTERM stops)" << std::endl;
  const bool listened = server.listen_after_bind();
  listen_returned = true;
  if (stop_on_signal.received() != 0) {
    std::cout << "rocketgym serve: stopped by "
              << (stop_on_signal.received() == SIGINT ? "SIGINT" : "SIGTERM")
              << " (open tables dropped: " << tables.num_tables() << ")" << std::endl;
    return;
  }
  if (!listened)
    throw Error("serve: the server stopped listening on " + opt.host + ":" + std::to_string(port));
}

#endif  // ROCKETGYM_WITH_SERVE

}  // namespace

void add_serve_command(CLI::App& app, SeatBotFactory make_bot) {
  auto opt = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand(
      "serve",
      "Play against the bots in a web browser: starts a local server, then open the address it prints "
      "(http://127.0.0.1:8023/ by default) in a browser. See docs/browser.md");
  cmd->add_option("--port", opt->port, "TCP port (0 = any free port; the address is printed)")
      ->check(whole_number(0, 65535, "a TCP port"));
  cmd->add_option(
      "--host", opt->host,
      "Address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to the network)");
  cmd->add_option("--web", opt->web_dir,
                  "Folder of the page (default: web/ of the source tree, or $ROCKETGYM_WEB_DIR)");
  cmd->add_option("--records", opt->records,
                  "Game records to watch, one JSON line per game (written by the arena's --records); "
                  "each game is replayed and checked at start");
  cmd->add_option("--max-tables", opt->max_tables, "Tables open at once (more are refused)")
      ->check(whole_number(1, 100000, "a number of tables"));
  cmd->add_option("--idle-minutes", opt->idle_minutes, "A table nobody looked at for this long is closed")
      ->check(whole_number(1, 7 * 24 * 60, "minutes"));
  cmd->callback([opt, make_bot] {
#ifdef ROCKETGYM_WITH_SERVE
    serve(*opt, make_bot);
#else
    (void)make_bot;
    throw Error(
        "this rocketgym was built without cpp-httplib: install libcpp-httplib-dev (scripts/setup.sh), "
        "then configure and build again");
#endif
  });
}

}  // namespace rocketgym::cli
