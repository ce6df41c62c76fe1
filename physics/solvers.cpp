#include "physics/solvers.hpp"

#include "physics/diffusion/diffusion_run.hpp"
#include "physics/euler/euler_params.hpp"
#include "physics/euler/euler_run.hpp"
#include "physics/navier_stokes/navier_stokes_params.hpp"
#include "physics/navier_stokes/navier_stokes_run.hpp"
#include "physics/sod/sod_params.hpp"
#include "physics/sod/sod_run.hpp"

namespace cfd {

const std::vector<SolverEntry>& solvers() {
  static const std::vector<SolverEntry> table = {
      {"diffusion",
       "2D heat equation: the explicit 5-point stencil (docs/problems.md section 1), or implicit backward Euler / "
       "Crank-Nicolson by conjugate gradients; diffusion.fused_steps takes several explicit steps per pass over memory",
       "docs/user-guide.md", diffusion::keys, [](const Config& c) { diffusion::params(c); }, diffusion::run},
      {"sod", "1D Navier-Stokes shock tube: KEEP (the original) or PLM + HLLC + SSP-RK2 (docs/problems.md section 2)",
       "docs/sod.md", sod::keys, [](const Config& c) { sod::params(c); }, sod::run},
      {"euler",
       "compressible Euler in 1D, 2D and 3D (grid.ny: 1 is 1D, grid.nz > 1 is 3D), MUSCL + HLLE/HLLC/LLF, "
       "Kelvin-Helmholtz and more (docs/problems.md section 3); formerly euler2d, still read",
       "docs/kh.md", euler::keys, [](const Config& c) { euler::params(c); }, euler::run, "euler2d"},
      {"navier_stokes",
       "2D and 3D compressible Navier-Stokes: KEEP split convective fluxes of order 2, 4 or 6 (KEEP-PE as an "
       "option; a hybrid with MUSCL-HLLC at shocks), viscous and heat fluxes of the same order, RK3/RK4, periodic "
       "sides and no-slip walls; the Taylor-Green vortex at Re 1600, the viscous shock tube",
       "docs/navier_stokes.md", navier_stokes::keys, [](const Config& c) { navier_stokes::params(c); },
       navier_stokes::run},
  };
  return table;
}

const SolverEntry* find_solver(const std::string& name) {
  for (const auto& s : solvers())
    if (name == s.name || (s.former_name && name == s.former_name)) return &s;
  return nullptr;
}

std::vector<KeySpec> solver_keys(const std::string& name) {
  if (const SolverEntry* s = find_solver(name)) return s->keys();
  std::string known, hint;
  for (const auto& s : solvers()) {
    known += (known.empty() ? "" : ", ") + std::string(s.name);
    // "euler3d", "euler1d": a solver's name with the dimension added.
    const std::string n = s.name;
    if (hint.empty() && name.size() > n.size() && name.compare(0, n.size(), n) == 0)
      hint = " (did you mean '" + n + "'? the grid gives the dimension: grid.ny: 1 is 1D, grid.nz > 1 is 3D)";
  }
  throw ConfigError("unknown solver '" + name + "'" + hint + "; cfdrun knows: " + known);
}

Config default_case(const std::string& solver, const std::vector<std::string>& overrides) {
  return Config::from_string("solver: " + solver + "\n", "the default " + solver + " case", overrides, solver_keys);
}

}  // namespace cfd
