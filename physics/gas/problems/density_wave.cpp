// A density wave carried by a uniform flow at uniform pressure: the test of
// pressure equilibrium of Shima, Kuya, Tamaki and Kawai 2021 (J. Comput.
// Phys. 427, 110060, section 4.1), here along any direction:
//   rho = rho0 (1 + A sin(2 pi (kx (x - vx t)/Lx + ky (y - vy t)/Ly + kz (z - vz t)/Lz))),
//   v = (vx, vy, vz), p = p0,
// an exact solution of the Euler equations (viscosity.law: none; with heat
// conduction it is not, since T = p/(rho R) varies). With KEEP-PE the
// pressure stays uniform to round-off; plain KEEP lets it oscillate.
#include "physics/gas/problems/problem.hpp"

#include <cmath>

namespace cfd::gas {

namespace {

std::vector<KeySpec> density_wave_keys() {
  return {{"density_wave.amplitude", KeyType::real, "0.5", "relative amplitude A of the density wave", {}, 0, 0.99},
          {"density_wave.density", KeyType::real, "1", "mean density rho0", {}, 1e-300},
          {"density_wave.pressure", KeyType::real, "1", "the uniform pressure p0", {}, 1e-300},
          {"density_wave.vx", KeyType::real, "1", "uniform velocity along x"},
          {"density_wave.vy", KeyType::real, "0.5", "uniform velocity along y"},
          {"density_wave.vz", KeyType::real, "0.25", "uniform velocity along z (3D grids)"},
          {"density_wave.x_waves", KeyType::integer, "1", "wavelengths across the box along x", {}, -1000, 1000},
          {"density_wave.y_waves", KeyType::integer, "1", "wavelengths across the box along y", {}, -1000, 1000},
          {"density_wave.z_waves",
           KeyType::integer,
           "1",
           "wavelengths across the box along z (3D grids)",
           {},
           -1000,
           1000}};
}

StateAt density_wave_state(const Config& c, Setting& p) {
  for (int s = 0; s < 6; ++s)
    if (p.sides[s].is_wall())
      c.reject(std::string("boundary.") + "xyz"[s / 2] + (s % 2 ? "_hi" : "_lo"),
               "density_wave is periodic in every direction");
  const bool three_d = p.three_d();
  const double A = c.get_real("density_wave.amplitude"), rho0 = c.get_real("density_wave.density"),
               p0 = c.get_real("density_wave.pressure");
  const double v[3] = {c.get_real("density_wave.vx"), c.get_real("density_wave.vy"),
                       three_d ? c.get_real("density_wave.vz") : 0.0};
  const double k[3] = {double(c.get_int("density_wave.x_waves")) / (p.hi[0] - p.lo[0]),
                       double(c.get_int("density_wave.y_waves")) / (p.hi[1] - p.lo[1]),
                       three_d ? double(c.get_int("density_wave.z_waves")) / (p.hi[2] - p.lo[2]) : 0.0};
  return [=](double x, double y, double z, double t) {
    const double pi = 3.14159265358979323846;
    const double phase = k[0] * (x - v[0] * t) + k[1] * (y - v[1] * t) + k[2] * (z - v[2] * t);
    return gas::Primitive<double>{rho0 * (1 + A * std::sin(2 * pi * phase)), v[0], v[1], v[2], p0};
  };
}

}  // namespace

namespace problems_list {
extern const Problem density_wave{
    "density_wave",    "a density wave carried at uniform velocity and pressure", 0, 1, density_wave_keys,
    density_wave_state};
}  // namespace problems_list

}  // namespace cfd::gas
