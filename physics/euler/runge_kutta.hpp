// The time integrators of euler (forward Euler and the SSP Runge-Kutta
// methods of order 2 and 3, Shu & Osher 1988) as a sequence of stages, one
// source for both of euler::Solver<Real, Dim>'s dimensions. Each stage is
//   u_out = a * u_base + b * (u_in + dt * L(u_in)),
// and at(c) readies the ghosts (the inflow sides') for the time t + c dt
// that the stage's input stands for.
#pragma once

#include "physics/euler/euler_params.hpp"  // Integrator

#include <utility>

namespace cfd::euler {

// One step: stage(u_base, u_in, u_out, a, b, dt, last) computes a stage and
// returns, when `last`, the bound on the next dt its kernel found (the fused
// stages; the split kernels return anything, and the solver asks a kernel
// instead). `apart`: no stage may write the array it reads (a fused stage
// reads u_in around each cell), so forward Euler writes u_stage and swaps
// it with u, and SSP-RK3's second stage writes u_stage2; otherwise (the
// split kernels read u_in at its own cell only, and the fluxes from W)
// forward Euler and RK3's second stage update in place. The first stage
// writes u_stage and later stages read it, so u itself is the base and no
// copy of the state is needed. Returns the last stage's bound.
template <class Real, class Array, class At, class Stage>
Real ssp_step(Integrator integrator, bool apart, Array& u, Array& u_stage, const Array& u_stage2, Real dt, const At& at,
              const Stage& stage) {
  Real bound{};
  switch (integrator) {
    case Integrator::euler:
      at(0.0);
      bound = stage(u, u, apart ? u_stage : u, Real(0), Real(1), dt, true);
      if (apart) std::swap(u, u_stage);
      break;
    case Integrator::rk2:  // u1 = u + dt L(u); u = u/2 + (u1 + dt L(u1))/2
      at(0.0);
      stage(u, u, u_stage, Real(0), Real(1), dt, false);
      at(1.0);
      bound = stage(u, u_stage, u, Real(0.5), Real(0.5), dt, true);
      break;
    case Integrator::rk3: {  // u1 = u + dt L(u); u2 = 3/4 u + 1/4 (u1 + dt L(u1)); u = 1/3 u + 2/3 (u2 + dt L(u2))
      const Array& second = apart ? u_stage2 : u_stage;
      at(0.0);
      stage(u, u, u_stage, Real(0), Real(1), dt, false);
      at(1.0);
      stage(u, u_stage, second, Real(0.75), Real(0.25), dt, false);
      at(0.5);
      bound = stage(u, second, u, Real(1) / Real(3), Real(2) / Real(3), dt, true);
      break;
    }
  }
  return bound;
}

}  // namespace cfd::euler
