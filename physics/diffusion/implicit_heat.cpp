// Implicit time steps of the heat equation: backward Euler and Crank-Nicolson,
//   (I - theta*alpha*L) u_new = (I + (1 - theta)*alpha*L) u_old,
// theta = 1 (backward Euler) or 1/2 (Crank-Nicolson), L the 5-point Laplacian
// in units of dx^2 and the same fixed zero edges as the explicit stencil. The
// system is symmetric positive definite for every alpha > 0 and is solved by
// preconditioned conjugate gradients (core/conjugate_gradient.hpp) on every
// rank count.
//
// The unknowns are the interior points (not on the global edge) that a block
// owns. Its operator either is a KokkosSparse::CrsMatrix with one row per
// storage point (ghosts and edges get empty rows) applied by
// KokkosSparse::spmv, or the same operator as a stencil kernel (matrix-free).
// The matrix reads 68 bytes per row besides the vectors (5 values, 5 column
// indices, a row offset); the stencil reads none, so it is the faster of the
// two where memory bandwidth bounds the step (docs/user-guide.md, implicit schemes measures
// both), and it needs no memory for a matrix.
#include "physics/diffusion/implicit_heat.hpp"

#include "core/conjugate_gradient.hpp"
#include "core/decomposition.hpp"
#include "core/grid.hpp"
#include "core/halo.hpp"
#include "physics/diffusion/diffusion_params.hpp"
#include "physics/diffusion/heat_stencil.hpp"

#include <KokkosBlas1_mult.hpp>
#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_gauss_seidel.hpp>
#include <KokkosSparse_spmv.hpp>

#include <chrono>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

namespace cfd::diffusion {

// Kokkos Kernels 4 promoted Gauss-Seidel out of Experimental (and deprecated
// the old names); 3.4 has only those. 4.x also lets the colouring be chosen:
// the vertex-based deterministic one gives the same preconditioner on every
// run and thread count (3.4's default colouring is speculative, so there
// Gauss-Seidel results may differ in the last bits between runs).
#if defined(KOKKOSKERNELS_VERSION_MAJOR) && KOKKOSKERNELS_VERSION_MAJOR >= 4
namespace gauss_seidel_api = KokkosSparse;
#define CFDRUN_GS_COLORING , KokkosGraph::COLORING_VBD
#else
namespace gauss_seidel_api = KokkosSparse::Experimental;
#define CFDRUN_GS_COLORING
#endif

// theta of the scheme: the weight of the new time level.
inline double theta(Scheme s) { return s == Scheme::crank_nicolson ? 0.5 : 1.0; }

// Storage point (i, j) <-> position in the contiguous array of a View of
// extents nx x ny in Layout.
template <class Layout>
struct FlatIndex {
  long nx, ny;
  static constexpr bool left = std::is_same_v<Layout, Kokkos::LayoutLeft>;
  KOKKOS_INLINE_FUNCTION long operator()(long i, long j) const { return left ? i + j * nx : i * ny + j; }
  KOKKOS_INLINE_FUNCTION long i_of(long k) const { return left ? k % nx : k / ny; }
  KOKKOS_INLINE_FUNCTION long j_of(long k) const { return left ? k / nx : k % ny; }
};

// q = (I - c L) p on the unknowns (c = theta*alpha), one point per thread; the
// other points of q stay zero.
template <class Real, class Layout>
struct HeatOperatorStencil {
  Kokkos::View<Real**, Layout, MemSpace> p, q;
  Real diagonal, c;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long i, const long j) const {
    q(i, j) = diagonal * p(i, j) - c * (p(i - 1, j) + p(i + 1, j) + p(i, j - 1) + p(i, j + 1));
  }
};

// f = value on the unknowns (at namespace scope: nvcc refuses kernels of
// private member types).
template <class Real, class Layout>
struct SetOnUnknowns {
  Kokkos::View<Real**, Layout, MemSpace> f;
  Real value;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long i, const long j) const { f(i, j) = value; }
};

// The right-hand side on the unknowns: u_old + (1 - theta)*alpha*L u_old,
// that is u_old itself for backward Euler and heat_update with alpha/2 for
// Crank-Nicolson. The other points of b stay zero.
template <class Real, class Layout>
struct HeatRightHandSide {
  Kokkos::View<Real**, Layout, MemSpace> u, b;
  Real explicit_alpha;  // (1 - theta)*alpha
  bool explicit_part;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long i, const long j) const {
    b(i, j) = explicit_part ? heat_update(u(i, j), u(i - 1, j), u(i + 1, j), u(i, j - 1), u(i, j + 1), explicit_alpha)
                            : u(i, j);
  }
};

template <class Real>
using HeatMatrix = KokkosSparse::CrsMatrix<Real, int, Kokkos::Device<ExecSpace, MemSpace>, void, size_t>;

// (I - c L) as a matrix over the storage points of a block of nx x ny. With
// `block_local`, the preconditioner's matrix: couplings to points that are
// not this block's unknowns are left out and those points get a unit row, so
// that Gauss-Seidel sees a square, symmetric, non-singular matrix (the CG
// keeps zeros there). Otherwise the operator: rows of non-unknowns are empty
// and an unknown's row reaches its neighbours wherever they are stored
// (ghosts included), with columns in ascending order.
template <class Real, class Layout>
HeatMatrix<Real> heat_matrix(long nx, long ny, const Unknowns& unknowns, double c_value, bool block_local) {
  using Matrix = HeatMatrix<Real>;  // 32-bit columns: Parts refuses larger blocks on every rank first
  const FlatIndex<Layout> flat{nx, ny};
  const long rows = nx * ny;
  const Unknowns u = unknowns;
  const Real c = static_cast<Real>(c_value), diagonal = Real(1) + Real(4) * c;
  typename Matrix::row_map_type::non_const_type row_map("heat_matrix::row_map", rows + 1);
  // A row's neighbours in ascending position: the one before and after along
  // the slow index, and along the fast index, around the centre.
  auto neighbours = KOKKOS_LAMBDA(long i, long j, long* k) {
    if (FlatIndex<Layout>::left) {
      k[0] = flat(i, j - 1), k[1] = flat(i - 1, j), k[2] = flat(i, j), k[3] = flat(i + 1, j), k[4] = flat(i, j + 1);
    } else {
      k[0] = flat(i - 1, j), k[1] = flat(i, j - 1), k[2] = flat(i, j), k[3] = flat(i, j + 1), k[4] = flat(i + 1, j);
    }
  };
  auto is_unknown = KOKKOS_LAMBDA(long k) { return u.contains(flat.i_of(k), flat.j_of(k)); };
  auto entries_of = KOKKOS_LAMBDA(long r)->long {
    if (!is_unknown(r)) return block_local ? 1 : 0;
    if (!block_local) return 5;
    long k[5];
    neighbours(flat.i_of(r), flat.j_of(r), k);
    long n = 0;
    for (int e = 0; e < 5; ++e) n += is_unknown(k[e]) ? 1 : 0;
    return n;
  };
  size_t nnz = 0;
  Kokkos::parallel_scan(
      "diffusion::heat_matrix_rows", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(0, rows),
      KOKKOS_LAMBDA(const long r, size_t& sum, const bool final) {
        sum += static_cast<size_t>(entries_of(r));
        if (final) row_map(r + 1) = sum;
      },
      nnz);
  typename Matrix::index_type::non_const_type columns("heat_matrix::columns", nnz);
  typename Matrix::values_type::non_const_type values("heat_matrix::values", nnz);
  Kokkos::parallel_for(
      "diffusion::heat_matrix_entries", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(0, rows),
      KOKKOS_LAMBDA(const long r) {
        size_t e = row_map(r);
        if (!is_unknown(r)) {
          if (block_local) columns(e) = static_cast<int>(r), values(e) = Real(1);
          return;
        }
        long k[5];
        neighbours(flat.i_of(r), flat.j_of(r), k);
        for (int n = 0; n < 5; ++n) {
          if (block_local && !is_unknown(k[n])) continue;
          columns(e) = static_cast<int>(k[n]);
          values(e) = k[n] == r ? diagonal : -c;
          ++e;
        }
      });
  return Matrix("heat_matrix", static_cast<int>(rows), static_cast<int>(rows), nnz, values, row_map, columns);
}

// What ImplicitHeat keeps between steps: the matrix, the preconditioner and
// the CG's vectors.
template <class Real, class Layout>
struct ImplicitHeat<Real, Layout>::Parts {
  using Vector = GridVector<Real, Layout>;

  Parts(const Params& p, const Unknowns& unknowns, const Decomposition& dec, long nx, long ny)
      : params_(p),
        unknowns_(unknowns),
        halo_(dec, 1, FaceBoundaries<Real>{}),
        comm_(dec.comm),
        nx_(nx),
        ny_(ny),
        c_(static_cast<Real>(theta(p.scheme) * p.alpha)),
        work_(nx, ny, p.preconditioner != Preconditioner::none) {
    // Every rank decides together, so that none waits in a collective for
    // one that gave up.
    const bool needs_matrix =
        p.implicit_operator == ImplicitOperator::matrix || p.preconditioner == Preconditioner::gauss_seidel;
    const double largest = comm_.max(static_cast<double>(nx) * static_cast<double>(ny));
    if (needs_matrix && largest > std::numeric_limits<int>::max())
      throw CollectiveError("diffusion: a block of " + std::to_string(static_cast<long>(largest)) +
                            " points is too large for the matrix' 32-bit column indices; use more ranks, or "
                            "diffusion.operator: stencil with diffusion.preconditioner none or jacobi");
    if (p.implicit_operator == ImplicitOperator::matrix)
      matrix_ = heat_matrix<Real, Layout>(nx, ny, unknowns, theta(p.scheme) * p.alpha, false);
    if (p.preconditioner == Preconditioner::jacobi) {
      // The diagonal is the same on every unknown: Jacobi scales r, which
      // changes no iterate of CG (docs/user-guide.md, implicit schemes); it is here as the
      // reference point of the preconditioners.
      inverse_diagonal_ = Vector("diffusion::inverse_diagonal", nx, ny);
      const Real inverse = Real(1) / (Real(1) + Real(4) * c_);
      for_each_unknown("diffusion::jacobi_diagonal", SetOnUnknowns<Real, Layout>{inverse_diagonal_.field, inverse});
    }
    if (p.preconditioner == Preconditioner::gauss_seidel) {
      block_matrix_ = heat_matrix<Real, Layout>(nx, ny, unknowns, theta(p.scheme) * p.alpha, true);
      gauss_seidel_ = std::make_unique<Handle>();
      gauss_seidel_->create_gs_handle(KokkosSparse::GS_DEFAULT CFDRUN_GS_COLORING);
      const int n = static_cast<int>(nx * ny);
      gauss_seidel_api::gauss_seidel_symbolic(gauss_seidel_.get(), n, n, block_matrix_.graph.row_map,
                                              block_matrix_.graph.entries, true);
      gauss_seidel_api::gauss_seidel_numeric(gauss_seidel_.get(), n, n, block_matrix_.graph.row_map,
                                             block_matrix_.graph.entries, block_matrix_.values, true);
    }
  }
  ~Parts() {
    if (gauss_seidel_) gauss_seidel_->destroy_gs_handle();
  }
  Parts(const Parts&) = delete;
  Parts& operator=(const Parts&) = delete;

  // u_new into u (which is also the first guess); rhs is scratch whose
  // points other than the unknowns are zero. Collective.
  CgResult step(const Field& u, const Field& rhs) {
    const Vector x(u), b(rhs);
    if (params_.scheme == Scheme::crank_nicolson) halo_.fill(PointField<Field>{u});
    const Real explicit_alpha = static_cast<Real>((1 - theta(params_.scheme)) * params_.alpha);
    for_each_unknown("diffusion::implicit_rhs",
                     HeatRightHandSide<Real, Layout>{u, rhs, explicit_alpha, params_.scheme == Scheme::crank_nicolson});
    const CgSettings settings{params_.cg_tolerance, params_.cg_max_iterations};
    auto apply = [this](const Vector& in, const Vector& out) { this->apply(in, out); };
    switch (params_.preconditioner) {
      case Preconditioner::jacobi:
        return conjugate_gradient(
            apply,
            [this](const Vector& r, const Vector& z) {
              KokkosBlas::mult(Real(0), z.flat, Real(1), inverse_diagonal_.flat, r.flat);
            },
            b, x, work_, comm_, settings);
      case Preconditioner::gauss_seidel:
        return conjugate_gradient(
            apply,
            [this](const Vector& r, const Vector& z) {
              const int n = static_cast<int>(nx_ * ny_);
              gauss_seidel_api::symmetric_gauss_seidel_apply(gauss_seidel_.get(), n, n, block_matrix_.graph.row_map,
                                                             block_matrix_.graph.entries, block_matrix_.values, z.flat,
                                                             r.flat, true, true, Real(1), 1);
            },
            b, x, work_, comm_, settings);
      case Preconditioner::none: break;
    }
    return conjugate_gradient(apply, NoPreconditioner{}, b, x, work_, comm_, settings);
  }

  // out = (I - theta alpha L) in, after filling in's ghost points.
  void apply(const Vector& in, const Vector& out) {
    halo_.fill(PointField<Field>{in.field});
    if (params_.implicit_operator == ImplicitOperator::matrix) {
      KokkosSparse::spmv("N", Real(1), matrix_, in.flat, Real(0), out.flat);
    } else {
      for_each_unknown("diffusion::implicit_operator",
                       HeatOperatorStencil<Real, Layout>{in.field, out.field, Real(1) + Real(4) * c_, c_});
    }
  }

  // Bytes one operator application moves at least: for the matrix its
  // values, column indices and row offsets, the input vector once and the
  // output written; for the stencil the two vectors.
  double operator_bytes() const {
    const double points = static_cast<double>(nx_) * static_cast<double>(ny_);
    double bytes = 2 * points * sizeof(Real);
    if (params_.implicit_operator == ImplicitOperator::matrix)
      bytes += static_cast<double>(matrix_.nnz()) * (sizeof(Real) + sizeof(int)) + (points + 1) * sizeof(size_t);
    return bytes;
  }
  double seconds_per_application(int count) {
    apply(work_.p, work_.q);
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < count; ++k) apply(work_.p, work_.q);
    Kokkos::fence();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / count;
  }

  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<size_t, int, Real, ExecSpace, MemSpace, MemSpace>;
  template <class F>
  void for_each_unknown(const char* label, const F& f) const {
    // Along memory: lines on CPUs, tiles with the contiguous index fastest on GPUs.
    constexpr bool left = std::is_same_v<Layout, Kokkos::LayoutLeft>;
    constexpr Kokkos::Iterate order = left ? Kokkos::Iterate::Left : Kokkos::Iterate::Right;
    for_each_2d<order>(label, unknowns_.i0, unknowns_.i1, unknowns_.j0, unknowns_.j1, left ? 0 : 1, f);
  }

  Params params_;
  Unknowns unknowns_;
  HaloExchange<Real> halo_;  // the CG's own buffers: it fills u and the direction p
  Comm comm_;
  long nx_, ny_;
  Real c_;
  CgWork<Real, Layout> work_;
  HeatMatrix<Real> matrix_, block_matrix_;
  Vector inverse_diagonal_;
  std::unique_ptr<Handle> gauss_seidel_;
};

template <class Real, class Layout>
ImplicitHeat<Real, Layout>::ImplicitHeat(const Params& p, const Unknowns& unknowns, const Decomposition& dec, long nx,
                                         long ny)
    : parts_(std::make_unique<Parts>(p, unknowns, dec, nx, ny)) {}
template <class Real, class Layout>
ImplicitHeat<Real, Layout>::~ImplicitHeat() = default;
template <class Real, class Layout>
CgResult ImplicitHeat<Real, Layout>::step(const Field& u, const Field& rhs) {
  return parts_->step(u, rhs);
}
template <class Real, class Layout>
double ImplicitHeat<Real, Layout>::operator_bytes() const {
  return parts_->operator_bytes();
}
template <class Real, class Layout>
double ImplicitHeat<Real, Layout>::seconds_per_application(int count) {
  return parts_->seconds_per_application(count);
}
template <class Real, class Layout>
const HaloExchange<Real>& ImplicitHeat<Real, Layout>::halo() const {
  return parts_->halo_;
}

// One precision and layout per translation unit: physics/CMakeLists.txt
// compiles this file four times, through generated files that name the pair.
// (Kokkos Kernels' templates make one pair take minutes under nvcc; the four
// in one file were the longest step of the whole GPU build.)
#if !defined(CFDRUN_IMPLICIT_HEAT_REAL) || !defined(CFDRUN_IMPLICIT_HEAT_LAYOUT)
#error "compile implicit_heat.cpp through the files physics/CMakeLists.txt generates"
#endif
template class ImplicitHeat<CFDRUN_IMPLICIT_HEAT_REAL, Kokkos::CFDRUN_IMPLICIT_HEAT_LAYOUT>;

}  // namespace cfd::diffusion
