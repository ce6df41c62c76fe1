#include "core/text_field.hpp"

#include "core/safe_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cfd {

void write_text_field(const std::string& path, long nx, long ny, const std::vector<double>& values) {
  if (static_cast<long>(values.size()) != nx * ny) throw std::logic_error("write_text_field: size mismatch");
  std::string text = std::to_string(nx) + " " + std::to_string(ny) + "\n";
  text.reserve(text.size() + values.size() * 24);
  char line[40];
  for (double v : values) {
    std::snprintf(line, sizeof line, "%.16e\n", v);
    text += line;
  }
  files::write_file_atomically(path, text);
}

namespace {

// The longest line read: a number with Fortran's padding is far shorter, and
// a binary file without newlines must not be read into one string whole.
constexpr size_t max_line = 4096;

// The next line of `in` without its newline; false at the end of the input.
bool next_line(std::istream& in, std::string& line, const std::string& where_next) {
  line.clear();
  for (int c; (c = in.get()) != std::char_traits<char>::eof();) {
    if (c == '\n') return true;
    if (line.size() == max_line)
      throw std::runtime_error(where_next + "a line longer than " + std::to_string(max_line) +
                               " characters: not a text field");
    line.push_back(static_cast<char>(c));
  }
  return !line.empty();
}

}  // namespace

TextField read_text_field(const std::string& path) {
  // Only a regular file has an end: a device (/dev/zero) or a pipe may not.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::runtime_error(path + (std::filesystem::exists(path, ec) ? ": not a regular file" : ": cannot open"));
  const auto file_bytes = std::filesystem::file_size(path, ec);
  std::ifstream in(path);
  if (!in || ec) throw std::runtime_error(path + ": cannot open");
  TextField field;
  std::string line;
  long lineno = 0;
  auto where = [&] { return path + ":" + std::to_string(lineno) + ": "; };
  auto where_next = [&] { return path + ":" + std::to_string(lineno + 1) + ": "; };
  while (next_line(in, line, where_next())) {
    ++lineno;
    if (line.find_first_not_of(" \t\r") != std::string::npos) break;
  }
  {
    std::istringstream header(line);
    std::string rest;
    if (!(header >> field.nx >> field.ny) || (header >> rest) || field.nx < 1 || field.ny < 1)
      throw std::runtime_error(where() + "expected a header 'nx ny' with two positive integers, got '" + line + "'");
  }
  if (field.nx > (1L << 40) / field.ny)
    throw std::runtime_error(where() + "nx*ny = " + std::to_string(field.nx) + "*" + std::to_string(field.ny) +
                             " is not the size of a field");
  // Each value takes two bytes at least ("0" and a newline).
  if (static_cast<std::uintmax_t>(field.nx * field.ny) > file_bytes / 2)
    throw std::runtime_error(path + ": expected nx*ny = " + std::to_string(field.nx * field.ny) + " values, but the " +
                             std::to_string(file_bytes) + "-byte file cannot hold them");
  field.values.reserve(static_cast<size_t>(std::min(field.nx * field.ny, 1L << 24)));
  while (next_line(in, line, where_next())) {
    ++lineno;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    // Fortran writes exponents as 1.0D-05 too.
    for (auto& c : line)
      if (c == 'D' || c == 'd') c = 'e';
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(line.c_str() + first, &end);
    while (end && (*end == ' ' || *end == '\t' || *end == '\r')) ++end;
    // ERANGE on underflow still gives the (subnormal) number: cfdrun's own
    // %.16e text holds values such as 6.5e-322. Overflow is an error.
    const bool overflow = errno == ERANGE && std::fabs(v) > 1.0;
    if (end == line.c_str() + first || *end != '\0' || overflow)
      throw std::runtime_error(where() + "expected one number per line, got '" + line + "'");
    if (static_cast<long>(field.values.size()) == field.nx * field.ny)
      throw std::runtime_error(where() + "more values than nx*ny = " + std::to_string(field.nx * field.ny));
    field.values.push_back(v);
  }
  if (static_cast<long>(field.values.size()) != field.nx * field.ny)
    throw std::runtime_error(path + ": expected nx*ny = " + std::to_string(field.nx * field.ny) + " values, found " +
                             std::to_string(field.values.size()));
  return field;
}

}  // namespace cfd
