// The run's checkpoints: what one records of the loop (the series so far,
// the history's length, the output and checkpoint times passed, the first
// step's dt), writing it, and keeping only the newest output.checkpoint_keep
// of them. The files themselves are core/checkpoint.hpp's.
#pragma once

#include "core/checkpoint.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace cfd::run {

// The state and counters of one step, taken when the step is reached and
// written then or later (the end-of-run checkpoint may hold the state
// before a shortened last step).
template <class State>
struct Moment {
  State state;
  Attributes clock;
  long step = 0;
  double time = 0;  // in the files' time
  long history_bytes = -1;
  std::vector<SnapshotSeries::Record> series;
  long outputs_done = 0, checkpoints_done = 0;
};

class CheckpointKeeper {
 public:
  // `from`: the checkpoint a continued run starts from (its list of kept
  // checkpoints and first dt carry on), or nullptr. `history_file`: the
  // history's name ("" without one). `snapshot_bytes`: the precision of the
  // series' fields. `root`: this is rank 0, which removes old checkpoints.
  CheckpointKeeper(const SnapshotSeries& series, std::string case_name, long keep, std::string history_file,
                   int snapshot_bytes, const CheckpointHeader* from, bool root)
      : series_(series), case_name_(std::move(case_name)), keep_(keep), root_(root) {
    record_.history_file = std::move(history_file);
    record_.series_bytes = snapshot_bytes;
    if (from) {
      record_.kept = from->loop.kept;
      record_.reference_dt = from->loop.reference_dt;
    }
  }

  // The first step's stable dt (run.dt_floor is relative to it); 0 until set.
  double reference_dt() const { return record_.reference_dt; }
  void set_reference_dt(double dt) { record_.reference_dt = dt; }

  // Writes the checkpoint of `m` (collective) and removes the oldest of
  // this run's beyond output.checkpoint_keep; returns its path.
  template <class State>
  std::string write(const Moment<State>& m) {
    record_.history_bytes = m.history_bytes;
    record_.series = m.series;
    record_.series_fields = series_.field_names();
    record_.outputs_done = m.outputs_done;
    record_.checkpoints_done = m.checkpoints_done;
    const std::string name = checkpoint_name(m.step);
    record_.kept.erase(std::remove(record_.kept.begin(), record_.kept.end(), name), record_.kept.end());
    record_.kept.push_back(name);
    while (keep_ > 0 && static_cast<long>(record_.kept.size()) > keep_) {
      // Only a checkpoint the manifest lists goes, and it leaves the
      // manifest too (a user's file later given its name is not removed).
      if (root_) series_.remove(record_.kept.front());
      record_.kept.erase(record_.kept.begin());
    }
    return write_checkpoint(series_, case_name_, m.step, m.time, m.state, m.clock, record_);
  }

 private:
  const SnapshotSeries& series_;
  std::string case_name_;
  long keep_;
  bool root_;
  LoopRecord record_;
};

}  // namespace cfd::run
