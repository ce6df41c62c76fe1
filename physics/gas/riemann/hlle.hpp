// HLLE: Harten, Lax and van Leer's two-wave solver with Einfeldt's wave
// speeds (E. F. Toro, "Riemann Solvers and Numerical Methods for Fluid
// Dynamics", 3rd ed., Springer 2009, section 10.3), and the OpenACC
// tutorial's form of it (problems.md section 3), which the euler solver's original
// case keeps bit for bit.
#pragma once

#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/riemann/riemann.hpp"

namespace cfd::gas {

// HLLE from given face states, conserved vectors, fluxes and sound speeds:
// sL = min(0, min(vL,vR) - max(cL,cR)), sR = max(0, max(vL,vR) + max(cL,cR)),
// F = (sR*FL - sL*FR + sL*sR*(UR-UL))/(sR-sL).
template <bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> hlle_from(Real vl, Real cl, const Conserved<Real>& ul,
                                                      const Conserved<Real>& fl, Real vr, Real cr,
                                                      const Conserved<Real>& ur, const Conserved<Real>& fr) {
  const Real cmax = max2(cl, cr);
  const Real sl = min2(Real(0), min2(vl, vr) - cmax);
  const Real sr = max2(Real(0), max2(vl, vr) + cmax);
  const Conserved<Real> num = sr * fl - sl * fr + (sl * sr) * (ur - ul);
  const Real den = sr - sl;
  if constexpr (Reciprocal) {
    const Real inv = Real(1) / den;
    return {num.rho * inv, num.mx * inv, num.my * inv, num.mz * inv, num.energy * inv};
  }
  return {num.rho / den, num.mx / den, num.my / den, num.mz / den, num.energy / den};
}

template <bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> hlle_flux(const Primitive<Real>& l, const Primitive<Real>& r, Real gamma) {
  return hlle_from<Reciprocal>(l.vx, sound_speed(l.rho, l.p, gamma), to_conserved<Reciprocal>(l, gamma),
                               flux_x<Reciprocal>(l, gamma), r.vx, sound_speed(r.rho, r.p, gamma),
                               to_conserved<Reciprocal>(r, gamma), flux_x<Reciprocal>(r, gamma));
}

// The OpenACC tutorial's HLLE (problems.md section 3): e and p reconstructed
// independently; the face energy is rho*e + kinetic, the sound speed
// sqrt(gamma*(gamma-1)*e), and the flux's pressure the reconstructed p.
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> hlle_flux_tutorial(const Primitive<Real>& l, Real el,
                                                               const Primitive<Real>& r, Real er, Real gamma) {
  auto face = [gamma](const Primitive<Real>& w, Real e, Conserved<Real>& u, Conserved<Real>& f, Real& c) {
    const Real energy = w.rho * e + kinetic_energy(w.rho, w.vx, w.vy, w.vz);
    u = {w.rho, w.rho * w.vx, w.rho * w.vy, w.rho * w.vz, energy};
    f = {u.mx, u.mx * w.vx + w.p, u.my * w.vx, u.mz * w.vx, (energy + w.p) * w.vx};
    c = kmath::sqrt(gamma * (gamma - Real(1)) * e);
  };
  Conserved<Real> ul, fl, ur, fr;
  Real cl, cr;
  face(l, el, ul, fl, cl);
  face(r, er, ur, fr, cr);
  return hlle_from(l.vx, cl, ul, fl, r.vx, cr, ur, fr);
}

template <>
struct Riemann<RiemannSolver::hlle> {
  static constexpr const char* name = "hlle";
  template <bool Reciprocal, class Real>
  KOKKOS_FORCEINLINE_FUNCTION static Conserved<Real> flux(const Primitive<Real>& l, const Primitive<Real>& r,
                                                          Real gamma) {
    return hlle_flux<Reciprocal>(l, r, gamma);
  }
};

}  // namespace cfd::gas
