// The euler method on a 3D block (grid.nz > 1): the split kernels of
// split_kernels.hpp with a third direction (the fused stage,
// stage_3d.hpp, computes its faces with these functions too). The
// cell functions are the same ones (cell_primitives, flux_difference, the
// face schemes and Riemann solvers of physics/gas), and a face is FaceFlux's
// (one template for 2D and 3D faces), so
// that a direction in which nothing varies contributes an exact zero: a 2D
// problem extruded along z gives the 2D results bit for bit on every plane,
// and a tube along x, y or z the same profile bit for bit
// (tests/test_euler3d.cpp).
#pragma once

#include "core/parallel.hpp"
#include "physics/euler/split_kernels.hpp"

namespace cfd::euler {

template <class Real>
using Array4 = Kokkos::View<Real****, Kokkos::LayoutRight, MemSpace>;  // (var, k, j, i)

// A 3D block's primitives W(var, k, j, i): rho, vx, vy, vz and p, the gas
// solvers' first five slots and no more. The 2D kernels keep the internal
// energy too (IEI), which only the tutorial's faces reconstruct; 3D has no
// tutorial faces, so its W is a component shorter (8 bytes a cell in FP64
// towards the footprint target).
enum { NPRIM_3D = NPRIM_BASE };

// A cell's bound on dt in 3D: min(dx/(|vx|+c), dy/(|vy|+c), dz/(|vz|+c)),
// the 2D bound's minimum first (the same bits where z allows more).
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real cell_dt_bound(const CellPrimitives<Real>& w, Real dx, Real dy, Real dz, Real gamma) {
  return gas::convective_dt_bound<3>(w.rho, w.vx, w.vy, w.vz, w.p, gamma, dx, dy, dz);
}

// The stage update from three directions' parts: u_in + dt*((x + y) + z),
// so that z = 0 gives the 2D update's bits.
template <bool Blend, bool Reciprocal, class Real>
KOKKOS_FORCEINLINE_FUNCTION Real stage_value(Real u_base, Real u_in, Real fx_lo, Real fx_hi, Real dx, Real fy_lo,
                                             Real fy_hi, Real dy, Real fz_lo, Real fz_hi, Real dz, Real a, Real b,
                                             Real dt) {
  const Real xy = flux_difference<Reciprocal>(fx_lo, fx_hi, dx) + flux_difference<Reciprocal>(fy_lo, fy_hi, dy);
  return stage_value_from<Blend>(u_base, u_in, xy, flux_difference<Reciprocal>(fz_lo, fz_hi, dz), a, b, dt);
}

// W = rho, vx, vy, vz, p of U (the split kernels' input, the snapshot's
// fields).
template <class Real, bool Reciprocal>
struct Primitives_3d {
  Array4<Real> u, w;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    const CellPrimitives<Real> c = cell_primitives<Reciprocal>(u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i),
                                                               u(IM3, k, j, i), u(IEN, k, j, i), gamma);
    w(IDN, k, j, i) = c.rho, w(IVX, k, j, i) = c.vx, w(IVY, k, j, i) = c.vy, w(IVZ, k, j, i) = c.vz;
    w(IPR, k, j, i) = c.p;
  }
};

template <class Real, int Dir, class Scheme>
struct FaceFluxes_3d {
  Array4<Real> w, flux;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    store_flux(flux, FaceFlux<Real, Dir, Scheme>::flux(w, gamma, k, j, i), k, j, i);
  }
};

template <class Real, bool Blend, bool Reciprocal>
struct Update_3d {
  Array4<Real> u_base, u_in, u_out, fx, fy, fz;
  Array1<Real> dx, dy, dz;  // the cells' widths, or with Reciprocal their reciprocals
  Real a, b, dt;
  KOKKOS_FORCEINLINE_FUNCTION void update(int v, long k, long j, long i, Real dx_i, Real dy_j, Real dz_k) const {
    u_out(v, k, j, i) = stage_value<Blend, Reciprocal>(
        Blend ? u_base(v, k, j, i) : Real(0), u_in(v, k, j, i), fx(v, k, j, i), fx(v, k, j, i + 1), dx_i,
        fy(v, k, j, i), fy(v, k, j + 1, i), dy_j, fz(v, k, j, i), fz(v, k + 1, j, i), dz_k, a, b, dt);
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    const Real dx_i = dx(i), dy_j = dy(j), dz_k = dz(k);
    update(IDN, k, j, i, dx_i, dy_j, dz_k);
    update(IM1, k, j, i, dx_i, dy_j, dz_k);
    update(IM2, k, j, i, dx_i, dy_j, dz_k);
    update(IM3, k, j, i, dx_i, dy_j, dz_k);
    update(IEN, k, j, i, dx_i, dy_j, dz_k);
  }
  // The passive scalars' rows NCONS .. NCONS + count - 1 (ScalarUpdate).
  KOKKOS_FORCEINLINE_FUNCTION void scalars(int count, const long k, const long j, const long i) const {
    const Real dx_i = dx(i), dy_j = dy(j), dz_k = dz(k);
    for (int s = 0; s < count; ++s) update(NCONS + s, k, j, i, dx_i, dy_j, dz_k);
  }
};

template <class Real, bool Reciprocal>
struct DtBound_3d {
  Array4<Real> u;
  Array1<Real> dx, dy, dz;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION Real operator()(const long k, const long j, const long i) const {
    const CellPrimitives<Real> w = cell_primitives<Reciprocal>(u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i),
                                                               u(IM3, k, j, i), u(IEN, k, j, i), gamma);
    return cell_dt_bound(w, dx(i), dy(j), dz(k), gamma);
  }
  // The same from a cell's conserved values c given (a GPU thread's
  // registers: the same bits as reading them back).
  KOKKOS_FORCEINLINE_FUNCTION Real of(const Real (&c)[NCONS], long k, long j, long i) const {
    const CellPrimitives<Real> w = cell_primitives<Reciprocal>(c[IDN], c[IM1], c[IM2], c[IM3], c[IEN], gamma);
    return cell_dt_bound(w, dx(i), dy(j), dz(k), gamma);
  }
};

}  // namespace cfd::euler
