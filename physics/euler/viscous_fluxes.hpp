// Viscosity and heat conduction in the shock-capturing solver: the gas
// wing's viscous face flux (physics/gas/viscous_flux.hpp, the one that
// navier_stokes takes beside KEEP) through the faces of a 2D (j, i) or 3D
// (k, j, i) block, subtracted from the Riemann solver's fluxes that the
// split kernels have just written, so that the update takes F - F_v and
// stays conservative face by face.
//
// Second order on the uniform grid, from the primitives W of the stage's
// input (ghosts filled): the face's velocity and temperature are the means
// of the two cells beside it, their normal derivatives the cells'
// difference over h; a derivative along the face is the mean of the two
// cells' central differences, which reads the ghost cells at the block's
// corners (the halo fills them, x before y before z). T = p/(rho R).
#pragma once

#include "physics/euler/face_flux.hpp"
#include "physics/gas/time_step.hpp"
#include "physics/gas/viscous_flux.hpp"

#include <utility>

namespace cfd::euler {

// a(v, ...) at the cell shifted by s1 along D1 and s2 along D2.
template <int D1, int D2, class A, class... I, size_t... n>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) shifted2_at(const A& a, int v, int s1, int s2, std::index_sequence<n...>,
                                                       I... idx) {
  constexpr size_t N = sizeof...(I);
  return a(v, (idx + (n + 1 + size_t(D1) == N ? s1 : 0) + (n + 1 + size_t(D2) == N ? s2 : 0))...);
}
template <int D1, int D2, class A, class... I>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) shifted2(const A& a, int v, int s1, int s2, I... idx) {
  return shifted2_at<D1, D2>(a, v, s1, s2, std::index_sequence_for<I...>{}, idx...);
}

template <class Real, int Dir, class A>
struct ViscousFluxes {
  A w, flux;
  gas::GasModel<Real> gas;
  Real inverse_h[3];  // 1/h along x, y, z

  // The rotated frame's slots: the normal first, then the face's directions in order.
  KOKKOS_INLINE_FUNCTION static constexpr int component(int r) {
    return Dir == 0 ? r : Dir == 1 ? (r == 0 ? 1 : r == 1 ? 0 : 2) : (r == 0 ? 2 : r - 1);
  }

  // Along direction K of the face (K != Dir): the mean over the face's two
  // cells of the central differences of slots vn (the normal velocity) and
  // vk (K's velocity).
  template <int K, class... I>
  KOKKOS_FORCEINLINE_FUNCTION void along_face(Real& d_vn, Real& d_vk, I... at) const {
    const Real quarter = Real(0.25) * inverse_h[K];
    constexpr int vn = IVX + Dir, vk = IVX + K;
    d_vn = quarter * ((shifted2<Dir, K>(w, vn, 0, 1, at...) - shifted2<Dir, K>(w, vn, 0, -1, at...)) +
                      (shifted2<Dir, K>(w, vn, -1, 1, at...) - shifted2<Dir, K>(w, vn, -1, -1, at...)));
    d_vk = quarter * ((shifted2<Dir, K>(w, vk, 0, 1, at...) - shifted2<Dir, K>(w, vk, 0, -1, at...)) +
                      (shifted2<Dir, K>(w, vk, -1, 1, at...) - shifted2<Dir, K>(w, vk, -1, -1, at...)));
  }

  // Face `at` along Dir, between the cell below (shift -1) and the cell at.
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(I... at) const {
    constexpr int Dim = int(sizeof...(I));
    const Real h = inverse_h[Dir];
    Real v[3], dv[3], tangential[3] = {Real(0), Real(0), Real(0)};
    for (int r = 0; r < 3; ++r) {
      const Real below = along<Dir>(w, IVX + component(r), -1, at...), above = w(IVX + component(r), at...);
      v[r] = Real(0.5) * (below + above);
      dv[r] = (above - below) * h;
    }
    const Real T_below = along<Dir>(w, IPR, -1, at...) / (along<Dir>(w, IDN, -1, at...) * gas.R);
    const Real T_above = w(IPR, at...) / (w(IDN, at...) * gas.R);
    const Real T = Real(0.5) * (T_below + T_above), dT = (T_above - T_below) * h;
    Real divergence = dv[0];
    // Slot r of the face's directions: K = component(r), present where K < Dim.
    constexpr int K1 = component(1), K2 = component(2);
    if constexpr (K1 < Dim) {
      Real d_vk;
      along_face<K1>(tangential[1], d_vk, at...);
      divergence += d_vk;
    }
    if constexpr (K2 < Dim) {
      Real d_vk;
      along_face<K2>(tangential[2], d_vk, at...);
      divergence += d_vk;
    }
    Real f[5] = {Real(0), Real(0), Real(0), Real(0), Real(0)};
    gas::viscous_face_flux(v, dv, tangential, divergence, T, dT, gas, f);
    for (int r = 0; r < 3; ++r) flux(IM1 + component(r), at...) -= f[1 + r];
    flux(IEN, at...) -= f[4];
  }
};

// A cell's viscous bound on dt (gas::viscous_dt_bound, without
// time.fourier): 1/(nu_eff sum_d 1/h_d^2), from the primitives as the
// modern schemes take them (cell_primitives).
template <class Real, class A>
struct ViscousDtBound {
  A u;
  gas::GasModel<Real> gas;
  Real sum_inverse_h2;
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION Real operator()(I... at) const {
    const CellPrimitives<Real> w =
        cell_primitives<true>(u(IDN, at...), u(IM1, at...), u(IM2, at...), u(IM3, at...), u(IEN, at...), gas.gamma);
    const Real mu = gas.viscosity(w.p / (w.rho * gas.R));
    return gas::viscous_dt_bound(gas::effective_diffusivity(mu, w.rho, gas.gamma, gas.Pr), sum_inverse_h2);
  }
};

}  // namespace cfd::euler
