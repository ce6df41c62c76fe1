// The explicit 5-point update of the heat equation (problems.md section 1):
//   v(i,j) = u(i,j) + alpha*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1) - 4*u(i,j))
// The sum is evaluated left to right exactly as written, so every variant,
// layout and loop order, and the serial reference, round identically.
#pragma once

#include "core/kokkos_compat.hpp"
#include "core/parallel.hpp"

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

}  // namespace cfd::diffusion
