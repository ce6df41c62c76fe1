// The output folder of a run: its lock against a second cfdrun, and the
// manifest of the files the run wrote, so that --overwrite removes cfdrun's
// files and no others (docs/output-format.md, "The output folder").
#pragma once

#include <string>
#include <vector>

namespace cfd {

// The output folder of a run (rank 0's): locked against a second cfdrun for
// as long as the run lasts, and with a manifest, .cfdrun-manifest, of the
// files the run wrote. A folder that holds results is refused unless
// `overwrite`; even then only the files an earlier run's manifest lists are
// removed, and only once the new run is under way (retire_previous), so a
// run that fails early leaves the old results as they were. A run that
// continues from a checkpoint (`continuing`) adds to the folder's manifest.
//
// Only regular files that cfdrun created, under the names it writes, are
// ever opened for writing or removed: a named pipe, socket, device, folder
// or link under one of its names (the lock and the manifest included) is
// refused, never opened, and a hard link is never written through
// (files::open_no_follow); a name the manifest lists is removed only if it
// is still a regular file (files::remove_own_file).
class OutputFolder {
 public:
  // `prefixes`: the names of the runs whose files the manifest may list, the
  // run's own first ("sod": sod.hst, sod_<step>.h5, ...; with every run's
  // checkpoint_* and diagnosis_*), then those of the other solvers, whose
  // earlier run in the folder --overwrite replaces. A manifest line naming
  // any other file ("notes.hst") is refused, since --overwrite would remove
  // it. Empty: any name of the forms cfdrun writes (files::is_output_name).
  OutputFolder(std::string dir, bool overwrite, bool continuing,
               std::vector<std::string> prefixes = {});  // throws std::runtime_error
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  // `path` (in the folder) is complete: recorded in the manifest.
  void wrote(const std::string& path);
  // Before `path` (in the folder) is written: refuses (std::runtime_error)
  // a file there that no run in this folder wrote (a user's file that
  // carries one of cfdrun's names), and anything there that is not a
  // regular file (a pipe, a socket, a device, a folder, a link), listed or
  // not; cfdrun's own files may be replaced.
  void claim(const std::string& path) const;
  // Whether the manifest lists `name`: a file of this run or of the run
  // it continues or replaces.
  bool listed(const std::string& name) const;
  // Removes this run's file `name` and drops it from the manifest (older
  // checkpoints beyond output.checkpoint_keep); a file the manifest does
  // not list is left alone, and so is anything that is no longer a regular
  // file (dropped from the manifest, with a warning: it is not cfdrun's).
  void remove(const std::string& name);
  // Removes the files of the earlier run's manifest that this run has not
  // written again (regular files only, as remove), and rewrites the
  // manifest with this run's files.
  void retire_previous();
  static constexpr const char* manifest_name = ".cfdrun-manifest";
  static constexpr const char* lock_name = ".cfdrun.lock";

 private:
  // What the folder holds: the manifest of the run it continues, or the
  // earlier run's files to replace; refuses results without `overwrite`.
  void take_stock(bool overwrite, bool continuing);
  void rewrite_manifest() const;
  // What is at `name` could not be removed (remove_own_file's reason): a
  // warning on stderr, since the run goes on.
  void left_in_place(const std::string& name, const std::string& why) const;
  std::string dir_;
  std::vector<std::string> prefixes_;  // the run's own first (empty: any of cfdrun's forms)
  int lock_fd_ = -1;
  std::vector<std::string> previous_;  // the earlier run's files (overwrite)
  std::vector<std::string> written_;   // this run's
};

// Prepares an output folder for a new run (OutputFolder without the lock):
// refuses one that holds results unless `overwrite`.
void prepare_output_dir(const std::string& dir, bool overwrite);

}  // namespace cfd
