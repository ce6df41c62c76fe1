// The diffusion problems: each initial state in a file of its own in this
// folder, listed once in the table of problems.cpp (as euler's problems
// are). A problem is its name (the value of diffusion.problem), what it is,
// its keys and u at each interior point; the edges hold 0 whatever it says.
// Adding a problem is one file here and one line in the table:
// docs/developers.md, "Adding a problem".
#pragma once

#include "core/config.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cfd::diffusion {

// What a problem reads of the case beside its own keys: the grid. The
// solver's Params is a Setting and more, so this folder includes nothing of
// the solver's.
struct Setting {
  long nx = 256, ny = 256;  // points, edges included
};

// u at the interior point of 0-based global indices (i, j) of the nx x ny
// grid, on the host, in double (the solver rounds it once to its precision).
// Indices rather than positions, so that a problem's own arithmetic (the
// sine's pi i/(nx-1)) is what sets the bits.
using InitialU = std::function<double(long i, long j)>;

struct Problem {
  const char* name;     // the value of diffusion.problem
  const char* summary;  // what it is, for diffusion.problem's description
  // Its keys (each belongs to diffusion.problem=<name>).
  std::vector<KeySpec> (*keys)();
  // Reads its keys (refusing what does not fit with Config::reject) and
  // returns u; `p` holds the grid already.
  InitialU (*state)(const Config& c, const Setting& p);
  // What a u that is not finite is blamed on: "the formula expression.u gives".
  const char* source;
};

// Every problem, the default (spike) first.
const std::vector<Problem>& problems();
// The problem named `name` (a name outside the table is a logic_error).
const Problem* find_problem(const std::string& name);
// Every problem's keys, each belonging to its choice of diffusion.problem.
std::vector<KeySpec> problem_keys();

// The spike at the centre point (spike.cpp) and the sine mode
// sin(pi i/(nx-1)) sin(pi j/(ny-1)) (sine.cpp), for Params made by hand.
InitialU centre_spike(long nx, long ny);
InitialU sine_mode(long nx, long ny);

// The table's entries, one per file (spike.cpp, sine.cpp, expression.cpp, from_file.cpp).
namespace problems_list {
extern const Problem spike, sine, expression, file;
}  // namespace problems_list

}  // namespace cfd::diffusion
