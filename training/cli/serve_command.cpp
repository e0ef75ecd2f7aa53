// `rocketgym serve`: the browser table (docs/browser.md). The page (web/) and
// a small JSON API over the tables of table_server.h, on cpp-httplib.
#include <cstdlib>
#include <iostream>
#include <limits>
#include <memory>

#include "training/cli/commands.h"
#include "training/cli/number_checks.h"
#include "training/cli/table_server.h"

#ifdef ROCKETGYM_WITH_SERVE
#include <httplib.h>
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
    web = std::getenv("ROCKETGYM_WEB_DIR") ? std::getenv("ROCKETGYM_WEB_DIR") : ROCKETGYM_WEB_DIR;
  if (!server.set_mount_point("/", web))
    throw Error("--web " + web + ": not a directory with the page (web/index.html of the source tree)");
  add_routes(server, tables);
  const int port = opt.port == 0 ? server.bind_to_any_port(opt.host) : opt.port;
  if (opt.port != 0 && !server.bind_to_port(opt.host, opt.port))
    throw Error("cannot listen on " + opt.host + ":" + std::to_string(opt.port) +
                " (in use, or not an address here)");
  if (port < 0) throw Error("cannot listen on " + opt.host + " (no free port)");
  // The address first, on its own line and flushed: scripts and tests read it.
  std::cout << "rocketgym serve: open http://" << opt.host << ":" << port << "/ in a browser (Ctrl-C stops)"
            << std::endl;
  server.listen_after_bind();
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
