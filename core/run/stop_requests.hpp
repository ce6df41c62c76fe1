// What a rank asks the loop to do before the next step: write a checkpoint
// (the wall-clock cadence), stop before the wall-time limit, or stop for a
// signal. The ranks must act alike, so the requests are combined across
// ranks with an OR: a request made on any rank holds on all of them.
//
// The OR rides in the reduction that agrees on the time step (one
// reduction a step, not two): each request has a slot of its own holding
// -1 when asked and 0 when not, and the minimum over ranks of a slot is -1
// exactly when some rank asked, which is the OR of that request. (One slot
// holding all requests as one number would give their maximum instead.)
#pragma once

namespace cfd::run {

struct StopRequests {
  bool checkpoint = false;  // by the wall clock (output.checkpoint_wall_seconds)
  bool wall_time = false;   // stop with a checkpoint before run.wall_time
  bool signal = false;      // stop with a checkpoint: SIGINT, SIGTERM, SIGUSR1 ...

  static constexpr int slots = 3;
  bool stop() const { return wall_time || signal; }

  // This rank's requests into `slots` doubles of the step reduction.
  void to_slots(double* s) const {
    s[0] = checkpoint ? -1.0 : 0.0;
    s[1] = wall_time ? -1.0 : 0.0;
    s[2] = signal ? -1.0 : 0.0;
  }
  // The requests of all ranks from the slots after the MIN reduction: each
  // one asked on any rank.
  static StopRequests from_min_of_slots(const double* s) {
    StopRequests r;
    r.checkpoint = s[0] < 0;
    r.wall_time = s[1] < 0;
    r.signal = s[2] < 0;
    return r;
  }
  StopRequests operator|(const StopRequests& o) const {
    return {checkpoint || o.checkpoint, wall_time || o.wall_time, signal || o.signal};
  }
  bool operator==(const StopRequests& o) const {
    return checkpoint == o.checkpoint && wall_time == o.wall_time && signal == o.signal;
  }
};

// The time step and the requests agreed by all ranks in one reduction:
// the minimum of the ranks' stable steps and the OR of their requests.
// `Reduce` is Comm (min over an array of doubles) or, in the unit tests, a
// stand-in for several ranks.
struct StepAgreement {
  double dt;
  StopRequests requests;
};
template <class Reduce>
StepAgreement agree_on_step(const Reduce& comm, double local_dt, const StopRequests& mine) {
  double v[1 + StopRequests::slots];
  v[0] = local_dt;
  mine.to_slots(v + 1);
  comm.min(v, 1 + StopRequests::slots);
  return {v[0], StopRequests::from_min_of_slots(v + 1)};
}

}  // namespace cfd::run
