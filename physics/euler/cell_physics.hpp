// The euler method cell by cell, written once for 1D, 2D and 3D blocks:
// the named slots of U and W, the primitives of a cell, a cell's bound on
// dt (without the CFL number), and the stage update of a cell from its
// faces' fluxes. The split kernels (split_kernels.hpp, split_kernels_3d.hpp)
// and the fused stages (stage_2d.hpp, stage_3d.hpp) all call these, so that
// every variant gives the same bits.
#pragma once

#include "core/parallel.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/slots.hpp"
#include "physics/gas/time_step.hpp"

#include <type_traits>
#include <utility>

namespace cfd::euler {

// U's and W's slots (physics/gas/slots.hpp); the 2D split kernels' W keeps
// the specific internal energy e after the pressure, which the tutorial's
// faces reconstruct.
using namespace gas::slots;
enum { IEI = NPRIM_BASE, NPRIM = NPRIM_BASE + 1 };
constexpr int ghost = 2;

template <class Real>
using Array3 = Kokkos::View<Real***, Kokkos::LayoutRight, MemSpace>;  // (var, j, i)
template <class Real>
using Array1 = Kokkos::View<Real*, MemSpace>;

// The primitives of one cell from its conserved state. Every kernel that
// needs primitives calls this, so that all of them get the same bits.
// Reciprocal: multiplied by 1/rho, as the modern face schemes do (see
// gas::to_conserved), also for their dt bound; the tutorial's scheme
// divides, as its Fortran does.
template <class Real>
struct CellPrimitives {
  Real rho, vx, vy, vz, e, p;
};
template <bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION CellPrimitives<Real> cell_primitives(Real rho, Real mx, Real my, Real mz, Real energy,
                                                                 Real gamma) {
  if constexpr (Reciprocal) {
    const Real inv = Real(1) / rho;
    const Real vx = mx * inv, vy = my * inv, vz = mz * inv;
    const Real e = (energy - gas::kinetic_energy(rho, vx, vy, vz)) * inv;
    return {rho, vx, vy, vz, e, (gamma - Real(1)) * rho * e};
  }
  const Real vx = mx / rho, vy = my / rho, vz = mz / rho;
  const Real e = (energy - gas::kinetic_energy(rho, vx, vy, vz)) / rho;
  return {rho, vx, vy, vz, e, (gamma - Real(1)) * rho * e};
}
template <bool Reciprocal = false, class Real, class U>
KOKKOS_FORCEINLINE_FUNCTION CellPrimitives<Real> cell_primitives(const U& u, long j, long i, Real gamma) {
  return cell_primitives<Reciprocal>(u(IDN, j, i), u(IM1, j, i), u(IM2, j, i), u(IM3, j, i), u(IEN, j, i), gamma);
}

// A face's flux into the five components of an array at `at` (2D (var, j,
// i), 3D (var, k, j, i), a tile's scratch): every flux kernel and fused stage.
template <class Real, class A, class... Index>
KOKKOS_FORCEINLINE_FUNCTION void store_flux(const A& flux, const gas::Conserved<Real>& f, Index... at) {
  flux(IDN, at...) = f.rho;
  flux(IM1, at...) = f.mx;
  flux(IM2, at...) = f.my;
  flux(IM3, at...) = f.mz;
  flux(IEN, at...) = f.energy;
}

// A cell's bound on dt without the CFL number (physics/gas/time_step.hpp,
// the contract): min(dx/(|vx|+c), dy/(|vy|+c)); -1 where the cell is not
// physical. The modern schemes take w from cell_primitives<true> (one
// reciprocal where the tutorial's scheme, like its Fortran, divides four
// times).
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real cell_dt_bound(const CellPrimitives<Real>& w, Real dx, Real dy, Real gamma) {
  return gas::convective_dt_bound<2>(w.rho, w.vx, w.vy, w.vz, w.p, gamma, dx, dy, dy);
}

// One direction's part of the stage update, (F_lo - F_hi)/d. Reciprocal
// (the modern schemes): d is given as its reciprocal 1/d, which the solver
// computes once for the grid (the same bits as computing it here: a
// division is correctly rounded on every backend), and multiplies.
template <bool Reciprocal, class Real>
KOKKOS_FORCEINLINE_FUNCTION Real flux_difference(Real lo, Real hi, Real d_or_inverse) {
  if constexpr (Reciprocal)
    return (lo - hi) * d_or_inverse;
  else
    return (lo - hi) / d_or_inverse;
}

// The stage update of one conserved component from its two directions'
// parts: u_in + dt*(x_part + y_part), blended with the base state as
// a*u_base + b*stage in the later stages of the SSP Runge-Kutta methods.
template <bool Blend, class Real>
KOKKOS_FORCEINLINE_FUNCTION Real stage_value_from(Real u_base, Real u_in, Real x_part, Real y_part, Real a, Real b,
                                                  Real dt) {
  const Real stage = u_in + dt * (x_part + y_part);
  if constexpr (Blend)
    return a * u_base + b * stage;
  else
    return stage;
}

// The same from the fluxes through the cell's four faces; dx and dy as
// flux_difference takes them (their reciprocals when Reciprocal).
template <bool Blend, bool Reciprocal = false, class Real>
KOKKOS_FORCEINLINE_FUNCTION Real stage_value(Real u_base, Real u_in, Real fx_lo, Real fx_hi, Real dx, Real fy_lo,
                                             Real fy_hi, Real dy, Real a, Real b, Real dt) {
  return stage_value_from<Blend>(u_base, u_in, flux_difference<Reciprocal>(fx_lo, fx_hi, dx),
                                 flux_difference<Reciprocal>(fy_lo, fy_hi, dy), a, b, dt);
}

}  // namespace cfd::euler
