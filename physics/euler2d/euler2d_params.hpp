// The euler2d case: 2D compressible Euler equations of an ideal gas on a
// uniform grid with two ghost layers, finite volumes (problems.md section 3):
// the OpenACC/MPI tutorial's MUSCL-HLLE Kelvin-Helmholtz case exactly, and a
// modern default (reconstruction, limiters, Riemann solvers and SSP
// integrators to choose from).
#pragma once

#include "core/config.hpp"
#include "core/decomposition.hpp"
#include "physics/gas/limiters.hpp"
#include "physics/gas/riemann_solvers.hpp"

#include "core/expression.hpp"

#include <array>
#include <memory>
#include <vector>

namespace cfd::euler2d {

enum class Problem { kh_mcnally, kh_seed, sod_x, sod_y, vortex, blast, expression };
enum class Integrator { euler, rk2, rk3 };

// The constants of the shipped problems: keys of the problem's own section
// (kh_mcnally.width, blast.radius, ...), today's values as defaults.
struct ProblemConstants {
  // kh_mcnally, kh_seed: densities and x velocities of the two layers, the
  // width of the smoothed interfaces, the amplitude of the vy seed, pressure
  double rho_1 = 1, rho_2 = 2, vx_1 = 0.5, vx_2 = -0.5, width = 0.025, amplitude = 0.01, pressure = 2.5;
  double y_lower = 0.25, y_upper = 0.75;  // the two interfaces (kh_seed: -0.25, 0.25)
  // sod_x, sod_y, blast: the state below the interface (inside the blast)
  // and above it (outside), the interface position, the blast's centre and radius
  double rho_lo = 1, p_lo = 1, rho_hi = 0.125, p_hi = 0.1, interface = 0.5;
  double x_centre = 0.5, y_centre = 0.5, radius = 0.1;
  // vortex: strength and the velocity it is advected with
  double strength = 5, vx = 1, vy = 1;
};

// problem: expression; the primitives as formulas of x, y, t and the
// user's constants.
struct InitialFormulas {
  Expression rho, vx, vy, p;
};

struct Params {
  Problem problem = Problem::kh_mcnally;
  ProblemConstants k;
  std::shared_ptr<const InitialFormulas> formulas;  // problem: expression (host only)
  long nx = 256, ny = 256;
  std::array<double, 2> lo{0, 0}, hi{1, 1};  // domain, from the problem
  long steps = 0;                            // 0: run to end_time
  double end_time = 2;
  double cfl = 0.4;
  bool fp32 = false;
  bool plm = true;  // plm or dc (donor cell, first order)
  gas::Limiter limiter = gas::Limiter::vanleer;
  gas::RiemannSolver riemann = gas::RiemannSolver::hlle;
  Integrator integrator = Integrator::rk2;
  bool original_faces = false;  // the tutorial's face energy and sound speed from the reconstructed e
  bool fused_stage = true;      // one kernel per stage (fused_stage.hpp); false: the split kernels
  double gamma = 5.0 / 3.0;
  std::array<BoundaryKind, 4> boundary{BoundaryKind::periodic, BoundaryKind::periodic, BoundaryKind::periodic,
                                       BoundaryKind::periodic};  // x_lo, x_hi, y_lo, y_hi
  double output_interval = 0;  // snapshots every this much simulated time (0: initial and final)
};

std::vector<KeySpec> keys();
// The keys of each problem's section, with today's values as defaults.
std::vector<KeySpec> problem_keys();
Params params(const Config& config);
const char* name(Problem p);

}  // namespace cfd::euler2d
