// One Runge-Kutta stage of euler as one kernel: a team takes a tile of
// cells, computes the primitives of the tile and its two-cell margin into
// team scratch (GPU shared memory, CPU cache), then for x and then y the
// cells' limited slopes and the fluxes through the tile's faces, then the
// updated state, and on the last stage of a step the tile's bound on the
// next dt. Memory then sees each stage read U_in (and the RK base state)
// once and write U_out once, where the split kernels (split_kernels.hpp)
// pass W and both flux arrays through memory as well. The cell physics is
// the split kernels' own functions, so the results are the same bits.
#pragma once

#include "physics/euler/split_kernels.hpp"
#include "physics/euler/tile.hpp"

#include <stdexcept>
#include <string>

namespace cfd::euler {

template <class Real, class Scheme, bool Blend>
struct FusedStage2d {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using ScratchSpace = typename ExecSpace::scratch_memory_space;
  using Scratch = Kokkos::View<Real***, Kokkos::LayoutRight, ScratchSpace, Kokkos::MemoryUnmanaged>;  // (slot, j, i)
  using ScratchPool = Kokkos::View<Real*, ScratchSpace, Kokkos::MemoryUnmanaged>;  // a region Scratch views share
  // GPU: a tile of 32 x 8 cells, a thread each, 41,624 bytes of shared
  // memory in FP64 (a block of 256 threads may have 47,080 of 49,152, and
  // four such blocks fit an H200 multiprocessor). CPU: 128 x 16 cells, a few
  // hundred KB, in the core's L2; a team is one thread.
  static constexpr int tile_i = host_backend ? 128 : 32, tile_j = host_backend ? 16 : 8,
                       team_threads = host_backend ? 1 : 256;
  static_assert(host_backend || team_threads == tile_i * tile_j, "a GPU thread owns one cell of the tile");
  // Scratch slot of each primitive: rho, vx, vy, vz, then p, or for the
  // tutorial's scheme e (which its faces reconstruct), p then following from
  // e as cell_primitives computes it.
  static constexpr int slots = 5, last_slot = 4;
  // The limited slopes of the tile's cells along one direction at a time,
  // each computed once (TileFaces). Not for the tutorial's scheme, which
  // reconstructs six quantities as the Fortran does.
  static constexpr bool slopes_stored = Scheme::plm && !Scheme::tutorial;
  // GPU: the x and y fluxes take turns in one scratch region, each thread
  // keeping its cell's x part of the update in registers meanwhile, so that
  // the tile fits a block's shared memory with the slopes. CPU: one region
  // each, the update reading both.
  static constexpr bool fluxes_share_scratch = !host_backend;

  Array3<Real> u_base, u_in, u_out;
  Array1<Real> dx, dy, inv_dx, inv_dy;  // cell widths and their reciprocals
  Real gamma, a, b, dt;
  bool find_dt_bound;    // last stage of a step: also each tile's bound on the next dt
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
  // Values of each scratch region: primitives of the tile and its margin,
  // slopes of the cells either side of the tile's faces along one direction,
  // fluxes through the x faces and through the y faces.
  static constexpr long primitive_values = long(slots) * (tile_j + 2 * ghost) * (tile_i + 2 * ghost);
  static constexpr long slopes_x = long(NCONS) * tile_j * (tile_i + 2), slopes_y = long(NCONS) * (tile_j + 2) * tile_i;
  static constexpr long slope_values = !slopes_stored ? 0 : slopes_x > slopes_y ? slopes_x : slopes_y;
  static constexpr long fluxes_x = long(NCONS) * tile_j * (tile_i + 1), fluxes_y = long(NCONS) * (tile_j + 1) * tile_i;
  static constexpr long flux_values = !fluxes_share_scratch ? fluxes_x + fluxes_y
                                      : fluxes_x > fluxes_y ? fluxes_x
                                                            : fluxes_y;
  static size_t scratch_bytes() {
    return ScratchPool::shmem_size(primitive_values) + ScratchPool::shmem_size(slope_values) +
           ScratchPool::shmem_size(flux_values);
  }
  // A bound on it known at compile time (Kokkos pads each region by less
  // than 64 bytes).
  static constexpr size_t scratch_bytes_at_most =
      size_t(primitive_values + slope_values + flux_values) * sizeof(Real) + 3 * 64;

  // Teams a GPU multiprocessor should hold at once (launch bounds), which
  // caps a thread's registers. FP64: four, 64 registers. Left to itself the
  // compiler took 100, room for two teams (25% occupancy), and the latency of
  // the FP64 divisions showed: each team more, up to four (4 x 44 KB of
  // shared memory in an SM's 228 KB), ran faster on an H200; five (48
  // registers) helped hllc a little and slowed hlle and the tutorial's
  // scheme. FP32: seven, which caps a thread at 32 registers (a few
  // spilled), so that eight teams, the whole 2048 threads, fit an H200
  // multiprocessor (8 x 24 KB of shared memory); each team more, up to
  // eight, ran faster, and seven and eight give the same code. The rates:
  // docs/data/diary.md, "euler2d: one fused kernel per stage". Fewer where the GPU built for holds fewer
  // (gpu_blocks_per_sm): an A100 (164 KB) three and six, a 100 KB GPU
  // (sm_86, sm_89, sm_120) two and four.
  static constexpr int teams_per_sm =
      host_backend ? 0 : gpu_blocks_per_sm(scratch_bytes_at_most, team_threads, sizeof(Real) == 4 ? 7 : 4);
#if defined(KOKKOS_ARCH_HOPPER90)
  static_assert(host_backend || teams_per_sm == (sizeof(Real) == 4 ? 7 : 4), "the counts measured on the H200");
#endif
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<host_backend ? 0 : team_threads, teams_per_sm>>;

  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION static void for_cells(const Member& team, long i0, long i1, long j0, long j1,
                                                    const F& f) {
    for_tile_cells(team, i0, i1, j0, j1, f);
  }
  static_assert(host_backend || long(tile_j + 2 * ghost) * (tile_i + 2 * ghost) * (tile_i + 2 * ghost) < 65536,
                "RowOfCell needs cell * width < 2^16 over the tile and its margin");
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Real unused = 0;
    stage(team, unused);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, Real& dt_bound) const { stage(team, dt_bound); }

  // The fluxes through the faces normal to Dir of the tile [i0, i1) x [j0,
  // j1) into flux (TileFaces, as each plane of the 3D stage).
  template <int Dir>
  KOKKOS_FORCEINLINE_FUNCTION void face_fluxes(const Member& team, const TilePrimitives& prims, const Scratch& slopes,
                                               const Scratch& flux, long i0, long i1, long j0, long j1) const {
    TileFaces<Real, Scheme, slopes_stored>::template fluxes<Dir>(team, prims, slopes, flux, i0, i1, j0, j1, gamma);
  }

  KOKKOS_INLINE_FUNCTION void stage(const Member& team, Real& dt_bound) const {
    const int ti = team.league_rank() % tiles_i, tj = team.league_rank() / tiles_i;
    const long i0 = begin[0] + long(ti) * tile_i, j0 = begin[1] + long(tj) * tile_j;
    const long i1 = i0 + tile_i < end[0] ? i0 + tile_i : end[0], j1 = j0 + tile_j < end[1] ? j0 + tile_j : end[1];
    const ScratchPool w_pool(team.team_scratch(0), primitive_values);
    const ScratchPool slope_pool(team.team_scratch(0), slope_values);
    const ScratchPool flux_pool(team.team_scratch(0), flux_values);
    const Scratch w(w_pool.data(), slots, tile_j + 2 * ghost, tile_i + 2 * ghost);
    const Scratch slopes_along_x(slope_pool.data(), NCONS, tile_j, tile_i + 2);
    const Scratch slopes_along_y(slope_pool.data(), NCONS, tile_j + 2, tile_i);
    const Scratch fx(flux_pool.data(), NCONS, tile_j, tile_i + 1);
    const Scratch fy(flux_pool.data() + (fluxes_share_scratch ? 0 : fluxes_x), NCONS, tile_j + 1, tile_i);
    const TilePrimitives prims{w, j0 - ghost, i0 - ghost, gamma};
    for_cells(team, i0 - ghost, i1 + ghost, j0 - ghost, j1 + ghost, StorePrimitives{u_in, prims});
    team.team_barrier();
    face_fluxes<0>(team, prims, slopes_along_x, fx, i0, i1, j0, j1);
    team.team_barrier();
    // The update takes the widths as flux_difference does: their reciprocals
    // in the modern schemes.
    const StoreUpdate update{
        u_base, u_in, u_out, Scheme::reciprocal ? inv_dx : dx, Scheme::reciprocal ? inv_dy : dy, fx, fy, j0, i0,
        a,      b,    dt};
    const DtBound bound{u_out, dx, dy, gamma};
    if constexpr (host_backend) {
      face_fluxes<1>(team, prims, slopes_along_y, fy, i0, i1, j0, j1);
      team.team_barrier();
      for_cells(team, i0, i1, j0, j1, update);
      if (find_dt_bound) min_over_tile_cells(i0, i1, j0, j1, bound, dt_bound);
    } else {
      // Thread r owns the tile's cell r (row order); the x part of its
      // update is taken before the y fluxes overwrite the x fluxes (the
      // barrier after the y slopes, or the one here, keeps the order).
      // The bound on the next dt comes from the values the thread has just
      // stored, still in its registers (the same bits as reading them back).
      const long i = i0 + team.team_rank() % tile_i, j = j0 + team.team_rank() / tile_i;
      const bool own = i < i1 && j < j1;
      Real x_part[NCONS];
      const Real dx_i = own ? update.dx(i) : Real(1);
      CFD_UNROLL
      for (int v = 0; v < NCONS; ++v) x_part[v] = own ? update.x_part(v, i, j, dx_i) : Real(0);
      if constexpr (!slopes_stored) team.team_barrier();
      face_fluxes<1>(team, prims, slopes_along_y, fy, i0, i1, j0, j1);
      team.team_barrier();
      if (own) {
        const Real dy_j = update.dy(j);
        Real u[NCONS];
        CFD_UNROLL
        for (int v = 0; v < NCONS; ++v) u[v] = update.store(v, i, j, x_part[v], dy_j);
        if (find_dt_bound) {
          const Real value = bound.of(u, i, j);
          if (value < dt_bound) dt_bound = value;
        }
      }
    }
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

  // The update. u_out may be u_base (the last stage writes the step's
  // result over its base): each cell reads its own base value before it
  // writes, and no cell reads another's. u_in is never written.
  struct StoreUpdate {
    Array3<Real> u_base, u_in, u_out;
    Array1<Real> dx, dy;  // as flux_difference takes them: the reciprocals when Scheme::reciprocal
    Scratch fx, fy;
    long j0, i0;
    Real a, b, dt;
    // The cell's dx and dy are passed in, read once: read here after each
    // store to u_out, which the compiler cannot tell apart from dy, they
    // would be read again for each component.
    KOKKOS_FORCEINLINE_FUNCTION Real x_part(int v, long i, long j, Real dx_i) const {
      return flux_difference<Scheme::reciprocal>(fx(v, j - j0, i - i0), fx(v, j - j0, i - i0 + 1), dx_i);
    }
    // Stores the cell's new value of component v and returns it.
    KOKKOS_FORCEINLINE_FUNCTION Real store(int v, long i, long j, Real x, Real dy_j) const {
      const Real y = flux_difference<Scheme::reciprocal>(fy(v, j - j0, i - i0), fy(v, j - j0 + 1, i - i0), dy_j);
      const Real value = stage_value_from<Blend>(Blend ? u_base(v, j, i) : Real(0), u_in(v, j, i), x, y, a, b, dt);
      u_out(v, j, i) = value;
      return value;
    }
    KOKKOS_FORCEINLINE_FUNCTION void operator()(long i, long j) const {
      const Real dx_i = dx(i), dy_j = dy(j);
      store(IDN, i, j, x_part(IDN, i, j, dx_i), dy_j);
      store(IM1, i, j, x_part(IM1, i, j, dx_i), dy_j);
      store(IM2, i, j, x_part(IM2, i, j, dx_i), dy_j);
      store(IM3, i, j, x_part(IM3, i, j, dx_i), dy_j);
      store(IEN, i, j, x_part(IEN, i, j, dx_i), dy_j);
    }
  };

  // A cell's bound on the next dt from the values just written: read back
  // (each CPU thread its own cells), or given (a GPU thread's registers).
  // The primitives as the scheme takes them, as Solver::allowed_dt does.
  struct DtBound {
    Array3<Real> u;
    Array1<Real> dx, dy;
    Real gamma;
    KOKKOS_FORCEINLINE_FUNCTION Real operator()(long i, long j) const {
      return cell_dt_bound(cell_primitives<Scheme::reciprocal>(u, j, i, gamma), dx(i), dy(j), gamma);
    }
    KOKKOS_FORCEINLINE_FUNCTION Real of(const Real (&c)[NCONS], long i, long j) const {
      return cell_dt_bound(cell_primitives<Scheme::reciprocal>(c[IDN], c[IM1], c[IM2], c[IM3], c[IEN], gamma), dx(i),
                           dy(j), gamma);
    }
  };
};

// Runs one fused stage over the block's own cells [begin, end) and returns
// the block's bound on the next dt when find_dt_bound (otherwise the largest Real).
template <class Real, class Scheme, bool Blend>
Real fused_stage(const Array3<Real>& u_base, const Array3<Real>& u_in, const Array3<Real>& u_out,
                 const Array1<Real>& dx, const Array1<Real>& dy, const Array1<Real>& inv_dx, const Array1<Real>& inv_dy,
                 Real gamma, Real a, Real b, Real dt, bool find_dt_bound, const long (&begin)[2],
                 const long (&end)[2]) {
  using Stage = FusedStage2d<Real, Scheme, Blend>;
  Real bound = Kokkos::reduction_identity<Real>::min();
  if (begin[0] >= end[0] || begin[1] >= end[1]) return bound;
  constexpr int tile_i = Stage::tile_i, tile_j = Stage::tile_j;
  const size_t bytes = Stage::scratch_bytes();
  const int tiles_i = int((end[0] - begin[0] + tile_i - 1) / tile_i);
  const int tiles_j = int((end[1] - begin[1] + tile_j - 1) / tile_j);
  const Stage f{u_base,
                u_in,
                u_out,
                dx,
                dy,
                inv_dx,
                inv_dy,
                gamma,
                a,
                b,
                dt,
                find_dt_bound,
                tiles_i,
                {int(begin[0]), int(begin[1])},
                {int(end[0]), int(end[1])}};
  const auto policy =
      typename Stage::Policy(tiles_i * tiles_j, Stage::team_threads).set_scratch_size(0, Kokkos::PerTeam(bytes));
  // What Kokkos checks at launch, asked first so that a GPU that cannot run
  // the stage as compiled (one with less shared memory than the
  // architecture built for) gets a message that says what to do.
  static const bool fits = team_scratch_fits(bytes, Stage::team_threads, Stage::teams_per_sm);
  if (!fits)
    throw std::runtime_error("euler: the fused stage needs " + std::to_string(bytes) + " bytes of shared memory " +
                             "for each of " + std::to_string(Stage::teams_per_sm) + " blocks of " +
                             std::to_string(Stage::team_threads) +
                             " threads on a multiprocessor, more than this GPU gives; set euler.kernels: split");
  if (find_dt_bound)
    Kokkos::parallel_reduce("euler::fused_stage", policy, f, Kokkos::Min<Real>(bound));
  else
    Kokkos::parallel_for("euler::fused_stage", policy, f);
  return bound;
}

}  // namespace cfd::euler
