#include "core/text_field.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cfd {

void write_text_field(const std::string& path, long nx, long ny, const std::vector<double>& values) {
  if (static_cast<long>(values.size()) != nx * ny) throw std::logic_error("write_text_field: size mismatch");
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) throw std::runtime_error(tmp + ": cannot create");
  std::fprintf(f, "%ld %ld\n", nx, ny);
  for (double v : values) std::fprintf(f, "%.16e\n", v);
  const bool ok = std::ferror(f) == 0;
  if (std::fclose(f) != 0 || !ok) {
    std::remove(tmp.c_str());
    throw std::runtime_error(tmp + ": write failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error(path + ": cannot rename into place");
}

TextField read_text_field(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  TextField field;
  std::string line;
  long lineno = 0;
  auto where = [&] { return path + ":" + std::to_string(lineno) + ": "; };
  while (std::getline(in, line)) {
    ++lineno;
    if (line.find_first_not_of(" \t\r") != std::string::npos) break;
  }
  {
    std::istringstream header(line);
    std::string rest;
    if (!(header >> field.nx >> field.ny) || (header >> rest) || field.nx < 1 || field.ny < 1)
      throw std::runtime_error(where() + "expected a header 'nx ny' with two positive integers, got '" + line + "'");
  }
  field.values.reserve(field.nx * field.ny);
  while (std::getline(in, line)) {
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
    if (end == line.c_str() + first || *end != '\0' || errno == ERANGE)
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
