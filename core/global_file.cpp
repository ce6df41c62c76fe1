#include "core/global_file.hpp"

#include "core/hdf5_file.hpp"
#include "core/kokkos_compat.hpp"
#include "core/output_folder.hpp"
#include "core/version.hpp"

#include <cstdlib>
#include <optional>
#include <stdexcept>

namespace cfd {

GlobalFileWriter::GlobalFileWriter(const Decomposition& dec, RunInfo info, std::shared_ptr<OutputFolder> folder)
    : dec_(dec), grid_(dec.block), info_(std::move(info)), folder_(std::move(folder)) {
  grid_.offset = {0, 0, 0};
  grid_.n = grid_.global_n;
}

bool GlobalFileWriter::parallel_writer() const {
  if (!parallel_hdf5() || dec_.comm.size() == 1) return false;
  // CFDRUN_SNAPSHOT_WRITER=rank0 takes the path of builds without parallel
  // HDF5, so that one build tests both.
  const char* choice = std::getenv("CFDRUN_SNAPSHOT_WRITER");
  return !(choice && std::string(choice) == "rank0");
}

template <class Real>
std::vector<Real> GlobalFileWriter::gather(const std::vector<Real>& block) const {
  if (static_cast<long>(block.size()) != dec_.block.owned_count())
    throw std::logic_error("snapshot: a field has the wrong size for its block");
  if (dec_.comm.size() == 1) return block;
  const std::vector<Real> all = dec_.comm.gather(block);
  if (!dec_.comm.is_root()) return {};
  std::vector<Real> global(static_cast<size_t>(grid_.owned_count()));
  size_t k = 0;
  for (int r = 0; r < dec_.comm.size(); ++r) {
    const GridBlock b = dec_.block_of(r);
    for (long z = 0; z < b.n[2]; ++z)
      for (long y = 0; y < b.n[1]; ++y)
        for (long x = 0; x < b.n[0]; ++x)
          global[static_cast<size_t>(((b.offset[2] + z) * grid_.n[1] + b.offset[1] + y) * grid_.n[0] + b.offset[0] +
                                     x)] = all[k++];
  }
  return global;
}

template std::vector<float> GlobalFileWriter::gather(const std::vector<float>&) const;
template std::vector<double> GlobalFileWriter::gather(const std::vector<double>&) const;

template <class Real>
void GlobalFileWriter::write(const std::string& path, const std::string& group,
                             const std::vector<HostField<Real>>& block_fields,
                             const std::function<void(H5Writer&)>& rest, bool durable) const {
  // With parallel HDF5 every rank writes its block into the one file;
  // otherwise rank 0 holds one global field at a time, gathered, written
  // and dropped.
  const bool compressed = compression_ > 0 && !durable;  // checkpoints stay as they are
  const bool parallel = parallel_writer() && !compressed;
  std::optional<H5Writer> file;
#ifdef CFDRUN_HAVE_PARALLEL_HDF5
  if (parallel) {
    if (folder_) folder_->claim(path);  // rank 0; a refusal there ends every rank (cfdrun's main)
    file.emplace(path, dec_.comm.handle(), durable);
  }
#endif
  if (!parallel && dec_.comm.is_root()) {
    if (folder_) folder_->claim(path);
    file.emplace(path, durable);
    if (compressed) file->compress(compression_);
  }
  std::vector<hsize_t> dims, offset, count;
  for (int d = grid_.ndim - 1; d >= 0; --d) {
    dims.push_back(static_cast<hsize_t>(grid_.n[d]));
    offset.push_back(static_cast<hsize_t>(dec_.block.offset[d]));
    count.push_back(static_cast<hsize_t>(dec_.block.n[d]));
  }
  for (const auto& f : block_fields) {
    if (parallel) {
      if (static_cast<long>(f.values.size()) != dec_.block.owned_count())
        throw std::logic_error("output: field " + f.name + " has the wrong size for its block");
      file->block(group + "/" + f.name, f.values.data(), dims, offset, count);
      continue;
    }
    const std::vector<Real> values = gather(f.values);
    if (!file) continue;
    if (static_cast<long>(values.size()) != grid_.owned_count())
      throw std::logic_error("output: field " + f.name + " has the wrong size");
    file->dataset(group + "/" + f.name, values.data(), dims);
  }
  if (!file || !file->end_collective()) return;
  rest(*file);
  file->commit(durable);
  if (folder_) folder_->wrote(path);
}

template void GlobalFileWriter::write(const std::string&, const std::string&, const std::vector<HostField<float>>&,
                                      const std::function<void(H5Writer&)>&, bool) const;
template void GlobalFileWriter::write(const std::string&, const std::string&, const std::vector<HostField<double>>&,
                                      const std::function<void(H5Writer&)>&, bool) const;

template <class Real>
void GlobalFileWriter::describe_fields(H5Writer& file, const std::string& group,
                                       const std::vector<HostField<Real>>& fields) const {
  for (const auto& f : fields) {
    if (!f.units.empty()) file.dataset_attribute(group + "/" + f.name, "units", f.units);
    if (!f.description.empty()) file.dataset_attribute(group + "/" + f.name, "description", f.description);
  }
}

template void GlobalFileWriter::describe_fields(H5Writer&, const std::string&,
                                                const std::vector<HostField<float>>&) const;
template void GlobalFileWriter::describe_fields(H5Writer&, const std::string&,
                                                const std::vector<HostField<double>>&) const;

void GlobalFileWriter::write_run_attributes(H5Writer& file, long step, double time) const {
  const char* axis[3] = {"x", "y", "z"};
  file.attribute("time", time);
  file.attribute("step", step);
  // The format of the files users' scripts read (docs/output-format.md,
  // "Format versions"): raised when something they read changes.
  file.attribute("output_format", long{2});
  file.attribute("solver", info_.solver);
  file.attribute("precision", info_.precision);
  file.attribute("layout", info_.layout);
  file.attribute("execution_space", info_.execution_space);
  file.attribute("cfdrun_version", std::string(version));
  file.attribute("git_revision", std::string(git_revision));
  file.attribute("kokkos_version", kokkos_version_string());
  file.attribute("configuration", info_.config_yaml);
  file.attribute("centering", std::string(grid_.centering == Centering::cell ? "cell" : "node"));
  for (int d = 0; d < grid_.ndim; ++d) {
    file.attribute(std::string("global_n") + axis[d], grid_.global_n[d]);
    file.attribute(std::string("offset_") + axis[d], grid_.offset[d]);
    file.attribute(std::string("ranks_") + axis[d], static_cast<long>(dec_.ranks[d]));
  }
  file.attribute("ranks", static_cast<long>(dec_.comm.size()));
  file.attribute("process_grid", dec_.process_grid());
  // Compressed snapshots are gathered to rank 0 (write).
  file.attribute("writer", std::string(parallel_writer() && !file.compressed() ? "parallel HDF5" : "rank 0"));
}

}  // namespace cfd
