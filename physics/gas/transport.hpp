// Viscosity laws of an ideal gas, shared by the tube (physics/sod) and the
// 2D/3D Navier-Stokes solver; the heat conductivity follows from the
// Prandtl number, k = mu cp / Pr.
#pragma once

#include "core/kokkos_compat.hpp"

namespace cfd::gas {

// Sutherland's law mu(T) = mu0 ((T0 + S)/(T + S)) (T/T0)^(3/2), with
// (T/T0)^(3/2) as x sqrt(x) so that every backend rounds it alike (sqrt is
// correctly rounded, pow is not).
template <class Real>
KOKKOS_INLINE_FUNCTION Real sutherland(Real T, Real mu0, Real T0, Real S) {
  const Real x = T / T0;
  return mu0 * ((T0 + S) / (T + S)) * (x * kmath::sqrt(x));
}

enum class ViscosityLaw { none, constant, sutherland, power_law };

template <class Real>
struct Viscosity {
  ViscosityLaw law = ViscosityLaw::constant;
  Real mu0 = 0;       // the viscosity at T0 (the constant one)
  Real T0 = 1;        // the reference temperature of sutherland and power_law
  Real S = 0;         // Sutherland's constant, in the units of T
  Real exponent = 0;  // power_law: mu0 (T/T0)^exponent
  KOKKOS_INLINE_FUNCTION Real operator()(Real T) const {
    switch (law) {
      case ViscosityLaw::none: return Real(0);
      case ViscosityLaw::constant: return mu0;
      case ViscosityLaw::sutherland: return sutherland(T, mu0, T0, S);
      case ViscosityLaw::power_law: return mu0 * kmath::pow(T / T0, exponent);
    }
    return mu0;
  }
};

}  // namespace cfd::gas
