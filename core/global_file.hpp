// The HDF5 files of a run whose datasets are global arrays, whatever the
// rank count: snapshots (core/snapshot.hpp) and checkpoints
// (core/checkpoint.hpp) both. Every rank passes the fields of its own block,
// and either each rank writes its hyperslab with parallel HDF5 (where HDF5 is
// built for MPI) or rank 0 writes the global arrays, the blocks gathered to
// it in rank order. Files do not depend on how the run was split, nor on
// which of the two wrote them. Also what every file records of the run.
#pragma once

#include "core/decomposition.hpp"
#include "core/grid.hpp"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cfd {

// What every output file records about the run that wrote it.
struct RunInfo {
  std::string solver;
  std::string precision;  // "fp32" | "fp64"
  std::string layout;
  std::string execution_space;
  std::string config_yaml;  // resolved configuration, defaults included
};

// One field on the owned entries of a block, x fastest (C order [nz][ny][nx]).
template <class Real>
struct HostField {
  using value_type = Real;
  std::string name;
  std::vector<Real> values;
  std::string units;        // stored as the dataset's attribute `units` ("1": dimensionless)
  std::string description;  // and `description`
};

using Attributes = std::vector<std::pair<std::string, double>>;

class H5Writer;
class OutputFolder;

class GlobalFileWriter {
 public:
  // `folder` (rank 0's, may be null) records every file written and refuses
  // to replace a file no cfdrun run wrote.
  GlobalFileWriter(const Decomposition& dec, RunInfo info, std::shared_ptr<OutputFolder> folder = nullptr);

  // One HDF5 file of global datasets <group>/<name>, one per field, from the
  // blocks of all ranks (parallel HDF5 or gathered to rank 0), then on rank 0
  // alone `rest` (attributes, more datasets) and the commit. Collective.
  // `durable` (checkpoints): on disk before it is renamed into place, with a
  // checksum (H5Writer) that a restart verifies, and never compressed.
  template <class Real>
  void write(const std::string& path, const std::string& group, const std::vector<HostField<Real>>& fields,
             const std::function<void(H5Writer&)>& rest, bool durable = false) const;
  // Files that are not durable deflated at this level, 1-9 (0: not).
  // Filters need collective writes, which Open MPI 4.1's OMPIO gets wrong
  // (H5Writer::write_block), so compressed files are gathered to rank 0.
  void compress(int level) { compression_ = level; }
  // The attributes every file of the run carries: time, step, solver,
  // build, configuration, grid and ranks.
  void write_run_attributes(H5Writer& file, long step, double time) const;
  // The `units` and `description` attributes of the datasets <group>/<name>.
  template <class Real>
  void describe_fields(H5Writer& file, const std::string& group, const std::vector<HostField<Real>>& fields) const;
  // The blocks of all ranks assembled into the global array on rank 0 (x
  // fastest); empty on the other ranks.
  template <class Real>
  std::vector<Real> gather(const std::vector<Real>& block) const;

 private:
  bool parallel_writer() const;

  Decomposition dec_;
  GridBlock grid_;  // the global grid
  RunInfo info_;
  std::shared_ptr<OutputFolder> folder_;
  int compression_ = 0;
};

}  // namespace cfd
