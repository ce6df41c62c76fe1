// The euler problems: each in a file of its own in this folder, listed once
// in the table of problems.cpp. A problem is its name, what it is, its
// default domain, its constants' keys (the published values as defaults) and
// its state as a function of position and time; the solver knows nothing
// else of it (as AthenaK's src/pgen/ and Idefix's setup.cpp keep problems
// apart from the solver). Adding a problem is one file here and one line in
// the table: docs/developers.md says how.
#pragma once

#include "core/config.hpp"
#include "physics/gas/ideal_gas.hpp"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace cfd::euler {

// What a problem reads of the case beside its own keys: the domain, the
// grid and the gas, set before the problem is asked. The solver's Params
// is a Setting and more, so a problem sees none of the solver's numerics
// and this folder includes nothing of the solver's.
struct Setting {
  std::array<double, 3> lo{0, 0, 0}, hi{1, 1, 1};  // domain, from the problem (z: 3D grids)
  long nx = 256, ny = 256;
  long nz = 1;  // > 1: a 3D grid (Solver<Real, 3>)
  double gamma = 5.0 / 3.0;
  bool three_d() const { return nz > 1; }
};

// A problem's primitive state at (x, y, z) and time t, on the host: the
// initial state at t = 0, and at later t the exact solution where the problem
// has one (the vortex) or the same state (the others). Three coordinates
// whatever the solver's dimensions (a 2D solver asks at z = 0), so that a
// problem is written once for 1D, 2D and 3D.
using StateAt = std::function<gas::Primitive<double>(double x, double y, double z, double t)>;

struct Problem {
  const char* name;     // the value of euler.problem, and the section of its keys
  const char* summary;  // what it is, for euler.problem's description
  double lo, hi;        // the default domain [lo, hi]^2 (keys <name>.x_min, ...)
  // The keys of its constants in its section (<name>.width, ...).
  std::vector<KeySpec> (*constants)();
  // Reads its constants from the case, refuses those that do not fit
  // together (Config::reject names the key's place), and returns its state;
  // `p` holds the domain, gamma and grid size already.
  StateAt (*state)(const Config& c, const Setting& p);
};

// Every problem, the default (kh_mcnally) first.
const std::vector<Problem>& problems();
// The problem named `name` (a name outside the table is a logic_error).
const Problem* find_problem(const std::string& name);
// The keys of every problem's section: its domain and constants, each
// belonging to its problem's choice of euler.problem.
std::vector<KeySpec> problem_keys();
// euler.problem's description, made from the table.
std::string problems_description();

// The table's entries, one per file.
namespace problems_list {
extern const Problem kh_mcnally, kh_seed;                // kelvin_helmholtz.cpp
extern const Problem sod_x, sod_y, sod_z, sod_diagonal;  // sod.cpp
extern const Problem vortex;                             // vortex.cpp
extern const Problem blast;                              // blast.cpp
extern const Problem sedov;                              // sedov.cpp
extern const Problem linear_wave;                        // linear_wave.cpp
extern const Problem expression;                         // expression.cpp
extern const Problem file;                               // from_file.cpp
}  // namespace problems_list

}  // namespace cfd::euler
