#pragma once

#include "core/config.hpp"
#include "core/run/run_context.hpp"
#include "physics/navier_stokes/navier_stokes_params.hpp"

namespace cfd::navier_stokes {

// Runs a validated navier_stokes case: snapshots, the .hst history with the
// energy and entropy budgets, timings and summary. Returns the exit status.
int run(const Config& config, const RunContext& context);

// run() in one precision and dimension (navier_stokes_case.cpp, compiled once
// for each by physics/navier_stokes/CMakeLists.txt).
template <class Real, int Dim>
int run_case(const Config& config, const Params& p, const RunContext& context);
extern template int run_case<float, 2>(const Config&, const Params&, const RunContext&);
extern template int run_case<float, 3>(const Config&, const Params&, const RunContext&);
extern template int run_case<double, 2>(const Config&, const Params&, const RunContext&);
extern template int run_case<double, 3>(const Config&, const Params&, const RunContext&);

}  // namespace cfd::navier_stokes
