// The HTTP/1.1 server of `rocketgym serve` (docs/browser.md), on POSIX
// sockets: one request per connection, then the connection closes.
//
// Why its own: Debian's cpp-httplib 0.11 gives each connection a worker
// thread for as long as the client keeps sending, with a timeout per read but
// none for the whole request and no cap on connections (eight clients sending
// a header byte every few seconds stopped every answer, and one kept SIGTERM
// from finishing), and it applies its body limit to Content-Length bodies
// only (a chunked body of any size was read into memory).
//
// Here one thread (run) reads every connection without blocking, with the
// limits and timeouts of serve_limits.h measured on an injected clock: a
// request counts as complete only once all of it came, and only then does one
// of kWorkerThreads threads handle it. So a slow or silent client holds a
// socket and a few bytes, never a thread, and a stop closes every connection
// still sending at once. With nothing to do, every thread waits without a
// timeout (no CPU while idle).
//
// http_request.cpp reads requests (RequestReader, is_valid_utf8);
// http_server.cpp serves them (HttpServer, the answers' bytes).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "training/cli/serve_limits.h"

namespace rocketgym::serve {

struct HttpRequest {
  std::string method;  // GET, POST
  std::string path;    // percent-decoded: valid UTF-8 without control characters
  std::vector<std::pair<std::string, std::string>> query;    // decoded likewise, in order
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case, values trimmed
  std::string body;

  // The first header or query parameter of that name (a header name in lower case), or nullptr.
  const std::string* header(std::string_view name) const;
  const std::string* param(std::string_view name) const;
  // How many headers of that name (lower case) the request holds.
  int header_count(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // more headers
  // The answer is held until then (TableReply, table_server.h); the
  // default, the epoch, sends it at once.
  Clock::time_point not_before{};
};

// {"error": message, "status": status} with that status. The message is the
// server's own text: no request value is ever put into it.
HttpResponse error_response(int status, const std::string& message);
// The bytes of an answer: its status line, Content-Type, Content-Length,
// "Connection: close", the security headers every answer carries
// (X-Content-Type-Options: nosniff, a Content-Security-Policy allowing only
// this origin with frame-ancestors 'none', X-Frame-Options: DENY,
// Referrer-Policy: no-referrer, Cache-Control: no-store), then the body.
std::string serialize_response(const HttpResponse& response);

// Whether `text` is valid UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool is_valid_utf8(std::string_view text);

// Reads one request from the bytes of a connection as they come.
class RequestReader {
 public:
  enum class State { kReading, kDone, kFailed };
  State feed(const char* data, std::size_t size);
  State state() const { return state_; }
  bool started() const { return received_ > 0; }
  bool head_done() const { return head_done_; }
  HttpRequest& request() { return request_; }
  // When kFailed: the answer (400, 405, 411, 413, 431, 501) and its message.
  int error_status() const { return error_status_; }
  const std::string& error_message() const { return error_message_; }

 private:
  State fail(int status, std::string message);
  State parse_head(std::string_view head);
  State parse_chunks();

  State state_ = State::kReading;
  std::size_t received_ = 0;
  bool head_done_ = false;
  std::string buffer_;  // bytes of the head, then of the body, not parsed yet
  bool chunked_ = false;
  std::size_t content_length_ = 0;
  std::size_t body_wire_bytes_ = 0;  // the body's bytes as they came (chunk sizes included)
  enum class Chunk { kSize, kData, kDataEnd, kTrailer } chunk_ = Chunk::kSize;
  std::size_t chunk_left_ = 0;
  HttpRequest request_;
  int error_status_ = 0;
  std::string error_message_;
};

class HttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;
  using Now = std::function<Clock::time_point()>;

  // `handler` answers each complete request, on a worker thread; an exception
  // from it becomes a 500 that names nothing. `now`: the clock of every
  // timeout and of HttpResponse::not_before (tests pass their own).
  explicit HttpServer(Handler handler, Now now = Clock::now);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Listens on host:port (port 0: any free port); returns the port. Throws Error.
  int bind(const std::string& host, int port);
  // Serves until stop(): then takes no new connection, closes those still
  // sending their request, finishes the answers under way (each within
  // kWriteTimeout) and returns.
  void run();
  // From any thread (not from a signal handler).
  void stop();
  // Makes run() read the clock again (a test that moved its clock).
  void wake();

  // For tests, from any thread: the connections open, and how many times
  // run() has gone round its loop (each round handles every event that came,
  // then every timeout due at the clock's time).
  int open_connections() const { return open_connections_; }
  uint64_t rounds() const { return rounds_; }

 private:
  enum class Phase { kReading, kHandling, kHeld, kWriting, kClosing };
  struct Connection {
    int fd = -1;
    Phase phase = Phase::kReading;
    Clock::time_point opened, last_byte, deadline;
    RequestReader reader;
    std::string out;  // the answer
    std::size_t sent = 0;
    std::size_t drained = 0;  // bytes read and dropped after a refusal
    Clock::time_point not_before;
  };
  struct Done {
    uint64_t id;
    HttpResponse response;
  };

  void accept_connections(Clock::time_point now);
  void read_from(uint64_t id, Connection& c, Clock::time_point now);
  void write_to(Connection& c, Clock::time_point now);
  void drain(Connection& c, Clock::time_point now);
  void answer(Connection& c, const HttpResponse& response, Clock::time_point now);
  void start_closing(Connection& c, Clock::time_point now);
  void close_connection(uint64_t id);
  void take_answers(Clock::time_point now);
  void expire(Clock::time_point now);
  bool has_room() const;
  bool make_room(Clock::time_point now);
  void worker();
  void wake_loop();

  Handler handler_;
  Now now_;
  int listen_fd_ = -1;
  int wake_pipe_[2] = {-1, -1};
  std::atomic<bool> stopping_{false};
  std::map<uint64_t, Connection> connections_;  // by id: the order they opened
  uint64_t next_id_ = 0;
  std::atomic<int> open_connections_{0};
  std::atomic<uint64_t> rounds_{0};

  std::mutex jobs_mutex_;
  std::condition_variable jobs_ready_;
  std::deque<std::pair<uint64_t, HttpRequest>> jobs_;
  std::vector<Done> done_;  // answers the workers made, for run() to send
  int busy_ = 0;            // requests handed to workers and not answered yet
  bool workers_stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace rocketgym::serve
