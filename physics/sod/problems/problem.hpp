// The sod problems: each initial state of the tube in a file of its own in
// this folder, listed once in the table of problems.cpp (as euler's
// problems are). A problem is its name (the value of sod.problem), what it
// is, its keys and the state along the tube. Adding a problem is one file
// here and one line in the table: docs/developers.md, "Adding a problem".
#pragma once

#include "core/config.hpp"

#include <string>
#include <vector>

namespace cfd::sod {

struct Params;

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
  void (*set)(const Config& c, Params& p);
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
