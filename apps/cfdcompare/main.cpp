// cfdcompare: full-grid comparison of two results, with the metrics of the
// original diffusion study (problems.md section 1).
#include "core/command_line.hpp"
#include "core/field_compare.hpp"
#include "core/hdf5_file.hpp"
#include "core/parallel.hpp"
#include "core/text_field.hpp"
#include "physics/gas/exact_riemann.hpp"
#include "physics/sod/sod_params.hpp"
#include "physics/solvers.hpp"

#include <cmath>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const char* usage_text = R"(usage: cfdcompare REFERENCE CANDIDATE [options]
       cfdcompare --exact SNAPSHOT.h5 [--max-l1 X]

Compares two fields point by point. Each file is either a cfdrun HDF5
snapshot (the dataset fields/<FIELD> is read) or a text field in the original
Fortran study's format (first line "nx ny", then one value per line, i fastest).
Prints max |ref-c|, RMSE, relative L2, mass difference (sum c - sum ref), the
number of points with |ref-c| > atol + rtol*|ref| and the worst point.

With --exact, a 1D shock-tube snapshot (solver sod) is compared with the
exact Riemann solution (Toro, ch. 4) for its own states, gas and time, read
from the snapshot's stored configuration: the L1 errors (mean absolute error
over the cells, Sod units) of density, velocity and pressure are printed.

Options:
  --exact         compare one sod snapshot with the exact solution
  --max-l1 X      with --exact: exit 1 when the density L1 error exceeds X
                  (with --csv: the numerical and exact profiles, Sod units)
  --atol X        absolute tolerance (default by precision, see below)
  --rtol Y        relative tolerance
  --field NAME    field of an HDF5 snapshot to compare (default u)
  --csv FILE      also write the metrics as one CSV row with a header
  --quiet, -q     print nothing; the exit status tells
  --help, -h      this text

Default tolerances (problems.md): both FP64: atol 1e-12 rtol 1e-10; both FP32:
atol 1e-6 rtol 1e-5; FP32 against FP64: atol 1e-6 rtol 1e-4. Text files count as FP64.
Exit status: 0 when no point fails, 1 when some do (NaN or Inf anywhere, in
either file, fails; with --exact too, naming the field and point), 2 for bad
input: a file that is missing, not a regular file (a device such as /dev/zero,
a pipe), not a snapshot or text field, or damaged ("damaged HDF5 file" where
reading it crashed the HDF5 library, or its headers were still being read
after 10 s: it runs in a child process).
)";

struct Input {
  long nx = 0, ny = 1;
  int bytes = 8;
  std::vector<double> values;
};

// Only regular files are read: a device or a pipe (/dev/zero) is no result,
// and reading one may never end.
void check_regular_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw std::runtime_error(path + ": no such file");
  if (std::filesystem::is_directory(status)) throw std::runtime_error(path + ": this is a folder, give a file");
  if (!std::filesystem::is_regular_file(status))
    throw std::runtime_error(path + ": not a regular file (a device, pipe or socket?)");
}

Input load(const std::string& path, const std::string& field) {
  Input in;
  check_regular_file(path);
  if (cfd::h5_is_hdf5(path)) {
    cfd::H5Array a = cfd::h5_read_array(path, "fields/" + field);
    in.bytes = a.stored_bytes;
    if (a.dims.size() == 2) {
      in.ny = static_cast<long>(a.dims[0]);
      in.nx = static_cast<long>(a.dims[1]);
    } else if (a.dims.size() == 1) {
      in.nx = static_cast<long>(a.dims[0]);
    } else {
      throw std::runtime_error(path + ": fields/" + field + " has rank " + std::to_string(a.dims.size()));
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

// Two fields point by point: the metrics, the verdict and the exit status.
int compare_two(const std::vector<std::string>& files, const std::string& field, double atol, double rtol, bool quiet,
                const std::string& csv, char* argv[]) {
  Input ref, cand;
  try {
    ref = load(files[0], field);
    cand = load(files[1], field);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cfdcompare: error: %s\n", e.what());
    return 2;
  }
  if (ref.nx != cand.nx || ref.ny != cand.ny) {
    std::fprintf(stderr, "cfdcompare: error: grids differ: %s is %ld x %ld, %s is %ld x %ld\n", files[0].c_str(),
                 ref.nx, ref.ny, files[1].c_str(), cand.nx, cand.ny);
    return 2;
  }
  cfd::Tolerance tol = cfd::default_tolerance(ref.bytes, cand.bytes);
  if (atol >= 0) tol.atol = atol;
  if (rtol >= 0) tol.rtol = rtol;

  cfd::Comparison c;
  {
    int kargc = 1;
    cfd::KokkosSession kokkos(kargc, argv);
    try {
      c = cfd::compare_fields(ref.values, cand.values, tol);
    } catch (const std::exception& e) {  // sizes, or memory Kokkos cannot allocate: not an abort
      std::fprintf(stderr, "cfdcompare: error: %s and %s: %s\n", files[0].c_str(), files[1].c_str(), e.what());
      return 2;
    }
  }

  const long wi = c.worst_index >= 0 ? c.worst_index % ref.nx + 1 : 0;
  const long wj = c.worst_index >= 0 ? c.worst_index / ref.nx + 1 : 0;
  if (!quiet) {
    std::printf("reference  %s (%ld x %ld, %s)\ncandidate  %s (%s)\n", files[0].c_str(), ref.nx, ref.ny,
                ref.bytes == 4 ? "fp32" : "fp64", files[1].c_str(), cand.bytes == 4 ? "fp32" : "fp64");
    std::printf("points            %ld\n", c.count);
    std::printf("max abs error     %.6e\n", c.max_abs);
    std::printf("rmse              %.6e\n", c.rmse);
    std::printf("relative L2       %.6e\n", c.rel_l2);
    std::printf("mass difference   %.6e   (sum candidate - sum reference)\n", c.mass_diff);
    std::printf("failures          %ld   (atol %g, rtol %g)\n", c.failures, tol.atol, tol.rtol);
    if (c.ref_not_finite + c.candidate_not_finite > 0)
      std::printf("NaN or Inf        %ld in the reference, %ld in the candidate (each a failure)\n", c.ref_not_finite,
                  c.candidate_not_finite);
    std::printf("worst point       i=%ld j=%ld (1-based): reference %.17g, candidate %.17g\n", wi, wj, c.worst_ref,
                c.worst_candidate);
    std::printf("%s\n", c.failures == 0 ? "PASS" : "FAIL");
  }
  if (!csv.empty()) {
    std::FILE* f = std::fopen(csv.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "cfdcompare: error: %s: cannot write\n", csv.c_str());
      return 2;
    }
    std::fprintf(f, "reference,candidate,points,max_abs,rmse,rel_l2,mass_diff,failures,atol,rtol,worst_i,worst_j\n");
    std::fprintf(f, "%s,%s,%ld,%.9e,%.9e,%.9e,%.9e,%ld,%g,%g,%ld,%ld\n", files[0].c_str(), files[1].c_str(), c.count,
                 c.max_abs, c.rmse, c.rel_l2, c.mass_diff, c.failures, tol.atol, tol.rtol, wi, wj);
    std::fclose(f);
  }
  return c.failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  std::vector<std::string> files;
  std::string field = "u", csv;
  double atol = -1, rtol = -1;
  bool quiet = false, exact = false;
  double max_l1 = -1;
  try {
    for (int k = 1; k < argc; ++k) {
      const std::string a = argv[k];
      auto value = [&]() -> std::string {
        if (k + 1 >= argc) throw std::invalid_argument(a + " needs a value");
        return argv[++k];
      };
      if (a == "--help" || a == "-h") {
        std::fputs(usage_text, stdout);
        return 0;
      } else if (a == "--atol") {
        atol = parse_tolerance(a, value());
      } else if (a == "--rtol") {
        rtol = parse_tolerance(a, value());
      } else if (a == "--exact") {
        exact = true;
      } else if (a == "--max-l1") {
        max_l1 = parse_tolerance(a, value());
      } else if (a == "--field") {
        field = value();
      } else if (a == "--csv") {
        csv = value();
      } else if (a == "--quiet" || a == "-q") {
        quiet = true;
      } else if (!a.empty() && a[0] == '-') {
        throw std::invalid_argument("unknown option '" + a + "'");
      } else {
        files.push_back(a);
      }
    }
  } catch (const std::exception& e) {
    return usage_error(e.what());
  }
  if (exact && files.size() != 1) return usage_error("--exact takes one snapshot");
  if (!exact && files.size() != 2) return usage_error("expected two files, a reference and a candidate");
  // The files are read in a child process: HDF5 can crash on a damaged file.
  return cfd::h5_run_guarded("cfdcompare", [&] {
    return exact ? compare_exact(files[0], max_l1, quiet, csv)
                 : compare_two(files, field, atol, rtol, quiet, csv, argv);
  });
}
