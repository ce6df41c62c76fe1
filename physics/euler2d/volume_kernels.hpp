// The euler2d method on a 3D block (grid.nz > 1): the split kernels of
// euler2d_kernels.hpp with a third direction (the fused stage,
// volume_fused_stage.hpp, computes its faces with these functions too). The
// cell functions are the same ones (cell_primitives, flux_difference, the face schemes and Riemann
// solvers of physics/gas), and a face's state is rotated as the 2D kernels
// rotate it, so that a direction in which nothing varies contributes an
// exact zero: a 2D problem extruded along z gives the 2D results bit for bit
// on every plane, and a tube along x, y or z the same profile bit for bit
// (tests/test_euler3d.cpp).
#pragma once

#include "core/parallel.hpp"
#include "physics/euler2d/euler2d_kernels.hpp"

namespace cfd::euler2d {

template <class Real>
using Array4 = Kokkos::View<Real****, Kokkos::LayoutRight, MemSpace>;  // (var, k, j, i)

// A 3D block's primitives W(var, k, j, i): rho, vx, vy, vz, then p in the
// fifth slot. The 2D kernels keep the internal energy too (IEI), which only
// the tutorial's faces reconstruct; 3D has no tutorial faces, so its W is a
// component shorter (8 bytes a cell in FP64 towards the footprint target).
enum { IPV = 4, NPRIM_VOLUME = 5 };

// A cell's bound on dt in 3D: min(dx/(|vx|+c), dy/(|vy|+c), dz/(|vz|+c)),
// the 2D bound's minimum first (the same bits where z allows more).
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real cell_dt_bound(const CellPrimitives<Real>& w, Real dx, Real dy, Real dz, Real gamma) {
  const Real txy = cell_dt_bound(w, dx, dy, gamma);
  if (!(txy >= Real(0))) return txy;
  const Real tz = dz / (kmath::fabs(w.vz) + gas::sound_speed(w.rho, w.p, gamma));
  return txy < tz ? txy : tz;
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

// The flux through face (k, j, i) normal to Dir (0: x, 1: y, 2: z; face i
// lies between cells i-1 and i) from primitives w(v, k, j, i). The normal
// velocity goes to the Riemann solver's first slot: x as it is, y as the 2D
// kernels rotate it (vy, vx, vz), z cyclically (vz, vx, vy); the flux comes
// back in x, y, z components.
template <class Real, int Dir, class Scheme>
struct VolumeFaceFlux {
  template <class W>
  KOKKOS_FORCEINLINE_FUNCTION static Real at(const W& w, int v, long k, long j, long i, int shift) {
    if constexpr (Dir == 0)
      return w(v, k, j, i + shift);
    else if constexpr (Dir == 1)
      return w(v, k, j + shift, i);
    else
      return w(v, k + shift, j, i);
  }
  // The limited slope along Dir of primitive v of cell (k, j, i).
  template <class W>
  KOKKOS_FORCEINLINE_FUNCTION static Real cell_slope(const W& w, int v, long k, long j, long i) {
    const Real c = at(w, v, k, j, i, 0);
    return gas::limited_slope<Scheme::limiter>(c - at(w, v, k, j, i, -1), at(w, v, k, j, i, 1) - c);
  }
  // A cell's value c moved to its face on side -1 (lower) or +1 (upper).
  KOKKOS_FORCEINLINE_FUNCTION static Real at_face(Real c, Real slope, Real side) {
    return c + side * Real(0.5) * slope;
  }
  // A W that holds its cells' slopes along Dir (stores_slopes, the fused
  // stage's plane) gives them; otherwise each face computes the slopes of
  // its two cells.
  template <class W>
  KOKKOS_FORCEINLINE_FUNCTION static Real face_value(const W& w, int v, long k, long j, long i, Real side) {
    const Real c = at(w, v, k, j, i, 0);
    if constexpr (!Scheme::plm) return c;
    if constexpr (stores_slopes<W>::value)
      return at_face(c, w.slope(v, k, j, i), side);
    else
      return at_face(c, cell_slope(w, v, k, j, i), side);
  }
  // The primitives in the Riemann solver's order: the normal velocity first.
  static constexpr int vn = Dir == 0 ? IVX : Dir == 1 ? IVY : IVZ;
  static constexpr int vt = Dir == 0 ? IVY : IVX;
  static constexpr int vu = Dir == 2 ? IVY : IVZ;
  template <class W>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Primitive<Real> face_state(const W& w, long k, long j, long i, Real side) {
    return {face_value(w, IDN, k, j, i, side), face_value(w, vn, k, j, i, side), face_value(w, vt, k, j, i, side),
            face_value(w, vu, k, j, i, side), face_value(w, IPV, k, j, i, side)};
  }
  // The same from face values f[v] already at the face (the fused stage's
  // columns along z).
  template <class Values>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Primitive<Real> face_state(const Values& f) {
    return {f[IDN], f[vn], f[vt], f[vu], f[IPV]};
  }
  template <class W>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Conserved<Real> flux(const W& w, long k, long j, long i, Real gamma) {
    // The cell below the face.
    const long km = Dir == 2 ? k - 1 : k, jm = Dir == 1 ? j - 1 : j, im = Dir == 0 ? i - 1 : i;
    return solve(face_state(w, km, jm, im, Real(1)), face_state(w, k, j, i, Real(-1)), gamma);
  }
  // The flux from the states l below and r above the face, in x, y, z
  // components.
  KOKKOS_FORCEINLINE_FUNCTION static gas::Conserved<Real> solve(const gas::Primitive<Real>& l,
                                                                const gas::Primitive<Real>& r, Real gamma) {
    gas::Conserved<Real> f = gas::riemann_flux<Scheme::riemann, Scheme::reciprocal>(l, r, gamma);
    if constexpr (Dir == 1) {
      const Real normal = f.mx;
      f.mx = f.my;
      f.my = normal;
    } else if constexpr (Dir == 2) {
      const Real normal = f.mx;
      f.mx = f.my;
      f.my = f.mz;
      f.mz = normal;
    }
    return f;
  }
};

// W = rho, vx, vy, vz, p of U (the split kernels' input, the snapshot's
// fields).
template <class Real, bool Reciprocal>
struct VolumePrimitives {
  Array4<Real> u, w;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    const CellPrimitives<Real> c = cell_primitives<Reciprocal>(u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i),
                                                               u(IM3, k, j, i), u(IEN, k, j, i), gamma);
    w(IDN, k, j, i) = c.rho, w(IVX, k, j, i) = c.vx, w(IVY, k, j, i) = c.vy, w(IVZ, k, j, i) = c.vz;
    w(IPV, k, j, i) = c.p;
  }
};

template <class Real, int Dir, class Scheme>
struct VolumeFaceFluxes {
  Array4<Real> w, flux;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    store_flux(flux, VolumeFaceFlux<Real, Dir, Scheme>::flux(w, k, j, i, gamma), k, j, i);
  }
};

template <class Real, bool Blend, bool Reciprocal>
struct VolumeUpdate {
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
};

template <class Real, bool Reciprocal>
struct VolumeDtBound {
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

}  // namespace cfd::euler2d
