// When the time loop has something to do besides the step: snapshots every N
// steps or at multiples of a simulated-time interval, history rows, fault
// checks, checkpoints (by steps, simulated time or wall time), and the stop
// before the wall-time limit. A plain class that is told the step, the time
// and the wall clock, and answers what falls due (after AthenaK's outputs,
// which each decide when they are due, src/outputs/outputs.hpp); the loop
// (core/run/time_loop.hpp) does it. Unit-tested with an injected clock
// (tests/test_run_layer.cpp).
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cfd::run {

// k * interval as the decimal number it stands for: 3 * 0.1 is
// 0.30000000000000004 in binary, while the user means the double nearest
// 0.3. Rounding the product to 15 significant digits gives that one.
inline double multiple(long k, double interval) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", static_cast<double>(k) * interval);
  return std::strtod(text, nullptr);
}

// The steps from `step` to the next multiple of `every` (every > 0; else LONG_MAX).
inline long steps_to_multiple(long step, long every) {
  return every > 0 ? (step / every + 1) * every - step : LONG_MAX;
}

// What the case asks for (0: not at all). Output times are in the solver's
// time; checkpoint times in the time of the files (TimeLoop::time_unit
// applied), as the user wrote them.
struct Cadence {
  long output_every = 0;
  double output_interval = 0;
  long history_every = 0;
  long check_every = 0;
  long checkpoint_every = 0;
  double checkpoint_interval = 0;
  double checkpoint_wall_seconds = 0;
  double wall_time = 0;    // seconds since cfdrun started at which the run must have stopped
  double state_bytes = 0;  // the size of a checkpoint's state (the write-time estimate before the first)
  double time_unit = 1;    // solver time -> file time
};

// What falls due after a step.
struct Due {
  bool snapshot = false;  // every N steps, or the step landed on an output time
  bool history = false;
  bool check = false;       // ask the solver whether the state is physical
  bool checkpoint = false;  // by steps or simulated time (the wall clock asks through StopRequests)
};

class Schedule {
 public:
  // `now`: the wall clock (seconds since cfdrun started) as the loop begins.
  Schedule(const Cadence& cadence, double now) : c_(cadence), last_wall_checkpoint_(now) {}

  // A run continued from a checkpoint at `time` (solver time) takes the
  // counts of output and checkpoint times recorded there, unless --set
  // changed an interval so that they no longer fit the time. Output and
  // checkpoint times are multiples k * T of their intervals, not a running
  // sum, so that a continued run meets the same times.
  void resume(double time, long outputs_recorded, long checkpoints_recorded) {
    outputs_done_ = passed(c_.output_interval, time, outputs_recorded);
    checkpoints_done_ = passed(c_.checkpoint_interval, time * c_.time_unit, checkpoints_recorded);
    first_outputs_ = outputs_done_;
  }

  // The next output time the step must land on (solver time; INFINITY: none).
  double next_output_time() const {
    return c_.output_interval > 0 ? multiple(outputs_done_ + 1, c_.output_interval) : INFINITY;
  }
  // Whether a step from `time` of length `dt` reaches the next output time.
  bool reaches_output(double time, double dt) const { return time + dt >= next_output_time() * (1 - 1e-14); }

  // After the step that ended at (step, time); `landed_on_output`: it was
  // shortened to the output time (reaches_output was true).
  Due after_step(long step, double time, bool landed_on_output) {
    Due due;
    if (landed_on_output) ++outputs_done_;
    due.snapshot = landed_on_output || on(step, c_.output_every);
    due.history = on(step, c_.history_every);
    due.check = on(step, c_.check_every);
    due.checkpoint = on(step, c_.checkpoint_every);
    const double t = time * c_.time_unit;
    if (c_.checkpoint_interval > 0 && t >= (checkpoints_done_ + 1) * c_.checkpoint_interval * (1 - 1e-14)) {
      due.checkpoint = true;
      checkpoints_done_ = static_cast<long>(std::floor(t / c_.checkpoint_interval * (1 + 1e-14)));
    }
    return due;
  }

  // How many steps from `step` may be taken in one call without passing
  // a step at which something falls due, at most `wanted` (>= 1). Only
  // step-counted events allow it: with time-based ones every step is looked at.
  long steps_in_one_call(long step, long wanted) const {
    if (c_.output_interval > 0 || c_.checkpoint_interval > 0) return 1;
    long n = wanted;
    for (long every : {c_.output_every, c_.history_every, c_.check_every, c_.checkpoint_every})
      n = std::min(n, steps_to_multiple(step, every));
    return std::max(n, 1L);
  }

  // Snapshots at output times written by this part of the run (the loop
  // stops a run whose interval would write an unbounded number).
  long snapshots_by_time() const { return outputs_done_ - first_outputs_; }
  long outputs_done() const { return outputs_done_; }
  long checkpoints_done() const { return checkpoints_done_; }

  // --- the wall clock (decided on rank 0 and agreed with the step) ---
  // A checkpoint every checkpoint_wall_seconds since the last one asked for so.
  bool checkpoint_by_wall(double now) const {
    return c_.checkpoint_wall_seconds > 0 && now - last_wall_checkpoint_ >= c_.checkpoint_wall_seconds;
  }
  void wall_checkpoint_written(double now) { last_wall_checkpoint_ = now; }
  // Whether to stop now to stay inside run.wall_time: room for two more of
  // the slowest steps, the checkpoint (1.5 times as long as the last one
  // took, or at 200 MB/s before the first) and half a second to end.
  bool near_wall_limit(double now) const {
    if (!(c_.wall_time > 0)) return false;
    const double write_s = last_checkpoint_s_ > 0 ? last_checkpoint_s_ : 0.2 + c_.state_bytes / 2e8;
    return now + 2 * slowest_step_s_ + 1.5 * write_s + 0.5 >= c_.wall_time;
  }
  bool watches_steps() const { return c_.wall_time > 0; }  // whether step_took is needed
  void step_took(double seconds) { slowest_step_s_ = std::max(slowest_step_s_, seconds); }
  void checkpoint_took(double seconds) { last_checkpoint_s_ = seconds; }

  const Cadence& cadence() const { return c_; }

 private:
  static bool on(long step, long every) { return every > 0 && step % every == 0; }
  static long passed(double interval, double now, long recorded) {
    if (!(interval > 0)) return 0;
    const double t = now * (1 + 1e-14);
    if (recorded * interval <= t && t < (recorded + 1) * interval) return recorded;
    return static_cast<long>(std::floor(t / interval));
  }

  Cadence c_;
  long outputs_done_ = 0, first_outputs_ = 0, checkpoints_done_ = 0;
  double last_wall_checkpoint_ = 0, slowest_step_s_ = 0, last_checkpoint_s_ = 0;
};

}  // namespace cfd::run
