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
  KOKKOS_INLINE_FUNCTION void operator()(const int i, const int j) const {
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
  KOKKOS_INLINE_FUNCTION void operator()(const int i, const int j) const {
    const long gi = first_x + i, gj = first_y + j;
    if (gi == 0 || gj == 0 || gi == last_x || gj == last_y) {
      next(i, j) = Real(0);
    } else {
      next(i, j) = heat_update(now(i, j), now(i - 1, j), now(i + 1, j), now(i, j - 1), now(i, j + 1), alpha);
    }
  }
};

}  // namespace cfd::diffusion
