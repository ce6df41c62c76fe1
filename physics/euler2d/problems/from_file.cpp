// problem: file: the primitives read from an HDF5 file, one value per cell,
// e.g. made with h5py (docs/own-problem.md) or a cfdrun snapshot of the same
// grid. Datasets rho, vx, vy and p (vx and vy may be left out: 0), at the
// file's root or in its group "fields" (a snapshot's), each of shape
// (ny, nx): y slowest, x fastest, as numpy indexes a[j, i]. Any floating
// or integer type; read as double (a float32 file exactly), then rounded to
// the working precision as every problem's state is. Every rank reads the
// whole arrays at the start and takes its own cells.
#include "core/initial_file.hpp"
#include "physics/euler2d/euler2d_params.hpp"
#include "physics/euler2d/problems/problem.hpp"

#include <cmath>
#include <memory>

namespace cfd::euler2d {

namespace {

struct FileState {
  long nx = 0, ny = 0;
  std::array<double, 3> lo{0, 0, 0}, hi{1, 1, 1};
  std::vector<double> rho, vx, vy, p;  // (j, i), x fastest
};

std::vector<KeySpec> file_keys() {
  return {initial_file_key(
      "datasets rho, vx, vy, p (vx, vy optional) of shape (ny, nx) at its root or in /fields (a cfdrun snapshot)")};
}

StateAt file_state(const Config& c, const Params& p) {
  auto state = std::make_shared<FileState>();
  state->nx = p.nx, state->ny = p.ny, state->lo = p.lo, state->hi = p.hi;
  auto fields = read_initial_file(c, "file.path", {"rho", "vx", "vy", "p"}, {"vx", "vy"}, {p.ny, p.nx}, "(ny, nx)");
  state->rho = std::move(fields[0]), state->vx = std::move(fields[1]), state->vy = std::move(fields[2]);
  state->p = std::move(fields[3]);
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
