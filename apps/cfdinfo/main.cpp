// cfdinfo: what a cfdrun output file or folder holds, without h5dump or
// Python: solver, step, time, grid and process grid, the build, every field
// with its range, mean and non-finite count, and the stored configuration.
#include "core/command_line.hpp"
#include "core/config.hpp"
#include "core/hdf5_file.hpp"
#include "core/snapshot.hpp"
#include "core/version.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const char* usage_text = R"(usage: cfdinfo PATH [--config] [--json]

Describes a cfdrun snapshot (<solver>_<step>.h5), checkpoint
(checkpoint_<step>.h5), diagnosis file (diagnosis_<step>.h5) or a whole
output folder:
  a file:   what it is, solver, step, time, grid, process grid and writer,
            the build (cfdrun version, git revision, Kokkos version,
            execution space), and every field (or state) dataset with its
            units, minimum, maximum, mean and count of NaN or Inf values
  a folder: the snapshot series (count, steps, times), the checkpoints to
            continue from (cfdrun --restart), diagnosis files, the history,
            then the last snapshot as above

Options:
  --config   print only the stored configuration: a case file that re-runs
             the result (cfdinfo run.out --config > again.yaml)
  --json     the same facts as one JSON object, for scripts
  --version  version and git revision
  --help     this text
As in every cfdrun tool, an option that takes a value takes it as
--option VALUE or --option=VALUE; cfdinfo's options are flags, which take
none (--json=yes is refused).

Exit status: 0, or 2 when PATH is not a cfdrun file or folder, or the file
is damaged ("damaged HDF5 file" where reading it crashed the HDF5 library, or
its headers were still being read after 10 s: it runs in a child process).
)";

struct FieldStats {
  std::string name;
  std::vector<hsize_t> dims;
  int bytes = 8;
  double min = NAN, max = NAN, mean = NAN;
  long not_finite = 0;
  std::string units;  // the dataset's `units` attribute
};

struct FileInfo {
  std::string path, kind;  // snapshot | checkpoint | diagnosis
  std::map<std::string, std::string> text;
  std::map<std::string, double> number;
  std::vector<FieldStats> fields;
};

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

FileInfo read_file(const std::string& path) {
  if (!cfd::h5_is_hdf5(path)) throw std::runtime_error(path + ": not an HDF5 file");
  FileInfo info;
  info.path = path;
  if (!cfd::h5_has_attribute(path, "solver") || !cfd::h5_has_attribute(path, "step"))
    throw std::runtime_error(path + ": not a cfdrun file (no 'solver' and 'step' attributes)");
  for (const char* a :
       {"solver", "precision", "layout", "execution_space", "cfdrun_version", "git_revision", "kokkos_version",
        "process_grid", "writer", "centering", "configuration", "fault", "kind", "kept_checkpoints"})
    if (cfd::h5_has_attribute(path, a)) info.text[a] = cfd::h5_read_string_attribute(path, a);
  for (const char* a : {"step", "time", "global_nx", "global_ny", "global_nz", "ranks", "ranks_x", "ranks_y", "ranks_z",
                        "timing_loop_s", "cell_updates_per_s", "checkpoint_format"})
    if (cfd::h5_has_attribute(path, a)) info.number[a] = cfd::h5_read_real_attribute(path, a);
  const bool checkpoint = info.text.count("kind") && info.text["kind"] == "cfdrun checkpoint";
  info.kind = checkpoint ? "checkpoint" : info.text.count("fault") ? "diagnosis" : "snapshot";
  const std::string group = checkpoint ? "state" : "fields";
  for (const auto& name : cfd::h5_list_group(path, group)) {
    const cfd::H5Array a = cfd::h5_read_array(path, group + "/" + name);
    FieldStats f;
    f.name = name;
    const std::string units = group + "/" + name + "/units";
    if (cfd::h5_has_attribute(path, units)) f.units = cfd::h5_read_string_attribute(path, units);
    f.dims = a.dims;
    f.bytes = a.stored_bytes;
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    long finite = 0;
    for (double v : a.values) {
      if (!std::isfinite(v)) {
        ++f.not_finite;
        continue;
      }
      ++finite;
      sum += v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (finite > 0) f.min = lo, f.max = hi, f.mean = sum / static_cast<double>(finite);
    info.fields.push_back(f);
  }
  return info;
}

std::string shape(const std::vector<hsize_t>& dims) {
  std::string s;
  for (size_t d = dims.size(); d-- > 0;) s += (s.empty() ? "" : " x ") + std::to_string(dims[d]);  // x first
  return s;
}

void print_file(const FileInfo& f) {
  auto text = [&](const char* k) { return f.text.count(k) ? f.text.at(k) : std::string("?"); };
  auto num = [&](const char* k) { return f.number.count(k) ? f.number.at(k) : NAN; };
  std::printf("%s: %s of solver %s, step %.0f, t = %s\n", f.path.c_str(), f.kind.c_str(), text("solver").c_str(),
              num("step"), cfd::format_real(num("time")).c_str());
  // A count that is missing or no whole number (a damaged file) is shown as
  // it is: converting NaN or 1e300 to long is undefined.
  auto count = [&](const char* k) {
    const double v = num(k);
    return std::fabs(v) < 0x1p62 && v == std::floor(v) ? std::to_string(static_cast<long>(v)) : cfd::format_real(v);
  };
  std::string grid = count("global_nx");
  if (f.number.count("global_ny")) grid += " x " + count("global_ny");
  if (f.number.count("global_nz")) grid += " x " + count("global_nz");
  std::printf("  grid       %s %s, %s, layout %s\n", grid.c_str(), text("centering") == "cell" ? "cells" : "points",
              text("precision").c_str(), text("layout").c_str());
  std::printf("  written on %.0f rank(s), process grid %s, by %s\n", num("ranks"), text("process_grid").c_str(),
              text("writer").c_str());
  std::printf("  build      cfdrun %s (git %s), Kokkos %s, %s\n", text("cfdrun_version").c_str(),
              text("git_revision").c_str(), text("kokkos_version").c_str(), text("execution_space").c_str());
  if (f.number.count("cell_updates_per_s"))
    std::printf("  timing     loop %.4g s, %.4g cell-updates/s\n", num("timing_loop_s"), num("cell_updates_per_s"));
  if (f.text.count("fault")) std::printf("  fault      %s\n", f.text.at("fault").c_str());
  if (f.kind == "checkpoint") std::printf("  continue   cfdrun --restart %s\n", f.path.c_str());
  std::printf("  %-8s %-10s %-6s %24s %24s %24s %8s  %s\n", f.kind == "checkpoint" ? "state" : "field", "shape", "prec",
              "min", "max", "mean", "NaN/Inf", "units");
  for (const auto& x : f.fields)
    std::printf("  %-8s %-10s %-6s %24.17g %24.17g %24.17g %8ld  %s\n", x.name.c_str(), shape(x.dims).c_str(),
                x.bytes == 4 ? "fp32" : "fp64", x.min, x.max, x.mean, x.not_finite,
                x.units.empty() ? "-" : x.units.c_str());
}

std::string json_file(const FileInfo& f) {
  std::string out = "{\"path\": " + json_string(f.path) + ", \"kind\": " + json_string(f.kind);
  for (const auto& [k, v] : f.text)
    if (k != "configuration") out += ", " + json_string(k) + ": " + json_string(v);
  for (const auto& [k, v] : f.number) out += ", " + json_string(k) + ": " + json_number(v);
  out += ", \"fields\": [";
  for (size_t i = 0; i < f.fields.size(); ++i) {
    const auto& x = f.fields[i];
    std::string dims;
    for (size_t d = 0; d < x.dims.size(); ++d) dims += (d ? ", " : "") + std::to_string(x.dims[d]);
    out += std::string(i ? ", " : "") + "{\"name\": " + json_string(x.name) + ", \"shape\": [" + dims +
           "], \"precision\": " + json_string(x.bytes == 4 ? "fp32" : "fp64") + ", \"min\": " + json_number(x.min) +
           ", \"max\": " + json_number(x.max) + ", \"mean\": " + json_number(x.mean) +
           ", \"not_finite\": " + std::to_string(x.not_finite) + ", \"units\": " + json_string(x.units) + "}";
  }
  return out + "]}";
}

struct Folder {
  std::vector<std::pair<long, std::string>> snapshots, checkpoints, diagnoses;
  std::string history;
};

Folder scan(const std::string& dir) {
  Folder f;
  const std::regex numbered("(.+)_([0-9]{8})\\.h5");
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    std::smatch m;
    if (name.size() > 4 && name.substr(name.size() - 4) == ".hst") f.history = name;
    if (!std::regex_match(name, m, numbered)) continue;
    const long step = std::stol(m[2].str());
    const std::string prefix = m[1].str();
    (prefix == "checkpoint"  ? f.checkpoints
     : prefix == "diagnosis" ? f.diagnoses
                             : f.snapshots)
        .push_back({step, e.path().string()});
  }
  for (auto* v : {&f.snapshots, &f.checkpoints, &f.diagnoses}) std::sort(v->begin(), v->end());
  return f;
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "cfdinfo: error: %s\nRun 'cfdinfo --help' for usage.\n", message.c_str());
  return 2;
}

// What `file` holds, printed as asked (for a folder, after the folder's series).
int describe(const std::string& path, bool is_folder, const Folder& folder, const std::string& file, bool config,
             bool json) {
  try {
    const FileInfo info = read_file(file);
    if (config) {
      if (!info.text.count("configuration")) throw std::runtime_error(file + ": no stored configuration");
      std::fputs(info.text.at("configuration").c_str(), stdout);
      return 0;
    }
    if (json) {
      std::string out = "{";
      if (is_folder) {
        auto list = [](const std::vector<std::pair<long, std::string>>& v) {
          std::string s = "[";
          for (size_t i = 0; i < v.size(); ++i)
            s += std::string(i ? ", " : "") + "{\"step\": " + std::to_string(v[i].first) +
                 ", \"path\": " + json_string(v[i].second) + "}";
          return s + "]";
        };
        out += "\"folder\": " + json_string(path) + ", \"snapshots\": " + list(folder.snapshots) +
               ", \"checkpoints\": " + list(folder.checkpoints) + ", \"diagnoses\": " + list(folder.diagnoses) +
               ", \"history\": " + (folder.history.empty() ? "null" : json_string(folder.history)) + ", \"last\": ";
      } else {
        out += "\"file\": ";
      }
      std::printf("%s%s}\n", out.c_str(), json_file(info).c_str());
      return 0;
    }
    if (is_folder) {
      std::printf("%s: output folder of a %s run\n", path.c_str(),
                  info.text.count("solver") ? info.text.at("solver").c_str() : "?");
      if (!folder.snapshots.empty()) {
        // The series in time too (the first and the last snapshot's).
        std::string times;
        try {
          times = ", t = " + cfd::format_real(cfd::h5_read_real_attribute(folder.snapshots.front().second, "time")) +
                  " to " + cfd::format_real(cfd::h5_read_real_attribute(folder.snapshots.back().second, "time"));
        } catch (const std::exception&) {
          times = ", times unreadable";
        }
        std::printf("  snapshots   %zu, steps %ld to %ld%s\n", folder.snapshots.size(), folder.snapshots.front().first,
                    folder.snapshots.back().first, times.c_str());
      }
      for (const auto& c : folder.checkpoints)
        std::printf("  checkpoint  step %ld: cfdrun --restart %s\n", c.first, c.second.c_str());
      for (const auto& d : folder.diagnoses) std::printf("  diagnosis   step %ld: %s\n", d.first, d.second.c_str());
      if (!folder.history.empty()) std::printf("  history     %s\n", folder.history.c_str());
      std::printf("the last %s:\n", folder.snapshots.empty() ? "checkpoint" : "snapshot");
    }
    print_file(info);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cfdinfo: error: %s\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  std::string path;
  bool config = false, json = false;
  try {
    cfd::cli::Parser parser("cfdinfo");
    parser.stop_flag("--help", "-h").stop_flag("--version").flag("--config").flag("--json");
    const cfd::cli::Arguments args = parser.parse(argc, argv);
    if (args.stopped_at == "--help") {
      std::fputs(usage_text, stdout);
      return 0;
    }
    if (args.stopped_at == "--version") {
      std::printf("cfdinfo %s (git %s)\n", cfd::version, cfd::git_revision);
      return 0;
    }
    config = args.has("--config");
    json = args.has("--json");
    if (args.positional.size() > 1)
      return usage_error("one PATH at a time ('" + args.positional[0] + "' and '" + args.positional[1] + "')");
    if (!args.positional.empty()) path = args.positional[0];
  } catch (const std::exception& e) {
    return usage_error(e.what());
  }
  if (path.empty()) return usage_error("no PATH given (a snapshot, checkpoint or output folder)");
  Folder folder;
  std::string file = path;
  bool is_folder = false;
  try {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw std::runtime_error(path + ": no such file or folder");
    is_folder = fs::is_directory(path, ec);
    if (is_folder) {
      folder = scan(path);
      if (folder.snapshots.empty() && folder.checkpoints.empty())
        throw std::runtime_error(path + ": no cfdrun snapshot or checkpoint in this folder");
      file = folder.snapshots.empty() ? folder.checkpoints.back().second : folder.snapshots.back().second;
    }
    // A device or a pipe is no snapshot, and reading one may not end (/dev/zero).
    if (!fs::is_regular_file(file, ec))
      throw std::runtime_error(file + ": not a regular file (a device, pipe or socket?), not a cfdrun file");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cfdinfo: error: %s\n", e.what());
    return 2;
  }
  // The file is read in a child process: HDF5 can crash on a damaged file.
  return cfd::h5_run_guarded("cfdinfo", [&] { return describe(path, is_folder, folder, file, config, json); });
}
