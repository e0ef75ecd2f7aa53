// The one way numbers are read from text, whether they come from a YAML
// config, a `--set key=value` or a command-line option: plain decimal.
// A leading 0 is refused rather than read as octal (yaml-cpp and CLI11 read
// 010 as 8) and 0x1F rather than read as hex, so one text never means two
// numbers depending on where it was typed.
#pragma once

#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

#include "envs/core/quoted.h"

namespace rocketgym {

// What a refusal says the value must look like.
inline constexpr const char* kWholeNumberForm = "a whole number in decimal, like 8";
inline constexpr const char* kNumberForm = "a number in decimal, like 0.5, 8 or 1e-4";

namespace numbers_detail {

// Digits from `i`, without a leading zero unless the digit run is "0" itself.
inline bool canonical_digits(std::string_view text, std::size_t& i) {
  const std::size_t start = i;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == start) return false;
  return !(text[start] == '0' && i - start > 1);
}

inline bool any_digits(std::string_view text, std::size_t& i) {
  const std::size_t start = i;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  return i > start;
}

}  // namespace numbers_detail

// An optional '-' and digits, no leading zero but in "0" itself: no '+',
// spaces, underscores, hex (0x1F) or octal (010).
inline bool is_decimal_whole(std::string_view text) {
  std::size_t i = !text.empty() && text[0] == '-' ? 1 : 0;
  return numbers_detail::canonical_digits(text, i) && i == text.size();
}

// A decimal number: a whole number as above, optionally with a fraction
// (0.5, 2.) and an exponent (1e-4, 5E6). No hex floats, inf or nan.
inline bool is_decimal_number(std::string_view text) {
  std::size_t i = !text.empty() && text[0] == '-' ? 1 : 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (!numbers_detail::any_digits(text, i)) return false;
  } else {
    if (!numbers_detail::canonical_digits(text, i)) return false;
    if (i < text.size() && text[i] == '.') {
      ++i;
      numbers_detail::any_digits(text, i);
    }
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!numbers_detail::any_digits(text, i)) return false;
  }
  return i == text.size();
}

enum class NumberRead { ok, malformed, out_of_range };

// `text` as a whole number of type Int (int64_t, uint64_t, int) in [min, max].
template <class Int>
NumberRead read_whole(std::string_view text, Int min, Int max, Int& value) {
  if (!is_decimal_whole(text)) return NumberRead::malformed;
  Int parsed{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  // A minus sign on an unsigned type, or too many digits: outside any range.
  if (error != std::errc() || end != text.data() + text.size()) return NumberRead::out_of_range;
  if (parsed < min || parsed > max) return NumberRead::out_of_range;
  value = parsed;
  return NumberRead::ok;
}

// `text` as a decimal number in [min, max] (a finite one: 1e400 is out of range).
inline NumberRead read_number(std::string_view text, double min, double max, double& value) {
  if (!is_decimal_number(text)) return NumberRead::malformed;
  double parsed = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (error == std::errc::result_out_of_range) return NumberRead::out_of_range;
  if (error != std::errc() || end != text.data() + text.size()) return NumberRead::malformed;
  if (!(parsed >= min && parsed <= max)) return NumberRead::out_of_range;
  value = parsed;
  return NumberRead::ok;
}

// A number as messages and reference tables print it: the shortest text that
// reads back as the same double (0.0003, 1e-09, 65536).
inline std::string number_text(double value) {
  char digits[64];
  const auto written = std::to_chars(digits, digits + sizeof(digits), value);
  return std::string(digits, written.ptr);
}

// The value a user typed, for a message: itself when short, else nothing (a
// message never echoes long input).
inline std::string typed_value(std::string_view text) {
  constexpr std::size_t kShown = 24;
  return text.size() <= kShown ? " " + shortened(text) : std::string();
}

}  // namespace rocketgym
