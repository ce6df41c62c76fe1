// No-slip walls: the ghost cells of W beyond a wall mirror the cells inside
// it, so that the wall lies on the face between them (as the tube's
// reflecting ends do): v_ghost = 2 v_wall - v, p_ghost = p, and T_ghost =
// 2 T_wall - T (isothermal) or T (adiabatic), rho_ghost = p/(R T_ghost).
// Filled after each direction's halo exchange, before the next direction's,
// so that the edges and corners beyond walls travel as the halo's do.
#pragma once

#include "physics/navier_stokes/state.hpp"

namespace cfd::navier_stokes {

template <class Real>
struct WallGhosts {
  Array4<Real> w;
  int d, side;
  long begin, end;  // owned cells along d
  Real velocity[3], temperature, R;
  bool isothermal;
  // (k, j, i) with the layer in the place of direction d's index.
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    const long layer = d == 0 ? i : d == 1 ? j : k;
    const long ghost = side == 0 ? begin - 1 - layer : end + layer;
    const long inside = side == 0 ? begin + layer : end - 1 - layer;
    const long gk = d == 2 ? ghost : k, gj = d == 1 ? ghost : j, gi = d == 0 ? ghost : i;
    const long sk = d == 2 ? inside : k, sj = d == 1 ? inside : j, si = d == 0 ? inside : i;
    for (int m = 0; m < 3; ++m) w(IVX + m, gk, gj, gi) = Real(2) * velocity[m] - w(IVX + m, sk, sj, si);
    const Real p = w(IPR, sk, sj, si);
    const Real T = isothermal ? Real(2) * temperature - w(ITM, sk, sj, si) : w(ITM, sk, sj, si);
    w(IPR, gk, gj, gi) = p;
    w(ITM, gk, gj, gi) = T;
    w(IDN, gk, gj, gi) = p / (R * T);
  }
};

}  // namespace cfd::navier_stokes
