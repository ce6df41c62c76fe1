#include "physics/sod/sod_run.hpp"

#include "core/driver.hpp"
#include "core/safe_files.hpp"
#include "core/snapshot.hpp"
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

template <class Real, class Layout>
int run_case(const Config& config, const Params& p, const RunContext& context) {
  const Decomposition dec = decompose_case(config, make_grid(p), periodic(p));
  const OutputSettings out =
      open_output(config, context.case_name, dec.comm, context.restart != nullptr && !context.restart->new_folder);
  const bool talk = !context.quiet && dec.comm.is_root();
  const RunInfo info{"sod", p.fp32 ? "fp32" : "fp64", name(p.layout), ExecSpace::name(), config.resolved_yaml()};
  const std::string ranks = describe_ranks(dec);
  if (talk)
    std::printf(
        "cfdrun sod: %ld %s, scheme %s, layout %s, kernels %s, %s, on %s; Lx = %.6g m, a = %.6g m/s\n%soutput: %s\n",
        p.nx, p.scheme == Scheme::keep ? "nodes" : "cells", name(p.scheme), name(p.layout), name(p.kernels),
        info.precision.c_str(), ExecSpace::name(), p.length(), p.a(), ranks.c_str(), out.dir.c_str());

  Solver<Real, Layout> solver(p, dec);
  SnapshotSeries series(out.dir, "sod", dec, info, out.folder);
  series.compress(out.compression);
  series.set_grid_units(p.units == Units::sod ? "Lx (the tube's length)" : "m");
  TimeLoop loop = TimeLoop::for_case(config, out, context.quiet, context.case_name, context.restart);
  loop.steps = p.steps;
  loop.end_time = p.end_time;
  // The central KEEP scheme can blow up without viscosity; stop at the
  // first sign instead of running on in NaNs.
  if (loop.check_every == 0) loop.check_every = 100;
  loop.time_unit = p.units == Units::sod ? 1.0 : p.length() / p.a();

  std::pair<double, double> start{0, 0}, end{0, 0};
  HooksFor<Solver<Real, Layout>> hooks;
  hooks.history.every = out.history_every;
  hooks.history.path = out.dir + "/sod.hst";
  hooks.history.header =
      "# cfdrun sod history: sums over the nodes (keep: 2..nx-1) or cells the scheme updates, SI units; time and dt "
      "in the output's units\nstep,time,dt,interior_mass,interior_energy\n";
  hooks.history.row = [&] {
    const auto t = solver.interior_totals();
    return std::vector<double>{t.first, t.second};
  };
  hooks.started = [&] { start = solver.interior_totals(); };
  hooks.closing = [&](const std::vector<HostField<double>>& final_fields) -> Attributes {
    end = solver.interior_totals();
    if (p.text_output) {  // from the final fields (rho, u, p, T) of all blocks
      Profiles prof;
      prof.rho = series.gather(final_fields[0].values);
      prof.u = series.gather(final_fields[1].values);
      prof.p = series.gather(final_fields[2].values);
      if (dec.comm.is_root()) {
        write_text(out.dir + "/sod_final.txt", p, prof);
        series.wrote(out.dir + "/sod_final.txt");
      }
    }
    return {{"interior_mass_change", (end.first - start.first) / start.first},
            {"interior_energy_change", (end.second - start.second) / start.second}};
  };
  const SolveTimings timings = run_time_loop(solver, loop, series, dec.comm, hooks);

  if (talk)
    std::printf(
        "done: step %ld, t = %.15g (Sod units)\ninterior mass change %.3e, energy change %.3e (relative)\n%s\nwrote "
        "%s\n",
        solver.step(), solver.time(), (end.first - start.first) / start.first,
        (end.second - start.second) / start.second, timings.summary().c_str(), series.xdmf_path().c_str());
  return 0;
}

}  // namespace

int run(const Config& config, const RunContext& context) {
  const Params p = params(config);
  using AoS = Kokkos::LayoutRight;
  using SoA = Kokkos::LayoutLeft;
  const bool aos = p.layout == StateLayout::aos;
  if (p.fp32) return aos ? run_case<float, AoS>(config, p, context) : run_case<float, SoA>(config, p, context);
  return aos ? run_case<double, AoS>(config, p, context) : run_case<double, SoA>(config, p, context);
}

}  // namespace cfd::sod
