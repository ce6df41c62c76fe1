// The gas problems: each in a file of its own in this folder, listed once in
// the table of problems.cpp, and run by every gas solver that can represent
// them (euler and navier_stokes: euler.problem and navier_stokes.problem
// choose from the same table). A problem is its name, what it is, its
// default domain, its constants' keys (the published values as defaults),
// what it needs of a solver, and its state as a function of position and
// time; it reads a small gas-level Setting, never a solver's Params (as
// AthenaK's src/pgen/ and Idefix's setup.cpp keep problems apart from the
// solver). Adding a problem is one file here and one line in the table:
// docs/developers.md says how.
#pragma once

#include "core/config.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/transport.hpp"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace cfd::gas {

// A side of the box as a viscous solver sees it: periodic, or a no-slip
// wall moving in its own plane (navier_stokes' boundary.*: isothermal_wall,
// adiabatic_wall). A solver without walls leaves every side periodic here
// (euler's outflow, reflecting and inflow sides are its own numerics).
enum class Side { periodic, isothermal_wall, adiabatic_wall };

struct Wall {
  Side kind = Side::periodic;
  std::array<double, 3> velocity{0, 0, 0};  // the wall's velocity (its normal component is 0)
  double temperature = 1;                   // isothermal walls
  bool is_wall() const { return kind != Side::periodic; }
};

// What a problem reads of the case beside its own keys, set by the solver
// before the problem is asked: the domain, the grid, the gas (gamma, R, Pr
// and the viscosity law) and the walls. A problem given by a Reynolds
// number sets the viscosity (where the solver has one). Each solver's
// Params is a Setting and more, so a problem sees none of a solver's
// numerics and this folder includes nothing of the solvers'.
struct Setting {
  std::string choice = "euler.problem";            // the key that chose the problem, for messages
  std::array<double, 3> lo{0, 0, 0}, hi{1, 1, 1};  // the domain (z: 3D grids)
  long nx = 64, ny = 64;
  long nz = 1;  // > 1: a 3D grid
  double gamma = 1.4, R = 1, Pr = 0.71;
  Viscosity<double> viscosity{ViscosityLaw::none};  // none: an inviscid solver (euler)
  std::array<Wall, 6> sides;                        // x_lo, x_hi, y_lo, y_hi, z_lo, z_hi
  bool three_d() const { return nz > 1; }
  int dimensions() const { return three_d() ? 3 : ny > 1 ? 2 : 1; }
  double cp() const { return gamma * R / (gamma - 1); }
  const Wall& side(int d, int s) const { return sides[2 * d + s]; }
};

// A problem's primitive state at (x, y, z) and time t, on the host: the
// initial state at t = 0, and at later t the exact solution where the
// problem has one (the isentropic vortex, the density wave, the 2D
// Taylor-Green vortex) or the same state (the others). Three coordinates
// whatever the solver's dimensions (a 2D solver asks at z = 0), so that a
// problem is written once for 1D, 2D and 3D.
using StateAt = std::function<Primitive<double>(double x, double y, double z, double t)>;

// What a problem needs of a solver beyond a gas on a box: a solver offers
// the problems whose needs it has (problems_for).
enum class Needs { nothing, walls };

struct Problem {
  const char* name;     // the value of <solver>.problem, and the section of its keys
  const char* summary;  // what it is, for <solver>.problem's description
  double lo, hi;        // the default domain [lo, hi] along every direction (keys <name>.x_min, ...)
  // The keys of its constants in its section (<name>.width, ...).
  std::vector<KeySpec> (*constants)();
  // Reads its constants from the case, refuses those that do not fit
  // together (Config::reject names the key's place), and returns its state;
  // `p` holds the domain, grid, gas and walls already.
  StateAt (*state)(const Config& c, Setting& p);
  Needs needs = Needs::nothing;
};

// Every gas problem, in the table's order.
const std::vector<Problem>& problems();
// The problems a solver can represent: those with walls only if it has walls.
std::vector<Problem> problems_for(bool has_walls);
// The problem named `name` (a name outside the table is a logic_error).
const Problem* find_problem(const std::string& name);
// The keys of the sections of `table`'s problems (their domain and
// constants), each belonging to its problem's choice of `choice` (e.g.
// "euler.problem").
std::vector<KeySpec> problem_keys(const std::vector<Problem>& table, const std::string& choice);
// The choice key's description, made from `table`.
std::string problems_description(const std::vector<Problem>& table);

// The table's entries, one per file.
namespace problems_list {
extern const Problem kh_mcnally, kh_seed;                // kelvin_helmholtz.cpp
extern const Problem sod_x, sod_y, sod_z, sod_diagonal;  // sod.cpp
extern const Problem vortex;                             // vortex.cpp
extern const Problem blast;                              // blast.cpp
extern const Problem sedov;                              // sedov.cpp
extern const Problem linear_wave;                        // linear_wave.cpp
extern const Problem taylor_green, taylor_green_2d;      // taylor_green.cpp
extern const Problem density_wave;                       // density_wave.cpp
extern const Problem couette;                            // couette.cpp
extern const Problem expression;                         // expression.cpp
extern const Problem file;                               // from_file.cpp
}  // namespace problems_list

}  // namespace cfd::gas
