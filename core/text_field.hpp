// The original Fortran study's text format for a 2D field: a first line
// "nx ny", then one value per line, i fastest (column-major), 17 significant
// digits. Users diff cfdrun against their Fortran results with it.
#pragma once

#include <string>
#include <vector>

namespace cfd {

struct TextField {
  long nx = 0, ny = 0;
  std::vector<double> values;  // i fastest
};

// Written as path.tmp and renamed when complete.
void write_text_field(const std::string& path, long nx, long ny, const std::vector<double>& values);
// Throws std::runtime_error naming the file and line of the first problem.
TextField read_text_field(const std::string& path);

}  // namespace cfd
