// Local Lax-Friedrichs (Rusanov): one wave speed, the largest of the two
// sides' |v| + c (Toro, 3rd ed., section 10.5.1). The most dissipative of
// the three, and the most robust.
#pragma once

#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/riemann/riemann.hpp"

namespace cfd::gas {

// Local Lax-Friedrichs: F = (FL + FR)/2 - smax/2 (UR - UL).
template <bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> llf_flux(const Primitive<Real>& l, const Primitive<Real>& r, Real gamma) {
  const Real smax =
      max2(kmath::fabs(l.vx) + sound_speed(l.rho, l.p, gamma), kmath::fabs(r.vx) + sound_speed(r.rho, r.p, gamma));
  return Real(0.5) * (flux_x<Reciprocal>(l, gamma) + flux_x<Reciprocal>(r, gamma)) -
         (Real(0.5) * smax) * (to_conserved<Reciprocal>(r, gamma) - to_conserved<Reciprocal>(l, gamma));
}

template <>
struct Riemann<RiemannSolver::llf> {
  static constexpr const char* name = "llf";
  template <bool Reciprocal, class Real>
  KOKKOS_FORCEINLINE_FUNCTION static Conserved<Real> flux(const Primitive<Real>& l, const Primitive<Real>& r,
                                                          Real gamma) {
    return llf_flux<Reciprocal>(l, r, gamma);
  }
};

}  // namespace cfd::gas
