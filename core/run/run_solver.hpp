// One run of any solver from its validated case, the same steps in the same
// order for every solver (as AthenaK's main.cpp and Parthenon's driver set
// up every problem alike): the decomposition, the output folder, the banner,
// the solver and its snapshot series, the time loop, the summary. A solver's
// run file supplies only what is its own, as a `Case` (the three in
// physics/*/..._run.cpp and euler_case.cpp are the examples):
//
//   using Physics = ...;                    // constructed as Physics(params, dec)
//   static constexpr const char* solver_name;  // "sod": snapshots sod_*.h5, history sod.hst
//                                           // (a continued run: the checkpoint's name, below)
//   const Params& params;
//   GridBlock grid() const;  std::array<bool, 3> periodic() const;
//   std::string precision() const, layout() const;   // recorded in every file
//   void banner(const std::string& ranks, const OutputSettings&) const;  // printed on rank 0;
//                                           // `ranks`: describe_ranks, "" on one rank
//   void prepare(TimeLoop&, SnapshotSeries&) const;  // steps or end time, units
//   HooksFor<Physics> hooks(Physics&, SnapshotSeries&, const Decomposition&, const OutputSettings&);
//   void summary(const Physics&, const SolveTimings&, const SnapshotSeries&) const;  // rank 0
//
// and derives from CaseRun for the defaults below. banner and summary are
// called on rank 0 only, and not at all with --quiet.
#pragma once

#include "core/config.hpp"
#include "core/decomposition.hpp"
#include "core/memory_meter.hpp"
#include "core/parallel.hpp"
#include "core/run/run_context.hpp"
#include "core/run/time_loop.hpp"
#include "core/snapshot.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cfd {

struct CaseRun {
  // true: the device bytes per owned cell of the solver's set-up, from
  // Kokkos' allocation events (core/memory_meter.hpp), are measured into
  // bytes_per_cell before the hooks' `started` runs.
  bool measures_footprint = false;
  double bytes_per_cell = 0;
};

template <class Case>
int run_solver(const Config& config, const RunContext& context, Case& c) {
  const Decomposition dec = decompose_case(config, c.grid(), c.periodic());
  if (context.validate_states) {
    typename Case::Physics physics(c.params, dec);
    physics.set_initial_state();  // refuses what the run would, on every rank
    return exit_done;
  }
  // A run continued in its own folder keeps the name its files were written
  // under (a checkpoint of euler, written when it was called euler2d, goes
  // on as euler2d_*.h5 and euler2d.hst), so that the folder stays one series.
  const std::string name =
      context.restart != nullptr && !context.restart->new_folder && !context.restart->solver.empty()
          ? context.restart->solver
          : std::string(Case::solver_name);
  // The folder's manifest may name this run's files and those of another
  // solver's earlier run there (which --overwrite replaces), nothing else.
  std::vector<std::string> prefixes{name};
  for (const auto& other : context.solver_names)
    if (other != name) prefixes.push_back(other);
  const OutputSettings out = open_output(config, context.case_name, dec.comm,
                                         context.restart != nullptr && !context.restart->new_folder, prefixes);
  const bool talk = !context.quiet && dec.comm.is_root();
  const RunInfo info{name, c.precision(), c.layout(), ExecSpace::name(), config.resolved_yaml()};
  const std::string ranks = describe_ranks(dec);  // collective: every rank, though rank 0 prints
  if (talk) c.banner(ranks, out);

  // The solver allocates everything it uses in its constructor and initial
  // state, so the meter's peak at `started` is the run's footprint.
  std::optional<AllocationMeter> meter;
  if (c.measures_footprint) meter.emplace();
  typename Case::Physics physics(c.params, dec);
  SnapshotSeries series(out.dir, name, dec, info, out.folder);
  series.compress(out.compression);
  TimeLoop loop = TimeLoop::for_case(config, out, context.quiet, context.case_name, context.restart);
  c.prepare(loop, series);

  HooksFor<typename Case::Physics> hooks = c.hooks(physics, series, dec, out);
  hooks.history.every = out.history_every;
  hooks.history.path = out.dir + "/" + name + ".hst";
  if (meter)
    hooks.started = [&, started = std::move(hooks.started)] {
      c.bytes_per_cell = static_cast<double>(meter->peak_bytes()) / dec.block.owned_count();
      meter.reset();
      if (started) started();
    };
  const SolveTimings timings = run_time_loop(physics, loop, series, dec.comm, hooks);
  if (talk) c.summary(physics, timings, series);
  return exit_done;
}

// Calls f(Real{}, Layout{}) for the precision and layout a case asks for
// (fp32 or fp64; Kokkos::LayoutLeft or LayoutRight): the solvers' one
// dispatch from run-time keys to template arguments.
template <class F>
int with_precision_and_layout(bool fp32, bool layout_left, F&& f) {
  if (fp32) return layout_left ? f(float{}, Kokkos::LayoutLeft{}) : f(float{}, Kokkos::LayoutRight{});
  return layout_left ? f(double{}, Kokkos::LayoutLeft{}) : f(double{}, Kokkos::LayoutRight{});
}

}  // namespace cfd
