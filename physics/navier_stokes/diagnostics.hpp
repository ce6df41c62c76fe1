// What the history file records of a navier_stokes run: totals over the box,
// the kinetic energy and enstrophy per unit mass of the reference density
// (the Taylor-Green vortex's E_k = 1/(rho0 V) int rho v.v/2 dV and
// enstrophy 1/(rho0 V) int rho w.w/2 dV, DeBonis 2013 eqs. 6-8), and the
// semi-discrete budgets: dE_k/dt = sum dV (v . L_m - |v|^2/2 L_rho) of the
// spatial operator's right-hand side L, split into the convective, pressure
// and viscous terms (KEEP's convective terms conserve E_k: their part is
// round-off), and dS/dt of the entropy S = int rho s dV, s = (ln p - gamma
// ln rho)/(gamma - 1), by the entropy variables:
//   d(rho s)/dt = (s - gamma/(gamma-1) + rho |v|^2/(2p)) L_rho - (rho/p) v . L_m + (rho/p) L_E.
// Sums in double whatever the working precision.
#pragma once

#include "physics/navier_stokes/state.hpp"

namespace cfd::navier_stokes {

struct Rates {
  double kinetic_energy = 0, entropy = 0;  // dE_k/dt (a box total), dS/dt
};

struct Diagnostics {
  double mass = 0, mom_x = 0, mom_y = 0, mom_z = 0, energy = 0;  // box totals
  double kinetic_energy = 0, enstrophy = 0;                      // per rho0 V
  double entropy = 0;                                            // box total
  double dissipation_rate = 0;                                   // -dE_k/dt of the whole operator, per rho0 V
  double viscous_dissipation = 0;                                // 2 (mu0/rho0) enstrophy
  double ke_rate_convection = 0, ke_rate_pressure = 0, ke_rate_viscous = 0;  // box totals of dE_k/dt by term
  double entropy_rate = 0;
  double max_mach = 0;
  double volume = 0;
};

template <class Real, class Policy>
Rates budget_rates(const Policy& cells, const Array4<Real>& u, const Array4<Real>& L, const GasModel<Real>& gas,
                   double volume) {
  double ke = 0, entropy = 0;
  Kokkos::parallel_reduce(
      "navier_stokes::budget_rates", cells,
      KOKKOS_LAMBDA(const long k, const long j, const long i, double& a_ke, double& a_s) {
        const CellState<Real> c = cell_state(u, k, j, i, gas);
        const double rho = c.rho, p = c.p, g = gas.gamma;
        const double v[3] = {c.v[0], c.v[1], c.v[2]};
        const double v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        const double vL =
            v[0] * double(L(IM1, k, j, i)) + v[1] * double(L(IM2, k, j, i)) + v[2] * double(L(IM3, k, j, i));
        a_ke += (vL - 0.5 * v2 * double(L(IDN, k, j, i))) * volume;
        const double s = (kmath::log(p) - g * kmath::log(rho)) / (g - 1);
        a_s += ((s - g / (g - 1) + rho * v2 / (2 * p)) * double(L(IDN, k, j, i)) - rho / p * vL +
                rho / p * double(L(IEN, k, j, i))) *
               volume;
      },
      ke, entropy);
  return {ke, entropy};
}

template <class Real, int Dim, class Policy>
Diagnostics box_totals(const Policy& cells, const Array4<Real>& u, const Array4<Real>& grad, const GasModel<Real>& gas,
                       double volume) {
  double m = 0, mx = 0, my = 0, mz = 0, en = 0, ke = 0, ens = 0, ent = 0;
  Kokkos::parallel_reduce(
      "navier_stokes::totals", cells,
      KOKKOS_LAMBDA(const long k, const long j, const long i, double& a_m, double& a_mx, double& a_my, double& a_mz,
                    double& a_en, double& a_ke, double& a_ens, double& a_ent) {
        const CellState<Real> c = cell_state(u, k, j, i, gas);
        const double rho = c.rho, g = gas.gamma;
        a_m += rho * volume;
        a_mx += double(u(IM1, k, j, i)) * volume;
        a_my += double(u(IM2, k, j, i)) * volume;
        a_mz += double(u(IM3, k, j, i)) * volume;
        a_en += double(u(IEN, k, j, i)) * volume;
        const double v[3] = {c.v[0], c.v[1], c.v[2]};
        a_ke += 0.5 * rho * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * volume;
        // omega from G(3 k + m) = d v_m / d x_k.
        double wx = 0, wy = 0, wz = double(grad(1, k, j, i)) - double(grad(3, k, j, i));
        if constexpr (Dim == 3) {
          wx = double(grad(5, k, j, i)) - double(grad(7, k, j, i));
          wy = double(grad(6, k, j, i)) - double(grad(2, k, j, i));
        }
        a_ens += 0.5 * rho * (wx * wx + wy * wy + wz * wz) * volume;
        a_ent += rho * (kmath::log(double(c.p)) - g * kmath::log(rho)) / (g - 1) * volume;
      },
      m, mx, my, mz, en, ke, ens, ent);
  Diagnostics d;
  d.mass = m, d.mom_x = mx, d.mom_y = my, d.mom_z = mz, d.energy = en, d.kinetic_energy = ke, d.enstrophy = ens;
  d.entropy = ent;
  return d;
}

template <class Real, class Policy>
double max_mach(const Policy& cells, const Array4<Real>& u, const GasModel<Real>& gas) {
  double result = 0;
  Kokkos::parallel_reduce(
      "navier_stokes::max_mach", cells,
      KOKKOS_LAMBDA(const long k, const long j, const long i, double& m) {
        const CellState<Real> c = cell_state(u, k, j, i, gas);
        const double speed = kmath::sqrt(double(c.v[0]) * c.v[0] + double(c.v[1]) * c.v[1] + double(c.v[2]) * c.v[2]);
        const double mach = speed / kmath::sqrt(double(gas.gamma) * c.p / c.rho);
        if (mach > m) m = mach;
      },
      Kokkos::Max<double>(result));
  return result;
}

}  // namespace cfd::navier_stokes
