#pragma once

#include "core/config.hpp"
#include "core/run/run_context.hpp"
#include "physics/euler2d/euler2d_params.hpp"

namespace cfd::euler2d {

// Runs a validated euler2d case: snapshots at the requested times, the .hst
// history, timings and summary. Returns the exit status.
int run(const Config& config, const RunContext& context);

// run() in one precision (euler2d_case.cpp).
template <class Real>
int run_case(const Config& config, const Params& p, const RunContext& context);
extern template int run_case<float>(const Config&, const Params&, const RunContext&);
extern template int run_case<double>(const Config&, const Params&, const RunContext&);
// run_case on a 3D grid (grid.nz > 1; euler2d_case.cpp with CFDRUN_EULER2D_VOLUME).
template <class Real>
int run_volume_case(const Config& config, const Params& p, const RunContext& context);
extern template int run_volume_case<float>(const Config&, const Params&, const RunContext&);
extern template int run_volume_case<double>(const Config&, const Params&, const RunContext&);

}  // namespace cfd::euler2d
