#include "physics/euler2d/euler2d_params.hpp"

#include "core/job_control.hpp"
#include "core/snapshot.hpp"

namespace cfd::euler2d {

const char* name(Problem p) {
  switch (p) {
    case Problem::kh_mcnally: return "kh_mcnally";
    case Problem::kh_seed: return "kh_seed";
    case Problem::sod_x: return "sod_x";
    case Problem::sod_y: return "sod_y";
    case Problem::vortex: return "vortex";
    case Problem::blast: return "blast";
  }
  return "?";
}

std::vector<KeySpec> keys() {
  const std::vector<std::string> sides = {"periodic", "outflow", "reflecting"};
  std::vector<KeySpec> k = {
      {"solver", KeyType::choice, "", "which solver runs the case", {"euler2d"}},
      {"grid.nx", KeyType::integer, "256", "cells along x", {}, 4, 1e6},
      {"grid.ny", KeyType::integer, "256", "cells along y", {}, 4, 1e6},
      {"time.steps",
       KeyType::integer,
       "0",
       "fixed number of steps (the tutorial runs 20000); 0 runs to time.end_time",
       {},
       0,
       1e12},
      {"time.end_time",
       KeyType::real,
       "2",
       "simulated end time when time.steps is 0; the last step is shortened",
       {},
       0},
      {"time.cfl",
       KeyType::real,
       "0.4",
       "dt = cfl * min over cells of min(dx/(|vx|+c), dy/(|vy|+c)); the tutorial uses 0.05",
       {},
       1e-6,
       1},
      {"euler2d.problem",
       KeyType::choice,
       "kh_mcnally",
       "kh_mcnally: McNally et al. 2012 Kelvin-Helmholtz on [0,1]^2; kh_seed: the tutorial's on [-0.5,0.5]^2; "
       "sod_x, sod_y: Sod's tube along x or y on [0,1]^2; vortex: isentropic vortex advected on [-5,5]^2; "
       "blast: a circular Sod-like blast (rho 1, p 1 within r < 0.1 of the centre, rho 0.125, p 0.1 outside) on "
       "[0,1]^2",
       {"kh_mcnally", "kh_seed", "sod_x", "sod_y", "vortex", "blast"}},
      {"euler2d.precision", KeyType::choice, "fp64", "working precision", {"fp32", "fp64"}},
      {"euler2d.reconstruction",
       KeyType::choice,
       "plm",
       "plm: limited piecewise linear on primitives; dc: donor cell",
       {"plm", "dc"}},
      {"euler2d.limiter", KeyType::choice, "vanleer", "slope limiter of plm", {"vanleer", "minmod", "mc"}},
      {"euler2d.riemann", KeyType::choice, "hlle", "Riemann solver", {"hlle", "hllc", "llf"}},
      {"euler2d.integrator",
       KeyType::choice,
       "rk2",
       "time integrator: forward euler, SSP-RK2 or SSP-RK3",
       {"euler", "rk2", "rk3"}},
      {"euler2d.original_faces", KeyType::boolean, "false",
       "the tutorial's faces: e and p reconstructed independently, face energy and sound speed from e (needs hlle)"},
      {"euler2d.fused_stage", KeyType::boolean, "true",
       "one kernel per Runge-Kutta stage on tiles held in fast memory (false: a kernel each for the primitives, "
       "x fluxes, y fluxes and update, through memory); the same results bit for bit"},
      {"euler2d.gamma", KeyType::real, "1.6666666666666667", "ratio of specific heats", {}, 1.0000001, 10},
      {"boundary.x_lo", KeyType::choice, "periodic", "boundary at the lower x side", sides},
      {"boundary.x_hi", KeyType::choice, "periodic", "boundary at the upper x side", sides},
      {"boundary.y_lo", KeyType::choice, "periodic", "boundary at the lower y side", sides},
      {"boundary.y_hi", KeyType::choice, "periodic", "boundary at the upper y side", sides},
      {"output.time_interval",
       KeyType::real,
       "0",
       "snapshot every this much simulated time, hit exactly by shortening a step (0: initial and final only)",
       {},
       0},
  };
  for (auto& o : output_keys()) k.push_back(o);
  for (auto& o : run_keys()) k.push_back(o);
  for (auto& o : parallel_keys(2)) k.push_back(o);
  return k;
}

Params params(const Config& c) {
  Params p;
  const std::string& prob = c.get_string("euler2d.problem");
  p.problem = prob == "kh_seed"  ? Problem::kh_seed
              : prob == "sod_x"  ? Problem::sod_x
              : prob == "sod_y"  ? Problem::sod_y
              : prob == "vortex" ? Problem::vortex
              : prob == "blast"  ? Problem::blast
                                 : Problem::kh_mcnally;
  p.nx = c.get_int("grid.nx");
  p.ny = c.get_int("grid.ny");
  p.steps = c.get_int("time.steps");
  p.end_time = c.get_real("time.end_time");
  p.cfl = c.get_real("time.cfl");
  p.fp32 = c.get_string("euler2d.precision") == "fp32";
  p.plm = c.get_string("euler2d.reconstruction") == "plm";
  const std::string& l = c.get_string("euler2d.limiter");
  p.limiter = l == "minmod" ? gas::Limiter::minmod : l == "mc" ? gas::Limiter::mc : gas::Limiter::vanleer;
  const std::string& r = c.get_string("euler2d.riemann");
  p.riemann = r == "hllc" ? gas::RiemannSolver::hllc : r == "llf" ? gas::RiemannSolver::llf : gas::RiemannSolver::hlle;
  const std::string& i = c.get_string("euler2d.integrator");
  p.integrator = i == "euler" ? Integrator::euler : i == "rk3" ? Integrator::rk3 : Integrator::rk2;
  p.original_faces = c.get_bool("euler2d.original_faces");
  p.fused_stage = c.get_bool("euler2d.fused_stage");
  p.gamma = c.get_real("euler2d.gamma");
  const char* side_keys[4] = {"boundary.x_lo", "boundary.x_hi", "boundary.y_lo", "boundary.y_hi"};
  for (int s = 0; s < 4; ++s) {
    const std::string& b = c.get_string(side_keys[s]);
    p.boundary[s] = b == "outflow"      ? BoundaryKind::outflow
                    : b == "reflecting" ? BoundaryKind::reflecting
                                        : BoundaryKind::periodic;
  }
  p.output_interval = c.get_real("output.time_interval");

  if (p.problem == Problem::kh_seed) p.lo = {-0.5, -0.5}, p.hi = {0.5, 0.5};
  if (p.problem == Problem::vortex) p.lo = {-5, -5}, p.hi = {5, 5};

  if (p.steps == 0 && !(p.end_time > 0)) c.reject("time.end_time", "must be positive when time.steps is 0");
  // Each output time is a step landed on: an interval far below the run's
  // length would write snapshot after snapshot without end.
  if (p.steps == 0 && p.output_interval > 0 && p.end_time / p.output_interval > max_snapshots)
    c.reject("output.time_interval", "a snapshot every " + format_real(p.output_interval) + " up to time.end_time " +
                                         format_real(p.end_time) + " would be more than " +
                                         std::to_string(static_cast<long>(max_snapshots)) +
                                         " snapshots; choose a larger interval");
  if (p.original_faces && p.riemann != gas::RiemannSolver::hlle)
    c.reject("euler2d.original_faces", "the tutorial's faces go with riemann: hlle");
  for (int s = 0; s < 4; s += 2)
    if ((p.boundary[s] == BoundaryKind::periodic) != (p.boundary[s + 1] == BoundaryKind::periodic))
      c.reject(side_keys[s], "periodic boundaries come in pairs: set both " + std::string(side_keys[s]) + " and " +
                                 side_keys[s + 1] + " to periodic, or neither");
  return p;
}

}  // namespace cfd::euler2d
