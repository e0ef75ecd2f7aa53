// How the commands declare their options, so that every command treats a
// kind of option the same way: numbers are checked by number_checks.h, paths
// and renamed flags here.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "training/cli/number_checks.h"

namespace rocketgym::cli {

// A path given as an empty text ("--run-dir ''"): exit status 1 with a
// message naming the option, as for any other bad argument of ours, instead
// of silently reading it as "not given" or as the current folder.
class EmptyPathError : public CLI::ParseError {
 public:
  explicit EmptyPathError(const std::string& option)
      : CLI::ParseError("EmptyPathError", option + ": the path is empty; give a file or folder name", 1) {}
};

// The check every path-valued option and argument carries.
inline CLI::Validator non_empty_path(const std::string& option) {
  return CLI::Validator(
      [option](std::string& text) -> std::string {
        if (text.empty()) throw EmptyPathError(option);
        return "";
      },
      "PATH");
}

// A path option (or positional argument, `name` without dashes); `existing`:
// it must name an existing file.
template <class T>
CLI::Option* add_path_option(CLI::App* cmd, const std::string& name, T& value, const std::string& description,
                             bool existing = false) {
  const std::string shown = name.rfind("-", 0) == 0 ? name.substr(name.rfind(',') + 1) : name;
  CLI::Option* option = cmd->add_option(name, value, description)->check(non_empty_path(shown));
  if (existing) option->check(CLI::ExistingFile);
  return option;
}

// An option renamed for one name per concept across the commands: `old_name`
// still works for one release, sets the same value and warns. Returns the
// old name's option (e.g. to add the same checks).
template <class T>
CLI::Option* add_old_name(CLI::App* cmd, CLI::Option* renamed, const std::string& old_name, T& value) {
  const std::string now = renamed->get_name();
  CLI::Option* old = cmd->add_option(old_name, value, "deprecated name of " + now)->group("Deprecated");
  old->excludes(renamed);
  old->each([old_name, now](const std::string&) {
    std::fprintf(stderr, "warning: %s is deprecated and will be removed in the next release; use %s\n",
                 old_name.c_str(), now.c_str());
  });
  return old;
}

}  // namespace rocketgym::cli
