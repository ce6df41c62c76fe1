// The table of solvers cfdrun knows (solvers.cpp): each brings its case-file
// keys and a run function. Adding a solver is its folder, one entry there and
// one add_subdirectory line in physics/CMakeLists.txt; its tests and docs are
// new files that the build finds (docs/developers.md, "Adding a solver").
#pragma once

#include "core/config.hpp"
#include "core/run/run_context.hpp"

#include <string>
#include <vector>

namespace cfd {

struct SolverEntry {
  const char* name;
  const char* summary;
  const char* keys_doc;  // the page holding `cfdrun --list-keys <name> --markdown` (tests/check_user_guide.py)
  std::vector<KeySpec> (*keys)();
  // Checks what the keys alone cannot (combinations, physical states);
  // throws ConfigError.
  void (*check)(const Config&);
  int (*run)(const Config&, const RunContext&);
  // The solver's former name, still read from case files and checkpoints
  // with a note (its section's keys: KeySpec::former); nullptr: none.
  const char* former_name = nullptr;
};

const std::vector<SolverEntry>& solvers();
// The default case of `solver` with `overrides` ("grid.nx=64"), checked as a
// case file is: cfdbench's variants and the tests make their cases so.
Config default_case(const std::string& solver, const std::vector<std::string>& overrides);
// The solver of that name or former name; nullptr if none.
const SolverEntry* find_solver(const std::string& name);
// Keys of a solver by name (or former name); throws ConfigError naming the
// known solvers.
std::vector<KeySpec> solver_keys(const std::string& name);

}  // namespace cfd
