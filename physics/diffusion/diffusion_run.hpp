#pragma once

#include "core/config.hpp"
#include "core/run/run_context.hpp"
#include "physics/diffusion/diffusion_params.hpp"

namespace cfd::diffusion {

// Runs a validated diffusion case: snapshots, timings, summary. Returns the exit status.
int run(const Config& config, const RunContext& context);

}  // namespace cfd::diffusion
