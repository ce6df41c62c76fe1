// What every Riemann solver file (riemann/*.hpp) fills in: the enum's
// value it is, and Riemann<its value>, which gives its name in case files
// and its flux through a face normal to x between a left and a right
// primitive state. The list of solvers, the dispatch and the names are in
// riemann_solvers.hpp, the one header the solvers include.
#pragma once

#include "physics/gas/ideal_gas.hpp"

namespace cfd::gas {

// Adding a solver: its value here, its file beside this one, and its
// include and entry in riemann_solvers.hpp (docs/developers.md, "Adding a
// Riemann solver").
enum class RiemannSolver { hlle, hllc, llf };

// Specialised by each solver's file:
//   static constexpr const char* name;   // its choice of euler.riemann
//   template <bool Reciprocal, class Real>
//   static Conserved<Real> flux(const Primitive<Real>& l, const Primitive<Real>& r, Real gamma);
// Reciprocal: shared divisors multiplied by their reciprocal (to_conserved).
template <RiemannSolver S>
struct Riemann;

template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real max2(Real a, Real b) {
  return a > b ? a : b;
}
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real min2(Real a, Real b) {
  return a < b ? a : b;
}

}  // namespace cfd::gas
