// The Taylor-Green vortex in 3D, the standard compressible set-up of the
// high-order CFD workshops (DeBonis 2013, "Solutions of the Taylor-Green
// vortex problem using high-resolution explicit finite difference methods",
// AIAA 2013-0382, eqs. 1-5; reference dissipation from van Rees et al.
// 2011, J. Comput. Phys. 230, 2794): on [0, 2 pi L]^3,
//   u =  V0 sin(x/L) cos(y/L) cos(z/L),  v = -V0 cos(x/L) sin(y/L) cos(z/L),  w = 0,
//   p = p0 + rho0 V0^2/16 (cos(2x/L) + cos(2y/L)) (cos(2z/L) + 2),
//   rho = p / (R T0)   (uniform temperature T0 = p0/(rho0 R)),
// with p0 = rho0 V0^2/(gamma M^2), Re = rho0 V0 L / mu; here rho0 = V0 =
// L = 1, so time is in units of L/V0. And its 2D form on [0, 2 pi]^2, an
// exact solution of the incompressible equations that decays as
//   u = sin x cos y e^(-2 nu t),  v = -cos x sin y e^(-2 nu t),
//   p = p0 + rho0/4 (cos 2x + cos 2y) e^(-4 nu t),  rho = rho0,
// so that the kinetic energy decays as exp(-4 nu t) (2 nu k^2 with k^2 = 2)
// up to the effects of compressibility, O(M^2).
#include "physics/gas/problems/problem.hpp"

#include <cmath>

namespace cfd::gas {

namespace {

constexpr double two_pi = 6.283185307179586;

std::vector<KeySpec> vortex_keys(const char* section, const char* mach, const char* reynolds) {
  const std::string s = section;
  return {{s + ".mach", KeyType::real, mach, "Mach number M = V0/c0 of the initial velocity amplitude", {}, 1e-6, 10},
          {s + ".reynolds",
           KeyType::real,
           reynolds,
           "Reynolds number rho0 V0 L/mu: sets mu0 = 1/Re (viscosity.law constant, or mu0 at T0 for sutherland and "
           "power_law) where viscosity.mu is 0; 0: viscosity.mu as given",
           {},
           0}};
}

// Sets the viscosity from the problem's Reynolds number; returns p0.
double vortex_scales(const Config& c, Setting& p, const std::string& section) {
  const double mach = c.get_real(section + ".mach"), re = c.get_real(section + ".reynolds");
  const double p0 = 1.0 / (p.gamma * mach * mach);
  if (re > 0 && p.viscosity.law != gas::ViscosityLaw::none) {
    if (p.viscosity.mu0 != 0)
      c.reject("viscosity.mu", section + ".reynolds sets the viscosity (1/Re); set " + section +
                                   ".reynolds: 0 to give viscosity.mu instead");
    p.viscosity.mu0 = 1.0 / re;
    // mu0 is the viscosity at the vortex's own temperature unless T0 is given.
    if (p.viscosity.T0 == 0) p.viscosity.T0 = p0 / p.R;
  }
  return p0;
}

std::vector<KeySpec> taylor_green_keys() { return vortex_keys("taylor_green", "0.1", "1600"); }
std::vector<KeySpec> taylor_green_2d_keys() { return vortex_keys("taylor_green_2d", "0.05", "100"); }

StateAt taylor_green_state(const Config& c, Setting& p) {
  if (!p.three_d()) c.reject(p.choice, "taylor_green is the 3D vortex (grid.nz > 1); taylor_green_2d is the 2D one");
  const double p0 = vortex_scales(c, p, "taylor_green"), R = p.R, T0 = p0 / R;
  return [p0, R, T0](double x, double y, double z, double) {
    const double pressure = p0 + (std::cos(2 * x) + std::cos(2 * y)) * (std::cos(2 * z) + 2) / 16;
    return gas::Primitive<double>{pressure / (R * T0), std::sin(x) * std::cos(y) * std::cos(z),
                                  -std::cos(x) * std::sin(y) * std::cos(z), 0, pressure};
  };
}

StateAt taylor_green_2d_state(const Config& c, Setting& p) {
  const double p0 = vortex_scales(c, p, "taylor_green_2d");
  const double nu = p.viscosity.law == gas::ViscosityLaw::none ? 0 : p.viscosity.mu0;  // rho0 = 1
  return [p0, nu](double x, double y, double, double t) {
    const double decay = std::exp(-2 * nu * t);
    return gas::Primitive<double>{1, std::sin(x) * std::cos(y) * decay, -std::cos(x) * std::sin(y) * decay, 0,
                                  p0 + (std::cos(2 * x) + std::cos(2 * y)) / 4 * decay * decay};
  };
}

}  // namespace

namespace problems_list {
extern const Problem taylor_green{"taylor_green",
                                  "the 3D Taylor-Green vortex (DeBonis 2013; Re 1600, M 0.1) on [0, 2 pi]^3",
                                  0,
                                  two_pi,
                                  taylor_green_keys,
                                  taylor_green_state};
extern const Problem taylor_green_2d{"taylor_green_2d",
                                     "the 2D Taylor-Green vortex, kinetic energy decaying as exp(-4 nu t)",
                                     0,
                                     two_pi,
                                     taylor_green_2d_keys,
                                     taylor_green_2d_state};
}  // namespace problems_list

}  // namespace cfd::gas
