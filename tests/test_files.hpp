// What the tests that write files share: a fresh temporary folder and a
// file's whole text.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace cfd::test {

// A folder under the system's temporary folder, named by `name` and this
// process, removed with anything in it; not created.
inline std::string fresh_dir(const std::string& name) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("cfdrun_test_" + name + "_" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  return dir;
}

// The whole text of the file at `path` ("" if it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace cfd::test
