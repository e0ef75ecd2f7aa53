// What `rocketgym serve` answers: see serve_app.h.
#include "training/cli/serve_app.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

namespace rocketgym::serve {

using nlohmann::json;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string numeric_host(const sockaddr* address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address->sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(address)->sin_addr, text, sizeof text);
    return text;
  }
  if (address->sa_family == AF_INET6) {
    const auto* six = reinterpret_cast<const sockaddr_in6*>(address);
    if (IN6_IS_ADDR_LINKLOCAL(&six->sin6_addr))
      return "";  // needs a zone id, which a Host header cannot carry
    inet_ntop(AF_INET6, &six->sin6_addr, text, sizeof text);
    return text;
  }
  return "";
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

HttpResponse json_response(const json& body) {
  HttpResponse r;
  r.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return r;
}

HttpResponse from_reply(TableReply reply) {
  HttpResponse r = json_response(reply.body);
  r.not_before = reply.release;
  return r;
}

// The path's parts between slashes ("/api/tables/x" -> api, tables, x).
std::vector<std::string> parts_of(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t at = 1;
  while (at <= path.size()) {
    const std::size_t slash = path.find('/', at);
    parts.push_back(path.substr(at, slash == std::string::npos ? std::string::npos : slash - at));
    if (slash == std::string::npos) break;
    at = slash + 1;
  }
  return parts;
}

bool is_table_id(const std::string& id) {
  return id.size() == 32 && std::all_of(id.begin(), id.end(), [](char c) {
           return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
         });
}

bool is_json_body(const HttpRequest& request) {
  const std::string* type = request.header("content-type");
  if (!type) return false;
  std::string media = lower(type->substr(0, type->find(';')));
  while (!media.empty() && (media.back() == ' ' || media.back() == '\t')) media.pop_back();
  return media == "application/json";
}

// The media type of a file of the page, by its extension; empty: not served.
std::string media_type(const std::string& name) {
  static const std::pair<const char*, const char*> kTypes[] = {{".html", "text/html; charset=utf-8"},
                                                               {".js", "text/javascript; charset=utf-8"},
                                                               {".css", "text/css; charset=utf-8"},
                                                               {".png", "image/png"},
                                                               {".svg", "image/svg+xml"},
                                                               {".ico", "image/x-icon"},
                                                               {".json", "application/json"}};
  for (const auto& [extension, type] : kTypes) {
    const std::string e = extension;
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) return type;
  }
  return "";
}

// A part of a page's path: letters, digits, '_', '-' and '.', not first.
bool is_page_part(const std::string& part) {
  return !part.empty() && part.front() != '.' && std::all_of(part.begin(), part.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

// The query parameters a request takes (a page's file: none): another is
// refused, not ignored, and so is one without a value (an empty `move=` is
// not move 0). Only the request's own names are ever put into the message.
void check_query(const HttpRequest& request, std::initializer_list<const char*> names) {
  std::string taken;
  for (const char* name : names) taken += std::string(taken.empty() ? "'" : ", '") + name + "'";
  if (taken.empty()) taken = "no query parameters";
  for (const auto& [name, value] : request.query) {
    const auto known = std::find_if(names.begin(), names.end(), [&](const char* n) { return name == n; });
    if (known == names.end())
      throw ApiError(400, "the query names a parameter this request does not take (it takes " + taken + ")");
    if (value.empty()) throw ApiError(400, std::string("query parameter '") + *known + "' has no value");
  }
}

}  // namespace

std::vector<std::string> served_authorities(const std::string& host_text, int port) {
  std::vector<std::string> hosts;
  auto add = [&hosts](std::string h) {
    if (h.empty()) return;
    h = lower(h);
    if (h.find(':') != std::string::npos && h.front() != '[') h = "[" + h + "]";
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  };
  const std::string host = lower(host_text);
  const bool any = host.empty() || host == "0.0.0.0" || host == "::" || host == "[::]";
  bool loopback = is_loopback(host);
  if (any) {
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) == 0) {
      for (ifaddrs* a = list; a; a = a->ifa_next)
        if (a->ifa_addr) add(numeric_host(a->ifa_addr));
      freeifaddrs(list);
    }
    loopback = true;
  } else {
    add(host);
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), nullptr, &hints, &found) == 0) {
      for (addrinfo* a = found; a; a = a->ai_next) {
        const std::string numeric = numeric_host(a->ai_addr);
        add(numeric);
        loopback = loopback || is_loopback(numeric);
      }
      freeaddrinfo(found);
    }
  }
  if (loopback)
    for (const char* name : {"localhost", "127.0.0.1", "::1"}) add(name);
  std::vector<std::string> out;
  for (const std::string& h : hosts) {
    out.push_back(h + ":" + std::to_string(port));
    if (port == 80) out.push_back(h);
  }
  return out;
}

ServeApp::ServeApp(TableServer& tables, std::string web_dir, std::vector<std::string> authorities, Now now)
    : tables_(tables),
      web_dir_(std::move(web_dir)),
      authorities_(std::move(authorities)),
      now_(std::move(now)) {}

HttpResponse ServeApp::handle(const HttpRequest& request) const {
  const Clock::time_point now = now_();
  const std::string* host = request.header("host");
  const auto ours = [this](const std::string& authority) {
    return std::find(authorities_.begin(), authorities_.end(), lower(authority)) != authorities_.end();
  };
  if (!host || !ours(*host))
    return error_response(421, "the Host header does not name this server: open http://" +
                                   authorities_.front() +
                                   "/ (a name that points here from elsewhere is refused)");
  // The other headers this app reads (the request reader refuses a second
  // Host or Content-Length): one given twice is refused, never read as its
  // first value (a right X-Seat-Key after a wrong one, or a wrong one after).
  static const std::pair<const char*, const char*> kReadOnce[] = {
      {"origin", "Origin"}, {"content-type", "Content-Type"}, {kSeatKeyHeader, "X-Seat-Key"}};
  for (const auto& [name, shown] : kReadOnce)
    if (request.header_count(name) > 1)
      return error_response(400, std::string("more than one ") + shown + " header");
  if (const std::string* origin = request.header("origin");
      origin && (lower(*origin).rfind("http://", 0) != 0 || !ours(origin->substr(7))))
    return error_response(403, "requests from another origin are refused");
  try {
    if (request.path == "/api" || request.path.rfind("/api/", 0) == 0) return api(request, now);
    if (request.method != "GET") return error_response(405, "a page is only read (GET)");
    check_query(request, {});  // the page's table and seat go after '#', never to the server
    return page(request);
  } catch (const ApiError& e) {
    return error_response(e.status, e.what());
  }
}

HttpResponse ServeApp::api(const HttpRequest& request, Clock::time_point now) const {
  const std::vector<std::string> parts = parts_of(request.path);  // "api", ...
  const std::size_t n = parts.size();
  const bool get = request.method == "GET";
  const std::string no_key;
  const std::string& key = request.header(kSeatKeyHeader) ? *request.header(kSeatKeyHeader) : no_key;
  auto param = [&request](const char* name) {
    const std::string* value = request.param(name);
    return value ? *value : std::string();
  };
  auto body = [&request] {
    if (!is_json_body(request))
      throw ApiError(415, "a request body must be JSON, sent with Content-Type: application/json");
    return parse_request(request.body);
  };
  auto only = [&request](const char* method) {
    if (request.method != method) throw ApiError(405, std::string("this API call takes ") + method + " only");
  };
  auto takes = [&request](std::initializer_list<const char*> names) { check_query(request, names); };
  if (n == 2 && parts[1] == "games") {
    only("GET");
    takes({});
    return json_response(tables_.games());
  }
  if (n == 2 && parts[1] == "records") {
    only("GET");
    takes({});
    return json_response(tables_.records());
  }
  if (n == 2 && parts[1] == "arena") {
    only("GET");
    takes({});
    return json_response(tables_.arena_tables());
  }
  if (n == 3 && parts[1] == "records") {
    only("GET");
    takes({"move", "seat"});
    return json_response(tables_.record(parts[2], param("move"), param("seat")));
  }
  if (n == 4 && parts[1] == "records" && parts[3] == "analysis") {
    only("GET");
    takes({"move", "seat"});
    return json_response(tables_.record_analysis(parts[2], param("move"), param("seat")));
  }
  if (n == 2 && parts[1] == "tables") {
    only("POST");
    takes({});
    return from_reply(tables_.create_table(body(), now));
  }
  if ((n == 3 || n == 4) && parts[1] == "tables") {
    if (!is_table_id(parts[2])) throw ApiError(404, "no table with that id");
    if (n == 3) {
      only("GET");
      takes({"seat"});
      return json_response(tables_.table(parts[2], param("seat"), key, now));
    }
    if (parts[3] == "analysis") {
      only("GET");
      takes({"seat"});
      return json_response(tables_.analysis(parts[2], param("seat"), key, now));
    }
    if (get) throw ApiError(405, "this API call takes POST only");
    takes({});
    if (parts[3] == "move") return from_reply(tables_.move(parts[2], body(), key, now));
    if (parts[3] == "step") return from_reply(tables_.step(parts[2], body(), key, now));
    if (parts[3] == "undo") return from_reply(tables_.undo(parts[2], body(), key, now));
  }
  throw ApiError(404, "no such API call (docs/browser.md lists them)");
}

HttpResponse ServeApp::page(const HttpRequest& request) const {
  const std::string path = request.path == "/" ? "/index.html" : request.path;
  const std::vector<std::string> parts = parts_of(path);
  const std::string type = media_type(path);
  if (type.empty() || !std::all_of(parts.begin(), parts.end(), is_page_part))
    return error_response(404, "no such page");
  std::string file = web_dir_;
  for (const std::string& part : parts) file += "/" + part;
  const int fd = open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return error_response(404, "no such page");
  struct stat info {};
  HttpResponse r;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) ||
      static_cast<std::size_t>(info.st_size) > kMaxPageFileBytes) {
    close(fd);
    return error_response(404, "no such page");
  }
  r.body.resize(static_cast<std::size_t>(info.st_size));
  std::size_t got = 0;
  while (got < r.body.size()) {
    const ssize_t k = read(fd, r.body.data() + got, r.body.size() - got);
    if (k <= 0) break;
    got += static_cast<std::size_t>(k);
  }
  close(fd);
  r.body.resize(got);
  r.content_type = type;
  return r;
}

}  // namespace rocketgym::serve
