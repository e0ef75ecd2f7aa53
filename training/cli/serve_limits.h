// Every limit of `rocketgym serve` (docs/browser.md), each a named constant
// here and nowhere else: the HTTP server (http_server.h), the tables
// (table_server.h), the command's flags (serve_command.cpp) and the table of
// docs/browser.md (`rocketgym describe --serve-limits --markdown`, written
// there by scripts/docs_tables.py) all read them from this file.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace rocketgym::serve {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// --- a request -------------------------------------------------------------
// The request line and headers together.
inline constexpr std::size_t kMaxRequestHeadBytes = 8 * 1024;
// A request's body as it comes over the wire, whatever its transfer encoding
// (a chunked body's chunk sizes and line ends count too). A request is a few
// hundred bytes.
inline constexpr std::size_t kMaxBodyBytes = 64 * 1024;
// A refused body (over kMaxBodyBytes) is still read and dropped up to this
// many bytes, so that the client, which sends its body before it reads the
// answer, sees the 413; a longer one is cut off.
inline constexpr std::size_t kMaxDrainBytes = 1024 * 1024;
// Arrays and objects nested in a request body (the API's bodies nest 2 deep).
inline constexpr int kMaxJsonDepth = 16;

// --- connections -----------------------------------------------------------
// Open at once. A new connection beyond the cap closes the oldest one still
// sending its request (or one whose answer is sent); while every connection
// is being answered, new ones wait in the listen backlog.
inline constexpr int kMaxConnections = 64;
// Connections the kernel holds for the server before it accepts them (listen(2)'s backlog).
inline constexpr int kListenBacklog = 128;
// A connection whose request is incomplete may stay silent this long (from
// its opening or its last byte).
inline constexpr milliseconds kIdleTimeout{2'000};
// The request line and headers must have come this long after the
// connection opened ...
inline constexpr milliseconds kHeaderTimeout{10'000};
// ... and the whole request, body included, this long after.
inline constexpr milliseconds kReadTimeout{20'000};
// The client must have taken the whole answer this long after it was ready.
inline constexpr milliseconds kWriteTimeout{10'000};
// API calls answered at once (a bot's move runs in one of them); the others wait.
inline constexpr int kWorkerThreads = 4;
// A file of the page (web/) that is larger is not served.
inline constexpr std::size_t kMaxPageFileBytes = 4 * 1024 * 1024;

// --- tables ----------------------------------------------------------------
inline constexpr int kDefaultMaxTables = 64;  // --max-tables
// The highest --max-tables: a table with a zoo bot holds its network (~9 MB).
inline constexpr int kMaxTablesLimit = 128;
inline constexpr int kDefaultIdleMinutes = 30;       // --idle-minutes
inline constexpr int kMaxIdleMinutes = 7 * 24 * 60;  // the highest --idle-minutes
// The search work of one bot move: simulations times playouts per leaf (a
// search over playouts), simulations (over a network), 1 without search. A
// seat kind above it is not offered (a zoo bot at that size) or refused at
// start (--allow-agent); an analysis (the page's hint) searches at most this.
inline constexpr long kMaxBotWorkPerMove = 4'096;
// Analyses (the page's hint, a replay's "Analyze this move") computed at once,
// over every table: each has its own copy of the zoo bot (its network, its
// search tree), made when none is free, so that one table's analysis never
// waits for another's up to this count; more wait for one to end. Fewer than
// kWorkerThreads, so that moves are still answered while they run.
inline constexpr int kMaxAnalysesAtOnce = 2;
static_assert(kMaxAnalysesAtOnce >= 1 && kMaxAnalysesAtOnce < kWorkerThreads);
// At a table of humans and bots, every answer to a new table, a move, a bot
// step or an undo is sent a whole number of ticks after its request came (at
// least one): so that the time an answer takes does not tell whether a bot
// made a secret decision inside it, as long as the bots' work fits in one.
// The tick of a table where a bot searches (the zoo's, --allow-agent's)...
inline constexpr milliseconds kBotReplyTick{500};
// ... and of one whose bots are random or heuristic only (a move in
// microseconds to milliseconds). Which it is follows from the seats, which
// every player sees.
inline constexpr milliseconds kQuickBotReplyTick{100};

// One row of the table of limits in docs/browser.md.
struct LimitRow {
  std::string name;   // the constant
  std::string value;  // with its unit
  std::string what;
};
std::vector<LimitRow> serve_limit_rows();
// That table in Markdown (`rocketgym describe --serve-limits --markdown`).
std::string serve_limits_markdown();

}  // namespace rocketgym::serve
