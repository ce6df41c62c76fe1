// Ideal-gas states and fluxes shared by the compressible solvers. Velocities
// carry three components; x is the face-normal direction of a flux (solvers
// rotate y into x, as AthenaK does with its direction template).
#pragma once

#include "core/kokkos_compat.hpp"

namespace cfd::gas {

template <class Real>
struct Primitive {
  Real rho, vx, vy, vz, p;
};

template <class Real>
struct Conserved {
  Real rho, mx, my, mz, energy;
};

template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real kinetic_energy(Real rho, Real vx, Real vy, Real vz) {
  return Real(0.5) * rho * (vx * vx + vy * vy + vz * vz);
}

// Reciprocal (here and in the Riemann solvers): where values share a
// divisor, multiply by its reciprocal instead of dividing each (a GPU
// evaluates a division as a sequence of a dozen instructions, a product as
// one). The results then differ in the last bits from dividing; correctly
// rounded divisions and products only, they should not depend on the backend.
// Schemes that must keep an original code's bits (sod's, the euler
// tutorial's) leave it false.
template <bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> to_conserved(const Primitive<Real>& w, Real gamma) {
  const Real internal = Reciprocal ? w.p * (Real(1) / (gamma - Real(1))) : w.p / (gamma - Real(1));
  return {w.rho, w.rho * w.vx, w.rho * w.vy, w.rho * w.vz, internal + kinetic_energy(w.rho, w.vx, w.vy, w.vz)};
}

template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Primitive<Real> to_primitive(const Conserved<Real>& u, Real gamma) {
  const Real vx = u.mx / u.rho, vy = u.my / u.rho, vz = u.mz / u.rho;
  return {u.rho, vx, vy, vz, (gamma - Real(1)) * (u.energy - kinetic_energy(u.rho, vx, vy, vz))};
}

template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real sound_speed(Real rho, Real p, Real gamma) {
  return kmath::sqrt(gamma * p / rho);
}

// Physical flux along x of the Euler equations.
template <bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> flux_x(const Primitive<Real>& w, Real gamma) {
  const Conserved<Real> u = to_conserved<Reciprocal>(w, gamma);
  return {u.mx, u.mx * w.vx + w.p, u.my * w.vx, u.mz * w.vx, (u.energy + w.p) * w.vx};
}

template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> operator+(const Conserved<Real>& a, const Conserved<Real>& b) {
  return {a.rho + b.rho, a.mx + b.mx, a.my + b.my, a.mz + b.mz, a.energy + b.energy};
}
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> operator-(const Conserved<Real>& a, const Conserved<Real>& b) {
  return {a.rho - b.rho, a.mx - b.mx, a.my - b.my, a.mz - b.mz, a.energy - b.energy};
}
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> operator*(Real s, const Conserved<Real>& a) {
  return {s * a.rho, s * a.mx, s * a.my, s * a.mz, s * a.energy};
}

}  // namespace cfd::gas
