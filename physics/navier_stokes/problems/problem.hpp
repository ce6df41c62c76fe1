// The navier_stokes problems: each in a file of its own in this folder,
// listed once in the table of problems.cpp, as euler's (a problem is its
// name, what it is, its default domain, its constants' keys and its state
// as a function of position and time; docs/developers.md, "Adding a
// problem").
#pragma once

#include "core/config.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/transport.hpp"

#include <array>
#include <functional>
#include <vector>

namespace cfd::navier_stokes {

enum class Side { periodic, isothermal_wall, adiabatic_wall };

// One side of the box: periodic, or a wall moving in its own plane.
struct Wall {
  Side kind = Side::periodic;
  std::array<double, 3> velocity{0, 0, 0};  // the wall's velocity (its normal component is 0)
  double temperature = 1;                   // isothermal walls
  bool is_wall() const { return kind != Side::periodic; }
};

// What a problem reads of the case beside its own keys: the domain, the
// grid, the gas, its viscosity and the sides, set before the problem is
// asked (a problem given by a Reynolds number sets the viscosity). The
// solver's Params is a Setting and more, so a problem sees none of the
// solver's numerics and this folder includes nothing of the solver's.
struct Setting {
  long nx = 64, ny = 64, nz = 64;  // nz = 1: a 2D case
  std::array<double, 3> lo{0, 0, 0}, hi{1, 1, 1};
  double gamma = 1.4, R = 1, Pr = 0.71;
  gas::Viscosity<double> viscosity;
  std::array<Wall, 6> sides;  // x_lo, x_hi, y_lo, y_hi, z_lo, z_hi
  bool three_d() const { return nz > 1; }
  int dimensions() const { return three_d() ? 3 : 2; }
  double cp() const { return gamma * R / (gamma - 1); }
  const Wall& side(int d, int s) const { return sides[2 * d + s]; }
};

// A problem's primitive state at (x, y, z) and time t on the host (a 2D
// case asks at z = 0).
using StateAt = std::function<gas::Primitive<double>(double x, double y, double z, double t)>;

struct Problem {
  const char* name;     // the value of navier_stokes.problem, and the section of its keys
  const char* summary;  // for navier_stokes.problem's description
  double lo, hi;        // the default domain [lo, hi] along every direction
  std::vector<KeySpec> (*constants)();
  // Reads its constants, refuses those that do not fit together, and
  // returns its state. `p` holds the domain, grid, gas, viscosity and
  // sides already; a problem given by a Reynolds number sets the
  // viscosity (and refuses viscosity.mu given beside it).
  StateAt (*state)(const Config& c, Setting& p);
};

const std::vector<Problem>& problems();
const Problem* find_problem(const std::string& name);
std::vector<KeySpec> problem_keys();
std::string problems_description();

namespace problems_list {
extern const Problem taylor_green, taylor_green_2d;  // taylor_green.cpp
extern const Problem density_wave;                   // density_wave.cpp
extern const Problem couette;                        // couette.cpp
}  // namespace problems_list

}  // namespace cfd::navier_stokes
