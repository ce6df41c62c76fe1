// The KEEP (kinetic energy and entropy preserving) central fluxes of the
// original CUDA Fortran study, with Sutherland viscosity and Fourier heat
// conduction, in dimensional units (problems.md section 2).
#pragma once

#include "core/kokkos_compat.hpp"

namespace cfd::sod {

enum class Viscosity { none, constant, sutherland };

template <class Real>
struct KeepGas {
  Real gamma, R, Cp, Pr;
  Real mu0, T0, S;  // Sutherland: mu0 at T0, constant S
  Viscosity viscosity;

  // mu(T) = mu0*((T0+S)/(T+S))*(T/T0)^1.5; (T/T0)^1.5 as x*sqrt(x) so that
  // every backend rounds it alike (sqrt is correctly rounded, pow is not).
  KOKKOS_INLINE_FUNCTION Real mu(Real T) const {
    if (viscosity == Viscosity::none) return Real(0);
    if (viscosity == Viscosity::constant) return mu0;
    const Real x = T / T0;
    return mu0 * ((T0 + S) / (T + S)) * (x * kmath::sqrt(x));
  }
};

// Primitive variables at a node.
template <class Real>
struct NodeState {
  Real rho, u, p, T, mu;
};

template <class Real>
KOKKOS_INLINE_FUNCTION NodeState<Real> node_state(Real rho, Real momentum, Real energy, const KeepGas<Real>& g) {
  NodeState<Real> s;
  s.rho = rho;
  s.u = momentum / rho;
  s.p = (g.gamma - Real(1)) * (energy - Real(0.5) * rho * (s.u * s.u));
  s.T = s.p / (rho * g.R);
  s.mu = g.mu(s.T);
  return s;
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
  KeepFlux<Real> f;
  const Real c = Real(0.25) * (a.rho + b.rho) * (a.u + b.u);
  f.e1 = c;
  f.e2 = Real(0.5) * c * (a.u + b.u) + Real(0.5) * (a.p + b.p);
  f.e3 = c * Real(0.5) * g.R * (a.T + b.T) / (g.gamma - Real(1)) + Real(0.5) * c * a.u * b.u +
         Real(0.5) * (a.u * b.p + b.u * a.p);
  const Real tw = Real(4) * (a.mu + b.mu) * (b.u - a.u) / (Real(6) * dx);
  f.ev2 = tw;
  f.ev3 = Real(0.5) * tw * (a.u + b.u) + g.Cp * (a.mu + b.mu) * (b.T - a.T) / (g.Pr * Real(2) * dx);
  return f;
}

// q_j -= (dt/dx)*((e_j - e_j-1) - (ev_j - ev_j-1)) for one component.
template <class Real>
KOKKOS_INLINE_FUNCTION Real keep_update(Real q, Real ratio, Real e_right, Real e_left, Real ev_right, Real ev_left) {
  return q - mul_unfused(ratio, (e_right - e_left) - (ev_right - ev_left));
}

}  // namespace cfd::sod
