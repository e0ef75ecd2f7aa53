// The table of serve's limits (serve_limits.h) for docs/browser.md.
#include "training/cli/serve_limits.h"

namespace rocketgym::serve {

namespace {

std::string bytes(std::size_t n) {
  if (n % (1024 * 1024) == 0) return std::to_string(n / (1024 * 1024)) + " MiB";
  if (n % 1024 == 0) return std::to_string(n / 1024) + " KiB";
  return std::to_string(n) + " bytes";
}

std::string time(milliseconds t) {
  if (t.count() % 1000 == 0) return std::to_string(t.count() / 1000) + " s";
  return std::to_string(t.count()) + " ms";
}

}  // namespace

std::vector<LimitRow> serve_limit_rows() {
  return {
      {"kMaxRequestHeadBytes", bytes(kMaxRequestHeadBytes), "request line and headers (431 beyond)"},
      {"kMaxBodyBytes", bytes(kMaxBodyBytes),
       "a request body on the wire, chunked or not, chunk sizes included (413 beyond)"},
      {"kMaxDrainBytes", bytes(kMaxDrainBytes),
       "a refused body is read and dropped up to this, so that the client sees the 413; then cut off"},
      {"kMaxJsonDepth", std::to_string(kMaxJsonDepth), "arrays and objects nested in a body (400 beyond)"},
      {"kMaxConnections", std::to_string(kMaxConnections),
       "connections open at once; a new one closes the oldest still sending its request (while all are "
       "being answered, new ones wait to be accepted)"},
      {"kListenBacklog", std::to_string(kListenBacklog),
       "connections waiting to be accepted (the kernel's backlog; beyond, new ones are refused)"},
      {"kIdleTimeout", time(kIdleTimeout), "silence allowed on a connection whose request is incomplete"},
      {"kHeaderTimeout", time(kHeaderTimeout), "from opening the connection to the end of the headers"},
      {"kReadTimeout", time(kReadTimeout), "from opening the connection to the end of the body"},
      {"kWriteTimeout", time(kWriteTimeout), "for the client to take the whole answer"},
      {"kWorkerThreads", std::to_string(kWorkerThreads), "API calls answered at once (bot moves included)"},
      {"kMaxPageFileBytes", bytes(kMaxPageFileBytes), "a file of the page (web/) served"},
      {"kDefaultMaxTables", std::to_string(kDefaultMaxTables), "`--max-tables` when not given"},
      {"kMaxTablesLimit", std::to_string(kMaxTablesLimit), "the highest `--max-tables`"},
      {"kDefaultIdleMinutes", std::to_string(kDefaultIdleMinutes), "`--idle-minutes` when not given"},
      {"kMaxIdleMinutes", std::to_string(kMaxIdleMinutes), "the highest `--idle-minutes`"},
      {"kMaxBotWorkPerMove", std::to_string(kMaxBotWorkPerMove),
       "search work of one bot move or one analysis (simulations x playouts per leaf); a seat kind above it "
       "is not offered, an analysis searches less"},
      {"kMaxAnalysesAtOnce", std::to_string(kMaxAnalysesAtOnce),
       "analyses computed at once over all tables, each with its own copy of the zoo bot; more wait"},
      {"kBotReplyTick", time(kBotReplyTick),
       "at a table of humans and a bot that searches (zoo, --allow-agent), answers that may run bots are "
       "sent a whole number of these after the request"},
      {"kQuickBotReplyTick", time(kQuickBotReplyTick),
       "the same at a table of humans whose bots are random or heuristic only"},
  };
}

std::string serve_limits_markdown() {
  std::string out = "| limit | value | what it bounds |\n| --- | --- | --- |\n";
  for (const LimitRow& row : serve_limit_rows())
    out += "| `" + row.name + "` | " + row.value + " | " + row.what + " |\n";
  return out;
}

}  // namespace rocketgym::serve
