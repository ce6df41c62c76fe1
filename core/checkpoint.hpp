// Checkpoints: everything a run needs to continue exactly where it stopped,
// in one HDF5 file, checkpoint_<8-digit step>.h5 in the output folder. The
// state is stored as global arrays without ghosts (each rank its hyperslab,
// as snapshots), so that a run written on N ranks continues on any number.
// After Idefix's dump.cpp and Parthenon's restart_hdf5.cpp; the layout is in
// docs/output-format.md.
#pragma once

#include "core/config.hpp"
#include "core/snapshot.hpp"

#include <string>
#include <vector>

namespace cfd {

// The time loop's bookkeeping at a checkpoint (core/run/time_loop.hpp).
struct LoopRecord {
  long outputs_done = 0;                       // output times passed: the next is (outputs_done + 1) * interval
  long checkpoints_done = 0;                   // checkpoint times passed, likewise
  double reference_dt = 0;                     // the first step's stable dt (the dt floor is relative to it)
  long history_bytes = -1;                     // length of the history file up to this step (-1: no history)
  std::string history_file;                    // its name in the output folder
  std::vector<SnapshotSeries::Record> series;  // the snapshots of the series up to this step
  std::vector<std::string> series_fields;
  int series_bytes = 8;
  std::vector<std::string> kept;  // this run's checkpoint files, oldest first (output.checkpoint_keep)
};

// What a checkpoint file holds besides the state.
struct CheckpointHeader {
  std::string path;
  long format = 0;  // checkpoint_format of the file
  std::string solver, precision, layout, case_name, configuration, cfdrun_version, git_revision;
  long step = 0;
  double time = 0;
  std::vector<long> global_n;      // points or cells along x, y
  std::vector<std::string> state;  // names of the state datasets
  Attributes clock;                // the solver's counters (step, time, ...)
  LoopRecord loop;
  // cfdrun --restart --output NEW: the run continues into another folder (a
  // branch), which starts afresh; the checkpoint's folder is not touched.
  bool new_folder = false;
};

// Checkpoint format version: 2 has a checksum (H5Writer's user block) that
// must match; 1, without one, is still read (with a warning); others are
// refused.
constexpr long checkpoint_format = 2;

std::string checkpoint_name(long step);

// Writes <dir>/checkpoint_<step>.h5 (collective), durable on disk before it
// is renamed into place. `state` is this rank's block of each state field
// in the working precision.
template <class Real>
std::string write_checkpoint(const SnapshotSeries& series, const std::string& case_name, long step, double time,
                             const std::vector<HostField<Real>>& state, const Attributes& clock,
                             const LoopRecord& loop);

// Reads the header of a checkpoint; throws ConfigError (a bad --restart
// argument, exit status 2) naming the file and what is wrong when it is not
// a checkpoint this cfdrun can continue.
CheckpointHeader read_checkpoint_header(const std::string& path);

// Refuses (ConfigError) a header whose counters and series cannot be those
// of a run: a negative step, a time that is not finite, a series out of
// order or after the checkpoint, names that are not cfdrun's.
void validate_checkpoint_header(const CheckpointHeader& header);

// This rank's block of each state field; refuses a file whose arrays do not
// match the run's grid or precision.
template <class Real>
std::vector<HostField<Real>> read_checkpoint_state(const CheckpointHeader& header, const Decomposition& dec);

// Removes what the earlier part of a run left in its folder beyond the
// checkpoint it continues from: snapshots of the series after it (or at its
// step but not in the series: the snapshot that only ended that part) and
// unfinished *.tmp files of the series and of checkpoints. Rank 0.
void clear_after_checkpoint(const SnapshotSeries& series, const CheckpointHeader& from);

// A counter of a solver's clock (Attributes from clock()); throws naming it
// when the checkpoint lacks it.
double clock_value(const Attributes& clock, const std::string& name);

}  // namespace cfd
