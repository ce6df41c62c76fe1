// Domain decomposition: a process grid over the global grid, one block per
// rank, and what lies beyond each face of a block: a neighbour rank (periodic
// faces are neighbours too, the rank itself when it spans the direction) or a
// physical boundary. Modelled on Idefix's MPI_Cart grid (src/grid.hpp) and
// AthenaK's per-face neighbour records (src/mesh/meshblock.hpp).
#pragma once

#include "core/comm.hpp"
#include "core/config.hpp"
#include "core/grid.hpp"

#include <array>
#include <string>
#include <vector>

namespace cfd {

// What a face of the global domain is. Periodic faces are exchanged like the
// faces between ranks; the others are filled by fill_boundary (core/halo.hpp)
// after each direction's exchange. `none` leaves the ghost layers alone: the
// solver holds its boundary values on its own edge entries (diffusion's fixed
// edges, the end nodes of the KEEP scheme). `inflow` holds the ghost cells
// at values the solver gives per ghost cell and refreshes in time
// (FaceBoundaries::inflow), and acts as another kind where those do not apply.
enum class BoundaryKind { periodic, outflow, reflecting, fixed, none, inflow };
const char* name(BoundaryKind kind);

// One rank's block of a global grid.
struct Decomposition {
  Comm comm = Comm::world();           // the ranks of the process grid
  std::array<int, 3> ranks{1, 1, 1};   // process grid: ranks along x, y, z
  std::array<int, 3> coords{0, 0, 0};  // this rank's place in it
  GridBlock block;                     // this rank's block of the global grid
  // Rank across each face (side 0: low, 1: high), -1 for a physical boundary.
  std::array<std::array<int, 2>, 3> neighbour{{{-1, -1}, {-1, -1}, {-1, -1}}};

  bool has_neighbour(int dim, int side) const { return neighbour[dim][side] >= 0; }
  // Whether this block holds the low (side 0) or high (side 1) edge of the global grid.
  bool at_global_edge(int dim, int side) const {
    return side == 0 ? block.offset[dim] == 0 : block.offset[dim] + block.n[dim] == block.global_n[dim];
  }
  // The block of another rank (its offset and size), from its grid coordinates.
  GridBlock block_of(int rank) const;
  // "2 x 3" (x first)
  std::string process_grid() const;
};

// A process grid that cannot work; `key` is the case-file key at fault.
struct DecompositionError : std::invalid_argument {
  DecompositionError(std::string key_, const std::string& why) : std::invalid_argument(why), key(std::move(key_)) {}
  std::string key;
};

// Splits `whole` (the single block of the global grid, ghosts included) over
// the ranks of `comm`. `requested[d]` > 0 fixes the ranks along d (keys
// parallel.ranks_x, ...); the rest are chosen by MPI_Dims_create, the largest
// count along the slowest dimension, so blocks keep whole rows in memory.
// Blocks differ by at most one entry along each dimension and hold at least
// max(ghost, 2) entries. Throws DecompositionError.
Decomposition decompose(const GridBlock& whole, std::array<bool, 3> periodic, std::array<int, 3> requested = {0, 0, 0},
                        const Comm& comm = Comm::world());

// For the banner, on rank 0: "" on one rank, else the rank count, the process
// grid and the GPU of each rank ("2 ranks, process grid 1 x 2; GPU of each
// rank: 0 1; ...\n").
std::string describe_ranks(const Decomposition& dec);

// The `parallel` section of an ndim-dimensional solver: parallel.ranks_x, ...
std::vector<KeySpec> parallel_keys(int ndim);
// decompose() with the ranks the case asks for; a process grid that cannot
// work is a ConfigError naming the case file and key.
Decomposition decompose_case(const Config& config, const GridBlock& whole, std::array<bool, 3> periodic,
                             const Comm& comm = Comm::world());

// The entries [offset, offset + n) that rank `coord` of `ranks` owns of `count`.
inline void split_evenly(long count, int ranks, int coord, long& offset, long& n) {
  const long base = count / ranks, extra = count % ranks;
  n = base + (coord < extra ? 1 : 0);
  offset = coord * base + (coord < extra ? coord : extra);
}

}  // namespace cfd
