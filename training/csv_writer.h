// The one way the project writes CSV (the arena's agents.csv, games.csv...):
// RFC 4180, fields separated by ',' and rows ended by '\n'. A text field
// holding a comma, a double quote, a CR or an LF is quoted and its quotes
// doubled, so free text such as an agent's name never shifts the columns.
//
//   CsvWriter csv;
//   csv.row("agent", "rating");        // a whole row at once
//   csv << name << 1234.5;             // or field by field...
//   csv.end_row();                     // ...then end it
//   write_text_file("agents.csv", csv.str());
#pragma once

#include <sstream>
#include <string>
#include <type_traits>

namespace rocketgym {

class CsvWriter {
 public:
  CsvWriter& operator<<(const std::string& text) {
    separate();
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
      out_ << text;
      return *this;
    }
    out_ << '"';
    for (const char c : text) out_ << (c == '"' ? "\"\"" : std::string(1, c));
    out_ << '"';
    return *this;
  }
  CsvWriter& operator<<(const char* text) { return *this << std::string(text); }
  // A number as an ostream writes it (bool as 0 or 1): never quoted.
  template <class Number, std::enable_if_t<std::is_arithmetic_v<Number>, int> = 0>
  CsvWriter& operator<<(Number value) {
    separate();
    out_ << value;
    return *this;
  }

  template <class... Fields>
  void row(const Fields&... fields) {
    (*this << ... << fields);
    end_row();
  }
  void end_row() {
    out_ << '\n';
    row_started_ = false;
  }

  std::string str() const { return out_.str(); }

 private:
  void separate() {
    if (row_started_) out_ << ',';
    row_started_ = true;
  }

  std::ostringstream out_;
  bool row_started_ = false;
};

}  // namespace rocketgym
