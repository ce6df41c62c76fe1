// The KEEP (kinetic energy and entropy preserving) central fluxes of the
// original CUDA Fortran study, with Sutherland viscosity and Fourier heat
// conduction, in dimensional units (problems.md section 2).
#pragma once

#include "core/kokkos_compat.hpp"
#include "physics/gas/gas_model.hpp"
#include "physics/gas/keep.hpp"

namespace cfd::sod {

// The tube's gas is every gas solver's (physics/gas/gas_model.hpp); the
// original's viscosity is none, constant or Sutherland's.
template <class Real>
using KeepGas = gas::GasModel<Real>;

// Primitive variables at a node.
template <class Real>
struct NodeState {
  Real rho, u, p, T, mu;
};

template <class Real>
KOKKOS_INLINE_FUNCTION NodeState<Real> node_state(Real rho, Real momentum, Real energy, const KeepGas<Real>& g) {
  const Real m[1] = {momentum};
  const gas::GasState<Real, 1> s = gas::gas_state(rho, m, energy, g);  // W from U, as navier_stokes'
  return {s.rho, s.v[0], s.p, s.T, g.mu(s.T)};
}

// Convective (e) and viscous (ev) fluxes through the interface between
// nodes a and b = a+1; ev1 = 0.
template <class Real>
struct KeepFlux {
  Real e1, e2, e3, ev2, ev3;
};

template <class Real>
KOKKOS_INLINE_FUNCTION KeepFlux<Real> keep_flux(const NodeState<Real>& a, const NodeState<Real>& b, Real dx,
                                                const KeepGas<Real>& g) {
  // The convective part is the KEEP two-point flux shared with the 2D/3D
  // Navier-Stokes solver (physics/gas/keep.hpp), in the original's order.
  const gas::KeepPairFlux<Real, 1> e = gas::keep_pair_flux(
      gas::KeepNode<Real, 1>{a.rho, {a.u}, a.p, a.T}, gas::KeepNode<Real, 1>{b.rho, {b.u}, b.p, b.T}, g.R, g.gamma);
  KeepFlux<Real> f;
  f.e1 = e.mass;
  f.e2 = e.momentum[0];
  f.e3 = e.energy;
  const Real tw = Real(4) * (a.mu + b.mu) * (b.u - a.u) / (Real(6) * dx);
  f.ev2 = tw;
  f.ev3 = Real(0.5) * tw * (a.u + b.u) + g.cp * (a.mu + b.mu) * (b.T - a.T) / (g.Pr * Real(2) * dx);
  return f;
}

// q_j -= (dt/dx)*((e_j - e_j-1) - (ev_j - ev_j-1)) for one component.
template <class Real>
KOKKOS_INLINE_FUNCTION Real keep_update(Real q, Real ratio, Real e_right, Real e_left, Real ev_right, Real ev_left) {
  return q - mul_unfused(ratio, (e_right - e_left) - (ev_right - ev_left));
}

}  // namespace cfd::sod
