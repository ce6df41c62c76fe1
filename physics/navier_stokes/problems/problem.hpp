// The navier_stokes problems: each in a file of its own in this folder,
// listed once in the table of problems.cpp, as euler's (a problem is its
// name, what it is, its default domain, its constants' keys and its state
// as a function of position and time; docs/developers.md, "Adding a
// problem").
#pragma once

#include "core/config.hpp"
#include "physics/gas/ideal_gas.hpp"

#include <functional>
#include <vector>

namespace cfd::navier_stokes {

struct Params;

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
  StateAt (*state)(const Config& c, Params& p);
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
