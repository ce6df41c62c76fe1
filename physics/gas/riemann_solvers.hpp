// Approximate Riemann solvers: the flux through a face normal to x between a
// left and a right primitive state. References: E. F. Toro, "Riemann Solvers
// and Numerical Methods for Fluid Dynamics", 3rd ed., Springer 2009:
// LLF (Rusanov) section 10.5.1, HLLE section 10.3 with Einfeldt's simple wave
// speeds, HLLC section 10.4 (eq. 10.37-10.39 fluxes, 10.70 contact speed).
#pragma once

#include "physics/gas/ideal_gas.hpp"

namespace cfd::gas {

enum class RiemannSolver { hlle, hllc, llf };

template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real max2(Real a, Real b) {
  return a > b ? a : b;
}
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real min2(Real a, Real b) {
  return a < b ? a : b;
}

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

// Local Lax-Friedrichs: F = (FL + FR)/2 - smax/2 (UR - UL).
template <bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> llf_flux(const Primitive<Real>& l, const Primitive<Real>& r, Real gamma) {
  const Real smax =
      max2(kmath::fabs(l.vx) + sound_speed(l.rho, l.p, gamma), kmath::fabs(r.vx) + sound_speed(r.rho, r.p, gamma));
  return Real(0.5) * (flux_x<Reciprocal>(l, gamma) + flux_x<Reciprocal>(r, gamma)) -
         (Real(0.5) * smax) * (to_conserved<Reciprocal>(r, gamma) - to_conserved<Reciprocal>(l, gamma));
}

// HLLC's three waves: Davis' estimates of the outer ones from the sides'
// sound speeds and the Batten et al. contact speed between them. Both forms
// of HLLC below take them from here.
template <class Real>
struct HllcWaves {
  Real left, right, contact;
};
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION HllcWaves<Real> hllc_waves(const Primitive<Real>& l, const Primitive<Real>& r, Real cl,
                                                       Real cr) {
  const Real sl = min2(l.vx - cl, r.vx - cr);
  const Real sr = max2(l.vx + cl, r.vx + cr);
  const Real sm = (r.p - l.p + l.rho * l.vx * (sl - l.vx) - r.rho * r.vx * (sr - r.vx)) /
                  (l.rho * (sl - l.vx) - r.rho * (sr - r.vx));
  return {sl, sr, sm};
}

// HLLC by shared reciprocals (hllc_flux<true>): 1/rho of each side serves
// its sound speed and the star state's E/rho, and q = 1/((s - vx)(s - sm))
// gives both of the star state's quotients, 1/(s - sm) = (s - vx) q and
// 1/(s - vx) = (s - sm) q: three reciprocals and a division where the
// form below divides six times (a GPU's division is a sequence of a dozen
// dependent instructions). Correctly rounded operations only, so every
// backend gets the same bits.
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> hllc_flux_by_reciprocals(const Primitive<Real>& l, const Primitive<Real>& r,
                                                                     Real gamma) {
  const Real inv_rho_l = Real(1) / l.rho, inv_rho_r = Real(1) / r.rho;
  const Real cl = kmath::sqrt(gamma * l.p * inv_rho_l), cr = kmath::sqrt(gamma * r.p * inv_rho_r);
  const auto [sl, sr, sm] = hllc_waves(l, r, cl, cr);
  if (sl >= Real(0)) return flux_x<true>(l, gamma);
  if (sr <= Real(0)) return flux_x<true>(r, gamma);
  const bool left = sm >= Real(0);
  const Primitive<Real>& w = left ? l : r;
  const Real s = left ? sl : sr, inv_rho = left ? inv_rho_l : inv_rho_r;
  const Conserved<Real> u = to_conserved<true>(w, gamma);
  const Real to_wave = s - w.vx, to_contact = s - sm, q = Real(1) / (to_wave * to_contact);
  const Real factor = w.rho * to_wave * (to_wave * q);
  const Conserved<Real> star{factor, factor * sm, factor * w.vy, factor * w.vz,
                             factor * (u.energy * inv_rho + (sm - w.vx) * (sm + w.p * inv_rho * (to_contact * q)))};
  return flux_x<true>(w, gamma) + s * (star - u);
}

// HLLC with Davis' wave-speed estimates and the Batten et al. contact speed.
template <bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> hllc_flux(const Primitive<Real>& l, const Primitive<Real>& r, Real gamma) {
  if constexpr (Reciprocal) {
    return hllc_flux_by_reciprocals(l, r, gamma);
  } else {
    const Real cl = sound_speed(l.rho, l.p, gamma), cr = sound_speed(r.rho, r.p, gamma);
    const auto [sl, sr, sm] = hllc_waves(l, r, cl, cr);
    if (sl >= Real(0)) return flux_x<false>(l, gamma);
    if (sr <= Real(0)) return flux_x<false>(r, gamma);
    // Star state on the side the face sits in (Toro eq. 10.39).
    const bool left = sm >= Real(0);
    const Primitive<Real>& w = left ? l : r;
    const Real s = left ? sl : sr;
    const Conserved<Real> u = to_conserved<false>(w, gamma);
    const Real factor = w.rho * (s - w.vx) / (s - sm);
    const Conserved<Real> star{factor, factor * sm, factor * w.vy, factor * w.vz,
                               factor * (u.energy / w.rho + (sm - w.vx) * (sm + w.p / (w.rho * (s - w.vx))))};
    return flux_x<false>(w, gamma) + s * (star - u);
  }
}

// The solver as a template argument, for kernels that fix it at compile time.
template <RiemannSolver S, bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> riemann_flux(const Primitive<Real>& l, const Primitive<Real>& r,
                                                         Real gamma) {
  if constexpr (S == RiemannSolver::hllc)
    return hllc_flux<Reciprocal>(l, r, gamma);
  else if constexpr (S == RiemannSolver::llf)
    return llf_flux<Reciprocal>(l, r, gamma);
  else
    return hlle_flux<Reciprocal>(l, r, gamma);
}

template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> riemann_flux(RiemannSolver solver, const Primitive<Real>& l,
                                                         const Primitive<Real>& r, Real gamma) {
  switch (solver) {
    case RiemannSolver::hllc: return hllc_flux(l, r, gamma);
    case RiemannSolver::llf: return llf_flux(l, r, gamma);
    default: return hlle_flux(l, r, gamma);
  }
}

}  // namespace cfd::gas
