// The time integrators of the gas solvers as coefficient tables (after
// Parthenon's src/time_integration/low_storage_integrator.cpp): each stage's
// coefficients and the time its input stands for, read by sod, euler and
// navier_stokes alike, so that a method is written once and named once.
//
// Forward Euler, SSP-RK2 and SSP-RK3 (Shu and Osher, J. Comput. Phys. 77,
// 1988) are stages of the convex form
//   u_out = a u_base + b (u_in + dt L(u_in)),
// u_base the state at the step's start. The classical RK4 is not convex; its
// stages are
//   acc = (or +=) w_acc L(u_in),  u_out = u_base + w_out dt L(u_in),
// and its last stage u = u_base + dt / 6 (acc + L(u_in)).
// Coefficients are ratios of small integers, formed in the working precision
// (Ratio::as: 1/3 is Real(1) / Real(3)), the operations every solver did
// before the table, so the table changed no bits.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace cfd::gas {

enum class Integrator { euler, rk2, rk3, rk4 };

struct Ratio {
  int num, den;
  template <class Real>
  constexpr Real as() const {
    return den == 1 ? Real(num) : Real(num) / Real(den);
  }
  constexpr double value() const { return double(num) / double(den); }
  // x times the ratio, as x * num / den (x / 6 for 1/6, x for 1/1).
  template <class Real>
  constexpr Real scaled(Real x) const {
    const Real times = num == 1 ? x : Real(num) * x;
    return den == 1 ? times : times / Real(den);
  }
};

struct IntegratorStage {
  Ratio a, b;   // convex form: u_out = a u_base + b (u_in + dt L(u_in))
  Ratio w_out;  // RK4: u_out = u_base + w_out dt L(u_in)
  Ratio w_acc;  // RK4: acc = (first stage) or += w_acc L(u_in)
  Ratio time;   // the stage's input stands for t + time dt (time-dependent sides)
};

struct IntegratorMethod {
  Integrator id;
  const char* name;  // the choice in case files
  const char* summary;
  int order;
  int stages;
  bool convex;  // false: the classical RK4 form above
  IntegratorStage stage[4];
};

inline constexpr IntegratorMethod integrator_methods[] = {
    {Integrator::euler, "euler", "forward Euler", 1, 1, true, {{{0, 1}, {1, 1}, {0, 1}, {0, 1}, {0, 1}}}},
    {Integrator::rk2,
     "rk2",
     "SSP-RK2 (Heun)",
     2,
     2,
     true,
     {{{0, 1}, {1, 1}, {0, 1}, {0, 1}, {0, 1}}, {{1, 2}, {1, 2}, {0, 1}, {0, 1}, {1, 1}}}},
    {Integrator::rk3,
     "rk3",
     "SSP-RK3 (Shu and Osher)",
     3,
     3,
     true,
     {{{0, 1}, {1, 1}, {0, 1}, {0, 1}, {0, 1}},
      {{3, 4}, {1, 4}, {0, 1}, {0, 1}, {1, 1}},
      {{1, 3}, {2, 3}, {0, 1}, {0, 1}, {1, 2}}}},
    {Integrator::rk4,
     "rk4",
     "classical RK4",
     4,
     4,
     false,
     {{{0, 1}, {0, 1}, {1, 2}, {1, 1}, {0, 1}},
      {{0, 1}, {0, 1}, {1, 2}, {2, 1}, {1, 2}},
      {{0, 1}, {0, 1}, {1, 1}, {2, 1}, {1, 2}},
      {{0, 1}, {0, 1}, {1, 6}, {1, 1}, {1, 1}}}},
};

inline const IntegratorMethod& integrator_method(Integrator id) {
  for (const auto& m : integrator_methods)
    if (m.id == id) return m;
  throw std::logic_error("no integrator method for this Integrator");  // the table lists every value
}

// The names of `offered` (a solver's choices of its integrator key), in the table's order.
inline std::vector<std::string> integrator_names(const std::vector<Integrator>& offered) {
  std::vector<std::string> names;
  for (const auto& m : integrator_methods)
    for (Integrator o : offered)
      if (m.id == o) names.emplace_back(m.name);
  return names;
}

// The integrator of a name in the table; throws std::invalid_argument otherwise.
inline Integrator integrator_named(const std::string& name) {
  for (const auto& m : integrator_methods)
    if (name == m.name) return m.id;
  throw std::invalid_argument("no integrator named '" + name + "'");
}

}  // namespace cfd::gas
