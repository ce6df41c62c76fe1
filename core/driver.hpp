// The time loop every solver runs under (after AthenaK's src/driver/): steps
// or an end time landed on exactly, the time step agreed by all ranks,
// snapshots every N steps or at simulated times, a history file, progress
// lines, checkpoints and the restart from one, stops asked for by a signal
// or the wall-time limit, the checks for a non-physical state, the timings,
// and the final snapshot. The solvers provide the physics:
//
//   void set_initial_state();
//   double stable_dt() const;        // this rank's bound on the step (the loop
//                                    // takes the minimum over ranks); <= 0 or
//                                    // NaN: a cell is not physical
//   void advance(double dt);
//   void land_on(double time);       // the step just taken ended at `time` exactly
//   long step() const;  double time() const;
//   long updates_per_step() const;   // this rank's points or cells
//   std::vector<HostField<R>> fields() const;  // this block's owned entries
//   std::string fault() const;       // over all ranks: "" while the state is
//                                    // physical, else what is wrong and where
//   std::vector<HostField<S>> state() const;   // the working state to
//                                    // continue from, owned entries
//   Attributes clock() const;        // step, time and any other counter
//   void restore(const std::vector<HostField<S>>& state, const Attributes& clock);
//   void release();                  // frees the device arrays
//
// A solver whose steps can be taken several at once (diffusion's fused
// steps) also provides `int fused_steps() const` (how many it takes best in
// one call) and `void advance_steps(long n)`; the loop then hands it up to
// that many steps at a time, never past a step at which it has something to
// do (a snapshot, history row, state check or checkpoint, the last step).
#pragma once

#include "core/checkpoint.hpp"
#include "core/decomposition.hpp"
#include "core/job_control.hpp"
#include "core/run/checkpoint_keeper.hpp"
#include "core/run/history_file.hpp"
#include "core/run/schedule.hpp"
#include "core/run/stop_requests.hpp"
#include "core/snapshot.hpp"
#include "core/timing.hpp"

#include <unistd.h>
#include <algorithm>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cfd {

struct TimeLoop {
  long steps = 0;              // > 0: this many steps
  double end_time = 0;         // steps == 0: up to this time, the last step landing on it
  long output_every = 0;       // a snapshot every this many steps (0: none)
  double output_interval = 0;  // a snapshot every this much simulated time, landed on (0: none)
  long check_every = 0;        // ask the solver for faults every this many steps (0: only when dt fails)
  double dt_floor = 0;         // a stable dt below this fraction of the first step's is a fault
  double time_unit = 1;        // solver time -> the time written to files and progress lines
  double progress_seconds = 5;
  bool quiet = false;
  // Checkpoints (never change the steps taken: a run with them gives the
  // bits of a run without).
  long checkpoint_every = 0;
  double checkpoint_interval = 0;  // in the time of files (time_unit applied)
  double checkpoint_wall_seconds = 0;
  long checkpoint_keep = 0;
  bool checkpoint_at_end = true;
  double wall_time = 0;  // stop with a checkpoint before this many seconds since cfdrun started
  std::string case_name;
  const CheckpointHeader* restart = nullptr;  // continue from this checkpoint

  // The cadence of the case's `output` and `run` sections; the solver adds
  // steps or end time.
  static TimeLoop for_case(const Config& config, const OutputSettings& out, bool quiet, const std::string& case_name,
                           const CheckpointHeader* restart) {
    TimeLoop loop;
    loop.output_every = out.every;
    loop.progress_seconds = out.progress_seconds;
    loop.quiet = quiet;
    loop.checkpoint_every = out.checkpoint_every;
    loop.checkpoint_interval = out.checkpoint_interval;
    loop.checkpoint_wall_seconds = out.checkpoint_wall_seconds;
    loop.checkpoint_keep = out.checkpoint_keep;
    loop.checkpoint_at_end = out.checkpoint_at_end;
    const RunSettings run = run_settings(config);
    loop.wall_time = run.wall_time;
    loop.check_every = run.check_every;
    loop.dt_floor = run.dt_floor;
    loop.case_name = case_name;
    loop.restart = restart;
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
// The state a solver continues from: std::vector<HostField<S>>.
template <class Physics>
using StateOf = decltype(std::declval<const Physics&>().state());

// What a solver adds to the loop; every function is called on every rank.
template <class Fields>
struct LoopHooks {
  History history;
  std::function<void()> started;  // after the initial (or restored) state is set
  // After the last step, with the final fields of this block as read back
  // for the last snapshot and before the device arrays are released: that
  // snapshot's extra attributes.
  std::function<Attributes(const Fields&)> closing;
  // Words the progress line adds after its own (this rank's view).
  std::function<std::string()> progress_note;
};
template <class Physics>
using HooksFor = LoopHooks<FieldsOf<Physics>>;

namespace detail {

template <class P, class = void>
struct fuses_steps : std::false_type {};
template <class P>
struct fuses_steps<P, std::void_t<decltype(std::declval<const P&>().fused_steps())>> : std::true_type {};

}  // namespace detail

// The cadence of a TimeLoop as the Schedule takes it.
inline run::Cadence cadence_of(const TimeLoop& loop, long history_every, double state_bytes) {
  run::Cadence c;
  c.output_every = loop.output_every;
  c.output_interval = loop.output_interval;
  c.history_every = history_every;
  c.check_every = loop.check_every;
  c.checkpoint_every = loop.checkpoint_every;
  c.checkpoint_interval = loop.checkpoint_interval;
  c.checkpoint_wall_seconds = loop.checkpoint_wall_seconds;
  c.wall_time = loop.wall_time;
  c.state_bytes = state_bytes;
  c.time_unit = loop.time_unit;
  return c;
}

// A continued run that has nothing left to do (its end at or before the
// checkpoint's step or time) is refused before any file is touched: it
// would cut the history back and rewrite the final snapshot for nothing.
inline void refuse_nothing_to_do(const TimeLoop& loop) {
  if (!loop.restart) return;
  const CheckpointHeader& from = *loop.restart;
  const double unit = loop.time_unit;
  const bool by_time = loop.steps <= 0;
  if (by_time ? from.time >= loop.end_time * unit * (1 - 1e-14) : from.step >= loop.steps)
    throw ConfigError(from.path + ": error: nothing to do: the checkpoint is at step " + std::to_string(from.step) +
                      ", t = " + format_real(from.time) + ", and the run ends at " +
                      (by_time ? "time.end_time = " + format_real(loop.end_time * unit)
                               : "time.steps = " + std::to_string(loop.steps)) +
                      "; continue it to a later end with --set " + (by_time ? "time.end_time" : "time.steps") + "=...");
}

// Runs the loop and writes the snapshots and checkpoints. Returns the
// timings; throws RunStopped after the checkpoint of a stop (signal, wall
// time) and CollectiveError for a non-physical state. What falls due when
// is the Schedule's (core/run/schedule.hpp); this function does it.
template <class Physics>
SolveTimings run_time_loop(Physics& physics, const TimeLoop& loop, SnapshotSeries& series, const Comm& comm,
                           const HooksFor<Physics>& hooks = {}) {
  using StateReal = typename StateOf<Physics>::value_type::value_type;
  using SnapshotReal = typename FieldsOf<Physics>::value_type::value_type;
  const History& history = hooks.history;
  SolveTimings timings;
  Stopwatch total;
  const bool root = comm.is_root();
  const double unit = loop.time_unit;
  const CheckpointHeader* const from = loop.restart;
  refuse_nothing_to_do(loop);

  // --- the history file, the checkpoints, and what they record ---
  run::HistoryFile hst;
  if (history.every > 0)
    hst = run::HistoryFile(series, history.path, history.header, root, from ? &from->loop : nullptr);
  auto history_row = [&](double dt) {
    if (history.every <= 0) return;
    const std::vector<double> totals = history.row();  // collective
    if (root) hst.append_row(physics.step(), physics.time() * unit, dt * unit, totals);
  };
  auto history_bytes = [&]() -> long {
    if (history.every <= 0) return -1;
    return comm.sum(root ? hst.bytes() : 0L);  // rank 0's, on every rank
  };
  run::CheckpointKeeper keeper(series, loop.case_name, loop.checkpoint_keep, history.every > 0 ? hst.name() : "",
                               static_cast<int>(sizeof(SnapshotReal)), from, root);
  const long updates_per_step = comm.sum(physics.updates_per_step());
  run::Schedule schedule(cadence_of(loop, history.every, static_cast<double>(sizeof(StateReal)) * updates_per_step * 5),
                         0.0);
  using Moment = run::Moment<StateOf<Physics>>;
  auto moment = [&](long hist_bytes) {
    return Moment{physics.state(), physics.clock(),  physics.step(),          physics.time() * unit,
                  hist_bytes,      series.records(), schedule.outputs_done(), schedule.checkpoints_done()};
  };
  auto write_checkpoint_of = [&](const Moment& m) {
    Stopwatch io;
    const std::string path = keeper.write(m);
    schedule.checkpoint_took(io.seconds());
    return path;
  };

  // A non-physical state is written for diagnosis and ends the run on every rank.
  auto stop_for_fault = [&](std::string why) {
    const std::string file = series.write_diagnosis(physics.step(), physics.time() * unit, physics.fields(), why);
    throw CollectiveError(why + "; the state is in " + file);
  };
  auto check_state = [&] {
    std::string why = physics.fault();
    if (!why.empty()) stop_for_fault(why);
  };
  // A checkpoint during the run: the state is checked first, so that no
  // checkpoint holds a broken one.
  auto checkpoint_in_loop = [&] {
    Kokkos::fence();
    check_state();
    return write_checkpoint_of(moment(history_bytes()));
  };

  // --- the starting state: the initial one, or the checkpoint's ---
  Stopwatch phase;
  if (from) {
    physics.restore(read_checkpoint_state<StateReal>(*from, series.decomposition()), from->clock);
    Kokkos::fence();
    if (physics.step() != from->step)
      throw CollectiveError(from->path + ": the restored state is at step " + std::to_string(physics.step()) +
                            ", the checkpoint says " + std::to_string(from->step));
    if (root && !from->new_folder) clear_after_checkpoint(series, *from);  // a branch's folder is new
    series.resume(from->loop.series, from->loop.series_fields, from->loop.series_bytes);
  } else {
    physics.set_initial_state();
    Kokkos::fence();
  }
  timings.h2d_s = phase.seconds();
  if (hooks.started) hooks.started();
  // A new run, or a branch (--restart --output NEW): the series of the new
  // folder begins with the starting state.
  if (!from || from->new_folder) {
    Stopwatch io;
    series.write(physics.step(), physics.time() * unit, physics.fields(), {});
    history_row(0);
    // Only now, with the new run's first results in place, do an earlier
    // run's (--overwrite) go.
    if (root) series.under_way();
    timings.output_s += io.seconds();
  }

  const bool to_end_time = loop.steps <= 0;
  auto finished = [&] {
    return to_end_time ? physics.time() >= loop.end_time * (1 - 1e-14) : physics.step() >= loop.steps;
  };
  if (from) schedule.resume(physics.time(), from->loop.outputs_done, from->loop.checkpoints_done);
  const long first_step = physics.step();
  Progress progress(loop.quiet || !root, loop.progress_seconds, to_end_time ? 1 : loop.steps, updates_per_step,
                    to_end_time ? loop.end_time * unit : 0.0, first_step, physics.time() * unit);
  // Wall-clock control, decided on rank 0 and agreed with the time step.
  schedule.wall_checkpoint_written(job::process_seconds());
  auto requests = [&] {
    run::StopRequests r;
    r.signal = job::stop_signal() != 0;
    if (!root) return r;
    const double now = job::process_seconds();
    r.checkpoint = schedule.checkpoint_by_wall(now);
    r.wall_time = schedule.near_wall_limit(now);
    return r;
  };
  auto stop_now = [&](const run::StopRequests& why) {
    const std::string path = checkpoint_in_loop();
    const std::string reason = why.signal ? std::string(job::signal_name(job::stop_signal()))
                                          : "the wall-time limit (" + format_real(loop.wall_time) + " s; " +
                                                format_real(std::round(job::process_seconds())) + " s used)";
    throw RunStopped("stopped by " + reason + " after step " + std::to_string(physics.step()) +
                     ", t = " + format_real(physics.time() * unit) + "; checkpoint " + path +
                     "\ncontinue with: cfdrun --restart " + path);
  };

  double loop_output_s = 0, dt = 0;
  bool last_was_output = false;
  const bool final_checkpoint = loop.checkpoint_at_end || loop.checkpoint_every > 0;
  std::optional<Moment> before_last;
  phase.restart();
  Stopwatch step_clock;
  while (!finished()) {
    // One reduction agrees on the step (the minimum over ranks) and on the
    // requests (their OR): stop, or checkpoint by the wall clock.
    double local = physics.stable_dt();
    if (!(local > 0) || !std::isfinite(local)) local = -1;
    const run::StepAgreement agreed = run::agree_on_step(comm, local, requests());
    if (agreed.requests.stop()) stop_now(agreed.requests);
    if (agreed.requests.checkpoint) {
      Stopwatch io;
      checkpoint_in_loop();
      schedule.wall_checkpoint_written(job::process_seconds());
      loop_output_s += io.seconds();
    }
    const double stable = agreed.dt;
    if (stable < 0) {
      std::string why = physics.fault();
      stop_for_fault(why.empty() ? "the time step is not positive at step " + std::to_string(physics.step()) : why);
    }
    if (keeper.reference_dt() == 0) keeper.set_reference_dt(stable);
    if (loop.dt_floor > 0 && stable < loop.dt_floor * keeper.reference_dt()) {
      std::string why = physics.fault();
      stop_for_fault(!why.empty() ? why
                                  : "the time step collapsed at step " + std::to_string(physics.step()) + ", t = " +
                                        format_real(physics.time() * unit) + ": dt = " + format_real(stable * unit) +
                                        ", below run.dt_floor = " + format_real(loop.dt_floor) +
                                        " of the first step's " + format_real(keeper.reference_dt() * unit));
    }
    dt = stable;
    // Land on the end time and on output times exactly: the step is
    // shortened to reach it, and the clock is set to it after the step.
    const bool shortened_to_end = to_end_time && physics.time() + dt > loop.end_time;
    double landing = shortened_to_end ? loop.end_time : NAN;
    if (shortened_to_end) dt = loop.end_time - physics.time();
    const bool output_now = schedule.reaches_output(physics.time(), dt);
    if (output_now) {
      landing = schedule.next_output_time();
      dt = landing - physics.time();
    }
    // A last step shortened to land on an end time that is no output time
    // is one a longer run would not take: the end-of-run checkpoint holds
    // the state before it, so that a run continued from it to a later end
    // takes the steps of one run there.
    if (shortened_to_end && !output_now && final_checkpoint) {
      Kokkos::fence();
      check_state();
      before_last = moment(history_bytes());
    }
    // Several steps in one call where the solver fuses them and nothing
    // falls due in between.
    long batch = 1;
    if constexpr (detail::fuses_steps<Physics>::value) {
      if (!to_end_time)
        batch = schedule.steps_in_one_call(physics.step(),
                                           std::min<long>(physics.fused_steps(), loop.steps - physics.step()));
    }
    if (batch > 1) {
      if constexpr (detail::fuses_steps<Physics>::value) physics.advance_steps(batch);
    } else {
      physics.advance(dt);
    }
    if (!std::isnan(landing)) physics.land_on(landing);
    progress.update(physics.step(), physics.time() * unit, dt * unit, hooks.progress_note);
    const run::Due due = schedule.after_step(physics.step(), physics.time(), output_now);
    if (due.check) check_state();
    if (schedule.snapshots_by_time() > static_cast<long>(max_snapshots))
      throw CollectiveError("output.time_interval " + format_real(loop.output_interval * unit) +
                            " has made this run write more than " + std::to_string(static_cast<long>(max_snapshots)) +
                            " snapshots; choose a larger interval");
    const bool last = finished();
    last_was_output = due.snapshot;
    // The last step's snapshot and checkpoint are the end's, below.
    if ((due.snapshot && !last) || due.history || (due.checkpoint && !last)) {
      Kokkos::fence();
      Stopwatch io;
      if (due.snapshot && !last) series.write(physics.step(), physics.time() * unit, physics.fields(), {});
      if (due.history) history_row(dt);
      if (due.checkpoint && !last) checkpoint_in_loop();
      loop_output_s += io.seconds();
    }
    if (root && schedule.watches_steps()) {
      Kokkos::fence();
      schedule.step_took(step_clock.seconds());
      step_clock.restart();
    }
  }
  Kokkos::fence();
  timings.loop_s = phase.seconds() - loop_output_s;
  timings.output_s += loop_output_s;
  timings.cell_updates = updates_per_step * (physics.step() - first_step);
  // The last state is checked whatever the cadence: a broken one is never
  // written as the result.
  check_state();
  const bool checkpoint_at_end =
      loop.checkpoint_at_end || (loop.checkpoint_every > 0 && physics.step() % loop.checkpoint_every == 0);
  const long hist_bytes_at_end = history_bytes();  // before the row that only ends this part
  if (history.every > 0 && physics.step() % history.every != 0 && physics.step() > first_step) history_row(dt);
  hst.close();

  // The end: the final state read back (D2H), the solver's closing work,
  // the device arrays freed (EXIT) and TOTAL closed (less the output time),
  // so that the last snapshot, written from the host copy, carries every
  // timing.
  phase.restart();
  const FieldsOf<Physics> final_fields = physics.fields();
  timings.d2h_s = phase.seconds();
  std::optional<Moment> at_end;
  if (checkpoint_at_end && !before_last) at_end = moment(hist_bytes_at_end);
  Attributes extra = hooks.closing ? hooks.closing(final_fields) : Attributes{};
  phase.restart();
  physics.release();
  Kokkos::fence();
  timings.exit_s = phase.seconds();
  timings.total_s = total.seconds() - timings.output_s;
  timings.take_slowest(comm);
  for (const auto& a : timings.attributes()) extra.push_back(a);
  series.write(physics.step(), physics.time() * unit, final_fields, extra);
  if (before_last) {
    write_checkpoint_of(*before_last);
  } else if (at_end) {
    // A snapshot at an output time belongs to the series; one written only
    // because this part of the run ended there does not (a continued run
    // replaces it).
    const bool listed_before = from && physics.step() == first_step &&
                               std::any_of(from->loop.series.begin(), from->loop.series.end(),
                                           [&](const SnapshotSeries::Record& r) { return r.step == first_step; });
    if ((last_was_output && physics.step() > first_step) || listed_before) at_end->series = series.records();
    write_checkpoint_of(*at_end);
  }
  return timings;
}

}  // namespace cfd
