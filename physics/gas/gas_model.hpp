// The gas of every gas solver: an ideal gas (gamma and R; cp = gamma R /
// (gamma - 1)) with a viscosity law (transport.hpp) and Fourier heat
// conduction, k = mu cp / Pr. sod's KEEP tube and navier_stokes compute
// with it in their kernels; euler, inviscid, reads gamma only.
#pragma once

#include "core/kokkos_compat.hpp"
#include "physics/gas/transport.hpp"

namespace cfd::gas {

template <class Real>
struct GasModel {
  Real gamma, R, cp, Pr;
  Viscosity<Real> viscosity;
  KOKKOS_FORCEINLINE_FUNCTION Real mu(Real T) const { return viscosity(T); }
  KOKKOS_FORCEINLINE_FUNCTION Real conductivity(Real mu) const { return mu * cp / Pr; }
};

// The model in the working precision from a case's values in double, each
// rounded once (cp formed in double first).
template <class Real>
GasModel<Real> gas_model(double gamma, double R, double Pr, const Viscosity<double>& v) {
  return {Real(gamma),
          Real(R),
          Real(gamma * R / (gamma - 1)),
          Real(Pr),
          {v.law, Real(v.mu0), Real(v.T0), Real(v.S), Real(v.exponent)}};
}

}  // namespace cfd::gas
