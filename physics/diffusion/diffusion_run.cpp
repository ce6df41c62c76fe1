#include "physics/diffusion/diffusion_run.hpp"

#include "core/run/run_solver.hpp"
#include "core/text_field.hpp"
#include "physics/diffusion/diffusion_solver.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace cfd::diffusion {

namespace {

// What is diffusion's own in a run; core/run/run_solver.hpp does the rest.
template <class Real, class Layout>
struct Case : CaseRun {
  using Physics = Solver<Real, Layout>;
  static constexpr const char* solver_name = "diffusion";
  const Config& config;
  const Params& params;
  const bool implicit;
  double mass = 0, peak = 0;  // sum and maximum of the final u

  Case(const Config& c, const Params& p) : config(c), params(p), implicit(p.scheme != Scheme::explicit_euler) {}
  GridBlock grid() const { return make_grid(params); }
  std::array<bool, 3> periodic() const { return diffusion::periodic; }
  std::string precision() const { return name(params.precision); }
  std::string layout() const { return name(params.layout); }

  void banner(const std::string& ranks, const OutputSettings& out) const {
    const Params& p = params;
    std::printf("cfdrun diffusion: %ld x %ld points, %ld steps, %s, layout %s, iteration %s, variant %s, on %s\n", p.nx,
                p.ny, p.steps, name(p.precision), name(p.layout), name(p.order), name(p.variant), ExecSpace::name());
    std::printf("scheme %s, alpha %s, initial %s", name(p.scheme), format_real(p.alpha).c_str(), p.problem->name);
    if (implicit)
      std::printf(", conjugate gradients: operator %s, preconditioner %s, tolerance %s, at most %ld iterations",
                  name(p.implicit_operator), name(p.preconditioner), format_real(p.cg_tolerance).c_str(),
                  p.cg_max_iterations);
    std::printf("\n%soutput: %s\n", ranks.c_str(), out.dir.c_str());
  }

  void prepare(TimeLoop& loop, SnapshotSeries& series) const {
    series.set_grid_units("dx (point index)");
    loop.steps = params.steps;
  }

  HooksFor<Physics> hooks(Physics& solver, SnapshotSeries& series, const Decomposition& dec,
                          const OutputSettings& out) {
    HooksFor<Physics> h;
    h.history.header = implicit ? "# cfdrun diffusion history: sum and maximum of u over the grid; conjugate-gradient "
                                  "iterations and relative residual norm(r)/norm(b) of the step; time in dx^2/D\n"
                                  "step,time,dt,total_u,max_u,cg_iterations,cg_residual\n"
                                : "# cfdrun diffusion history: sum and maximum of u over the grid; time in dx^2/D\n"
                                  "step,time,dt,total_u,max_u\n";
    h.history.row = [this, &solver] {
      const auto t = solver.totals();
      std::vector<double> row{t.first, t.second};
      if (implicit) {
        row.push_back(static_cast<double>(solver.last_solve().iterations));
        row.push_back(solver.last_solve().relative_residual);
      }
      return row;
    };
    if (implicit)
      h.progress_note = [&solver] {
        char text[96];
        std::snprintf(text, sizeof text, "CG %ld it, |r|/|b| %.2e", solver.last_solve().iterations,
                      solver.last_solve().relative_residual);
        return std::string(text);
      };
    h.closing = [this, &solver, &series, &dec,
                 dir = out.dir](const std::vector<HostField<Real>>& final_fields) -> Attributes {
      // Sums over the blocks in rank order, so that every rank count gives
      // the same total.
      const std::vector<Real> u = series.gather(final_fields.front().values);
      mass = std::accumulate(u.begin(), u.end(), 0.0);
      peak = u.empty() ? 0.0 : static_cast<double>(*std::max_element(u.begin(), u.end()));
      if (config.get_bool("diffusion.text_output") && dec.comm.is_root()) {
        series.claim(dir + "/diffusion_final.txt");  // a user's file, a pipe or a folder there is refused
        write_text_field(dir + "/diffusion_final.txt", params.nx, params.ny, std::vector<double>(u.begin(), u.end()));
        series.wrote(dir + "/diffusion_final.txt");
      }
      Attributes extra{{"total_u", mass}};
      if (implicit) extra.push_back({"cg_iterations_total", static_cast<double>(solver.total_iterations())});
      return extra;
    };
    return h;
  }

  void summary(const Physics& solver, const SolveTimings& timings, const SnapshotSeries& series) const {
    std::printf("done: step %ld, t = %.6g, sum(u) = %.17g, max(u) = %.6g\n", solver.step(), solver.time(), mass, peak);
    if (implicit)
      std::printf("conjugate gradients: %ld iterations in %ld steps (%.1f per step)\n", solver.total_iterations(),
                  solver.step(), solver.step() > 0 ? double(solver.total_iterations()) / solver.step() : 0.0);
    std::printf("%s\nwrote %s\n", timings.summary().c_str(), series.xdmf_path().c_str());
  }
};

}  // namespace

int run(const Config& config, const RunContext& context) {
  const Params p = params(config);
  return with_precision_and_layout(p.precision == Precision::fp32, p.layout == Layout::left,
                                   [&](auto real, auto layout) {
                                     Case<decltype(real), decltype(layout)> c(config, p);
                                     return run_solver(config, context, c);
                                   });
}

}  // namespace cfd::diffusion
