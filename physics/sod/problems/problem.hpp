// The sod problems: each initial state of the tube in a file of its own in
// this folder, listed once in the table of problems.cpp (as euler's
// problems are). A problem is its name (the value of sod.problem), what it
// is, its keys and the state along the tube. Adding a problem is one file
// here and one line in the table: docs/developers.md, "Adding a problem".
#pragma once

#include "core/config.hpp"
#include "core/decomposition.hpp"         // BoundaryKind
#include "physics/gas/exact_riemann.hpp"  // RiemannState

#include <functional>
#include <string>
#include <vector>

namespace cfd::sod {

enum class Scheme { keep, hllc };

// What a problem reads and sets of the case beside its own keys: it reads
// the grid, scheme and boundary, and sets the initial state and the states
// a fixed boundary keeps. The solver's Params is a Setting and more, so a
// problem sees none of the solver's numerics and this folder includes
// nothing of the solver's.
struct Setting {
  long nx = 4096;
  Scheme scheme = Scheme::keep;
  BoundaryKind boundary = BoundaryKind::fixed;  // fixed: the initial states, frozen
  // The initial state (sod.problem) in Sod units (rho/rho_ref, u/a,
  // p/(rho_ref R T_ref)): the state at x, the position as a fraction of the
  // tube (host only; empty: the tube of left and right), and the states a
  // fixed boundary keeps.
  std::function<gas::RiemannState(double x)> initial;
  gas::RiemannState left{1, 0, 1}, right{0.125, 0, 0.1};
  double diaphragm = 0.5;  // the tube's, a fraction of the tube
};

struct Problem {
  const char* name;     // the value of sod.problem
  const char* summary;  // what it is, for sod.problem's description
  // Its keys (each belongs to sod.problem=<name>).
  std::vector<KeySpec> (*keys)();
  // Reads its keys, refuses what does not fit (Config::reject names the
  // key's place), and sets p.initial, the state at x (the position as a
  // fraction of the tube, Sod units, on the host), and p.left and p.right,
  // the states a fixed boundary keeps; `p` holds the scheme, grid and
  // boundary already.
  void (*set)(const Config& c, Setting& p);
  // What a state that is not physical is blamed on: "the formulas expression.*".
  const char* source;
};

// Every problem, the default (tube, the original) first.
const std::vector<Problem>& problems();
// The problem named `name` (a name outside the table is a logic_error).
const Problem* find_problem(const std::string& name);
// Every problem's keys, each belonging to its choice of sod.problem.
std::vector<KeySpec> problem_keys();

// The table's entries, one per file (tube.cpp, expression.cpp, from_file.cpp).
namespace problems_list {
extern const Problem tube, expression, file;
}  // namespace problems_list

}  // namespace cfd::sod
