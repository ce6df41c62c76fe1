// The split kernels: one pass over a 2D block per part of a stage
// (primitives, x and y fluxes, update, new dt), and the passive scalars' and
// gravity's kernels, each one source for 2D and 3D blocks. The fused stages
// (stage_2d.hpp, stage_3d.hpp) apply the same cell and face functions tile
// by tile; split_kernels_3d.hpp adds the z direction.
#pragma once

#include "core/parallel.hpp"
#include "physics/euler/cell_physics.hpp"
#include "physics/euler/face_flux.hpp"

namespace cfd::euler {

// ---- The split kernels: one pass over the block per part of a stage ----

// W of the split kernels: rho, vx, vy, vz and p (slots IDN..IPR, as every
// gas solver's), and the internal energy e after them (IEI, for the
// tutorial's faces) unless only the first five are asked for, as a
// snapshot's output takes them (WithEnergy false: w has five components).
template <class Real, bool Reciprocal, bool WithEnergy = true>
struct ComputePrimitives {
  Array3<Real> u, w;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long j, const long i) const {
    const CellPrimitives<Real> c = cell_primitives<Reciprocal>(u, j, i, gamma);
    w(IDN, j, i) = c.rho, w(IVX, j, i) = c.vx, w(IVY, j, i) = c.vy, w(IVZ, j, i) = c.vz;
    if constexpr (WithEnergy) w(IEI, j, i) = c.e;
    w(IPR, j, i) = c.p;
  }
};
template <class Real, bool Reciprocal>
using OutputPrimitives = ComputePrimitives<Real, Reciprocal, false>;

template <class Real, int Dir, class Scheme>
struct FaceFluxes {
  Array3<Real> w, flux;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long j, const long i) const {
    store_flux(flux, FaceFlux<Real, Dir, Scheme>::flux(w, gamma, j, i), j, i);
  }
};

// u_out = stage_value(...) of every component; Blend a template argument,
// not a test of a in the loop, so that the loop has no branch to vectorize.
template <class Real, bool Blend, bool Reciprocal>
struct Update {
  Array3<Real> u_base, u_in, u_out, fx, fy;
  Array1<Real> dx, dy;  // the cells' widths, or with Reciprocal their reciprocals
  Real a, b, dt;
  // dx and dy read once a cell (a store to u_out, which the compiler cannot
  // tell apart from them, would have them read again for each component).
  KOKKOS_FORCEINLINE_FUNCTION void update(int v, long j, long i, Real dx_i, Real dy_j) const {
    u_out(v, j, i) =
        stage_value<Blend, Reciprocal>(Blend ? u_base(v, j, i) : Real(0), u_in(v, j, i), fx(v, j, i), fx(v, j, i + 1),
                                       dx_i, fy(v, j, i), fy(v, j + 1, i), dy_j, a, b, dt);
  }
  // Spelled out, not a loop over v: GCC then vectorizes along i.
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long j, const long i) const {
    const Real dx_i = dx(i), dy_j = dy(j);
    update(IDN, j, i, dx_i, dy_j);
    update(IM1, j, i, dx_i, dy_j);
    update(IM2, j, i, dx_i, dy_j);
    update(IM3, j, i, dx_i, dy_j);
    update(IEN, j, i, dx_i, dy_j);
  }
  // The passive scalars' rows NCONS .. NCONS + count - 1 (ScalarUpdate).
  KOKKOS_FORCEINLINE_FUNCTION void scalars(int count, const long j, const long i) const {
    const Real dx_i = dx(i), dy_j = dy(j);
    for (int k = 0; k < count; ++k) update(NCONS + k, j, i, dx_i, dy_j);
  }
};

// ---- Passive scalars (euler.scalars): concentrations s_k advected with
// the gas, their conserved densities rho*s_k in U's rows NCONS + k and the
// concentrations in W's rows First + k (First: the slot after the pressure,
// NPRIM in the 2D kernels' W, NPRIM_3D in 3D). Only the split kernels
// carry them. One source for 2D blocks (j, i; A an Array3) and 3D blocks
// (k, j, i; an Array4), as GravitySource.

// s_k = (rho s_k) / rho by a division in every scheme: a scalar density
// equal to the density is then a concentration of exactly 1 (a reciprocal
// may miss it by an ulp).
template <class A, int First>
struct ScalarPrimitives {
  A u, w;
  int scalars;
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(I... at) const {
    const auto rho = u(IDN, at...);
    for (int k = 0; k < scalars; ++k) w(First + k, at...) = u(NCONS + k, at...) / rho;
  }
};

// The flux of rho*s_k through a face: the face's mass flux times the
// concentration reconstructed (as every primitive is) on its upwind side,
// so that s_k = 1 everywhere is the density itself, bit for bit, and a
// scalar's total moves only through the box's open sides.
template <class Real, int Dir, class Scheme, class A, int First>
struct ScalarFluxes {
  A w, flux;
  int scalars;
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(I... at) const {
    using F = FaceFlux<Real, Dir, Scheme>;
    const Real mass = flux(IDN, at...);
    for (int k = 0; k < scalars; ++k) {
      const Real s = mass >= Real(0) ? F::below(w, First + k, at...) : F::face_value(w, First + k, Real(-1), at...);
      flux(NCONS + k, at...) = mass * s;
    }
  }
};

// u_out = stage_value(...) of each scalar's rho*s_k, as the gas's update
// (Update in 2D, Update_3d in 3D: its scalars()) does for the gas.
template <class GasUpdate>
struct ScalarUpdate {
  GasUpdate gas;
  int scalars;
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(I... at) const {
    gas.scalars(scalars, at...);
  }
};

// A constant acceleration g = (gx, gy, gz) as a source of a stage, added
// to the update's result u_out = a*u_base + b*(u_in + dt*L(u_in)) as its
// b*dt*S(u_in): momentum rho*g, with rho the stage's input density (W);
// energy from the mass fluxes through the cell's faces, the mean of the two
// of each direction times g along it, as Athena++ does (const_accel.cpp),
// so that the gas's energy plus its potential rho*phi (phi = -g.x) sums to
// the same total over a closed box: the flux that carries mass up carries
// the energy it loses with it. One source for 2D blocks (j, i; A an Array3,
// fz and gz unused) and 3D blocks (k, j, i; Array4), whose z part adds to
// the x and y ones' sum, as the update's does.
template <class Real, class A>
struct GravitySource {
  A w, u_out, fx, fy, fz;
  Real gx, gy, gz, b_dt;
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(I... at) const {
    constexpr bool three = sizeof...(I) == 3;
    const Real rho = w(IDN, at...);
    const Real mass_x = Real(0.5) * (fx(IDN, at...) + along<0>(fx, IDN, 1, at...));
    const Real mass_y = Real(0.5) * (fy(IDN, at...) + along<1>(fy, IDN, 1, at...));
    Real work = mass_x * gx + mass_y * gy;
    if constexpr (three) {
      const Real mass_z = Real(0.5) * (fz(IDN, at...) + along<2>(fz, IDN, 1, at...));
      work = work + mass_z * gz;
      u_out(IM3, at...) += b_dt * (rho * gz);
    }
    u_out(IM1, at...) += b_dt * (rho * gx);
    u_out(IM2, at...) += b_dt * (rho * gy);
    u_out(IEN, at...) += b_dt * work;
  }
};

// The smallest bound on dt over the cells, from the conserved state.
template <class Real, bool Reciprocal>
struct DtBound {
  Array3<Real> u;
  Array1<Real> dx, dy;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION Real operator()(const long j, const long i) const {
    return cell_dt_bound(cell_primitives<Reciprocal>(u, j, i, gamma), dx(i), dy(j), gamma);
  }
};

}  // namespace cfd::euler
