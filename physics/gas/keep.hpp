// The KEEP split convective fluxes (kinetic energy and entropy preserving;
// Kuya, Totani and Kawai 2018, J. Comput. Phys. 375, 823) between two nodes
// a and b of a line, and the pressure-equilibrium preserving variant KEEP-PE
// (Shima, Kuya, Tamaki and Kawai 2021, J. Comput. Phys. 427, 110060), shared
// by the 1D tube (physics/sod) and the 2D/3D Navier-Stokes solver
// (physics/navier_stokes). With C = avg(rho) avg(u_n):
//   mass      C
//   momentum  C avg(v_k) + avg(p) (normal component only)
//   energy    C avg(e) + C (u_a.u_b)/2 + (u_n,a p_b + u_n,b p_a)/2       (KEEP)
//             avg(p) avg(u_n)/(gamma-1) + C (u_a.u_b)/2 + (...)/2       (KEEP-PE)
// where e = R T/(gamma-1) is the specific internal energy. A wider stencil of
// higher order sums these two-point fluxes over pairs of nodes (Kuya and
// Kawai 2021, J. Comput. Phys. 441, 110482): see WideStencil below.
#pragma once

#include "core/kokkos_compat.hpp"

namespace cfd::gas {

// What a node contributes to a two-point flux: the velocity has NV
// components (1: the tube; 3: 2D and 3D), v[0] normal to the face.
template <class Real, int NV>
struct KeepNode {
  Real rho, v[NV], p, T;
};

template <class Real, int NV>
struct KeepPairFlux {
  Real mass, momentum[NV], energy;
};

// The two-point flux of the convective and pressure terms between nodes a
// and b. The arithmetic is written in the order of the original CUDA
// Fortran code's KEEP flux (docs/problems.md section 2), so that the tube
// keeps its bits: ((C/2) u_a) u_b, never (C/2)(u_a u_b).
template <bool PressureEquilibrium = false, class Real, int NV>
KOKKOS_FORCEINLINE_FUNCTION KeepPairFlux<Real, NV> keep_pair_flux(const KeepNode<Real, NV>& a,
                                                                  const KeepNode<Real, NV>& b, Real R, Real gamma) {
  KeepPairFlux<Real, NV> f;
  const Real c = Real(0.25) * (a.rho + b.rho) * (a.v[0] + b.v[0]);
  f.mass = c;
  f.momentum[0] = Real(0.5) * c * (a.v[0] + b.v[0]) + Real(0.5) * (a.p + b.p);
  for (int k = 1; k < NV; ++k) f.momentum[k] = Real(0.5) * c * (a.v[k] + b.v[k]);
  Real kinetic = Real(0.5) * c * a.v[0] * b.v[0];
  for (int k = 1; k < NV; ++k) kinetic += Real(0.5) * c * a.v[k] * b.v[k];
  const Real pressure_work = Real(0.5) * (a.v[0] * b.p + b.v[0] * a.p);
  if constexpr (PressureEquilibrium)
    f.energy = Real(0.25) * (a.p + b.p) * (a.v[0] + b.v[0]) / (gamma - Real(1)) + kinetic + pressure_work;
  else
    f.energy = c * Real(0.5) * R * (a.T + b.T) / (gamma - Real(1)) + kinetic + pressure_work;
  return f;
}

// Central first derivatives of order 2 * Half on a uniform grid: the
// coefficients a_l (l = 1..Half) of (dq/dx)_i = sum_l a_l (q_{i+l} - q_{i-l}) / h. The
// split-form flux through face i+1/2 of that order is
//   F_{i+1/2} = 2 sum_{l=1}^{Half} a_l sum_{m=0}^{l-1} f(i-m, i-m+l),
// whose difference F_{i+1/2} - F_{i-1/2} is the central derivative of the
// split form (Pirozzoli 2010; Kuya and Kawai 2021, eq. 20).
template <int Half>
struct WideStencil {
  // Functions rather than arrays: a static constexpr array is host memory,
  // which nvcc does not let device code read.
  KOKKOS_INLINE_FUNCTION static constexpr double a(int l) {
    if (Half == 1) return 0.5;
    if (Half == 2) return l == 1 ? 2.0 / 3.0 : -1.0 / 12.0;
    return l == 1 ? 3.0 / 4.0 : l == 2 ? -3.0 / 20.0 : 1.0 / 60.0;
  }
};

// Face-centred operators of the same order, for the viscous fluxes: the
// value at face i+1/2 from the nodes on both sides,
//   q_{i+1/2} = sum_l b_l (q_{i+1-l} + q_{i+l}),
// and its derivative normal to the face,
//   (dq/dx)_{i+1/2} = sum_l c_l (q_{i+l} - q_{i+1-l}) / h
// (Lagrange interpolation and differentiation on 2 Half nodes).
template <int Half>
struct FaceStencil {
  KOKKOS_INLINE_FUNCTION static constexpr double b(int l) {
    if (Half == 1) return 0.5;
    if (Half == 2) return l == 1 ? 9.0 / 16.0 : -1.0 / 16.0;
    return l == 1 ? 150.0 / 256.0 : l == 2 ? -25.0 / 256.0 : 3.0 / 256.0;
  }
  KOKKOS_INLINE_FUNCTION static constexpr double c(int l) {
    if (Half == 1) return 1.0;
    if (Half == 2) return l == 1 ? 27.0 / 24.0 : -1.0 / 24.0;
    return l == 1 ? 2250.0 / 1920.0 : l == 2 ? -125.0 / 1920.0 : 9.0 / 1920.0;
  }
};

}  // namespace cfd::gas
