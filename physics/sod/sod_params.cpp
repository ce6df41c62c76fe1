#include "physics/sod/sod_params.hpp"

#include "core/problem_table.hpp"
#include "core/run/shared_keys.hpp"
#include "physics/gas/gas_keys.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace cfd::sod {

double Params::a() const { return std::sqrt(R * T_ref); }
double Params::length() const { return Re * viscosity.mu0 / (rho_ref * a()); }
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
      {"sod.integrator", KeyType::choice, "rk2", "hllc only: rk2 (SSP-RK2, Heun) or euler",
       gas::integrator_names({gas::Integrator::euler, gas::Integrator::rk2})},
      {"sod.units",
       KeyType::choice,
       "sod",
       "units of the output: sod (x/Lx, rho/rho_ref, u/a, p/(rho_ref*R*T_ref), T/T_ref, t*a/Lx) or physical (SI)",
       {"sod", "physical"}},
      {"sod.text_output", KeyType::boolean, "false",
       "also write sod_final.txt: the original's four columns x/Lx, rho/rho_l, u/a, p/(rho_l*R*T_lr)"},
      {"gas.Re",
       KeyType::real,
       "25000",
       "Reynolds number; sets the tube length Lx = Re*mu0/(rho_ref*a), mu0 = viscosity.mu",
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
      {"sod.problem", KeyType::choice, "tube", problem_table::describe(problems()), problem_table::names(problems())},
  };
  // The gas and its viscosity (in SI units) before gas.Re; the keep scheme
  // only: hllc is inviscid.
  gas::GasKeyDefaults gas;
  gas.R = "287.03", gas.R_means = "gas constant, J/(kg K)";
  gas.Pr = "0.72";
  gas.law = "sutherland";
  gas.mu = "1.716e-5", gas.mu_means = "dynamic viscosity mu0, Pa s (at viscosity.T0 for sutherland and power_law)";
  gas.T0 = "273.2", gas.T0_means = "reference temperature of sutherland and power_law, K", gas.T0_min = 1e-12;
  gas.S = "111", gas.S_means = "Sutherland's constant, K";
  std::vector<KeySpec> gas_keys = gas::gas_keys(gas);
  // The stored configuration of a checkpoint written before 0.2 holds T0
  // and S whatever the law: a warning, not a refusal.
  for (auto& spec : gas_keys) spec.only_warn = !spec.belongs_to.empty();
  const auto before_re = std::find_if(k.begin(), k.end(), [](const KeySpec& s) { return s.path == "gas.Re"; });
  k.insert(before_re, gas_keys.begin(), gas_keys.end());
  for (KeySpec& spec : problem_keys()) k.push_back(std::move(spec));
  // Keys that act only with a choice of another: given otherwise, refused.
  for (auto& spec : k) {
    if (spec.path == "sod.reconstruction") spec.belongs_to = "sod.scheme=hllc", spec.only_warn = true;
    if (spec.path == "sod.limiter") spec.belongs_to = "sod.scheme=hllc", spec.only_warn = true;
    if (spec.path == "sod.integrator") spec.belongs_to = "sod.scheme=hllc", spec.only_warn = true;
    if (spec.path == "time.end_time") spec.belongs_to = "time.steps=0", spec.only_warn = true;
  }
  // What --restart may change (everything else is fixed).
  mark_on_restart(k, {"time.steps", "time.end_time", "sod.fused_steps", "sod.text_output"}, OnRestart::same_bits);
  mark_on_restart(k, {"time.cfl", "sod.reconstruction", "sod.limiter", "sod.integrator"}, OnRestart::branches);
  add_shared_keys(k, 1);
  // Every solver chooses its problem with <solver>.problem; sod.initial still
  // reads, as do the gas keys' names before 0.2.
  mark_former(k, "sod.problem", "sod.initial");
  gas::mark_former_gas_keys(k, "sod");
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
  const std::string& b = c.get_string("sod.boundary");
  p.boundary = b == "outflow"      ? BoundaryKind::outflow
               : b == "reflecting" ? BoundaryKind::reflecting
                                   : BoundaryKind::fixed;
  p.reconstruct = c.get_string("sod.reconstruction") == "plm";
  const std::string& l = c.get_string("sod.limiter");
  p.limiter = l == "minmod" ? gas::Limiter::minmod : l == "mc" ? gas::Limiter::mc : gas::Limiter::vanleer;
  p.integrator = gas::integrator_named(c.get_string("sod.integrator"));
  p.text_output = c.get_bool("sod.text_output");
  const gas::GasConstants gas = gas::read_gas_keys(c);
  p.gamma = gas.gamma, p.R = gas.R, p.Pr = gas.Pr, p.viscosity = gas.viscosity;
  p.Re = c.get_real("gas.Re");
  p.rho_ref = c.get_real("gas.rho_ref");
  p.T_ref = c.get_real("gas.T_ref");
  p.units = c.get_string("sod.units") == "physical" ? Units::physical : Units::sod;

  p.problem = find_problem(c.get_string("sod.problem"));
  p.problem->set(c, p);  // with the scheme, grid and boundary set
  if (p.steps == 0 && !(p.end_time > 0)) c.reject("time.end_time", "must be positive when time.steps is 0");
  if (p.steps > 0 && c.given("time.end_time") && p.end_time > 0)
    c.reject("time.end_time", "give either time.steps or time.end_time (set time.steps: 0 to run to an end time)");
  if (p.scheme == Scheme::hllc && p.kernels == Kernels::fused)
    c.reject("sod.kernels", "fused kernels exist for the keep scheme only");
  if (p.scheme == Scheme::hllc && p.fused_steps > 1)
    c.reject("sod.fused_steps", "fused steps exist for the keep scheme only");
  if (p.scheme == Scheme::hllc && c.given("viscosity.law") && p.viscosity.law != gas::ViscosityLaw::none)
    c.reject("viscosity.law", "the hllc scheme is inviscid; set viscosity.law: none or leave it out");
  if (p.scheme == Scheme::hllc) p.viscosity.law = gas::ViscosityLaw::none;
  return p;
}

}  // namespace cfd::sod
