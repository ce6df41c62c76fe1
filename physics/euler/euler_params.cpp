#include "physics/euler/euler_params.hpp"

#include "core/case_formulas.hpp"
#include "core/problem_table.hpp"
#include "core/run/shared_keys.hpp"
#include "physics/gas/gas_keys.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string>

namespace cfd::euler {

namespace {

// The gas problems this solver can represent (euler has no walls: couette is not among its problems).
const std::vector<gas::Problem>& problems() {
  static const std::vector<gas::Problem> table = gas::problems_for(false);
  return table;
}

constexpr int max_scalars = 8;  // W holds 6 primitives and the scalars; the halo takes up to 16 components

// What the 3D kernels do not have yet, refused at the key that asks
// for it (grid.nz > 1).
void refuse_in_3d(const Config& c, const Params& p) {
  const std::string why = " with grid.nz > 1: the 3D kernels do not have it yet (2D cases have grid.nz: 1)";
  if (p.original_faces) c.reject("euler.original_faces", "the tutorial's faces are 2D only;" + why);
  // dt = cfl min_d dx_d / (|v_d| + c), as in 2D and in AthenaK: a wave
  // along the cube's diagonal sees the three directions' Courant numbers
  // add up, and the update is stable while their sum is at most 1 (a sound
  // wave along (1, 1, 1) grows without bound at 0.4).
  // Said at time.cfl where the case gives it, else at grid.nz (the default
  // cfl, 0.4, is a 2D one).
  if (p.cfl > 1.0 / 3.0) {
    const std::string why =
        "the three directions' Courant numbers add up, and the 3D update is stable while their "
        "sum is at most 1; 0.3 is usual";
    if (c.given("time.cfl"))
      c.reject("time.cfl", "at most 1/3 with grid.nz > 1 (here " + format_real(p.cfl) + "): " + why);
    c.reject("grid.nz", "a 3D grid needs time.cfl at most 1/3, and its default, " + format_real(p.cfl) +
                            ", is a 2D value: set time.cfl (" + why + ")");
  }
}

}  // namespace

std::vector<KeySpec> keys() {
  const std::vector<std::string> sides = {"periodic", "outflow", "reflecting", "inflow"};
  std::vector<KeySpec> k = {
      {"solver", KeyType::choice, "", "which solver runs the case", {"euler"}},
      {"grid.nx", KeyType::integer, "256", "cells along x (1: a 1D case along y)", {}, 1, 1e6},
      {"grid.ny", KeyType::integer, "256", "cells along y (1: a 1D case along x, e.g. sod_x)", {}, 1, 1e6},
      {"grid.nz",
       KeyType::integer,
       "1",
       "cells along z: 1 is a 2D case; more runs the 3D kernels (no tutorial faces in 3D)",
       {},
       1,
       1e6},
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
      {"time.fourier",
       KeyType::real,
       "0.25",
       "viscous limit (with viscosity.law other than none): dt <= fourier * min over cells of 1/(nu_eff sum_d "
       "1/h_d^2), nu_eff = max(4/3, gamma/Pr) mu/rho (the second-order viscous operator's spectral radius is about 4 "
       "nu_eff sum_d 1/h_d^2, and euler, rk2 and rk3 are stable on the negative axis to 2 or 2.5: at most 0.5)",
       {},
       1e-6,
       0.5},
      {"euler.problem", KeyType::choice, "kh_mcnally",
       gas::problems_description(problems()) + "; couette, with its no-slip walls, runs under navier_stokes",
       problem_table::names(problems())},
      {"euler.precision", KeyType::choice, "fp64", "working precision", {"fp32", "fp64"}},
      {"euler.reconstruction",
       KeyType::choice,
       "plm",
       "plm: limited piecewise linear on primitives; dc: donor cell",
       {"plm", "dc"}},
      {"euler.limiter", KeyType::choice, "vanleer", "slope limiter of plm", {"vanleer", "minmod", "mc"}},
      {"euler.riemann", KeyType::choice, "hlle", "Riemann solver (physics/gas/riemann/)", gas::riemann_solver_names()},
      {"euler.integrator", KeyType::choice, "rk2", "time integrator: forward euler, SSP-RK2 or SSP-RK3",
       gas::integrator_names({Integrator::euler, Integrator::rk2, Integrator::rk3})},
      {"euler.original_faces", KeyType::boolean, "false",
       "the tutorial's faces: e and p reconstructed independently, face energy and sound speed from e (needs hlle)"},
      {"euler.kernels",
       KeyType::choice,
       "fused",
       "fused: one kernel per Runge-Kutta stage on tiles held in fast memory; split: a kernel each for the "
       "primitives, x fluxes, y fluxes and update, through memory; the same results bit for bit. Gravity, "
       "viscosity and passive scalars always run the split kernels. In 3D fused is one kernel walking columns of tiles "
       "plane by "
       "plane, each face's flux computed once (no flux arrays in memory), then the primitives; split: x, y, z fluxes "
       "and update as kernels of their own (formerly euler2d.fused_stage: true or false)",
       {"fused", "split"}},
  };
  // The gas of every gas solver (gas.gamma was euler.gamma) and its
  // viscosity, none by default: the Euler equations.
  gas::GasKeyDefaults gas;
  gas.gamma = "1.6666666666666667";
  gas.law = "none";
  gas.mu_means += "; 0: the problem's, from its Reynolds number (taylor_green, taylor_green_2d)";
  gas.T0 = "0", gas.T0_min = 0;
  gas.T0_means += "; 0: the problem's (taylor_green's uniform initial temperature p0/(rho0 R)), else 1";
  for (auto& spec : gas::gas_keys(gas)) {
    // R and Pr act through the viscous terms only (euler's T is p/(rho R) there).
    if (spec.path == "gas.R" || spec.path == "gas.Pr")
      spec.belongs_to = "viscosity.law=constant|sutherland|power_law", spec.only_warn = true;
    k.push_back(spec);
  }
  // The six sides' boundaries (z: 3D grids), each with its inflow keys.
  for (int side = 0; side < side_count; ++side) {
    const std::string name = side_names[side], axis = name.substr(0, 1),
                      where = std::string(side % 2 ? "upper " : "lower ") + axis + " side";
    k.push_back({"boundary." + name, KeyType::choice, "periodic",
                 side < 4
                     ? "boundary at the " + where + " (inflow: ghost cells at a state from formulas, keys inflow_" +
                           name + ".*)"
                     : "boundary at the " + where + " of a 3D grid (grid.nz > 1; inflow: keys inflow_" + name + ".*)",
                 sides});
  }
  const std::vector<KeySpec> rest = {
      {"euler.scalars",
       KeyType::integer,
       "0",
       "passive scalars: concentrations advected with the gas (fluxed with the mass flux), written as s1, s2, ...; "
       "their initial values are the formulas scalars.s1, ...; scalars run the split kernels",
       {},
       0,
       max_scalars},
      {"gravity.x", KeyType::real, "0",
       "a constant acceleration along x (code units), a source of momentum rho*g and of energy from the mass "
       "fluxes; non-zero gravity runs the split kernels (the fused stage has no source terms)"},
      {"gravity.y", KeyType::real, "0", "a constant acceleration along y, as gravity.x (e.g. -0.1: downwards)"},
      {"gravity.z", KeyType::real, "0", "a constant acceleration along z, as gravity.x (3D cases: grid.nz > 1)"},
      {"output.time_interval",
       KeyType::real,
       "0",
       "snapshot every this much simulated time, hit exactly by shortening a step (0: initial and final only)",
       {},
       0},
  };
  k.insert(k.end(), rest.begin(), rest.end());
  for (auto& o : gas::problem_keys(problems(), "euler.problem")) k.push_back(o);
  for (auto& o : inflow_keys()) k.push_back(o);
  for (auto& o : gas::source_keys("euler.scalars")) k.push_back(o);
  for (int n = 1; n <= max_scalars; ++n) {
    KeySpec s{"scalars.s" + std::to_string(n), KeyType::string, "0",
              "initial concentration of passive scalar " + std::to_string(n) +
                  ": a formula of x, y (and z in 3D), the constants.* and pi"};
    // Listed and taken with enough scalars: scalars.s2 with euler.scalars 2 to 8.
    s.belongs_to = "euler.scalars=";
    for (int m = n; m <= max_scalars; ++m) s.belongs_to += (m > n ? "|" : "") + std::to_string(m);
    k.push_back(s);
  }
  // Keys that act only with a choice of another: given otherwise, refused.
  for (auto& spec : k) {
    // The constants serve every formula of a case (source terms, scalars,
    // inflow sides), whatever the problem: params() refuses those that no
    // formula reads.
    if (spec.path == "constants.*") {
      spec.belongs_to.clear();
      spec.help =
          "constants named by the user (constants: {y0: 0.5, w: 0.02}), for the formulas of the case "
          "(expression.*, scalars.*, inflow sides, sources.*)";
    }
    if (spec.path == "euler.limiter") spec.belongs_to = "euler.reconstruction=plm", spec.only_warn = true;
    if (spec.path == "time.end_time") spec.belongs_to = "time.steps=0", spec.only_warn = true;
  }
  // What --restart may change (everything else is fixed).
  mark_on_restart(k, {"time.steps", "time.end_time", "output.time_interval", "euler.kernels"}, OnRestart::same_bits);
  mark_on_restart(
      k, {"time.cfl", "time.fourier", "euler.reconstruction", "euler.limiter", "euler.riemann", "euler.integrator"},
      OnRestart::branches);
  add_shared_keys(k, 3);
  // The solver was called euler2d (it runs 1D, 2D and 3D grids): its case
  // files, --set keys and the stored configurations of its checkpoints
  // still read, with a note.
  // gas.gamma was euler.gamma (so euler2d.gamma too).
  gas::mark_former_gas_keys(k, "euler");
  mark_former_section(k, "euler", "euler2d");
  // euler2d.fused_stage: true|false is euler.kernels: fused|split, as sod's.
  for (auto& spec : k)
    if (spec.path == "euler.kernels") {
      spec.former = {"euler2d.fused_stage"};
      spec.former_true = "fused", spec.former_false = "split";
    }
  return k;
}

Params params(const Config& c) {
  Params p;
  const std::string& prob = c.get_string("euler.problem");
  p.problem = gas::find_problem(prob);  // a choice: one of the table's
  // Another problem's keys, and constants without formulas, are refused
  // by the Config (KeySpec::belongs_to), with their place.
  problem_table::read_domain(c, prob, p.lo, p.hi);
  const gas::GasConstants gas = gas::read_gas_keys(c);
  p.gamma = gas.gamma, p.R = gas.R, p.Pr = gas.Pr, p.viscosity = gas.viscosity;
  p.nx = c.get_int("grid.nx");
  p.ny = c.get_int("grid.ny");
  p.nz = c.get_int("grid.nz");
  p.initial = p.problem->state(c, p);  // with the domain, gamma and grid set; may set mu from a Reynolds number
  gas::complete_viscosity(c, p.viscosity, prob);
  p.fourier = c.get_real("time.fourier");
  p.steps = c.get_int("time.steps");
  p.end_time = c.get_real("time.end_time");
  p.cfl = c.get_real("time.cfl");
  p.fp32 = c.get_string("euler.precision") == "fp32";
  p.plm = c.get_string("euler.reconstruction") == "plm";
  const std::string& l = c.get_string("euler.limiter");
  p.limiter = l == "minmod" ? gas::Limiter::minmod : l == "mc" ? gas::Limiter::mc : gas::Limiter::vanleer;
  const std::string& r = c.get_string("euler.riemann");
  p.riemann = gas::riemann_solver_named(r);
  const std::string& i = c.get_string("euler.integrator");
  p.integrator = gas::integrator_named(i);
  p.original_faces = c.get_bool("euler.original_faces");
  p.fused_stage = c.get_string("euler.kernels") == "fused";
  const char* side_keys[4] = {"boundary.x_lo", "boundary.x_hi", "boundary.y_lo", "boundary.y_hi"};
  for (int s = 0; s < 4; ++s) {
    const std::string& b = c.get_string(side_keys[s]);
    p.boundary[s] = b == "outflow"      ? BoundaryKind::outflow
                    : b == "reflecting" ? BoundaryKind::reflecting
                    : b == "inflow"     ? BoundaryKind::inflow
                                        : BoundaryKind::periodic;
  }
  for (int s = 0; s < 2; ++s) {
    const std::string& b = c.get_string(s == 0 ? "boundary.z_lo" : "boundary.z_hi");
    p.boundary_z[s] = b == "outflow"      ? BoundaryKind::outflow
                      : b == "reflecting" ? BoundaryKind::reflecting
                      : b == "inflow"     ? BoundaryKind::inflow
                                          : BoundaryKind::periodic;
  }
  for (int s = 0; s < 2; ++s)
    if (!p.three_d() && p.boundary_z[s] == BoundaryKind::inflow)
      c.reject(s == 0 ? "boundary.z_lo" : "boundary.z_hi",
               "a 2D case (grid.nz: 1) has no z sides for the gas to flow in through; give grid.nz > 1");
  p.inflow = inflow_sides(c, p.sides());
  p.output_interval = c.get_real("output.time_interval");
  p.gravity = {c.get_real("gravity.x"), c.get_real("gravity.y"), c.get_real("gravity.z")};
  // A 2D case carries vz but has no z faces: a z acceleration would add
  // kinetic energy that no mass flux pays for.
  if (p.gravity[2] != 0 && p.nz == 1)
    c.reject("gravity.z", "a 2D case (grid.nz: 1) has no z faces for the gas to fall through; give grid.nz > 1");
  p.scalars = static_cast<int>(c.get_int("euler.scalars"));
  std::map<std::string, double> constants;
  bool any_formula = false;
  for (int n = 1; n <= p.scalars; ++n) any_formula = any_formula || c.given("scalars.s" + std::to_string(n));
  if (any_formula) constants = case_constants(c);
  for (int n = 1; n <= p.scalars; ++n) {
    const std::string key = "scalars.s" + std::to_string(n);
    if (!c.given(key)) {  // 0 without a formula: no muparser needed
      p.scalar_initial.push_back([](double, double, double) { return 0.0; });
      continue;
    }
    auto f = std::make_shared<const Expression>(case_formula(c, key, constants));
    p.scalar_initial.push_back([f](double x, double y, double z) { return (*f)(x, y, z); });
  }
  p.sources = gas::read_sources(c, p.scalars, p.nz > 1);
  const auto& sides = p.sides();
  const bool inflow = std::find(sides.begin(), sides.end(), BoundaryKind::inflow) != sides.end();
  const auto named = c.keys_in("constants");
  if (!named.empty() && prob != "expression" && !any_formula && !inflow && !p.sources.any())
    c.reject("constants." + named.front(),
             "no formula of this case reads the constants (they serve euler.problem: expression, scalars.*, inflow "
             "sides and sources.*); remove them");
  // The fused stage has no source terms, no viscosity and carries no scalars: with any
  // the split kernels run, whatever euler.kernels says (the two give
  // the same bits, so the key is a choice of speed). Not refused: a
  // checkpoint's stored configuration holds the key's default, true.
  // (3D grids have a fused stage of their own, stage_3d.hpp.)
  if (p.has_gravity() || p.scalars > 0 || p.viscous() || p.sources.any()) p.fused_stage = false;

  check_end_time(c, p.steps, p.end_time, p.output_interval);
  if (p.original_faces && p.riemann != gas::RiemannSolver::hlle)
    c.reject("euler.original_faces", "the tutorial's faces go with riemann: hlle");
  if (p.three_d()) refuse_in_3d(c, p);
  if ((p.boundary_z[0] == BoundaryKind::periodic) != (p.boundary_z[1] == BoundaryKind::periodic))
    c.reject(c.given("boundary.z_lo") ? "boundary.z_lo" : "boundary.z_hi",
             "periodic boundaries come in pairs: set both boundary.z_lo and boundary.z_hi to periodic, or neither");
  // One cell across (a 1D case): a periodic or outflow side gives each
  // ghost layer that cell, so nothing varies across and the fluxes across
  // cancel exactly; mirroring two layers needs two cells.
  for (int s = 0; s < 4; ++s)
    if ((s < 2 ? p.nx : p.ny) == 1 && p.boundary[s] == BoundaryKind::reflecting)
      c.reject(side_keys[s], std::string("a reflecting side needs at least 2 cells across; with grid.") +
                                 (s < 2 ? "nx" : "ny") + " = 1 (a 1D case) use periodic or outflow");
  for (int s = 0; s < 4; s += 2)
    if ((p.boundary[s] == BoundaryKind::periodic) != (p.boundary[s + 1] == BoundaryKind::periodic)) {
      // The side the user wrote (the other keeps its default), so that the
      // message points at a line of the case.
      const char* named = c.given(side_keys[s]) || !c.given(side_keys[s + 1]) ? side_keys[s] : side_keys[s + 1];
      c.reject(named, "periodic boundaries come in pairs: set both " + std::string(side_keys[s]) + " and " +
                          side_keys[s + 1] + " to periodic, or neither");
    }
  return p;
}

}  // namespace cfd::euler
