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

// The checks of a run to an end time that every solver with
// time.end_time and output.time_interval makes: a positive end time when
// time.steps is 0, and no more than max_snapshots output times (each one a
// step landed on: an interval far below the run's length would write
// snapshot after snapshot without end). Refused at the key.
void check_end_time(const Config& c, long steps, double end_time, double output_interval);

}  // namespace cfd
