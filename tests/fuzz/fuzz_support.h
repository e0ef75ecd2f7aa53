// Helpers shared by the libFuzzer targets in tests/fuzz (see docs/fuzzing.md,
// "Fuzzing"): failing loudly with the input's context, hashing an input into a
// seed, and writing the generated seed corpus and dictionary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

namespace rocketgym::fuzz {

// A finding: prints what broke (and the position, when there is one) and
// aborts, which libFuzzer reports as a crash and saves the input.
[[noreturn]] inline void fail(const std::string& what, const std::string& context = "") {
  std::fprintf(stderr, "\n== rocketgym fuzz failure: %s\n", what.c_str());
  if (!context.empty()) std::fprintf(stderr, "== position:\n%s\n", context.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void require(bool ok, const std::string& what, const std::string& context = "") {
  if (!ok) fail(what, context);
}

// FNV-1a: a seed taken from the whole input, so the same input always plays the same game.
inline uint64_t hash_bytes(const uint8_t* data, std::size_t size) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 0x100000001B3ULL;
  }
  return h;
}

// The folder named by ROCKETGYM_FUZZ_WRITE_SEEDS, or empty: when set, a
// target writes its seed corpus there (LLVMFuzzerInitialize) and exits.
inline std::string seed_folder() {
  const char* dir = std::getenv("ROCKETGYM_FUZZ_WRITE_SEEDS");
  return dir ? std::string(dir) : std::string();
}

inline void write_seed(const std::string& folder, const std::string& name, const std::string& bytes) {
  std::ofstream out(folder + "/" + name, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) fail("cannot write seed " + folder + "/" + name);
}

// The file named by ROCKETGYM_FUZZ_WRITE_DICT, or empty: when set, a target
// whose input is text (a JSON position, a YAML config) writes its libFuzzer
// dictionary (-dict=) there in LLVMFuzzerInitialize and exits; the other
// targets just exit. The entries are the words of the input's format taken
// from the code (the keys of to_json(), the keys a config loader reads), so
// a mutation can put in a whole key where byte flips would need luck:
// without them, launch_pad_position still found new edges in
// State::from_json's checks after 4000 CPU seconds.
inline std::string dict_file() {
  const char* file = std::getenv("ROCKETGYM_FUZZ_WRITE_DICT");
  return file ? std::string(file) : std::string();
}

// Writes `tokens` in libFuzzer's dictionary format: one quoted entry per
// line, with '"', '\\' and bytes outside printable ASCII as \xNN.
inline void write_dict(const std::string& file, const std::set<std::string>& tokens) {
  std::ofstream out(file, std::ios::binary);
  for (const std::string& token : tokens) {
    if (token.empty()) continue;
    out << '"';
    for (const char c : token) {
      const auto b = static_cast<unsigned char>(c);
      if (b < 0x20 || b > 0x7e || c == '"' || c == '\\') {
        char hex[5];
        std::snprintf(hex, sizeof hex, "\\x%02X", b);
        out << hex;
      } else {
        out << c;
      }
    }
    out << "\"\n";
  }
  if (!out) fail("cannot write dictionary " + file);
}

// Adds every object key and every string value in the JSON document `doc`
// (any nlohmann::basic_json), quoted as in JSON, to `words`.
template <class Json>
void collect_json_words(const Json& doc, std::set<std::string>& words) {
  if (doc.is_object()) {
    for (const auto& [key, value] : doc.items()) {
      words.insert(Json(key).dump());
      collect_json_words(value, words);
    }
  } else if (doc.is_array()) {
    for (const auto& item : doc) collect_json_words(item, words);
  } else if (doc.is_string()) {
    words.insert(doc.dump());
  }
}

// JSON's own tokens, and numbers at the edges of what the strict reader
// accepts (envs/core/json.h: no fraction, no wrap-around, no bool for an integer).
inline std::set<std::string> json_syntax_words() {
  return {"{",          "}",          "[",
          "]",          ":",          ",",
          "\"\"",       "[]",         "{}",
          "true",       "false",      "null",
          "-1",         "0",          "1",
          "255",        "256",        "65536",
          "2147483648", "4294967296", "-9223372036854775809",
          "2.5",        "1e400",      "18446744073709551616"};
}

}  // namespace rocketgym::fuzz
