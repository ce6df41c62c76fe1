// The approximate Riemann solvers, one file each under riemann/ (HLLE, HLLC,
// LLF; references in each file), and the one dispatch over them: by a
// template argument (riemann_flux<S>, for kernels compiled per solver), by a
// run-time value (riemann_flux(solver, ...), with_riemann_solver), and by
// name (the choices of a case file's riemann key). Tests loop over
// riemann_solvers, so a solver added here is tested.
#pragma once

#include "physics/gas/riemann/hllc.hpp"
#include "physics/gas/riemann/hlle.hpp"
#include "physics/gas/riemann/llf.hpp"
#include "physics/gas/riemann/riemann.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cfd::gas {

// Every solver, in the order of their choices in case files (the first is
// the default of no solver; each one's own key says which).
inline constexpr RiemannSolver riemann_solvers[] = {RiemannSolver::hlle, RiemannSolver::hllc, RiemannSolver::llf};
inline constexpr int riemann_solver_count = sizeof(riemann_solvers) / sizeof(riemann_solvers[0]);

// Calls f(std::integral_constant<RiemannSolver, S>{}) with S = solver: a
// run-time choice made once, outside the kernels.
template <class F, int... n>
decltype(auto) with_riemann_solver_in(RiemannSolver solver, F&& f, std::integer_sequence<int, n...>) {
  using Result = decltype(f(std::integral_constant<RiemannSolver, riemann_solvers[0]>{}));
  if constexpr (std::is_void_v<Result>) {
    ((solver == riemann_solvers[n] ? (f(std::integral_constant<RiemannSolver, riemann_solvers[n]>{}), true) : false) ||
     ...);
  } else {
    Result r{};
    ((solver == riemann_solvers[n] ? (r = f(std::integral_constant<RiemannSolver, riemann_solvers[n]>{}), true)
                                   : false) ||
     ...);
    return r;
  }
}
template <class F>
decltype(auto) with_riemann_solver(RiemannSolver solver, F&& f) {
  return with_riemann_solver_in(solver, std::forward<F>(f), std::make_integer_sequence<int, riemann_solver_count>{});
}

// The solver's name in case files ("hllc").
inline std::string riemann_solver_name(RiemannSolver solver) {
  return with_riemann_solver(solver, [](auto s) { return std::string(Riemann<decltype(s)::value>::name); });
}
// Every name, in riemann_solvers' order: the choices of a riemann key.
inline std::vector<std::string> riemann_solver_names() {
  std::vector<std::string> names;
  for (RiemannSolver s : riemann_solvers) names.push_back(riemann_solver_name(s));
  return names;
}
// The solver of a name (one of riemann_solver_names(), as a choice key
// has checked); throws std::invalid_argument otherwise.
inline RiemannSolver riemann_solver_named(const std::string& name) {
  for (RiemannSolver s : riemann_solvers)
    if (riemann_solver_name(s) == name) return s;
  throw std::invalid_argument("no Riemann solver named '" + name + "'");
}

// The solver as a template argument, for kernels that fix it at compile time.
template <RiemannSolver S, bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Conserved<Real> riemann_flux(const Primitive<Real>& l, const Primitive<Real>& r,
                                                         Real gamma) {
  return Riemann<S>::template flux<Reciprocal>(l, r, gamma);
}

// The solver as a value (host code and tests; the dispatch's branches are
// the solvers' own functions, so the bits are riemann_flux<S>'s).
template <class Real>
Conserved<Real> riemann_flux(RiemannSolver solver, const Primitive<Real>& l, const Primitive<Real>& r, Real gamma) {
  return with_riemann_solver(solver, [&](auto s) { return riemann_flux<decltype(s)::value>(l, r, gamma); });
}

}  // namespace cfd::gas
