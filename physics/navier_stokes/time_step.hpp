// A cell's bound on the time step: the convective limit of the central
// scheme, cfl / sum_d (|v_d| + c)/h_d (the directions' Courant numbers add
// up in the von Neumann analysis of a central scheme), and the viscous one,
// fourier / (nu_eff sum_d 1/h_d^2) with nu_eff = max(4/3, gamma/Pr) mu/rho
// (momentum diffuses at up to 4/3 mu/rho, the normal stress's, and heat at
// gamma mu/(Pr rho)). Negative or
// NaN for a state that is not physical.
#pragma once

#include "physics/navier_stokes/state.hpp"

namespace cfd::navier_stokes {

template <class Real, int Dim>
struct CellTimeStep {
  Array4<Real> u;
  Real inverse_h[3];
  GasModel<Real> gas;
  Real cfl, fourier;
  KOKKOS_FORCEINLINE_FUNCTION Real operator()(const long k, const long j, const long i) const {
    const CellState<Real> s = cell_state(u, k, j, i, gas);
    if (!(s.rho > Real(0)) || !(s.p > Real(0))) return Real(-1);
    const Real c = kmath::sqrt(gas.gamma * s.p / s.rho);
    Real rate = Real(0), curvature = Real(0);
    for (int d = 0; d < Dim; ++d) {
      rate += (kmath::fabs(s.v[d]) + c) * inverse_h[d];
      curvature += inverse_h[d] * inverse_h[d];
    }
    Real dt = cfl / rate;
    const Real mu = gas.viscosity(s.T);
    if (mu > Real(0)) {
      const Real ratio = gas.gamma / gas.Pr, normal = Real(4) / Real(3);
      const Real nu = mu / s.rho * (ratio > normal ? ratio : normal);
      const Real viscous = fourier / (nu * curvature);
      if (viscous < dt) dt = viscous;
    }
    return dt;
  }
};

}  // namespace cfd::navier_stokes
