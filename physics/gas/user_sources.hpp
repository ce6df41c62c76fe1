// Source terms of the user's own (sources.mass, .momentum_x/_y/_z, .energy,
// .s1 ... in a case): formulas of x, y, z, t and the cell's primitives rho,
// vx, vy, vz, p (and the scalars' concentrations s1, s2, ...), each the rate
// of change of one conserved density (mass, momentum, total energy, rho*s_k
// per unit volume and time). Read once by muparser, evaluated in a kernel as
// FormulaPrograms (core/formula_program.hpp): optically thin cooling, a
// heating layer, a driving force or a damping layer without compiling.
//
// Each stage adds b dt S(W_in, t_stage) to its output, as gravity does: the
// source is part of L(u) in u_out = a u_base + b (u_in + dt L(u_in)), so it
// is integrated to the order of the method. sources.dt_bound, a formula too,
// bounds the step (its minimum over the cells, no safety factor: the
// formula says the fraction of a cooling time it allows), beside the
// convective and viscous bounds of the time-step contract (time_step.hpp).
#pragma once

#include "core/config.hpp"
#include "core/formula_program.hpp"
#include "core/parallel.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/slots.hpp"

#include <string>
#include <vector>

namespace cfd::gas {

// The formulas' inputs after x, y, z, t: rho, vx, vy, vz, p, s1, ..., s8.
constexpr int max_source_scalars = 8;
constexpr int source_inputs = 4 + 5 + max_source_scalars;

// The keys (sources.*), for solvers whose scalars come from `scalars_key`
// (empty: none).
std::vector<KeySpec> source_keys(const std::string& scalars_key = "");

// A case's source terms, parsed; none given: empty.
struct SourceTerms {
  std::vector<int> rows;                 // U's row each program adds to (IDN ... IEN, NCONS + k)
  std::vector<FormulaProgram> programs;  // one per row
  bool bounded = false;                  // sources.dt_bound given
  FormulaProgram dt_bound{};
  bool any() const { return !rows.empty() || bounded; }
};

// Reads sources.* with the case's constants, for a gas with `scalars`
// passive scalars; a formula that cannot run in a kernel, or a constant
// named as a variable, is refused at its key.
SourceTerms read_sources(const Config& c, int scalars, bool three_d);

// The programs and cell centres on the device, and the kernel bodies.
template <class Real>
struct DeviceSources {
  Kokkos::View<FormulaProgram*, MemSpace> programs;
  Kokkos::View<int*, MemSpace> rows;
  Kokkos::View<double*, MemSpace> centre[3];  // by local index, ghosts included
  FormulaProgram dt_bound{};
  int count = 0;
  bool bounded = false;
};

template <class Real>
DeviceSources<Real> device_sources(const SourceTerms& s, const std::vector<double> (&centres)[3]) {
  DeviceSources<Real> d;
  d.count = int(s.rows.size());
  d.bounded = s.bounded;
  d.dt_bound = s.dt_bound;
  d.programs = Kokkos::View<FormulaProgram*, MemSpace>("gas::source_programs", d.count);
  d.rows = Kokkos::View<int*, MemSpace>("gas::source_rows", d.count);
  auto programs = Kokkos::create_mirror_view(d.programs);
  auto rows = Kokkos::create_mirror_view(d.rows);
  for (int n = 0; n < d.count; ++n) programs(n) = s.programs[n], rows(n) = s.rows[n];
  Kokkos::deep_copy(d.programs, programs);
  Kokkos::deep_copy(d.rows, rows);
  for (int a = 0; a < 3; ++a) {
    d.centre[a] = Kokkos::View<double*, MemSpace>("gas::source_centres", centres[a].size());
    auto host = Kokkos::create_mirror_view(d.centre[a]);
    for (size_t k = 0; k < centres[a].size(); ++k) host(k) = centres[a][k];
    Kokkos::deep_copy(d.centre[a], host);
  }
  return d;
}

namespace source_detail {
// The inputs of the cell at (j, i) or (k, j, i) before its state: its
// centre and t.
template <class Real, class... I>
KOKKOS_FORCEINLINE_FUNCTION void place(double (&in)[source_inputs], const DeviceSources<Real>& s, double t, I... at) {
  const long index[] = {long(at)...};
  constexpr int n = sizeof...(I);
  in[0] = s.centre[0](index[n - 1]);
  in[1] = s.centre[1](index[n - 2]);
  in[2] = n == 3 ? s.centre[2](index[0]) : 0.0;
  in[3] = t;
}
}  // namespace source_detail

// u_out(row) += b dt S_row at each cell, S from W (u_in's primitives: rho,
// vx, vy, vz, p in their slots, the scalars from row first_scalar) at the
// stage's time t.
template <class Real, class State>
struct ApplySources {
  DeviceSources<Real> s;
  State w, u_out;
  int first_scalar, scalars;
  double t;
  Real b_dt;
  template <class... I>
  KOKKOS_INLINE_FUNCTION void operator()(I... at) const {
    double in[source_inputs];
    source_detail::place(in, s, t, at...);
    for (int v = 0; v < 5; ++v) in[4 + v] = double(w(v, at...));
    for (int k = 0; k < max_source_scalars; ++k) in[9 + k] = k < scalars ? double(w(first_scalar + k, at...)) : 0.0;
    for (int n = 0; n < s.count; ++n) u_out(s.rows(n), at...) += b_dt * Real(evaluate(s.programs(n), in));
  }
};

// sources.dt_bound at each cell, from U (the state between steps).
template <class Real, class State>
struct SourceDtBound {
  DeviceSources<Real> s;
  State u;
  Real gamma;
  int scalars;
  double t;
  template <class... I>
  KOKKOS_INLINE_FUNCTION Real operator()(I... at) const {
    using namespace slots;
    double in[source_inputs];
    source_detail::place(in, s, t, at...);
    const Primitive<Real> w =
        to_primitive(Conserved<Real>{u(IDN, at...), u(IM1, at...), u(IM2, at...), u(IM3, at...), u(IEN, at...)}, gamma);
    const double prims[5] = {double(w.rho), double(w.vx), double(w.vy), double(w.vz), double(w.p)};
    for (int v = 0; v < 5; ++v) in[4 + v] = prims[v];
    for (int k = 0; k < max_source_scalars; ++k)
      in[9 + k] = k < scalars ? double(u(NCONS + k, at...) / u(IDN, at...)) : 0.0;
    // A NaN would never win the minimum: it is the lowest Real instead, so
    // that the step is refused and fault() names it.
    const Real bound = Real(evaluate(s.dt_bound, in));
    return bound == bound ? bound : -Kokkos::reduction_identity<Real>::min();
  }
};

}  // namespace cfd::gas
