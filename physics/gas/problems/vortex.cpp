// The isentropic vortex of Yee, Sandham & Djomehri 1999 (J. Comput. Phys.
// 150, 199), strength 5, advected at (1, 1) through a periodic [-5,5]^2: its
// exact solution at any time is the translated vortex, against which
// tests/test_euler2d.cpp measures second-order convergence.
#include "physics/gas/problems/problem.hpp"

#include <cmath>

namespace cfd::gas {

namespace {

struct Vortex {
  double strength, vx, vy;       // beta, and the velocity it is advected with
  double gamma;                  // of the gas
  std::array<double, 3> lo, hi;  // the periodic box
};

std::vector<KeySpec> vortex_keys() {
  return {{"vortex.strength", KeyType::real, "5", "vortex strength beta (Yee, Sandham & Djomehri 1999)"},
          {"vortex.vx", KeyType::real, "1", "x velocity the vortex is advected with"},
          {"vortex.vy", KeyType::real, "1", "y velocity the vortex is advected with"}};
}

StateAt vortex_state(const Config& c, Setting& p) {
  const Vortex k{c.get_real("vortex.strength"), c.get_real("vortex.vx"), c.get_real("vortex.vy"), p.gamma, p.lo, p.hi};
  return [k](double x, double y, double, double time) {
    const double pi = 3.14159265358979323846;
    const double beta = k.strength, g = k.gamma, Lx = k.hi[0] - k.lo[0], Ly = k.hi[1] - k.lo[1];
    double dx = x - k.vx * time, dy = y - k.vy * time;
    dx -= Lx * std::floor((dx - k.lo[0]) / Lx);
    dy -= Ly * std::floor((dy - k.lo[1]) / Ly);
    // Centred in the box: the shift of (dx, dy) from the box's corner.
    dx -= 0.5 * (k.lo[0] + k.hi[0]);
    dy -= 0.5 * (k.lo[1] + k.hi[1]);
    const double r2 = dx * dx + dy * dy, f = beta / (2 * pi) * std::exp(0.5 * (1 - r2));
    const double T = 1 - (g - 1) * beta * beta / (8 * g * pi * pi) * std::exp(1 - r2);
    const double rho = std::pow(T, 1 / (g - 1));
    return gas::Primitive<double>{rho, k.vx - f * dy, k.vy + f * dx, 0, rho * T};
  };
}

}  // namespace

namespace problems_list {
extern const Problem vortex{"vortex", "isentropic vortex advected", -5, 5, vortex_keys, vortex_state};
}  // namespace problems_list

}  // namespace cfd::gas
