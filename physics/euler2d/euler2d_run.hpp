#pragma once

#include "core/config.hpp"
#include "physics/solvers.hpp"

namespace cfd::euler2d {

// Runs a validated euler2d case: snapshots at the requested times, the .hst
// history, timings and summary. Returns the exit status.
int run(const Config& config, const RunContext& context);

}  // namespace cfd::euler2d
