#include "training/progress_line.h"

#include <sys/ioctl.h>
#include <unistd.h>

namespace rocketgym {

ProgressLine::Mode ProgressLine::mode_for(std::FILE* stream) {
  return ::isatty(::fileno(stream)) ? Mode::kInPlace : Mode::kLines;
}

ProgressLine::ProgressLine(Mode mode, std::FILE* stream, int width)
    : mode_(mode), stream_(stream), width_(width) {
  if (mode_ == Mode::kInPlace && width_ < 0) {
    winsize size{};
    width_ = ::ioctl(::fileno(stream_), TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
  }
}

void ProgressLine::show(const std::string& status) {
  switch (mode_) {
    case Mode::kQuiet:
      return;
    case Mode::kLines:
      std::fprintf(stream_, "%s\n", status.c_str());
      break;
    case Mode::kInPlace: {
      // The last column stays free: a full line would move the cursor to the next one.
      const std::string shown = width_ > 1 && status.size() >= static_cast<std::size_t>(width_)
                                    ? status.substr(0, width_ - 1)
                                    : status;
      std::fprintf(stream_, "\r%s\033[K", shown.c_str());  // ESC[K: clears the rest of the old line
      open_ = true;
      break;
    }
  }
  std::fflush(stream_);
}

void ProgressLine::finish() {
  if (!open_) return;
  std::fprintf(stream_, "\n");
  std::fflush(stream_);
  open_ = false;
}

}  // namespace rocketgym
