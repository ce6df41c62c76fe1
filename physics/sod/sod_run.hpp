#pragma once

#include "core/config.hpp"
#include "core/run/run_context.hpp"

namespace cfd::sod {

// Runs a validated sod case: snapshots, timings, summary. Returns the exit status.
int run(const Config& config, const RunContext& context);

}  // namespace cfd::sod
