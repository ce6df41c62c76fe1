// The viscous stresses and heat conduction through a face: the
// Navier-Stokes terms of every gas solver, one source for navier_stokes
// (beside KEEP's convective flux, at its order) and euler (beside the
// Riemann solver's flux, at second order). Each solver finds the face's
// values and derivatives its own way; the physics is here.
//
// In the face's rotated frame (slot 0 along the normal n = e_D, slots 1
// and 2 along the face): tau_n0 = mu (2 d_n v_n - (2/3) div v),
// tau_nr = mu (d_n v_r + d_r v_n), and the energy flux v.tau_n + k d_n T
// with k = mu cp / Pr (Fourier's law) and mu = mu(T) at the face. The
// flux returned is what the solver subtracts from its convective flux.
#pragma once

#include "core/kokkos_compat.hpp"
#include "physics/gas/gas_model.hpp"

namespace cfd::gas {

// v: the face's velocity; dv: its derivative along the normal; tangential
// (slots 1, 2): d_r v_n, the normal velocity's derivative along the face;
// divergence: div v at the face; T, dT: the temperature and its normal
// derivative. f[1..3] get the stresses (rotated), f[4] the energy flux;
// f[0] (mass) is left as it is.
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION void viscous_face_flux(const Real v[3], const Real dv[3], const Real tangential[3],
                                                   Real divergence, Real T, Real dT, const GasModel<Real>& gas,
                                                   Real f[5]) {
  const Real mu = gas.viscosity(T);
  Real tau[3];
  tau[0] = mu * (Real(2) * dv[0] - Real(2) / Real(3) * divergence);
  for (int r = 1; r < 3; ++r) tau[r] = mu * (dv[r] + tangential[r]);
  f[1] = tau[0];
  f[2] = tau[1];
  f[3] = tau[2];
  f[4] = v[0] * tau[0] + v[1] * tau[1] + v[2] * tau[2] + gas.conductivity(mu) * dT;
}

}  // namespace cfd::gas
