// The HTTP server of `rocketgym serve` (training/cli/http_server.h): the
// request reader's limits (one body limit for every transfer encoding, bad
// path bytes, headers), then the server on real sockets of 127.0.0.1 with an
// injected clock: silent and trickling clients are closed at their timeouts
// and never hold up the others, the connection cap, a stop with clients still
// sending, answers held until their time. No test waits on a clock: each
// moves the injected one, then makes the server go round its loop (a whole
// request answered on another connection proves the server has read the clock
// since) before it looks.
#include "training/cli/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

using namespace rocketgym;
using serve::Clock;
using serve::HttpRequest;
using serve::HttpResponse;
using serve::RequestReader;
using State = RequestReader::State;

namespace {

RequestReader read_all(const std::string& bytes) {
  RequestReader reader;
  reader.feed(bytes.data(), bytes.size());
  return reader;
}

int status_of(const std::string& bytes) {
  RequestReader reader = read_all(bytes);
  if (reader.state() == State::kDone) return 200;
  if (reader.state() == State::kReading) return 0;
  return reader.error_status();
}

std::string chunked(const std::string& body, std::size_t chunk) {
  std::string out;
  char size[32];
  for (std::size_t at = 0; at < body.size(); at += chunk) {
    const std::string piece = body.substr(at, chunk);
    std::snprintf(size, sizeof size, "%zx\r\n", piece.size());
    out += size + piece + "\r\n";
  }
  return out + "0\r\n\r\n";
}

const std::string kPost = "POST /api/tables HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n";

}  // namespace

TEST_CASE("a request is read whole: line, headers, a body by length or in chunks", "[serve][http]") {
  RequestReader reader;
  const std::string request =
      "GET /api/records/3?move=2&seat=full&x=a%20b+c HTTP/1.1\r\nHost: 127.0.0.1:1\r\n"
      "X-Seat-Key:  abc \r\n\r\n";
  // Byte by byte, as a slow client sends it.
  for (std::size_t i = 0; i + 1 < request.size(); ++i)
    REQUIRE(reader.feed(&request[i], 1) == State::kReading);
  REQUIRE(reader.feed(&request.back(), 1) == State::kDone);
  const HttpRequest& r = reader.request();
  REQUIRE(r.method == "GET");
  REQUIRE(r.path == "/api/records/3");
  REQUIRE(*r.param("move") == "2");
  REQUIRE(*r.param("x") == "a b c");
  REQUIRE(*r.header("x-seat-key") == "abc");
  REQUIRE(*r.header("host") == "127.0.0.1:1");

  const std::string body = "{\"game\": \"last_blast\"}";
  RequestReader by_length =
      read_all(kPost + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  REQUIRE(by_length.state() == State::kDone);
  REQUIRE(by_length.request().body == body);
  RequestReader in_chunks = read_all(kPost + "Transfer-Encoding: chunked\r\n\r\n" + chunked(body, 5));
  REQUIRE(in_chunks.state() == State::kDone);
  REQUIRE(in_chunks.request().body == body);
  REQUIRE(status_of(kPost + "Transfer-Encoding: chunked\r\n\r\n" + chunked(body, 5).substr(0, 20)) == 0);
}

TEST_CASE("one body limit for every transfer encoding", "[serve][http]") {
  // A chunked body escaped the 64 KiB limit: 16 MiB and 128 MiB were read into memory.
  const std::string big(serve::kMaxBodyBytes + 1, ' ');
  REQUIRE(status_of(kPost + "Content-Length: " + std::to_string(big.size()) + "\r\n\r\n") == 413);
  REQUIRE(status_of(kPost + "Content-Length: 99999999999999999999\r\n\r\n") == 400);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{1000}, serve::kMaxBodyBytes + 1}) {
    INFO("chunks of " << chunk);
    RequestReader reader;
    const std::string head = kPost + "Transfer-Encoding: chunked\r\n\r\n";
    reader.feed(head.data(), head.size());
    const std::string body = chunked(big, chunk);
    // Fed as it would come, a few KiB at a time: refused before the end,
    // having held no more than the limit.
    std::size_t fed = 0;
    while (fed < body.size() && reader.state() == State::kReading) {
      const std::size_t n = std::min<std::size_t>(4096, body.size() - fed);
      reader.feed(body.data() + fed, n);
      fed += n;
    }
    REQUIRE(reader.state() == State::kFailed);
    REQUIRE(reader.error_status() == 413);
    REQUIRE(fed <= serve::kMaxBodyBytes + 4096);
    REQUIRE(reader.request().body.size() <= serve::kMaxBodyBytes);
  }
  // The chunk framing counts too: many empty-looking chunks of one byte.
  REQUIRE(status_of(kPost + "Transfer-Encoding: chunked\r\n\r\n" +
                    chunked(std::string(serve::kMaxBodyBytes / 4, 'a'), 1)) == 413);
  // Within the limit, chunked or not, a body is read.
  const std::string fits(serve::kMaxBodyBytes / 2, ' ');
  REQUIRE(status_of(kPost + "Transfer-Encoding: chunked\r\n\r\n" + chunked(fits, 4096)) == 200);
  REQUIRE(status_of(kPost + "Content-Length: " + std::to_string(serve::kMaxBodyBytes) + "\r\n\r\n" +
                    std::string(serve::kMaxBodyBytes, ' ')) == 200);
}

TEST_CASE("bad path bytes, %00 included, and invalid UTF-8 are refused, never cut", "[serve][http]") {
  // `/app.js%00.html` was served as text/html.
  for (const char* target : {"/app.js%00.html", "/a%0a", "/a%0D", "/a%7f", "/%ff", "/%c0%af", "/a%2", "/a%zz",
                             "/a\\b", "/a%5cb", "/%ed%a0%80", "/x?seat=%00", "/x?seat=%fe", "/x?%e2%82=1"}) {
    INFO(target);
    RequestReader reader = read_all(std::string("GET ") + target + " HTTP/1.1\r\nHost: h\r\n\r\n");
    REQUIRE(reader.state() == State::kFailed);
    REQUIRE(reader.error_status() == 400);
    REQUIRE(reader.error_message().find(target) == std::string::npos);
  }
  // Raw bytes that must be escaped.
  for (const std::string& target : {std::string("/a\xff"), std::string("/a\x01"), std::string("/a b")})
    REQUIRE(status_of("GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n") == 400);
  RequestReader fine = read_all("GET /caf%C3%A9?seat=%E2%82%AC HTTP/1.1\r\nHost: h\r\n\r\n");
  REQUIRE(fine.state() == State::kDone);
  REQUIRE(fine.request().path == "/caf\xc3\xa9");
  REQUIRE(*fine.request().param("seat") == "\xe2\x82\xac");
}

TEST_CASE("a query that names a parameter twice is refused", "[serve][http]") {
  for (const char* target : {"/x?seat=1&seat=0", "/x?move=3&seat=1&move=4", "/x?a&a"}) {
    INFO(target);
    RequestReader reader = read_all(std::string("GET ") + target + " HTTP/1.1\r\nHost: h\r\n\r\n");
    REQUIRE(reader.state() == State::kFailed);
    REQUIRE(reader.error_status() == 400);
    REQUIRE(reader.error_message() == "the query names a parameter twice");
  }
  RequestReader fine = read_all("GET /x?move=3&seat=1 HTTP/1.1\r\nHost: h\r\n\r\n");
  REQUIRE(fine.state() == State::kDone);
  REQUIRE(*fine.request().param("seat") == "1");
}

TEST_CASE("the request line and headers are checked and bounded", "[serve][http]") {
  REQUIRE(status_of("GET / HTTP/1.1\r\nHost: h\r\nX: " + std::string(serve::kMaxRequestHeadBytes, 'a') +
                    "\r\n\r\n") == 431);
  REQUIRE(status_of("GET / HTTP/1.1\r\nX: " + std::string(serve::kMaxRequestHeadBytes, 'a')) ==
          431);  // no end yet
  REQUIRE(status_of("PUT / HTTP/1.1\r\nHost: h\r\n\r\n") == 405);
  REQUIRE(status_of("GET / HTTP/2.0\r\nHost: h\r\n\r\n") == 505);
  REQUIRE(status_of("GET /  HTTP/1.1\r\nHost: h\r\n\r\n") == 400);
  REQUIRE(status_of("GET http://evil/ HTTP/1.1\r\nHost: h\r\n\r\n") == 400);
  REQUIRE(status_of("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == 400);
  REQUIRE(status_of("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n") == 400);
  REQUIRE(status_of("GET / HTTP/1.1\r\nHost: h\r\nBad Name: x\r\n\r\n") == 400);
  REQUIRE(status_of("GET / HTTP/1.1\r\nHost: h\nX: y\r\n\r\n") == 400);
  REQUIRE(status_of(kPost + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}") == 400);
  REQUIRE(status_of(kPost + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}") == 400);
  REQUIRE(status_of(kPost + "Transfer-Encoding: gzip, chunked\r\n\r\n") == 501);
  REQUIRE(status_of(kPost + "Transfer-Encoding: chunked\r\n\r\nzz\r\n") == 400);
  REQUIRE(status_of(kPost + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX") == 400);
  REQUIRE(status_of("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n") ==
          200);  // empty lines before it are skipped
}

TEST_CASE("a GET request with a body is refused before the body is read", "[serve][http]") {
  // `GET /api/games` with a body was answered as if the body were not there.
  for (const std::string& framing :
       {std::string("Content-Length: 2\r\n\r\n"), std::string("Transfer-Encoding: chunked\r\n\r\n")}) {
    INFO(framing);
    RequestReader reader = read_all("GET /api/games HTTP/1.1\r\nHost: h\r\n" + framing);
    REQUIRE(reader.state() == State::kFailed);  // at the end of the head: no byte of the body came
    REQUIRE(reader.error_status() == 400);
    REQUIRE(reader.error_message() == "a GET request has no body (send none, or Content-Length: 0)");
  }
  REQUIRE(status_of("GET /api/games HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n") == 200);
  REQUIRE(status_of(kPost + "Content-Length: 2\r\n\r\n{}") == 200);
}

TEST_CASE("a line ended by a bare LF is refused at once, not left to the idle timeout", "[serve][http]") {
  // `GET / HTTP/1.1\nHost: h\n\n` got no answer: the connection was dropped after kIdleTimeout.
  for (const std::string& head :
       {std::string("GET / HTTP/1.1\nHost: h\n\n"), std::string("GET / HTTP/1.1\n"),
        std::string("\nGET / HTTP/1.1\r\n"), std::string("GET / HTTP/1.1\r\nHost: h\n")}) {
    INFO(head);
    RequestReader reader = read_all(head);
    REQUIRE(reader.state() == State::kFailed);
    REQUIRE(reader.error_status() == 400);
    REQUIRE_THAT(reader.error_message(), Catch::Contains("without CR LF"));
  }
  // CR and LF fed apart are one line end.
  RequestReader split;
  for (const std::string piece : {"GET / HTTP/1.1\r", "\nHost: h\r", "\n\r", "\n"})
    split.feed(piece.data(), piece.size());
  REQUIRE(split.state() == State::kDone);
}

TEST_CASE("every answer carries the security headers", "[serve][http]") {
  HttpResponse r;
  r.body = "{}";
  const std::string bytes = serve::serialize_response(r);
  REQUIRE_THAT(bytes, Catch::StartsWith("HTTP/1.1 200 OK\r\n"));
  for (const char* header :
       {"\r\nX-Content-Type-Options: nosniff\r\n", "\r\nX-Frame-Options: DENY\r\n",
        "\r\nContent-Length: 2\r\n", "\r\nConnection: close\r\n", "frame-ancestors 'none'",
        "\r\nContent-Security-Policy: default-src 'self';", "\r\nReferrer-Policy: no-referrer\r\n"})
    REQUIRE_THAT(bytes, Catch::Contains(header));
  REQUIRE_THAT(bytes, Catch::EndsWith("\r\n\r\n{}"));
  const HttpResponse error = serve::error_response(404, "no such page \xff");
  REQUIRE(error.status == 404);
  REQUIRE(nlohmann::json::parse(error.body).at("status") == 404);  // invalid UTF-8 of a message is replaced
}

// --- the server on sockets -----------------------------------------------------

namespace {

// A server on a free port of 127.0.0.1, its loop on a thread, its clock the
// test's: `advance` moves it and wakes the loop. The handler answers
// {"path": ...}; a path /hold/N holds its answer N ms of the test's clock;
// /block waits until `release()`.
struct Running {
  std::atomic<Clock::rep> clock{0};
  std::mutex mutex;
  std::condition_variable changed;
  int blocked = 0;
  bool released = false;
  serve::HttpServer server;
  int port = 0;
  std::thread loop;

  Running()
      : server([this](const HttpRequest& r) { return handle(r); },
               [this] { return Clock::time_point(Clock::duration(clock.load())); }) {
    port = server.bind("127.0.0.1", 0);
    loop = std::thread([this] { server.run(); });
  }
  ~Running() {
    release();
    server.stop();
    if (loop.joinable()) loop.join();
  }
  Clock::time_point now() const { return Clock::time_point(Clock::duration(clock.load())); }
  void advance(std::chrono::milliseconds by) {
    clock += std::chrono::duration_cast<Clock::duration>(by).count();
    server.wake();
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    released = true;
    changed.notify_all();
  }
  void wait_blocked(int n) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return blocked >= n; });
  }
  HttpResponse handle(const HttpRequest& r) {
    HttpResponse out;
    out.body = nlohmann::json{{"path", r.path}, {"body", r.body}}.dump();
    if (r.path.rfind("/hold/", 0) == 0)
      out.not_before = now() + std::chrono::milliseconds(std::stoi(r.path.substr(6)));
    if (r.path == "/block") {
      std::unique_lock<std::mutex> lock(mutex);
      ++blocked;
      changed.notify_all();
      changed.wait(lock, [this] { return released; });
    }
    return out;
  }
};

// A blocking client socket; a read waits at most 60 s (a guard against a
// hang, never a measure: every wait below ends by an event).
int connect_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  timeval guard{60, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &guard, sizeof guard);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  return fd;
}

void send_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;  // the server closed it: what it answered is still read
    sent += static_cast<std::size_t>(n);
  }
}

// Everything the server sends until it closes the connection.
std::string read_to_end(int fd) {
  std::string out;
  char buffer[4096];
  for (;;) {
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    out.append(buffer, static_cast<std::size_t>(n));
  }
  return out;
}

std::string round_trip(int port, const std::string& bytes) {
  const int fd = connect_to(port);
  send_all(fd, bytes);
  std::string answer = read_to_end(fd);
  close(fd);
  return answer;
}

std::string get(const std::string& path) { return "GET " + path + " HTTP/1.1\r\nHost: h\r\n\r\n"; }

// Whether the server still holds the connection open (nothing to read, no end).
bool is_open(int fd) {
  char byte;
  const ssize_t n = recv(fd, &byte, 1, MSG_DONTWAIT | MSG_PEEK);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

// Waits until the server closes the connection (guarded), having sent nothing.
bool closed_silently(int fd) { return read_to_end(fd).empty(); }

// A whole request answered: the server has gone round its loop, reading the clock, since it came.
void sync(Running& s) { REQUIRE_THAT(round_trip(s.port, get("/sync")), Catch::StartsWith("HTTP/1.1 200")); }

// The server has gone round its loop twice since this call: what was sent before it has been read.
void two_rounds(Running& s) {
  const uint64_t from = s.server.rounds();
  while (s.server.rounds() < from + 2) {
    s.server.wake();
    std::this_thread::yield();
  }
}

}  // namespace

TEST_CASE("a silent connection is closed after the idle timeout, not before", "[serve][http]") {
  Running s;
  const int silent = connect_to(s.port);
  sync(s);
  s.advance(serve::kIdleTimeout - std::chrono::milliseconds(1));
  sync(s);
  REQUIRE(is_open(silent));
  s.advance(std::chrono::milliseconds(1));
  REQUIRE(closed_silently(silent));
  close(silent);
  REQUIRE_THAT(round_trip(s.port, get("/after")), Catch::Contains("\"path\":\"/after\""));
}

TEST_CASE(
    "a client trickling its request is closed at the header or read timeout; others are answered meanwhile",
    "[serve][http]") {
  // Eight connections sending a header byte every 3 s stopped every answer; 200 idle ones delayed one by 23
  // s.
  Running s;
  // Each client sends a byte just before its idle timeout, until a millisecond
  // before `limit`; then the clock reaches the limit.
  const auto trickle = [&s](const std::vector<int>& slow, const std::string& bytes,
                            std::chrono::milliseconds limit) {
    const auto last = limit - std::chrono::milliseconds(1);
    auto elapsed = std::chrono::milliseconds(0);
    for (;;) {
      for (int fd : slow) send_all(fd, bytes);
      sync(s);  // answered while the slow clients are still sending
      for (int fd : slow) REQUIRE(is_open(fd));
      if (elapsed == last) break;
      const auto step = std::min(serve::kIdleTimeout - std::chrono::milliseconds(1), last - elapsed);
      s.advance(step);
      elapsed += step;
    }
    s.advance(std::chrono::milliseconds(1));
    for (int fd : slow) {
      REQUIRE(closed_silently(fd));
      close(fd);
    }
  };
  SECTION("the headers") {
    std::vector<int> slow;
    for (int i = 0; i < 16; ++i) {
      slow.push_back(connect_to(s.port));
      send_all(slow.back(), "GET / HTTP/1.1\r\n");
    }
    trickle(slow, "X: y\r\n", serve::kHeaderTimeout);
  }
  SECTION("the body") {
    const int slow = connect_to(s.port);
    send_all(slow, kPost + "Content-Length: 1000\r\n\r\n");
    trickle({slow}, "x", serve::kReadTimeout);
  }
}

TEST_CASE("beyond the connection cap the oldest unfinished connection closes, and a request is answered",
          "[serve][http]") {
  Running s;
  std::vector<int> idle;
  for (int i = 0; i < serve::kMaxConnections + 8; ++i) {
    idle.push_back(connect_to(s.port));
    send_all(idle.back(), "G");
  }
  REQUIRE_THAT(round_trip(s.port, get("/answered")), Catch::Contains("\"path\":\"/answered\""));
  REQUIRE(s.server.open_connections() <= serve::kMaxConnections);
  // The oldest were closed to make room; the newest are still open.
  REQUIRE(closed_silently(idle.front()));
  REQUIRE(is_open(idle.back()));
  for (int fd : idle) close(fd);
}

TEST_CASE("while every connection is being answered, a new one waits to be accepted", "[serve][http]") {
  Running s;
  std::vector<int> busy;
  for (int i = 0; i < serve::kMaxConnections; ++i) {
    busy.push_back(connect_to(s.port));
    send_all(busy.back(), get("/block"));
  }
  s.wait_blocked(serve::kWorkerThreads);
  two_rounds(s);                        // every request has been read: all the connections are being answered
  const int late = connect_to(s.port);  // taken by the kernel's backlog, not by the server
  send_all(late, get("/late"));
  two_rounds(s);
  REQUIRE(s.server.open_connections() == serve::kMaxConnections);
  REQUIRE(is_open(late));  // no answer, not closed
  s.release();
  for (int fd : busy) {
    REQUIRE_THAT(read_to_end(fd), Catch::Contains("\"path\":\"/block\""));
    close(fd);
  }
  REQUIRE_THAT(read_to_end(late), Catch::Contains("\"path\":\"/late\""));
  close(late);
}

TEST_CASE("stop closes the connections still sending, finishes the answers under way, then run returns",
          "[serve][http]") {
  // One slow client kept SIGTERM from finishing.
  auto s = std::make_unique<Running>();
  const int slow = connect_to(s->port);
  send_all(slow, "GET / HTTP/1.1\r\nX: y\r\n");
  const int busy = connect_to(s->port);
  send_all(busy, get("/block"));
  s->wait_blocked(1);
  s->server.stop();
  REQUIRE(closed_silently(slow));  // at once: no clock moved
  s->release();
  REQUIRE_THAT(read_to_end(busy), Catch::Contains("\"path\":\"/block\""));
  s->loop.join();  // run() returned
  close(slow);
  close(busy);
}

TEST_CASE("an answer is held until its time on the server's clock", "[serve][http]") {
  Running s;
  const int held = connect_to(s.port);
  send_all(held, get("/hold/500"));
  sync(s);
  sync(s);
  REQUIRE(is_open(held));  // no answer yet
  s.advance(std::chrono::milliseconds(499));
  sync(s);
  REQUIRE(is_open(held));
  s.advance(std::chrono::milliseconds(1));
  REQUIRE_THAT(read_to_end(held), Catch::Contains("\"path\":\"/hold/500\""));
  close(held);
}

TEST_CASE("a refused body is answered 413 (a GET's: 400), the rest of it read and dropped", "[serve][http]") {
  Running s;
  const std::string body(200'000, ' ');
  REQUIRE_THAT(
      round_trip(s.port, "GET /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1000\r\n\r\n" + body.substr(0, 1000)),
      Catch::StartsWith("HTTP/1.1 400") && Catch::Contains("a GET request has no body"));
  REQUIRE_THAT(round_trip(s.port, kPost + "Content-Length: 200000\r\n\r\n" + body),
               Catch::StartsWith("HTTP/1.1 413"));
  REQUIRE_THAT(round_trip(s.port, kPost + "Transfer-Encoding: chunked\r\n\r\n" + chunked(body, 8192)),
               Catch::StartsWith("HTTP/1.1 413"));
  const std::string deep = "[" + std::string(100'000, '[');
  REQUIRE_THAT(round_trip(s.port, kPost + "Transfer-Encoding: chunked\r\n\r\n" + chunked(deep, 1000)),
               Catch::StartsWith("HTTP/1.1 413"));
}
