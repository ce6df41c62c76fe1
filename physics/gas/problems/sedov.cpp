// The Sedov-Taylor point explosion: energy E put into the cells whose centres
// lie within radius_cells cell widths of the box's centre, as thermal energy
// at one pressure, in a cold gas at rest (Sedov 1959; Kamm & Timmes 2007,
// LA-UR-07-2849, give the similarity solution). On a 3D grid the shock is a
// sphere of radius R = xi (E t^2 / rho)^(1/5), xi = 1.0328 for gamma = 1.4
// (alpha = 0.851072 of Kamm & Timmes, xi = alpha^(-1/5)); on a 2D grid a
// cylinder (E per unit length). The deposit counts the cells as the solver
// places them, so the box holds E (plus the ambient gas's energy) to
// round-off at any resolution: tests/test_euler3d.cpp checks that and the
// shock radius, apps/verify_sedov.py the radius of a finished run.
#include "physics/gas/problems/problem.hpp"

#include <cmath>

namespace cfd::gas {

namespace {

struct Explosion {
  double rho, p_ambient, p_inside;  // ambient gas, and the pressure of the deposit
  double radius;                    // of the deposit
  std::array<double, 3> centre;
  bool sphere;
};

std::vector<KeySpec> sedov_keys() {
  const double positive = 1e-300;
  return {{"sedov.energy", KeyType::real, "1", "energy E of the explosion (2D grids: per unit length)", {}, positive},
          {"sedov.rho", KeyType::real, "1", "density of the ambient gas", {}, positive},
          {"sedov.p_ambient", KeyType::real, "1e-5", "pressure of the ambient gas (cold: small)", {}, positive},
          {"sedov.radius_cells", KeyType::real, "3.5", "radius of the deposit, in cell widths along x", {}, 0.5, 1e6}};
}

// The centre of global cell g along d, as euler::Solver places it.
double centre(Setting& p, int d, long g, long n) {
  const double h = (p.hi[d] - p.lo[d]) / static_cast<double>(n);
  return 0.5 * ((h * static_cast<double>(g) + p.lo[d]) + (h * static_cast<double>(g + 1) + p.lo[d]));
}

StateAt sedov_state(const Config& c, Setting& p) {
  Explosion k{};
  k.rho = c.get_real("sedov.rho");
  k.p_ambient = c.get_real("sedov.p_ambient");
  k.sphere = p.three_d();
  const long n[3] = {p.nx, p.ny, k.sphere ? p.nz : 1};
  const double h[3] = {(p.hi[0] - p.lo[0]) / n[0], (p.hi[1] - p.lo[1]) / n[1], (p.hi[2] - p.lo[2]) / n[2]};
  k.radius = c.get_real("sedov.radius_cells") * h[0];
  for (int d = 0; d < 3; ++d) k.centre[d] = 0.5 * (p.lo[d] + p.hi[d]);
  if (!k.sphere) k.centre[2] = 0;
  // The deposit's volume: the cells inside, counted as the state below
  // decides (cells within the radius's bounding box only).
  long inside = 0;
  const auto first = [&](int d) {
    return std::max(0L, static_cast<long>(std::floor((k.centre[d] - k.radius - p.lo[d]) / h[d])) - 1);
  };
  const auto last = [&](int d) {
    return std::min(n[d] - 1, static_cast<long>(std::ceil((k.centre[d] + k.radius - p.lo[d]) / h[d])) + 1);
  };
  for (long kk = k.sphere ? first(2) : 0; kk <= (k.sphere ? last(2) : 0); ++kk)
    for (long j = first(1); j <= last(1); ++j)
      for (long i = first(0); i <= last(0); ++i) {
        const double dx = centre(p, 0, i, n[0]) - k.centre[0], dy = centre(p, 1, j, n[1]) - k.centre[1];
        const double dz = k.sphere ? centre(p, 2, kk, n[2]) - k.centre[2] : 0;
        inside += dx * dx + dy * dy + dz * dz < k.radius * k.radius;
      }
  if (inside == 0) c.reject("sedov.radius_cells", "no cell centre lies within the deposit's radius");
  const double volume = static_cast<double>(inside) * h[0] * h[1] * (k.sphere ? h[2] : 1.0);
  // Thermal energy p / (gamma - 1) per volume: E over the deposit, on top of
  // the ambient gas's.
  k.p_inside = k.p_ambient + (p.gamma - 1) * c.get_real("sedov.energy") / volume;
  return [k](double x, double y, double z, double) {
    const double dx = x - k.centre[0], dy = y - k.centre[1], dz = k.sphere ? z - k.centre[2] : 0;
    const double p = dx * dx + dy * dy + dz * dz < k.radius * k.radius ? k.p_inside : k.p_ambient;
    return gas::Primitive<double>{k.rho, 0, 0, 0, p};
  };
}

}  // namespace

namespace problems_list {
extern const Problem sedov{"sedov",    "the Sedov-Taylor point explosion at the box's centre", 0, 1, sedov_keys,
                           sedov_state};
}  // namespace problems_list

}  // namespace cfd::gas
