// What the command line tells a solver's run beyond its case: below the
// solvers' table (physics/solvers.hpp), so that a solver's run, which takes
// it, includes nothing above its own layer.
#pragma once

#include "core/checkpoint.hpp"

#include <string>
#include <vector>

namespace cfd {

struct RunContext {
  std::string case_name;  // case file name without folder and extension
  bool quiet = false;
  const CheckpointHeader* restart = nullptr;  // continue from this checkpoint (cfdrun --restart)
  // Every solver's name and former name ("euler2d"): the files of an earlier
  // run in the output folder that --overwrite may replace are theirs
  // (<solver>.hst, <solver>_<step>.h5, ...); a manifest line naming any
  // other file is refused. core/ knows no solver, so the table's caller
  // (apps/cfdrun) fills this.
  std::vector<std::string> solver_names;
  // cfdrun --validate: the run builds its state and checks it as a run
  // would (every cell's density and pressure, the inflow sides, scalars),
  // then stops; it opens no output folder and writes nothing.
  bool validate_states = false;
};

}  // namespace cfd
