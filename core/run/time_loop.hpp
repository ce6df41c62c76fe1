// The time loop every solver runs under (after AthenaK's src/driver/): steps
// or an end time landed on exactly, the time step agreed by all ranks,
// snapshots every N steps or at simulated times, a history file, progress
// lines, checkpoints and the restart from one, stops asked for by a signal
// or the wall-time limit, the checks for a non-physical state, the timings,
// and the final snapshot. The solvers provide the physics:
//
//   void set_initial_state();
//   double allowed_dt() const;       // the largest step this rank allows, its
//                                    // factors applied (the gas solvers:
//                                    // physics/gas/time_step.hpp; diffusion:
//                                    // its fixed step); the loop takes the
//                                    // minimum over ranks; <= 0 or NaN: a
//                                    // cell is not physical
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
// A solver whose steps can be taken several at once (diffusion's and
// sod's fused steps) also provides `int fused_steps() const` (how many it takes best in
// one call) and `void advance_steps(long n)`; the loop then hands it up to
// that many steps at a time, never past a step at which it has something to
// do (a snapshot, history row, state check or checkpoint, the last step).
#pragma once

#include "core/checkpoint.hpp"
#include "core/clock.hpp"
#include "core/decomposition.hpp"
#include "core/run/checkpoint_keeper.hpp"
#include "core/run/history_file.hpp"
#include "core/run/run_settings.hpp"
#include "core/run/schedule.hpp"
#include "core/run/stop_requests.hpp"
#include "core/signals.hpp"
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

namespace detail {

// One run of the time loop over a solver: the parts of run_time_loop below,
// each a member, over the state they share (the history file, the
// checkpoints, the schedule, the timings).
template <class Physics>
class LoopRun {
 public:
  using State = StateOf<Physics>;
  using StateReal = typename State::value_type::value_type;
  using SnapshotReal = typename FieldsOf<Physics>::value_type::value_type;
  using Moment = run::Moment<State>;

  LoopRun(Physics& physics, const TimeLoop& loop, SnapshotSeries& series, const Comm& comm,
          const HooksFor<Physics>& hooks)
      : physics_(physics),
        loop_(loop),
        series_(series),
        comm_(comm),
        hooks_(hooks),
        history_(hooks.history),
        root_(comm.is_root()),
        unit_(loop.time_unit),
        from_(loop.restart),
        to_end_time_(loop.steps <= 0),
        final_checkpoint_(loop.checkpoint_at_end || loop.checkpoint_every > 0),
        keeper_(series, loop.case_name, loop.checkpoint_keep,
                history_.every > 0 ? std::filesystem::path(history_.path).filename().string() : "",
                static_cast<int>(sizeof(SnapshotReal)), from_, root_),
        updates_per_step_(comm.sum(physics.updates_per_step())),
        schedule_(cadence_of(loop, history_.every, static_cast<double>(sizeof(StateReal)) * updates_per_step_ * 5),
                  0.0) {}

  // The starting state: the initial one, or the checkpoint's. A new run, or
  // a branch (--restart --output NEW), begins its series with it.
  void start() {
    Stopwatch phase;
    // The history file opens once the starting state is known to be good: a
    // case refused for its initial state leaves nothing in its folder.
    const auto open_history = [&] {
      if (history_.every > 0)
        hst_ = run::HistoryFile(series_, history_.path, history_.header, root_, from_ ? &from_->loop : nullptr);
    };
    if (from_) {
      open_history();
      physics_.restore(read_checkpoint_state<StateReal>(*from_, series_.decomposition()), from_->clock);
      Kokkos::fence();
      if (physics_.step() != from_->step)
        throw CollectiveError(from_->path + ": the restored state is at step " + std::to_string(physics_.step()) +
                              ", the checkpoint says " + std::to_string(from_->step));
      if (root_ && !from_->new_folder) clear_after_checkpoint(series_, *from_);  // a branch's folder is new
      series_.resume(from_->loop.series, from_->loop.series_fields, from_->loop.series_bytes);
    } else {
      physics_.set_initial_state();
      Kokkos::fence();
      open_history();
    }
    timings_.h2d_s = phase.seconds();
    if (hooks_.started) hooks_.started();
    if (!from_ || from_->new_folder) {
      Stopwatch io;
      series_.write(physics_.step(), physics_.time() * unit_, physics_.fields(), {});
      history_row(0);
      // Only now, with the new run's first results in place, do an earlier
      // run's (--overwrite) go.
      if (root_) series_.under_way();
      timings_.output_s += io.seconds();
    }
    if (from_) schedule_.resume(physics_.time(), from_->loop.outputs_done, from_->loop.checkpoints_done);
    first_step_ = physics_.step();
    progress_.emplace(loop_.quiet || !root_, loop_.progress_seconds, to_end_time_ ? 1 : loop_.steps, updates_per_step_,
                      to_end_time_ ? loop_.end_time * unit_ : 0.0, first_step_, physics_.time() * unit_);
    // Wall-clock control, decided on rank 0 and agreed with the time step.
    schedule_.wall_checkpoint_written(job::process_seconds());
    loop_clock_.restart();
    step_clock_.restart();
  }

  bool finished() const {
    return to_end_time_ ? physics_.time() >= loop_.end_time * (1 - 1e-14) : physics_.step() >= loop_.steps;
  }

  // One reduction agrees on the step (the minimum over ranks) and on the
  // requests (their OR): a stop, or a checkpoint by the wall clock. Returns
  // the stable dt; a broken state or a collapsed dt ends the run.
  double agree_on_step() {
    double local = physics_.allowed_dt();
    if (!(local > 0) || !std::isfinite(local)) local = -1;
    const run::StepAgreement agreed = run::agree_on_step(comm_, local, requests());
    if (agreed.requests.stop()) stop_now(agreed.requests);
    if (agreed.requests.checkpoint) {
      Stopwatch io;
      checkpoint_in_loop();
      schedule_.wall_checkpoint_written(job::process_seconds());
      loop_output_s_ += io.seconds();
    }
    const double stable = agreed.dt;
    if (stable < 0) {
      std::string why = physics_.fault();
      stop_for_fault(why.empty() ? "the time step is not positive at step " + std::to_string(physics_.step()) : why);
    }
    if (keeper_.reference_dt() == 0) keeper_.set_reference_dt(stable);
    if (loop_.dt_floor > 0 && stable < loop_.dt_floor * keeper_.reference_dt()) {
      std::string why = physics_.fault();
      stop_for_fault(!why.empty() ? why
                                  : "the time step collapsed at step " + std::to_string(physics_.step()) + ", t = " +
                                        format_real(physics_.time() * unit_) + ": dt = " + format_real(stable * unit_) +
                                        ", below run.dt_floor = " + format_real(loop_.dt_floor) +
                                        " of the first step's " + format_real(keeper_.reference_dt() * unit_));
    }
    return stable;
  }

  // The step (or several, where the solver fuses them and nothing falls due
  // in between), shortened to land on the end time or an output time
  // exactly: the clock is set to it after the step. Returns whether it
  // landed on an output time.
  bool advance(double stable) {
    dt_ = stable;
    const bool shortened_to_end = to_end_time_ && physics_.time() + dt_ > loop_.end_time;
    double landing = shortened_to_end ? loop_.end_time : NAN;
    if (shortened_to_end) dt_ = loop_.end_time - physics_.time();
    const bool output_now = schedule_.reaches_output(physics_.time(), dt_);
    if (output_now) {
      landing = schedule_.next_output_time();
      dt_ = landing - physics_.time();
    }
    // A last step shortened to land on an end time that is no output time
    // is one a longer run would not take: the end-of-run checkpoint holds
    // the state before it, so that a run continued from it to a later end
    // takes the steps of one run there.
    if (shortened_to_end && !output_now && final_checkpoint_) {
      Kokkos::fence();
      check_state();
      before_last_ = moment(history_bytes());
    }
    long batch = 1;
    if constexpr (fuses_steps<Physics>::value) {
      if (!to_end_time_)
        batch = schedule_.steps_in_one_call(physics_.step(),
                                            std::min<long>(physics_.fused_steps(), loop_.steps - physics_.step()));
    }
    if (batch > 1) {
      if constexpr (fuses_steps<Physics>::value) physics_.advance_steps(batch);
    } else {
      physics_.advance(dt_);
    }
    if (!std::isnan(landing)) physics_.land_on(landing);
    progress_->update(physics_.step(), physics_.time() * unit_, dt_ * unit_, hooks_.progress_note);
    return output_now;
  }

  // What falls due after the step: a state check, a snapshot, a history
  // row, a checkpoint (the last step's snapshot and checkpoint are the
  // end's, in finish()).
  void write_what_is_due(bool output_now) {
    const run::Due due = schedule_.after_step(physics_.step(), physics_.time(), output_now);
    if (due.check) check_state();
    if (schedule_.snapshots_by_time() > static_cast<long>(max_snapshots))
      throw CollectiveError("output.time_interval " + format_real(loop_.output_interval * unit_) +
                            " has made this run write more than " + std::to_string(static_cast<long>(max_snapshots)) +
                            " snapshots; choose a larger interval");
    const bool last = finished();
    last_was_output_ = due.snapshot;
    if ((due.snapshot && !last) || due.history || (due.checkpoint && !last)) {
      Kokkos::fence();
      Stopwatch io;
      if (due.snapshot && !last) series_.write(physics_.step(), physics_.time() * unit_, physics_.fields(), {});
      if (due.history) history_row(dt_);
      if (due.checkpoint && !last) checkpoint_in_loop();
      loop_output_s_ += io.seconds();
    }
    if (root_ && schedule_.watches_steps()) {
      Kokkos::fence();
      schedule_.step_took(step_clock_.seconds());
      step_clock_.restart();
    }
  }

  // The end: the last state checked whatever the cadence (a broken one is
  // never written as the result), the last history row, the final state
  // read back (D2H), the solver's closing work, the device arrays freed
  // (EXIT) and TOTAL closed (less the output time), so that the last
  // snapshot, written from the host copy, carries every timing; then the
  // end-of-run checkpoint.
  SolveTimings finish() {
    Kokkos::fence();
    timings_.loop_s = loop_clock_.seconds() - loop_output_s_;
    timings_.output_s += loop_output_s_;
    timings_.cell_updates = updates_per_step_ * (physics_.step() - first_step_);
    check_state();
    const bool checkpoint_at_end =
        loop_.checkpoint_at_end || (loop_.checkpoint_every > 0 && physics_.step() % loop_.checkpoint_every == 0);
    const long hist_bytes_at_end = history_bytes();  // before the row that only ends this part
    if (history_.every > 0 && physics_.step() % history_.every != 0 && physics_.step() > first_step_) history_row(dt_);
    hst_.close();

    Stopwatch phase;
    const FieldsOf<Physics> final_fields = physics_.fields();
    timings_.d2h_s = phase.seconds();
    std::optional<Moment> at_end;
    if (checkpoint_at_end && !before_last_) at_end = moment(hist_bytes_at_end);
    Attributes extra = hooks_.closing ? hooks_.closing(final_fields) : Attributes{};
    phase.restart();
    physics_.release();
    Kokkos::fence();
    timings_.exit_s = phase.seconds();
    timings_.total_s = total_.seconds() - timings_.output_s;
    timings_.take_slowest(comm_);
    for (const auto& a : timings_.attributes()) extra.push_back(a);
    series_.write(physics_.step(), physics_.time() * unit_, final_fields, extra);
    if (before_last_) {
      write_checkpoint_of(*before_last_);
    } else if (at_end) {
      // A snapshot at an output time belongs to the series; one written only
      // because this part of the run ended there does not (a continued run
      // replaces it).
      const bool listed_before = from_ && physics_.step() == first_step_ &&
                                 std::any_of(from_->loop.series.begin(), from_->loop.series.end(),
                                             [&](const SnapshotSeries::Record& r) { return r.step == first_step_; });
      if ((last_was_output_ && physics_.step() > first_step_) || listed_before) at_end->series = series_.records();
      write_checkpoint_of(*at_end);
    }
    return timings_;
  }

 private:
  void history_row(double dt) {
    if (history_.every <= 0) return;
    const std::vector<double> totals = history_.row();  // collective
    if (root_) hst_.append_row(physics_.step(), physics_.time() * unit_, dt * unit_, totals);
  }
  long history_bytes() {
    if (history_.every <= 0) return -1;
    return comm_.sum(root_ ? hst_.bytes() : 0L);  // rank 0's, on every rank
  }
  Moment moment(long hist_bytes) {
    return Moment{physics_.state(), physics_.clock(),  physics_.step(),          physics_.time() * unit_,
                  hist_bytes,       series_.records(), schedule_.outputs_done(), schedule_.checkpoints_done()};
  }
  std::string write_checkpoint_of(const Moment& m) {
    Stopwatch io;
    const std::string path = keeper_.write(m);
    schedule_.checkpoint_took(io.seconds());
    return path;
  }
  // A non-physical state is written for diagnosis and ends the run on every rank.
  [[noreturn]] void stop_for_fault(const std::string& why) {
    const std::string file = series_.write_diagnosis(physics_.step(), physics_.time() * unit_, physics_.fields(), why);
    throw CollectiveError(why + "; the state is in " + file);
  }
  void check_state() {
    const std::string why = physics_.fault();
    if (!why.empty()) stop_for_fault(why);
  }
  // A checkpoint during the run: the state is checked first, so that no
  // checkpoint holds a broken one.
  std::string checkpoint_in_loop() {
    Kokkos::fence();
    check_state();
    return write_checkpoint_of(moment(history_bytes()));
  }
  // This rank's requests: a signal on any rank; the wall clock on rank 0.
  run::StopRequests requests() {
    run::StopRequests r;
    r.signal = job::stop_signal() != 0;
    if (!root_) return r;
    const double now = job::process_seconds();
    r.checkpoint = schedule_.checkpoint_by_wall(now);
    r.wall_time = schedule_.near_wall_limit(now);
    return r;
  }
  [[noreturn]] void stop_now(const run::StopRequests& why) {
    const std::string path = checkpoint_in_loop();
    const std::string reason = why.signal ? std::string(job::signal_name(job::stop_signal()))
                                          : "the wall-time limit (" + format_real(loop_.wall_time) + " s; " +
                                                format_real(std::round(job::process_seconds())) + " s used)";
    throw RunStopped("stopped by " + reason + " after step " + std::to_string(physics_.step()) +
                     ", t = " + format_real(physics_.time() * unit_) + "; checkpoint " + path +
                     "\ncontinue with: cfdrun --restart " + path);
  }

  Physics& physics_;
  const TimeLoop& loop_;
  SnapshotSeries& series_;
  const Comm& comm_;
  const HooksFor<Physics>& hooks_;
  const History& history_;
  Stopwatch total_;
  SolveTimings timings_;
  const bool root_;
  const double unit_;
  const CheckpointHeader* const from_;
  const bool to_end_time_;
  const bool final_checkpoint_;
  run::HistoryFile hst_;
  run::CheckpointKeeper keeper_;
  const long updates_per_step_;
  run::Schedule schedule_;
  long first_step_ = 0;
  std::optional<Progress> progress_;
  Stopwatch loop_clock_, step_clock_;
  double loop_output_s_ = 0, dt_ = 0;
  bool last_was_output_ = false;
  std::optional<Moment> before_last_;
};

}  // namespace detail

// Runs the loop and writes the snapshots and checkpoints. Returns the
// timings; throws RunStopped after the checkpoint of a stop (signal, wall
// time) and CollectiveError for a non-physical state. What falls due when
// is the Schedule's (core/run/schedule.hpp); detail::LoopRun does it.
template <class Physics>
SolveTimings run_time_loop(Physics& physics, const TimeLoop& loop, SnapshotSeries& series, const Comm& comm,
                           const HooksFor<Physics>& hooks = {}) {
  refuse_nothing_to_do(loop);
  detail::LoopRun<Physics> run(physics, loop, series, comm, hooks);
  run.start();  // the initial state, or the checkpoint's, and the first snapshot
  while (!run.finished()) {
    const double dt = run.agree_on_step();    // over the ranks, with their stop and checkpoint requests
    const bool output_now = run.advance(dt);  // landing on an output or the end time
    run.write_what_is_due(output_now);        // check, snapshot, history row, checkpoint
  }
  return run.finish();  // the last state checked and written, the end-of-run checkpoint
}

}  // namespace cfd
