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

// W from U for the KEEP solvers (sod's tube, navier_stokes), one source:
// a node's or cell's N velocity components m/rho, its pressure
// (gamma - 1)(E - rho |v|^2/2) and temperature p/(rho R). (euler's
// cell_primitives goes through the internal energy e instead, as the
// tutorial's Fortran does; its bits are the original's.)
template <class Real, int N>
struct GasState {
  Real rho, v[N], p, T;
};

template <int N, class Real>
KOKKOS_FORCEINLINE_FUNCTION GasState<Real, N> gas_state(Real rho, const Real (&momentum)[N], Real energy,
                                                        const GasModel<Real>& gas) {
  GasState<Real, N> s;
  s.rho = rho;
  for (int d = 0; d < N; ++d) s.v[d] = momentum[d] / rho;
  Real speed2 = s.v[0] * s.v[0];  // |v|^2, summed x, y, z in that order
  for (int d = 1; d < N; ++d) speed2 += s.v[d] * s.v[d];
  s.p = (gas.gamma - Real(1)) * (energy - Real(0.5) * rho * speed2);
  s.T = s.p / (rho * gas.R);
  return s;
}

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
