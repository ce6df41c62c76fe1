// Sod's shock tube (Sod 1978) across a 2D box, along x or along y, or a 3D
// one along x, y or z: they give the same profile bit for bit
// (tests/test_euler2d.cpp, tests/test_euler3d.cpp), which checks that the
// solvers treat their directions alike. sod_diagonal puts the interface
// across the box's diagonal, normal (1, 1, 1) (2D: (1, 1)) through the
// centre: a tube that no grid direction follows.
#include "physics/gas/problems/problem.hpp"

#include <cmath>

namespace cfd::gas {

namespace {

struct Tube {
  double rho_lo, p_lo, rho_hi, p_hi, interface;
};

std::vector<KeySpec> tube_keys(const std::string& sod) {
  const double positive = 1e-300;
  const std::string below = sod == "sod_x" ? "left of" : "below";
  const std::string axis = sod == "sod_diagonal" ? "distance from the box's centre along the diagonal" : sod.substr(4);
  return {
      {sod + ".rho_lo", KeyType::real, "1", "density " + below + " the interface", {}, positive},
      {sod + ".p_lo", KeyType::real, "1", "pressure " + below + " the interface", {}, positive},
      {sod + ".rho_hi", KeyType::real, "0.125", "density beyond the interface", {}, positive},
      {sod + ".p_hi", KeyType::real, "0.1", "pressure beyond the interface", {}, positive},
      {sod + ".interface", KeyType::real, sod == "sod_diagonal" ? "0" : "0.5", std::string("the interface's ") + axis}};
}

Tube read_tube(const Config& c, const std::string& sod) {
  auto get = [&](const char* key) { return c.get_real(sod + "." + key); };
  return {get("rho_lo"), get("p_lo"), get("rho_hi"), get("p_hi"), get("interface")};
}

// The state on either side of the interface at coordinate s (x or y).
gas::Primitive<double> tube_state(const Tube& k, double s) {
  return s < k.interface ? gas::Primitive<double>{k.rho_lo, 0, 0, 0, k.p_lo}
                         : gas::Primitive<double>{k.rho_hi, 0, 0, 0, k.p_hi};
}

}  // namespace

namespace problems_list {
extern const Problem sod_x{"sod_x",
                           "Sod's tube along x",
                           0,
                           1,
                           [] { return tube_keys("sod_x"); },
                           [](const Config& c, Setting&) -> StateAt {
                             return [k = read_tube(c, "sod_x")](double x, double, double, double) {
                               return tube_state(k, x);
                             };
                           }};
extern const Problem sod_y{"sod_y",
                           "Sod's tube along y",
                           0,
                           1,
                           [] { return tube_keys("sod_y"); },
                           [](const Config& c, Setting&) -> StateAt {
                             return [k = read_tube(c, "sod_y")](double, double y, double, double) {
                               return tube_state(k, y);
                             };
                           }};
extern const Problem sod_diagonal{
    "sod_diagonal",
    "Sod's tube along the box's diagonal (1, 1, 1) (2D: (1, 1))",
    0,
    1,
    [] { return tube_keys("sod_diagonal"); },
    [](const Config& c, Setting& p) -> StateAt {
      // s: the signed distance from the plane through the centre, normal (1, 1, 1) / sqrt(3).
      const double cx = 0.5 * (p.lo[0] + p.hi[0]), cy = 0.5 * (p.lo[1] + p.hi[1]), cz = 0.5 * (p.lo[2] + p.hi[2]);
      const bool three = p.three_d();
      return [k = read_tube(c, "sod_diagonal"), cx, cy, cz, three](double x, double y, double z, double) {
        const double s =
            three ? ((x - cx) + (y - cy) + (z - cz)) / std::sqrt(3.0) : ((x - cx) + (y - cy)) / std::sqrt(2.0);
        return tube_state(k, s);
      };
    }};
extern const Problem sod_z{"sod_z",
                           "Sod's tube along z (3D grids, grid.nz > 1)",
                           0,
                           1,
                           [] { return tube_keys("sod_z"); },
                           [](const Config& c, Setting&) -> StateAt {
                             return [k = read_tube(c, "sod_z")](double, double, double z, double) {
                               return tube_state(k, z);
                             };
                           }};
}  // namespace problems_list

}  // namespace cfd::gas
