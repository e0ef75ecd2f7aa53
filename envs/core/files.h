// The one rule for the files rocketgym reads and writes (issue 55), in one
// place; every reader and writer of the project goes through it:
//
//   - An input is read only when it is a regular file: a FIFO is opened
//     without blocking and refused, a device (/dev/zero) or a folder is
//     refused, so that a reader never waits or reads without end. Each kind
//     of file has its size cap (below); a file read line by line caps each
//     line too, before the line is held whole.
//   - An output is written only to a new file or over a regular file, never
//     through a symbolic link (it is refused, not followed) and never over a
//     FIFO, a device or a folder. A file written whole goes to a temporary
//     file beside it, flushed to the disk and renamed over the target: a
//     reader sees the old file or the whole new one.
//   - An output is none of the run's inputs and none of its other outputs
//     (check_distinct_files): the same file under two names is caught too.
//   - Text that came from a file is shown on a terminal only as printable
//     text (printable()): control bytes and broken UTF-8 are escaped.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "envs/core/errors.h"

namespace rocketgym::files {

// A file that breaks the rule, or cannot be read or written. The message
// names the file and what is wrong with it. Readers whose callers expect
// their own error type (ConfigError, CheckpointError...) rethrow it as that.
struct FileError : Error {
  using Error::Error;
};

// The size caps, one per kind of file.
constexpr uint64_t kMaxConfigBytes = uint64_t{1} << 20;      // a YAML config, a zoo manifest
constexpr uint64_t kMaxCheckpointBytes = uint64_t{4} << 30;  // a checkpoint (models/checkpoint.h)
constexpr uint64_t kMaxRecordsBytes = uint64_t{1} << 30;     // a records file (envs/core/game_record.h)
constexpr uint64_t kMaxRecordLineBytes = uint64_t{1} << 20;  // one game's line of a records file
constexpr uint64_t kMaxLayoutBytes = uint64_t{1} << 20;      // an observation layout (JSON)
constexpr uint64_t kMaxMetricsBytes = uint64_t{1} << 30;     // a run's metrics.csv

// An input file opened under the rule: `what` names the kind of file in
// messages ("config file", "records file").
class InputFile {
 public:
  InputFile(const std::string& path, uint64_t max_bytes, const std::string& what);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  uint64_t size() const { return size_; }  // when opened
  // The rest of the file (never more than the cap, also if it grows meanwhile).
  std::string read_all();
  // The next line, without its '\n'; false at the end of the file.
  // `complete`: whether it ended with '\n' (false only for the last line).
  // A line longer than `max_line` bytes is a FileError naming its number.
  bool next_line(std::string& line, uint64_t max_line, bool& complete);
  int line_number() const { return line_; }      // of the last line read (1 for the first)
  uint64_t offset() const { return consumed_; }  // bytes of the file up to the end of the last line read

 private:
  bool fill();  // more bytes into the buffer; false at the end
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_, what_;
  uint64_t max_bytes_ = 0, size_ = 0, read_ = 0, consumed_ = 0;
  int fd_ = -1, line_ = 0;
  std::string buffer_;
  std::size_t at_ = 0;  // next unread byte of buffer_
  bool eof_ = false;
};

// The whole of a regular file of at most `max_bytes` (InputFile).
std::string read_input_file(const std::string& path, uint64_t max_bytes, const std::string& what);

// The same, throwing E (ConfigError, CheckpointError...) with FileError's message.
template <class E>
std::string read_input_file_as(const std::string& path, uint64_t max_bytes, const std::string& what) {
  try {
    return read_input_file(path, max_bytes, what);
  } catch (const FileError& e) {
    throw E(e.what());
  }
}

// Refuses an output path that exists and is not a regular file (a symbolic
// link, dangling or not, a FIFO, a device, a folder). A missing file passes.
void check_output_path(const std::string& path, const std::string& what);

// Opens an output under the rule: never through a symbolic link, never a FIFO
// (opened without blocking), a device or a folder. `flags`: O_APPEND, O_TRUNC,
// O_EXCL... (O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC are added). Returns
// the descriptor; FileError names the file and why.
int open_output(const std::string& path, int flags, const std::string& what);

// Writes all of `bytes` to `fd` (retrying short writes); FileError naming
// `path` and the reason (ENOSPC: "No space left on device") on failure.
void write_all(int fd, std::string_view bytes, const std::string& path, const std::string& what);

// Flushes `fd` to the disk and closes it; FileError with the reason on failure.
void sync_and_close(int fd, const std::string& path, const std::string& what);

// Writes the pieces to "<path>.tmp" (a new regular file), flushes it to the
// disk and renames it over `path`, which must be missing or a regular file
// (check_output_path). On failure the temporary file is removed and `path` is
// left as it was.
void write_file_atomically(const std::string& path, const std::vector<std::string_view>& pieces,
                           const std::string& what);
inline void write_file_atomically(const std::string& path, std::string_view text, const std::string& what) {
  write_file_atomically(path, std::vector<std::string_view>{text}, what);
}

// A file a run names, with the words that name it in messages
// ("--records", "the arena's report.json", "agent 'mine' (checkpoint)").
struct NamedFile {
  std::string path;
  std::string role;
};

// Whether two paths name the same file: the same device and inode when both
// exist, else the same absolute path once "." and ".." are resolved (through
// the symbolic links of the folders that exist).
bool same_file(const std::string& a, const std::string& b);

// Refuses an output that is one of `inputs` or one of the other `outputs`:
// FileError naming both roles and the path.
void check_distinct_files(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs);

// `text` as it may be shown on a terminal: valid UTF-8, tabs and line feeds
// stay; every other control character (ESC, BEL, carriage return, DEL, the C1
// controls) and every byte that is not UTF-8 becomes \xNN, one per byte.
std::string printable(std::string_view text);

// The code point of the UTF-8 sequence at text[i] and its length in bytes;
// -1 (length 1) where text[i] starts no valid sequence (overlong forms,
// surrogates and values past U+10FFFF are not valid). One decoder for
// printable() and the config reader's text check.
int32_t decode_utf8(std::string_view text, std::size_t i, std::size_t& length);

// Whether a code point may not appear in a text file (the config reader's
// check): C0 controls but tab, line feed and carriage return; DEL; C1 controls
// but NEL; U+FFFE and U+FFFF.
bool is_control(int32_t code);

}  // namespace rocketgym::files
