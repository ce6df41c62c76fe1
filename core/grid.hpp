// A uniform structured grid, held as one block of a global grid.
//
// Solvers index their Views in local storage indices 0 .. extent(d)-1, which
// include `ghost` layers on each side. The block knows where it sits in the
// global grid (offset) so that boundary conditions, output coordinates and,
// later, MPI decomposition and restart are written against global indices.
// A run on one process is the block that covers the whole global grid.
#pragma once

#include <array>
#include <stdexcept>
#include <string>

namespace cfd {

// Where the unknowns sit: on grid points (diffusion, sod) or at cell centres
// between faces (finite volumes).
enum class Centering { node, cell };

struct GridBlock {
  int ndim = 1;
  Centering centering = Centering::node;
  std::array<long, 3> global_n{1, 1, 1};  // points or cells of the global grid
  std::array<long, 3> offset{0, 0, 0};    // global index of the first owned entry
  std::array<long, 3> n{1, 1, 1};         // owned entries in this block
  int ghost = 0;                          // ghost layers per side, used dimensions only
  std::array<double, 3> lo{0, 0, 0};      // global domain, first/last point or outer faces
  std::array<double, 3> hi{1, 1, 1};

  // The single block covering a global grid of `count` entries per dimension.
  static GridBlock whole(int ndim, Centering centering, std::array<long, 3> count, int ghost, std::array<double, 3> lo,
                         std::array<double, 3> hi) {
    if (ndim < 1 || ndim > 3) throw std::invalid_argument("GridBlock: ndim must be 1, 2 or 3");
    GridBlock b;
    b.ndim = ndim;
    b.centering = centering;
    b.ghost = ghost;
    for (int d = 0; d < 3; ++d) {
      b.global_n[d] = d < ndim ? count[d] : 1;
      b.n[d] = b.global_n[d];
      b.lo[d] = lo[d];
      b.hi[d] = hi[d];
      if (b.global_n[d] < 1) throw std::invalid_argument("GridBlock: empty dimension");
    }
    return b;
  }

  int ghost_in(int d) const { return d < ndim ? ghost : 0; }
  // Allocated entries along d, ghosts included.
  long extent(int d) const { return n[d] + 2 * ghost_in(d); }
  // Local storage index of the first and one past the last owned entry.
  long begin(int d) const { return ghost_in(d); }
  long end(int d) const { return ghost_in(d) + n[d]; }
  long global_index(int d, long local) const { return offset[d] + local - ghost_in(d); }
  long owned_count() const { return n[0] * n[1] * n[2]; }
  long global_count() const { return global_n[0] * global_n[1] * global_n[2]; }

  // Spacing: between points for node grids, between faces for cell grids.
  double spacing(int d) const {
    const long intervals = centering == Centering::node ? global_n[d] - 1 : global_n[d];
    return intervals > 0 ? (hi[d] - lo[d]) / intervals : 0.0;
  }
  // Coordinate of global entry g (point or cell centre).
  double coordinate(int d, long g) const {
    return lo[d] + (static_cast<double>(g) + (centering == Centering::cell ? 0.5 : 0.0)) * spacing(d);
  }
  // Coordinate of the lower face of global cell g (cell grids).
  double face(int d, long g) const { return lo[d] + static_cast<double>(g) * spacing(d); }
};

}  // namespace cfd
