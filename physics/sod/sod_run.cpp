#include "physics/sod/sod_run.hpp"

#include "core/run/run_solver.hpp"
#include "core/safe_files.hpp"
#include "physics/sod/sod_solver.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cfd::sod {

namespace {

const char* name(Scheme s) { return s == Scheme::keep ? "keep" : "hllc"; }
const char* name(StateLayout l) { return l == StateLayout::aos ? "aos" : "soa"; }
const char* name(Kernels k) { return k == Kernels::split ? "split" : "fused"; }

void write_text(const std::string& path, const Params& p, const Profiles& prof) {
  // The original's four columns in Sod units; its x is n*dx/Lx for n = 1..nx,
  // one node further than the node's own position.
  std::string text;
  char line[128];
  const bool sod = p.units == Units::sod;
  for (size_t k = 0; k < prof.rho.size(); ++k) {
    const double x = p.scheme == Scheme::keep ? (k + 1.0) / (p.nx - 1) : (k + 0.5) / p.nx;
    std::snprintf(line, sizeof line, "%.16e %.16e %.16e %.16e\n", x, sod ? prof.rho[k] : prof.rho[k] / p.rho_ref,
                  sod ? prof.u[k] : prof.u[k] / p.a(), sod ? prof.p[k] : prof.p[k] / p.p_ref());
    text += line;
  }
  files::write_file_atomically(path, text);
}

// What is sod's own in a run; core/run/run_solver.hpp does the rest.
template <class Real, class Layout>
struct Case : CaseRun {
  using Physics = Solver<Real, Layout>;
  static constexpr const char* solver_name = "sod";
  const Params& params;
  std::pair<double, double> start{0, 0}, end{0, 0};  // interior mass and energy

  explicit Case(const Params& p) : params(p) {}
  GridBlock grid() const { return make_grid(params); }
  std::array<bool, 3> periodic() const { return sod::periodic(params); }
  std::string precision() const { return params.fp32 ? "fp32" : "fp64"; }
  std::string layout() const { return sod::name(params.layout); }

  void banner(const std::string& ranks, const OutputSettings& out) const {
    const Params& p = params;
    std::printf(
        "cfdrun sod: %ld %s, scheme %s, layout %s, kernels %s, %s, on %s; Lx = %.6g m, a = %.6g m/s\n%soutput: %s\n",
        p.nx, p.scheme == Scheme::keep ? "nodes" : "cells", name(p.scheme), name(p.layout), name(p.kernels),
        precision().c_str(), ExecSpace::name(), p.length(), p.a(), ranks.c_str(), out.dir.c_str());
  }

  void prepare(TimeLoop& loop, SnapshotSeries& series) const {
    series.set_grid_units(params.units == Units::sod ? "Lx (the tube's length)" : "m");
    loop.steps = params.steps;
    loop.end_time = params.end_time;
    // The central KEEP scheme can blow up without viscosity; stop at the
    // first sign instead of running on in NaNs.
    if (loop.check_every == 0) loop.check_every = 100;
    loop.time_unit = params.units == Units::sod ? 1.0 : params.length() / params.a();
  }

  HooksFor<Physics> hooks(Physics& solver, SnapshotSeries& series, const Decomposition& dec,
                          const OutputSettings& out) {
    HooksFor<Physics> h;
    h.history.header =
        "# cfdrun sod history: sums over the nodes (keep: 2..nx-1) or cells the scheme updates, SI units; time and "
        "dt in the output's units\nstep,time,dt,interior_mass,interior_energy\n";
    h.history.row = [&solver] {
      const auto t = solver.interior_totals();
      return std::vector<double>{t.first, t.second};
    };
    h.started = [this, &solver] { start = solver.interior_totals(); };
    h.closing = [this, &solver, &series, &dec,
                 dir = out.dir](const std::vector<HostField<double>>& final_fields) -> Attributes {
      end = solver.interior_totals();
      if (params.text_output) {  // from the final fields (rho, u, p, T) of all blocks
        Profiles prof;
        prof.rho = series.gather(final_fields[0].values);
        prof.u = series.gather(final_fields[1].values);
        prof.p = series.gather(final_fields[2].values);
        if (dec.comm.is_root()) {
          series.claim(dir + "/sod_final.txt");  // a user's file, a pipe or a folder there is refused
          write_text(dir + "/sod_final.txt", params, prof);
          series.wrote(dir + "/sod_final.txt");
        }
      }
      return {{"interior_mass_change", (end.first - start.first) / start.first},
              {"interior_energy_change", (end.second - start.second) / start.second}};
    };
    return h;
  }

  void summary(const Physics& solver, const SolveTimings& timings, const SnapshotSeries& series) const {
    std::printf(
        "done: step %ld, t = %.15g (Sod units)\ninterior mass change %.3e, energy change %.3e (relative)\n%s\nwrote "
        "%s\n",
        solver.step(), solver.time(), (end.first - start.first) / start.first,
        (end.second - start.second) / start.second, timings.summary().c_str(), series.xdmf_path().c_str());
  }
};

}  // namespace

int run(const Config& config, const RunContext& context) {
  const Params p = params(config);
  // aos: (rho, m, E) of a node together, LayoutRight; soa: LayoutLeft.
  return with_precision_and_layout(p.fp32, p.layout == StateLayout::soa, [&](auto real, auto layout) {
    Case<decltype(real), decltype(layout)> c(p);
    return run_solver(config, context, c);
  });
}

}  // namespace cfd::sod
