// The HTTP server of `rocketgym serve`: see http_server.h.
#include "training/cli/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "envs/core/errors.h"

namespace rocketgym::serve {

namespace {

bool is_token_char(unsigned char c) {
  return std::isalnum(c) || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

bool is_token(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_token_char(static_cast<unsigned char>(c)); });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decodes a path or a query part ('+' is a space in a query). False
// for a bad escape, a control character (%00 included), a backslash or
// invalid UTF-8: such a request is refused, never cut or guessed at.
bool decode_part(std::string_view in, bool query, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex_digit(in[i + 1]), lo = hex_digit(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (query && c == '+') {
      c = ' ';
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F || c == '\\') return false;
    out.push_back(c);
  }
  return is_valid_utf8(out);
}

const char* reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 411:
      return "Length Required";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 421:
      return "Misdirected Request";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Status";
  }
}

// What may load this page's resources: this origin only, nothing inline, no
// frame around it.
constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'";

}  // namespace

const std::string* HttpRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (key == name) return &value;
  return nullptr;
}

const std::string* HttpRequest::param(std::string_view name) const {
  for (const auto& [key, value] : query)
    if (key == name) return &value;
  return nullptr;
}

HttpResponse error_response(int status, const std::string& message) {
  HttpResponse r;
  r.status = status;
  r.body = nlohmann::json{{"error", message}, {"status", status}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  return r;
}

std::string serialize_response(const HttpResponse& response) {
  std::string out = "HTTP/1.1 " + std::to_string(response.status) + " " + reason(response.status) + "\r\n";
  out += "Content-Type: " + response.content_type + "\r\n";
  out += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  out += "Connection: close\r\n";
  out += "X-Content-Type-Options: nosniff\r\n";
  out += std::string("Content-Security-Policy: ") + kContentSecurityPolicy + "\r\n";
  out += "X-Frame-Options: DENY\r\n";
  out += "Referrer-Policy: no-referrer\r\n";
  out += "Cross-Origin-Resource-Policy: same-origin\r\n";
  out += "Cache-Control: no-store\r\n";
  for (const auto& [name, value] : response.headers) out += name + ": " + value + "\r\n";
  out += "\r\n";
  out += response.body;
  return out;
}

bool is_valid_utf8(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int extra = 0;
    uint32_t code = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
      code = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      code = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      code = c & 0x07;
    } else {
      return false;  // a continuation byte first, an overlong 2-byte lead, or beyond U+10FFFF
    }
    if (i + static_cast<std::size_t>(extra) >= n) return false;
    for (int k = 1; k <= extra; ++k) {
      const auto d = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      if ((d & 0xC0) != 0x80) return false;
      code = (code << 6) | (d & 0x3F);
    }
    if ((extra == 2 && code < 0x800) || (extra == 3 && (code < 0x10000 || code > 0x10FFFF)) ||
        (code >= 0xD800 && code <= 0xDFFF))
      return false;
    i += static_cast<std::size_t>(extra) + 1;
  }
  return true;
}

// --- RequestReader -----------------------------------------------------------

RequestReader::State RequestReader::fail(int status, std::string message) {
  state_ = State::kFailed;
  error_status_ = status;
  error_message_ = std::move(message);
  buffer_.clear();
  request_.body.clear();
  return state_;
}

RequestReader::State RequestReader::feed(const char* data, std::size_t size) {
  if (state_ != State::kReading) return state_;
  received_ += size;
  const std::size_t searched = buffer_.size();
  buffer_.append(data, size);
  if (!head_done_) {
    // Empty lines before the request line are skipped (RFC 9112, 2.2).
    std::size_t start = 0;
    while (buffer_.compare(start, 2, "\r\n") == 0) start += 2;
    if (start > 0) buffer_.erase(0, start);
    const std::size_t from = searched >= start + 3 ? searched - start - 3 : 0;
    const std::size_t end = buffer_.find("\r\n\r\n", from);
    if (end == std::string::npos) {
      if (buffer_.size() > kMaxRequestHeadBytes)
        return fail(431,
                    "the request line and headers exceed " + std::to_string(kMaxRequestHeadBytes) + " bytes");
      return state_;
    }
    if (end + 4 > kMaxRequestHeadBytes)
      return fail(431,
                  "the request line and headers exceed " + std::to_string(kMaxRequestHeadBytes) + " bytes");
    const std::string head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    head_done_ = true;
    if (parse_head(head) != State::kReading) return state_;
    if (!chunked_) {
      if (content_length_ == 0) {
        state_ = State::kDone;
        return state_;
      }
    }
  }
  if (chunked_) return parse_chunks();
  const std::size_t take = std::min(buffer_.size(), content_length_ - request_.body.size());
  request_.body.append(buffer_, 0, take);
  buffer_.clear();  // bytes after the request: a connection serves one request
  if (request_.body.size() == content_length_) state_ = State::kDone;
  return state_;
}

RequestReader::State RequestReader::parse_head(std::string_view head) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0;;) {
    const std::size_t end = head.find("\r\n", at);
    lines.push_back(head.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) break;
    at = end + 2;
  }
  for (std::string_view line : lines)
    if (line.find_first_of("\r\n") != std::string_view::npos || line.find('\0') != std::string_view::npos)
      return fail(400, "a line of the request ends without CR LF or holds a NUL byte");
  // The request line: METHOD SP TARGET SP HTTP/1.x
  const std::string_view first = lines.front();
  const std::size_t sp1 = first.find(' ');
  const std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : first.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || first.find(' ', sp2 + 1) != std::string_view::npos)
    return fail(400, "the request line is not METHOD TARGET HTTP/1.1");
  const std::string_view method = first.substr(0, sp1);
  const std::string_view target = first.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = first.substr(sp2 + 1);
  if (version != "HTTP/1.1" && version != "HTTP/1.0")
    return fail(505, "only HTTP/1.1 and HTTP/1.0 are served");
  if (!is_token(method)) return fail(400, "the request method is not a token");
  if (method != "GET" && method != "POST") return fail(405, "only GET and POST are served");
  request_.method = std::string(method);
  if (target.empty() || target.front() != '/')
    return fail(400, "the request target must be a path starting with /");
  for (char c : target)
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7F)
      return fail(400, "the request target holds a byte that must be percent-encoded");
  const std::size_t question = target.find('?');
  if (!decode_part(target.substr(0, question), false, request_.path))
    return fail(400,
                "the path holds a bad percent escape, a control character (such as %00), a backslash or "
                "invalid UTF-8");
  if (question != std::string_view::npos) {
    std::string_view query = target.substr(question + 1);
    while (!query.empty()) {
      const std::size_t amp = query.find('&');
      const std::string_view part = query.substr(0, amp);
      const std::size_t eq = part.find('=');
      std::string key, value;
      if (!decode_part(part.substr(0, eq), true, key) ||
          (eq != std::string_view::npos && !decode_part(part.substr(eq + 1), true, value)))
        return fail(400,
                    "the query holds a bad percent escape, a control character (such as %00), a backslash "
                    "or invalid UTF-8");
      // A parameter named twice is refused, not read as one of its values (`seat=1&seat=0`).
      for (const auto& [seen, ignored] : request_.query)
        if (!part.empty() && seen == key) return fail(400, "the query names a parameter twice");
      if (!part.empty()) request_.query.emplace_back(std::move(key), std::move(value));
      if (amp == std::string_view::npos) break;
      query.remove_prefix(amp + 1);
    }
  }
  // The headers.
  int hosts = 0, lengths = 0, encodings = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
      return fail(400, "a header is folded over two lines");
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || !is_token(line.substr(0, colon)))
      return fail(400, "a header line is not NAME: VALUE");
    const std::string_view value = trim(line.substr(colon + 1));
    for (char c : value)
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F)
        return fail(400, "a header value holds a control character");
    std::string name = lower(line.substr(0, colon));
    if (name == "host") ++hosts;
    if (name == "content-length") ++lengths;
    if (name == "transfer-encoding") ++encodings;
    request_.headers.emplace_back(std::move(name), std::string(value));
  }
  if (hosts > 1) return fail(400, "more than one Host header");
  if (lengths > 1) return fail(400, "more than one Content-Length header");
  if (encodings > 1) return fail(501, "more than one Transfer-Encoding header");
  if (encodings == 1) {
    if (lengths > 0) return fail(400, "both Content-Length and Transfer-Encoding");
    if (lower(*request_.header("transfer-encoding")) != "chunked")
      return fail(501, "the only transfer encoding served is chunked");
    chunked_ = true;
  } else if (lengths == 1) {
    const std::string& text = *request_.header("content-length");
    if (text.empty() || text.size() > 18 || !std::all_of(text.begin(), text.end(), ::isdigit))
      return fail(400, "Content-Length is not a number of bytes");
    content_length_ = static_cast<std::size_t>(std::stoull(text));
    if (content_length_ > kMaxBodyBytes)
      return fail(413, "the request body exceeds " + std::to_string(kMaxBodyBytes) + " bytes");
  }
  return state_;
}

RequestReader::State RequestReader::parse_chunks() {
  auto too_large = [this] {
    return fail(413, "the request body exceeds " + std::to_string(kMaxBodyBytes) +
                         " bytes (chunk sizes and line ends included)");
  };
  std::size_t at = 0;
  while (state_ == State::kReading) {
    if (chunk_ == Chunk::kData) {
      const std::size_t take = std::min(chunk_left_, buffer_.size() - at);
      if (take == 0) break;
      request_.body.append(buffer_, at, take);
      at += take;
      chunk_left_ -= take;
      if (chunk_left_ == 0) chunk_ = Chunk::kDataEnd;
      continue;
    }
    if (chunk_ == Chunk::kDataEnd) {
      if (buffer_.size() - at < 2) break;
      if (buffer_.compare(at, 2, "\r\n") != 0) return fail(400, "a chunk does not end with CR LF");
      at += 2;
      chunk_ = Chunk::kSize;
      continue;
    }
    const std::size_t end = buffer_.find("\r\n", at);
    if (end == std::string::npos) break;
    const std::string_view line(buffer_.data() + at, end - at);
    at = end + 2;
    if (chunk_ == Chunk::kTrailer) {
      if (line.empty()) state_ = State::kDone;
      continue;  // trailer fields are read and dropped
    }
    // A chunk size: hex digits, then maybe ";extension".
    std::size_t size = 0, digits = 0;
    while (digits < line.size() && hex_digit(line[digits]) >= 0) {
      size = size * 16 + static_cast<std::size_t>(hex_digit(line[digits]));
      if (++digits > 8) return too_large();
    }
    if (digits == 0 ||
        (digits < line.size() && line[digits] != ';' && line[digits] != ' ' && line[digits] != '\t'))
      return fail(400, "a chunk size is not a hexadecimal number");
    if (size > kMaxBodyBytes) return too_large();
    if (size == 0) {
      chunk_ = Chunk::kTrailer;
    } else {
      chunk_ = Chunk::kData;
      chunk_left_ = size;
    }
  }
  body_wire_bytes_ += at;
  buffer_.erase(0, at);
  if (body_wire_bytes_ > kMaxBodyBytes) return too_large();
  if (state_ == State::kDone) {
    buffer_.clear();  // bytes after the request: a connection serves one request
    return state_;
  }
  if (body_wire_bytes_ + buffer_.size() > kMaxBodyBytes) return too_large();
  return state_;
}

// --- HttpServer ----------------------------------------------------------------

HttpServer::HttpServer(Handler handler, Now now) : handler_(std::move(handler)), now_(std::move(now)) {
  if (pipe2(wake_pipe_, O_CLOEXEC | O_NONBLOCK) != 0)
    throw Error(std::string("serve: cannot create a pipe: ") + std::strerror(errno));
}

HttpServer::~HttpServer() {
  {
    std::lock_guard<std::mutex> lock(jobs_mutex_);
    workers_stop_ = true;
  }
  jobs_ready_.notify_all();
  for (std::thread& t : workers_)
    if (t.joinable()) t.join();
  for (auto& [id, c] : connections_) close(c.fd);
  if (listen_fd_ >= 0) close(listen_fd_);
  close(wake_pipe_[0]);
  close(wake_pipe_[1]);
}

int HttpServer::bind(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found) != 0 || !found)
    throw Error("cannot listen on " + host + ": not an address of this machine");
  int fd = -1;
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, kListenBacklog) != 0) {
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  if (fd < 0)
    throw Error("cannot listen on " + host + ":" + std::to_string(port) +
                " (in use, or not an address here)");
  sockaddr_storage bound{};
  socklen_t size = sizeof bound;
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &size);
  listen_fd_ = fd;
  return bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                     : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

void HttpServer::wake_loop() {
  const char byte = 1;
  (void)!write(wake_pipe_[1], &byte, 1);  // a full pipe has woken the loop already
}

void HttpServer::stop() {
  stopping_ = true;
  wake_loop();
}

void HttpServer::wake() { wake_loop(); }

void HttpServer::worker() {
  for (;;) {
    std::pair<uint64_t, HttpRequest> job;
    {
      std::unique_lock<std::mutex> lock(jobs_mutex_);
      jobs_ready_.wait(lock, [this] { return workers_stop_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    HttpResponse response;
    try {
      response = handler_(job.second);
    } catch (...) {
      response = error_response(500, "internal error");
    }
    {
      std::lock_guard<std::mutex> lock(jobs_mutex_);
      done_.push_back({job.first, std::move(response)});
    }
    wake_loop();
  }
}

void HttpServer::close_connection(uint64_t id) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  close(it->second.fd);
  connections_.erase(it);
  open_connections_ = static_cast<int>(connections_.size());
}

// A connection over the cap: room is made by closing a connection that is
// done (its answer sent) or, else, the oldest one still sending its request.
bool HttpServer::make_room(Clock::time_point) {
  for (Phase phase : {Phase::kClosing, Phase::kReading})
    for (auto& [id, c] : connections_)
      if (c.phase == phase) {
        close_connection(id);
        return true;
      }
  return false;
}

bool HttpServer::has_room() const {
  if (static_cast<int>(connections_.size()) < kMaxConnections) return true;
  for (const auto& [id, c] : connections_)
    if (c.phase == Phase::kClosing || c.phase == Phase::kReading) return true;
  return false;
}

void HttpServer::accept_connections(Clock::time_point now) {
  // While every connection is being answered, new ones wait in the listen backlog.
  while (has_room()) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // EAGAIN: none left (or an error of that one connection)
    if (static_cast<int>(connections_.size()) >= kMaxConnections) make_room(now);
    Connection c;
    c.fd = fd;
    c.opened = c.last_byte = now;
    connections_.emplace(next_id_++, std::move(c));
    open_connections_ = static_cast<int>(connections_.size());
  }
}

void HttpServer::answer(Connection& c, const HttpResponse& response, Clock::time_point now) {
  c.out = serialize_response(response);
  c.sent = 0;
  if (response.not_before > now && !stopping_) {
    c.phase = Phase::kHeld;
    c.not_before = response.not_before;
    return;
  }
  c.phase = Phase::kWriting;
  c.deadline = now + kWriteTimeout;
  write_to(c, now);
}

void HttpServer::start_closing(Connection& c, Clock::time_point now) {
  // The answer is sent: no more to write; what the client still sends (the
  // rest of a refused body) is read and dropped until it closes, so that it
  // reads the answer instead of a reset.
  shutdown(c.fd, SHUT_WR);
  c.phase = Phase::kClosing;
  c.deadline = stopping_ ? now : now + kIdleTimeout;  // a stopping server waits for no client
}

void HttpServer::write_to(Connection& c, Clock::time_point now) {
  while (c.sent < c.out.size()) {
    const ssize_t n = send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      c.sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    c.deadline = now;  // the client is gone: closed by expire()
    return;
  }
  start_closing(c, now);
}

void HttpServer::drain(Connection& c, Clock::time_point now) {
  char buffer[16384];
  for (;;) {
    const ssize_t n = recv(c.fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n > 0) {
      c.drained += static_cast<std::size_t>(n);
      c.deadline = now + kIdleTimeout;
      if (c.drained > kMaxDrainBytes) {
        c.deadline = now;
        return;
      }
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    c.deadline = now;  // end of file: done
    return;
  }
}

void HttpServer::read_from(uint64_t id, Connection& c, Clock::time_point now) {
  char buffer[16384];
  for (;;) {
    const ssize_t n = recv(c.fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n <= 0) {
      c.deadline = now;  // the client closed (or failed) before its request was complete
      c.phase = Phase::kClosing;
      return;
    }
    c.last_byte = now;
    const RequestReader::State state = c.reader.feed(buffer, static_cast<std::size_t>(n));
    if (state == RequestReader::State::kFailed) {
      answer(c, error_response(c.reader.error_status(), c.reader.error_message()), now);
      return;
    }
    if (state == RequestReader::State::kDone) {
      c.phase = Phase::kHandling;
      {
        std::lock_guard<std::mutex> lock(jobs_mutex_);
        jobs_.emplace_back(id, std::move(c.reader.request()));
        ++busy_;
      }
      jobs_ready_.notify_one();
      return;
    }
  }
}

void HttpServer::take_answers(Clock::time_point now) {
  std::vector<Done> done;
  {
    std::lock_guard<std::mutex> lock(jobs_mutex_);
    done.swap(done_);
    busy_ -= static_cast<int>(done.size());
  }
  for (Done& d : done) {
    auto it = connections_.find(d.id);
    if (it != connections_.end()) answer(it->second, d.response, now);
  }
}

void HttpServer::expire(Clock::time_point now) {
  std::vector<uint64_t> gone;
  for (auto& [id, c] : connections_) {
    if (c.phase == Phase::kReading) {
      const Clock::time_point whole = c.opened + (c.reader.head_done() ? kReadTimeout : kHeaderTimeout);
      c.deadline = std::min(c.last_byte + kIdleTimeout, whole);
    }
    if (c.phase == Phase::kHeld && now >= c.not_before) {
      c.phase = Phase::kWriting;
      c.deadline = now + kWriteTimeout;
      write_to(c, now);
    }
    const bool timed = c.phase == Phase::kReading || c.phase == Phase::kWriting || c.phase == Phase::kClosing;
    if (timed && now >= c.deadline) gone.push_back(id);
  }
  for (uint64_t id : gone) close_connection(id);
}

void HttpServer::run() {
  if (listen_fd_ < 0) throw Error("serve: run() before bind()");
  for (int i = 0; i < kWorkerThreads; ++i) workers_.emplace_back([this] { worker(); });
  bool stop_done = false;
  std::vector<pollfd> fds;
  std::vector<uint64_t> ids;  // the connection of fds[i + first]
  for (;;) {
    Clock::time_point now = now_();
    if (stopping_ && !stop_done) {
      stop_done = true;
      close(listen_fd_);
      listen_fd_ = -1;
      std::vector<uint64_t> gone;
      for (auto& [id, c] : connections_) {
        if (c.phase == Phase::kReading || c.phase == Phase::kClosing) gone.push_back(id);
        if (c.phase == Phase::kHeld) c.not_before = now;
      }
      for (uint64_t id : gone) close_connection(id);
    }
    expire(now);
    ++rounds_;
    if (stop_done && connections_.empty()) break;
    // Wait for a byte, a connection, an answer or the next deadline.
    fds.clear();
    ids.clear();
    fds.push_back({wake_pipe_[0], POLLIN, 0});
    if (listen_fd_ >= 0 && has_room()) fds.push_back({listen_fd_, POLLIN, 0});
    const std::size_t first = fds.size();
    bool any_deadline = false;
    Clock::time_point next{};
    auto due = [&](Clock::time_point t) {
      if (!any_deadline || t < next) next = t;
      any_deadline = true;
    };
    for (auto& [id, c] : connections_) {
      short events = 0;
      if (c.phase == Phase::kReading || c.phase == Phase::kClosing) events = POLLIN;
      if (c.phase == Phase::kWriting) events = POLLOUT;
      if (c.phase == Phase::kHeld) due(c.not_before);
      if (c.phase == Phase::kReading || c.phase == Phase::kWriting || c.phase == Phase::kClosing)
        due(c.deadline);
      if (events == 0) continue;
      fds.push_back({c.fd, events, 0});
      ids.push_back(id);
    }
    int timeout = -1;
    if (any_deadline) {
      const auto wait = std::chrono::ceil<milliseconds>(next - now).count();
      timeout = static_cast<int>(std::clamp<long long>(wait, 0, 60'000));
    }
    if (poll(fds.data(), fds.size(), timeout) < 0 && errno != EINTR)
      throw Error(std::string("serve: poll failed: ") + std::strerror(errno));
    now = now_();
    if (fds[0].revents) {
      char bytes[64];
      while (read(wake_pipe_[0], bytes, sizeof bytes) > 0) {
      }
    }
    take_answers(now);
    for (std::size_t i = first; i < fds.size(); ++i) {
      if (!fds[i].revents) continue;
      auto it = connections_.find(ids[i - first]);
      if (it == connections_.end()) continue;
      Connection& c = it->second;
      if (c.phase == Phase::kReading)
        read_from(it->first, c, now);
      else if (c.phase == Phase::kWriting)
        write_to(c, now);
      else if (c.phase == Phase::kClosing)
        drain(c, now);
    }
    if (listen_fd_ >= 0 && first == 2 && fds[1].revents) accept_connections(now);
  }
  {
    std::lock_guard<std::mutex> lock(jobs_mutex_);
    workers_stop_ = true;
  }
  jobs_ready_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
}

}  // namespace rocketgym::serve
