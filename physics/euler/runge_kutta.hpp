// A step of euler as the sequence of stages of its integrator's table
// (physics/gas/integrators.hpp: forward Euler, SSP-RK2, SSP-RK3), one source
// for both of euler::Solver<Real, Dim>'s dimensions. Each stage is
//   u_out = a * u_base + b * (u_in + dt * L(u_in)),
// and at(c) readies the ghosts (the inflow sides') for the time t + c dt
// that the stage's input stands for.
#pragma once

#include "physics/euler/euler_params.hpp"  // Integrator
#include "physics/gas/integrators.hpp"

#include <stdexcept>
#include <string>
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
  const gas::IntegratorMethod& m = gas::integrator_method(integrator);
  if (!m.convex) throw std::logic_error("euler: " + std::string(m.name) + " is not a convex (Shu-Osher) method");
  auto a = [&](int s) { return m.stage[s].a.template as<Real>(); };
  auto b = [&](int s) { return m.stage[s].b.template as<Real>(); };
  if (m.stages == 1) {
    at(m.stage[0].time.value());
    const Real bound = stage(u, u, apart ? u_stage : u, a(0), b(0), dt, true);
    if (apart) std::swap(u, u_stage);
    return bound;
  }
  Real bound{};
  const Array* in = &u;
  for (int s = 0; s < m.stages; ++s) {
    const bool last = s == m.stages - 1;
    // The first stage writes u_stage, the last u; one between (SSP-RK3's
    // second) writes u_stage again, or u_stage2 when stages are apart.
    const Array& out = last ? u : s == 0 || !apart ? u_stage : u_stage2;
    at(m.stage[s].time.value());
    const Real found = stage(u, *in, out, a(s), b(s), dt, last);
    if (last) bound = found;
    in = &out;
  }
  return bound;
}

}  // namespace cfd::euler
