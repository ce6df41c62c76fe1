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
#include "core/safe_files.hpp"
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

// k * interval as the decimal number it stands for: 3 * 0.1 is
// 0.30000000000000004 in binary, while the user means the double nearest
// 0.3. Rounding the product to 15 significant digits gives that one.
inline double multiple(long k, double interval) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", static_cast<double>(k) * interval);
  return std::strtod(text, nullptr);
}

template <class P, class = void>
struct fuses_steps : std::false_type {};
template <class P>
struct fuses_steps<P, std::void_t<decltype(std::declval<const P&>().fused_steps())>> : std::true_type {};

// The steps from `step` to the next multiple of `every` (every > 0).
inline long steps_to_multiple(long step, long every) {
  return every > 0 ? (step / every + 1) * every - step : LONG_MAX;
}

}  // namespace detail

// Runs the loop and writes the snapshots and checkpoints. Returns the
// timings; throws RunStopped after the checkpoint of a stop (signal, wall
// time) and CollectiveError for a non-physical state.
template <class Physics>
SolveTimings run_time_loop(Physics& physics, const TimeLoop& loop, SnapshotSeries& series, const Comm& comm,
                           const HooksFor<Physics>& hooks = {}) {
  using StateReal = typename StateOf<Physics>::value_type::value_type;
  const History& history = hooks.history;
  SolveTimings timings;
  Stopwatch total;
  const bool root = comm.is_root();
  const double unit = loop.time_unit;
  auto snapshot = [&](const Attributes& extra) {
    series.write(physics.step(), physics.time() * unit, physics.fields(), extra);
  };

  // A continued run that has nothing left to do (its end at or before the
  // checkpoint's step or time) is refused before any file is touched: it
  // would cut the history back and rewrite the final snapshot for nothing.
  if (loop.restart) {
    const CheckpointHeader& from = *loop.restart;
    const bool by_time = loop.steps <= 0;
    if (by_time ? from.time >= loop.end_time * unit * (1 - 1e-14) : from.step >= loop.steps)
      throw ConfigError(from.path + ": error: nothing to do: the checkpoint is at step " + std::to_string(from.step) +
                        ", t = " + format_real(from.time) + ", and the run ends at " +
                        (by_time ? "time.end_time = " + format_real(loop.end_time * unit)
                                 : "time.steps = " + std::to_string(loop.steps)) +
                        "; continue it to a later end with --set " + (by_time ? "time.end_time" : "time.steps") +
                        "=...");
  }

  // --- the history file: new, or cut back to the checkpoint's step ---
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> hst(nullptr, std::fclose);
  bool resumed_history = false;
  const std::string history_name = std::filesystem::path(history.path).filename().string();
  if (history.every > 0 && root) {
    const LoopRecord* from = loop.restart ? &loop.restart->loop : nullptr;
    std::error_code ec;
    const bool resume = from && from->history_bytes >= 0 && from->history_file == history_name &&
                        std::filesystem::exists(history.path, ec) &&
                        std::filesystem::file_size(history.path, ec) >= static_cast<uintmax_t>(from->history_bytes);
    resumed_history = resume;
    // Never through a link, and never a user's file that carries the name.
    series.claim(history.path);
    if (resume) {
      hst.reset(files::fopen_no_follow(history.path, "r+"));
      if (ftruncate(fileno(hst.get()), static_cast<off_t>(from->history_bytes)) != 0)
        throw std::runtime_error(history.path +
                                 ": cannot cut the history back to the checkpoint: " + std::strerror(errno));
      std::fseek(hst.get(), 0, SEEK_END);
    } else {
      if (from && from->history_bytes >= 0)
        std::fprintf(stderr, "cfdrun: warning: %s is missing or shorter than at the checkpoint; it restarts here\n",
                     history.path.c_str());
      hst.reset(files::fopen_no_follow(history.path, "w"));
    }
    if (!hst) throw std::runtime_error(history.path + ": cannot open the history file: " + std::strerror(errno));
  }
  // Whole rows only: a row that cannot be written (a full disk) is cut off
  // again, so that the file ends with the last complete one.
  auto append_history = [&](const std::string& text) {
    const long good = std::ftell(hst.get());
    errno = 0;
    if (std::fwrite(text.data(), 1, text.size(), hst.get()) == text.size() && std::fflush(hst.get()) == 0) return;
    const std::string why = std::strerror(errno != 0 ? errno : EIO);
    std::clearerr(hst.get());
    if (good >= 0 && ftruncate(fileno(hst.get()), good) == 0) std::fseek(hst.get(), good, SEEK_SET);
    throw std::runtime_error(history.path + ": cannot write the history: " + why);
  };
  if (hst && !resumed_history) append_history(history.header);
  if (hst) series.wrote(history.path);
  auto history_row = [&](double dt) {
    if (history.every <= 0) return;
    const std::vector<double> totals = history.row();
    if (!root) return;
    char field[64];
    std::snprintf(field, sizeof field, "%ld,%.16e,%.16e", physics.step(), physics.time() * unit, dt * unit);
    std::string line = field;
    for (double v : totals) {
      std::snprintf(field, sizeof field, ",%.16e", v);
      line += field;
    }
    append_history(line + "\n");
  };
  auto history_bytes = [&]() -> long {
    if (history.every <= 0) return -1;
    long bytes = root ? std::ftell(hst.get()) : 0;
    return comm.sum(bytes);  // rank 0's, on every rank
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

  // --- checkpoints ---
  const bool restarting = loop.restart != nullptr;
  long outputs_done = 0, checkpoints_done = 0;  // output and checkpoint times passed
  LoopRecord record;                            // what the next checkpoint stores of the loop
  record.history_file = history.every > 0 ? history_name : "";
  record.kept = loop.restart ? loop.restart->loop.kept : std::vector<std::string>{};
  double last_checkpoint_s = 0;  // how long the last one took to write (wall-time margin)
  // What a checkpoint records, taken at one step.
  struct Moment {
    StateOf<Physics> state;
    Attributes clock;
    long step;
    double time;
    long history_bytes;
    std::vector<SnapshotSeries::Record> series;
    long outputs_done, checkpoints_done;
  };
  auto moment = [&](long hist_bytes) {
    return Moment{physics.state(), physics.clock(),  physics.step(), physics.time() * unit,
                  hist_bytes,      series.records(), outputs_done,   checkpoints_done};
  };
  auto write_moment = [&](const Moment& m) {
    Stopwatch io;
    record.history_bytes = m.history_bytes;
    record.series = m.series;
    record.series_fields = series.field_names();
    record.series_bytes = static_cast<int>(sizeof(typename FieldsOf<Physics>::value_type::value_type));
    record.outputs_done = m.outputs_done;
    record.checkpoints_done = m.checkpoints_done;
    const std::string name = checkpoint_name(m.step);
    record.kept.erase(std::remove(record.kept.begin(), record.kept.end(), name), record.kept.end());
    record.kept.push_back(name);
    while (loop.checkpoint_keep > 0 && static_cast<long>(record.kept.size()) > loop.checkpoint_keep) {
      // Only a checkpoint the manifest lists goes, and it leaves the
      // manifest too (a user's file later given its name is not removed).
      if (root) series.remove(record.kept.front());
      record.kept.erase(record.kept.begin());
    }
    const std::string path = write_checkpoint(series, loop.case_name, m.step, m.time, m.state, m.clock, record);
    last_checkpoint_s = io.seconds();
    return path;
  };
  // A checkpoint during the run: the state is checked first, so that no
  // checkpoint holds a broken one.
  auto checkpoint_in_loop = [&] {
    Kokkos::fence();
    check_state();
    return write_moment(moment(history_bytes()));
  };

  // --- the starting state: the initial one, or the checkpoint's ---
  Stopwatch phase;
  if (loop.restart) {
    const CheckpointHeader& from = *loop.restart;
    physics.restore(read_checkpoint_state<StateReal>(from, series.decomposition()), from.clock);
    Kokkos::fence();
    if (physics.step() != from.step)
      throw CollectiveError(from.path + ": the restored state is at step " + std::to_string(physics.step()) +
                            ", the checkpoint says " + std::to_string(from.step));
    if (root && !from.new_folder) clear_after_checkpoint(series, from);  // a branch's folder is new
    series.resume(from.loop.series, from.loop.series_fields, from.loop.series_bytes);
    record.reference_dt = from.loop.reference_dt;
  } else {
    physics.set_initial_state();
    Kokkos::fence();
  }
  timings.h2d_s = phase.seconds();
  if (hooks.started) hooks.started();
  // A new run, or a branch (--restart --output NEW): the series of the new
  // folder begins with the starting state.
  if (!loop.restart || loop.restart->new_folder) {
    Stopwatch io;
    snapshot({});
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
  // Output and checkpoint times are multiples of their intervals, k * T,
  // not a running sum, so that a continued run meets the same times. A run
  // continued from a checkpoint takes the counts recorded there unless --set
  // changed an interval so that they no longer fit the time.
  auto times_passed = [&](double interval, double now, long recorded) -> long {
    if (!(interval > 0) || !restarting) return 0;
    const double t = now * (1 + 1e-14);
    if (recorded * interval <= t && t < (recorded + 1) * interval) return recorded;
    return static_cast<long>(std::floor(t / interval));
  };
  // Output times in the solver's time, checkpoint times in the files' (time_unit applied).
  outputs_done = times_passed(loop.output_interval, physics.time(), restarting ? loop.restart->loop.outputs_done : 0);
  checkpoints_done = times_passed(loop.checkpoint_interval, physics.time() * unit,
                                  restarting ? loop.restart->loop.checkpoints_done : 0);
  auto next_output = [&] {
    return loop.output_interval > 0 ? detail::multiple(outputs_done + 1, loop.output_interval) : INFINITY;
  };

  const long first_outputs = outputs_done;
  const long updates_per_step = comm.sum(physics.updates_per_step());
  const long first_step = physics.step();
  Progress progress(loop.quiet || !root, loop.progress_seconds, to_end_time ? 1 : loop.steps, updates_per_step,
                    to_end_time ? loop.end_time * unit : 0.0, first_step, physics.time() * unit);
  // Wall-clock control, decided on rank 0 and agreed with the time step.
  enum Request { none = 0, checkpoint_request = 1, stop_for_wall_time = 2, stop_for_signal = 4 };
  double last_checkpoint_wall = job::process_seconds(), slowest_step_s = 0;
  const double state_bytes = static_cast<double>(sizeof(StateReal)) * updates_per_step * 5;
  auto requests = [&]() -> int {
    int r = job::stop_signal() != 0 ? stop_for_signal : none;
    if (!root) return r;
    const double now = job::process_seconds();
    if (loop.checkpoint_wall_seconds > 0 && now - last_checkpoint_wall >= loop.checkpoint_wall_seconds)
      r |= checkpoint_request;
    if (loop.wall_time > 0) {
      // Room for two more of the slowest steps, the checkpoint (1.5 times
      // as long as the last one took, or at 200 MB/s before the first) and
      // half a second to end.
      const double write_s = last_checkpoint_s > 0 ? last_checkpoint_s : 0.2 + state_bytes / 2e8;
      if (now + 2 * slowest_step_s + 1.5 * write_s + 0.5 >= loop.wall_time) r |= stop_for_wall_time;
    }
    return r;
  };
  auto stop_now = [&](int why) {
    const std::string path = checkpoint_in_loop();
    const std::string reason = (why & stop_for_signal)
                                   ? std::string(job::signal_name(job::stop_signal()))
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
    // One reduction agrees on the step (the minimum over ranks) and on any
    // request: stop, or checkpoint by the wall clock.
    double local = physics.stable_dt();
    if (!(local > 0) || !std::isfinite(local)) local = -1;
    // The requests are OR-ed over ranks bit by bit, in the same reduction:
    // the minimum of -1 (bit set) and 0 is -1 on any rank that set it.
    const int mine = requests();
    double agreed[4] = {local, (mine & checkpoint_request) ? -1.0 : 0.0, (mine & stop_for_wall_time) ? -1.0 : 0.0,
                        (mine & stop_for_signal) ? -1.0 : 0.0};
    comm.min(agreed, 4);
    const double stable = agreed[0];
    const int request = (agreed[1] < 0 ? checkpoint_request : 0) | (agreed[2] < 0 ? stop_for_wall_time : 0) |
                        (agreed[3] < 0 ? stop_for_signal : 0);
    if (request & (stop_for_signal | stop_for_wall_time)) stop_now(request);
    if (request & checkpoint_request) {
      Stopwatch io;
      checkpoint_in_loop();
      last_checkpoint_wall = job::process_seconds();
      loop_output_s += io.seconds();
    }
    if (stable < 0) {
      std::string why = physics.fault();
      stop_for_fault(why.empty() ? "the time step is not positive at step " + std::to_string(physics.step()) : why);
    }
    if (record.reference_dt == 0) record.reference_dt = stable;
    if (loop.dt_floor > 0 && stable < loop.dt_floor * record.reference_dt) {
      std::string why = physics.fault();
      stop_for_fault(!why.empty() ? why
                                  : "the time step collapsed at step " + std::to_string(physics.step()) + ", t = " +
                                        format_real(physics.time() * unit) + ": dt = " + format_real(stable * unit) +
                                        ", below run.dt_floor = " + format_real(loop.dt_floor) +
                                        " of the first step's " + format_real(record.reference_dt * unit));
    }
    dt = stable;
    // Land on the end time and on output times exactly: the step is
    // shortened to reach it, and the clock is set to it after the step.
    const bool shortened_to_end = to_end_time && physics.time() + dt > loop.end_time;
    double landing = shortened_to_end ? loop.end_time : NAN;
    if (shortened_to_end) dt = loop.end_time - physics.time();
    bool output_now = false;
    if (physics.time() + dt >= next_output() * (1 - 1e-14)) {
      landing = next_output();
      dt = landing - physics.time();
      output_now = true;
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
    // Several steps in one call where the solver fuses them and the loop has
    // nothing to do in between (only step-counted events; a run with
    // time-based ones takes its steps one by one).
    long batch = 1;
    if constexpr (detail::fuses_steps<Physics>::value) {
      if (!to_end_time && !(loop.output_interval > 0) && !(loop.checkpoint_interval > 0)) {
        const long step = physics.step();
        batch = std::min<long>(physics.fused_steps(), loop.steps - step);
        for (long every : {loop.output_every, history.every, loop.check_every, loop.checkpoint_every})
          batch = std::min(batch, detail::steps_to_multiple(step, every));
        batch = std::max(batch, 1L);
      }
    }
    if (batch > 1) {
      if constexpr (detail::fuses_steps<Physics>::value) physics.advance_steps(batch);
    } else {
      physics.advance(dt);
    }
    if (!std::isnan(landing)) physics.land_on(landing);
    progress.update(physics.step(), physics.time() * unit, dt * unit, hooks.progress_note);
    if (loop.check_every > 0 && physics.step() % loop.check_every == 0) check_state();
    const bool last = finished();
    const bool every = loop.output_every > 0 && physics.step() % loop.output_every == 0;
    const bool row = history.every > 0 && physics.step() % history.every == 0;
    if (output_now && ++outputs_done - first_outputs > static_cast<long>(max_snapshots))
      throw CollectiveError("output.time_interval " + format_real(loop.output_interval * unit) +
                            " has made this run write more than " + std::to_string(static_cast<long>(max_snapshots)) +
                            " snapshots; choose a larger interval");
    last_was_output = output_now || every;
    bool checkpoint_due = loop.checkpoint_every > 0 && physics.step() % loop.checkpoint_every == 0;
    if (loop.checkpoint_interval > 0 &&
        physics.time() * unit >= (checkpoints_done + 1) * loop.checkpoint_interval * (1 - 1e-14)) {
      checkpoint_due = true;
      checkpoints_done = static_cast<long>(std::floor(physics.time() * unit / loop.checkpoint_interval * (1 + 1e-14)));
    }
    if (((output_now || every) && !last) || row || (checkpoint_due && !last)) {
      Kokkos::fence();
      Stopwatch io;
      if ((output_now || every) && !last) snapshot({});
      if (row) history_row(dt);
      if (checkpoint_due && !last) checkpoint_in_loop();
      loop_output_s += io.seconds();
    }
    if (root && loop.wall_time > 0) {
      Kokkos::fence();
      slowest_step_s = std::max(slowest_step_s, step_clock.seconds());
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
  hst.reset();

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
    write_moment(*before_last);
  } else if (at_end) {
    // A snapshot at an output time belongs to the series; one written only
    // because this part of the run ended there does not (a continued run
    // replaces it).
    const bool listed_before = restarting && physics.step() == first_step &&
                               std::any_of(loop.restart->loop.series.begin(), loop.restart->loop.series.end(),
                                           [&](const SnapshotSeries::Record& r) { return r.step == first_step; });
    if ((last_was_output && physics.step() > first_step) || listed_before) at_end->series = series.records();
    write_moment(*at_end);
  }
  return timings;
}

}  // namespace cfd
