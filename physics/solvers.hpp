// The table of solvers cfdrun knows: each brings its case-file keys and a run
// function. Adding a solver is one entry here.
#pragma once

#include "core/checkpoint.hpp"
#include "core/config.hpp"

#include <string>
#include <vector>

namespace cfd {

struct RunContext {
  std::string case_name;  // case file name without folder and extension
  bool quiet = false;
  const CheckpointHeader* restart = nullptr;  // continue from this checkpoint (cfdrun --restart)
};

struct SolverEntry {
  const char* name;
  const char* summary;
  std::vector<KeySpec> (*keys)();
  // Checks what the keys alone cannot (combinations, physical states);
  // throws ConfigError.
  void (*check)(const Config&);
  int (*run)(const Config&, const RunContext&);
};

const std::vector<SolverEntry>& solvers();
// Keys of a solver by name; throws ConfigError naming the known solvers.
std::vector<KeySpec> solver_keys(const std::string& name);

}  // namespace cfd
