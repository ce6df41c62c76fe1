// The sod case: 1D compressible Navier-Stokes shock tube (problems.md
// section 2), with the original's KEEP scheme and a shock-capturing
// finite-volume scheme (PLM + HLLC + SSP-RK2) beside it.
#pragma once

#include "core/config.hpp"
#include "core/decomposition.hpp"
#include "physics/gas/exact_riemann.hpp"
#include "physics/gas/integrators.hpp"
#include "physics/gas/limiters.hpp"
#include "physics/gas/transport.hpp"
#include "physics/sod/keep_flux.hpp"
#include "physics/sod/problems/problem.hpp"

#include <functional>
#include <vector>

namespace cfd::sod {

enum class StateLayout { aos, soa };  // aos: (rho, m, E) of a node together
enum class Kernels { split, fused };
enum class Units { physical, sod };

// The grid, scheme, boundary and initial state (Setting, what a problem
// reads and sets), then the rest.
struct Params : Setting {
  long steps = 2500;    // 0: run to end_time
  double end_time = 0;  // Sod units (Lx/a); used when steps == 0
  double cfl = 0.1;
  StateLayout layout = StateLayout::aos;
  Kernels kernels = Kernels::split;
  int fused_steps = 1;  // keep only: steps per kernel launch (KeepTiledSteps)
  bool fp32 = false;
  gas::Limiter limiter = gas::Limiter::vanleer;
  bool reconstruct = true;                            // plm (true) or piecewise constant (first-order Godunov)
  gas::Integrator integrator = gas::Integrator::rk2;  // hllc: SSP-RK2 or forward Euler (gas/integrators.hpp)
  // gas (SI units)
  double gamma = 1.4, R = 287.03, Pr = 0.72, Re = 25000;
  gas::Viscosity<double> viscosity{gas::ViscosityLaw::sutherland, 1.716e-5, 273.2, 111, 0.76};
  double rho_ref = 1.293, T_ref = 300;
  const Problem* problem = &problems_list::tube;  // sod.problem (problems/)
  Units units = Units::sod;
  bool text_output = false;

  // Reference scales: a = sqrt(R T_ref) (not the sound speed), Lx = Re*mu0/(rho_ref*a).
  double a() const;
  double length() const;
  double p_ref() const { return rho_ref * R * T_ref; }
  double dx() const;  // node spacing (keep) or cell width (hllc), physical
};

std::vector<KeySpec> keys();
// Throws ConfigError for combinations the keys alone cannot rule out.
Params params(const Config& config);

}  // namespace cfd::sod
