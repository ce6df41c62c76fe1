// problem: file: the primitives read from an HDF5 file, one value per cell,
// e.g. made with h5py (docs/own-problem.md) or a cfdrun snapshot of the same
// grid. Datasets rho, vx, vy and p (vx and vy may be left out: 0), at the
// file's root or in its group "fields" (a snapshot's), each of shape
// (ny, nx): y slowest, x fastest, as numpy indexes a[j, i]. Any floating
// or integer type; read as double (a float32 file exactly), then rounded to
// the working precision as every problem's state is. Every rank reads the
// whole arrays at the start and takes its own cells.
#include "core/hdf5_file.hpp"
#include "physics/euler2d/euler2d_params.hpp"
#include "physics/euler2d/problems/problem.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>

namespace cfd::euler2d {

namespace {

struct FileState {
  long nx = 0, ny = 0;
  std::array<double, 2> lo{0, 0}, hi{1, 1};
  std::vector<double> rho, vx, vy, p;  // (j, i), x fastest
};

std::vector<KeySpec> file_keys() {
  return {{"file.path", KeyType::string, "",
           "the HDF5 file of the initial state: datasets rho, vx, vy, p (vx, vy optional) of shape (ny, nx) at its "
           "root or in /fields (a cfdrun snapshot); relative to the case file's folder"}};
}

// The file's path: as given when absolute, else beside the case file.
std::string file_path(const Config& c) {
  const std::filesystem::path given = c.get_string("file.path");
  if (given.is_absolute()) return given.string();
  const std::filesystem::path folder = std::filesystem::path(c.source()).parent_path();
  return (folder / given).lexically_normal().string();
}

StateAt file_state(const Config& c, const Params& p) {
  const std::string path = file_path(c);
  if (c.get_string("file.path").empty()) c.reject("file.path", "give the HDF5 file of the initial state");
  auto state = std::make_shared<FileState>();
  state->nx = p.nx, state->ny = p.ny, state->lo = p.lo, state->hi = p.hi;
  try {
    if (!h5_is_hdf5(path)) c.reject("file.path", path + ": no such file, or not an HDF5 file");
    // A snapshot's fields, or a user's datasets at the root.
    const bool snapshot = !h5_list_group(path, "fields").empty();
    const std::string group = snapshot ? "fields/" : "";
    const std::vector<std::string> names = h5_list_group(path, snapshot ? "fields" : "/");
    const auto read = [&](const std::string& name, std::vector<double>& into, bool needed) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        if (needed) c.reject("file.path", path + ": no dataset " + group + name);
        into.assign(size_t(p.nx * p.ny), 0.0);
        return;
      }
      H5Array a = h5_read_array(path, group + name);
      if (a.dims.size() != 2 || long(a.dims[0]) != p.ny || long(a.dims[1]) != p.nx) {
        std::string shape;
        for (hsize_t d : a.dims) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
        c.reject("file.path", path + ": dataset " + group + name + " has shape (" + shape +
                                  "); the grid needs (ny, nx) = (" + std::to_string(p.ny) + ", " +
                                  std::to_string(p.nx) + ")");
      }
      into = std::move(a.values);
    };
    read("rho", state->rho, true);
    read("vx", state->vx, false);
    read("vy", state->vy, false);
    read("p", state->p, true);
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {
    c.reject("file.path", e.what());
  }
  // The cell whose centre is (x, y): the solver asks at the centres only.
  return [state](double x, double y, double, double) {
    const FileState& s = *state;
    const long i = std::lround((x - s.lo[0]) / (s.hi[0] - s.lo[0]) * double(s.nx) - 0.5);
    const long j = std::lround((y - s.lo[1]) / (s.hi[1] - s.lo[1]) * double(s.ny) - 0.5);
    if (i < 0 || i >= s.nx || j < 0 || j >= s.ny) return gas::Primitive<double>{NAN, NAN, NAN, 0, NAN};
    const size_t k = size_t(j * s.nx + i);
    return gas::Primitive<double>{s.rho[k], s.vx[k], s.vy[k], 0, s.p[k]};
  };
}

}  // namespace

namespace problems_list {
extern const Problem file{"file",    "rho, vx, vy and p read from an HDF5 file (key file.path)", 0, 1, file_keys,
                          file_state};
}  // namespace problems_list

}  // namespace cfd::euler2d
