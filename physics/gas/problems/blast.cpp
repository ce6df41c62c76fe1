// A circular blast: Sod's states inside and outside a circle (a sphere on a
// 3D grid), which the blast tests of tests/test_euler2d.cpp and
// tests/test_euler3d.cpp check for mirror symmetry.
#include "physics/gas/problems/problem.hpp"

namespace cfd::gas {

namespace {

struct Blast {
  double rho_inside, p_inside, rho_outside, p_outside, x_centre, y_centre, z_centre, radius;
  bool sphere;
};

std::vector<KeySpec> blast_keys() {
  const double positive = 1e-300;
  return {{"blast.rho_inside", KeyType::real, "1", "density inside the blast radius", {}, positive},
          {"blast.p_inside", KeyType::real, "1", "pressure inside the blast radius", {}, positive},
          {"blast.rho_outside", KeyType::real, "0.125", "density outside", {}, positive},
          {"blast.p_outside", KeyType::real, "0.1", "pressure outside", {}, positive},
          {"blast.x_centre", KeyType::real, "0.5", "x of the blast's centre"},
          {"blast.y_centre", KeyType::real, "0.5", "y of the blast's centre"},
          {"blast.z_centre", KeyType::real, "0.5", "z of the blast's centre (3D grids: a sphere)"},
          {"blast.radius", KeyType::real, "0.1", "blast radius", {}, 0}};
}

StateAt blast_state(const Config& c, Setting& p) {
  auto get = [&](const char* key) { return c.get_real(std::string("blast.") + key); };
  const Blast k{get("rho_inside"), get("p_inside"), get("rho_outside"), get("p_outside"), get("x_centre"),
                get("y_centre"),   get("z_centre"), get("radius"),      p.three_d()};
  return [k](double x, double y, double z, double) {
    double r2 = (x - k.x_centre) * (x - k.x_centre) + (y - k.y_centre) * (y - k.y_centre);
    if (k.sphere) r2 += (z - k.z_centre) * (z - k.z_centre);
    return r2 < k.radius * k.radius ? gas::Primitive<double>{k.rho_inside, 0, 0, 0, k.p_inside}
                                    : gas::Primitive<double>{k.rho_outside, 0, 0, 0, k.p_outside};
  };
}

}  // namespace

namespace problems_list {
extern const Problem blast{"blast",
                           "a circular Sod-like blast (rho 1, p 1 within r < 0.1 of the centre, rho 0.125, p 0.1 "
                           "outside)",
                           0,
                           1,
                           blast_keys,
                           blast_state};
}  // namespace problems_list

}  // namespace cfd::gas
