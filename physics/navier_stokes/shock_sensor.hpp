// The shock sensor of the hybrid convective flux (navier_stokes.convective_flux:
// hybrid): the larger of two, each between 0 and 1,
//
//   Ducros et al. (1999), in the one-sided form of STREAmS (Bernardini et
//   al. 2021, src/sensor.F90 of STREAmS-CFD/STREAmS):
//     theta_D = max(-div v / sqrt(div v^2 + |omega|^2 + eps^2), 0)
//   0 in a vortex or an expansion, near 1 in a compression with little
//   rotation, which is what a running shock is; eps keeps a flow at rest
//   (or one with round-off compressions only) at 0: eps = sensor_eps c /
//   h_min with the cell's sound speed c. Without rotation theta_D exceeds
//   a threshold tau where |div v| h/c > tau sensor_eps / sqrt(1 - tau^2):
//   1e-4 at the default tau of 0.1.
//
//   Jameson, Schmidt and Turkel's pressure sensor (1981), the largest over
//   the directions:
//     theta_p = |p(+1) - 2 p + p(-1)| / (p(+1) + 2 p + p(-1))
//   O(h^2) where p is smooth (O(h) in the cells beside a wall, whose
//   mirrored ghost repeats the pressure), about 1/3 at a jump of ratio 100: a jump
//   that has not moved yet, as a shock tube's diaphragm at t = 0, where the
//   velocity and so theta_D are still 0.
//
// The derivatives are second-order central differences of W (the sensor
// only decides where the upwind flux is taken, it does not enter a flux),
// over the cells the faces' stencils read: the owned cells and ghost - 1
// layers beyond them (navier_stokes_params.hpp, ghost_width). Written to
// the snapshots as the field shock_sensor, so that a user sees where the
// scheme switched.
//
// A face takes the upwind flux when theta of any cell its stencils read
// exceeds the threshold (update.hpp, FaceFluxes): the KEEP nodes i-Half ..
// i+Half-1 and the MUSCL cells i-2 .. i+1 of face i, as STREAmS tests every
// cell of its WENO stencil.
#pragma once

#include "physics/navier_stokes/state.hpp"

namespace cfd::navier_stokes {

// eps's factor: a compression counts where |div v| h/c exceeds about this.
inline constexpr double sensor_eps = 1e-3;

template <class Real, int Dim>
struct ShockSensor {
  Array4<Real> w, theta;  // theta(0, k, j, i)
  Real inverse_h[3];      // 1/h along each direction (0 beyond Dim)
  Real eps_over_c;        // sensor_eps / h_min
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    // d[a][b] = d v_b / d x_a; theta_p's largest direction.
    Real d[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    Real theta_p = Real(0);
    const Real p = w(IPR, k, j, i);
    for (int a = 0; a < Dim; ++a) {
      const Real half_ih = Real(0.5) * inverse_h[a];
      for (int b = 0; b < 3; ++b) {
        const Real up = a == 0 ? w(IVX + b, k, j, i + 1) : a == 1 ? w(IVX + b, k, j + 1, i) : w(IVX + b, k + 1, j, i);
        const Real down = a == 0 ? w(IVX + b, k, j, i - 1) : a == 1 ? w(IVX + b, k, j - 1, i) : w(IVX + b, k - 1, j, i);
        d[a][b] = (up - down) * half_ih;
      }
      const Real pu = a == 0 ? w(IPR, k, j, i + 1) : a == 1 ? w(IPR, k, j + 1, i) : w(IPR, k + 1, j, i);
      const Real pd = a == 0 ? w(IPR, k, j, i - 1) : a == 1 ? w(IPR, k, j - 1, i) : w(IPR, k - 1, j, i);
      const Real jump = kmath::fabs(pu - Real(2) * p + pd) / (pu + Real(2) * p + pd);
      theta_p = jump > theta_p ? jump : theta_p;
    }
    const Real div = d[0][0] + d[1][1] + d[2][2];
    const Real ox = d[1][2] - d[2][1], oy = d[2][0] - d[0][2], oz = d[0][1] - d[1][0];
    const Real c2 = gamma * p / w(IDN, k, j, i);
    const Real eps2 = eps_over_c * eps_over_c * c2;
    const Real theta_d = -div / kmath::sqrt(div * div + ox * ox + oy * oy + oz * oz + eps2);
    theta(0, k, j, i) = theta_d > theta_p ? theta_d : theta_p;
  }
};

// Whether face i along D (between cells i-1 and i) takes the upwind flux:
// theta above the threshold at any cell of i - Reach .. i + Reach - 1.
template <int D, int Reach, class Real>
KOKKOS_FORCEINLINE_FUNCTION bool shock_at_face(const Array4<Real>& theta, long k, long j, long i, Real threshold) {
  bool fires = false;
  // Not "theta > threshold": a NaN sensor (a state about to fail) takes the upwind flux.
  for (int s = -Reach; s < Reach; ++s) fires = fires || !(shifted<D>(theta, 0, k, j, i, s) <= threshold);
  return fires;
}

}  // namespace cfd::navier_stokes
