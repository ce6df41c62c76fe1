// Slope limiters for piecewise-linear reconstruction, as functions of the
// backward (dm) and forward (dp) differences; each returns the full limited
// slope across a cell (the face values are centre -/+ slope/2).
#pragma once

#include "core/kokkos_compat.hpp"

namespace cfd::gas {

enum class Limiter { minmod, vanleer, mc };

// The limiter as a template argument, for kernels that fix it at compile time.
template <Limiter L, class Real>
KOKKOS_FORCEINLINE_FUNCTION Real limited_slope(Real dm, Real dp) {
  if (dm * dp <= Real(0)) return Real(0);
  if constexpr (L == Limiter::minmod) {
    return kmath::fabs(dm) < kmath::fabs(dp) ? dm : dp;
  } else if constexpr (L == Limiter::mc) {
    const Real c = Real(0.5) * (dm + dp), m = Real(2) * (kmath::fabs(dm) < kmath::fabs(dp) ? dm : dp);
    return kmath::fabs(c) < kmath::fabs(m) ? c : m;
  } else {
    return Real(2) * dm * dp / (dm + dp);  // van Leer
  }
}

template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real limited_slope(Limiter limiter, Real dm, Real dp) {
  switch (limiter) {
    case Limiter::minmod: return limited_slope<Limiter::minmod>(dm, dp);
    case Limiter::mc: return limited_slope<Limiter::mc>(dm, dp);
    default: return limited_slope<Limiter::vanleer>(dm, dp);
  }
}

}  // namespace cfd::gas
