#include "physics/navier_stokes/navier_stokes_params.hpp"

#include "core/problem_table.hpp"
#include "core/run/shared_keys.hpp"
#include "physics/gas/gas_keys.hpp"

#include <algorithm>
#include <string>

namespace cfd::navier_stokes {

namespace {

// The gas problems this solver can represent (every gas problem).
const std::vector<gas::Problem>& problems() {
  static const std::vector<gas::Problem> table = gas::problems_for(true);
  return table;
}

const char* side_names[6] = {"x_lo", "x_hi", "y_lo", "y_hi", "z_lo", "z_hi"};

std::string side_key(int s) { return std::string("boundary.") + side_names[s]; }
std::string wall_key(int s, const char* what) { return std::string("wall_") + side_names[s] + "." + what; }

}  // namespace

std::vector<KeySpec> keys() {
  const std::vector<std::string> sides = {"periodic", "isothermal_wall", "adiabatic_wall"};
  std::vector<KeySpec> k = {
      {"solver", KeyType::choice, "", "which solver runs the case", {"navier_stokes"}},
      {"grid.nx", KeyType::integer, "64", "cells along x", {}, 4, 1e6},
      {"grid.ny", KeyType::integer, "64", "cells along y", {}, 4, 1e6},
      {"grid.nz", KeyType::integer, "64", "cells along z: 1 is a 2D case", {}, 1, 1e6},
      {"time.steps", KeyType::integer, "0", "fixed number of steps; 0 runs to time.end_time", {}, 0, 1e12},
      {"time.end_time",
       KeyType::real,
       "10",
       "simulated end time when time.steps is 0; the last step is shortened",
       {},
       0},
      {"time.cfl",
       KeyType::real,
       "0.4",
       "convective limit: dt <= cfl * min over cells and directions d of h_d/(|v_d| + c), the meaning time.cfl has "
       "in every gas solver; central differences with rk4 are stable to 2.83/k along one direction (k, the "
       "scheme's largest modified wavenumber: 1, 1.37, 1.59 at orders 2, 4, 6), with rk3 to 1.73/k, and a sound "
       "wave along a diagonal sees sqrt(2) (2D) or sqrt(3) (3D) times that rate, so 0.4 is safe with either at "
       "every order; the Re 1600 vortex runs at 0.88 with rk4",
       {},
       1e-6,
       3},
      {"time.fourier",
       KeyType::real,
       "0.2",
       "viscous limit: dt <= fourier * min over cells of 1/(nu_eff sum_d 1/h_d^2), nu_eff = max(4/3, gamma/Pr) mu/rho "
       "(the viscous operator's spectral radius per direction is about 4, 5.4, 6.2 nu_eff/h^2 at orders 2, 4, 6, and "
       "rk3/rk4 are stable on the negative axis to about 2.5/2.8: at most 0.4)",
       {},
       1e-6,
       0.4},
      {"time.dt",
       KeyType::real,
       "0",
       "a fixed time step (0: from time.cfl and time.fourier); for time-convergence studies",
       {},
       0},
      {"navier_stokes.problem", KeyType::choice, "taylor_green", gas::problems_description(problems()),
       problem_table::names(problems())},
      {"navier_stokes.precision", KeyType::choice, "fp64", "working precision", {"fp32", "fp64"}},
      {"navier_stokes.order",
       KeyType::choice,
       "4",
       "order of the central differences: the KEEP split form on 2, 4 or 6 nodes per direction (Kuya and Kawai "
       "2021) and the viscous terms of the same order; the halo is order - 1 cells deep (order/2 without viscosity; "
       "with convective_flux hybrid or upwind at least "
       "max(order/2, 2) + 1)",
       {"2", "4", "6"}},
      {"navier_stokes.split",
       KeyType::choice,
       "keep",
       "convective split form: keep (Kuya, Totani and Kawai 2018: kinetic energy preserved by the convective terms, "
       "entropy nearly) or keep_pe (Shima et al. 2021: also keeps a uniform pressure uniform across density jumps)",
       {"keep", "keep_pe"}},
      {"navier_stokes.integrator", KeyType::choice, "rk4", "time integrator: SSP-RK3 or classical RK4",
       gas::integrator_names({Integrator::rk3, Integrator::rk4})},
      {"navier_stokes.convective_flux",
       KeyType::choice,
       "keep",
       "convective flux through a face: keep (the split form of navier_stokes.split at every face), hybrid (that, "
       "and the upwind flux, MUSCL with the van Leer limiter and the HLLC Riemann solver, at faces where the shock "
       "sensor exceeds navier_stokes.sensor_threshold; the sensor is written as the field shock_sensor) or "
       "upwind (the upwind flux at every face but walls': the hybrid with its sensor forced on)",
       {"keep", "hybrid", "upwind"}},
      {"navier_stokes.sensor_threshold",
       KeyType::real,
       "0.1",
       "the hybrid's switch: a face takes the upwind flux where the shock sensor of a cell its stencils read "
       "exceeds this (1: never); the sensor is the larger of Ducros' max(-div v/sqrt(div v^2 + |curl v|^2 + "
       "eps^2), 0) and Jameson's |p(+1) - 2 p + p(-1)|/(p(+1) + 2 p + p(-1)) (docs/navier_stokes.md)",
       {},
       0,
       1},
      {"output.time_interval",
       KeyType::real,
       "0",
       "snapshot every this much simulated time, hit exactly by shortening a step (0: initial and final only)",
       {},
       0},
  };
  for (int s = 0; s < 6; ++s) {
    const bool z = s >= 4;
    k.push_back({side_key(s), KeyType::choice, "periodic",
                 std::string("the ") + side_names[s] + " side" + (z ? " of a 3D grid" : "") +
                     ": periodic, or a no-slip wall (keys " + "wall_" + side_names[s] +
                     ".*) held at its "
                     "temperature (isothermal_wall) or insulating (adiabatic_wall)",
                 sides});
    const std::string wall = "=isothermal_wall|adiabatic_wall";
    for (const char* v : {"vx", "vy", "vz"}) {
      KeySpec spec{wall_key(s, v), KeyType::real, "0",
                   std::string("the wall's velocity along ") + v[1] + " (its normal component must be 0)"};
      spec.belongs_to = side_key(s) + wall;
      k.push_back(spec);
    }
    KeySpec t{wall_key(s, "T"), KeyType::real, "1", "the temperature of an isothermal wall", {}, 1e-300};
    t.belongs_to = side_key(s) + "=isothermal_wall";
    k.push_back(t);
  }
  // The gas and its viscosity after the numerics, in the units of the problem.
  gas::GasKeyDefaults gas;
  gas.mu_means +=
      "; 0: the problem's, from its Reynolds number (taylor_green, taylor_green_2d), which refuses "
      "another value beside it";
  gas.T0 = "0", gas.T0_min = 0;
  gas.T0_means += "; 0: the problem's (taylor_green's uniform initial temperature p0/(rho0 R)), else 1";
  const auto after_numerics =
      std::find_if(k.begin(), k.end(), [](const KeySpec& s) { return s.path == "output.time_interval"; });
  const std::vector<KeySpec> gas_keys = gas::gas_keys(gas);
  k.insert(after_numerics, gas_keys.begin(), gas_keys.end());
  for (auto& o : gas::problem_keys(problems(), "navier_stokes.problem")) k.push_back(o);
  for (auto& o : gas::source_keys()) k.push_back(o);
  for (auto& spec : k) {
    // The constants serve the source terms too, whatever the problem:
    // params() refuses those that no formula reads.
    if (spec.path == "constants.*") {
      spec.belongs_to.clear();
      spec.help =
          "constants named by the user (constants: {y0: 0.5}), for the formulas of the case (expression.*, "
          "sources.*)";
    }
    if (spec.path == "time.end_time") spec.belongs_to = "time.steps=0", spec.only_warn = true;
    if (spec.path == "navier_stokes.sensor_threshold")
      spec.belongs_to = "navier_stokes.convective_flux=hybrid", spec.only_warn = true;
  }
  mark_on_restart(k, {"time.steps", "time.end_time", "output.time_interval"}, OnRestart::same_bits);
  mark_on_restart(k,
                  {"time.cfl", "time.fourier", "time.dt", "navier_stokes.integrator", "navier_stokes.split",
                   "navier_stokes.convective_flux", "navier_stokes.sensor_threshold"},
                  OnRestart::branches);
  add_shared_keys(k, 3);
  return k;
}

Params params(const Config& c) {
  Params p;
  const std::string& prob = c.get_string("navier_stokes.problem");
  p.problem = gas::find_problem(prob);
  p.nx = c.get_int("grid.nx");
  p.ny = c.get_int("grid.ny");
  p.nz = c.get_int("grid.nz");
  if (p.nz > 1 && p.nz < 4) c.reject("grid.nz", "1 (a 2D case) or at least 4");
  problem_table::read_domain(c, prob, p.lo, p.hi);
  p.steps = c.get_int("time.steps");
  p.end_time = c.get_real("time.end_time");
  p.cfl = c.get_real("time.cfl");
  p.fourier = c.get_real("time.fourier");
  p.fixed_dt = c.get_real("time.dt");
  p.fp32 = c.get_string("navier_stokes.precision") == "fp32";
  p.order = std::stoi(c.get_string("navier_stokes.order"));
  p.pressure_equilibrium = c.get_string("navier_stokes.split") == "keep_pe";
  p.integrator = gas::integrator_named(c.get_string("navier_stokes.integrator"));
  const std::string& flux = c.get_string("navier_stokes.convective_flux");
  p.convective_flux = flux == "hybrid"   ? Params::ConvectiveFlux::hybrid
                      : flux == "upwind" ? Params::ConvectiveFlux::upwind
                                         : Params::ConvectiveFlux::keep;
  p.sensor_threshold = c.get_real("navier_stokes.sensor_threshold");
  const gas::GasConstants gas = gas::read_gas_keys(c);
  p.gamma = gas.gamma, p.R = gas.R, p.Pr = gas.Pr, p.viscosity = gas.viscosity;
  for (int s = 0; s < 6; ++s) {
    const std::string& kind = c.get_string(side_key(s));
    Wall& w = p.sides[s];
    w.kind = kind == "isothermal_wall"  ? Side::isothermal_wall
             : kind == "adiabatic_wall" ? Side::adiabatic_wall
                                        : Side::periodic;
    if (s >= 4 && !p.three_d() && w.is_wall())
      c.reject(side_key(s), "a 2D case (grid.nz: 1) has no z sides; walls along z need grid.nz > 1");
    if (!w.is_wall()) continue;
    w.velocity = {c.get_real(wall_key(s, "vx")), c.get_real(wall_key(s, "vy")), c.get_real(wall_key(s, "vz"))};
    w.temperature = c.get_real(wall_key(s, "T"));
    if (!p.three_d() && w.velocity[2] != 0) c.reject(wall_key(s, "vz"), "a 2D case (grid.nz: 1) has no motion along z");
    const int d = s / 2;
    if (w.velocity[d] != 0)
      c.reject(wall_key(s, d == 0   ? "vx"
                           : d == 1 ? "vy"
                                    : "vz"),
               "a wall moves in its own plane: its velocity normal to the wall must be 0");
    if (p.viscosity.law == gas::ViscosityLaw::none)
      c.reject(side_key(s), "no-slip walls need a viscous gas (viscosity.law is none)");
  }
  for (int d = 0; d < 3; ++d)
    if (p.sides[2 * d].is_wall() != p.sides[2 * d + 1].is_wall()) {
      const int named = c.given(side_key(2 * d)) || !c.given(side_key(2 * d + 1)) ? 2 * d : 2 * d + 1;
      c.reject(side_key(named), "periodic sides come in pairs: set both " + side_key(2 * d) + " and " +
                                    side_key(2 * d + 1) + " to periodic, or both to walls");
    }
  p.output_interval = c.get_real("output.time_interval");
  p.initial = p.problem->state(c, p);  // may set the viscosity from a Reynolds number
  gas::complete_viscosity(c, p.viscosity, prob);
  p.sources = gas::read_sources(c, 0, p.nz > 1);
  const auto named = c.keys_in("constants");
  if (!named.empty() && prob != "expression" && !p.sources.any())
    c.reject("constants." + named.front(),
             "no formula of this case reads the constants (they serve navier_stokes.problem: expression and "
             "sources.*); remove them");

  check_end_time(c, p.steps, p.end_time, p.output_interval);
  // A fixed step that would take more steps than time.steps may count is
  // no run at all (time.dt: 1e-300 asked for 5e298 steps).
  if (p.steps == 0 && p.fixed_dt > 0 && p.end_time / p.fixed_dt > 1e12)
    c.reject("time.dt", "a step of " + format_real(p.fixed_dt) + " up to time.end_time " + format_real(p.end_time) +
                            " is more than 1e12 steps (time.steps' limit); choose a larger step");
  return p;
}

}  // namespace cfd::navier_stokes
