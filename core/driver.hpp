// The time loop every solver runs under (after AthenaK's src/driver/): steps
// or an end time landed on exactly, the time step agreed by all ranks,
// snapshots every N steps or at simulated times, a history file, progress
// lines, the check for a non-physical state, the timings, and the final
// snapshot. The solvers provide the physics:
//
//   void set_initial_state();
//   double stable_dt() const;        // the step all ranks take (reduced over
//                                    // ranks); <= 0 or NaN: not physical
//   void advance(double dt);
//   long step() const;  double time() const;
//   long updates_per_step() const;   // this rank's points or cells
//   std::vector<HostField<R>> fields() const;  // this block's owned entries
//   std::string fault() const;       // over all ranks: "" while the state is
//                                    // physical, else what is wrong and where
//   void release();                  // frees the device arrays
#pragma once

#include "core/decomposition.hpp"
#include "core/snapshot.hpp"
#include "core/timing.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cfd {

struct TimeLoop {
  long steps = 0;              // > 0: this many steps
  double end_time = 0;         // steps == 0: up to this time, the last step landing on it
  long output_every = 0;       // a snapshot every this many steps (0: none)
  double output_interval = 0;  // a snapshot every this much simulated time, landed on (0: none)
  long check_every = 0;        // ask the solver for faults every this many steps (0: only when dt fails)
  double time_unit = 1;        // solver time -> the time written to files and progress lines
  double progress_seconds = 5;
  bool quiet = false;

  // The cadence of the case's `output` section; the solver adds steps or end time.
  static TimeLoop with_output(const OutputSettings& out, bool quiet) {
    TimeLoop loop;
    loop.output_every = out.every;
    loop.progress_seconds = out.progress_seconds;
    loop.quiet = quiet;
    return loop;
  }
};

// A CSV row of totals every `every` steps, written by rank 0.
struct History {
  long every = 0;
  std::string path;
  std::string header;                        // comment and column names after step,time,dt
  std::function<std::vector<double>()> row;  // collective: the totals of all ranks
};

// The host fields a solver hands to snapshots: std::vector<HostField<R>>.
template <class Physics>
using FieldsOf = decltype(std::declval<const Physics&>().fields());

// What a solver adds to the loop; every function is called on every rank.
template <class Fields>
struct LoopHooks {
  History history;
  std::function<void()> started;  // after the initial state is set, before its snapshot
  // After the last step, with the final fields of this block as read back
  // for the last snapshot and before the device arrays are released: that
  // snapshot's extra attributes.
  std::function<Attributes(const Fields&)> closing;
};
template <class Physics>
using HooksFor = LoopHooks<FieldsOf<Physics>>;

// Runs the loop and writes the snapshots. Returns the timings.
template <class Physics>
SolveTimings run_time_loop(Physics& physics, const TimeLoop& loop, SnapshotSeries& series, const Comm& comm,
                           const HooksFor<Physics>& hooks = {}) {
  const History& history = hooks.history;
  SolveTimings timings;
  Stopwatch total;
  const bool root = comm.is_root();
  auto snapshot = [&](const Attributes& extra) {
    series.write(physics.step(), physics.time() * loop.time_unit, physics.fields(), extra);
  };

  std::unique_ptr<std::FILE, int (*)(std::FILE*)> hst(nullptr, std::fclose);
  if (history.every > 0 && root) {
    hst.reset(std::fopen(history.path.c_str(), "w"));
    if (!hst) throw std::runtime_error(history.path + ": cannot create the history file");
    std::fprintf(hst.get(), "%s", history.header.c_str());
  }
  auto history_row = [&](double dt) {
    if (history.every <= 0) return;
    const std::vector<double> totals = history.row();
    if (!root) return;
    std::fprintf(hst.get(), "%ld,%.16e,%.16e", physics.step(), physics.time() * loop.time_unit, dt * loop.time_unit);
    for (double v : totals) std::fprintf(hst.get(), ",%.16e", v);
    std::fprintf(hst.get(), "\n");
    std::fflush(hst.get());
  };
  // A non-physical state is written for diagnosis and ends the run on every rank.
  auto stop_if_faulty = [&](bool dt_failed) {
    std::string why = physics.fault();
    if (why.empty() && !dt_failed) return;
    if (why.empty()) why = "the time step is not positive at step " + std::to_string(physics.step());
    snapshot({});
    throw CollectiveError(why + "; the last state is in " + series.dir());
  };

  Stopwatch phase;
  physics.set_initial_state();
  Kokkos::fence();
  timings.h2d_s = phase.seconds();
  if (hooks.started) hooks.started();
  {
    Stopwatch io;
    snapshot({});
    history_row(0);
    timings.output_s += io.seconds();
  }

  const bool to_end_time = loop.steps <= 0;
  auto finished = [&] {
    return to_end_time ? physics.time() >= loop.end_time * (1 - 1e-14) : physics.step() >= loop.steps;
  };
  double next_output = loop.output_interval > 0 ? loop.output_interval : INFINITY;
  const long updates_per_step = comm.sum(physics.updates_per_step());
  Progress progress(loop.quiet || !root, loop.progress_seconds, to_end_time ? 1 : loop.steps, updates_per_step,
                    to_end_time ? loop.end_time * loop.time_unit : 0.0);
  double loop_output_s = 0, dt = 0;
  phase.restart();
  while (!finished()) {
    dt = physics.stable_dt();
    if (!(dt > 0) || !std::isfinite(dt)) stop_if_faulty(true);
    // Land on the end time and on output times exactly.
    if (to_end_time && physics.time() + dt > loop.end_time) dt = loop.end_time - physics.time();
    bool output_now = false;
    if (physics.time() + dt >= next_output * (1 - 1e-14)) {
      dt = next_output - physics.time();
      output_now = true;
    }
    physics.advance(dt);
    progress.update(physics.step(), physics.time() * loop.time_unit, dt * loop.time_unit);
    if (loop.check_every > 0 && physics.step() % loop.check_every == 0) stop_if_faulty(false);
    const bool last = finished();
    const bool every = loop.output_every > 0 && physics.step() % loop.output_every == 0;
    const bool row = history.every > 0 && physics.step() % history.every == 0;
    if (((output_now || every) && !last) || row) {
      Kokkos::fence();
      Stopwatch io;
      if ((output_now || every) && !last) snapshot({});
      if (row) history_row(dt);
      loop_output_s += io.seconds();
    }
    if (output_now) next_output += loop.output_interval;
  }
  Kokkos::fence();
  timings.loop_s = phase.seconds() - loop_output_s;
  timings.output_s += loop_output_s;
  timings.cell_updates = updates_per_step * physics.step();
  stop_if_faulty(false);
  if (history.every > 0 && physics.step() % history.every != 0) history_row(dt);
  hst.reset();

  // The end: the final state read back (D2H), the solver's closing work,
  // the device arrays freed (EXIT) and TOTAL closed (less the output time),
  // so that the last snapshot, written from the host copy, carries every
  // timing.
  phase.restart();
  const FieldsOf<Physics> final_fields = physics.fields();
  timings.d2h_s = phase.seconds();
  Attributes extra = hooks.closing ? hooks.closing(final_fields) : Attributes{};
  phase.restart();
  physics.release();
  Kokkos::fence();
  timings.exit_s = phase.seconds();
  timings.total_s = total.seconds() - timings.output_s;
  timings.take_slowest(comm);
  for (const auto& a : timings.attributes()) extra.push_back(a);
  series.write(physics.step(), physics.time() * loop.time_unit, final_fields, extra);
  return timings;
}

}  // namespace cfd
