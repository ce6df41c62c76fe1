// The euler case: 2D compressible Euler equations of an ideal gas on a
// uniform grid with two ghost layers, finite volumes (problems.md section 3):
// the OpenACC/MPI tutorial's MUSCL-HLLE Kelvin-Helmholtz case exactly, and a
// modern default (reconstruction, limiters, Riemann solvers and SSP
// integrators to choose from).
#pragma once

#include "core/config.hpp"
#include "core/decomposition.hpp"
#include "physics/euler/inflow_sides.hpp"
#include "physics/gas/integrators.hpp"
#include "physics/gas/limiters.hpp"
#include "physics/gas/problems/problem.hpp"
#include "physics/gas/riemann_solvers.hpp"
#include "physics/gas/user_sources.hpp"

#include <array>
#include <functional>
#include <vector>

namespace cfd::euler {

using gas::Integrator;  // euler offers euler, rk2 and rk3 (physics/gas/integrators.hpp)

// The domain, grid and gas (gas::Setting, what a problem reads; euler's
// viscosity is none unless viscosity.law says, and it has no walls), then
// the numerics.
struct Params : gas::Setting {
  Params() {
    nx = 256, ny = 256, gamma = 5.0 / 3.0;
    choice = "euler.problem";
  }
  const gas::Problem* problem = nullptr;  // euler.problem, from the gas problems' table (physics/gas/problems/)
  StateAt initial;                        // the problem's state (host only)
  long steps = 0;                         // 0: run to end_time
  double end_time = 2;
  double cfl = 0.4;
  double fourier = 0.25;  // time.fourier: the viscous limit's factor (with viscosity)
  bool fp32 = false;
  bool plm = true;  // plm or dc (donor cell, first order)
  gas::Limiter limiter = gas::Limiter::vanleer;
  gas::RiemannSolver riemann = gas::RiemannSolver::hlle;
  Integrator integrator = Integrator::rk2;
  bool original_faces = false;  // the tutorial's face energy and sound speed from the reconstructed e
  bool fused_stage = true;      // one kernel per stage (stage_2d.hpp); false: the split kernels
  std::array<BoundaryKind, 4> boundary{BoundaryKind::periodic, BoundaryKind::periodic, BoundaryKind::periodic,
                                       BoundaryKind::periodic};                            // x_lo, x_hi, y_lo, y_hi
  std::array<BoundaryKind, 2> boundary_z{BoundaryKind::periodic, BoundaryKind::periodic};  // 3D grids: z_lo, z_hi
  // The six sides' kinds in side_names' order (x_lo, x_hi, y_lo, y_hi, z_lo, z_hi).
  std::array<BoundaryKind, side_count> sides() const {
    return {boundary[0], boundary[1], boundary[2], boundary[3], boundary_z[0], boundary_z[1]};
  }
  // The formulas of the sides whose boundary is inflow (inflow_sides.hpp), in sides()' order.
  std::array<InflowSide, side_count> inflow;
  double output_interval = 0;  // snapshots every this much simulated time (0: initial and final)
  // A constant acceleration (gravity.x, .y, .z; z in 3D only); the split kernels apply it.
  std::array<double, 3> gravity{0, 0, 0};
  bool has_gravity() const { return gravity[0] != 0 || gravity[1] != 0 || gravity[2] != 0; }
  // Viscosity and heat conduction (viscosity.law, gas.Pr): the split kernels
  // subtract their fluxes from the Riemann solver's (viscous_fluxes.hpp).
  bool viscous() const { return viscosity.law != gas::ViscosityLaw::none; }
  // Passive scalars (euler.scalars): how many, and each one's initial
  // concentration at (x, y, z) (scalars.s1, ...; z is 0 on a 2D grid); the
  // split kernels carry them.
  int scalars = 0;
  std::vector<std::function<double(double x, double y, double z)>> scalar_initial;
  // The user's source terms (sources.*, physics/gas/user_sources.hpp); the
  // split kernels apply them after gravity.
  gas::SourceTerms sources;
};

std::vector<KeySpec> keys();
Params params(const Config& config);

}  // namespace cfd::euler
