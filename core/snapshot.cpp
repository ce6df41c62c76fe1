#include "core/snapshot.hpp"

#include "core/config.hpp"
#include "core/hdf5_file.hpp"
#include "core/safe_files.hpp"

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

SnapshotSeries::SnapshotSeries(std::string dir, std::string prefix, const Decomposition& dec, RunInfo info,
                               std::shared_ptr<OutputFolder> folder)
    : dir_(std::move(dir)),
      prefix_(std::move(prefix)),
      xdmf_path_(dir_ + "/" + prefix_ + ".xdmf"),
      dec_(dec),
      grid_(dec.block),
      files_(dec, std::move(info), folder),
      folder_(std::move(folder)) {
  grid_.offset = {0, 0, 0};
  grid_.n = grid_.global_n;
}

std::string SnapshotSeries::file_of(long step) const {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%08ld.h5", prefix_.c_str(), step);
  return dir_ + "/" + name;
}

template <class Real>
void SnapshotSeries::write_snapshot(const std::string& path, long step, double time,
                                    const std::vector<HostField<Real>>& fields, const Attributes& extra,
                                    const std::string& fault) const {
  files_.write(path, "fields", fields, [&](H5Writer& file) {
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
    files_.describe_fields(file, "fields", fields);
    files_.write_run_attributes(file, step, time);
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
  // 3D runs are a 3DRectMesh of their own coordinates (VXVYVZ from the
  // snapshot's grid/x ... datasets: the faces for cells, the points for
  // nodes), fields "nz ny nx": a grid of cells with two points or more in
  // every direction, which all three readers load (as an Outline, ParaView's
  // default for volumes), so no mesh file is needed.
  //
  // The vector `velocity` is a JOIN function of the velocity datasets
  // (xdmf_velocity); the legacy reader evaluates it, the Xdmf3 readers skip
  // it ("Skipping unrecognized array type [None]") and load the scalars.
  const bool cell = grid_.centering == Centering::cell, volume = grid_.ndim == 3;
  const long nx = grid_.n[0], ny = grid_.ndim > 1 ? grid_.n[1] : 1, nz = volume ? grid_.n[2] : 1;
  const std::string mesh = prefix_ + "_mesh.hdf5";
  if (cell && !volume && !entries_.empty()) {
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
  const std::string field_dims = volume ? std::to_string(nz) + " " + std::to_string(ny) + " " + std::to_string(nx)
                                 : cell
                                     ? (grid_.ndim > 1 ? std::to_string(ny) + " " : std::string()) + std::to_string(nx)
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
    if (volume) {
      // Points: one more than cells in every direction.
      const int more = cell ? 1 : 0;
      const char* axis[3] = {"x", "y", "z"};
      x << "    <Topology TopologyType=\"3DRectMesh\" Dimensions=\"" << nz + more << " " << ny + more << " "
        << nx + more << "\"/>\n"
        << "    <Geometry GeometryType=\"VXVYVZ\">\n";
      for (int d = 0; d < 3; ++d)
        x << "     <DataItem Dimensions=\"" << grid_.n[d] + more
          << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << e.file << ":/grid/" << axis[d]
          << (cell ? "_faces" : "") << "</DataItem>\n";
      x << "    </Geometry>\n";
    } else if (!cell) {
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
    if (cell && !volume) {
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

OutputSettings open_output(const Config& config, const std::string& case_name, const Comm& comm, bool continuing,
                           const std::vector<std::string>& prefixes) {
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
      s.folder = std::make_shared<OutputFolder>(s.dir, s.overwrite, continuing, prefixes);
    } catch (const std::exception& e) {
      refused = e.what();
    }
  }
  refused = comm.broadcast(refused);
  if (!refused.empty()) throw CollectiveError(refused);
  return s;
}

}  // namespace cfd
