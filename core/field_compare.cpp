#include "core/field_compare.hpp"

#include "core/parallel.hpp"

#ifdef CFDRUN_HAVE_KOKKOSKERNELS
#include <KokkosBlas1_nrm2.hpp>
#include <KokkosBlas1_nrminf.hpp>
#include <KokkosBlas1_sum.hpp>
#include <KokkosBlas1_update.hpp>
#endif

#include <cmath>
#include <stdexcept>

namespace cfd {

Tolerance default_tolerance(int ref_bytes, int candidate_bytes) {
  if (ref_bytes == 8 && candidate_bytes == 8) return {1e-12, 1e-10};
  if (ref_bytes == 4 && candidate_bytes == 4) return {1e-6, 1e-5};
  return {1e-6, 1e-4};
}

Comparison compare_fields(const std::vector<double>& ref_host, const std::vector<double>& cand_host, Tolerance tol) {
  if (ref_host.size() != cand_host.size())
    throw std::invalid_argument("fields differ in size: " + std::to_string(ref_host.size()) + " against " +
                                std::to_string(cand_host.size()));
  const long n = static_cast<long>(ref_host.size());
  if (n == 0) throw std::invalid_argument("the fields hold no values: nothing to compare");
  Comparison out;
  out.count = n;

  using Vector = Kokkos::View<double*, MemSpace>;
  using HostVector = Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Vector ref("compare::ref", n), cand("compare::candidate", n), diff("compare::diff", n);
  Kokkos::deep_copy(ref, HostVector(ref_host.data(), n));
  Kokkos::deep_copy(cand, HostVector(cand_host.data(), n));

  double diff_norm = 0, ref_norm = 0;
  double ref_sum = 0, cand_sum = 0;
#ifdef CFDRUN_HAVE_KOKKOSKERNELS
  KokkosBlas::update(1.0, ref, -1.0, cand, 0.0, diff);  // diff = ref - cand
  diff_norm = KokkosBlas::nrm2(diff);
  ref_norm = KokkosBlas::nrm2(ref);
  out.max_abs = KokkosBlas::nrminf(diff);
  ref_sum = KokkosBlas::sum(ref);
  cand_sum = KokkosBlas::sum(cand);
#else
  Kokkos::parallel_for(
      "compare::diff", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(long k) { diff(k) = ref(k) - cand(k); });
  double sq = 0, rsq = 0;
  Kokkos::parallel_reduce(
      "compare::norms", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(long k, double& s, double& r, double& a, double& b) {
        s += diff(k) * diff(k);
        r += ref(k) * ref(k);
        a += ref(k);
        b += cand(k);
      },
      sq, rsq, ref_sum, cand_sum);
  Kokkos::parallel_reduce(
      "compare::max_abs", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(long k, double& m) {
        const double d = diff(k) < 0 ? -diff(k) : diff(k);
        if (d > m) m = d;
      },
      Kokkos::Max<double>(out.max_abs));
  diff_norm = std::sqrt(sq);
  ref_norm = std::sqrt(rsq);
#endif
  out.rmse = diff_norm / std::sqrt(static_cast<double>(n));
  out.rel_l2 = ref_norm > 0 ? diff_norm / ref_norm : (diff_norm > 0 ? INFINITY : 0.0);
  out.mass_diff = cand_sum - ref_sum;

  const double atol = tol.atol, rtol = tol.rtol;
  Kokkos::parallel_reduce(
      "compare::failures", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(long k, long& fails, long& bad_ref, long& bad_cand) {
        // x - x is 0 for every finite x, NaN for NaN and Inf.
        const bool ref_finite = ref(k) - ref(k) == 0, cand_finite = cand(k) - cand(k) == 0;
        bad_ref += ref_finite ? 0 : 1;
        bad_cand += cand_finite ? 0 : 1;
        const double d = diff(k) < 0 ? -diff(k) : diff(k);
        const double r = ref(k) < 0 ? -ref(k) : ref(k);
        if (!ref_finite || !cand_finite || !(d <= atol + rtol * r)) ++fails;
      },
      out.failures, out.ref_not_finite, out.candidate_not_finite);
  using Loc = Kokkos::MaxLoc<double, long>;
  typename Loc::value_type worst;
  Kokkos::parallel_reduce(
      "compare::worst", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(long k, typename Loc::value_type& w) {
        // The first non-finite entry outranks every finite difference.
        const bool finite = ref(k) - ref(k) == 0 && cand(k) - cand(k) == 0;
        const double d = !finite ? INFINITY : diff(k) < 0 ? -diff(k) : diff(k);
        if (d > w.val || (d == w.val && d == INFINITY && k < w.loc)) {
          w.val = d;
          w.loc = k;
        }
      },
      Loc(worst));
  if (out.ref_not_finite + out.candidate_not_finite > 0) out.max_abs = NAN;
  out.worst_index = worst.loc;
  if (worst.loc >= 0 && worst.loc < n) {
    out.worst_ref = ref_host[worst.loc];
    out.worst_candidate = cand_host[worst.loc];
  }
  return out;
}

}  // namespace cfd
