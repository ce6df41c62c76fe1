#include "physics/euler2d/euler2d_run.hpp"

#include "core/driver.hpp"
#include "core/memory_meter.hpp"
#include "core/snapshot.hpp"
#include "physics/euler2d/euler2d_solver.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace cfd::euler2d {

namespace {

template <class Real>
int run_case(const Config& config, const Params& p, const RunContext& context) {
  const Decomposition dec = decompose_case(config, make_grid(p), periodic(p));
  const OutputSettings out = open_output(config, context.case_name, dec.comm, context.restart != nullptr);
  const bool talk = !context.quiet && dec.comm.is_root();
  const RunInfo info{"euler2d", p.fp32 ? "fp32" : "fp64", "right", ExecSpace::name(), config.resolved_yaml()};
  const std::string ranks = describe_ranks(dec);
  if (talk)
    std::printf("cfdrun euler2d: %s, %ld x %ld cells, %s, %s, %s, %s, cfl %g, on %s\n%soutput: %s\n", name(p.problem),
                p.nx, p.ny, config.get_string("euler2d.reconstruction").c_str(),
                config.get_string("euler2d.riemann").c_str(), config.get_string("euler2d.integrator").c_str(),
                info.precision.c_str(), p.cfl, ExecSpace::name(), ranks.c_str(), out.dir.c_str());

  // The device footprint of this rank, from Kokkos' allocation events over
  // the set-up (the solver allocates everything it uses there).
  std::optional<AllocationMeter> meter(std::in_place);
  Solver<Real> solver(p, dec);
  SnapshotSeries series(out.dir, "euler2d", dec, info, out.folder);
  TimeLoop loop = TimeLoop::for_case(config, out, context.quiet, context.case_name, context.restart);
  loop.steps = p.steps;
  loop.end_time = p.end_time;
  loop.output_interval = p.output_interval;

  Totals start, end;
  double bytes_per_cell = 0;
  HooksFor<Solver<Real>> hooks;
  hooks.history.every = out.history_every;
  hooks.history.path = out.dir + "/euler2d.hst";
  hooks.history.header =
      "# cfdrun euler2d history: totals over the box (sum of value * cell area)\n"
      "step,time,dt,mass,mom_x,mom_y,energy,kh_mode_amplitude\n";
  hooks.history.row = [&] {
    const Totals t = solver.totals();
    return std::vector<double>{t.mass, t.mom_x, t.mom_y, t.energy, t.kh_mode};
  };
  hooks.started = [&] {
    bytes_per_cell = static_cast<double>(meter->peak_bytes()) / dec.block.owned_count();
    meter.reset();
    start = solver.totals();
  };
  hooks.closing = [&](const std::vector<HostField<Real>>&) -> Attributes {
    end = solver.totals();
    return {{"mass_change", (end.mass - start.mass) / start.mass},
            {"energy_change", (end.energy - start.energy) / start.energy},
            {"bytes_per_cell", bytes_per_cell}};
  };
  const SolveTimings timings = run_time_loop(solver, loop, series, dec.comm, hooks);

  if (talk)
    std::printf(
        "done: step %ld, t = %.10g\nmass change %.3e, energy change %.3e (relative); %.0f bytes per cell on the "
        "device\n"
        "%s\nwrote %s\n",
        solver.step(), solver.time(), (end.mass - start.mass) / start.mass, (end.energy - start.energy) / start.energy,
        bytes_per_cell, timings.summary().c_str(), series.xdmf_path().c_str());
  return 0;
}

}  // namespace

int run(const Config& config, const RunContext& context) {
  const Params p = params(config);
  return p.fp32 ? run_case<float>(config, p, context) : run_case<double>(config, p, context);
}

}  // namespace cfd::euler2d
