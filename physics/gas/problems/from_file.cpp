// problem: file: the primitives read from an HDF5 file, one value per cell,
// e.g. made with h5py (docs/own-problem.md) or a cfdrun snapshot of the same
// grid. Datasets rho, vx, vy and p (vx and vy may be left out: 0), at the
// file's root or in its group "fields" (a snapshot's), each of shape
// (ny, nx): y slowest, x fastest, as numpy indexes a[j, i]; on a 3D grid
// (grid.nz > 1) vz too (optional) and the shape (nz, ny, nx), a[k, j, i].
// Any floating or integer type; read as double (a float32 file exactly),
// then rounded to the working precision as every problem's state is. Every
// rank reads the whole arrays at the start and takes its own cells.
#include "core/initial_file.hpp"
#include "physics/gas/problems/problem.hpp"

#include <cmath>
#include <memory>

namespace cfd::gas {

namespace {

struct FileState {
  long nx = 0, ny = 0, nz = 1;
  std::array<double, 3> lo{0, 0, 0}, hi{1, 1, 1};
  std::vector<double> rho, vx, vy, vz, p;  // (k, j, i), x fastest; vz empty on a 2D grid
  // The index of the cell whose centre is at x along d (-1 outside).
  long cell(int d, double x) const {
    const long n = d == 0 ? nx : d == 1 ? ny : nz;
    const long i = std::lround((x - lo[d]) / (hi[d] - lo[d]) * double(n) - 0.5);
    return i < 0 || i >= n ? -1 : i;
  }
};

std::vector<KeySpec> file_keys() {
  return {initial_file_key(
      "datasets rho, vx, vy, p (vx, vy optional) of shape (ny, nx), on a 3D grid also vz (optional) and the shape "
      "(nz, ny, nx), at its root or in /fields (a cfdrun snapshot)")};
}

StateAt file_state(const Config& c, Setting& p) {
  auto state = std::make_shared<FileState>();
  state->nx = p.nx, state->ny = p.ny, state->nz = p.nz, state->lo = p.lo, state->hi = p.hi;
  if (p.three_d()) {
    auto fields = read_initial_file(c, "file.path", {"rho", "vx", "vy", "vz", "p"}, {"vx", "vy", "vz"},
                                    {p.nz, p.ny, p.nx}, "(nz, ny, nx)");
    state->rho = std::move(fields[0]), state->vx = std::move(fields[1]), state->vy = std::move(fields[2]);
    state->vz = std::move(fields[3]), state->p = std::move(fields[4]);
  } else {  // a 2D file has no vz (a snapshot's, advected, is not read)
    auto fields = read_initial_file(c, "file.path", {"rho", "vx", "vy", "p"}, {"vx", "vy"}, {p.ny, p.nx}, "(ny, nx)");
    state->rho = std::move(fields[0]), state->vx = std::move(fields[1]), state->vy = std::move(fields[2]);
    state->p = std::move(fields[3]);
  }
  // The cell whose centre is (x, y, z): the solver asks at the centres only.
  return [state](double x, double y, double z, double) {
    const FileState& s = *state;
    const long i = s.cell(0, x), j = s.cell(1, y), k = s.nz > 1 ? s.cell(2, z) : 0;
    if (i < 0 || j < 0 || k < 0) return gas::Primitive<double>{NAN, NAN, NAN, 0, NAN};
    const size_t at = size_t((k * s.ny + j) * s.nx + i);
    return gas::Primitive<double>{s.rho[at], s.vx[at], s.vy[at], s.vz.empty() ? 0.0 : s.vz[at], s.p[at]};
  };
}

}  // namespace

namespace problems_list {
extern const Problem file{
    "file", "rho, vx, vy (vz in 3D) and p read from an HDF5 file (key file.path)", 0, 1, file_keys, file_state};
}  // namespace problems_list

}  // namespace cfd::gas
