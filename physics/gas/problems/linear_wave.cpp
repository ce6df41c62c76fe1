// A sound wave of small amplitude along an oblique direction of a periodic
// box (the linear-wave test of Stone et al. 2008, ApJS 178, 137, section
// 8.1, and of AthenaK's pgen/linear_wave.cpp): density, velocity along the
// wave vector and pressure in the acoustic eigenvector's proportions on a
// uniform gas at rest with sound speed 1. Its exact solution at time t is
// the wave moved by c t along its direction (to first order in the
// amplitude), against which tests/test_euler3d.cpp measures second-order
// convergence.
#include "physics/gas/problems/problem.hpp"

#include <cmath>

namespace cfd::gas {

namespace {

const double pi = 3.14159265358979323846;

struct Wave {
  double amplitude, rho, p, c;      // the background gas: c = sqrt(gamma p / rho)
  std::array<double, 3> k, lo;      // wave vector, 2 pi (n_x / L_x, n_y / L_y, n_z / L_z), and the box's corner
  std::array<double, 3> direction;  // k / |k|
  double omega;                     // c |k|
};

std::vector<KeySpec> wave_keys() {
  return {{"linear_wave.amplitude", KeyType::real, "1e-6", "relative amplitude A of the density (drho = A rho sin)"},
          {"linear_wave.rho", KeyType::real, "1", "background density", {}, 1e-300},
          {"linear_wave.x_waves", KeyType::integer, "1", "wavelengths across the box along x", {}, -1e6, 1e6},
          {"linear_wave.y_waves", KeyType::integer, "1", "wavelengths across the box along y", {}, -1e6, 1e6},
          {"linear_wave.z_waves",
           KeyType::integer,
           "1",
           "wavelengths across the box along z (3D grids; 2D: none)",
           {},
           -1e6,
           1e6}};
}

StateAt wave_state(const Config& c, Setting& p) {
  Wave w{};
  w.amplitude = c.get_real("linear_wave.amplitude");
  w.rho = c.get_real("linear_wave.rho");
  w.c = 1;
  w.p = w.rho * w.c * w.c / p.gamma;  // sound speed 1
  const long waves[3] = {c.get_int("linear_wave.x_waves"), c.get_int("linear_wave.y_waves"),
                         p.three_d() ? c.get_int("linear_wave.z_waves") : 0};
  if (waves[0] == 0 && waves[1] == 0 && waves[2] == 0)
    c.reject("linear_wave.x_waves", "the wave needs a direction: x_waves, y_waves and z_waves are all 0");
  double norm = 0;
  for (int d = 0; d < 3; ++d) {
    w.k[d] = 2 * pi * static_cast<double>(waves[d]) / (p.hi[d] - p.lo[d]);
    w.lo[d] = p.lo[d];
    norm += w.k[d] * w.k[d];
  }
  norm = std::sqrt(norm);
  for (int d = 0; d < 3; ++d) w.direction[d] = w.k[d] / norm;
  w.omega = w.c * norm;
  return [w](double x, double y, double z, double t) {
    const double phase = w.k[0] * (x - w.lo[0]) + w.k[1] * (y - w.lo[1]) + w.k[2] * (z - w.lo[2]) - w.omega * t;
    const double s = w.amplitude * std::sin(phase);
    const double v = w.c * s;  // |dv| = c drho / rho
    return gas::Primitive<double>{w.rho * (1 + s), v * w.direction[0], v * w.direction[1], v * w.direction[2],
                                  w.p + w.rho * w.c * w.c * s};
  };
}

}  // namespace

namespace problems_list {
extern const Problem linear_wave{
    "linear_wave", "a sound wave along (x_waves, y_waves, z_waves), periodic box", 0, 1, wave_keys, wave_state};
}  // namespace problems_list

}  // namespace cfd::gas
