// The HTTP server of `rocketgym serve`: see http_server.h. It reads each
// request with a RequestReader (http_request.cpp).
#include "training/cli/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "envs/core/errors.h"

namespace rocketgym::serve {

namespace {

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
