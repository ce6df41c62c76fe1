// The sod case: 1D compressible Navier-Stokes shock tube (problems.md
// section 2), with the original's KEEP scheme and a shock-capturing
// finite-volume scheme (PLM + HLLC + SSP-RK2) beside it.
#pragma once

#include "core/config.hpp"
#include "core/decomposition.hpp"
#include "physics/gas/exact_riemann.hpp"
#include "physics/gas/integrators.hpp"
#include "physics/gas/limiters.hpp"
#include "physics/sod/keep_flux.hpp"
#include "physics/sod/problems/problem.hpp"

#include <functional>
#include <vector>

namespace cfd::sod {

enum class Scheme { keep, hllc };
enum class StateLayout { aos, soa };  // aos: (rho, m, E) of a node together
enum class Kernels { split, fused };
enum class Units { physical, sod };

struct Params {
  long nx = 4096;
  long steps = 2500;    // 0: run to end_time
  double end_time = 0;  // Sod units (Lx/a); used when steps == 0
  double cfl = 0.1;
  Scheme scheme = Scheme::keep;
  StateLayout layout = StateLayout::aos;
  Kernels kernels = Kernels::split;
  int fused_steps = 1;  // keep only: steps per kernel launch (KeepTiledSteps)
  bool fp32 = false;
  Viscosity viscosity = Viscosity::sutherland;
  BoundaryKind boundary = BoundaryKind::fixed;  // fixed: the initial states, frozen
  gas::Limiter limiter = gas::Limiter::vanleer;
  bool reconstruct = true;  // plm (true) or piecewise constant (first-order Godunov)
  gas::Integrator integrator = gas::Integrator::rk2;  // hllc: SSP-RK2 or forward Euler (gas/integrators.hpp)
  // gas
  double gamma = 1.4, R = 287.03, Pr = 0.72, mu0 = 1.716e-5, T0 = 273.2, S = 111, Re = 25000;
  double rho_ref = 1.293, T_ref = 300;
  // The initial state (sod.problem, problems/) in Sod units (rho/rho_ref,
  // u/a, p/(rho_ref R T_ref)): the state at x, the position as a fraction of
  // the tube (host only; empty: the tube of left and right), and the states
  // a fixed boundary keeps.
  const Problem* problem = &problems_list::tube;
  std::function<gas::RiemannState(double x)> initial;
  gas::RiemannState left{1, 0, 1}, right{0.125, 0, 0.1};
  double diaphragm = 0.5;  // the tube's, a fraction of the tube
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
