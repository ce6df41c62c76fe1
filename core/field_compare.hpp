// Full-grid comparison of a candidate field against a reference, with the
// metrics of problems.md section 1. Norms go through KokkosBlas where the
// build has KokkosKernels; Kokkos must be initialised.
#pragma once

#include <string>
#include <vector>

namespace cfd {

struct Tolerance {
  double atol;
  double rtol;
};

// problems.md defaults: same-precision FP64, same-precision FP32, FP32 against FP64.
Tolerance default_tolerance(int ref_bytes, int candidate_bytes);

struct Comparison {
  long count = 0;
  double max_abs = 0;     // max |ref - c|
  double rmse = 0;        // sqrt(mean (ref - c)^2)
  double rel_l2 = 0;      // sqrt(sum (ref-c)^2 / sum ref^2)
  double mass_diff = 0;   // sum c - sum ref
  long failures = 0;      // cells with |ref - c| > atol + rtol*|ref|
  long worst_index = -1;  // flat index of the largest |ref - c| (or of the first NaN or Inf)
  double worst_ref = 0, worst_candidate = 0;
  long ref_not_finite = 0, candidate_not_finite = 0;  // NaN or Inf entries: each one a failure
};

// Every NaN or Inf, in either field, is a failure (a reference that holds
// one is not a result to agree with), and makes max_abs NaN. Throws
// std::invalid_argument for fields of different sizes or with no values.
Comparison compare_fields(const std::vector<double>& ref, const std::vector<double>& candidate, Tolerance tol);

}  // namespace cfd
