// The velocity gradient at cell centres, G(3 k + m) = d v_m / d x_k, by the
// central difference of the scheme's order. The viscous flux through a face
// normal to d takes its derivatives along the face (k != d) from G,
// interpolated to the face (fluxes.hpp), so G of direction k is computed
// over the owned cells along k and the ghost cells along the other
// directions, as far as the viscous fluxes reach (the W ghosts there hold
// what lies across, edges too).
#pragma once

#include "physics/gas/keep.hpp"
#include "physics/navier_stokes/state.hpp"

namespace cfd::navier_stokes {

template <class Real, int Half, int K>
struct VelocityGradient {
  Array4<Real> w, g;
  Real inverse_h;  // 1/h along K
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    for (int m = 0; m < 3; ++m) {
      Real d = Real(0);
      for (int l = 1; l <= Half; ++l)
        d += Real(gas::WideStencil<Half>::a(l)) *
             (shifted<K>(w, IVX + m, k, j, i, l) - shifted<K>(w, IVX + m, k, j, i, -l));
      g(3 * K + m, k, j, i) = d * inverse_h;
    }
  }
};

}  // namespace cfd::navier_stokes
