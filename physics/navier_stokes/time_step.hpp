// A cell's allowed dt under the gas solvers' time-step contract
// (physics/gas/time_step.hpp): the convective bound min_d h_d/(|v_d| + c)
// times time.cfl, and the viscous one 1/(nu_eff sum_d 1/h_d^2) times
// time.fourier, whichever is smaller; -1 for a state that is not physical.
#pragma once

#include "physics/gas/time_step.hpp"
#include "physics/navier_stokes/state.hpp"

namespace cfd::navier_stokes {

template <class Real, int Dim>
struct DtBound {
  Array4<Real> u;
  Real h[3];
  Real curvature;  // sum_d 1/h_d^2 over the Dim directions, the same for every cell
  GasModel<Real> gas;
  Real cfl, fourier;
  KOKKOS_FORCEINLINE_FUNCTION Real operator()(const long k, const long j, const long i) const {
    const CellState<Real> s = cell_state(u, k, j, i, gas);
    const Real convective =
        gas::convective_dt_bound<Dim>(s.rho, s.v[0], s.v[1], s.v[2], s.p, gas.gamma, h[0], h[1], h[2]);
    const Real nu = gas::effective_diffusivity(gas.viscosity(s.T), s.rho, gas.gamma, gas.Pr);
    return gas::allowed_dt(cfl, convective, fourier, gas::viscous_dt_bound(nu, curvature));  // -1: not physical
  }
};

}  // namespace cfd::navier_stokes
