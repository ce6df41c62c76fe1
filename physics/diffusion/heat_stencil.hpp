// The explicit 5-point update of the heat equation (problems.md section 1):
//   v(i,j) = u(i,j) + alpha*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1) - 4*u(i,j))
// The sum is evaluated left to right exactly as written, so every variant,
// layout and loop order, and the serial reference, round identically.
#pragma once

#include "core/kokkos_compat.hpp"
#include "core/parallel.hpp"

#include <stdexcept>
#include <string>

namespace cfd::diffusion {

template <class Real>
KOKKOS_INLINE_FUNCTION Real heat_update(Real centre, Real west, Real east, Real south, Real north, Real alpha) {
  // 4*centre is exact, so only the product with alpha must stay unfused for
  // every backend to round alike.
  return centre + mul_unfused(alpha, west + east + south + north - Real(4) * centre);
}

template <class Real, class Layout>
using Field = Kokkos::View<Real**, Layout, MemSpace>;

// Interior points only; the edges of `next` keep the zeros they were born with.
template <class Real, class Layout>
struct InteriorStep {
  Field<Real, Layout> now, next;
  Real alpha;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long i, const long j) const {
    next(i, j) = heat_update(now(i, j), now(i - 1, j), now(i + 1, j), now(i, j - 1), now(i, j + 1), alpha);
  }
};

// Every owned point; points on the global edge are written as 0 by a branch,
// as in the original's baseline kernel. `first_*` is the global index of local
// index 0 and `last_*` the global index of the far edge.
template <class Real, class Layout>
struct BaselineStep {
  Field<Real, Layout> now, next;
  Real alpha;
  long first_x, first_y, last_x, last_y;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long i, const long j) const {
    const long gi = first_x + i, gj = first_y + j;
    if (gi == 0 || gj == 0 || gi == last_x || gj == last_y) {
      next(i, j) = Real(0);
    } else {
      next(i, j) = heat_update(now(i, j), now(i - 1, j), now(i + 1, j), now(i, j - 1), now(i, j + 1), alpha);
    }
  }
};

// Interior points in strips: one point of the contiguous index c per thread,
// each thread owning K consecutive points of the other index s. A thread
// loads all 3K + 2 values its strip reads before it writes any, so it keeps
// that many loads in flight. With one point per thread the GPU idles between
// each load and its use: 74% (FP64) and 44% (FP32) of the copy bandwidth on
// the H200 at 16384^2, against 94% and 86% in strips of 8
// (docs/performance.md). Each point's arithmetic is heat_update's, so the
// results are bit for bit those of InteriorStep.
template <class Real, class Layout, int K = 8>
struct InteriorStripStep {
  Field<Real, Layout> now, next;
  Real alpha;
  long s_begin, s_end;  // interior range of the strip index s
  static constexpr bool c_is_i = std::is_same_v<Layout, Kokkos::LayoutLeft>;

  KOKKOS_FORCEINLINE_FUNCTION Real at(long c, long s) const {
    if constexpr (c_is_i)
      return now(c, s);
    else
      return now(s, c);
  }
  KOKKOS_FORCEINLINE_FUNCTION void write(long c, long s, Real value) const {
    if constexpr (c_is_i)
      next(c, s) = value;
    else
      next(s, c) = value;
  }
  // heat_update with the neighbours named by c and s rather than by x and y.
  KOKKOS_FORCEINLINE_FUNCTION Real update(Real centre, Real c_minus, Real c_plus, Real s_minus, Real s_plus) const {
    if constexpr (c_is_i)
      return heat_update(centre, c_minus, c_plus, s_minus, s_plus, alpha);
    else
      return heat_update(centre, s_minus, s_plus, c_minus, c_plus, alpha);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const long c, const long strip) const {
    const long s0 = s_begin + strip * K;
    if (s0 + K <= s_end) {
      Real line[K + 2], lower[K], upper[K];
      CFD_UNROLL
      for (int k = 0; k < K + 2; ++k) line[k] = at(c, s0 - 1 + k);
      CFD_UNROLL
      for (int k = 0; k < K; ++k) lower[k] = at(c - 1, s0 + k);
      CFD_UNROLL
      for (int k = 0; k < K; ++k) upper[k] = at(c + 1, s0 + k);
      CFD_UNROLL
      for (int k = 0; k < K; ++k) write(c, s0 + k, update(line[k + 1], lower[k], upper[k], line[k], line[k + 2]));
    } else {
      for (long s = s0; s < s_end; ++s)
        write(c, s, update(at(c, s), at(c - 1, s), at(c + 1, s), at(c, s - 1), at(c, s + 1)));
    }
  }
};

// Runs InteriorStripStep over [i0,i1) x [j0,j1): threads along the contiguous
// index (a tile of 128), strips along the other.
template <class Real, class Layout>
void step_interior_in_strips(const Field<Real, Layout>& now, const Field<Real, Layout>& next, Real alpha, int i0,
                             int i1, int j0, int j1) {
  constexpr int K = 8;
  constexpr bool c_is_i = std::is_same_v<Layout, Kokkos::LayoutLeft>;
  const int c0 = c_is_i ? i0 : j0, c1 = c_is_i ? i1 : j1, s0 = c_is_i ? j0 : i0, s1 = c_is_i ? j1 : i1;
  if (c0 >= c1 || s0 >= s1) return;
  const int strips = (s1 - s0 + K - 1) / K;
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
  Kokkos::parallel_for("diffusion::heat_step_interior", Policy({c0, 0}, {c1, strips}, {128, 1}),
                       InteriorStripStep<Real, Layout, K>{now, next, alpha, s0, s1});
}

// Temporal blocking: `steps` updates of the interior in one pass over memory.
// Each team takes a tile of owned points, loads it with a margin of `steps`
// points on every side into team scratch (shared memory on a GPU, a cache
// sized buffer on a CPU), updates that copy `steps` times and writes the
// tile back. After sub-step s only the points within steps - s of the tile
// are still exact (the rest would need points beyond the margin), and those
// are all that sub-step s + 1 reads; the margin's points are computed by
// both tiles that overlap there. Every point is heat_update of the same
// values as in InteriorStep, so k fused steps are bit for bit k single
// steps. Points that are not updated (the global edges) hold their fixed
// value in both buffers; across a rank face the margin is the halo, which
// is therefore `steps` deep (diffusion_solver.hpp).
template <class Real, class Layout>
struct TiledSteps {
  using Scratch = Kokkos::View<Real**, Layout, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr bool i_contiguous = std::is_same_v<Layout, Kokkos::LayoutLeft>;

  Field<Real, Layout> now, next;
  Real alpha;
  int steps;
  int tile[2];                         // owned points per tile along i and j
  int tiles_i;                         // tiles along i
  int write_begin[2], write_end[2];    // the owned interior: what the pass writes
  int update_begin[2], update_end[2];  // every point it may update, halo included
  int extent[2];                       // the allocation

  static size_t scratch_bytes(int tile_i, int tile_j, int steps) {
    return 2 * Scratch::shmem_size(tile_i + 2 * steps, tile_j + 2 * steps);
  }

  // f(i, j) over [i0, i1) x [j0, j1): team threads across the lines, vector
  // lanes along the contiguous index (coalesced on a GPU). On a CPU a line is
  // a plain loop marked independent: Kokkos' ThreadVectorRange does not say
  // so to GCC, which then cannot vectorise through the scratch Views.
  template <class F>
  KOKKOS_INLINE_FUNCTION static void for_points(const Member& team, int i0, int i1, int j0, int j1, const F& f) {
    constexpr bool host = std::is_same_v<ExecSpace, HostSpace>;
    const int line0 = i_contiguous ? j0 : i0, line1 = i_contiguous ? j1 : i1;
    const int along0 = i_contiguous ? i0 : j0, along1 = i_contiguous ? i1 : j1;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, line0, line1), [&](const int line) {
      const auto point = [&](const int along) {
        if constexpr (i_contiguous)
          f(along, line);
        else
          f(line, along);
      };
      if constexpr (host) {
        CFD_SIMD
        for (int along = along0; along < along1; ++along) point(along);
      } else {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, along0, along1), point);
      }
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int ti = team.league_rank() % tiles_i, tj = team.league_rank() / tiles_i;
    const int w0[2] = {write_begin[0] + ti * tile[0], write_begin[1] + tj * tile[1]};
    const int w1[2] = {w0[0] + tile[0] < write_end[0] ? w0[0] + tile[0] : write_end[0],
                       w0[1] + tile[1] < write_end[1] ? w0[1] + tile[1] : write_end[1]};
    // The loaded region: the tile and its margin, within the allocation.
    const int l0[2] = {w0[0] - steps > 0 ? w0[0] - steps : 0, w0[1] - steps > 0 ? w0[1] - steps : 0};
    const int l1[2] = {w1[0] + steps < extent[0] ? w1[0] + steps : extent[0],
                       w1[1] + steps < extent[1] ? w1[1] + steps : extent[1]};
    const int si = tile[0] + 2 * steps, sj = tile[1] + 2 * steps;
    Scratch a(team.team_scratch(0), si, sj), b(team.team_scratch(0), si, sj);
    for_points(team, l0[0], l1[0], l0[1], l1[1],
               [&](int i, int j) { a(i - l0[0], j - l0[1]) = b(i - l0[0], j - l0[1]) = now(i, j); });
    team.team_barrier();
    for (int s = 1; s <= steps; ++s) {
      const Scratch& from = s % 2 ? a : b;
      const Scratch& to = s % 2 ? b : a;
      const int reach = steps - s;  // the margin still exact after this sub-step
      int c0[2], c1[2];
      for (int d = 0; d < 2; ++d) {
        c0[d] = w0[d] - reach > update_begin[d] ? w0[d] - reach : update_begin[d];
        c1[d] = w1[d] + reach < update_end[d] ? w1[d] + reach : update_end[d];
      }
      // Through raw pointers: the host compiler then sees that the writes
      // cannot change the Views' own pointers and keeps the loop vectorised.
      const Real* const src = from.data();
      Real* const dst = to.data();
      // Unit stride along the contiguous index as a constant, so that a line
      // is read with plain vector loads.
      const long sx = i_contiguous ? 1 : from.stride(0), sy = i_contiguous ? from.stride(1) : 1;
      const Real coefficient = alpha;
      const int ox = l0[0], oy = l0[1];
      for_points(team, c0[0], c1[0], c0[1], c1[1], [=](int i, int j) {
        const long c = (i - ox) * sx + (j - oy) * sy;
        dst[c] = heat_update(src[c], src[c - sx], src[c + sx], src[c - sy], src[c + sy], coefficient);
      });
      team.team_barrier();
    }
    const Scratch& result = steps % 2 ? b : a;
    for_points(team, w0[0], w1[0], w0[1], w1[1], [&](int i, int j) { next(i, j) = result(i - l0[0], j - l0[1]); });
  }
};

// Runs TiledSteps over the owned interior [w0, w1) with updates allowed in
// [u0, u1) (the interior plus the halo), in tiles of the backend's size.
template <class Real, class Layout>
void tiled_steps(const Field<Real, Layout>& now, const Field<Real, Layout>& next, Real alpha, int steps,
                 const int (&w0)[2], const int (&w1)[2], const int (&u0)[2], const int (&u1)[2]) {
  using Steps = TiledSteps<Real, Layout>;
  if (w0[0] >= w1[0] || w0[1] >= w1[1]) return;
  // GPU: 64 x 32 points (the contiguous index first), 32 vector lanes and 8
  // lines at a time; CPU: 256 x 64, a few hundred KB, in the core's L2.
  // Deep fusion on a GPU halves the tile (across to 8, along to 32, then
  // across to 2: 16 FP64 steps) until the two buffers fit the shared memory a block may have (about 40 KB that Kokkos
  // leaves of 48). A CPU team's scratch is ordinary memory that Kokkos
  // allocates per thread at any size (its nominal 32 KB limit is not checked).
  constexpr bool host = std::is_same_v<ExecSpace, HostSpace>;
  int along = host ? 256 : 64, across = host ? 64 : 32;
  const auto bytes = [&] {
    return Steps::scratch_bytes(Steps::i_contiguous ? along : across, Steps::i_contiguous ? across : along, steps);
  };
  while (!host && bytes() > static_cast<size_t>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0)) &&
         (across > 2 || along > 32))
    (across > 8 || along == 32 ? across : along) /= 2;
  if (!host && bytes() > static_cast<size_t>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0)))
    throw std::runtime_error("diffusion: " + std::to_string(steps) +
                             " fused steps need more shared memory than a GPU block has, even on the smallest "
                             "tile; choose fewer diffusion.fused_steps");
  const int tile_i = Steps::i_contiguous ? along : across, tile_j = Steps::i_contiguous ? across : along;
  Steps f{now,
          next,
          alpha,
          steps,
          {tile_i, tile_j},
          (w1[0] - w0[0] + tile_i - 1) / tile_i,
          {w0[0], w0[1]},
          {w1[0], w1[1]},
          {u0[0], u0[1]},
          {u1[0], u1[1]},
          {static_cast<int>(now.extent(0)), static_cast<int>(now.extent(1))}};
  const int tiles = f.tiles_i * ((w1[1] - w0[1] + tile_j - 1) / tile_j);
  Kokkos::TeamPolicy<ExecSpace> policy =
      host ? Kokkos::TeamPolicy<ExecSpace>(tiles, 1, 1) : Kokkos::TeamPolicy<ExecSpace>(tiles, 8, 32);
  policy.set_scratch_size(0, Kokkos::PerTeam(Steps::scratch_bytes(tile_i, tile_j, steps)));
  Kokkos::parallel_for("diffusion::heat_steps_tiled", policy, f);
}

}  // namespace cfd::diffusion
