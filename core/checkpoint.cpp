#include "core/checkpoint.hpp"

#include "core/hdf5_file.hpp"
#include "core/safe_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace cfd {

namespace {

std::string join(const std::vector<std::string>& items, char separator) {
  std::string out;
  for (size_t k = 0; k < items.size(); ++k) out += (k ? std::string(1, separator) : "") + items[k];
  return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, separator)) out.push_back(item);
  return out;
}

const char* axis_name(int d) { return d == 0 ? "x" : d == 1 ? "y" : "z"; }

}  // namespace

std::string checkpoint_name(long step) {
  char name[64];
  std::snprintf(name, sizeof name, "checkpoint_%08ld.h5", step);
  return name;
}

template <class Real>
std::string write_checkpoint(const SnapshotSeries& series, const std::string& case_name, long step, double time,
                             const std::vector<HostField<Real>>& state, const Attributes& clock,
                             const LoopRecord& loop) {
  const std::string path = series.dir() + "/" + checkpoint_name(step);
  std::vector<std::string> names;
  for (const auto& f : state) names.push_back(f.name);
  // The snapshots' writer of global arrays, durable: a checkpoint holds
  // whole-grid arrays without ghosts, so a run continues on any rank count.
  const GlobalFileWriter& files = series.files();
  files.write(
      path, "state", state,
      [&](H5Writer& file) {
        files.describe_fields(file, "state", state);
        files.write_run_attributes(file, step, time);
        file.attribute("kind", std::string("cfdrun checkpoint"));
        file.attribute("checkpoint_format", checkpoint_format);
        file.attribute("case_name", case_name);
        file.attribute("state_fields", join(names, ','));
        for (const auto& [key, value] : clock) file.attribute("clock." + key, value);
        file.attribute("outputs_done", loop.outputs_done);
        file.attribute("checkpoints_done", loop.checkpoints_done);
        file.attribute("reference_dt", loop.reference_dt);
        file.attribute("history_bytes", loop.history_bytes);
        file.attribute("history_file", loop.history_file);
        file.attribute("series_fields", join(loop.series_fields, ','));
        file.attribute("series_bytes", static_cast<long>(loop.series_bytes));
        file.attribute("kept_checkpoints", join(loop.kept, '\n'));
        std::vector<long> steps;
        std::vector<double> times;
        for (const auto& r : loop.series) {
          steps.push_back(r.step);
          times.push_back(r.time);
        }
        const std::vector<hsize_t> n{static_cast<hsize_t>(steps.size())};
        file.dataset("series/step", steps.data(), n);
        file.dataset("series/time", times.data(), n);
      },
      /*durable=*/true);
  return path;
}

template std::string write_checkpoint(const SnapshotSeries&, const std::string&, long, double,
                                      const std::vector<HostField<float>>&, const Attributes&, const LoopRecord&);
template std::string write_checkpoint(const SnapshotSeries&, const std::string&, long, double,
                                      const std::vector<HostField<double>>&, const Attributes&, const LoopRecord&);

void validate_checkpoint_header(const CheckpointHeader& h) {
  auto refuse = [&](const std::string& why) {
    throw ConfigError(h.path + ": error: cannot restart from this file: it is inconsistent: " + why);
  };
  if (h.step < 0) refuse("step " + std::to_string(h.step) + " is negative");
  // time.steps counts at most 1e12 steps: a larger step is no run's.
  if (h.step > 1000000000000L) refuse("step " + std::to_string(h.step) + " is beyond any run's (at most 1e12 steps)");
  if (!std::isfinite(h.time) || h.time < 0) refuse("time " + format_real(h.time) + " is not a finite time >= 0");
  for (long n : h.global_n)
    if (n < 1 || n > (1L << 40)) refuse("a grid size of " + std::to_string(n));
  for (const auto& [key, value] : h.clock) {
    if (!std::isfinite(value)) refuse("clock." + key + " is " + format_real(value));
    // The solver's own step counter is the file's step: the loop and the
    // solver would otherwise number the snapshots after it differently.
    if (key == "step" && value != static_cast<double>(h.step))
      refuse("clock.step " + format_real(value) + " is not the checkpoint's step " + std::to_string(h.step));
    // Counters (steps, full steps, iterations) are whole numbers >= 0.
    if ((key == "step" || key == "full_steps" || key == "cg_iterations") &&
        (value < 0 || value != std::floor(value) || value > 1e15))
      refuse("clock." + key + " is " + format_real(value) + ", not a count");
  }
  if (h.loop.outputs_done < 0 || h.loop.checkpoints_done < 0)
    refuse("negative counts of outputs or checkpoints passed");
  if (!std::isfinite(h.loop.reference_dt) || h.loop.reference_dt < 0)
    refuse("reference_dt " + format_real(h.loop.reference_dt));
  if (h.loop.history_bytes < -1) refuse("history_bytes " + std::to_string(h.loop.history_bytes));
  if (!h.loop.history_file.empty() && !files::is_output_name(h.loop.history_file))
    refuse("history_file '" + h.loop.history_file + "' is not a name cfdrun writes");
  if (h.loop.series_bytes != 4 && h.loop.series_bytes != 8)
    refuse("series_bytes " + std::to_string(h.loop.series_bytes));
  long last_step = -1;
  double last_time = -1;
  for (const auto& r : h.loop.series) {
    if (r.step <= last_step || r.step > h.step)
      refuse("the series' step " + std::to_string(r.step) + " is out of order or after the checkpoint's");
    if (!std::isfinite(r.time) || r.time < last_time || r.time > h.time)
      refuse("the series' time " + format_real(r.time) + " is out of order or after the checkpoint's");
    last_step = r.step;
    last_time = r.time;
  }
  auto plain = [](const std::string& name) {
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
  };
  for (const auto& f : h.state)
    if (!plain(f)) refuse("state field '" + f + "' is not a plain name");
  for (const auto& f : h.loop.series_fields)
    if (!plain(f)) refuse("series field '" + f + "' is not a plain name");
  // Names read from the file are removed later (output.checkpoint_keep):
  // only checkpoint_<8 digits>.h5, never a path.
  for (const auto& k : h.loop.kept)
    if (!files::is_checkpoint_name(k)) refuse("kept checkpoint '" + k + "' is not a checkpoint's name");
}

CheckpointHeader read_checkpoint_header(const std::string& path) {
  auto refuse = [&](const std::string& why) -> ConfigError {
    return ConfigError(path + ": error: cannot restart from this file: " + why);
  };
  std::error_code ec;
  if (!fs::exists(path, ec)) throw refuse("no such file");
  if (fs::is_directory(path, ec)) throw refuse("it is a folder; name a checkpoint_<step>.h5 file in it");
  if (!fs::is_regular_file(path, ec)) throw refuse("not a regular file");
  // The checksum first: a damaged file is refused before HDF5 reads it
  // (HDF5 1.10 itself can crash on damaged metadata).
  std::string damage;
  const Checksum checksum = h5_verify_checksum(path, &damage);
  if (checksum == Checksum::bad) throw refuse("it is damaged: " + damage);
  if (!h5_is_hdf5(path)) throw refuse("not an HDF5 file");
  // The attributes and the series, and each state dataset's shape.
  auto read_header = [&](CheckpointHeader& h) {
    try {
      if (!h5_has_attribute(path, "kind") || h5_read_string_attribute(path, "kind") != "cfdrun checkpoint") {
        std::string hint;
        if (h5_has_attribute(path, "solver"))
          hint = " (it is a snapshot; checkpoints are the checkpoint_<step>.h5 files)";
        throw refuse("not a cfdrun checkpoint" + hint);
      }
      const double format = h5_read_real_attribute(path, "checkpoint_format");
      if (format != checkpoint_format && format != 1)
        throw refuse("checkpoint format " + format_real(format) + ", this cfdrun reads formats 1 and " +
                     std::to_string(checkpoint_format));
      h.format = static_cast<long>(format);
      auto text = [&](const char* name) { return h5_read_string_attribute(path, name); };
      auto integer = [&](const char* name) {
        const double v = h5_read_real_attribute(path, name);
        if (v != std::floor(v)) throw refuse(std::string("attribute ") + name + " is not a whole number");
        return static_cast<long>(v);
      };
      h.solver = text("solver");
      h.precision = text("precision");
      h.layout = text("layout");
      h.case_name = text("case_name");
      h.configuration = text("configuration");
      h.cfdrun_version = text("cfdrun_version");
      h.git_revision = text("git_revision");
      h.step = integer("step");
      h.time = h5_read_real_attribute(path, "time");
      for (int d = 0; d < 3 && h5_has_attribute(path, std::string("global_n") + axis_name(d)); ++d)
        h.global_n.push_back(integer((std::string("global_n") + axis_name(d)).c_str()));
      h.state = split(text("state_fields"), ',');
      h.loop.outputs_done = integer("outputs_done");
      h.loop.checkpoints_done = integer("checkpoints_done");
      h.loop.reference_dt = h5_read_real_attribute(path, "reference_dt");
      h.loop.history_bytes = integer("history_bytes");
      h.loop.history_file = text("history_file");
      h.loop.series_fields = split(text("series_fields"), ',');
      h.loop.series_bytes = static_cast<int>(integer("series_bytes"));
      h.loop.kept = split(text("kept_checkpoints"), '\n');
      const std::vector<long> steps = h5_read_integers(path, "series/step");
      const H5Array times = h5_read_array(path, "series/time");
      if (times.values.size() != steps.size()) throw refuse("series/step and series/time differ in length");
      for (size_t k = 0; k < steps.size(); ++k) h.loop.series.push_back({steps[k], times.values[k]});
      // Every state dataset there, with the grid's shape (a read of no
      // entries gives the shape alone).
      const std::vector<hsize_t> none(h.global_n.size(), 0);
      for (const auto& name : h.state) {
        const H5Array a = h5_read_block(path, "state/" + name, none, none);
        for (size_t d = 0; d < h.global_n.size(); ++d)
          if (a.dims[h.global_n.size() - 1 - d] != static_cast<hsize_t>(h.global_n[d]))
            throw refuse("dataset state/" + name + " does not have the grid's shape");
      }
      // The solver's counters: every attribute clock.<name>, whatever the solver keeps.
      for (const auto& key : h5_attribute_names(path))
        if (key.rfind("clock.", 0) == 0) h.clock.push_back({key.substr(6), h5_read_real_attribute(path, key)});
    } catch (const ConfigError&) {
      throw;
    } catch (const std::exception& e) {
      throw refuse(std::string("it is damaged or incomplete: ") + e.what());
    }
  };
  // Without a checksum (format 1, an older cfdrun) damage cannot be found
  // before HDF5 reads the file, and HDF5 1.10 can crash or go round in
  // circles on damaged metadata (1 of 120 flipped bits crashed cfdrun): the
  // whole file, the state's values included, is read first in a guarded
  // child process, as cfdinfo reads any file.
  if (checksum == Checksum::absent) {
    const std::string failure = h5_trial_read([&] {
      CheckpointHeader trial;
      read_header(trial);
      std::vector<hsize_t> origin, all;
      for (size_t d = trial.global_n.size(); d-- > 0;) {
        origin.push_back(0);
        all.push_back(static_cast<hsize_t>(trial.global_n[d]));
      }
      for (const auto& name : trial.state) h5_read_block(path, "state/" + name, origin, all);
    });
    if (!failure.empty()) throw refuse("it is a " + failure);
  }
  CheckpointHeader h;
  h.path = path;
  read_header(h);
  if (h.state.empty() || h.global_n.empty()) throw refuse("it names no state fields or no grid");
  if (checksum == Checksum::absent && h.format >= 2)
    throw refuse("it has no checksum, which its format requires (rewritten by another program?)");
  if (checksum == Checksum::good && h.format < 2) throw refuse("format 1 with a checksum block");
  if (checksum == Checksum::absent)
    std::fprintf(stderr,
                 "cfdrun: warning: %s is a format-1 checkpoint (an older cfdrun) without a checksum: damage "
                 "in it cannot be detected\n",
                 path.c_str());
  validate_checkpoint_header(h);
  return h;
}

template <class Real>
std::vector<HostField<Real>> read_checkpoint_state(const CheckpointHeader& header, const Decomposition& dec) {
  const GridBlock& b = dec.block;
  if (static_cast<int>(header.global_n.size()) != b.ndim)
    throw ConfigError(header.path + ": error: cannot restart from this file: it holds a " +
                      std::to_string(header.global_n.size()) + "D grid, the case a " + std::to_string(b.ndim) +
                      "D one");
  std::vector<hsize_t> offset, count;
  for (int d = b.ndim - 1; d >= 0; --d) {
    if (header.global_n[d] != b.global_n[d])
      throw ConfigError(header.path + ": error: cannot restart from this file: its grid has " +
                        std::to_string(header.global_n[d]) + " entries along " + axis_name(d) + ", the case " +
                        std::to_string(b.global_n[d]));
    offset.push_back(static_cast<hsize_t>(b.offset[d]));
    count.push_back(static_cast<hsize_t>(b.n[d]));
  }
  std::vector<HostField<Real>> out;
  for (const auto& name : header.state) {
    H5Array a;
    try {
      a = h5_read_block(header.path, "state/" + name, offset, count);
    } catch (const std::runtime_error& e) {  // the same on every rank: the same file
      throw ConfigError(header.path + ": error: cannot restart from this file: " + e.what());
    }
    for (int d = 0; d < b.ndim; ++d)
      if (a.dims[b.ndim - 1 - d] != static_cast<hsize_t>(b.global_n[d]))
        throw ConfigError(header.path + ": error: cannot restart from this file: dataset state/" + name +
                          " does not have the grid's shape");
    if (a.stored_bytes != static_cast<int>(sizeof(Real)))
      throw ConfigError(header.path + ": error: cannot restart from this file: state/" + name + " is stored in " +
                        std::to_string(8 * a.stored_bytes) + "-bit precision, the run computes in " +
                        std::to_string(8 * sizeof(Real)) + "-bit");
    // Stored in the working precision, so the double round trip is exact.
    out.push_back({name, std::vector<Real>(a.values.begin(), a.values.end())});
  }
  return out;
}

template std::vector<HostField<float>> read_checkpoint_state(const CheckpointHeader&, const Decomposition&);
template std::vector<HostField<double>> read_checkpoint_state(const CheckpointHeader&, const Decomposition&);

void clear_after_checkpoint(const SnapshotSeries& series, const CheckpointHeader& from) {
  const std::regex snapshot(series.prefix() + "_([0-9]{8})\\.h5");
  const std::regex unfinished("(" + series.prefix() + "_[0-9]{8}\\.h5|checkpoint_[0-9]{8}\\.h5|" + series.prefix() +
                              "\\.xdmf)\\.tmp");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(series.dir(), ec)) {
    const std::string name = entry.path().filename().string();
    std::smatch m;
    bool remove = std::regex_match(name, unfinished);
    if (std::regex_match(name, m, snapshot)) {
      const long step = std::stol(m[1].str());
      const bool listed = std::any_of(from.loop.series.begin(), from.loop.series.end(),
                                      [&](const SnapshotSeries::Record& r) { return r.step == step; });
      remove = step > from.step || (step == from.step && !listed);
    }
    // Only files of this run (the manifest lists them), and only regular
    // files (remove_own_file); a link, a pipe, a folder or a user's file
    // with such a name stays (a snapshot written there later is refused).
    if (remove && (series.listed(name) || std::regex_match(name, unfinished)))
      files::remove_own_file(entry.path().string());
  }
}

double clock_value(const Attributes& clock, const std::string& name) {
  for (const auto& [key, value] : clock)
    if (key == name) return value;
  throw ConfigError("the checkpoint lacks the solver's counter clock." + name);
}

}  // namespace cfd
