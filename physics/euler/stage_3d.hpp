// One Runge-Kutta stage of euler on a 3D block as one kernel, each face's
// flux computed once (but for the faces between two teams' columns, which
// both compute). A team takes a column of tile_i x tile_j cells and
// walks it plane by plane along k (over `planes` planes, so that a block
// gives many teams): for each plane it computes W of the plane and its
// two-cell margin from U into team scratch (GPU shared memory, CPU cache;
// W exists nowhere else, and U's ghosts come from the halo), then, as
// the 2D fused stage (stage_2d.hpp) does on its tile, the limited slopes
// along x and the x fluxes, the same along y, and last the z face above each
// cell from the column's own values, which its thread carries from plane to
// plane: entering plane k, the flux through the face below cell k and
// cell k's upper face state (on a GPU in registers, on a CPU in scratch). Each slope is
// then computed once per cell and direction and each Riemann problem once
// per face, where a thread per cell computing its six faces (the first 3D
// fused stage, several times slower) computed each face twice and each
// slope four times. The cell physics is the split kernels'
// (FaceFlux, the same limiter and Riemann solver, stage_value's order
// of sums), so the results are their bits (tests/test_euler3d.cpp), as long
// as multiply-adds are not contracted (the build's default: with
// CFDRUN_CUDA_FMA=ON nvcc may fuse the x and y parts' sum differently).
// u_in is read around each cell (the planes' margins, the columns), so
// u_out must be another array (the solver gives each stage a buffer of its
// own); u_out may be u_base, which each thread reads only at its own cell
// before writing there.
#pragma once

#include "physics/euler/split_kernels_3d.hpp"
#include "physics/euler/tile.hpp"  // for_tile_cells, TileFaces

#include <array>
#include <stdexcept>
#include <string>

namespace cfd::euler {

template <class Real, class Scheme, bool Blend>
struct FusedStage3d {
  static_assert(!Scheme::tutorial, "3D has no tutorial faces");
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using ScratchSpace = typename ExecSpace::scratch_memory_space;
  using Scratch = Kokkos::View<Real***, Kokkos::LayoutRight, ScratchSpace, Kokkos::MemoryUnmanaged>;  // (slot, j, i)
  using ScratchPool = Kokkos::View<Real*, ScratchSpace, Kokkos::MemoryUnmanaged>;
  // GPU: the 2D stage's tile, 32 x 8 cells, a thread each, and 41,632
  // bytes of shared memory in FP64 with Kokkos' padding (about half in
  // FP32). CPU: 64 x 8 cells, about 140 KB with the columns' carries, in a
  // core's L2; a team is one thread.
  static constexpr int tile_i = host_backend ? 64 : 32, tile_j = 8, team_threads = host_backend ? 1 : 256;
  static_assert(host_backend || team_threads == tile_i * tile_j, "a GPU thread owns one column of the tile");
  // Planes a team walks: each new column starts by computing the face below
  // its first cell (two slopes and a Riemann problem), 1/32 of the z work.
  static constexpr int planes = 32;
  static constexpr bool slopes_stored = Scheme::plm;
  static constexpr bool fluxes_share_scratch = !host_backend;  // as in the 2D stage
  static constexpr bool carries_in_scratch = host_backend;

  Array4<Real> u_base, u_in, u_out;
  Array1<Real> dx, dy, dz, inv_dx, inv_dy, inv_dz;
  Real gamma, a, b, dt;
  bool find_dt_bound;  // last stage of a step: also each column's bound on the next dt
  int tiles_i, tiles_j;
  long begin[3], end[3];  // the block's own cells

  // W of one plane in scratch, addressed with the block's indices (j, i)
  // in the plane: the plane's x and y faces are 2D faces (TileFaces).
  struct PlanePrimitives {
    Scratch w;
    long j0, i0;  // block indices of the scratch's first cell
    KOKKOS_FORCEINLINE_FUNCTION Real operator()(int v, long j, long i) const { return w(v, j - j0, i - i0); }
  };
  using Faces = TileFaces<Real, Scheme, slopes_stored>;

  // What a column carries into plane k: the flux through the face below
  // cell k and cell k's upper z face state (computed in plane k - 1 with
  // cell k's slope). A GPU thread holds its column's in registers; the
  // CPU's one thread all the tile's in scratch.
  struct RegisterCarry {
    Real flux_below[NCONS], upper[NPRIM_3D];
    KOKKOS_FORCEINLINE_FUNCTION Real& flux(int v) { return flux_below[v]; }
    KOKKOS_FORCEINLINE_FUNCTION Real& face(int v) { return upper[v]; }
  };
  struct ScratchCarry {
    const Scratch& s;
    long jj, ii;
    KOKKOS_FORCEINLINE_FUNCTION Real& flux(int v) const { return s(v, jj, ii); }
    KOKKOS_FORCEINLINE_FUNCTION Real& face(int v) const { return s(NCONS + v, jj, ii); }
  };

  // Values of each scratch region.
  static constexpr long primitive_values = long(NPRIM_3D) * (tile_j + 2 * ghost) * (tile_i + 2 * ghost);
  static constexpr long slopes_x = long(NPRIM_3D) * tile_j * (tile_i + 2),
                        slopes_y = long(NPRIM_3D) * (tile_j + 2) * tile_i;
  static constexpr long slope_values = !slopes_stored ? 0 : slopes_x > slopes_y ? slopes_x : slopes_y;
  static constexpr long fluxes_x = long(NCONS) * tile_j * (tile_i + 1), fluxes_y = long(NCONS) * (tile_j + 1) * tile_i;
  static constexpr long flux_values = !fluxes_share_scratch ? fluxes_x + fluxes_y
                                      : fluxes_x > fluxes_y ? fluxes_x
                                                            : fluxes_y;
  static constexpr long carry_values = carries_in_scratch ? long(NCONS + NPRIM_3D) * tile_j * tile_i : 0;
  static size_t scratch_bytes() {
    return ScratchPool::shmem_size(primitive_values) + ScratchPool::shmem_size(slope_values) +
           ScratchPool::shmem_size(flux_values) + ScratchPool::shmem_size(carry_values);
  }
  static constexpr size_t scratch_bytes_at_most =
      size_t(primitive_values + slope_values + flux_values + carry_values) * sizeof(Real) + 4 * 64;
  // Teams per GPU multiprocessor (launch bounds). A column's carries are
  // ten values more than a 2D thread holds: at the 2D stage's four teams in
  // FP64 (64 registers) ptxas spills about 300 bytes a thread, and three
  // (80 registers, 140 bytes) ran faster, for hlle and hllc alike; in FP32
  // six (40 registers) beat four. HLLC holds both star states and spills
  // most (144-184 bytes of stack a thread against hlle's 104-120 at three
  // teams), so it runs fewer, larger threads: two teams in FP64 (128
  // registers) and four in FP32 were the fastest on an H100 at 512^3. The
  // rates of each count: docs/data/diary.md, "Third" and "Fifth H100 run".
  static constexpr int wanted_teams =
      Scheme::riemann == gas::RiemannSolver::hllc ? (sizeof(Real) == 4 ? 4 : 2) : (sizeof(Real) == 4 ? 6 : 3);
  static constexpr int teams_per_sm =
      host_backend ? 0 : gpu_blocks_per_sm(scratch_bytes_at_most, team_threads, wanted_teams);
  using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<host_backend ? 0 : team_threads, teams_per_sm>>;
  static_assert(host_backend || long(tile_j + 2 * ghost) * (tile_i + 2 * ghost) * (tile_i + 2 * ghost) < 65536,
                "for_tile_cells needs cell * width < 2^16 over the plane and its margin");

  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION static void for_cells(const Member& team, long i0, long i1, long j0, long j1,
                                                    const F& f) {
    for_tile_cells(team, i0, i1, j0, j1, f);
  }

  // W of cell (k, j, i) from U (the split kernels' W: cell_primitives).
  KOKKOS_FORCEINLINE_FUNCTION void primitives_at(long k, long j, long i, Real (&w)[NPRIM_3D]) const {
    const CellPrimitives<Real> c = cell_primitives<true>(u_in(IDN, k, j, i), u_in(IM1, k, j, i), u_in(IM2, k, j, i),
                                                         u_in(IM3, k, j, i), u_in(IEN, k, j, i), gamma);
    w[IDN] = c.rho, w[IVX] = c.vx, w[IVY] = c.vy, w[IVZ] = c.vz, w[IPR] = c.p;
  }
  // The bound on the next dt of u_out's cells (the split path's kernel's function).
  KOKKOS_FORCEINLINE_FUNCTION DtBound_3d<Real, true> dt_bound_of() const { return {u_out, dx, dy, dz, gamma}; }

  // The flux through the z face below cell (k, j, i) and the upper face
  // state of cell (k, j, i) into c: the column's start.
  template <class Carry>
  KOKKOS_FORCEINLINE_FUNCTION void start_column(Carry& c, long k, long j, long i) const {
    using Face = FaceFlux<Real, 2, Scheme>;
    Real below[NPRIM_3D], here[NPRIM_3D], lower[NPRIM_3D], upper[NPRIM_3D];
    primitives_at(k - 1, j, i, below);
    primitives_at(k, j, i, here);
    if constexpr (Scheme::plm) {
      Real below2[NPRIM_3D], above[NPRIM_3D];
      primitives_at(k - 2, j, i, below2);
      primitives_at(k + 1, j, i, above);
      CFD_UNROLL
      for (int v = 0; v < NPRIM_3D; ++v) {
        const Real slope_below = gas::limited_slope<Scheme::limiter>(below[v] - below2[v], here[v] - below[v]);
        const Real slope = gas::limited_slope<Scheme::limiter>(here[v] - below[v], above[v] - here[v]);
        c.face(v) = Face::at_face(below[v], slope_below, Real(1));
        lower[v] = Face::at_face(here[v], slope, Real(-1));
        upper[v] = Face::at_face(here[v], slope, Real(1));
      }
    } else {
      CFD_UNROLL
      for (int v = 0; v < NPRIM_3D; ++v) {
        c.face(v) = below[v];
        lower[v] = upper[v] = here[v];
      }
    }
    const gas::Conserved<Real> f = Face::solve(Face::face_state(FaceValues<Carry>{c}), Face::face_state(lower), gamma);
    c.flux(IDN) = f.rho, c.flux(IM1) = f.mx, c.flux(IM2) = f.my, c.flux(IM3) = f.mz, c.flux(IEN) = f.energy;
    CFD_UNROLL
    for (int v = 0; v < NPRIM_3D; ++v) c.face(v) = upper[v];
  }
  // c.face(v) read as an array (FaceFlux::face_state).
  template <class Carry>
  struct FaceValues {
    Carry& c;
    KOKKOS_FORCEINLINE_FUNCTION Real operator[](int v) const { return c.face(v); }
  };

  // Cell (k, j, i)'s new value of every component from xy[v] (the x and y
  // parts of its update, summed as stage_value sums them) and the z faces:
  // the one below from c, the one above computed here, which with the upper
  // face state of cell k + 1 goes into c for the next plane. `here` reads
  // W of cell (k, j, i) (the plane in scratch). The new values go to u_out
  // and to value.
  template <class Carry, class Here>
  KOKKOS_FORCEINLINE_FUNCTION void update(Carry& c, const Here& here, long k, long j, long i, const Real (&xy)[NCONS],
                                          Real (&value)[NCONS]) const {
    using Face = FaceFlux<Real, 2, Scheme>;
    Real above[NPRIM_3D], lower[NPRIM_3D], upper[NPRIM_3D];
    primitives_at(k + 1, j, i, above);
    if constexpr (Scheme::plm) {
      Real above2[NPRIM_3D];
      primitives_at(k + 2, j, i, above2);
      CFD_UNROLL
      for (int v = 0; v < NPRIM_3D; ++v) {
        const Real slope = gas::limited_slope<Scheme::limiter>(above[v] - here(v), above2[v] - above[v]);
        lower[v] = Face::at_face(above[v], slope, Real(-1));
        upper[v] = Face::at_face(above[v], slope, Real(1));
      }
    } else {
      CFD_UNROLL
      for (int v = 0; v < NPRIM_3D; ++v) lower[v] = upper[v] = above[v];
    }
    const gas::Conserved<Real> f = Face::solve(Face::face_state(FaceValues<Carry>{c}), Face::face_state(lower), gamma);
    const Real flux_above[NCONS] = {f.rho, f.mx, f.my, f.mz, f.energy};
    const Real rz = inv_dz(k);
    CFD_UNROLL
    for (int v = 0; v < NCONS; ++v) {
      const Real z = flux_difference<true>(c.flux(v), flux_above[v], rz);
      value[v] = stage_value_from<Blend>(Blend ? u_base(v, k, j, i) : Real(0), u_in(v, k, j, i), xy[v], z, a, b, dt);
      u_out(v, k, j, i) = value[v];
      c.flux(v) = flux_above[v];
    }
    CFD_UNROLL
    for (int v = 0; v < NPRIM_3D; ++v) c.face(v) = upper[v];
  }

  // The fluxes through the faces normal to Dir (0: x, 1: y) of the tile's
  // cells [i0, i1) x [j0, j1) in the plane, into flux.
  template <int Dir>
  KOKKOS_FORCEINLINE_FUNCTION void face_fluxes(const Member& team, const PlanePrimitives& prims, const Scratch& slopes,
                                               const Scratch& flux, long i0, long i1, long j0, long j1) const {
    Faces::template fluxes<Dir>(team, prims, slopes, flux, i0, i1, j0, j1, gamma);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Real unused = 0;
    stage(team, unused);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, Real& dt_bound) const { stage(team, dt_bound); }

  KOKKOS_INLINE_FUNCTION void stage(const Member& team, Real& dt_bound) const {
    const int t = team.league_rank();
    const int ti = t % tiles_i, tj = (t / tiles_i) % tiles_j, tk = t / (tiles_i * tiles_j);
    const long i0 = begin[0] + long(ti) * tile_i, j0 = begin[1] + long(tj) * tile_j, k0 = begin[2] + long(tk) * planes;
    const long i1 = i0 + tile_i < end[0] ? i0 + tile_i : end[0], j1 = j0 + tile_j < end[1] ? j0 + tile_j : end[1],
               k1 = k0 + planes < end[2] ? k0 + planes : end[2];
    const ScratchPool w_pool(team.team_scratch(0), primitive_values);
    const ScratchPool slope_pool(team.team_scratch(0), slope_values);
    const ScratchPool flux_pool(team.team_scratch(0), flux_values);
    const ScratchPool carry_pool(team.team_scratch(0), carry_values);
    const Scratch plane(w_pool.data(), NPRIM_3D, tile_j + 2 * ghost, tile_i + 2 * ghost);
    const Scratch slopes_along_x(slope_pool.data(), NPRIM_3D, tile_j, tile_i + 2);
    const Scratch slopes_along_y(slope_pool.data(), NPRIM_3D, tile_j + 2, tile_i);
    const Scratch fx(flux_pool.data(), NCONS, tile_j, tile_i + 1);
    const Scratch fy(flux_pool.data() + (fluxes_share_scratch ? 0 : fluxes_x), NCONS, tile_j + 1, tile_i);
    const PlanePrimitives prims{plane, j0 - ghost, i0 - ghost};
    const Scratch carries(carry_pool.data(), NCONS + NPRIM_3D, tile_j, tile_i);

    if constexpr (host_backend) {
      for_cells(team, i0, i1, j0, j1, StartColumns{*this, carries, k0, j0, i0});
      for (long k = k0; k < k1; ++k) {
        for_cells(team, i0 - ghost, i1 + ghost, j0 - ghost, j1 + ghost, CopyPlane{*this, prims, k});
        face_fluxes<0>(team, prims, slopes_along_x, fx, i0, i1, j0, j1);
        face_fluxes<1>(team, prims, slopes_along_y, fy, i0, i1, j0, j1);
        for_cells(team, i0, i1, j0, j1, UpdateCells{*this, prims, fx, fy, carries, k, j0, i0});
        if (find_dt_bound) min_over_tile_cells(i0, i1, j0, j1, PlaneDtBound{dt_bound_of(), k}, dt_bound);
      }
    } else {
      // Thread r owns column r of the tile (row order) and keeps its x
      // part while the y fluxes overwrite the x fluxes, as the 2D stage.
      const long ii = team.team_rank() % tile_i, jj = team.team_rank() / tile_i, i = i0 + ii, j = j0 + jj;
      const bool own = i < i1 && j < j1;
      RegisterCarry c;
      if (own) start_column(c, k0, j, i);
      const Real rx = own ? inv_dx(i) : Real(1), ry = own ? inv_dy(j) : Real(1);
      for (long k = k0; k < k1; ++k) {
        // The previous plane's updates read their own cells' W from the
        // plane (plm: the z slope) before the copy overwrites it. (Its y
        // fluxes are next overwritten by the x fluxes, after the barrier
        // that follows the copy.)
        if constexpr (Scheme::plm)
          if (k > k0) team.team_barrier();
        for_cells(team, i0 - ghost, i1 + ghost, j0 - ghost, j1 + ghost, CopyPlane{*this, prims, k});
        team.team_barrier();
        face_fluxes<0>(team, prims, slopes_along_x, fx, i0, i1, j0, j1);
        team.team_barrier();
        Real xy[NCONS];
        CFD_UNROLL
        for (int v = 0; v < NCONS; ++v)
          xy[v] = own ? flux_difference<true>(fx(v, jj, ii), fx(v, jj, ii + 1), rx) : Real(0);
        if constexpr (!slopes_stored) team.team_barrier();
        face_fluxes<1>(team, prims, slopes_along_y, fy, i0, i1, j0, j1);
        team.team_barrier();
        if (own) {
          CFD_UNROLL
          for (int v = 0; v < NCONS; ++v) xy[v] = xy[v] + flux_difference<true>(fy(v, jj, ii), fy(v, jj + 1, ii), ry);
          Real value[NCONS];
          update(c, OwnCell{prims, j, i}, k, j, i, xy, value);
          // The bound on the next dt from the values just stored, still in
          // registers (the same bits as reading them back).
          if (find_dt_bound) {
            const Real bound = dt_bound_of().of(value, k, j, i);
            if (bound < dt_bound) dt_bound = bound;
          }
        }
      }
    }
  }

  // The stage's parts, cell by cell (functors: see stage_2d.hpp).

  // CPU: the columns' starts and the plane's updates, the carries in scratch.
  struct StartColumns {
    const FusedStage3d& stage;
    const Scratch& carries;
    long k0, j0, i0;
    KOKKOS_FORCEINLINE_FUNCTION void operator()(long i, long j) const {
      ScratchCarry c{carries, j - j0, i - i0};
      stage.start_column(c, k0, j, i);
    }
  };
  struct UpdateCells {
    const FusedStage3d& stage;
    PlanePrimitives prims;
    const Scratch &fx, &fy, &carries;
    long k, j0, i0;
    KOKKOS_FORCEINLINE_FUNCTION void operator()(long i, long j) const {
      const long jj = j - j0, ii = i - i0;
      const Real rx = stage.inv_dx(i), ry = stage.inv_dy(j);
      Real xy[NCONS];
      for (int v = 0; v < NCONS; ++v)
        xy[v] = flux_difference<true>(fx(v, jj, ii), fx(v, jj, ii + 1), rx) +
                flux_difference<true>(fy(v, jj, ii), fy(v, jj + 1, ii), ry);
      ScratchCarry c{carries, jj, ii};
      Real value[NCONS];
      stage.update(c, OwnCell{prims, j, i}, k, j, i, xy, value);
    }
  };
  // A cell's bound on the next dt read back from u_out (the CPU's, after
  // each plane's updates, while the plane is in cache).
  struct PlaneDtBound {
    DtBound_3d<Real, true> bound;
    long k;
    KOKKOS_FORCEINLINE_FUNCTION Real operator()(long i, long j) const { return bound(k, j, i); }
  };
  // W of the plane's cells from U, into scratch.
  struct CopyPlane {
    const FusedStage3d& stage;
    PlanePrimitives prims;
    long k;
    KOKKOS_FORCEINLINE_FUNCTION void operator()(long i, long j) const {
      Real w[NPRIM_3D];
      stage.primitives_at(k, j, i, w);
      const long jj = j - prims.j0, ii = i - prims.i0;
      CFD_UNROLL
      for (int v = 0; v < NPRIM_3D; ++v) prims.w(v, jj, ii) = w[v];
    }
  };
  struct OwnCell {
    PlanePrimitives prims;
    long j, i;
    KOKKOS_FORCEINLINE_FUNCTION Real operator()(int v) const { return prims(v, j, i); }
  };
};

// Runs one fused stage over the block's own cells [begin, end) from u_in
// (its ghosts filled): u_out = a u_base + b (u_in + dt L(u_in)). Returns the
// block's bound on the next dt (DtBound_3d's, from u_out) when
// find_dt_bound, otherwise the largest Real. width and inverse: the cells'
// widths along x, y, z and their reciprocals.
template <class Real, class Scheme, bool Blend>
Real volume_fused_stage(const Array4<Real>& u_base, const Array4<Real>& u_in, const Array4<Real>& u_out,
                        const std::array<Array1<Real>, 3>& width, const std::array<Array1<Real>, 3>& inverse,
                        Real gamma, Real a, Real b, Real dt, bool find_dt_bound, const long (&begin)[3],
                        const long (&end)[3]) {
  using Stage = FusedStage3d<Real, Scheme, Blend>;
  Real bound = Kokkos::reduction_identity<Real>::min();
  if (begin[0] >= end[0] || begin[1] >= end[1] || begin[2] >= end[2]) return bound;
  const int tiles_i = int((end[0] - begin[0] + Stage::tile_i - 1) / Stage::tile_i);
  const int tiles_j = int((end[1] - begin[1] + Stage::tile_j - 1) / Stage::tile_j);
  const int tiles_k = int((end[2] - begin[2] + Stage::planes - 1) / Stage::planes);
  const Stage f{u_base,
                u_in,
                u_out,
                width[0],
                width[1],
                width[2],
                inverse[0],
                inverse[1],
                inverse[2],
                gamma,
                a,
                b,
                dt,
                find_dt_bound,
                tiles_i,
                tiles_j,
                {begin[0], begin[1], begin[2]},
                {end[0], end[1], end[2]}};
  const size_t bytes = Stage::scratch_bytes();
  static const bool fits = team_scratch_fits(bytes, Stage::team_threads, Stage::teams_per_sm);
  if (!fits)
    throw std::runtime_error("euler: the 3D fused stage needs " + std::to_string(bytes) +
                             " bytes of shared memory for each of " + std::to_string(Stage::teams_per_sm) +
                             " blocks of " + std::to_string(Stage::team_threads) +
                             " threads on a multiprocessor, more than this GPU gives; set euler.kernels: split");
  const auto policy = typename Stage::Policy(tiles_i * tiles_j * tiles_k, Stage::team_threads)
                          .set_scratch_size(0, Kokkos::PerTeam(bytes));
  if (find_dt_bound)
    Kokkos::parallel_reduce("euler::fused_stage_3d", policy, f, Kokkos::Min<Real>(bound));
  else
    Kokkos::parallel_for("euler::fused_stage_3d", policy, f);
  return bound;
}

}  // namespace cfd::euler
