#include "physics/euler2d/euler2d_params.hpp"

#include "core/job_control.hpp"
#include "core/snapshot.hpp"

#include <map>

namespace cfd::euler2d {

const char* name(Problem p) {
  switch (p) {
    case Problem::kh_mcnally: return "kh_mcnally";
    case Problem::kh_seed: return "kh_seed";
    case Problem::sod_x: return "sod_x";
    case Problem::sod_y: return "sod_y";
    case Problem::vortex: return "vortex";
    case Problem::blast: return "blast";
    case Problem::expression: return "expression";
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
       "[0,1]^2; expression: rho, vx, vy and p given as formulas (keys expression.*, constants.*). Each problem's "
       "constants and domain are keys of its own section (kh_mcnally.width, blast.radius, ...)",
       {"kh_mcnally", "kh_seed", "sod_x", "sod_y", "vortex", "blast", "expression"}},
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
  for (auto& o : problem_keys()) k.push_back(o);
  // Keys that act only with a choice of another: given otherwise, refused.
  for (auto& spec : k) {
    if (spec.path == "euler2d.limiter") spec.belongs_to = "euler2d.reconstruction=plm", spec.only_warn = true;
    if (spec.path == "time.end_time") spec.belongs_to = "time.steps=0", spec.only_warn = true;
  }
  // What --restart may change (everything else is fixed).
  mark_on_restart(k, {"time.steps", "time.end_time", "output.time_interval", "euler2d.fused_stage"},
                  OnRestart::same_bits);
  mark_on_restart(k, {"time.cfl", "euler2d.reconstruction", "euler2d.limiter", "euler2d.riemann", "euler2d.integrator"},
                  OnRestart::branches);
  for (auto& o : output_keys()) k.push_back(o);
  for (auto& o : run_keys()) k.push_back(o);
  for (auto& o : parallel_keys(2)) k.push_back(o);
  return k;
}

namespace {

std::vector<KeySpec> domain_keys(const std::string& problem, double lo, double hi) {
  const std::string l = format_real(lo), h = format_real(hi);
  return {{problem + ".x_min", KeyType::real, l, "lower x edge of the domain"},
          {problem + ".x_max", KeyType::real, h, "upper x edge of the domain"},
          {problem + ".y_min", KeyType::real, l, "lower y edge of the domain"},
          {problem + ".y_max", KeyType::real, h, "upper y edge of the domain"}};
}

}  // namespace

std::vector<KeySpec> problem_keys() {
  std::vector<KeySpec> k;
  auto add = [&](const std::vector<KeySpec>& more) { k.insert(k.end(), more.begin(), more.end()); };
  const double positive = 1e-300;
  for (const std::string kh : {"kh_mcnally", "kh_seed"}) {
    const bool seed = kh == "kh_seed";
    add(domain_keys(kh, seed ? -0.5 : 0, seed ? 0.5 : 1));
    add({{kh + ".rho_1", KeyType::real, "1", "density of the outer layers", {}, positive},
         {kh + ".rho_2", KeyType::real, "2", "density of the middle layer", {}, positive},
         {kh + ".vx_1", KeyType::real, "0.5", "x velocity of the outer layers"},
         {kh + ".vx_2", KeyType::real, "-0.5", "x velocity of the middle layer"},
         {kh + ".y_lower", KeyType::real, seed ? "-0.25" : "0.25", "y of the lower interface"},
         {kh + ".y_upper", KeyType::real, seed ? "0.25" : "0.75", "y of the upper interface"},
         {kh + ".width",
          KeyType::real,
          "0.025",
          "width L of the smoothed interfaces (exp(-|y - y_i|/L))",
          {},
          positive},
         {kh + ".amplitude", KeyType::real, "0.01", "amplitude of the seed vy = A sin(4 pi x)"},
         {kh + ".pressure", KeyType::real, "2.5", "uniform pressure", {}, positive}});
  }
  for (const std::string sod : {"sod_x", "sod_y"}) {
    const std::string below = sod == "sod_x" ? "left of" : "below";
    add(domain_keys(sod, 0, 1));
    add({{sod + ".rho_lo", KeyType::real, "1", "density " + below + " the interface", {}, positive},
         {sod + ".p_lo", KeyType::real, "1", "pressure " + below + " the interface", {}, positive},
         {sod + ".rho_hi", KeyType::real, "0.125", "density beyond the interface", {}, positive},
         {sod + ".p_hi", KeyType::real, "0.1", "pressure beyond the interface", {}, positive},
         {sod + ".interface", KeyType::real, "0.5", std::string("the interface's ") + (sod == "sod_x" ? "x" : "y")}});
  }
  add(domain_keys("vortex", -5, 5));
  add({{"vortex.strength", KeyType::real, "5", "vortex strength beta (Yee, Sandham & Djomehri 1999)"},
       {"vortex.vx", KeyType::real, "1", "x velocity the vortex is advected with"},
       {"vortex.vy", KeyType::real, "1", "y velocity the vortex is advected with"}});
  add(domain_keys("blast", 0, 1));
  add({{"blast.rho_inside", KeyType::real, "1", "density inside the blast radius", {}, positive},
       {"blast.p_inside", KeyType::real, "1", "pressure inside the blast radius", {}, positive},
       {"blast.rho_outside", KeyType::real, "0.125", "density outside", {}, positive},
       {"blast.p_outside", KeyType::real, "0.1", "pressure outside", {}, positive},
       {"blast.x_centre", KeyType::real, "0.5", "x of the blast's centre"},
       {"blast.y_centre", KeyType::real, "0.5", "y of the blast's centre"},
       {"blast.radius", KeyType::real, "0.1", "blast radius", {}, 0}});
  add(domain_keys("expression", 0, 1));
  add({{"expression.rho", KeyType::string, "1", "density: a formula of x, y, the constants.* and pi"},
       {"expression.vx", KeyType::string, "0", "x velocity: a formula of x, y, the constants.* and pi"},
       {"expression.vy", KeyType::string, "0", "y velocity: a formula of x, y, the constants.* and pi"},
       {"expression.p", KeyType::string, "1", "pressure: a formula of x, y, the constants.* and pi"},
       {"constants.*", KeyType::real, "",
        "constants named by the user (constants: {y0: 0.5, w: 0.02}), for the formulas of expression.*"}});
  // Each section belongs to its problem's choice: the resolved configuration
  // shows the chosen problem's only.
  for (auto& spec : k) {
    const std::string section = spec.path.substr(0, spec.path.find('.'));
    spec.belongs_to = "euler2d.problem=" + (section == "constants" ? std::string("expression") : section);
  }
  return k;
}

namespace {

// The formulas of problem: expression, parsed at once: an error names the
// key's place in the case file and the column inside the formula.
std::shared_ptr<const InitialFormulas> parse_formulas(const Config& c) {
  std::map<std::string, double> constants;
  for (const auto& name : c.keys_in("constants")) {
    std::string why;
    if (!is_constant_name(name, &why)) c.reject("constants." + name, why);
    constants[name] = c.get_real("constants." + name);
  }
  auto formula = [&](const char* key) {
    const std::string path = std::string("expression.") + key;
    const std::string& text = c.get_string(path);
    try {
      return Expression(text, constants);
    } catch (const ExpressionError& e) {
      c.reject(path, "column " + std::to_string(e.column) + " of the formula: " + e.what() + "\n  " + text + "\n  " +
                         std::string(static_cast<size_t>(e.column - 1), ' ') + "^");
    }
  };
  return std::make_shared<const InitialFormulas>(
      InitialFormulas{formula("rho"), formula("vx"), formula("vy"), formula("p")});
}

}  // namespace

Params params(const Config& c) {
  Params p;
  const std::string& prob = c.get_string("euler2d.problem");
  p.problem = prob == "kh_seed"      ? Problem::kh_seed
              : prob == "sod_x"      ? Problem::sod_x
              : prob == "sod_y"      ? Problem::sod_y
              : prob == "vortex"     ? Problem::vortex
              : prob == "blast"      ? Problem::blast
              : prob == "expression" ? Problem::expression
                                     : Problem::kh_mcnally;
  // Another problem's keys, and constants without formulas, are refused
  // by the Config (KeySpec::belongs_to), with their place.
  auto get = [&](const char* key) { return c.get_real(prob + "." + key); };
  p.lo = {get("x_min"), get("y_min")};
  p.hi = {get("x_max"), get("y_max")};
  for (int d = 0; d < 2; ++d)
    if (!(p.hi[d] > p.lo[d]))
      c.reject(prob + (d == 0 ? ".x_max" : ".y_max"), "the domain's upper edge must be above its lower one");
  ProblemConstants& k = p.k;
  switch (p.problem) {
    case Problem::kh_mcnally:
    case Problem::kh_seed:
      k.rho_1 = get("rho_1"), k.rho_2 = get("rho_2"), k.vx_1 = get("vx_1"), k.vx_2 = get("vx_2");
      k.y_lower = get("y_lower"), k.y_upper = get("y_upper");
      k.width = get("width"), k.amplitude = get("amplitude"), k.pressure = get("pressure");
      if (!(k.y_upper > k.y_lower)) c.reject(prob + ".y_upper", "must be above " + prob + ".y_lower");
      break;
    case Problem::sod_x:
    case Problem::sod_y:
      k.rho_lo = get("rho_lo"), k.p_lo = get("p_lo"), k.rho_hi = get("rho_hi"), k.p_hi = get("p_hi");
      k.interface = get("interface");
      break;
    case Problem::blast:
      k.rho_lo = get("rho_inside"), k.p_lo = get("p_inside"), k.rho_hi = get("rho_outside");
      k.p_hi = get("p_outside"), k.x_centre = get("x_centre"), k.y_centre = get("y_centre");
      k.radius = get("radius");
      break;
    case Problem::vortex: k.strength = get("strength"), k.vx = get("vx"), k.vy = get("vy"); break;
    case Problem::expression: p.formulas = parse_formulas(c); break;
  }
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
    if ((p.boundary[s] == BoundaryKind::periodic) != (p.boundary[s + 1] == BoundaryKind::periodic)) {
      // The side the user wrote (the other keeps its default), so that the
      // message points at a line of the case.
      const char* named = c.given(side_keys[s]) || !c.given(side_keys[s + 1]) ? side_keys[s] : side_keys[s + 1];
      c.reject(named, "periodic boundaries come in pairs: set both " + std::string(side_keys[s]) + " and " +
                          side_keys[s + 1] + " to periodic, or neither");
    }
  return p;
}

}  // namespace cfd::euler2d
