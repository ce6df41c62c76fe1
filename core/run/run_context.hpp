// What the command line tells a solver's run beyond its case: below the
// solvers' table (physics/solvers.hpp), so that a solver's run, which takes
// it, includes nothing above its own layer.
#pragma once

#include "core/checkpoint.hpp"

#include <string>

namespace cfd {

struct RunContext {
  std::string case_name;  // case file name without folder and extension
  bool quiet = false;
  const CheckpointHeader* restart = nullptr;  // continue from this checkpoint (cfdrun --restart)
};

}  // namespace cfd
