// cfdcompare: full-grid comparison of two results, with the metrics of the
// original diffusion study (problems.md section 1).
#include "core/command_line.hpp"
#include "core/config.hpp"
#include "core/field_compare.hpp"
#include "core/hdf5_file.hpp"
#include "core/kokkos_compat.hpp"
#include "core/parallel.hpp"
#include "core/text_field.hpp"
#include "core/version.hpp"
#include "physics/gas/exact_riemann.hpp"
#include "physics/sod/sod_params.hpp"
#include "physics/solvers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const char* usage_text = R"(usage: cfdcompare REFERENCE CANDIDATE [options]
       cfdcompare REFERENCE_DIR CANDIDATE_DIR [options]
       cfdcompare --exact SNAPSHOT.h5 [--max-l1 X]

Compares two results point by point. Each file is either a cfdrun HDF5
snapshot or checkpoint (the datasets under fields/, or state/ for a
checkpoint) or a text field in the original Fortran study's format (first
line "nx ny", then one value per line, i fastest). Without --field every
field the two files have in common is compared, one line per field; with one
field (--field NAME, or two text files) the full report: max |ref-c|, RMSE,
relative L2, mass difference (sum c - sum ref), the number of points with
|ref-c| > atol + rtol*|ref| and the worst point. A text field is compared
with the HDF5 file's field u unless --field names another.

Two output folders (of cfdrun runs) are compared snapshot by snapshot
(<solver>_<step>.h5, every common field), matched by simulated time: runs
whose steps differ (another precision, CFL or integrator) wrote the same
output times under other step numbers. Snapshots at no common time are
matched by file name (the same step; the differing times are noted). A
snapshot left without a partner is reported and counts as a difference.

With --exact, a 1D shock-tube snapshot (solver sod) is compared with the
exact Riemann solution (Toro, ch. 4) for its own states, gas and time, read
from the snapshot's stored configuration: the L1 errors (mean absolute error
over the cells, Sod units) of density, velocity and pressure are printed.

Options (each that takes a value also as --option=VALUE, e.g. --atol=0):
  --exact         compare one sod snapshot with the exact solution
  --max-l1 X      with --exact: exit 1 when the density L1 error exceeds X
                  (with --csv: the numerical and exact profiles, Sod units)
  --atol X        absolute tolerance (default by precision, see below)
  --rtol Y        relative tolerance
  --field NAMES   field(s) to compare, repeatable or a comma list
                  (--field rho,p); default: every field in common
  --csv FILE      also write the metrics as CSV, one row per field, with a header
  --quiet, -q     print nothing; the exit status tells
  --version       version and git revision, Kokkos version
  --help, -h      this text

Default tolerances (docs/problems.md): both FP64: atol 1e-12 rtol 1e-10; both FP32:
atol 1e-6 rtol 1e-5; FP32 against FP64: atol 1e-6 rtol 1e-4. Text files count as FP64.
Exit status: 0 when no point fails, 1 when some do (NaN or Inf anywhere, in
either file, fails; with --exact too, naming the field and point; for folders
also a snapshot in one folder only), 2 for bad input: a file that is missing,
not a regular file (a device such as /dev/zero, a pipe), not a snapshot or
text field, a field it does not hold (the message lists those it holds),
grids that differ, or a damaged file ("damaged HDF5 file" where reading it
crashed the HDF5 library, or its headers were still being read after 10 s:
it runs in a child process).
)";

struct Input {
  long nx = 0, ny = 1, nz = 1;
  int bytes = 8;
  std::vector<double> values;
};

// Only regular files are read: a device or a pipe (/dev/zero) is no result,
// and reading one may never end.
void check_regular_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw std::runtime_error(path + ": no such file");
  if (std::filesystem::is_directory(status))
    throw std::runtime_error(path + ": this is a folder; give two files or two output folders");
  if (!std::filesystem::is_regular_file(status))
    throw std::runtime_error(path + ": not a regular file (a device, pipe or socket?)");
}

// What an HDF5 file holds to compare: the datasets under fields/ (a
// snapshot, a diagnosis file) or state/ (a checkpoint), in name order.
struct Datasets {
  std::string group;
  std::vector<std::string> names;
};

Datasets datasets(const std::string& path) {
  const bool checkpoint =
      cfd::h5_has_attribute(path, "kind") && cfd::h5_read_string_attribute(path, "kind") == "cfdrun checkpoint";
  Datasets d{checkpoint ? "state" : "fields", {}};
  d.names = cfd::h5_list_group(path, d.group);
  return d;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// One file of a comparison: an HDF5 file's datasets, or a text field.
struct Source {
  std::string path;
  bool hdf5 = false;
  Datasets sets;
};

Source open_source(const std::string& path) {
  Source s;
  s.path = path;
  check_regular_file(path);
  s.hdf5 = cfd::h5_is_hdf5(path);
  if (s.hdf5) s.sets = datasets(path);
  return s;
}

Input load(const Source& src, const std::string& field) {
  Input in;
  const std::string& path = src.path;
  if (src.hdf5) {
    if (!contains(src.sets.names, field))
      throw std::runtime_error(path + ": no dataset " + src.sets.group + "/" + field + "; " +
                               (src.sets.names.empty() ? "the file holds no " + src.sets.group + "/ datasets"
                                                       : "its " + src.sets.group + ": " + joined(src.sets.names)));
    cfd::H5Array a = cfd::h5_read_array(path, src.sets.group + "/" + field);
    in.bytes = a.stored_bytes;
    if (a.dims.size() == 3) {  // (z, y, x)
      in.nz = static_cast<long>(a.dims[0]);
      in.ny = static_cast<long>(a.dims[1]);
      in.nx = static_cast<long>(a.dims[2]);
    } else if (a.dims.size() == 2) {
      in.ny = static_cast<long>(a.dims[0]);
      in.nx = static_cast<long>(a.dims[1]);
    } else if (a.dims.size() == 1) {
      in.nx = static_cast<long>(a.dims[0]);
    } else {
      throw std::runtime_error(path + ": " + src.sets.group + "/" + field + " has rank " +
                               std::to_string(a.dims.size()));
    }
    in.values = std::move(a.values);
  } else {
    cfd::TextField t = cfd::read_text_field(path);
    in.nx = t.nx;
    in.ny = t.ny;
    in.values = std::move(t.values);
  }
  return in;
}

// L1 errors of a sod snapshot against the exact Riemann solution.
int compare_exact(const std::string& path, double max_l1, bool quiet, const std::string& csv) {
  try {
    check_regular_file(path);
    if (!cfd::h5_is_hdf5(path)) throw std::runtime_error(path + ": not an HDF5 snapshot");
    const std::string solver = cfd::h5_read_string_attribute(path, "solver");
    if (solver != "sod") throw std::runtime_error(path + ": --exact needs a sod snapshot, this is " + solver);
    const cfd::Config config = cfd::Config::from_string(cfd::h5_read_string_attribute(path, "configuration"),
                                                        path + ":configuration", {}, cfd::solver_keys);
    // Before the case's params: those of sod.problem: file would read its file again.
    const std::string initial = config.get_string("sod.problem");
    if (initial != "tube")
      throw std::runtime_error(
          path + ": --exact compares with a Riemann problem's solution; this run starts from " +
          (initial == "file" ? "a file (sod.problem: file)" : "formulas (sod.problem: expression)"));
    const cfd::sod::Params p = cfd::sod::params(config);
    const bool physical = p.units == cfd::sod::Units::physical;
    double t = cfd::h5_read_real_attribute(path, "time");
    if (physical) t *= p.a() / p.length();
    if (!(t > 0)) throw std::runtime_error(path + ": the snapshot is at t = 0; compare a later one");
    const cfd::gas::ExactRiemann exact(p.left, p.right, p.gamma);
    const auto x = cfd::h5_read_array(path, "grid/x").values;
    const auto rho = cfd::h5_read_array(path, "fields/rho").values;
    const auto u = cfd::h5_read_array(path, "fields/u").values;
    const auto pr = cfd::h5_read_array(path, "fields/p").values;
    // A field of another length than the grid (none at all, in a damaged or
    // foreign file) would be read past its end.
    if (x.empty()) throw std::runtime_error(path + ": grid/x holds no points: nothing to compare");
    for (const auto& [name, values] : {std::pair{"fields/rho", &rho}, {"fields/u", &u}, {"fields/p", &pr}})
      if (values->size() != x.size())
        throw std::runtime_error(path + ": " + name + " holds " + std::to_string(values->size()) + " values for the " +
                                 std::to_string(x.size()) + " points of grid/x");
    // NaN or Inf anywhere is a failure whatever the tolerance: the L1 sums
    // would turn NaN, and NaN > max_l1 is false.
    for (const auto& [name, values] :
         {std::pair{"grid/x", &x}, {"fields/rho", &rho}, {"fields/u", &u}, {"fields/p", &pr}}) {
      long bad = 0, first = -1;
      for (size_t k = 0; k < values->size(); ++k)
        if (!std::isfinite((*values)[k]) && bad++ == 0) first = static_cast<long>(k);
      if (bad == 0) continue;
      if (!quiet)
        std::printf("FAIL: %s holds %ld NaN or Inf value(s), the first at point %ld (1-based) of %zu: %g\n", name, bad,
                    first + 1, x.size(), (*values)[first]);
      return 1;
    }
    double l1[3] = {0, 0, 0};
    std::FILE* table = nullptr;
    if (!csv.empty()) {
      table = std::fopen(csv.c_str(), "w");
      if (!table) throw std::runtime_error(csv + ": cannot write");
      std::fprintf(table, "x,rho,rho_exact,u,u_exact,p,p_exact\n");
    }
    for (size_t k = 0; k < x.size(); ++k) {
      const double xs = physical ? x[k] / p.length() : x[k];
      const cfd::gas::RiemannState e = exact.sample((xs - p.diaphragm) / t);
      const double r = physical ? rho[k] / p.rho_ref : rho[k], v = physical ? u[k] / p.a() : u[k],
                   q = physical ? pr[k] / p.p_ref() : pr[k];
      l1[0] += std::fabs(r - e.rho);
      l1[1] += std::fabs(v - e.u);
      l1[2] += std::fabs(q - e.p);
      if (table) std::fprintf(table, "%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", xs, r, e.rho, v, e.u, q, e.p);
    }
    if (table) std::fclose(table);
    for (double& v : l1) v /= static_cast<double>(x.size());
    if (!quiet)
      std::printf(
          "snapshot   %s (%zu points, t = %.10g Sod units)\n"
          "exact      Toro's exact Riemann solution, p* = %.6f, u* = %.6f\n"
          "L1 density   %.6e\nL1 velocity  %.6e\nL1 pressure  %.6e\n",
          path.c_str(), x.size(), t, exact.star().p, exact.star().u, l1[0], l1[1], l1[2]);
    if (max_l1 >= 0 && l1[0] > max_l1) {
      if (!quiet) std::printf("FAIL: density L1 above %g\n", max_l1);
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cfdcompare: error: %s\n", e.what());
    return 2;
  }
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "cfdcompare: error: %s\nRun 'cfdcompare --help' for usage.\n", message.c_str());
  return 2;
}

double parse_tolerance(const std::string& option, const std::string& text) {
  const auto v = cfd::finite_number(text);
  if (!v || !(*v >= 0)) throw std::invalid_argument(option + " needs a non-negative number, got '" + text + "'");
  return *v;
}

struct Settings {
  std::vector<std::string> fields;  // empty: every field in common
  double atol = -1, rtol = -1;
  bool quiet = false;
  std::string csv;
};

// Input the comparison cannot use (status 2).
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One field of two files compared.
struct Result {
  std::string reference, candidate, field;  // field: empty for two text files
  Input ref, cand;                          // (values released after the comparison)
  cfd::Tolerance tol{};
  cfd::Comparison c;
  long worst_i = 0, worst_j = 0, worst_k = 0;  // worst_k: 3D grids only
};

// Kokkos, initialised for the first comparison and kept for the others.
class LazyKokkos {
 public:
  explicit LazyKokkos(char* argv0) : argv0_(argv0) {}
  void start() {
    if (session_) return;
    int kargc = 1;
    char* kargv[] = {argv0_, nullptr};
    session_.emplace(kargc, kargv);
  }

 private:
  char* argv0_;
  std::optional<cfd::KokkosSession> session_;
};

// "nx x ny", or "nx x ny x nz" for a 3D grid.
std::string shape(const Input& in) {
  return std::to_string(in.nx) + " x " + std::to_string(in.ny) + (in.nz > 1 ? " x " + std::to_string(in.nz) : "");
}

// "i=3 j=4", or "i=3 j=4 k=5" on a 3D grid.
std::string worst_point(const Result& r) {
  return "i=" + std::to_string(r.worst_i) + " j=" + std::to_string(r.worst_j) +
         (r.worst_k > 0 ? " k=" + std::to_string(r.worst_k) : "");
}

Result compare_field(const Source& a, const Source& b, const std::string& field, const Settings& s,
                     LazyKokkos& kokkos) {
  Result r;
  r.reference = a.path;
  r.candidate = b.path;
  r.field = a.hdf5 || b.hdf5 ? field : "";
  try {
    r.ref = load(a, field);
    r.cand = load(b, field);
  } catch (const std::exception& e) {
    throw BadInput(e.what());
  }
  if (r.ref.nx != r.cand.nx || r.ref.ny != r.cand.ny || r.ref.nz != r.cand.nz)
    throw BadInput("grids differ" + (r.field.empty() ? std::string() : " in field " + r.field) + ": " + a.path +
                   " is " + shape(r.ref) + ", " + b.path + " is " + shape(r.cand));
  r.tol = cfd::default_tolerance(r.ref.bytes, r.cand.bytes);
  if (s.atol >= 0) r.tol.atol = s.atol;
  if (s.rtol >= 0) r.tol.rtol = s.rtol;
  kokkos.start();
  try {
    r.c = cfd::compare_fields(r.ref.values, r.cand.values, r.tol);
  } catch (const std::exception& e) {  // sizes, or memory Kokkos cannot allocate: not an abort
    throw BadInput(a.path + " and " + b.path + ": " + e.what());
  }
  r.ref.values = {};
  r.cand.values = {};
  r.worst_i = r.c.worst_index >= 0 ? r.c.worst_index % r.ref.nx + 1 : 0;
  r.worst_j = r.c.worst_index >= 0 ? r.c.worst_index / r.ref.nx % r.ref.ny + 1 : 0;
  r.worst_k = r.c.worst_index >= 0 && r.ref.nz > 1 ? r.c.worst_index / (r.ref.nx * r.ref.ny) + 1 : 0;
  return r;
}

const char* precision(const Input& in) { return in.bytes == 4 ? "fp32" : "fp64"; }

// The full report of one field (the only report before fields were compared together).
void print_report(const Result& r) {
  std::printf("reference  %s (%s, %s)\ncandidate  %s (%s)\n", r.reference.c_str(), shape(r.ref).c_str(),
              precision(r.ref), r.candidate.c_str(), precision(r.cand));
  if (!r.field.empty()) std::printf("field             %s\n", r.field.c_str());
  const cfd::Comparison& c = r.c;
  std::printf("points            %ld\n", c.count);
  std::printf("max abs error     %.6e\n", c.max_abs);
  std::printf("rmse              %.6e\n", c.rmse);
  std::printf("relative L2       %.6e\n", c.rel_l2);
  std::printf("mass difference   %.6e   (sum candidate - sum reference)\n", c.mass_diff);
  std::printf("failures          %ld   (atol %g, rtol %g)\n", c.failures, r.tol.atol, r.tol.rtol);
  if (c.ref_not_finite + c.candidate_not_finite > 0)
    std::printf("NaN or Inf        %ld in the reference, %ld in the candidate (each a failure)\n", c.ref_not_finite,
                c.candidate_not_finite);
  std::printf("worst point       %s (1-based): reference %.17g, candidate %.17g\n", worst_point(r).c_str(), c.worst_ref,
              c.worst_candidate);
}

// One line of a field among several: `prefix` is the snapshot's name when folders are compared.
void print_line(const Result& r, const std::string& prefix) {
  const cfd::Comparison& c = r.c;
  std::string extra;
  if (c.ref_not_finite + c.candidate_not_finite > 0)
    extra = "  NaN or Inf: " + std::to_string(c.ref_not_finite) + " in the reference, " +
            std::to_string(c.candidate_not_finite) + " in the candidate";
  if (c.failures > 0) extra += "  worst " + worst_point(r);
  std::printf("%s%-8s %10ld %14.6e %14.6e %10ld   %-4s  (atol %g, rtol %g)%s\n", prefix.c_str(), r.field.c_str(),
              c.count, c.max_abs, c.rel_l2, c.failures, c.failures == 0 ? "PASS" : "FAIL", r.tol.atol, r.tol.rtol,
              extra.c_str());
}

void print_header(const std::string& prefix) {
  std::printf("%s%-8s %10s %14s %14s %10s   verdict\n", prefix.c_str(), "field", "points", "max abs error",
              "relative L2", "failures");
}

// The fields to compare: those asked for, else every field both hold
// (`only` gets those one file holds alone).
std::vector<std::string> fields_to_compare(const Source& a, const Source& b, const Settings& s,
                                           std::vector<std::string>* only) {
  if (!a.hdf5 || !b.hdf5) {  // a text field against the HDF5 file's u (or --field), or two text fields
    if (s.fields.size() > 1)
      throw BadInput((a.hdf5 ? b.path : a.path) + " is a text field, one field: give one --field to compare it with");
    return s.fields.empty() ? std::vector<std::string>{"u"} : s.fields;
  }
  if (!s.fields.empty()) return s.fields;
  std::vector<std::string> common;
  for (const auto& n : a.sets.names) (contains(b.sets.names, n) ? common : *only).push_back(a.path + ": " + n);
  for (const auto& n : b.sets.names)
    if (!contains(a.sets.names, n)) only->push_back(b.path + ": " + n);
  for (auto& c : common) c = c.substr(a.path.size() + 2);
  if (common.empty())
    throw BadInput("no field in common: " + a.path + " holds " + a.sets.group + "/ " +
                   (a.sets.names.empty() ? "(none)" : joined(a.sets.names)) + "; " + b.path + " holds " + b.sets.group +
                   "/ " + (b.sets.names.empty() ? "(none)" : joined(b.sets.names)));
  return common;
}

// Where two HDF5 files are at different steps or times, a note (the
// fields then differ for that reason).
std::string time_note(const Source& a, const Source& b) {
  if (!a.hdf5 || !b.hdf5) return "";
  std::string note;
  for (const char* what : {"step", "time"}) {
    if (!cfd::h5_has_attribute(a.path, what) || !cfd::h5_has_attribute(b.path, what)) continue;
    const double x = cfd::h5_read_real_attribute(a.path, what), y = cfd::h5_read_real_attribute(b.path, what);
    auto text = [&](double v) { return what[0] == 's' ? std::to_string(static_cast<long>(v)) : cfd::format_real(v); };
    if (x != y) note += std::string(note.empty() ? "" : ", ") + what + " " + text(x) + " and " + text(y);
  }
  return note.empty() ? "" : "note: the files are at different " + note;
}

void write_csv(const std::string& csv, const std::vector<Result>& results) {
  std::FILE* f = std::fopen(csv.c_str(), "w");
  if (!f) throw BadInput(csv + ": cannot write");
  std::fprintf(f,
               "reference,candidate,points,max_abs,rmse,rel_l2,mass_diff,failures,atol,rtol,worst_i,worst_j,field\n");
  for (const auto& r : results)
    std::fprintf(f, "%s,%s,%ld,%.9e,%.9e,%.9e,%.9e,%ld,%g,%g,%ld,%ld,%s\n", r.reference.c_str(), r.candidate.c_str(),
                 r.c.count, r.c.max_abs, r.c.rmse, r.c.rel_l2, r.c.mass_diff, r.c.failures, r.tol.atol, r.tol.rtol,
                 r.worst_i, r.worst_j, r.field.c_str());
  std::fclose(f);
}

// Two files: one field in full, several one line each.
int compare_files(const std::string& ref, const std::string& cand, const Settings& s, char* argv0) {
  LazyKokkos kokkos(argv0);
  std::vector<Result> results;
  try {
    const Source a = open_source(ref), b = open_source(cand);
    std::vector<std::string> only;
    const auto fields = fields_to_compare(a, b, s, &only);
    const std::string note = time_note(a, b);
    if (fields.size() == 1) {
      results.push_back(compare_field(a, b, fields[0], s, kokkos));
      if (!s.quiet) {
        print_report(results[0]);
        if (!note.empty()) std::printf("%s\n", note.c_str());
        std::printf("%s\n", results[0].c.failures == 0 ? "PASS" : "FAIL");
      }
    } else {
      if (!s.quiet) {
        std::printf("reference  %s\ncandidate  %s\n", ref.c_str(), cand.c_str());
        if (!note.empty()) std::printf("%s\n", note.c_str());
        for (const auto& o : only) std::printf("note: only %s (not compared)\n", o.c_str());
        print_header("");
      }
      std::vector<std::string> failed;
      for (const auto& field : fields) {
        results.push_back(compare_field(a, b, field, s, kokkos));
        if (!s.quiet) print_line(results.back(), "");
        if (results.back().c.failures > 0) failed.push_back(field);
      }
      if (!s.quiet) {
        if (failed.empty())
          std::printf("PASS: %zu fields agree\n", fields.size());
        else
          std::printf("FAIL: %zu of %zu fields differ beyond the tolerance: %s\n", failed.size(), fields.size(),
                      joined(failed).c_str());
      }
    }
    if (!s.csv.empty()) write_csv(s.csv, results);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cfdcompare: error: %s\n", e.what());
    return 2;
  }
  for (const auto& r : results)
    if (r.c.failures > 0) return 1;
  return 0;
}

// The snapshots of a run's output folder, <solver>_<step>.h5 (not
// checkpoints or diagnosis files), by file name.
std::map<std::string, std::string> snapshots(const std::string& dir) {
  std::map<std::string, std::string> found;
  const std::regex numbered("(.+)_([0-9]{8})\\.h5");
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    std::smatch m;
    if (!std::regex_match(name, m, numbered) || m[1] == "checkpoint" || m[1] == "diagnosis") continue;
    found[name] = e.path().string();
  }
  if (ec) throw BadInput(dir + ": cannot list the folder: " + ec.message());
  if (found.empty()) throw BadInput(dir + ": no cfdrun snapshot (<solver>_<step>.h5) in this folder");
  return found;
}

// A snapshot's simulated time (its `time` attribute), if it has one.
std::optional<double> snapshot_time(const Source& src) {
  if (!src.hdf5 || !cfd::h5_has_attribute(src.path, "time")) return std::nullopt;
  return cfd::h5_read_real_attribute(src.path, "time");
}

// Two snapshot times are one output time: written at the same output time
// by runs of different steps (another precision, CFL or integrator), they
// agree to round-off of the time sum.
bool same_time(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return !a && !b;
  return std::abs(*a - *b) <= 1e-9 * std::max(1.0, std::max(std::abs(*a), std::abs(*b)));
}

// Two output folders, snapshot by snapshot: matched by simulated time (runs
// whose steps differ write the same output times under other step numbers),
// else by file name (the same step at different times: noted).
int compare_folders(const std::string& ref, const std::string& cand, const Settings& s, char* argv0) {
  LazyKokkos kokkos(argv0);
  std::vector<Result> results;
  long differ = 0, compared = 0;
  std::vector<std::string> only;
  try {
    const auto names_a = snapshots(ref), names_b = snapshots(cand);
    struct Entry {
      std::string name;
      Source src;
      std::optional<double> time;
      bool used = false;
    };
    auto entries = [](const std::map<std::string, std::string>& names) {
      std::vector<Entry> out;
      for (const auto& [name, path] : names) {
        Source src = open_source(path);
        const auto time = snapshot_time(src);
        out.push_back({name, std::move(src), time});
      }
      return out;
    };
    auto a = entries(names_a), b = entries(names_b);
    // Pairs in the reference's order: the same name and time, then the same
    // time under another name, then the same name at another time.
    std::vector<std::pair<Entry*, Entry*>> pairs(a.size(), {nullptr, nullptr});
    const auto match = [&](auto&& fits) {
      for (size_t k = 0; k < a.size(); ++k) {
        if (pairs[k].first) continue;
        for (auto& y : b)
          if (!y.used && fits(a[k], y)) {
            pairs[k] = {&a[k], &y};
            y.used = true;
            break;
          }
      }
    };
    match([](const Entry& x, const Entry& y) { return x.name == y.name && same_time(x.time, y.time); });
    match([](const Entry& x, const Entry& y) { return x.time && same_time(x.time, y.time); });
    match([](const Entry& x, const Entry& y) { return x.name == y.name; });
    for (size_t k = 0; k < a.size(); ++k)
      if (!pairs[k].first) only.push_back(a[k].name + " only in " + ref);
    for (const auto& y : b)
      if (!y.used) only.push_back(y.name + " only in " + cand);
    if (!s.quiet) {
      std::printf("reference  %s (%zu snapshots)\ncandidate  %s (%zu snapshots)\n", ref.c_str(), a.size(), cand.c_str(),
                  b.size());
      print_header(std::string(20, ' '));
    }
    for (const auto& [x, y] : pairs) {
      if (!x) continue;
      const std::string& name = x->name;
      std::vector<std::string> one_only;
      const auto fields = fields_to_compare(x->src, y->src, s, &one_only);
      bool same = one_only.empty();
      if (!s.quiet) {
        if (y->name != name)
          std::printf("%-20snote: matched by time, t = %s: %s\n", name.c_str(), cfd::format_real(*x->time).c_str(),
                      y->name.c_str());
        else {
          const std::string note = time_note(x->src, y->src);
          if (!note.empty()) std::printf("%-20s%s\n", name.c_str(), note.c_str());
        }
        for (const auto& o : one_only) std::printf("%-20snote: only %s (not compared)\n", name.c_str(), o.c_str());
      }
      for (const auto& field : fields) {
        results.push_back(compare_field(x->src, y->src, field, s, kokkos));
        if (!s.quiet)
          print_line(results.back(), name.size() < 20 ? name + std::string(20 - name.size(), ' ') : name + " ");
        same = same && results.back().c.failures == 0;
      }
      ++compared;
      differ += same ? 0 : 1;
    }
    if (!s.csv.empty()) write_csv(s.csv, results);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cfdcompare: error: %s\n", e.what());
    return 2;
  }
  if (!s.quiet) {
    for (const auto& o : only) std::printf("missing: %s\n", o.c_str());
    if (differ == 0 && only.empty())
      std::printf("PASS: %ld snapshots in both folders, every field agrees\n", compared);
    else
      std::printf("FAIL: %ld of %ld snapshots in both folders differ, %zu in one folder only\n", differ, compared,
                  only.size());
  }
  return differ == 0 && only.empty() ? 0 : 1;
}

bool is_folder(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

void print_version() {
  std::printf("cfdcompare %s (git %s)\nKokkos %s, execution spaces:", cfd::version, cfd::git_revision,
              cfd::kokkos_version_string().c_str());
  for (const auto& s : cfd::enabled_execution_spaces()) std::printf(" %s", s.c_str());
  std::printf(" (default first)\n");
}

}  // namespace

int main(int argc, char* argv[]) {
  std::vector<std::string> files;
  Settings settings;
  bool exact = false;
  double max_l1 = -1;
  try {
    cfd::cli::Parser parser("cfdcompare");
    parser.stop_flag("--help", "-h")
        .stop_flag("--version")
        .flag("--exact")
        .option("--max-l1")
        .option("--atol")
        .option("--rtol")
        .option("--field", true)
        .option("--csv")
        .flag("--quiet", "-q");
    const cfd::cli::Arguments args = parser.parse(argc, argv);
    if (args.stopped_at == "--help") {
      std::fputs(usage_text, stdout);
      return 0;
    }
    if (args.stopped_at == "--version") {
      print_version();
      return 0;
    }
    for (const auto& g : args.options) {
      if (g.option == "--atol") settings.atol = parse_tolerance(g.option, g.value);
      if (g.option == "--rtol") settings.rtol = parse_tolerance(g.option, g.value);
      if (g.option == "--max-l1") max_l1 = parse_tolerance(g.option, g.value);
      if (g.option == "--field") {
        const auto names = cfd::cli::split_list(g.value);
        if (names.empty()) throw std::invalid_argument("--field needs a field name, got '" + g.value + "'");
        for (const auto& n : names)
          if (!contains(settings.fields, n)) settings.fields.push_back(n);
      }
    }
    settings.csv = args.value("--csv");
    settings.quiet = args.has("--quiet");
    exact = args.has("--exact");
    files = args.positional;
  } catch (const std::exception& e) {
    return usage_error(e.what());
  }
  if (exact && files.size() != 1) return usage_error("--exact takes one snapshot");
  if (!exact && files.size() != 2)
    return usage_error("expected two files (a reference and a candidate) or two output folders");
  const bool folders = !exact && is_folder(files[0]) && is_folder(files[1]);
  // The files are read in a child process: HDF5 can crash on a damaged file.
  return cfd::h5_run_guarded("cfdcompare", [&] {
    if (exact) return compare_exact(files[0], max_l1, settings.quiet, settings.csv);
    if (folders) return compare_folders(files[0], files[1], settings, argv[0]);
    return compare_files(files[0], files[1], settings, argv[0]);
  });
}
