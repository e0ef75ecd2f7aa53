// What `rocketgym serve` answers (docs/browser.md), without sockets: every
// request, once the HTTP server (http_server.h) has read all of it, goes
// through ServeApp::handle, which checks where it comes from, then answers
// it from the tables (table_server.h) or the page's files (web/).
//
// Checks, before anything else:
//  - Host must name this server (served_authorities): a page of another site
//    whose name was made to point at this machine (DNS rebinding) is refused;
//  - Origin, when the browser sends one, must be this server's: another
//    site's page cannot call the API;
//  - a POST's body must be JSON, sent as Content-Type: application/json (a
//    form of another site cannot send that without asking first, which this
//    server never allows).
#pragma once

#include <string>
#include <vector>

#include "training/cli/http_server.h"
#include "training/cli/table_server.h"

namespace rocketgym::serve {

// The header that carries a human seat's key.
inline constexpr const char* kSeatKeyHeader = "x-seat-key";

// The Host header values (lower case) that name a server listening on
// host:port: host itself and what it resolves to; for a loopback address
// also localhost, 127.0.0.1 and [::1]; for 0.0.0.0 or :: every address of
// this machine's interfaces (and the loopback names). Each with ":port", and
// without it too when the port is 80.
std::vector<std::string> served_authorities(const std::string& host, int port);

class ServeApp {
 public:
  using Now = std::function<Clock::time_point()>;
  ServeApp(TableServer& tables, std::string web_dir, std::vector<std::string> authorities,
           Now now = Clock::now);
  HttpResponse handle(const HttpRequest& request) const;

 private:
  HttpResponse api(const HttpRequest& request, Clock::time_point now) const;
  HttpResponse page(const HttpRequest& request) const;

  TableServer& tables_;
  std::string web_dir_;
  std::vector<std::string> authorities_;
  Now now_;
};

}  // namespace rocketgym::serve
