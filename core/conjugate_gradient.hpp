// Preconditioned conjugate gradients (PCG) for a symmetric positive definite
// operator on a decomposed 2D grid, built on Kokkos Kernels: the vector
// operations are KokkosBlas calls on each rank's block, and the dot products
// are summed over ranks (one MPI_Allreduce per product, two fused where the
// algorithm allows). The operator and the preconditioner are the caller's:
// the operator exchanges the ghost points of its input itself, since only it
// knows which halo the vector needs.
//
// Vectors live on a block's storage points, ghosts included (GridVector), so
// that the operator can fill their halos in place and KokkosSparse::spmv can
// read a neighbour rank's values through the matrix' column indices. Entries
// that are not unknowns (ghosts, fixed boundary points) are kept at zero in
// r and z, so a block-wide dot product is the sum over its unknowns: the
// operator's output is zero there and the preconditioner keeps zeros. p's
// ghosts hold the neighbours' values after the operator's halo fill (zero
// on fixed edges); x += a p copies them into x's ghosts, which are only read
// after the next fill.
#pragma once

#include "core/comm.hpp"
#include "core/parallel.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace cfd {

struct CgSettings {
  double tolerance = 1e-10;     // stop when |r| <= tolerance * |b| (2-norms over all ranks)
  long max_iterations = 10000;  // fail when this many iterations did not reach it
};

struct CgResult {
  long iterations = 0;
  double relative_residual = 0;  // |r| / |b| at the end (0 when b = 0; NaN after a breakdown)
  bool converged = false;
  bool breakdown = false;  // p.Ap was not positive (or not a number): the system is not SPD or holds NaN/Inf
};

}  // namespace cfd

#ifdef CFDRUN_HAVE_KOKKOSKERNELS
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_update.hpp>

namespace cfd {

// A vector over one block's storage points: the 2D field (for halos and
// stencils) and the same memory seen as one contiguous array (for KokkosBlas
// and KokkosSparse). Views of these types are contiguous: Kokkos pads neither
// LayoutLeft nor LayoutRight unless asked to.
template <class Real, class Layout>
struct GridVector {
  using Field = Kokkos::View<Real**, Layout, MemSpace>;
  using Flat = Kokkos::View<Real*, Kokkos::LayoutLeft, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Field field;
  Flat flat;

  GridVector() = default;
  explicit GridVector(const Field& f) : field(f), flat(f.data(), f.span()) {
    if (!f.span_is_contiguous()) throw std::logic_error("GridVector: the field is not contiguous");
  }
  GridVector(const std::string& label, long nx, long ny)
      : GridVector(Field(Kokkos::view_alloc(label), nx, ny)) {}  // zero-initialised
};

// Scratch vectors of the iteration, allocated once for a block.
template <class Real, class Layout>
struct CgWork {
  GridVector<Real, Layout> r, z, p, q;  // residual, preconditioned residual, direction, operator times direction
  CgWork() = default;
  CgWork(long nx, long ny, bool preconditioned) : r("cg::r", nx, ny), p("cg::p", nx, ny), q("cg::q", nx, ny) {
    z = preconditioned ? GridVector<Real, Layout>("cg::z", nx, ny) : r;  // unpreconditioned: z is r
  }
};

// Solves A x = b for x, starting from the x given. `apply(in, out)`:
// out = A in (filling in's halo first); `precondition(r, z)`: z = M^-1 r,
// or nullptr-like `no_preconditioner` for z = r.
struct NoPreconditioner {};

template <class Real, class Layout, class Operator, class Preconditioner>
CgResult conjugate_gradient(const Operator& apply, const Preconditioner& precondition,
                            const GridVector<Real, Layout>& b, const GridVector<Real, Layout>& x,
                            CgWork<Real, Layout>& w, const Comm& comm, const CgSettings& settings) {
  constexpr bool preconditioned = !std::is_same_v<Preconditioner, NoPreconditioner>;
  auto dot = [](const GridVector<Real, Layout>& a, const GridVector<Real, Layout>& c) {
    return static_cast<double>(KokkosBlas::dot(a.flat, c.flat));
  };
  CgResult result;

  apply(x, w.q);
  KokkosBlas::update(Real(1), b.flat, Real(-1), w.q.flat, Real(0), w.r.flat);  // r = b - A x
  double norms[2] = {dot(b, b), dot(w.r, w.r)};
  comm.sum(norms, 2);
  const double b_norm = std::sqrt(norms[0]);
  double r_norm = std::sqrt(norms[1]);
  if (b_norm == 0) {  // the solution is zero
    Kokkos::deep_copy(x.field, Real(0));
    result.converged = true;
    return result;
  }
  result.relative_residual = r_norm / b_norm;
  if (!(result.relative_residual > settings.tolerance)) {
    result.converged = std::isfinite(result.relative_residual);
    return result;
  }

  if constexpr (preconditioned) precondition(w.r, w.z);
  double rz = comm.sum(dot(w.r, w.z));
  Kokkos::deep_copy(w.p.field, w.z.field);
  while (result.iterations < settings.max_iterations) {
    apply(w.p, w.q);
    const double pq = comm.sum(dot(w.p, w.q));
    if (!(pq > 0)) {  // not positive definite, or NaN: cannot go on
      result.breakdown = true;
      result.relative_residual = NAN;
      return result;
    }
    const Real a = static_cast<Real>(rz / pq);
    KokkosBlas::axpby(a, w.p.flat, Real(1), x.flat);     // x += a p
    KokkosBlas::axpby(-a, w.q.flat, Real(1), w.r.flat);  // r -= a A p
    ++result.iterations;
    double sums[2] = {dot(w.r, w.r), 0};
    if constexpr (preconditioned) {
      precondition(w.r, w.z);
      sums[1] = dot(w.r, w.z);
    }
    comm.sum(sums, 2);
    r_norm = std::sqrt(sums[0]);
    result.relative_residual = r_norm / b_norm;
    if (!(result.relative_residual > settings.tolerance)) {
      result.converged = std::isfinite(result.relative_residual);
      return result;
    }
    const double rz_next = preconditioned ? sums[1] : sums[0];
    const Real beta = static_cast<Real>(rz_next / rz);
    rz = rz_next;
    KokkosBlas::axpby(Real(1), w.z.flat, beta, w.p.flat);  // p = z + beta p
  }
  return result;
}

}  // namespace cfd
#endif  // CFDRUN_HAVE_KOKKOSKERNELS
