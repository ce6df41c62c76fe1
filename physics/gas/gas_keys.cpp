#include "physics/gas/gas_keys.hpp"

#include <limits>

namespace cfd::gas {

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
const std::vector<std::string> law_names = {"none", "constant", "sutherland", "power_law"};
}  // namespace

KeySpec gamma_key(const std::string& default_gamma) {
  return {"gas.gamma", KeyType::real, default_gamma, "ratio of specific heats", {}, 1.0000001, 10};
}

std::vector<KeySpec> gas_keys(const GasKeyDefaults& d) {
  std::vector<KeySpec> k = {
      gamma_key(d.gamma),
      {"gas.R", KeyType::real, d.R, d.R_means, {}, 1e-300, inf},
      {"gas.Pr", KeyType::real, d.Pr, "Prandtl number: heat conductivity k = mu cp / Pr", {}, 1e-6, inf},
      {"viscosity.law", KeyType::choice, d.law,
       "none (the Euler equations: no viscosity, no heat conduction), constant mu, sutherland "
       "mu0 ((T0 + S)/(T + S)) (T/T0)^1.5 or power_law mu0 (T/T0)^exponent",
       law_names},
      {"viscosity.mu", KeyType::real, d.mu, d.mu_means, {}, 0, inf},
      {"viscosity.T0", KeyType::real, d.T0, d.T0_means, {}, d.T0_min, inf},
      {"viscosity.S", KeyType::real, d.S, d.S_means, {}, 0, inf},
      {"viscosity.exponent", KeyType::real, d.exponent, "exponent of power_law", {}, -10, 10},
  };
  for (auto& spec : k) {
    if (spec.path == "viscosity.S") spec.belongs_to = "viscosity.law=sutherland";
    if (spec.path == "viscosity.exponent") spec.belongs_to = "viscosity.law=power_law";
    if (spec.path == "viscosity.T0") spec.belongs_to = "viscosity.law=sutherland|power_law";
  }
  return k;
}

void mark_former_gas_keys(std::vector<KeySpec>& keys, const std::string& solver) {
  if (solver == "euler") {
    mark_former(keys, "gas.gamma", "euler.gamma");
  } else if (solver == "sod") {
    mark_former(keys, "viscosity.law", "sod.viscosity");
    mark_former(keys, "viscosity.mu", "gas.mu0");
    mark_former(keys, "viscosity.T0", "gas.T0");
    mark_former(keys, "viscosity.S", "gas.S");
  }
}

GasConstants read_gas_keys(const Config& c) {
  GasConstants g;
  g.gamma = c.get_real("gas.gamma");
  g.R = c.get_real("gas.R");
  g.Pr = c.get_real("gas.Pr");
  const std::string& law = c.get_string("viscosity.law");
  g.viscosity.law = law == "none"         ? ViscosityLaw::none
                    : law == "sutherland" ? ViscosityLaw::sutherland
                    : law == "power_law"  ? ViscosityLaw::power_law
                                          : ViscosityLaw::constant;
  g.viscosity.mu0 = c.get_real("viscosity.mu");
  g.viscosity.T0 = c.get_real("viscosity.T0");
  g.viscosity.S = c.get_real("viscosity.S");
  g.viscosity.exponent = c.get_real("viscosity.exponent");
  return g;
}

void complete_viscosity(const Config& c, Viscosity<double>& viscosity, const std::string& problem) {
  // 0, a stored configuration's default, is no viscosity given.
  if (viscosity.law == ViscosityLaw::none && c.given("viscosity.mu") && viscosity.mu0 != 0)
    c.reject("viscosity.mu", "viscosity.law is none: the Euler equations have no viscosity");
  if (!(viscosity.T0 > 0)) viscosity.T0 = 1;
  if (viscosity.law != ViscosityLaw::none && !(viscosity.mu0 > 0))
    c.reject("viscosity.mu", "a viscous gas needs viscosity.mu > 0 (problem " + problem +
                                 " sets none; or viscosity.law: none for the Euler equations)");
}

}  // namespace cfd::gas
