// The keys that every solver's schema ends with, the same for all: where
// and what to write (output.*, core/snapshot), how a run is kept and
// stopped (run.*, core/run/run_settings) and how the grid is split over
// ranks (parallel.*, core/decomposition) for the solver's dimensions.
#pragma once
#include "core/config.hpp"

#include <vector>

namespace cfd {

// Appends the output.*, run.* and parallel.* keys to a solver's `keys`;
// `ndim` is the number of directions the solver splits over ranks.
void add_shared_keys(std::vector<KeySpec>& keys, int ndim);

}  // namespace cfd
