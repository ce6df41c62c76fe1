// An initial state read from an HDF5 file that a user wrote (h5py) or a
// cfdrun snapshot of the same grid: the datasets at the file's root or in
// its group "fields", each of the grid's shape in numpy's order (y slowest,
// x fastest), any floating or integer type read as double. The key that
// names the file (file.path) is relative to the case file's folder. Every
// rank reads the whole arrays; a file that is missing, not HDF5, lacks a
// dataset or has another shape is refused (Config::reject) with the reason.
// Used by euler's problem: file, sod's and diffusion's initial: file.
#pragma once

#include "core/config.hpp"

#include <string>
#include <vector>

namespace cfd {

// The key file.path of a solver's initial state from a file: "the HDF5 file
// of the initial state: <datasets>; relative to the case file's folder".
KeySpec initial_file_key(const std::string& datasets);

// The path the key gives: as written when absolute, else beside the case file.
std::string case_relative_path(const Config& c, const std::string& key);

// The datasets `names` of the file that key `path_key` names, in that
// order; those in `optional` may be missing and are then zeros. `shape`
// slowest first (ny, nx) or (nx); `shape_names` says it in the messages
// ("(ny, nx)").
std::vector<std::vector<double>> read_initial_file(const Config& c, const std::string& path_key,
                                                   const std::vector<std::string>& names,
                                                   const std::vector<std::string>& optional,
                                                   const std::vector<long>& shape, const std::string& shape_names);

}  // namespace cfd
