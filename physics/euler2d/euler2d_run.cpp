#include "physics/euler2d/euler2d_run.hpp"

#include "core/memory_meter.hpp"
#include "core/snapshot.hpp"
#include "core/timing.hpp"
#include "physics/euler2d/euler2d_solver.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace cfd::euler2d {

namespace {

template <class Real>
int run_case(const Config& config, const Params& p, const RunContext& context) {
  const OutputSettings out = open_output(config, context.case_name);
  const RunInfo info{"euler2d", p.fp32 ? "fp32" : "fp64", "right", ExecSpace::name(), config.resolved_yaml()};
  if (!context.quiet)
    std::printf("cfdrun euler2d: %s, %ld x %ld cells, %s, %s, %s, %s, cfl %g, on %s\noutput: %s\n", name(p.problem),
                p.nx, p.ny, config.get_string("euler2d.reconstruction").c_str(),
                config.get_string("euler2d.riemann").c_str(), config.get_string("euler2d.integrator").c_str(),
                info.precision.c_str(), p.cfl, ExecSpace::name(), out.dir.c_str());

  SolveTimings timings;
  Stopwatch total;
  // The device footprint, from Kokkos' allocation events over the set-up
  // (the solver allocates everything it uses there).
  std::optional<AllocationMeter> meter(std::in_place);
  Solver<Real> solver(p);
  SnapshotSeries series(out.dir, "euler2d", solver.grid(), info);
  auto snapshot = [&](const std::vector<std::vector<Real>>& f, const Attributes& extra) {
    return series.write<Real>(solver.step(), solver.time(),
                              {{"rho", f[0]}, {"vx", f[1]}, {"vy", f[2]}, {"vz", f[3]}, {"p", f[4]}}, extra);
  };

  // History: a CSV row every history_every steps.
  std::FILE* hst = nullptr;
  const std::string hst_path = out.dir + "/" + context.case_name + ".hst";
  if (p.history_every > 0) {
    hst = std::fopen(hst_path.c_str(), "w");
    if (!hst) throw std::runtime_error(hst_path + ": cannot create");
    std::fprintf(hst, "# cfdrun euler2d history: totals over the box (sum of value * cell area)\n");
    std::fprintf(hst, "step,time,dt,mass,mom_x,mom_y,energy,kh_mode_amplitude\n");
  }
  auto history = [&](double dt) {
    if (!hst) return;
    const Totals t = solver.totals();
    std::fprintf(hst, "%ld,%.16e,%.16e,%.16e,%.16e,%.16e,%.16e,%.16e\n", solver.step(), solver.time(), dt, t.mass,
                 t.mom_x, t.mom_y, t.energy, t.kh_mode);
    std::fflush(hst);
  };

  Stopwatch phase;
  solver.set_initial_state();
  Kokkos::fence();
  timings.h2d_s = phase.seconds();
  const double bytes_per_cell = static_cast<double>(meter->peak_bytes()) / solver.cells();
  meter.reset();
  const Totals start = solver.totals();
  {
    Stopwatch io;
    snapshot(solver.fields(), {});
    history(0);
    timings.output_s += io.seconds();
  }

  double next_output = p.output_interval > 0 ? p.output_interval : INFINITY;
  const long planned = p.steps > 0 ? p.steps : 0;
  Progress progress(context.quiet, out.progress_seconds, planned > 0 ? planned : 1, solver.cells(),
                    p.steps > 0 ? 0.0 : p.end_time);
  double loop_output_s = 0;
  phase.restart();
  while (true) {
    if (p.steps > 0 && solver.step() >= p.steps) break;
    if (p.steps == 0 && solver.time() >= p.end_time * (1 - 1e-14)) break;
    double dt = solver.stable_dt();
    if (!(dt > 0) || !std::isfinite(dt)) {
      const auto [i, j] = solver.bad_cell();
      snapshot(solver.fields(), {});
      if (hst) std::fclose(hst);
      throw std::runtime_error("non-physical state (density or pressure not positive, or NaN) at step " +
                               std::to_string(solver.step()) + ", t = " + std::to_string(solver.time()) +
                               ", cell (i, j) = (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                               "); the last state is in " + out.dir);
    }
    bool output_now = false;
    if (p.steps == 0 && solver.time() + dt > p.end_time) dt = p.end_time - solver.time();
    if (solver.time() + dt >= next_output * (1 - 1e-14)) {
      dt = next_output - solver.time();
      output_now = true;
    }
    solver.advance(dt);
    progress.update(solver.step(), solver.time(), dt);
    const bool last =
        (p.steps > 0 && solver.step() >= p.steps) || (p.steps == 0 && solver.time() >= p.end_time * (1 - 1e-14));
    if ((output_now && !last) || (p.history_every > 0 && solver.step() % p.history_every == 0)) {
      Kokkos::fence();
      Stopwatch io;
      if (output_now && !last) snapshot(solver.fields(), {});
      if (p.history_every > 0 && solver.step() % p.history_every == 0) history(dt);
      loop_output_s += io.seconds();
    }
    if (output_now) next_output += p.output_interval;
  }
  Kokkos::fence();
  timings.loop_s = phase.seconds() - loop_output_s;
  timings.output_s += loop_output_s;
  timings.cell_updates = solver.cells() * solver.step();
  const Totals end = solver.totals();
  if (hst && solver.step() % p.history_every != 0) history(0);
  if (hst) std::fclose(hst);

  const std::vector<std::vector<Real>> final_fields =
      read_back_and_release(solver, timings, total, [&] { return solver.fields(); });
  Attributes extra = timings.attributes();
  extra.push_back({"mass_change", (end.mass - start.mass) / start.mass});
  extra.push_back({"energy_change", (end.energy - start.energy) / start.energy});
  extra.push_back({"bytes_per_cell", bytes_per_cell});
  snapshot(final_fields, extra);
  if (!context.quiet)
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
