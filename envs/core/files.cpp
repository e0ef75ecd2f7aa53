// The one rule for the files rocketgym reads and writes: see files.h.
#include "envs/core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "envs/core/quoted.h"

namespace rocketgym::files {

namespace {

// What a file that is not a regular one is, for messages.
const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

std::string not_regular(const std::string& path, mode_t mode, const std::string& what) {
  return shortened(path) + ": not a regular file (" + kind_of(mode) + "; a " + what +
         " must be a regular file)";
}

std::string reason(int error) { return std::strerror(error); }

// "a/b.txt" -> "a", "b.txt" -> "."
std::string folder_of(const std::string& path) {
  const std::filesystem::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

// The absolute path with "." and ".." resolved (and the symbolic links of the
// part that exists): the name two spellings of one new file share.
std::string normal_path(const std::string& path) {
  std::error_code error;
  std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error);
  if (error) p = std::filesystem::absolute(path, error).lexically_normal();
  return p.string();
}

}  // namespace

// --- inputs -----------------------------------------------------------------

InputFile::InputFile(const std::string& path, uint64_t max_bytes, const std::string& what)
    : path_(path), what_(what), max_bytes_(max_bytes) {
  if (path.find('\0') != std::string::npos) fail("the path contains a NUL character");
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    const int error = errno;
    if (error == ENOENT)
      throw FileError(shortened(path) + ": cannot open the " + what + ": it does not exist");
    throw FileError(shortened(path) + ": cannot open the " + what + " (" + reason(error) + ")");
  }
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    const int error = errno;
    ::close(fd_);
    throw FileError(shortened(path) + ": cannot read the " + what + " (" + reason(error) + ")");
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd_);
    throw FileError(not_regular(path, info.st_mode, what));
  }
  size_ = static_cast<uint64_t>(info.st_size);
  if (size_ > max_bytes_) {
    ::close(fd_);
    throw FileError(shortened(path) + ": too large (" + std::to_string(size_) + " bytes): larger than a " +
                    what + " may be (at most " + std::to_string(max_bytes_) + " bytes)");
  }
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void InputFile::fail(const std::string& what) const { throw FileError(shortened(path_) + ": " + what); }

bool InputFile::fill() {
  if (eof_) return false;
  if (at_ > 0) {
    buffer_.erase(0, at_);
    at_ = 0;
  }
  char chunk[65536];
  while (true) {
    const ssize_t n = ::read(fd_, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("cannot read the " + what_ + " (" + reason(errno) + ")");
    if (n == 0) {
      eof_ = true;
      return false;
    }
    read_ += static_cast<uint64_t>(n);
    if (read_ > max_bytes_)  // it grew while being read
      fail("too large (it grew while being read): larger than a " + what_ + " may be (at most " +
           std::to_string(max_bytes_) + " bytes)");
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
}

std::string InputFile::read_all() {
  while (fill()) {
  }
  std::string out = buffer_.substr(at_);
  consumed_ += out.size();
  buffer_.clear();
  at_ = 0;
  return out;
}

bool InputFile::next_line(std::string& line, uint64_t max_line, bool& complete) {
  std::size_t searched = at_;
  while (true) {
    const std::size_t end = buffer_.find('\n', searched);
    if (end != std::string::npos) {
      if (end - at_ > max_line) break;
      line.assign(buffer_, at_, end - at_);
      consumed_ += end - at_ + 1;
      at_ = end + 1;
      complete = true;
      ++line_;
      return true;
    }
    if (buffer_.size() - at_ > max_line) break;
    searched = buffer_.size();
    const std::size_t kept = at_;
    if (!fill()) {
      if (buffer_.size() == at_) return false;
      line.assign(buffer_, at_, std::string::npos);
      consumed_ += line.size();
      at_ = buffer_.size();
      complete = false;
      ++line_;
      return true;
    }
    searched -= kept;  // fill() dropped the bytes before at_
  }
  fail("line " + std::to_string(line_ + 1) + " is longer than a " + what_ + "'s line may be (more than " +
       std::to_string(max_line) + " bytes)");
}

std::string read_input_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
  InputFile in(path, max_bytes, what);
  return in.read_all();
}

// --- outputs ----------------------------------------------------------------

void check_output_path(const std::string& path, const std::string& what) {
  if (path.empty()) throw FileError("the " + what + " is named by an empty path");
  if (path.find('\0') != std::string::npos)
    throw FileError(shortened(path) + ": the path contains a NUL character");
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return;
    throw FileError(shortened(path) + ": cannot write the " + what + " (" + reason(errno) + ")");
  }
  if (S_ISLNK(info.st_mode))
    throw FileError(shortened(path) + ": is a symbolic link; a " + what +
                    " is never written through one (name the file it points to, or another)");
  if (!S_ISREG(info.st_mode)) throw FileError(not_regular(path, info.st_mode, what));
}

int open_output(const std::string& path, int flags, const std::string& what) {
  check_output_path(path, what);
  const int fd = ::open(path.c_str(), flags | O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;
    if (error == ELOOP)
      throw FileError(shortened(path) + ": is a symbolic link; a " + what + " is never written through one");
    if (error == EEXIST) throw FileError(shortened(path) + ": the " + what + " exists");
    if (error == ENXIO)
      throw FileError(shortened(path) + ": not a regular file (a FIFO; a " + what +
                      " must be a regular file)");
    throw FileError(shortened(path) + ": cannot write the " + what + " (" + reason(error) + ")");
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    const mode_t mode = info.st_mode;
    ::close(fd);
    throw FileError(not_regular(path, mode, what));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

void write_all(int fd, std::string_view bytes, const std::string& path, const std::string& what) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw FileError(shortened(path) + ": error while writing the " + what + " (" + reason(errno) + ")");
    done += static_cast<std::size_t>(n);
  }
}

void sync_and_close(int fd, const std::string& path, const std::string& what) {
  int error = ::fsync(fd) != 0 ? errno : 0;
  if (::close(fd) != 0 && error == 0) error = errno;
  // fsync is refused by some file systems (EINVAL): the data is written all the same.
  if (error != 0 && error != EINVAL && error != EROFS)
    throw FileError(shortened(path) + ": error while writing the " + what + " (" + reason(error) + ")");
}

void write_file_atomically(const std::string& path, const std::vector<std::string_view>& pieces,
                           const std::string& what) {
  check_output_path(path, what);
  const std::string temp = path + ".tmp";
  check_output_path(temp, what);
  ::unlink(temp.c_str());  // one a killed writer left (a regular file: checked above)
  const int fd = open_output(temp, O_EXCL, what);
  try {
    for (const std::string_view piece : pieces) write_all(fd, piece, temp, what);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  try {
    sync_and_close(fd, temp, what);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    throw FileError("cannot rename " + quote(temp) + " to " + quote(path) + " (" + reason(error) + ")");
  }
  // Make the rename itself durable (best effort: some file systems refuse).
  const int dir_fd = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

// --- files of one run -------------------------------------------------------

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return normal_path(a) == normal_path(b);
}

void check_distinct_files(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedFile& out = outputs[i];
    if (out.path.empty()) continue;
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (!outputs[j].path.empty() && same_file(out.path, outputs[j].path))
        throw FileError(out.role + " " + quote(out.path) + " is also " + outputs[j].role + " (" +
                        quote(outputs[j].path) +
                        "): a run writes each file for one purpose; name another file");
    for (const NamedFile& in : inputs)
      if (!in.path.empty() && same_file(out.path, in.path))
        throw FileError(out.role + " " + quote(out.path) + " is " + in.role + " (" + quote(in.path) +
                        "), which the run reads: name another file for the output");
  }
}

// --- text on a terminal -------------------------------------------------------

int32_t decode_utf8(std::string_view text, std::size_t i, std::size_t& length) {
  length = 1;
  const auto c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return c;
  const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
  if (n == 0 || c > 0xF4 || i + n > text.size()) return -1;
  int32_t code = c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) return -1;
    code = (code << 6) | (next & 0x3F);
  }
  const int32_t smallest = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (code < smallest || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return -1;
  length = n;
  return code;
}

bool is_control(int32_t code) {
  if (code < 0x80) return (code < 0x20 && code != '\t' && code != '\n' && code != '\r') || code == 0x7F;
  return (code >= 0x80 && code <= 0x9F && code != 0x85) || code == 0xFFFE || code == 0xFFFF;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = 1;
    const int32_t code = decode_utf8(text, i, length);
    const bool shown = code >= 0 && code != '\r' && code != 0x85 && !is_control(code);
    if (shown) {
      out.append(text.substr(i, length));
    } else {
      for (std::size_t k = 0; k < length; ++k) {
        char hex[5];
        std::snprintf(hex, sizeof(hex), "\\x%02X", static_cast<unsigned char>(text[i + k]));
        out += hex;
      }
    }
    i += length;
  }
  return out;
}

}  // namespace rocketgym::files
