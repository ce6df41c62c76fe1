// Kelvin-Helmholtz: two shear layers in a periodic box, a dense middle
// layer moving against the outer ones, seeded by vy = A sin(4 pi x).
// kh_mcnally is McNally, Lyra & Passy 2012 (ApJS 201, 18), eq. 1-4, on
// [0,1]^2; kh_seed is the OpenACC tutorial's case on [-0.5,0.5]^2, the same
// smoothed layers written from the other side of each interface (its bits
// are the tutorial's).
#include "physics/gas/problems/problem.hpp"

#include <cmath>

namespace cfd::gas {

namespace {

struct Layers {
  double rho_1, rho_2, vx_1, vx_2;  // outer and middle layer
  double y_lower, y_upper;          // the interfaces
  double width, amplitude, pressure;
  double z_amplitude, z_waves, z_lo, z_length;  // the seed's modulation along z (3D grids)
};

const double pi = 3.14159265358979323846;

std::vector<KeySpec> layer_keys(const std::string& kh, bool seed) {
  const double positive = 1e-300;
  return {
      {kh + ".rho_1", KeyType::real, "1", "density of the outer layers", {}, positive},
      {kh + ".rho_2", KeyType::real, "2", "density of the middle layer", {}, positive},
      {kh + ".vx_1", KeyType::real, "0.5", "x velocity of the outer layers"},
      {kh + ".vx_2", KeyType::real, "-0.5", "x velocity of the middle layer"},
      {kh + ".y_lower", KeyType::real, seed ? "-0.25" : "0.25", "y of the lower interface"},
      {kh + ".y_upper", KeyType::real, seed ? "0.25" : "0.75", "y of the upper interface"},
      {kh + ".width", KeyType::real, "0.025", "width L of the smoothed interfaces (exp(-|y - y_i|/L))", {}, positive},
      {kh + ".amplitude", KeyType::real, "0.01", "amplitude of the seed vy = A sin(4 pi x)"},
      {kh + ".pressure", KeyType::real, "2.5", "uniform pressure", {}, positive},
      {kh + ".z_amplitude", KeyType::real, "0",
       "3D grids: the seed varies along z, vy = A sin(4 pi x) (1 + a sin(2 pi n (z - z_min) / (z_max - z_min))); "
       "0 keeps it z-independent"},
      {kh + ".z_waves", KeyType::integer, "1", "3D grids: wavelengths n of the seed's z modulation", {}, 1, 1e6}};
}

Layers read_layers(const Config& c, Setting& p, const std::string& kh) {
  auto get = [&](const char* key) { return c.get_real(kh + "." + key); };
  const Layers k{get("rho_1"),
                 get("rho_2"),
                 get("vx_1"),
                 get("vx_2"),
                 get("y_lower"),
                 get("y_upper"),
                 get("width"),
                 get("amplitude"),
                 get("pressure"),
                 get("z_amplitude"),
                 static_cast<double>(c.get_int(kh + ".z_waves")),
                 p.lo[2],
                 p.hi[2] - p.lo[2]};
  if (!(k.y_upper > k.y_lower)) c.reject(kh + ".y_upper", "must be above " + kh + ".y_lower");
  if (k.z_amplitude != 0 && !p.three_d())
    c.reject(kh + ".z_amplitude", "modulates the seed along z: it needs a 3D grid (grid.nz > 1)");
  return k;
}

// The seed vy = A sin(4 pi x), modulated along z when z_amplitude is not 0
// (with 0 the very bits of the 2D seed).
double seed_vy(const Layers& k, double x, double z) {
  const double vy = k.amplitude * std::sin(4 * pi * x);
  if (k.z_amplitude == 0) return vy;
  return vy * (1 + k.z_amplitude * std::sin(2 * pi * k.z_waves * (z - k.z_lo) / k.z_length));
}

StateAt mcnally_state(const Config& c, Setting& p) {
  return [k = read_layers(c, p, "kh_mcnally")](double x, double y, double z, double) {
    const double rho1 = k.rho_1, rho2 = k.rho_2, u1 = k.vx_1, u2 = k.vx_2, L = k.width;
    const double lower = k.y_lower, upper = k.y_upper, middle = 0.5 * (lower + upper);
    const double rm = (rho1 - rho2) / 2, um = (u1 - u2) / 2;
    double rho, vx;
    if (y < lower)
      rho = rho1 - rm * std::exp((y - lower) / L), vx = u1 - um * std::exp((y - lower) / L);
    else if (y < middle)
      rho = rho2 + rm * std::exp((lower - y) / L), vx = u2 + um * std::exp((lower - y) / L);
    else if (y < upper)
      rho = rho2 + rm * std::exp((y - upper) / L), vx = u2 + um * std::exp((y - upper) / L);
    else
      rho = rho1 - rm * std::exp((upper - y) / L), vx = u1 - um * std::exp((upper - y) / L);
    return gas::Primitive<double>{rho, vx, seed_vy(k, x, z), 0, k.pressure};
  };
}

StateAt seed_state(const Config& c, Setting& p) {
  return [k = read_layers(c, p, "kh_seed")](double x, double y, double z, double) {
    const double rho1 = k.rho_1, rho2 = k.rho_2, u1 = k.vx_1, u2 = k.vx_2, L = k.width;
    const double lower = k.y_lower, upper = k.y_upper, middle = 0.5 * (lower + upper);
    const double rm = (rho1 - rho2) / 2, um = (u1 - u2) / 2;
    double rho, vx;
    if (y > upper)
      vx = u1 - um * std::exp(-(y - upper) / L), rho = rho1 - rm * std::exp(-(y - upper) / L);
    else if (y > middle)
      vx = u2 + um * std::exp(-(upper - y) / L), rho = rho2 + rm * std::exp(-(upper - y) / L);
    else if (y > lower)
      vx = u2 + um * std::exp(-(y - lower) / L), rho = rho2 + rm * std::exp(-(y - lower) / L);
    else
      vx = u1 - um * std::exp(-(lower - y) / L), rho = rho1 - rm * std::exp(-(lower - y) / L);
    return gas::Primitive<double>{rho, vx, seed_vy(k, x, z), 0, k.pressure};
  };
}

}  // namespace

namespace problems_list {
extern const Problem kh_mcnally{
    "kh_mcnally", "McNally et al. 2012 Kelvin-Helmholtz", 0, 1, [] { return layer_keys("kh_mcnally", false); },
    mcnally_state};
extern const Problem kh_seed{"kh_seed", "the tutorial's Kelvin-Helmholtz",          -0.5,
                             0.5,       [] { return layer_keys("kh_seed", true); }, seed_state};
}  // namespace problems_list

}  // namespace cfd::gas
