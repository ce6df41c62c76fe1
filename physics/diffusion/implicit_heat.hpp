// Implicit time steps of the heat equation, backward Euler and
// Crank-Nicolson, solved by conjugate gradients on Kokkos Kernels: the
// interface the diffusion solver sees. The matrix, the preconditioner and the
// kernels live in implicit_heat.cpp, compiled once for the four precision and
// layout pairs, so that the Kokkos Kernels templates (spmv, Gauss-Seidel,
// colouring) are not compiled again in every file that includes the solver.
#pragma once

#include "core/conjugate_gradient.hpp"
#include "core/decomposition.hpp"
#include "core/halo.hpp"
#include "physics/diffusion/diffusion_params.hpp"

#include <memory>

namespace cfd::diffusion {

// The block's unknowns in local storage indices: [i0, i1) x [j0, j1).
struct Unknowns {
  int i0, i1, j0, j1;
  KOKKOS_INLINE_FUNCTION bool contains(long i, long j) const { return i >= i0 && i < i1 && j >= j0 && j < j1; }
  long count() const { return i1 > i0 && j1 > j0 ? long(i1 - i0) * (j1 - j0) : 0; }
};

// One implicit step per call on one rank's block (collective).
template <class Real, class Layout>
class ImplicitHeat {
 public:
  using Field = Kokkos::View<Real**, Layout, MemSpace>;

  ImplicitHeat(const Params& p, const Unknowns& unknowns, const Decomposition& dec, long nx, long ny);
  ~ImplicitHeat();
  ImplicitHeat(const ImplicitHeat&) = delete;
  ImplicitHeat& operator=(const ImplicitHeat&) = delete;

  // u_new into u (which is also the first guess); rhs is scratch whose
  // points other than the unknowns are zero.
  CgResult step(const Field& u, const Field& rhs);
  // Bytes one operator application moves at least (cfdbench's bandwidth).
  double operator_bytes() const;
  // Seconds per application of the operator (its halo fill included), the
  // mean of `count` after one untimed.
  double seconds_per_application(int count);
  // The CG's own halo exchange: it fills u and the search direction.
  const HaloExchange<Real>& halo() const;

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

extern template class ImplicitHeat<float, Kokkos::LayoutLeft>;
extern template class ImplicitHeat<float, Kokkos::LayoutRight>;
extern template class ImplicitHeat<double, Kokkos::LayoutLeft>;
extern template class ImplicitHeat<double, Kokkos::LayoutRight>;

}  // namespace cfd::diffusion
