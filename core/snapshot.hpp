// Snapshots: one HDF5 file per output time plus one XDMF file per run that
// lists them as a time series, so ParaView and VisIt open the whole run.
// docs/output-format.md documents the layout.
#pragma once

#include "core/config.hpp"
#include "core/decomposition.hpp"
#include "core/global_file.hpp"
#include "core/grid.hpp"
#include "core/output_folder.hpp"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cfd {

// One file per snapshot whatever the rank count (GlobalFileWriter), and the
// XDMF index of the series.
class SnapshotSeries {
 public:
  // `folder` (rank 0's, may be null) records every file written.
  SnapshotSeries(std::string dir, std::string prefix, const Decomposition& dec, RunInfo info,
                 std::shared_ptr<OutputFolder> folder = nullptr);

  // Writes <dir>/<prefix>_<step>.h5 and rewrites <dir>/<prefix>.xdmf; collective.
  // A snapshot of the step of the last one replaces it. Returns the file path.
  template <class Real>
  std::string write(long step, double time, const std::vector<HostField<Real>>& fields, const Attributes& extra = {});
  // The fields of a state that is not physical, for diagnosis: written as a
  // snapshot named diagnosis_<step>.h5 with the attribute `fault`, not listed
  // in the series. Collective; returns the file path.
  template <class Real>
  std::string write_diagnosis(long step, double time, const std::vector<HostField<Real>>& fields,
                              const std::string& fault);

  // Snapshots deflated at this level, 1-9 (0: not); GlobalFileWriter::compress.
  void compress(int level) { files_.compress(level); }
  // The writer of the run's files of global arrays, which checkpoints share.
  const GlobalFileWriter& files() const { return files_; }
  // The unit of the grid's coordinates ("1" unless the solver says otherwise).
  void set_grid_units(std::string units) { grid_units_ = std::move(units); }

  // Another file of the run (history, text output) is complete; rank 0.
  void wrote(const std::string& path) const {
    if (folder_) folder_->wrote(path);
  }
  // Another file of the run is about to be written (OutputFolder::claim); rank 0.
  void claim(const std::string& path) const {
    if (folder_) folder_->claim(path);
  }
  // Whether the folder's manifest lists `name` (false on ranks other than 0).
  bool listed(const std::string& name) const { return folder_ && folder_->listed(name); }
  // Removes this run's file `name` (OutputFolder::remove); rank 0.
  void remove(const std::string& name) const {
    if (folder_) folder_->remove(name);
  }
  // The run is under way (its first snapshot written): an earlier run's
  // files it replaces go now.
  void under_way() const {
    if (folder_) folder_->retire_previous();
  }

  // The snapshots written so far (or resumed), oldest first.
  struct Record {
    long step;
    double time;
  };
  std::vector<Record> records() const;
  const std::vector<std::string>& field_names() const { return field_names_; }
  // A run continued from a checkpoint: the snapshots listed there are the
  // series so far (files <prefix>_<step>.h5 holding `fields`, in the precision
  // `bytes`); the XDMF index is rewritten on rank 0, listing those of them
  // that are still in the folder.
  void resume(const std::vector<Record>& records, const std::vector<std::string>& fields, int bytes);

  const std::string& xdmf_path() const { return xdmf_path_; }
  const std::string& dir() const { return dir_; }
  const std::string& prefix() const { return prefix_; }
  const Decomposition& decomposition() const { return dec_; }
  // The path of the snapshot of `step`.
  std::string file_of(long step) const;
  // The blocks of all ranks assembled into the global array on rank 0 (x
  // fastest); empty on the other ranks.
  template <class Real>
  std::vector<Real> gather(const std::vector<Real>& block) const {
    return files_.gather(block);
  }

 private:
  struct Entry {
    std::string file;
    long step;
    double time;
  };
  template <class Real>
  void write_snapshot(const std::string& path, long step, double time, const std::vector<HostField<Real>>& fields,
                      const Attributes& extra, const std::string& fault) const;
  void write_xdmf() const;

  std::string dir_, prefix_, xdmf_path_;
  Decomposition dec_;
  GridBlock grid_;  // the global grid
  GlobalFileWriter files_;
  std::vector<Entry> entries_;
  std::vector<std::string> field_names_;
  int bytes_ = 8;
  std::shared_ptr<OutputFolder> folder_;
  std::string grid_units_ = "1";
};

}  // namespace cfd

namespace cfd {

// More snapshots than this in one run is a mistake in the case (an output
// interval far below the step), refused or stopped rather than written.
constexpr double max_snapshots = 1e6;

// The `output` section every solver shares.
struct OutputSettings {
  std::string dir;          // empty: "<case name>.out" beside the working folder
  long every = 0;           // snapshot every N steps; 0 = initial and final only
  long history_every = 10;  // a row of <solver>.hst every N steps (0: none)
  bool overwrite = false;
  double progress_seconds = 5;
  // Checkpoints (core/checkpoint.hpp): every N steps, every T of simulated
  // time, every S seconds of wall clock, at the end; the newest `keep` of
  // them kept (0: all).
  long checkpoint_every = 0;
  double checkpoint_interval = 0;
  double checkpoint_wall_seconds = 0;
  long checkpoint_keep = 0;
  bool checkpoint_at_end = true;
  int compression = 0;                   // deflate level of snapshots (0: none)
  std::shared_ptr<OutputFolder> folder;  // rank 0's lock and manifest; null on other ranks
};
std::vector<KeySpec> output_keys();
// The output section of a case, its folder resolved (an empty output.dir
// means "<case_name>.out") and prepared by prepare_output_dir on rank 0; a
// refusal there ends every rank with the same message. A run that continues
// from a checkpoint (`continuing`) writes into the folder as it is.
// `prefixes`: the names of the runs whose files the folder's manifest may
// list, the run's own first (OutputFolder's; empty: any of cfdrun's forms).
OutputSettings open_output(const Config& config, const std::string& case_name, const Comm& comm = Comm::world(),
                           bool continuing = false, const std::vector<std::string>& prefixes = {});

}  // namespace cfd
