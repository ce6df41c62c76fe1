// The navier_stokes case: the compressible Navier-Stokes equations of an
// ideal gas in 2D (grid.nz = 1) and 3D on a uniform grid of cells, with the
// KEEP split convective fluxes (physics/gas/keep.hpp) at order 2, 4 or 6,
// viscous stresses and heat conduction by central differences of the same
// order, SSP-RK3 or classical RK4, periodic sides and no-slip walls
// (isothermal or adiabatic). docs/navier_stokes.md is the user's page.
#pragma once

#include "core/config.hpp"
#include "core/decomposition.hpp"
#include "physics/gas/integrators.hpp"
#include "physics/gas/problems/problem.hpp"
#include "physics/gas/transport.hpp"
#include "physics/gas/user_sources.hpp"

#include <array>

namespace cfd::navier_stokes {

using gas::Integrator;  // navier_stokes offers rk3 and rk4 (physics/gas/integrators.hpp)
using gas::Side;
using gas::StateAt;
using gas::Wall;
// The domain, grid, gas and sides (gas::Setting, what a problem reads; Side
// and Wall there too), then the numerics.
struct Params : gas::Setting {
  Params() {
    nz = 64;
    viscosity.law = gas::ViscosityLaw::constant;
    choice = "navier_stokes.problem";
  }
  const gas::Problem* problem = nullptr;  // navier_stokes.problem, from the gas problems' table
  StateAt initial;                        // the problem's state (host only)
  long steps = 0;                         // 0: run to end_time
  double end_time = 1;
  double cfl = 0.4;      // dt <= cfl min_d h_d/(|v_d| + c) (physics/gas/time_step.hpp)
  double fourier = 0.2;  // dt <= fourier / (nu_eff sum_d 1/h_d^2)
  double fixed_dt = 0;   // time.dt: > 0 fixes the step (convergence studies)
  bool fp32 = false;
  int order = 4;                      // 2, 4 or 6
  bool pressure_equilibrium = false;  // KEEP-PE instead of KEEP
  Integrator integrator = Integrator::rk4;
  // navier_stokes.convective_flux: KEEP at every face, the hybrid (KEEP, and
  // the upwind flux where the shock sensor fires), or the upwind flux at
  // every face (the hybrid with its sensor forced on).
  enum class ConvectiveFlux { keep, hybrid, upwind };
  ConvectiveFlux convective_flux = ConvectiveFlux::keep;
  double sensor_threshold = 0.1;  // navier_stokes.sensor_threshold
  double output_interval = 0;
  // The user's source terms (sources.*, physics/gas/user_sources.hpp), added
  // after each stage's update by the stage's rule.
  gas::SourceTerms sources;

  bool hybrid() const { return convective_flux != ConvectiveFlux::keep; }
  // The sensor's threshold as the kernels take it: below 0 (every face
  // upwind) for convective_flux upwind.
  double face_threshold() const { return convective_flux == ConvectiveFlux::upwind ? -1.0 : sensor_threshold; }
  int half_width() const { return order / 2; }  // the KEEP stencil's nodes on each side of a face
  // Ghost layers: the viscous flux a cell takes reaches 2 half_width - 1
  // cells out (update.hpp); the convective one half_width. The hybrid's
  // faces read the sensor of max(half_width, 2) cells on each side (MUSCL's
  // stencil is 2), and the sensor of a cell its neighbours' W: one more.
  int ghost_width() const {
    const int keep = viscosity.law == gas::ViscosityLaw::none ? half_width() : 2 * half_width() - 1;
    const int hybrid_width = (half_width() > 2 ? half_width() : 2) + 1;
    return hybrid() && hybrid_width > keep ? hybrid_width : keep;
  }
};

std::vector<KeySpec> keys();
Params params(const Config& config);

}  // namespace cfd::navier_stokes
