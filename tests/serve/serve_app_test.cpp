// What `rocketgym serve` answers (training/cli/serve_app.h), without
// sockets: Host and Origin checked against the served address (DNS
// rebinding, other sites' pages), JSON bodies only, a seat's key carried by
// its header, the page's files and nothing else.
#include "training/cli/serve_app.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

using namespace rocketgym;
using nlohmann::json;
using serve::HttpRequest;
using serve::HttpResponse;

namespace {

// A folder with a page: index.html, app.js, and a file the server must not serve.
struct WebDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() / "rocketgym_serve_app_test_web";
  WebDir() {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path / "sub");
    std::ofstream(path / "index.html") << "<!doctype html><title>rocketgym</title>";
    std::ofstream(path / "app.js") << "\"use strict\";";
    std::ofstream(path / ".secret.js") << "secret";
    std::ofstream(path / "sub" / "x.css") << "body {}";
    std::ofstream(path / "notes.txt") << "text";
  }
  ~WebDir() { std::filesystem::remove_all(path); }
};

struct App {
  WebDir web;
  serve::TableServer tables{nullptr, serve::SeatKinds::basic(), serve::TableLimits{}};
  serve::ServeApp app{tables, web.path.string(), serve::served_authorities("127.0.0.1", 8023)};

  HttpResponse call(const std::string& method, const std::string& path, const std::string& body = "",
                    std::vector<std::pair<std::string, std::string>> headers = {}) {
    HttpRequest r;
    r.method = method;
    r.path = path.substr(0, path.find('?'));
    if (path.find('?') != std::string::npos) {
      std::string query = path.substr(path.find('?') + 1);
      for (std::size_t amp; !query.empty(); query = amp == std::string::npos ? "" : query.substr(amp + 1)) {
        amp = query.find('&');
        const std::string part = query.substr(0, amp);
        const std::size_t eq = part.find('=');
        r.query.emplace_back(part.substr(0, eq), eq == std::string::npos ? "" : part.substr(eq + 1));
      }
    }
    r.body = body;
    bool host = false, type = false;
    for (auto& [name, value] : headers) {
      host = host || name == "host";
      type = type || name == "content-type";
      r.headers.emplace_back(name, value);
    }
    if (!host) r.headers.emplace_back("host", "127.0.0.1:8023");
    if (!type && method == "POST") r.headers.emplace_back("content-type", "application/json");
    return app.handle(r);
  }
};

const std::string kNewTable =
    R"({"game": "launchpad23", "players": 2, "seats": ["human", "heuristic"], "seed": 3})";

}  // namespace

TEST_CASE("the served address: the host, its loopback names, every interface for 0.0.0.0", "[serve][app]") {
  const auto loopback = serve::served_authorities("127.0.0.1", 8023);
  for (const char* a : {"127.0.0.1:8023", "localhost:8023", "[::1]:8023"})
    REQUIRE(std::find(loopback.begin(), loopback.end(), a) != loopback.end());
  REQUIRE(std::find(loopback.begin(), loopback.end(), "127.0.0.1") == loopback.end());
  const auto any = serve::served_authorities("0.0.0.0", 80);
  for (const char* a : {"127.0.0.1:80", "127.0.0.1", "localhost"})
    REQUIRE(std::find(any.begin(), any.end(), a) != any.end());
  const auto named = serve::served_authorities("localhost", 9);
  REQUIRE(std::find(named.begin(), named.end(), "127.0.0.1:9") != named.end());
}

TEST_CASE("a Host that does not name this server is refused (DNS rebinding)", "[serve][app]") {
  App a;
  REQUIRE(a.call("GET", "/api/games").status == 200);
  REQUIRE(a.call("GET", "/api/games", "", {{"host", "LocalHost:8023"}}).status == 200);
  for (const char* host :
       {"evil.example:8023", "evil.example", "127.0.0.1", "127.0.0.1:8024", "127.0.0.1:8023.evil", ""}) {
    INFO(host);
    const HttpResponse r = a.call("GET", "/api/games", "", {{"host", host}});
    REQUIRE(r.status == 421);
    REQUIRE(r.body.find("evil") == std::string::npos);
  }
  HttpRequest no_host;
  no_host.method = "GET";
  no_host.path = "/";
  REQUIRE(a.app.handle(no_host).status == 421);
  REQUIRE(a.call("POST", "/api/tables", kNewTable, {{"host", "evil.example:8023"}}).status == 421);
  REQUIRE(a.tables.num_tables() == 0);
}

TEST_CASE("another origin cannot call the API, and a body must be JSON", "[serve][app]") {
  // A plain HTML form of another site made tables: any Content-Type was read as JSON.
  App a;
  for (const char* origin :
       {"http://evil.example", "null", "https://127.0.0.1:8023", "http://127.0.0.1:8024"}) {
    INFO(origin);
    REQUIRE(a.call("POST", "/api/tables", kNewTable, {{"origin", origin}}).status == 403);
    REQUIRE(a.call("GET", "/api/games", "", {{"origin", origin}}).status == 403);
  }
  for (const char* type : {"text/plain", "application/x-www-form-urlencoded",
                           "multipart/form-data; boundary=x", "application/jsonx", "text/json"}) {
    INFO(type);
    const HttpResponse r = a.call("POST", "/api/tables", kNewTable, {{"content-type", type}});
    REQUIRE(r.status == 415);
  }
  REQUIRE(a.tables.num_tables() == 0);
  REQUIRE(a.call("POST", "/api/tables", kNewTable, {{"origin", "http://localhost:8023"}}).status == 200);
  REQUIRE(a.call("POST", "/api/tables", kNewTable, {{"content-type", "Application/JSON; charset=utf-8"}})
              .status == 200);
  REQUIRE(a.tables.num_tables() == 2);
}

TEST_CASE("a seat's key travels in its header", "[serve][app]") {
  App a;
  const HttpResponse created = a.call("POST", "/api/tables", kNewTable);
  REQUIRE(created.status == 200);
  const json table = json::parse(created.body);
  const std::string id = table.at("table"), key = table.at("keys").at("0");
  REQUIRE(a.call("GET", "/api/tables/" + id + "?seat=0").status == 403);
  REQUIRE(a.call("GET", "/api/tables/" + id + "?seat=0", "", {{"x-seat-key", key}}).status == 200);
  const json move = {
      {"seat", 0}, {"action", table.at("legal").at(0).at("id")}, {"version", table.at("version")}};
  REQUIRE(a.call("POST", "/api/tables/" + id + "/move", move.dump()).status == 403);
  REQUIRE(a.call("POST", "/api/tables/" + id + "/move", move.dump(), {{"x-seat-key", key}}).status == 200);
  REQUIRE(
      a.call("GET", "/api/tables/" + std::string(32, 'a') + "?seat=0", "", {{"x-seat-key", key}}).status ==
      404);
  REQUIRE(a.call("GET", "/api/tables/" + id + "x", "", {{"x-seat-key", key}}).status == 404);
  REQUIRE(a.call("GET", "/api/tables/" + id + "/move", "", {{"x-seat-key", key}}).status == 405);
  REQUIRE(a.call("GET", "/api/tables").status == 405);
  REQUIRE(a.call("POST", "/api/nothing", "{}").status == 404);
}

TEST_CASE("a header the server reads, given twice, is refused, not read as its first value", "[serve][app]") {
  // A right X-Seat-Key then a wrong one was answered 200, a wrong one then the right one 403.
  App a;
  const json table = json::parse(a.call("POST", "/api/tables", kNewTable).body);
  const std::string id = table.at("table"), key = table.at("keys").at("0");
  const std::string view = "/api/tables/" + id + "?seat=0";
  for (const auto& keys : {std::vector<std::string>{key, "wrong"}, std::vector<std::string>{"wrong", key},
                           std::vector<std::string>{key, key}}) {
    const HttpResponse r = a.call("GET", view, "", {{"x-seat-key", keys[0]}, {"x-seat-key", keys[1]}});
    REQUIRE(r.status == 400);
    REQUIRE_THAT(r.body, Catch::Contains("more than one X-Seat-Key header"));
    REQUIRE(r.body.find(key) == std::string::npos);
  }
  const HttpResponse origins = a.call(
      "GET", view, "", {{"x-seat-key", key}, {"origin", "http://127.0.0.1:8023"}, {"origin", "http://evil"}});
  REQUIRE(origins.status == 400);
  REQUIRE_THAT(origins.body, Catch::Contains("more than one Origin header"));
  const HttpResponse types = a.call("POST", "/api/tables", kNewTable,
                                    {{"content-type", "application/json"}, {"content-type", "text/plain"}});
  REQUIRE(types.status == 400);
  REQUIRE_THAT(types.body, Catch::Contains("more than one Content-Type header"));
  REQUIRE(a.call("GET", view, "", {{"x-seat-key", key}}).status == 200);
}

TEST_CASE("a query parameter the call does not take, or one without a value, is refused", "[serve][app]") {
  // `/api/tables/ID?MARKERXYZ=1` was answered as if the parameter were not there,
  // and `/api/records/0?move=` was read as move 0.
  App a;
  const json table = json::parse(a.call("POST", "/api/tables", kNewTable).body);
  const std::string id = table.at("table"), key = table.at("keys").at("0");
  const std::vector<std::pair<std::string, std::string>> with_key = {{"x-seat-key", key}};
  REQUIRE(a.call("GET", "/api/tables/" + id + "?seat=0", "", with_key).status == 200);
  const HttpResponse unknown = a.call("GET", "/api/tables/" + id + "?seat=0&MARKERXYZ=1", "", with_key);
  REQUIRE(unknown.status == 400);
  REQUIRE(unknown.body.find("MARKERXYZ") == std::string::npos);
  REQUIRE_THAT(unknown.body, Catch::Contains("does not take (it takes 'seat')"));
  REQUIRE(a.call("GET", "/api/tables/" + id + "/analysis?seat=0&move=1", "", with_key).status == 400);
  for (const char* path : {"/api/games?x=1", "/api/records?x", "/api/arena?x=1"}) {
    INFO(path);
    const HttpResponse r = a.call("GET", path);
    REQUIRE(r.status == 400);
    REQUIRE_THAT(r.body, Catch::Contains("(it takes no query parameters)"));
  }
  const json move = {
      {"seat", 0}, {"action", table.at("legal").at(0).at("id")}, {"version", table.at("version")}};
  REQUIRE(a.call("POST", "/api/tables?seed=1", kNewTable).status == 400);
  REQUIRE(a.call("POST", "/api/tables/" + id + "/move?x=1", move.dump(), with_key).status == 400);
  REQUIRE(a.tables.num_tables() == 1);
  // An empty value is no value: refused, naming the parameter (a name the call takes).
  for (const char* path : {"/api/records/0?move=", "/api/records/0?move",
                           "/api/records/0?move=1&seat=", "/api/records/0/analysis?move="}) {
    INFO(path);
    const HttpResponse r = a.call("GET", path);
    REQUIRE(r.status == 400);
    REQUIRE_THAT(r.body, Catch::Contains("has no value"));
  }
  REQUIRE(a.call("GET", "/api/tables/" + id + "?seat=", "", with_key).status == 400);
  // Without the parameter: the call's default (here no records were loaded: 404).
  REQUIRE(a.call("GET", "/api/records/0").status == 404);
  REQUIRE(a.call("GET", "/api/records/0?move=1&seat=full").status == 404);
}

TEST_CASE("the page's files are served with their types, nothing else", "[serve][app]") {
  App a;
  const HttpResponse index = a.call("GET", "/");
  REQUIRE(index.status == 200);
  REQUIRE(index.content_type == "text/html; charset=utf-8");
  REQUIRE_THAT(index.body, Catch::Contains("rocketgym"));
  REQUIRE(a.call("GET", "/app.js").content_type == "text/javascript; charset=utf-8");
  REQUIRE(a.call("GET", "/sub/x.css").content_type == "text/css; charset=utf-8");
  for (const char* path : {"/.secret.js", "/notes.txt", "/../index.html", "/sub/../app.js", "/sub",
                           "/nothing.js", "/app.js/", "//app.js", "/app.js\x01"}) {
    INFO(path);
    const HttpResponse r = a.call("GET", path);
    REQUIRE(r.status == 404);
    REQUIRE(r.content_type == "application/json");
  }
  REQUIRE(a.call("POST", "/index.html", "{}").status == 405);
  // A page takes no query (its table and seat go after '#'): `/?game=` and `/?seat=` were served the
  // page as if they were not there. The message never quotes the request's names.
  for (const char* path : {"/?game=", "/?seat=", "/index.html?seat=0", "/app.js?MARKERXYZ=1"}) {
    INFO(path);
    const HttpResponse r = a.call("GET", path);
    REQUIRE(r.status == 400);
    REQUIRE_THAT(r.body, Catch::Contains("does not take (it takes no query parameters)"));
    REQUIRE(r.body.find("MARKERXYZ") == std::string::npos);
  }
}
