#include "core/snapshot.hpp"

#include "core/config.hpp"
#include "core/hdf5_file.hpp"
#include "core/kokkos_compat.hpp"
#include "core/safe_files.hpp"
#include "core/version.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace cfd {

namespace {

// Results in a folder that has no manifest (an older cfdrun, or files put
// there by hand): what makes a folder one that "holds results".
bool looks_like_results(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".h5" || ext == ".xdmf" || ext == ".hst" || files::is_output_name(p.filename().string());
}

// The names a manifest lists. Every one must have a form cfdrun writes: the
// names are removed by --overwrite, so a manifest changed to name
// "../thesis.tex" is refused, not followed.
std::vector<std::string> read_manifest(const std::string& path) {
  std::vector<std::string> names;
  if (!files::entry_exists(path)) return names;
  std::FILE* f = files::fopen_no_follow(path, "r");
  std::string text;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0 && text.size() < (64u << 20)) text.append(buffer, n);
  std::fclose(f);
  std::istringstream in(text);
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    if (!files::is_output_name(line))
      throw std::runtime_error(path + ":" + std::to_string(number) + ": '" + line.substr(0, 80) +
                               "' is not the name of a file cfdrun writes; the manifest was changed or damaged "
                               "(cfdrun removes only the files it lists; remove it, and the folder's results "
                               "by hand)");
    if (std::find(names.begin(), names.end(), line) == names.end()) names.push_back(line);
  }
  return names;
}

}  // namespace

OutputFolder::OutputFolder(std::string dir, bool overwrite, bool continuing) : dir_(std::move(dir)) {
  std::error_code ec;
  if (files::is_link(dir_) && !fs::exists(dir_, ec))
    throw std::runtime_error(dir_ + ": the output path is a symbolic link to " + fs::read_symlink(dir_, ec).string() +
                             ", which does not exist");
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec))
    throw std::runtime_error(dir_ + ": the output path exists and is not a folder");
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(dir_ + ": cannot create the output folder: " + ec.message());

  // One run per folder: an advisory lock the system drops when the process
  // ends, however it ends.
  // The lock is never opened through a link (a link planted under its
  // name would have cfdrun write the holder's pid into the file it names).
  const std::string lock_path = dir_ + "/" + lock_name;
  try {
    lock_fd_ = files::open_no_follow(lock_path, O_RDWR | O_CREAT);
  } catch (const std::runtime_error& e) {
    const int why = errno;
    if (files::is_link(lock_path)) throw;
    throw std::runtime_error(dir_ + ": cannot write in the output folder: " + std::strerror(why));
  }
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int why = errno;
    char holder[256] = {0};
    const ssize_t n = pread(lock_fd_, holder, sizeof holder - 1, 0);
    close(lock_fd_);
    lock_fd_ = -1;
    if (why == EWOULDBLOCK)
      throw std::runtime_error(dir_ + ": another cfdrun is writing to this folder (" +
                               (n > 0 ? std::string(holder, static_cast<size_t>(n)) : std::string("pid unknown")) +
                               "); wait for it to end, or choose another output.dir");
    throw std::runtime_error(dir_ + ": cannot lock the output folder: " + std::strerror(why));
  }
  char host[128] = "?";
  gethostname(host, sizeof host - 1);
  const std::string holder = "pid " + std::to_string(getpid()) + " on " + host;
  if (ftruncate(lock_fd_, 0) == 0 && pwrite(lock_fd_, holder.data(), holder.size(), 0) < 0) {
    // The lock holds without the note of who holds it.
  }

  try {
    take_stock(overwrite, continuing);
  } catch (...) {
    close(lock_fd_);  // a refused folder is not held
    lock_fd_ = -1;
    throw;
  }
}

void OutputFolder::take_stock(bool overwrite, bool continuing) {
  std::error_code ec;
  const std::string manifest = dir_ + "/" + manifest_name;
  if (continuing) {
    written_ = read_manifest(manifest);
    return;
  }
  std::vector<std::string> results;
  for (const auto& entry : fs::directory_iterator(dir_, ec))
    if ((entry.is_symlink(ec) || entry.is_regular_file(ec)) && looks_like_results(entry.path()))
      results.push_back(entry.path().filename());
  std::sort(results.begin(), results.end());
  const bool has_manifest = files::entry_exists(manifest);
  if ((has_manifest || !results.empty()) && !overwrite)
    throw std::runtime_error(dir_ + ": the output folder already holds results (" +
                             (results.empty() ? std::string(manifest_name) : results.front() + ", ...") +
                             "); choose another output.dir, or pass --overwrite to replace them");
  if (has_manifest) previous_ = read_manifest(manifest);
  // --overwrite replaces cfdrun's own files, those the manifest lists; a
  // file that merely carries one of cfdrun's names is the user's.
  for (const auto& name : results)
    if (files::is_output_name(name) && std::find(previous_.begin(), previous_.end(), name) == previous_.end())
      throw std::runtime_error(dir_ + "/" + name +
                               ": has the name of a file cfdrun writes, but no cfdrun run in this folder wrote it (it "
                               "is not in " +
                               manifest_name +
                               "); --overwrite replaces only cfdrun's own files: move it away, or choose another "
                               "output.dir");
}

OutputFolder::~OutputFolder() {
  if (lock_fd_ >= 0) close(lock_fd_);  // drops the lock
}

void OutputFolder::wrote(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  if (std::find(written_.begin(), written_.end(), name) != written_.end()) return;
  written_.push_back(name);
  // Appended at once: a run that fails later still lists what it wrote.
  // Never through a link: a link planted as the manifest is refused.
  std::FILE* f = files::fopen_no_follow(dir_ + "/" + manifest_name, "a");
  const bool ok = std::fprintf(f, "%s\n", name.c_str()) > 0;
  if (std::fclose(f) != 0 || !ok)
    throw std::runtime_error(dir_ + "/" + manifest_name + ": cannot write: " + std::strerror(errno));
}

bool OutputFolder::listed(const std::string& name) const {
  return std::find(written_.begin(), written_.end(), name) != written_.end() ||
         std::find(previous_.begin(), previous_.end(), name) != previous_.end();
}

void OutputFolder::claim(const std::string& path) const {
  const std::string name = fs::path(path).filename().string();
  if (!files::entry_exists(path) || listed(name)) return;
  throw std::runtime_error(path + ": a file that no cfdrun run in this folder wrote (it is not in " + manifest_name +
                           ") has the name of one this run writes; cfdrun does not replace it: move it away, or "
                           "choose another output.dir");
}

void OutputFolder::remove(const std::string& name) {
  if (!listed(name)) return;
  std::error_code ec;
  fs::remove(dir_ + "/" + name, ec);  // removes a link itself, never what it names
  written_.erase(std::remove(written_.begin(), written_.end(), name), written_.end());
  previous_.erase(std::remove(previous_.begin(), previous_.end(), name), previous_.end());
  rewrite_manifest();
}

void OutputFolder::rewrite_manifest() const {
  std::string text = "# cfdrun: the files of the run in this folder; --overwrite removes these and no others\n";
  for (const auto& name : previous_) text += name + "\n";
  for (const auto& name : written_)
    if (std::find(previous_.begin(), previous_.end(), name) == previous_.end()) text += name + "\n";
  files::write_file_atomically(dir_ + "/" + manifest_name, text);
}

void OutputFolder::retire_previous() {
  if (previous_.empty()) return;
  std::error_code ec;
  for (const auto& name : previous_)
    if (std::find(written_.begin(), written_.end(), name) == written_.end()) fs::remove(dir_ + "/" + name, ec);
  previous_.clear();
  rewrite_manifest();
}

void prepare_output_dir(const std::string& dir, bool overwrite) {
  OutputFolder folder(dir, overwrite, false);
  folder.retire_previous();
}

SnapshotSeries::SnapshotSeries(std::string dir, std::string prefix, const Decomposition& dec, RunInfo info,
                               std::shared_ptr<OutputFolder> folder)
    : dir_(std::move(dir)),
      prefix_(std::move(prefix)),
      xdmf_path_(dir_ + "/" + prefix_ + ".xdmf"),
      dec_(dec),
      grid_(dec.block),
      info_(std::move(info)),
      folder_(std::move(folder)) {
  grid_.offset = {0, 0, 0};
  grid_.n = grid_.global_n;
}

bool SnapshotSeries::parallel_writer() const {
  if (!parallel_hdf5() || dec_.comm.size() == 1) return false;
  // CFDRUN_SNAPSHOT_WRITER=rank0 takes the path of builds without parallel
  // HDF5, so that one build tests both.
  const char* choice = std::getenv("CFDRUN_SNAPSHOT_WRITER");
  return !(choice && std::string(choice) == "rank0");
}

template <class Real>
std::vector<Real> SnapshotSeries::gather(const std::vector<Real>& block) const {
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

template std::vector<float> SnapshotSeries::gather(const std::vector<float>&) const;
template std::vector<double> SnapshotSeries::gather(const std::vector<double>&) const;

std::string SnapshotSeries::file_of(long step) const {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%08ld.h5", prefix_.c_str(), step);
  return dir_ + "/" + name;
}

template <class Real>
void SnapshotSeries::write_global(const std::string& path, const std::string& group,
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
    claim(path);  // rank 0; a refusal there ends every rank (cfdrun's main)
    file.emplace(path, dec_.comm.handle(), durable);
  }
#endif
  if (!parallel && dec_.comm.is_root()) {
    claim(path);
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
  wrote(path);
}

template void SnapshotSeries::write_global(const std::string&, const std::string&, const std::vector<HostField<float>>&,
                                           const std::function<void(H5Writer&)>&, bool) const;
template void SnapshotSeries::write_global(const std::string&, const std::string&,
                                           const std::vector<HostField<double>>&, const std::function<void(H5Writer&)>&,
                                           bool) const;

template <class Real>
void SnapshotSeries::describe_fields(H5Writer& file, const std::string& group,
                                     const std::vector<HostField<Real>>& fields) const {
  for (const auto& f : fields) {
    if (!f.units.empty()) file.dataset_attribute(group + "/" + f.name, "units", f.units);
    if (!f.description.empty()) file.dataset_attribute(group + "/" + f.name, "description", f.description);
  }
}

template void SnapshotSeries::describe_fields(H5Writer&, const std::string&,
                                              const std::vector<HostField<float>>&) const;
template void SnapshotSeries::describe_fields(H5Writer&, const std::string&,
                                              const std::vector<HostField<double>>&) const;

void SnapshotSeries::write_run_attributes(H5Writer& file, long step, double time) const {
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
  // Compressed snapshots are gathered to rank 0 (write_global).
  file.attribute("writer", std::string(parallel_writer() && !file.compressed() ? "parallel HDF5" : "rank 0"));
}

template <class Real>
void SnapshotSeries::write_snapshot(const std::string& path, long step, double time,
                                    const std::vector<HostField<Real>>& fields, const Attributes& extra,
                                    const std::string& fault) const {
  write_global(path, "fields", fields, [&](H5Writer& file) {
    const char* axis[3] = {"x", "y", "z"};
    for (int d = 0; d < grid_.ndim; ++d) {
      std::vector<double> c(grid_.n[d]);
      for (long k = 0; k < grid_.n[d]; ++k) c[k] = grid_.coordinate(d, grid_.offset[d] + k);
      file.dataset(std::string("grid/") + axis[d], c.data(), {static_cast<hsize_t>(c.size())});
      if (grid_.centering == Centering::cell) {
        std::vector<double> f(grid_.n[d] + 1);
        for (long k = 0; k <= grid_.n[d]; ++k) f[k] = grid_.face(d, grid_.offset[d] + k);
        file.dataset(std::string("grid/") + axis[d] + "_faces", f.data(), {static_cast<hsize_t>(f.size())});
      }
    }
    for (int d = 0; d < grid_.ndim; ++d) {
      const std::string what = grid_.centering == Centering::cell ? "cell centres" : "points";
      file.dataset_attribute(std::string("grid/") + axis[d], "description",
                             std::string(axis[d]) + " coordinate of the " + what);
      file.dataset_attribute(std::string("grid/") + axis[d], "units", grid_units_);
      if (grid_.centering == Centering::cell) {
        file.dataset_attribute(std::string("grid/") + axis[d] + "_faces", "description",
                               std::string(axis[d]) + " coordinate of the cell faces");
        file.dataset_attribute(std::string("grid/") + axis[d] + "_faces", "units", grid_units_);
      }
    }
    describe_fields(file, "fields", fields);
    write_run_attributes(file, step, time);
    if (!fault.empty()) file.attribute("fault", fault);
    for (const auto& [key, value] : extra) file.attribute(key, value);
  });
}

template <class Real>
std::string SnapshotSeries::write(long step, double time, const std::vector<HostField<Real>>& fields,
                                  const Attributes& extra) {
  const std::string path = file_of(step);
  write_snapshot(path, step, time, fields, extra, "");
  field_names_.clear();
  for (const auto& f : fields) field_names_.push_back(f.name);
  bytes_ = static_cast<int>(sizeof(Real));
  if (!entries_.empty() && entries_.back().step == step) entries_.pop_back();
  entries_.push_back({path.substr(dir_.size() + 1), step, time});
  if (dec_.comm.is_root()) write_xdmf();
  return path;
}

template <class Real>
std::string SnapshotSeries::write_diagnosis(long step, double time, const std::vector<HostField<Real>>& fields,
                                            const std::string& fault) {
  char name[64];
  std::snprintf(name, sizeof name, "diagnosis_%08ld.h5", step);
  const std::string path = dir_ + "/" + name;
  write_snapshot(path, step, time, fields, {}, fault);
  return path;
}

template std::string SnapshotSeries::write<float>(long, double, const std::vector<HostField<float>>&,
                                                  const Attributes&);
template std::string SnapshotSeries::write<double>(long, double, const std::vector<HostField<double>>&,
                                                   const Attributes&);
template std::string SnapshotSeries::write_diagnosis<float>(long, double, const std::vector<HostField<float>>&,
                                                            const std::string&);
template std::string SnapshotSeries::write_diagnosis<double>(long, double, const std::vector<HostField<double>>&,
                                                             const std::string&);

std::vector<SnapshotSeries::Record> SnapshotSeries::records() const {
  std::vector<Record> out;
  for (const auto& e : entries_) out.push_back({e.step, e.time});
  return out;
}

void SnapshotSeries::resume(const std::vector<Record>& records, const std::vector<std::string>& fields, int bytes) {
  entries_.clear();
  // An index never names a file that is not there (one removed by hand
  // since the checkpoint was written).
  for (const auto& r : records)
    if (!dec_.comm.is_root() || files::entry_exists(file_of(r.step)))
      entries_.push_back({file_of(r.step).substr(dir_.size() + 1), r.step, r.time});
  field_names_ = fields;
  bytes_ = bytes;
  if (dec_.comm.is_root()) write_xdmf();
}

// The components of the `velocity` vector attribute of the XDMF index: vx,
// vy, vz where the snapshot has vx ("" for a component it lacks, written as
// zero), or u in a 1D run (sod's velocity); none otherwise (diffusion's u is
// its solution, not a velocity).
static std::vector<std::string> xdmf_velocity(const std::vector<std::string>& fields, int ndim) {
  auto has = [&](const char* name) { return std::find(fields.begin(), fields.end(), name) != fields.end(); };
  if (has("vx")) return {"vx", has("vy") ? "vy" : "", has("vz") ? "vz" : ""};
  if (ndim == 1 && has("u")) return {"u", "", ""};
  return {};
}

// The mesh of a cell-centred series, <prefix>_mesh.hdf5: the cell corners
// (`points`, [point][x y], x fastest, from the grid's faces; y = 0 in 1D) and
// each cell's corners (`cells`, [cell][corner], as int64 indices into
// `points`, cells in the fields' order: x fastest): quadrilaterals in 2D,
// counter-clockwise, and two-point lines in 1D. Written by rank 0 alone,
// as every file of the run through a temporary file (H5Writer).
static void write_cell_mesh(const std::string& path, const GridBlock& grid, const std::string& prefix,
                            const std::string& units) {
  const bool two = grid.ndim > 1;
  const long nx = grid.n[0], ny = two ? grid.n[1] : 1;
  const long px = nx + 1, py = two ? ny + 1 : 1;
  const long corners = two ? 4 : 2;
  std::vector<double> points(static_cast<size_t>(px * py * 2));
  for (long j = 0; j < py; ++j)
    for (long i = 0; i < px; ++i) {
      const size_t k = static_cast<size_t>(2 * (j * px + i));
      points[k] = grid.face(0, grid.offset[0] + i);
      points[k + 1] = two ? grid.face(1, grid.offset[1] + j) : 0.0;
    }
  std::vector<long> cells(static_cast<size_t>(nx * ny * corners));
  for (long j = 0; j < ny; ++j)
    for (long i = 0; i < nx; ++i) {
      long* c = &cells[static_cast<size_t>((j * nx + i) * corners)];
      const long p = j * px + i;
      c[0] = p;
      c[1] = p + 1;
      if (two) {
        c[2] = p + px + 1;
        c[3] = p + px;
      }
    }
  H5Writer file(path);
  file.dataset("points", points.data(), {static_cast<hsize_t>(px * py), 2});
  file.dataset("cells", cells.data(), {static_cast<hsize_t>(nx * ny), static_cast<hsize_t>(corners)});
  file.dataset_attribute("points", "description", "x and y of the cell corners, x fastest");
  file.dataset_attribute("points", "units", units);
  file.dataset_attribute(
      "cells", "description",
      std::string(two ? "the four corners of each cell, counter-clockwise" : "the two ends of each cell") +
          " (indices into points), cells in the order of the snapshots' fields");
  file.attribute("description", "the cells of " + prefix +
                                    ".xdmf as an unstructured mesh, for ParaView and VisIt; the snapshots "
                                    "hold the same grid as grid/x_faces" +
                                    (two ? std::string(" and grid/y_faces") : std::string()));
  file.attribute("global_nx", nx);
  if (two) file.attribute("global_ny", ny);
  file.commit();
}

void SnapshotSeries::write_xdmf() const {
  // Node-centred runs are a 3D rectilinear mesh (3DRectMesh, VXVYVZ) of the
  // snapshot's own coordinates, one point at 0 in the directions a run
  // lacks, and every attribute with three dimensions: ParaView's legacy
  // "XDMF Reader" draws 2DRectMesh data as a line at x = 0, cannot read 1D
  // data and reads only the first row of a 2D attribute on a 3D mesh, while
  // this form loads in all three of its XDMF readers (XDMF Reader, Xdmf3
  // Reader S and T; tests/paraview_readers.py) and, being one point thick,
  // opens as a Surface.
  //
  // Cell-centred runs are an unstructured mesh, Quadrilateral cells (2D) or
  // two-point Polyline cells (1D) on XY points, whose geometry and
  // connectivity are in one file per run, <prefix>_mesh.hdf5
  // (write_cell_mesh), that every step's grid names. No structured form
  // does for cell data in all three readers: a grid of cells needs two
  // points in every direction it has, and a 3D grid opens as an Outline
  // (the unit-thick 3DRectMesh earlier versions wrote), while a grid one
  // point thick has no cells for the legacy reader to put data on. Quads
  // and lines open as a Surface in all three, and Integrate Variables gives
  // the area (2D) or length (1D) integral, the true total. The mesh file is
  // written with the series' first snapshot, and again when it is not
  // there (a run continued in a folder of an older cfdrun, or the file
  // removed by hand); a snapshot's Attribute elements come before its
  // Topology, so the first file a grid names is its snapshot (what
  // cfdrun.read_xdmf and older copies of it take for the step's file).
  // XDMF takes dimensions slowest first (z y x).
  //
  // The vector `velocity` is a JOIN function of the velocity datasets
  // (xdmf_velocity); the legacy reader evaluates it, the Xdmf3 readers skip
  // it ("Skipping unrecognized array type [None]") and load the scalars.
  const bool cell = grid_.centering == Centering::cell;
  const long nx = grid_.n[0], ny = grid_.ndim > 1 ? grid_.n[1] : 1;
  const std::string mesh = prefix_ + "_mesh.hdf5";
  if (cell && !entries_.empty()) {
    const std::string mesh_path = dir_ + "/" + mesh;
    if (entries_.size() == 1 || !files::entry_exists(mesh_path)) {
      claim(mesh_path);
      write_cell_mesh(mesh_path, grid_, prefix_, grid_units_);
      wrote(mesh_path);
    }
  }
  std::ostringstream x;
  x << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"3.0\">\n <Domain>\n"
    << "  <Grid Name=\"" << prefix_ << "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  const std::string field_dims = cell ? (grid_.ndim > 1 ? std::to_string(ny) + " " : std::string()) + std::to_string(nx)
                                      : "1 " + std::to_string(ny) + " " + std::to_string(nx);
  const std::string center = cell ? "Cell" : "Node";
  const std::vector<std::string> velocity = xdmf_velocity(field_names_, grid_.ndim);
  const long cells = nx * ny, points = (nx + 1) * (grid_.ndim > 1 ? ny + 1 : 1);
  for (const auto& e : entries_) {
    auto field = [&](const std::string& f) {
      return "<DataItem Dimensions=\"" + field_dims + "\" NumberType=\"Float\" Precision=\"" + std::to_string(bytes_) +
             "\" Format=\"HDF\">" + e.file + ":/fields/" + f + "</DataItem>";
    };
    x << "   <Grid Name=\"step " << e.step << "\" GridType=\"Uniform\">\n"
      << "    <Time Value=\"" << format_real(e.time) << "\"/>\n";
    if (!cell) {
      x << "    <Topology TopologyType=\"3DRectMesh\" Dimensions=\"1 " << ny << " " << nx << "\"/>\n"
        << "    <Geometry GeometryType=\"VXVYVZ\">\n"
        << "     <DataItem Dimensions=\"" << nx << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << e.file
        << ":/grid/x</DataItem>\n";
      if (grid_.ndim > 1)
        x << "     <DataItem Dimensions=\"" << ny << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << e.file
          << ":/grid/y</DataItem>\n";
      else
        x << "     <DataItem Dimensions=\"1\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">0</DataItem>\n";
      x << "     <DataItem Dimensions=\"1\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">0</DataItem>\n"
        << "    </Geometry>\n";
    }
    for (const auto& f : field_names_)
      x << "    <Attribute Name=\"" << f << "\" AttributeType=\"Scalar\" Center=\"" << center << "\">\n     "
        << field(f) << "\n    </Attribute>\n";
    if (!velocity.empty()) {
      // A missing component is the first one times zero.
      std::string function;
      int item = 0;
      for (int c = 0; c < 3; ++c)
        function += (c ? ", " : "") + (velocity[c].empty() ? std::string("0 * $0") : "$" + std::to_string(item++));
      x << "    <Attribute Name=\"velocity\" AttributeType=\"Vector\" Center=\"" << center << "\">\n"
        << "     <DataItem ItemType=\"Function\" Function=\"JOIN(" << function << ")\" Dimensions=\"" << field_dims
        << " 3\" NumberType=\"Float\" Precision=\"" << bytes_ << "\">\n";
      for (const auto& v : velocity)
        if (!v.empty()) x << "      " << field(v) << "\n";
      x << "     </DataItem>\n    </Attribute>\n";
    }
    if (cell) {
      const int corners = grid_.ndim > 1 ? 4 : 2;
      x << "    <Topology TopologyType=\"" << (grid_.ndim > 1 ? "Quadrilateral" : "Polyline\" NodesPerElement=\"2")
        << "\" NumberOfElements=\"" << cells << "\">\n"
        << "     <DataItem Dimensions=\"" << cells << " " << corners
        << "\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">" << mesh << ":/cells</DataItem>\n"
        << "    </Topology>\n"
        << "    <Geometry GeometryType=\"XY\">\n"
        << "     <DataItem Dimensions=\"" << points << " 2\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">"
        << mesh << ":/points</DataItem>\n"
        << "    </Geometry>\n";
    }
    x << "   </Grid>\n";
  }
  x << "  </Grid>\n </Domain>\n</Xdmf>\n";

  claim(xdmf_path_);
  files::write_file_atomically(xdmf_path_, x.str());
  wrote(xdmf_path_);
}

}  // namespace cfd

namespace cfd {

std::vector<KeySpec> output_keys() {
  std::vector<KeySpec> k = {
      {"output.dir", KeyType::string, "",
       "folder for the results; empty means '<case file name>.out' in the working folder"},
      {"output.every",
       KeyType::integer,
       "0",
       "write a snapshot every this many steps (0: the initial and final states only)",
       {},
       0},
      {"output.overwrite", KeyType::boolean, "false",
       "replace the results of an earlier run in output.dir (same as --overwrite)"},
      {"output.progress_seconds", KeyType::real, "5", "seconds between progress lines on long runs (0: none)", {}, 0},
      {"output.history_every",
       KeyType::integer,
       "10",
       "a row of <solver>.hst (step, time, dt, conserved totals, solver diagnostics) every N steps, and at the "
       "end (0: none)",
       {},
       0},
      {"output.checkpoint_every",
       KeyType::integer,
       "0",
       "write checkpoint_<step>.h5 every this many steps, to continue with --restart (0: none)",
       {},
       0},
      {"output.checkpoint_interval",
       KeyType::real,
       "0",
       "write a checkpoint at the first step at or after every multiple of this simulated time (0: none)",
       {},
       0},
      {"output.checkpoint_wall_seconds",
       KeyType::real,
       "0",
       "write a checkpoint every this many seconds of wall-clock time (0: none)",
       {},
       0},
      {"output.checkpoint_keep",
       KeyType::integer,
       "0",
       "keep only the newest this many checkpoints of the run, removing older ones (0: keep all)",
       {},
       0},
      {"output.checkpoint_at_end", KeyType::boolean, "true",
       "write a checkpoint of the final state, so that the run can be continued to a later end time"},
      {"output.compression",
       KeyType::integer,
       "0",
       "deflate snapshots at this level, 1 (fast) to 9 (small), with HDF5's shuffle filter, chunked by rows; "
       "0: none. Checkpoints are never compressed. Under mpirun compressed snapshots are gathered to rank 0",
       {},
       0,
       9},
  };
  // Where and how often results are written: a continued run writes the
  // same results (output.dir: into a new folder, a branch of the run).
  mark_on_restart(k, {"output.*"}, OnRestart::same_bits);
  return k;
}

OutputSettings open_output(const Config& config, const std::string& case_name, const Comm& comm, bool continuing) {
  OutputSettings s;
  s.dir = config.get_string("output.dir");
  s.every = config.get_int("output.every");
  s.overwrite = config.get_bool("output.overwrite");
  s.progress_seconds = config.get_real("output.progress_seconds");
  s.history_every = config.get_int("output.history_every");
  s.checkpoint_every = config.get_int("output.checkpoint_every");
  s.checkpoint_interval = config.get_real("output.checkpoint_interval");
  s.checkpoint_wall_seconds = config.get_real("output.checkpoint_wall_seconds");
  s.checkpoint_keep = config.get_int("output.checkpoint_keep");
  s.checkpoint_at_end = config.get_bool("output.checkpoint_at_end");
  s.compression = static_cast<int>(config.get_int("output.compression"));
  if (s.dir.empty()) s.dir = case_name + ".out";
  std::string refused;
  if (comm.is_root()) {
    try {
      if (continuing && !fs::is_directory(s.dir)) throw std::runtime_error(s.dir + ": the run's output folder is gone");
      s.folder = std::make_shared<OutputFolder>(s.dir, s.overwrite, continuing);
    } catch (const std::exception& e) {
      refused = e.what();
    }
  }
  refused = comm.broadcast(refused);
  if (!refused.empty()) throw CollectiveError(refused);
  return s;
}

}  // namespace cfd
