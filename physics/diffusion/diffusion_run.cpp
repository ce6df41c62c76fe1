#include "physics/diffusion/diffusion_run.hpp"

#include "core/snapshot.hpp"
#include "core/text_field.hpp"
#include "core/timing.hpp"
#include "physics/diffusion/diffusion_solver.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace cfd::diffusion {

namespace {

template <class Real, class Layout>
int run_case(const Config& config, const Params& p, const RunContext& context) {
  const OutputSettings out = open_output(config, context.case_name);

  const RunInfo info{"diffusion", name(p.precision), name(p.layout), ExecSpace::name(), config.resolved_yaml()};
  if (!context.quiet)
    std::printf(
        "cfdrun diffusion: %ld x %ld points, %ld steps, %s, layout %s, iteration %s, variant %s, on %s\n"
        "output: %s\n",
        p.nx, p.ny, p.steps, name(p.precision), name(p.layout), name(p.order), name(p.variant), ExecSpace::name(),
        out.dir.c_str());

  SolveTimings timings;
  Stopwatch total;
  Solver<Real, Layout> solver(p);
  SnapshotSeries series(out.dir, "diffusion", solver.grid(), info);
  auto snapshot = [&](const std::vector<Real>& u, const Attributes& extra) {
    return series.write<Real>(solver.step(), solver.time(), {{"u", u}}, extra);
  };

  Stopwatch phase;
  solver.set_initial_state();
  Kokkos::fence();
  timings.h2d_s = phase.seconds();
  {
    Stopwatch io;
    snapshot(solver.to_host(), {});
    timings.output_s += io.seconds();
  }

  Progress progress(context.quiet, out.progress_seconds, p.steps, solver.updates_per_step());
  double loop_output_s = 0;
  phase.restart();
  for (long s = 1; s <= p.steps; ++s) {
    solver.advance(1);
    progress.update(s, solver.time(), p.alpha);
    if (out.every > 0 && s % out.every == 0 && s != p.steps) {
      Kokkos::fence();
      Stopwatch io;
      snapshot(solver.to_host(), {});
      loop_output_s += io.seconds();
    }
  }
  Kokkos::fence();
  timings.loop_s = phase.seconds() - loop_output_s;
  timings.output_s += loop_output_s;
  timings.cell_updates = solver.updates_per_step() * p.steps;

  const std::vector<Real> final_u = read_back_and_release(solver, timings, total, [&] { return solver.to_host(); });

  // The solver's fields are gone; the last snapshot is written from the host copy.
  const double mass = std::accumulate(final_u.begin(), final_u.end(), 0.0);
  const double peak = *std::max_element(final_u.begin(), final_u.end());
  Attributes extra = timings.attributes();
  extra.push_back({"total_u", mass});
  series.write<Real>(solver.step(), solver.time(), {{"u", final_u}}, extra);
  if (config.get_bool("diffusion.text_output")) {
    write_text_field(out.dir + "/diffusion_final.txt", p.nx, p.ny, std::vector<double>(final_u.begin(), final_u.end()));
  }

  if (!context.quiet) {
    std::printf("done: step %ld, t = %.6g, sum(u) = %.17g, max(u) = %.6g\n%s\nwrote %s\n", solver.step(), solver.time(),
                mass, peak, timings.summary().c_str(), series.xdmf_path().c_str());
  }
  return 0;
}

}  // namespace

int run(const Config& config, const RunContext& context) {
  const Params p = params(config);
  using L = Kokkos::LayoutLeft;
  using R = Kokkos::LayoutRight;
  if (p.precision == Precision::fp32)
    return p.layout == Layout::left ? run_case<float, L>(config, p, context) : run_case<float, R>(config, p, context);
  return p.layout == Layout::left ? run_case<double, L>(config, p, context) : run_case<double, R>(config, p, context);
}

}  // namespace cfd::diffusion
