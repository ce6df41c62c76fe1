#include "physics/diffusion/diffusion_run.hpp"

#include "core/driver.hpp"
#include "core/snapshot.hpp"
#include "core/text_field.hpp"
#include "physics/diffusion/diffusion_solver.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace cfd::diffusion {

namespace {

template <class Real, class Layout>
int run_case(const Config& config, const Params& p, const RunContext& context) {
  const Decomposition dec = decompose_case(config, make_grid(p), periodic);
  const OutputSettings out =
      open_output(config, context.case_name, dec.comm, context.restart != nullptr && !context.restart->new_folder);
  const bool talk = !context.quiet && dec.comm.is_root();
  const RunInfo info{"diffusion", name(p.precision), name(p.layout), ExecSpace::name(), config.resolved_yaml()};
  const std::string ranks = describe_ranks(dec);
  const bool implicit = p.scheme != Scheme::explicit_euler;
  if (talk) {
    std::printf("cfdrun diffusion: %ld x %ld points, %ld steps, %s, layout %s, iteration %s, variant %s, on %s\n", p.nx,
                p.ny, p.steps, name(p.precision), name(p.layout), name(p.order), name(p.variant), ExecSpace::name());
    std::printf("scheme %s, alpha %s, initial %s", name(p.scheme), format_real(p.alpha).c_str(), name(p.initial));
    if (implicit)
      std::printf(", conjugate gradients: operator %s, preconditioner %s, tolerance %s, at most %ld iterations",
                  name(p.implicit_operator), name(p.preconditioner), format_real(p.cg_tolerance).c_str(),
                  p.cg_max_iterations);
    std::printf("\n%soutput: %s\n", ranks.c_str(), out.dir.c_str());
  }

  Solver<Real, Layout> solver(p, dec);
  SnapshotSeries series(out.dir, "diffusion", dec, info, out.folder);
  series.compress(out.compression);
  series.set_grid_units("dx (point index)");
  TimeLoop loop = TimeLoop::for_case(config, out, context.quiet, context.case_name, context.restart);
  loop.steps = p.steps;
  double mass = 0, peak = 0;
  HooksFor<Solver<Real, Layout>> hooks;
  hooks.history.every = out.history_every;
  hooks.history.path = out.dir + "/diffusion.hst";
  hooks.history.header = implicit
                             ? "# cfdrun diffusion history: sum and maximum of u over the grid; conjugate-gradient "
                               "iterations and relative residual norm(r)/norm(b) of the step; time in dx^2/D\n"
                               "step,time,dt,total_u,max_u,cg_iterations,cg_residual\n"
                             : "# cfdrun diffusion history: sum and maximum of u over the grid; time in dx^2/D\n"
                               "step,time,dt,total_u,max_u\n";
  hooks.history.row = [&] {
    const auto t = solver.totals();
    std::vector<double> row{t.first, t.second};
    if (implicit) {
      row.push_back(static_cast<double>(solver.last_solve().iterations));
      row.push_back(solver.last_solve().relative_residual);
    }
    return row;
  };
  if (implicit)
    hooks.progress_note = [&] {
      char text[96];
      std::snprintf(text, sizeof text, "CG %ld it, |r|/|b| %.2e", solver.last_solve().iterations,
                    solver.last_solve().relative_residual);
      return std::string(text);
    };
  hooks.closing = [&](const std::vector<HostField<Real>>& final_fields) -> Attributes {
    // Sums over the blocks in rank order, so that every rank count gives the
    // same total.
    const std::vector<Real> u = series.gather(final_fields.front().values);
    mass = std::accumulate(u.begin(), u.end(), 0.0);
    peak = u.empty() ? 0.0 : static_cast<double>(*std::max_element(u.begin(), u.end()));
    if (config.get_bool("diffusion.text_output") && dec.comm.is_root()) {
      write_text_field(out.dir + "/diffusion_final.txt", p.nx, p.ny, std::vector<double>(u.begin(), u.end()));
      series.wrote(out.dir + "/diffusion_final.txt");
    }
    Attributes extra{{"total_u", mass}};
    if (implicit) extra.push_back({"cg_iterations_total", static_cast<double>(solver.total_iterations())});
    return extra;
  };
  const SolveTimings timings = run_time_loop(solver, loop, series, dec.comm, hooks);

  if (talk) {
    std::printf("done: step %ld, t = %.6g, sum(u) = %.17g, max(u) = %.6g\n", solver.step(), solver.time(), mass, peak);
    if (implicit)
      std::printf("conjugate gradients: %ld iterations in %ld steps (%.1f per step)\n", solver.total_iterations(),
                  solver.step(), solver.step() > 0 ? double(solver.total_iterations()) / solver.step() : 0.0);
    std::printf("%s\nwrote %s\n", timings.summary().c_str(), series.xdmf_path().c_str());
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
