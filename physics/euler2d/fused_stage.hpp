// One Runge-Kutta stage of euler2d as one kernel: a team takes a tile of
// cells, computes the primitives of the tile and its two-cell margin into
// team scratch (GPU shared memory, CPU cache), the fluxes through the tile's
// x and y faces beside them, then the updated state, and on the last stage of
// a step the tile's bound on the next dt. Memory then sees each stage read
// U_in (and the RK base state) once and write U_out once, where the split
// kernels (euler2d_kernels.hpp) pass W and both flux arrays through memory as
// well. The cell physics is the split kernels' own functions, so the results
// are the same bits.
#pragma once

#include "physics/euler2d/euler2d_kernels.hpp"

#include <stdexcept>
#include <string>

namespace cfd::euler2d {

template <class Real, class Scheme, bool Blend>
struct FusedStage {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = Kokkos::View<Real***, Kokkos::LayoutRight, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryUnmanaged>;  // (slot, j, i) of a tile
  static constexpr bool host = std::is_same_v<ExecSpace, HostSpace>;
  // GPU: a tile of 32 x 8 cells, a thread each, about 39 KB of shared memory
  // in FP64 (within the 40 KB Kokkos leaves a block). CPU: 128 x 16 cells, a
  // few hundred KB, in the core's L2; a team is one thread.
  static constexpr int tile_i = host ? 128 : 32, tile_j = host ? 16 : 8, team_threads = host ? 1 : 256;
  // Teams a GPU multiprocessor should hold at once (launch bounds): the
  // compiler then keeps a thread within 64 registers. Left to itself it took
  // 100, room for two teams (25% occupancy), and the latency of the FP64
  // divisions showed; on an H200 FP64 plm + hlle + rk2 ran at 1.99e9
  // cell-updates/s with two teams, 2.3e9 with three, 2.79e9 with four
  // (4 x 41 KB of shared memory fit in an SM's 228 KB).
  static constexpr int teams_per_sm = host ? 0 : 4;
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<host ? 0 : team_threads, teams_per_sm>>;
  // Scratch slot of each primitive: rho, vx, vy, vz, then p, or for the
  // tutorial's scheme e (which its faces reconstruct), p then following from
  // e as cell_primitives computes it.
  static constexpr int slots = 5, last_slot = 4;

  Array3<Real> u_base, u_in, u_out;
  Array1<Real> dx, dy;
  Real gamma, a, b, dt;
  bool new_dt;           // last stage of a step: also each tile's bound on the next dt
  int tile[2];           // cells of a tile along i and j
  int tiles_i;           // tiles along i
  int begin[2], end[2];  // the block's own cells

  // Primitives of the cells in scratch, addressed with the block's indices.
  struct TilePrimitives {
    Scratch w;
    long j0, i0;  // block indices of the scratch's first cell
    Real gamma;
    KOKKOS_FORCEINLINE_FUNCTION Real operator()(int v, long j, long i) const {
      const long jj = j - j0, ii = i - i0;
      if (v < last_slot) return w(v, jj, ii);
      if constexpr (Scheme::tutorial) {
        if (v == IEI) return w(last_slot, jj, ii);
        return (gamma - Real(1)) * w(IDN, jj, ii) * w(last_slot, jj, ii);
      }
      return w(last_slot, jj, ii);
    }
  };

  static size_t scratch_bytes(int tile_i, int tile_j) {
    return Scratch::shmem_size(slots, tile_j + 2 * ghost, tile_i + 2 * ghost) +
           Scratch::shmem_size(NCONS, tile_j, tile_i + 1) + Scratch::shmem_size(NCONS, tile_j + 1, tile_i);
  }

  // f(i, j) over [i0, i1) x [j0, j1). A GPU team's threads take the cells
  // in row order, thread r the cells r, r + 256, ...: a region a little
  // larger than the team (a tile's margin, its 33 x faces a row) then costs
  // one more pass of a few threads, not of every warp. On a CPU the team's
  // one thread walks the rows, each vectorised.
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION static void for_cells(const Member& team, long i0, long i1, long j0, long j1,
                                                    const F& f) {
    if constexpr (host) {
      for (long j = j0; j < j1; ++j) {
        CFD_SIMD
        for (long i = i0; i < i1; ++i) f(i, j);
      }
    } else {
      // 32-bit: a 64-bit division is a long subroutine on a GPU.
      const int width = int(i1 - i0), count = width * int(j1 - j0);
      for (int c = team.team_rank(); c < count; c += team.team_size()) f(i0 + c % width, j0 + c / width);
    }
  }
  // The minimum of f(i, j) over the same cells, folded into m.
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION static void min_over_cells(const Member& team, long i0, long i1, long j0, long j1,
                                                         const F& f, Real& m) {
    Real least = m;
    if constexpr (host) {
      for (long j = j0; j < j1; ++j) {
#if defined(KOKKOS_ENABLE_OPENMP) && defined(_OPENMP) && !defined(__CUDA_ARCH__)
#pragma omp simd reduction(min : least)
#endif
        for (long i = i0; i < i1; ++i) {
          const Real value = f(i, j);
          least = value < least ? value : least;
        }
      }
    } else {
      const int width = int(i1 - i0), count = width * int(j1 - j0);
      for (int c = team.team_rank(); c < count; c += team.team_size()) {
        const Real value = f(i0 + c % width, j0 + c / width);
        least = value < least ? value : least;
      }
    }
    if (least < m) m = least;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Real unused = 0;
    stage(team, unused);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, Real& dt_bound) const { stage(team, dt_bound); }

  KOKKOS_INLINE_FUNCTION void stage(const Member& team, Real& dt_bound) const {
    const int ti = team.league_rank() % tiles_i, tj = team.league_rank() / tiles_i;
    const long i0 = begin[0] + long(ti) * tile[0], j0 = begin[1] + long(tj) * tile[1];
    const long i1 = i0 + tile[0] < end[0] ? i0 + tile[0] : end[0], j1 = j0 + tile[1] < end[1] ? j0 + tile[1] : end[1];
    Scratch w(team.team_scratch(0), slots, tile[1] + 2 * ghost, tile[0] + 2 * ghost);
    Scratch fx(team.team_scratch(0), NCONS, tile[1], tile[0] + 1);
    Scratch fy(team.team_scratch(0), NCONS, tile[1] + 1, tile[0]);
    const TilePrimitives prims{w, j0 - ghost, i0 - ghost, gamma};
    for_cells(team, i0 - ghost, i1 + ghost, j0 - ghost, j1 + ghost, StorePrimitives{u_in, prims});
    team.team_barrier();
    for_cells(team, i0, i1 + 1, j0, j1, StoreFluxes<0>{prims, fx, j0, i0});
    for_cells(team, i0, i1, j0, j1 + 1, StoreFluxes<1>{prims, fy, j0, i0});
    team.team_barrier();
    for_cells(team, i0, i1, j0, j1, StoreUpdate{u_base, u_in, u_out, dx, dy, fx, fy, j0, i0, a, b, dt});
    if (new_dt) min_over_cells(team, i0, i1, j0, j1, DtBound{u_out, dx, dy, gamma}, dt_bound);
  }

  // The parts of a stage, cell by cell. Functors, not lambdas: GCC inlines
  // these into the vectorised loops, where it kept the lambdas as calls.

  // The primitives of the tile and its margin (the margin's corners are not
  // read, but a rectangle is simpler to walk).
  struct StorePrimitives {
    Array3<Real> u;
    TilePrimitives prims;
    KOKKOS_FORCEINLINE_FUNCTION void operator()(long i, long j) const {
      const CellPrimitives<Real> c = cell_primitives<Scheme::reciprocal>(u, j, i, prims.gamma);
      const long jj = j - prims.j0, ii = i - prims.i0;
      prims.w(IDN, jj, ii) = c.rho;
      prims.w(IVX, jj, ii) = c.vx;
      prims.w(IVY, jj, ii) = c.vy;
      prims.w(IVZ, jj, ii) = c.vz;
      prims.w(last_slot, jj, ii) = Scheme::tutorial ? c.e : c.p;
    }
  };

  // The fluxes through the tile's faces normal to Dir: x faces i0..i1 of its
  // rows, y faces j0..j1 of its columns.
  template <int Dir>
  struct StoreFluxes {
    TilePrimitives prims;
    Scratch flux;
    long j0, i0;  // block indices of the tile's first cell
    KOKKOS_FORCEINLINE_FUNCTION void operator()(long i, long j) const {
      const gas::Conserved<Real> f = FaceFlux<Real, Dir, Scheme>::flux(prims, j, i, prims.gamma);
      const long jj = j - j0, ii = i - i0;
      flux(IDN, jj, ii) = f.rho;
      flux(IM1, jj, ii) = f.mx;
      flux(IM2, jj, ii) = f.my;
      flux(IM3, jj, ii) = f.mz;
      flux(IEN, jj, ii) = f.energy;
    }
  };

  // The update. u_out may be u_base (the last stage writes the step's
  // result over its base): each cell reads its own base value before it
  // writes, and no cell reads another's. u_in is never written.
  struct StoreUpdate {
    Array3<Real> u_base, u_in, u_out;
    Array1<Real> dx, dy;
    Scratch fx, fy;
    long j0, i0;
    Real a, b, dt;
    KOKKOS_FORCEINLINE_FUNCTION void update(int v, long j, long i, long jj, long ii) const {
      u_out(v, j, i) = stage_value<Blend, Scheme::reciprocal>(Blend ? u_base(v, j, i) : Real(0), u_in(v, j, i),
                                                              fx(v, jj, ii), fx(v, jj, ii + 1), dx(i), fy(v, jj, ii),
                                                              fy(v, jj + 1, ii), dy(j), a, b, dt);
    }
    KOKKOS_FORCEINLINE_FUNCTION void operator()(long i, long j) const {
      const long jj = j - j0, ii = i - i0;
      update(IDN, j, i, jj, ii);
      update(IM1, j, i, jj, ii);
      update(IM2, j, i, jj, ii);
      update(IM3, j, i, jj, ii);
      update(IEN, j, i, jj, ii);
    }
  };

  // A cell's bound on the next dt, from the values just written (each thread
  // reads back its own cells).
  struct DtBound {
    Array3<Real> u;
    Array1<Real> dx, dy;
    Real gamma;
    KOKKOS_FORCEINLINE_FUNCTION Real operator()(long i, long j) const {
      return cell_dt_bound(cell_primitives(u, j, i, gamma), dx(i), dy(j), gamma);
    }
  };
};

// Runs one fused stage over the block's own cells [begin, end) and returns
// the block's bound on the next dt when new_dt (otherwise the largest Real).
template <class Real, class Scheme, bool Blend>
Real fused_stage(const Array3<Real>& u_base, const Array3<Real>& u_in, const Array3<Real>& u_out,
                 const Array1<Real>& dx, const Array1<Real>& dy, Real gamma, Real a, Real b, Real dt, bool new_dt,
                 const long (&begin)[2], const long (&end)[2]) {
  using Stage = FusedStage<Real, Scheme, Blend>;
  Real bound = Kokkos::reduction_identity<Real>::min();
  if (begin[0] >= end[0] || begin[1] >= end[1]) return bound;
  constexpr int tile_i = Stage::tile_i, tile_j = Stage::tile_j;
  const size_t bytes = Stage::scratch_bytes(tile_i, tile_j);
  if (bytes > team_scratch_limit())
    throw std::runtime_error("euler2d: the fused stage needs " + std::to_string(bytes) +
                             " bytes of shared memory per block, more than this GPU gives; set "
                             "euler2d.fused_stage: false");
  const int tiles_i = int((end[0] - begin[0] + tile_i - 1) / tile_i);
  const int tiles_j = int((end[1] - begin[1] + tile_j - 1) / tile_j);
  const Stage f{u_base,
                u_in,
                u_out,
                dx,
                dy,
                gamma,
                a,
                b,
                dt,
                new_dt,
                {tile_i, tile_j},
                tiles_i,
                {int(begin[0]), int(begin[1])},
                {int(end[0]), int(end[1])}};
  const auto policy =
      typename Stage::Policy(tiles_i * tiles_j, Stage::team_threads).set_scratch_size(0, Kokkos::PerTeam(bytes));
  if (new_dt)
    Kokkos::parallel_reduce("euler2d::fused_stage", policy, f, Kokkos::Min<Real>(bound));
  else
    Kokkos::parallel_for("euler2d::fused_stage", policy, f);
  return bound;
}

}  // namespace cfd::euler2d
