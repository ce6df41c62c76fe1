#include "physics/sod/sod_run.hpp"

#include "core/snapshot.hpp"
#include "core/timing.hpp"
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
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) throw std::runtime_error(tmp + ": cannot create");
  const bool sod = p.units == Units::sod;
  for (size_t k = 0; k < prof.x.size(); ++k) {
    const double x = p.scheme == Scheme::keep ? (k + 1.0) / (p.nx - 1) : (k + 0.5) / p.nx;
    std::fprintf(f, "%.16e %.16e %.16e %.16e\n", x, sod ? prof.rho[k] : prof.rho[k] / p.rho_ref,
                 sod ? prof.u[k] : prof.u[k] / p.a(), sod ? prof.p[k] : prof.p[k] / p.p_ref());
  }
  const bool ok = std::ferror(f) == 0;
  if (std::fclose(f) != 0 || !ok) throw std::runtime_error(tmp + ": write failed");
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error(path + ": cannot rename into place");
}

template <class Real, class Layout>
int run_case(const Config& config, const Params& p, const RunContext& context) {
  const OutputSettings out = open_output(config, context.case_name);
  const RunInfo info{"sod", p.fp32 ? "fp32" : "fp64", name(p.layout), ExecSpace::name(), config.resolved_yaml()};
  if (!context.quiet)
    std::printf(
        "cfdrun sod: %ld %s, scheme %s, layout %s, kernels %s, %s, on %s; Lx = %.6g m, a = %.6g m/s\noutput: %s\n",
        p.nx, p.scheme == Scheme::keep ? "nodes" : "cells", name(p.scheme), name(p.layout), name(p.kernels),
        info.precision.c_str(), ExecSpace::name(), p.length(), p.a(), out.dir.c_str());

  SolveTimings timings;
  Stopwatch total;
  Solver<Real, Layout> solver(p);
  SnapshotSeries series(out.dir, "sod", solver.grid(), info);
  const bool sod_units = p.units == Units::sod;
  const double time_unit = sod_units ? 1.0 : p.length() / p.a();
  // Writes the profiles; a non-physical state is written first, for
  // diagnosis, and then stops the run.
  auto snapshot = [&](const Profiles& prof, const Attributes& extra) {
    series.write<double>(solver.step(), solver.time() * time_unit,
                         {{"rho", prof.rho}, {"u", prof.u}, {"p", prof.p}, {"T", prof.T}}, extra);
    for (size_t k = 0; k < prof.rho.size(); ++k)
      if (!std::isfinite(prof.rho[k]) || !std::isfinite(prof.p[k]) || !(prof.rho[k] > 0) || !(prof.p[k] > 0))
        throw std::runtime_error("non-physical state (density " + std::to_string(prof.rho[k]) + ", pressure " +
                                 std::to_string(prof.p[k]) + ") at step " + std::to_string(solver.step()) + ", node " +
                                 std::to_string(k + 1) + "; the last state is in " + out.dir);
  };

  Stopwatch phase;
  solver.set_initial_state();
  Kokkos::fence();
  timings.h2d_s = phase.seconds();
  const auto [mass0, energy0] = solver.interior_totals();
  {
    Stopwatch io;
    snapshot(solver.profiles(), {});
    timings.output_s += io.seconds();
  }

  const long planned = p.steps > 0 ? p.steps : static_cast<long>(std::ceil(p.end_time / solver.stable_dt()));
  Progress progress(context.quiet, out.progress_seconds, planned, solver.updates_per_step(),
                    p.steps > 0 ? 0.0 : p.end_time);
  double loop_output_s = 0;
  phase.restart();
  while (true) {
    if (p.steps > 0 && solver.step() >= p.steps) break;
    double dt = solver.stable_dt();
    if (p.steps == 0) {
      const double left = p.end_time - solver.time();
      if (left <= 1e-12 * p.end_time) break;
      if (dt > left) dt = left;
    }
    if (!std::isfinite(dt) || !(dt > 0)) {
      snapshot(solver.profiles(), {});
      throw std::runtime_error("the time step became " + std::to_string(dt) + " at step " +
                               std::to_string(solver.step()) + " (a NaN or a non-physical state)");
    }
    solver.advance(dt);
    // The central KEEP scheme can blow up without viscosity; stop at the
    // first sign instead of running on in NaNs.
    if (solver.step() % 100 == 0) {
      const auto [m, e] = solver.interior_totals();
      if (!std::isfinite(m) || !std::isfinite(e)) snapshot(solver.profiles(), {});
    }
    progress.update(solver.step(), solver.time() * time_unit, dt * time_unit);
    if (out.every > 0 && solver.step() % out.every == 0 && !(p.steps > 0 && solver.step() == p.steps)) {
      Kokkos::fence();
      Stopwatch io;
      snapshot(solver.profiles(), {});
      loop_output_s += io.seconds();
    }
  }
  Kokkos::fence();
  timings.loop_s = phase.seconds() - loop_output_s;
  timings.output_s += loop_output_s;
  timings.cell_updates = solver.updates_per_step() * solver.step();
  const auto [mass1, energy1] = solver.interior_totals();

  Attributes extra;
  extra.push_back({"interior_mass_change", (mass1 - mass0) / mass0});
  extra.push_back({"interior_energy_change", (energy1 - energy0) / energy0});
  const Profiles final_profiles = read_back_and_release(solver, timings, total, [&] { return solver.profiles(); });
  for (const auto& a : timings.attributes()) extra.push_back(a);
  snapshot(final_profiles, extra);
  if (p.text_output) write_text(out.dir + "/sod_final.txt", p, final_profiles);

  if (!context.quiet)
    std::printf(
        "done: step %ld, t = %.15g (Sod units)\ninterior mass change %.3e, energy change %.3e (relative)\n%s\nwrote "
        "%s\n",
        solver.step(), solver.time(), (mass1 - mass0) / mass0, (energy1 - energy0) / energy0, timings.summary().c_str(),
        series.xdmf_path().c_str());
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
