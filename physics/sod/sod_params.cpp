#include "physics/sod/sod_params.hpp"

#include "core/case_formulas.hpp"
#include "core/initial_file.hpp"
#include "core/run/shared_keys.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace cfd::sod {

double Params::a() const { return std::sqrt(R * T_ref); }
double Params::length() const { return Re * mu0 / (rho_ref * a()); }
double Params::dx() const { return scheme == Scheme::keep ? length() / (nx - 1) : length() / nx; }

std::vector<KeySpec> keys() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<KeySpec> k = {
      {"solver", KeyType::choice, "", "which solver runs the case", {"sod"}},
      {"grid.nx", KeyType::integer, "4096", "nodes (keep) or cells (hllc) along the tube", {}, 5, 1e9},
      {"time.steps", KeyType::integer, "2500", "number of steps; 0 runs to time.end_time instead", {}, 0, 1e12},
      {"time.end_time",
       KeyType::real,
       "0",
       "end time in Sod units (Lx/a) when time.steps is 0; the last step is shortened to end there",
       {},
       0},
      {"time.cfl",
       KeyType::real,
       "0.1",
       "keep: fixed dt = cfl*dx/a with a = sqrt(R*T_ref); hllc: dt = cfl*dx/max(|u|+c)",
       {},
       1e-6,
       1},
      {"sod.scheme",
       KeyType::choice,
       "keep",
       "keep: the original central KEEP scheme, forward Euler, on nodes; hllc: finite volumes, "
       "reconstruction + HLLC + SSP-RK2",
       {"keep", "hllc"}},
      {"sod.layout",
       KeyType::choice,
       "aos",
       "aos: rho, rho*u, E of a node side by side (the original q(3,nx)); soa: one array per variable (q(nx,3))",
       {"aos", "soa"}},
      {"sod.kernels",
       KeyType::choice,
       "split",
       "keep only: split = primitives, fluxes and update as three kernels; fused = one kernel per step",
       {"split", "fused"}},
      {"sod.fused_steps",
       KeyType::integer,
       "1",
       "keep only: steps per kernel launch: each tile of nodes takes this many steps in fast memory (GPU shared "
       "memory, CPU cache) before it is written back, with the same bits as one step at a time; the halo is this "
       "deep and is exchanged once per launch; a run to time.end_time takes its steps one at a time",
       {},
       1,
       32},
      {"sod.precision", KeyType::choice, "fp64", "working precision", {"fp32", "fp64"}},
      {"sod.viscosity",
       KeyType::choice,
       "sutherland",
       "keep only: sutherland mu(T), constant mu0, or none (also no heat conduction)",
       {"sutherland", "constant", "none"}},
      {"sod.boundary",
       KeyType::choice,
       "frozen",
       "frozen: end nodes (keep) or ghost cells (hllc) keep the initial state; outflow: zero gradient; "
       "reflecting: a wall",
       {"frozen", "outflow", "reflecting"}},
      {"sod.reconstruction",
       KeyType::choice,
       "plm",
       "hllc only: plm (piecewise linear, limited, on rho, u, p) or constant (first-order Godunov)",
       {"plm", "constant"}},
      {"sod.limiter", KeyType::choice, "vanleer", "hllc with plm: slope limiter", {"minmod", "vanleer", "mc"}},
      {"sod.integrator", KeyType::choice, "rk2", "hllc only: rk2 (SSP-RK2, Heun) or euler", {"rk2", "euler"}},
      {"sod.units",
       KeyType::choice,
       "sod",
       "units of the output: sod (x/Lx, rho/rho_ref, u/a, p/(rho_ref*R*T_ref), T/T_ref, t*a/Lx) or physical (SI)",
       {"sod", "physical"}},
      {"sod.text_output", KeyType::boolean, "false",
       "also write sod_final.txt: the original's four columns x/Lx, rho/rho_l, u/a, p/(rho_l*R*T_lr)"},
      {"gas.gamma", KeyType::real, "1.4", "ratio of specific heats", {}, 1.0000001, 10},
      {"gas.R", KeyType::real, "287.03", "gas constant, J/(kg K)", {}, 1e-12, inf},
      {"gas.Pr", KeyType::real, "0.72", "Prandtl number", {}, 1e-12, inf},
      {"gas.mu0", KeyType::real, "1.716e-5", "viscosity at T0, Pa s (also the constant viscosity)", {}, 0, inf},
      {"gas.T0", KeyType::real, "273.2", "Sutherland reference temperature, K", {}, 1e-12, inf},
      {"gas.S", KeyType::real, "111", "Sutherland constant, K", {}, 0, inf},
      {"gas.Re",
       KeyType::real,
       "25000",
       "Reynolds number; sets the tube length Lx = Re*mu0/(rho_ref*a)",
       {},
       1e-12,
       inf},
      {"gas.rho_ref", KeyType::real, "1.293", "reference density rho_l, kg/m^3 (the unit of density)", {}, 1e-12, inf},
      {"gas.T_ref",
       KeyType::real,
       "300",
       "reference temperature T_lr, K; a = sqrt(R*T_ref) is the unit of velocity",
       {},
       1e-12,
       inf},
      {"state.rho_left", KeyType::real, "1", "left density, Sod units (rho/rho_ref)", {}, -inf, inf},
      {"state.u_left", KeyType::real, "0", "left velocity, Sod units (u/a)", {}, -inf, inf},
      {"state.p_left", KeyType::real, "1", "left pressure, Sod units (p/(rho_ref*R*T_ref))", {}, -inf, inf},
      {"state.rho_right", KeyType::real, "0.125", "right density, Sod units", {}, -inf, inf},
      {"state.u_right", KeyType::real, "0", "right velocity, Sod units", {}, -inf, inf},
      {"state.p_right", KeyType::real, "0.1", "right pressure, Sod units", {}, -inf, inf},
      {"state.diaphragm", KeyType::real, "0.5", "diaphragm position as a fraction of the tube", {}, 0, 1},
      {"sod.initial",
       KeyType::choice,
       "tube",
       "tube: the states state.*_left and state.*_right either side of state.diaphragm (the original); "
       "expression: rho, u and p as formulas of x, the position as a fraction of the tube, in Sod units (keys "
       "expression.*, constants.*); the ends' fixed states are the formulas' at x = 0 and 1; file: rho, u and p "
       "(Sod units) of each node (keep) or cell (hllc) from an HDF5 file (key file.path)",
       {"tube", "expression", "file"}},
      {"file.path", KeyType::string, "",
       "the HDF5 file of the initial state: datasets rho, u, p of shape (nx) in Sod units, at its root or in "
       "/fields; relative to the case file's folder"},
      {"expression.rho", KeyType::string, "1", "density: a formula of x, the constants.* and pi"},
      {"expression.u", KeyType::string, "0", "velocity: a formula of x, the constants.* and pi"},
      {"expression.p", KeyType::string, "1", "pressure: a formula of x, the constants.* and pi"},
      constants_key("expression.*"),
  };
  // Keys that act only with a choice of another: given otherwise, refused.
  for (auto& spec : k) {
    if (spec.path == "sod.reconstruction") spec.belongs_to = "sod.scheme=hllc", spec.only_warn = true;
    if (spec.path == "sod.limiter") spec.belongs_to = "sod.scheme=hllc", spec.only_warn = true;
    if (spec.path == "sod.integrator") spec.belongs_to = "sod.scheme=hllc", spec.only_warn = true;
    if (spec.path == "time.end_time") spec.belongs_to = "time.steps=0", spec.only_warn = true;
    // The tube's states, or the formulas: the resolved configuration shows
    // the chosen initial state's keys only.
    if (spec.path.rfind("state.", 0) == 0) spec.belongs_to = "sod.initial=tube";
    if (spec.path.rfind("expression.", 0) == 0 || spec.path == "constants.*")
      spec.belongs_to = "sod.initial=expression";
    if (spec.path == "file.path") spec.belongs_to = "sod.initial=file";
  }
  // What --restart may change (everything else is fixed).
  mark_on_restart(k, {"time.steps", "time.end_time", "sod.fused_steps", "sod.text_output"}, OnRestart::same_bits);
  mark_on_restart(k, {"time.cfl", "sod.reconstruction", "sod.limiter", "sod.integrator"}, OnRestart::branches);
  add_shared_keys(k, 1);
  return k;
}

Params params(const Config& c) {
  Params p;
  p.nx = c.get_int("grid.nx");
  p.steps = c.get_int("time.steps");
  p.end_time = c.get_real("time.end_time");
  p.cfl = c.get_real("time.cfl");
  p.scheme = c.get_string("sod.scheme") == "keep" ? Scheme::keep : Scheme::hllc;
  p.layout = c.get_string("sod.layout") == "aos" ? StateLayout::aos : StateLayout::soa;
  p.kernels = c.get_string("sod.kernels") == "split" ? Kernels::split : Kernels::fused;
  p.fused_steps = static_cast<int>(c.get_int("sod.fused_steps"));
  p.fp32 = c.get_string("sod.precision") == "fp32";
  const std::string& v = c.get_string("sod.viscosity");
  p.viscosity = v == "none" ? Viscosity::none : v == "constant" ? Viscosity::constant : Viscosity::sutherland;
  const std::string& b = c.get_string("sod.boundary");
  p.boundary = b == "outflow"      ? BoundaryKind::outflow
               : b == "reflecting" ? BoundaryKind::reflecting
                                   : BoundaryKind::fixed;
  p.reconstruct = c.get_string("sod.reconstruction") == "plm";
  const std::string& l = c.get_string("sod.limiter");
  p.limiter = l == "minmod" ? gas::Limiter::minmod : l == "mc" ? gas::Limiter::mc : gas::Limiter::vanleer;
  p.rk2 = c.get_string("sod.integrator") == "rk2";
  p.text_output = c.get_bool("sod.text_output");
  p.gamma = c.get_real("gas.gamma");
  p.R = c.get_real("gas.R");
  p.Pr = c.get_real("gas.Pr");
  p.mu0 = c.get_real("gas.mu0");
  p.T0 = c.get_real("gas.T0");
  p.S = c.get_real("gas.S");
  p.Re = c.get_real("gas.Re");
  p.rho_ref = c.get_real("gas.rho_ref");
  p.T_ref = c.get_real("gas.T_ref");
  p.left = {c.get_real("state.rho_left"), c.get_real("state.u_left"), c.get_real("state.p_left")};
  p.right = {c.get_real("state.rho_right"), c.get_real("state.u_right"), c.get_real("state.p_right")};
  p.diaphragm = c.get_real("state.diaphragm");
  p.units = c.get_string("sod.units") == "physical" ? Units::physical : Units::sod;

  const std::string& initial = c.get_string("sod.initial");
  if (initial == "file") {
    // Node k (keep) or cell k (hllc) of the tube: the solver asks at
    // x = k/(nx-1) or (k + 0.5)/nx, and the ends at x = 0 and 1.
    auto f = std::make_shared<const std::vector<std::vector<double>>>(
        read_initial_file(c, "file.path", {"rho", "u", "p"}, {"u"}, {p.nx}, "(nx)"));
    const long nx = p.nx;
    const bool keep = p.scheme == Scheme::keep;
    p.initial = [f, nx, keep](double x) {
      const long k = std::clamp(keep ? std::lround(x * double(nx - 1)) : std::lround(x * double(nx) - 0.5), 0L, nx - 1);
      return gas::RiemannState{(*f)[0][size_t(k)], (*f)[1][size_t(k)], (*f)[2][size_t(k)]};
    };
    p.left = p.initial(0);
    p.right = p.initial(1);
  } else if (initial == "expression") {
    struct Formulas {
      Expression rho, u, p;
    };
    const auto constants = case_constants(c);
    auto formula = [&](const char* key) { return case_formula(c, std::string("expression.") + key, constants); };
    // Shared: Params are copied, an Expression is not copyable.
    const auto f = std::make_shared<const Formulas>(Formulas{formula("rho"), formula("u"), formula("p")});
    p.initial = [f](double x) { return gas::RiemannState{f->rho(x), f->u(x), f->p(x)}; };
    p.left = p.initial(0);
    p.right = p.initial(1);
    // The ends' states are the fixed ghost cells of hllc with frozen ends:
    // refused here. Every other state the solver checks, with the node or
    // cell (keep's end nodes sit at x = 0 and 1 themselves).
    const bool ends_used = p.scheme == Scheme::hllc && p.boundary == BoundaryKind::fixed;
    for (const auto& [x, s] : {std::pair{0, p.left}, std::pair{1, p.right}}) {
      if (!ends_used) continue;
      const std::string at =
          " at x = " + std::to_string(x) + " (the end of the tube, the state a fixed boundary keeps)";
      if (!(s.rho > 0) || !std::isfinite(s.rho))
        c.reject("expression.rho", "gives density " + format_real(s.rho) + at + "; it must be positive");
      if (!(s.p > 0) || !std::isfinite(s.p))
        c.reject("expression.p", "gives pressure " + format_real(s.p) + at + "; it must be positive");
      if (!std::isfinite(s.u)) c.reject("expression.u", "gives velocity " + format_real(s.u) + at);
    }
  } else {
    for (const auto& [side, s] : {std::pair{"left", p.left}, std::pair{"right", p.right}}) {
      if (!(s.rho > 0))
        c.reject(std::string("state.rho_") + side, "density must be positive, got " + format_real(s.rho));
      if (!(s.p > 0)) c.reject(std::string("state.p_") + side, "pressure must be positive, got " + format_real(s.p));
    }
  }
  if (p.steps == 0 && !(p.end_time > 0)) c.reject("time.end_time", "must be positive when time.steps is 0");
  if (p.steps > 0 && c.given("time.end_time") && p.end_time > 0)
    c.reject("time.end_time", "give either time.steps or time.end_time (set time.steps: 0 to run to an end time)");
  if (p.scheme == Scheme::hllc && p.kernels == Kernels::fused)
    c.reject("sod.kernels", "fused kernels exist for the keep scheme only");
  if (p.scheme == Scheme::hllc && p.fused_steps > 1)
    c.reject("sod.fused_steps", "fused steps exist for the keep scheme only");
  if (p.scheme == Scheme::hllc && c.given("sod.viscosity") && p.viscosity != Viscosity::none)
    c.reject("sod.viscosity", "the hllc scheme is inviscid; set sod.viscosity: none or leave it out");
  if (p.scheme == Scheme::hllc) p.viscosity = Viscosity::none;
  return p;
}

}  // namespace cfd::sod
