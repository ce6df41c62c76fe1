// What the fused stages of 2D and 3D blocks share about a tile of cells
// held in fast memory (team scratch: GPU shared memory, CPU cache): a row
// from a cell's place in the tile, a team's walk over a tile's cells, a
// minimum over them, and TileFaces, the fluxes through the faces of a tile
// of cells in a plane. Neither stage owns it.
#pragma once

#include "physics/euler/face_flux.hpp"

namespace cfd::euler {

// c / width by a multiply and a shift, (c * magic) >> 16 with magic =
// ceil(2^16 / width): exact while c * width < 2^16. An integer division is a
// subroutine of about twenty instructions on a GPU; the fused stage's walks
// over its tile take this at every cell.
struct RowOfCell {
  unsigned magic;
  KOKKOS_INLINE_FUNCTION explicit RowOfCell(int width) : magic((65536u + unsigned(width) - 1u) / unsigned(width)) {}
  KOKKOS_INLINE_FUNCTION int operator()(int c) const { return int((unsigned(c) * magic) >> 16); }
};

// f(i, j) over [i0, i1) x [j0, j1), by a team of the fused stages (2D and
// 3D). A GPU team's threads take the cells in row order, thread r the cells
// r, r + team size, ...: a region a little larger than the team (a tile's
// margin, its 33 x faces a row) then costs one more pass of a few threads,
// not of every warp. On a CPU the team's one thread walks the rows, each
// vectorised. Row and column of a cell come without a division (RowOfCell:
// the caller keeps (i1 - i0)^2 * (j1 - j0) below 2^16).
template <class Member, class F>
KOKKOS_FORCEINLINE_FUNCTION void for_tile_cells(const Member& team, long i0, long i1, long j0, long j1, const F& f) {
  if constexpr (host_backend) {
    for (long j = j0; j < j1; ++j) {
      CFD_SIMD
      for (long i = i0; i < i1; ++i) f(i, j);
    }
  } else {
    const int width = int(i1 - i0), count = width * int(j1 - j0);
    const RowOfCell row_of(width);
    for (int c = team.team_rank(); c < count; c += team.team_size()) {
      const int row = row_of(c);
      f(i0 + (c - row * width), j0 + row);
    }
  }
}

// The minimum of f(i, j) over the cells [i0, i1) x [j0, j1), folded into m:
// a CPU team's (one thread), by vectorised rows.
template <class Real, class F>
KOKKOS_FORCEINLINE_FUNCTION void min_over_tile_cells(long i0, long i1, long j0, long j1, const F& f, Real& m) {
  Real least = m;
  for (long j = j0; j < j1; ++j) {
#if defined(KOKKOS_ENABLE_OPENMP) && defined(_OPENMP) && !defined(__CUDA_ARCH__)
#pragma omp simd reduction(min : least)
#endif
    for (long i = i0; i < i1; ++i) {
      const Real value = f(i, j);
      least = value < least ? value : least;
    }
  }
  if (least < m) m = least;
}

// The fluxes through the faces of a tile of cells in a plane, as the 2D
// fused stage and each plane of the 3D one compute them: from the
// primitives of the tile and its two-cell margin in scratch, prims(v, j, i)
// (slots IDN..IPR),
// first each cell's limited slopes along the direction into scratch (when
// SlopesStored: each slope once, where a face would compute its two cells'
// slopes, so each twice; van Leer's slope is a division, and divisions are
// what a GPU's stage spends most of its instructions on), then the flux
// through each face. The functions are FaceFlux's, so the bits are the
// split kernels'.
template <class Real, class Scheme, bool SlopesStored>
struct TileFaces {
  // Slot of primitive v in the slopes' scratch: IDN..IPR (no slope of W's
  // slot after the pressure, which only the tutorial's faces read).
  static constexpr int last_slot = IPR;
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int slot(int v) { return v < last_slot ? v : last_slot; }

  // The primitives with their cells' slopes along one direction (FaceFlux
  // reads them through slope()).
  template <class Prims, class Scratch>
  struct WithSlopes {
    static constexpr bool stores_slopes = true;
    Prims prims;
    Scratch slopes;
    long j0, i0;  // block indices of the slopes' first cell
    KOKKOS_FORCEINLINE_FUNCTION Real operator()(int v, long j, long i) const { return prims(v, j, i); }
    KOKKOS_FORCEINLINE_FUNCTION Real slope(int v, long j, long i) const { return slopes(slot(v), j - j0, i - i0); }
  };

  // The limited slopes along Dir of a cell's primitives, as FaceFlux would
  // compute them (the same function, so the same bits). Functors, not
  // lambdas: GCC inlines these into the vectorised loops, where it kept the
  // lambdas as calls.
  template <int Dir, class Tile>
  struct StoreSlopes {
    Tile tile;
    KOKKOS_FORCEINLINE_FUNCTION void operator()(long i, long j) const {
      using Face = FaceFlux<Real, Dir, Scheme>;
      const long jj = j - tile.j0, ii = i - tile.i0;
      tile.slopes(IDN, jj, ii) = Face::cell_slope(tile.prims, IDN, j, i);
      tile.slopes(IVX, jj, ii) = Face::cell_slope(tile.prims, IVX, j, i);
      tile.slopes(IVY, jj, ii) = Face::cell_slope(tile.prims, IVY, j, i);
      tile.slopes(IVZ, jj, ii) = Face::cell_slope(tile.prims, IVZ, j, i);
      tile.slopes(last_slot, jj, ii) = Face::cell_slope(tile.prims, IPR, j, i);
    }
  };

  // The fluxes through the tile's faces normal to Dir: x faces i0..i1 of its
  // rows, y faces j0..j1 of its columns.
  template <int Dir, class W, class Scratch>
  struct StoreFluxes {
    W w;
    Scratch flux;
    long j0, i0;  // block indices of the tile's first cell
    Real gamma;
    KOKKOS_FORCEINLINE_FUNCTION void operator()(long i, long j) const {
      store_flux(flux, FaceFlux<Real, Dir, Scheme>::flux(w, gamma, j, i), j - j0, i - i0);
    }
  };

  // The fluxes through the faces normal to Dir (0: x, 1: y) of the tile's
  // cells [i0, i1) x [j0, j1) into flux, from the primitives and, where
  // stored, the slopes of the cells either side (computed first, then a
  // barrier).
  template <int Dir, class Member, class Prims, class Scratch>
  KOKKOS_FORCEINLINE_FUNCTION static void fluxes(const Member& team, const Prims& prims, const Scratch& slopes,
                                                 const Scratch& flux, long i0, long i1, long j0, long j1, Real gamma) {
    const long di = Dir == 0 ? 1 : 0, dj = Dir == 0 ? 0 : 1;
    if constexpr (SlopesStored) {
      using Tile = WithSlopes<Prims, Scratch>;
      const Tile tile{prims, slopes, j0 - dj, i0 - di};
      for_tile_cells(team, i0 - di, i1 + di, j0 - dj, j1 + dj, StoreSlopes<Dir, Tile>{tile});
      team.team_barrier();
      for_tile_cells(team, i0, i1 + di, j0, j1 + dj, StoreFluxes<Dir, Tile, Scratch>{tile, flux, j0, i0, gamma});
    } else {
      for_tile_cells(team, i0, i1 + di, j0, j1 + dj, StoreFluxes<Dir, Prims, Scratch>{prims, flux, j0, i0, gamma});
    }
  }
};

}  // namespace cfd::euler
