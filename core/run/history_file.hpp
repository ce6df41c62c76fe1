// The history file <solver>.hst: a CSV row of step, time, dt and the
// solver's totals every history_every steps, written by rank 0 alone. A new
// run writes it afresh; a run continued from a checkpoint cuts it back to
// the length it had there and appends. Only whole rows: a row that cannot
// be written (a full disk) is cut off again, so that the file ends with the
// last complete one. Never written through a link or a hard link (cutting
// it back would change the file under its other names), never into a named
// pipe or a device (files::open_no_follow), and never over a user's file
// that carries the name (SnapshotSeries::claim).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace cfd {
class SnapshotSeries;
struct LoopRecord;
}  // namespace cfd

namespace cfd::run {

class HistoryFile {
 public:
  HistoryFile() = default;
  // Opens `path` on rank 0 (`writer`); `from`: the loop record of the
  // checkpoint a continued run starts from (nullptr: a new run). `header`:
  // the comment and column-name lines of a new file.
  HistoryFile(const SnapshotSeries& series, const std::string& path, const std::string& header, bool writer,
              const LoopRecord* from);
  bool is_open() const { return file_ != nullptr; }
  // The name within the output folder (what a checkpoint records).
  const std::string& name() const { return name_; }
  // One row: step, time, dt (as 17 significant digits) and the totals.
  void append_row(long step, double time, double dt, const std::vector<double>& totals);
  // The file's length now (what a checkpoint records, so that a continued
  // run cuts it back there); 0 where it is not open.
  long bytes() const;
  void close() { file_.reset(); }

 private:
  void append(const std::string& text);
  std::string path_, name_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_{nullptr, std::fclose};
};

}  // namespace cfd::run
