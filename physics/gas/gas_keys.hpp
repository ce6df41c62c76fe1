// The keys of the gas (gas.gamma, gas.R, gas.Pr) and of its viscosity
// (viscosity.law, .mu, .T0, .S, .exponent): one spelling in every gas
// solver. Each solver gives its defaults and units (sod's tube computes in
// SI units, navier_stokes in units of its problem); euler's viscosity is
// none unless its case gives a law.
#pragma once

#include "core/config.hpp"
#include "physics/gas/transport.hpp"

#include <string>
#include <vector>

namespace cfd::gas {

struct GasKeyDefaults {
  std::string gamma = "1.4";
  std::string R = "1", R_means = "gas constant: T = p/(rho R) (1: temperature in units of velocity^2)";
  std::string Pr = "0.71";
  std::string law = "constant";
  std::string mu = "0", mu_means = "dynamic viscosity mu0 (at viscosity.T0 for sutherland and power_law)";
  std::string T0 = "1", T0_means = "reference temperature of sutherland and power_law";
  double T0_min = 1e-300;
  std::string S = "0.4042", S_means = "Sutherland's constant S in the units of T (110.4 K / 273.15 K)";
  std::string exponent = "0.76";
};

// gas.gamma alone.
KeySpec gamma_key(const std::string& default_gamma);
// gas.gamma, gas.R, gas.Pr and viscosity.*, with the viscosity keys that
// belong to one law marked so.
std::vector<KeySpec> gas_keys(const GasKeyDefaults& defaults);
// Where the keys had other names (sod.viscosity, gas.mu0/T0/S in sod's
// tube before 0.2): still read, with a note.
void mark_former_gas_keys(std::vector<KeySpec>& keys, const std::string& solver);

struct GasConstants {
  double gamma, R, Pr;
  Viscosity<double> viscosity;
};
GasConstants read_gas_keys(const Config& c);
// After the problem has set its viscosity (a Reynolds number): a viscosity
// given with law none, or none where the law needs one, is refused at
// viscosity.mu; T0 left 0 is 1. euler and navier_stokes (sod's mu also
// sets the tube's length, law or not).
void complete_viscosity(const Config& c, Viscosity<double>& viscosity, const std::string& problem);

}  // namespace cfd::gas
