// Scratch folders for tests that write files: <system temp>/rocketgym_<name>_<pid>.
// The process id keeps two test processes apart (ctest -j); the name keeps the
// tests of one process apart, so each test gives its own.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace rocketgym::testing {

// The folder for `name`, emptied (removed if it was there), not created: for
// code under test that must create it itself.
inline std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rocketgym_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

// The folder for `name`, created empty, removed with the object.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name) : path(fresh_dir(name)) {
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& file) const { return (path / file).string(); }
};

}  // namespace rocketgym::testing
