// Reading the requests of `rocketgym serve`'s HTTP server, strictly, as
// their bytes come: see http_server.h (RequestReader). Serving them is
// http_server.cpp.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "training/cli/http_server.h"

namespace rocketgym::serve {

namespace {

const char* const kBadLineEnd = "a line of the request ends without CR LF or holds a NUL byte";

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

}  // namespace

const std::string* HttpRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (key == name) return &value;
  return nullptr;
}

int HttpRequest::header_count(std::string_view name) const {
  return static_cast<int>(std::count_if(headers.begin(), headers.end(),
                                        [name](const auto& header) { return header.first == name; }));
}

const std::string* HttpRequest::param(std::string_view name) const {
  for (const auto& [key, value] : query)
    if (key == name) return &value;
  return nullptr;
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
      // A line ended by a bare LF is refused at once: such a head never ends
      // with CR LF CR LF, and the client would wait for the idle timeout.
      for (std::size_t lf = buffer_.find('\n', from); lf != std::string::npos;
           lf = buffer_.find('\n', lf + 1))
        if (lf == 0 || buffer_[lf - 1] != '\r') return fail(400, kBadLineEnd);
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
      return fail(400, kBadLineEnd);
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
  // Nothing reads a GET's body: one sent is refused before it is read (the
  // server drops what comes, up to kMaxDrainBytes), not ignored.
  if (request_.method == "GET" && (chunked_ || content_length_ > 0))
    return fail(400, "a GET request has no body (send none, or Content-Length: 0)");
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

}  // namespace rocketgym::serve
