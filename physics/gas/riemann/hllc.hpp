// HLLC: HLL with the contact restored (Toro, 3rd ed., section 10.4: the
// fluxes of eq. 10.37-10.39), Davis' outer wave speeds and the Batten et al.
// contact speed (eq. 10.70); in two forms that round differently, by
// divisions and by shared reciprocals.
#pragma once

#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/riemann/riemann.hpp"

namespace cfd::gas {

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

template <>
struct Riemann<RiemannSolver::hllc> {
  static constexpr const char* name = "hllc";
  template <bool Reciprocal, class Real>
  KOKKOS_FORCEINLINE_FUNCTION static Conserved<Real> flux(const Primitive<Real>& l, const Primitive<Real>& r,
                                                          Real gamma) {
    return hllc_flux<Reciprocal>(l, r, gamma);
  }
};

}  // namespace cfd::gas
