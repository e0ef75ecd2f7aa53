// Scratch folders for tests that write files: <system temp>/rocketgym_<name>_<pid>.
// The process id keeps two test processes apart (ctest -j); the name keeps the
// tests of one process apart, so each test gives its own.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
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

// ROCKETGYM_ZOO_DIR pointed at a fresh folder for one test, then restored and
// the folder removed: a test writes the zoo files it needs there.
struct ZooDirForTest {
  std::filesystem::path dir;
  std::string saved;
  bool had = false;
  explicit ZooDirForTest(const std::string& name) : dir(fresh_dir(name)) {
    std::filesystem::create_directories(dir);
    if (const char* before = std::getenv("ROCKETGYM_ZOO_DIR")) {
      saved = before;
      had = true;
    }
    ::setenv("ROCKETGYM_ZOO_DIR", dir.c_str(), 1);
  }
  ~ZooDirForTest() {
    if (had)
      ::setenv("ROCKETGYM_ZOO_DIR", saved.c_str(), 1);
    else
      ::unsetenv("ROCKETGYM_ZOO_DIR");
    std::filesystem::remove_all(dir);
  }
  ZooDirForTest(const ZooDirForTest&) = delete;
  ZooDirForTest& operator=(const ZooDirForTest&) = delete;
  std::string file(const std::string& name) const { return (dir / name).string(); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir / name) << text; }
};

}  // namespace rocketgym::testing
