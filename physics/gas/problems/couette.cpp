// Compressible Couette flow between two walls facing each other across x, y
// or z (boundary.<d>_lo and <d>_hi are walls, the other sides periodic; the
// shipped case has them at y_lo and y_hi): with a constant viscosity the
// steady state has a uniform pressure p0, a linear velocity
//   u(eta) = U_lo + (U_hi - U_lo) eta,   eta = (s - s_lo)/H,
// s the coordinate across the walls,
// and the temperature of the energy balance k T'' + mu u'^2 = 0 (viscous
// heating conducted to the walls), with k = mu cp/Pr:
//   both walls isothermal:  T = T_lo + (T_hi - T_lo) eta + Pr dU^2/(2 cp) eta (1 - eta),
//   adiabatic upper wall:   T = T_lo + Pr dU^2/cp (eta - eta^2/2),
// dU = U_hi - U_lo (White, Viscous Fluid Flow, 3rd ed., section 3-2.2);
// rho = p0/(R T). couette.start chooses the initial state: that steady
// solution (exact), or the linear profiles between the walls' values
// (linear), which viscous heating then bends into it.
#include "physics/gas/problems/problem.hpp"

#include <cmath>

namespace cfd::gas {

namespace {

std::vector<KeySpec> couette_keys() {
  return {{"couette.pressure", KeyType::real, "1", "the uniform pressure p0", {}, 1e-300},
          {"couette.start",
           KeyType::choice,
           "linear",
           "initial state: the steady solution (exact) or linear velocity and temperature between the walls (linear)",
           {"linear", "exact"}}};
}

std::string side_key(int s) { return std::string("boundary.") + "xyz"[s / 2] + (s % 2 ? "_hi" : "_lo"); }

StateAt couette_state(const Config& c, Setting& p) {
  // The direction across the walls: the one pair of wall sides.
  int across = -1;
  for (int d = 0; d < 3; ++d)
    if (p.sides[2 * d].is_wall()) {
      if (across >= 0)
        c.reject(side_key(2 * d), std::string("couette has one pair of walls, and boundary.") + "xyz"[across] +
                                      "_lo already is one; the other sides are periodic");
      across = d;
    }
  if (across < 0)
    c.reject(p.choice,
             "couette needs walls facing each other, e.g. boundary.y_lo and boundary.y_hi: "
             "isothermal_wall (and the upper one isothermal_wall or adiabatic_wall)");
  const char axis = "xyz"[across];
  if (p.viscosity.law != gas::ViscosityLaw::constant)
    c.reject("viscosity.law", "the Couette solution here is that of a constant viscosity");
  if (p.sides[2 * across].kind == Side::adiabatic_wall)
    c.reject(side_key(2 * across), std::string("the lower wall holds the temperature (isothermal_wall); the upper, ") +
                                       axis + "_hi, may be adiabatic");
  const Wall lo = p.sides[2 * across], hi = p.sides[2 * across + 1];
  const bool adiabatic = hi.kind == Side::adiabatic_wall, exact = c.get_string("couette.start") == "exact";
  const double p0 = c.get_real("couette.pressure"), R = p.R, s0 = p.lo[across], H = p.hi[across] - p.lo[across];
  const double heating = p.Pr / p.cp();
  return [=](double x, double y, double z, double) {
    const double eta = ((across == 0 ? x : across == 1 ? y : z) - s0) / H;
    double v[3];
    for (int k = 0; k < 3; ++k) v[k] = lo.velocity[k] + (hi.velocity[k] - lo.velocity[k]) * eta;
    double dU2 = 0;
    for (int k = 0; k < 3; ++k) dU2 += (hi.velocity[k] - lo.velocity[k]) * (hi.velocity[k] - lo.velocity[k]);
    double T = adiabatic ? lo.temperature : lo.temperature + (hi.temperature - lo.temperature) * eta;
    if (exact) T += adiabatic ? heating * dU2 * (eta - eta * eta / 2) : heating * dU2 / 2 * eta * (1 - eta);
    return gas::Primitive<double>{p0 / (R * T), v[0], v[1], v[2], p0};
  };
}

}  // namespace

namespace problems_list {
extern const Problem couette{"couette",
                             "compressible Couette flow between two walls facing each other (across x, y or z)",
                             0,
                             1,
                             couette_keys,
                             couette_state,
                             Needs::walls};
}  // namespace problems_list

}  // namespace cfd::gas
