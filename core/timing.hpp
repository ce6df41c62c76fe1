// Wall-clock timing of a solve, broken down as the original study reports it
// (problems.md section 1), and the progress line of long runs.
#pragma once

#include "core/clock.hpp"
#include "core/comm.hpp"
#include "core/kokkos_compat.hpp"
#include "core/snapshot.hpp"

#include <cstdio>
#include <functional>
#include <string>

namespace cfd {

struct SolveTimings {
  double total_s = 0;   // the whole solve: allocation, transfers, loop, release
  double loop_s = 0;    // time stepping only (snapshot output excluded)
  double h2d_s = 0;     // initial state to the device
  double d2h_s = 0;     // final state back to the host
  double exit_s = 0;    // releasing the device data
  double output_s = 0;  // snapshots written during the loop
  long cell_updates = 0;

  double updates_per_second() const { return loop_s > 0 ? cell_updates / loop_s : 0.0; }

  // Each time as the slowest rank's: a run takes as long as its slowest block.
  void take_slowest(const Comm& comm) {
    for (double* t : {&total_s, &loop_s, &h2d_s, &d2h_s, &exit_s, &output_s}) *t = comm.max(*t);
  }

  Attributes attributes() const {
    return {{"timing_total_s", total_s},
            {"timing_loop_s", loop_s},
            {"timing_h2d_s", h2d_s},
            {"timing_d2h_s", d2h_s},
            {"timing_exit_s", exit_s},
            {"timing_output_s", output_s},
            {"cell_updates", static_cast<double>(cell_updates)},
            {"cell_updates_per_s", updates_per_second()}};
  }

  std::string summary() const {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "TOTAL_S %.6f  LOOP_S %.6f  H2D_S %.6f  D2H_S %.6f  EXIT_S %.6f  OUTPUT_S %.6f\n"
                  "cell updates %ld, %.4g per second",
                  total_s, loop_s, h2d_s, d2h_s, exit_s, output_s, cell_updates, updates_per_second());
    return buf;
  }
};

// Prints a line every `interval_s` seconds of wall time: step, time, dt,
// throughput and the estimated time left, from the step count or, for runs to
// an end time (end_time > 0), from the simulated time. Silent when quiet or
// interval <= 0.
class Progress {
 public:
  // A run continued from a checkpoint starts at `first_step`, `first_time`.
  Progress(bool quiet, double interval_s, long total_steps, long updates_per_step, double end_time = 0,
           long first_step = 0, double first_time = 0)
      : enabled_(!quiet && interval_s > 0),
        interval_s_(interval_s),
        total_steps_(total_steps),
        updates_per_step_(updates_per_step),
        end_time_(end_time),
        first_step_(first_step),
        first_time_(first_time) {}

  // `note`, when given, adds the solver's own words to the line (called only
  // when a line is printed).
  void update(long step, double time, double dt, const std::function<std::string()>& note = {}) {
    if (!enabled_) return;
    const double now = clock_.seconds();
    if (now - last_ < interval_s_) return;
    last_ = now;
    const double done = end_time_ > 0 ? time / end_time_ : static_cast<double>(step) / total_steps_;
    // The rate of this run's own steps gives the time left.
    const double start = end_time_ > 0 ? first_time_ / end_time_ : static_cast<double>(first_step_) / total_steps_;
    const double eta = done > start ? now * (1 - done) / (done - start) : 0.0;
    const double rate = now > 0 ? static_cast<double>(updates_per_step_) * (step - first_step_) / now : 0.0;
    char left[32] = "--:--:--";
    if (eta < 1e6)
      std::snprintf(left, sizeof left, "%02ld:%02ld:%02ld", static_cast<long>(eta) / 3600,
                    static_cast<long>(eta) / 60 % 60, static_cast<long>(eta) % 60);
    const std::string extra = note ? "  " + note() : "";
    std::printf("[progress] step %ld (%.1f%%)  t = %.6g  dt = %.4g  %.3g cell-updates/s  ETA %s%s\n", step,
                100.0 * done, time, dt, rate, left, extra.c_str());
    std::fflush(stdout);
  }

 private:
  bool enabled_;
  double interval_s_;
  long total_steps_, updates_per_step_;
  double end_time_;
  long first_step_;
  double first_time_;
  Stopwatch clock_;
  double last_ = 0;
};

}  // namespace cfd
