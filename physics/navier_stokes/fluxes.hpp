// The flux through a face: KEEP's split convective form on 2 Half nodes
// (physics/gas/keep.hpp) minus the viscous stresses and heat conduction,
// by central differences of the same order. Face i along D lies between
// cells i-1 and i; its nodes are those cells and Half-1 more on each side.
// The normal velocity goes to the two-point flux's first slot (x as it is,
// y as (vy, vx, vz), z as (vz, vx, vy): the 3D Euler kernels' rotation) and
// the flux comes back in x, y, z components.
//
// Viscous flux through a face with normal n = e_D (gas::viscous_face_flux,
// the gas wing's one source), from the derivatives normal to it (face
// differences of the nodes) and along it (the cell centres' G,
// interpolated).
//
// Point values of the viscous flux at faces have a difference that is only
// second-order accurate; the flux a cell's update takes is corrected to the
// scheme's order (update.hpp, FaceStencil's deconvolution weights).
//
// A face on a wall takes the two-point flux of the cells beside it alone,
// whatever the order: with the mirrored ghost (walls.hpp) its convective
// flux carries no mass and no energy through the wall at any order (heat
// conduction and a moving wall's work do cross it, by the viscous flux).
#pragma once

#include "physics/gas/keep.hpp"
#include "physics/gas/viscous_flux.hpp"
#include "physics/navier_stokes/state.hpp"

namespace cfd::navier_stokes {

// Which terms a flux holds: all of them in a step; one at a time for the
// diagnostics of the kinetic energy budget (diagnostics.hpp).
enum Terms : int { convection = 1, pressure = 2, viscous = 4, all_terms = 7 };

template <class Real>
struct Flux {
  Real mass, momentum[3], energy;  // momentum in x, y, z components
};

template <class Real, int Dim, int Half, int D>
struct FaceFlux {
  // The components in the order of the rotated frame: normal first.
  KOKKOS_INLINE_FUNCTION static constexpr int component(int r) {
    return D == 0 ? r : D == 1 ? (r == 0 ? 1 : r == 1 ? 0 : 2) : (r == 0 ? 2 : r - 1);
  }

  // The nodes of face i along D (node t is the cell t - Half from the face's upper cell), rotated.
  template <class W>
  KOKKOS_FORCEINLINE_FUNCTION static void load(const W& w, long k, long j, long i,
                                               gas::KeepNode<Real, 3> node[2 * Half]) {
    for (int t = 0; t < 2 * Half; ++t) {
      const long s = t - Half;
      node[t].rho = shifted<D>(w, IDN, k, j, i, s);
      for (int r = 0; r < 3; ++r) node[t].v[r] = shifted<D>(w, IVX + component(r), k, j, i, s);
      node[t].p = shifted<D>(w, IPR, k, j, i, s);
      node[t].T = shifted<D>(w, ITM, k, j, i, s);
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION static Flux<Real> unrotate(const Real f[NCONS]) {
    Flux<Real> out;
    out.mass = f[0];
    for (int r = 0; r < 3; ++r) out.momentum[component(r)] = f[1 + r];
    out.energy = f[4];
    return out;
  }

  // The convective (and pressure) flux through a face from its nodes, and
  // through face (k, j, i) of W.
  KOKKOS_FORCEINLINE_FUNCTION static Flux<Real> convective_of(const gas::KeepNode<Real, 3> node[2 * Half],
                                                              const GasModel<Real>& gas, bool wall_face, int terms) {
    Real f[NCONS] = {0, 0, 0, 0, 0};
    convective(node, gas, wall_face, terms, f);
    return unrotate(f);
  }
  template <class W>
  KOKKOS_FORCEINLINE_FUNCTION static Flux<Real> convective_at(const W& w, long k, long j, long i,
                                                              const GasModel<Real>& gas, bool wall_face, int terms) {
    gas::KeepNode<Real, 3> node[2 * Half];
    load(w, k, j, i, node);
    return convective_of(node, gas, wall_face, terms);
  }

  // The viscous flux's point value at face (k, j, i) (to be subtracted)
  // from the face's nodes.
  template <class G>
  KOKKOS_FORCEINLINE_FUNCTION static Flux<Real> viscous_of(const gas::KeepNode<Real, 3> node[2 * Half], const G& g,
                                                           long k, long j, long i, const Real inverse_h[3],
                                                           const GasModel<Real>& gas) {
    Real f[NCONS] = {0, 0, 0, 0, 0};
    viscous_part(node, g, k, j, i, inverse_h, gas, f);
    return unrotate(f);
  }

  KOKKOS_FORCEINLINE_FUNCTION static void add_pair(const gas::KeepNode<Real, 3>& a, const gas::KeepNode<Real, 3>& b,
                                                   const GasModel<Real>& gas, int terms, Real sum[NCONS]) {
    gas::KeepPairFlux<Real, 3> e;
    if (terms == pressure) {  // the pressure terms alone
      e.mass = Real(0);
      e.momentum[0] = Real(0.5) * (a.p + b.p);
      e.momentum[1] = e.momentum[2] = Real(0);
      e.energy = Real(0.5) * (a.v[0] * b.p + b.v[0] * a.p);
    } else if (terms == convection) {  // the transport terms alone: the pair without its pressure
      gas::KeepNode<Real, 3> a0 = a, b0 = b;
      a0.p = b0.p = Real(0);
      e = gas::keep_pair_flux(a0, b0, gas.R, gas.gamma);
    } else if (gas.pressure_equilibrium) {
      e = gas::keep_pair_flux<true>(a, b, gas.R, gas.gamma);
    } else {
      e = gas::keep_pair_flux(a, b, gas.R, gas.gamma);
    }
    sum[0] += e.mass;
    for (int r = 0; r < 3; ++r) sum[1 + r] += e.momentum[r];
    sum[4] += e.energy;
  }

  KOKKOS_FORCEINLINE_FUNCTION static void convective(const gas::KeepNode<Real, 3> node[2 * Half],
                                                     const GasModel<Real>& gas, bool wall_face, int terms,
                                                     Real f[NCONS]) {
    const int t_terms = terms & (convection | pressure);
    if constexpr (Half == 1) {  // the two cells beside the face: F = f(i-1, i)
      add_pair(node[0], node[1], gas, t_terms, f);
    } else {
      if (wall_face) {  // the same at a wall, whatever the order
        add_pair(node[Half - 1], node[Half], gas, t_terms, f);
        return;
      }
      // F = sum_l 2 a_l sum_{q<l} f(m - q, m - q + l), m = the face's lower cell (node Half - 1).
      for (int l = 1; l <= Half; ++l) {
        Real part[NCONS] = {0, 0, 0, 0, 0};
        for (int q = 0; q < l; ++q) add_pair(node[Half - 1 - q], node[Half - 1 - q + l], gas, t_terms, part);
        const Real weight = Real(2 * gas::WideStencil<Half>::a(l));
        for (int c = 0; c < NCONS; ++c) f[c] += weight * part[c];
      }
    }
  }

  // Interpolation to the face and the derivative normal to it of node values q[t].
  KOKKOS_FORCEINLINE_FUNCTION static Real face_value(const Real q[2 * Half]) {
    Real s = Real(0);
    for (int l = 1; l <= Half; ++l) s += Real(gas::FaceStencil<Half>::b(l)) * (q[Half - l] + q[Half - 1 + l]);
    return s;
  }
  KOKKOS_FORCEINLINE_FUNCTION static Real face_derivative(const Real q[2 * Half], Real inverse_h) {
    Real s = Real(0);
    for (int l = 1; l <= Half; ++l) s += Real(gas::FaceStencil<Half>::c(l)) * (q[Half - 1 + l] - q[Half - l]);
    return s * inverse_h;
  }

  template <class G>
  KOKKOS_FORCEINLINE_FUNCTION static void viscous_part(const gas::KeepNode<Real, 3> node[2 * Half], const G& g, long k,
                                                       long j, long i, const Real inverse_h[3],
                                                       const GasModel<Real>& gas, Real f[NCONS]) {
    constexpr int N = 2 * Half;
    Real q[N];
    Real v[3], dv[3];  // face velocity and its normal derivative, rotated frame
    for (int r = 0; r < 3; ++r) {
      for (int t = 0; t < N; ++t) q[t] = node[t].v[r];
      v[r] = face_value(q);
      dv[r] = face_derivative(q, inverse_h[D]);
    }
    for (int t = 0; t < N; ++t) q[t] = node[t].T;
    const Real T = face_value(q), dT = face_derivative(q, inverse_h[D]);
    // Along the face: d_k v_n and d_k v_k for the face's in-plane directions.
    Real tangential[3] = {0, 0, 0};  // rotated slot r: d_{component(r)} v_D
    Real divergence = dv[0];
    for (int r = 1; r < 3; ++r) {
      const int kdir = component(r);
      if (kdir >= Dim) continue;
      for (int t = 0; t < N; ++t) q[t] = shifted<D>(g, 3 * kdir + D, k, j, i, t - Half);
      tangential[r] = face_value(q);
      for (int t = 0; t < N; ++t) q[t] = shifted<D>(g, 3 * kdir + kdir, k, j, i, t - Half);
      divergence += face_value(q);
    }
    gas::viscous_face_flux(v, dv, tangential, divergence, T, dT, gas, f);
  }
};

}  // namespace cfd::navier_stokes
