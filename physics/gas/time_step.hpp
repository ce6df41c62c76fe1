// The time-step contract of the gas solvers (sod, euler, navier_stokes).
// Each part of the physics gives its own bound on dt without a safety
// factor: convection convective_dt_bound, viscosity and heat conduction
// viscous_dt_bound; the user's source terms their sources.dt_bound
// (user_sources.hpp), which the solvers take as it is. One function, allowed_dt,
// applies the factors: time.cfl to the convective bound, time.fourier to the
// viscous one, so that time.cfl means one thing in every gas solver:
//
//   dt <= cfl * min over cells and directions d of h_d / (|v_d| + c),
//
// the Courant number of the fastest wave along each direction, as AthenaK's
// hydro_newdt.cpp and Idefix's CFL take it. A wave along a diagonal sees the
// directions' Courant numbers add up, so a scheme's stable cfl in D
// dimensions is its 1D limit over D or a little more (each solver's
// time.cfl says its own). The name is "dt bound" throughout: a module's
// bound is without the factor, the solver's allowed_dt() (what the time
// loop asks each rank) with it.
#pragma once

#include "core/kokkos_compat.hpp"
#include "physics/gas/ideal_gas.hpp"

namespace cfd::gas {

// The convective bound of a cell: min over the first Dim directions of
// h_d / (|v_d| + c); -1 where the cell is not physical (density or pressure
// not positive, or NaN). The minimum is taken x, y, then z, stopping at a
// NaN of x and y (euler's 2D and 3D kernels gave these bits before the
// contract: they call this).
template <int Dim, class Real>
KOKKOS_FORCEINLINE_FUNCTION Real convective_dt_bound(Real rho, Real vx, Real vy, Real vz, Real p, Real gamma, Real hx,
                                                     Real hy, Real hz) {
  if (!(rho > Real(0)) || !(p > Real(0))) return Real(-1);
  const Real c = sound_speed(rho, p, gamma);
  Real bound = hx / (kmath::fabs(vx) + c);
  if constexpr (Dim >= 2) {
    const Real ty = hy / (kmath::fabs(vy) + c);
    bound = bound < ty ? bound : ty;
  }
  if constexpr (Dim == 3) {
    if (!(bound >= Real(0))) return bound;
    const Real tz = hz / (kmath::fabs(vz) + c);
    bound = bound < tz ? bound : tz;
  }
  return bound;
}

// The effective diffusivity of viscosity and heat conduction together:
// momentum diffuses at up to 4/3 mu/rho (the normal stress's), heat at
// gamma mu/(Pr rho).
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real effective_diffusivity(Real mu, Real rho, Real gamma, Real Pr) {
  const Real ratio = gamma / Pr, normal = Real(4) / Real(3);
  return mu / rho * (ratio > normal ? ratio : normal);
}

// The viscous bound of a cell: 1 / (nu_eff sum_d 1/h_d^2), given the sum;
// no bound (the largest Real) where nu_eff is 0.
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real viscous_dt_bound(Real nu_eff, Real sum_inverse_h2) {
  if (!(nu_eff > Real(0))) return Kokkos::reduction_identity<Real>::min();
  return Real(1) / (nu_eff * sum_inverse_h2);
}

// The one place that applies the factors: min(cfl * convective, fourier *
// viscous); -1 when a bound is negative or NaN (a state that is not
// physical), which the time loop reports as a fault. cfl * min(bounds)
// equals min(cfl * bound) bit for bit (rounding is monotonic), so a solver
// may reduce the bounds over its cells first and call this once.
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real allowed_dt(Real cfl, Real convective, Real fourier = Real(0),
                                            Real viscous = Kokkos::reduction_identity<Real>::min()) {
  if (!(convective >= Real(0)) || !(viscous >= Real(0))) return Real(-1);
  const Real waves = cfl * convective;
  if (!(viscous < Kokkos::reduction_identity<Real>::min())) return waves;
  const Real diffusion = fourier * viscous;
  return diffusion < waves ? diffusion : waves;
}

}  // namespace cfd::gas
