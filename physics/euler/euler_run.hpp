#pragma once

#include "core/config.hpp"
#include "core/run/run_context.hpp"
#include "physics/euler/euler_params.hpp"

namespace cfd::euler {

// Runs a validated euler case: snapshots at the requested times, the .hst
// history, timings and summary. Returns the exit status.
int run(const Config& config, const RunContext& context);

// run() in one precision on a 2D grid (Dim 2; a 1D problem is one cell
// high) or a 3D grid (Dim 3: grid.nz > 1); euler_case.cpp, compiled once
// for each.
template <class Real, int Dim>
int run_case(const Config& config, const Params& p, const RunContext& context);
extern template int run_case<float, 2>(const Config&, const Params&, const RunContext&);
extern template int run_case<double, 2>(const Config&, const Params&, const RunContext&);
extern template int run_case<float, 3>(const Config&, const Params&, const RunContext&);
extern template int run_case<double, 3>(const Config&, const Params&, const RunContext&);

}  // namespace cfd::euler
