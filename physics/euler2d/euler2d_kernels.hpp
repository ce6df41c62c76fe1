// The euler2d method cell by cell (primitives of a cell, the flux through a
// face, the stage update, a cell's bound on dt) and the split kernels that
// apply each of them to the whole block in turn: primitives, x and y fluxes,
// update, new dt. fused_stage.hpp applies the same functions tile by tile.
#pragma once

#include "core/parallel.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/limiters.hpp"
#include "physics/gas/riemann_solvers.hpp"

#include <type_traits>
#include <utility>

namespace cfd::euler2d {

// Conserved components, then the primitives (W keeps e beside p).
enum { IDN = 0, IM1 = 1, IM2 = 2, IM3 = 3, IEN = 4, NCONS = 5 };
enum { IVX = 1, IVY = 2, IVZ = 3, IEI = 4, IPR = 5, NPRIM = 6 };
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

// A cell's bound on dt: min(dx/(|vx|+c), dy/(|vy|+c)); -1 where the cell is
// not physical (density or pressure not positive, or NaN). The modern
// schemes take w from cell_primitives<true> (one reciprocal where the
// tutorial's scheme, like its Fortran, divides four times).
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real cell_dt_bound(const CellPrimitives<Real>& w, Real dx, Real dy, Real gamma) {
  if (!(w.rho > Real(0)) || !(w.p > Real(0))) return Real(-1);
  const Real cs = gas::sound_speed(w.rho, w.p, gamma);
  const Real tx = dx / (kmath::fabs(w.vx) + cs), ty = dy / (kmath::fabs(w.vy) + cs);
  return tx < ty ? tx : ty;
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

// The face scheme as types, so that each flux kernel is compiled with only
// its own reconstruction, limiter and Riemann solver: no run-time branches in
// the hot loop, fewer registers on GPUs, vector code on CPUs.
template <bool Plm, gas::Limiter L, gas::RiemannSolver S, bool Tutorial>
struct FaceScheme {
  static constexpr bool plm = Plm;  // false: donor cell (face value = cell value)
  static constexpr gas::Limiter limiter = L;
  static constexpr gas::RiemannSolver riemann = S;
  static constexpr bool tutorial = Tutorial;  // the OpenACC tutorial's HLLE with e faces
  // Reciprocals for shared divisors (gas::to_conserved): all but the
  // tutorial's scheme, which keeps the Fortran's divisions and its bits.
  static constexpr bool reciprocal = !Tutorial;
};

// a(v, idx...) with the Dir-th index from the last (0: i, 1: j, 2: k) moved
// by shift: a 2D (j, i) or 3D (k, j, i) array read along a direction, so
// that one function serves both.
template <int Dir, class A, size_t... n, class... I>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) along_at(const A& a, int v, int shift, std::index_sequence<n...>, I... idx) {
  static_assert(sizeof...(I) > size_t(Dir), "a direction needs that many indices");
  return a(v, (n + 1 + size_t(Dir) == sizeof...(I) ? idx + shift : idx)...);
}
template <int Dir, class A, class... I>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) along(const A& a, int v, int shift, I... idx) {
  return along_at<Dir>(a, v, shift, std::index_sequence_for<I...>{}, idx...);
}

// Whether primitives W also hold their cells' limited slopes (W::stores_slopes).
template <class W, class = void>
struct stores_slopes : std::false_type {};
template <class W>
struct stores_slopes<W, std::void_t<decltype(W::stores_slopes)>> : std::bool_constant<W::stores_slopes> {};

// The flux through a face normal to Dir of a 2D block, face (j, i), or of a
// 3D block, face (k, j, i): Dir 0 is x (face i between cells i-1 and i), 1
// is y, 2 is z. One source for every dimension: the indices come as a pack,
// the last one i, and a face along Dir shifts the Dir-th from the last. W
// holds rho, vx, vy, vz in slots IDN..IVZ and the pressure in slot Pressure
// (IPR in the 2D kernels' W, which keeps e in IEI for the tutorial's faces;
// IPV in the 3D W, a slot shorter). The normal velocity goes to the Riemann
// solver's first slot: x as it is, y rotated (vy, vx, vz), z cyclically
// (vz, vx, vy); the flux comes back in x, y, z components. A direction in
// which nothing varies then contributes an exact zero, so that a 2D problem
// extruded along z, or a tube along x, y or z, gives the same bits.
template <class Real, int Dir, class Scheme, int Pressure = IPR>
struct FaceFlux {
  static constexpr int pressure = Pressure;
  // Primitive v of the cell `shift` cells along Dir from the cell at idx.
  template <class W, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static Real at(const W& w, int v, int shift, I... idx) {
    return along<Dir>(w, v, shift, idx...);
  }
  // The limited slope of primitive v across the cell at idx along Dir.
  template <class W, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static Real cell_slope(const W& w, int v, I... idx) {
    const Real c = at(w, v, 0, idx...);
    return gas::limited_slope<Scheme::limiter>(c - at(w, v, -1, idx...), at(w, v, 1, idx...) - c);
  }
  // A cell's value c moved to its face on side -1 (lower) or +1 (upper).
  KOKKOS_FORCEINLINE_FUNCTION static Real at_face(Real c, Real slope, Real side) {
    return c + side * Real(0.5) * slope;
  }
  // Face value of primitive v of the cell at idx on side -1 (its lower face)
  // or +1 (its upper face). A W that holds its cells' slopes along Dir
  // (stores_slopes, a fused stage's tile) gives them; otherwise each face
  // computes the slopes of its two cells, and each slope is computed twice.
  template <class W, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static Real face_value(const W& w, int v, Real side, I... idx) {
    const Real c = at(w, v, 0, idx...);
    if constexpr (!Scheme::plm) return c;
    if constexpr (stores_slopes<W>::value)
      return at_face(c, w.slope(v, idx...), side);
    else
      return at_face(c, cell_slope(w, v, idx...), side);
  }
  // The primitives in the Riemann solver's order: the normal velocity first.
  static constexpr int vn = Dir == 0 ? IVX : Dir == 1 ? IVY : IVZ;
  static constexpr int vt = Dir == 0 ? IVY : IVX;
  static constexpr int vu = Dir == 2 ? IVY : IVZ;
  template <class W, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Primitive<Real> face_state(const W& w, Real side, I... idx) {
    return {face_value(w, IDN, side, idx...), face_value(w, vn, side, idx...), face_value(w, vt, side, idx...),
            face_value(w, vu, side, idx...), face_value(w, Pressure, side, idx...)};
  }
  // The same from face values f[v] already at the face (the 3D fused
  // stage's columns along z), indexed as W (f[Pressure] the pressure).
  template <class Values>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Primitive<Real> face_state(const Values& f) {
    return {f[IDN], f[vn], f[vt], f[vu], f[Pressure]};
  }
  // The flux through the face at idx, between the cell below it along Dir
  // and the cell at idx.
  template <class W, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Conserved<Real> flux(const W& w, Real gamma, I... idx) {
    const gas::Primitive<Real> l = face_state_below(w, idx...), r = face_state(w, Real(-1), idx...);
    if constexpr (Scheme::tutorial) {
      static_assert(sizeof...(I) == 2 && Pressure == IPR, "the tutorial's faces are 2D, with e in W");
      return rotated(gas::hlle_flux_tutorial(l, below(w, IEI, idx...), r, face_value(w, IEI, Real(-1), idx...), gamma));
    } else {
      return solve(l, r, gamma);
    }
  }
  // The flux from the states l below and r above the face, in x, y, z
  // components.
  KOKKOS_FORCEINLINE_FUNCTION static gas::Conserved<Real> solve(const gas::Primitive<Real>& l,
                                                                const gas::Primitive<Real>& r, Real gamma) {
    return rotated(gas::riemann_flux<Scheme::riemann, Scheme::reciprocal>(l, r, gamma));
  }
  // Face value of primitive v of the cell below the face at idx, on its
  // upper side (the face's lower state).
  template <class W, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static Real below(const W& w, int v, I... idx) {
    return below_at(w, v, std::index_sequence_for<I...>{}, idx...);
  }

 private:
  // The upper face state, and face value of v, of the cell below the face.
  template <class W, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Primitive<Real> face_state_below(const W& w, I... idx) {
    return face_state_below_at(w, std::index_sequence_for<I...>{}, idx...);
  }
  template <class W, size_t... n, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Primitive<Real> face_state_below_at(const W& w, std::index_sequence<n...>,
                                                                              I... idx) {
    return face_state(w, Real(1), (n + 1 + size_t(Dir) == sizeof...(I) ? idx - 1 : idx)...);
  }
  template <class W, size_t... n, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static Real below_at(const W& w, int v, std::index_sequence<n...>, I... idx) {
    return face_value(w, v, Real(1), (n + 1 + size_t(Dir) == sizeof...(I) ? idx - 1 : idx)...);
  }
  // x, y, z components of a flux solved with the normal component first.
  KOKKOS_FORCEINLINE_FUNCTION static gas::Conserved<Real> rotated(gas::Conserved<Real> f) {
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

// Calls launch(FaceScheme<...>{}) with the scheme the parameters ask for.
template <class Params, class Launch>
void with_face_scheme(const Params& p, Launch&& launch) {
  using gas::Limiter;
  using gas::RiemannSolver;
  auto with_solver = [&](auto plm, auto limiter) {
    constexpr bool P = decltype(plm)::value;
    constexpr Limiter L = decltype(limiter)::value;
    if (p.original_faces) return launch(FaceScheme<P, L, RiemannSolver::hlle, true>{});
    switch (p.riemann) {
      case RiemannSolver::hllc: return launch(FaceScheme<P, L, RiemannSolver::hllc, false>{});
      case RiemannSolver::llf: return launch(FaceScheme<P, L, RiemannSolver::llf, false>{});
      default: return launch(FaceScheme<P, L, RiemannSolver::hlle, false>{});
    }
  };
  using Vl = std::integral_constant<Limiter, Limiter::vanleer>;
  if (!p.plm) return with_solver(std::false_type{}, Vl{});
  switch (p.limiter) {
    case Limiter::minmod: return with_solver(std::true_type{}, std::integral_constant<Limiter, Limiter::minmod>{});
    case Limiter::mc: return with_solver(std::true_type{}, std::integral_constant<Limiter, Limiter::mc>{});
    default: return with_solver(std::true_type{}, Vl{});
  }
}

// ---- The split kernels: one pass over the block per part of a stage ----

template <class Real, bool Reciprocal>
struct ComputePrimitives {
  Array3<Real> u, w;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long j, const long i) const {
    const CellPrimitives<Real> c = cell_primitives<Reciprocal>(u, j, i, gamma);
    w(IDN, j, i) = c.rho, w(IVX, j, i) = c.vx, w(IVY, j, i) = c.vy, w(IVZ, j, i) = c.vz;
    w(IEI, j, i) = c.e;
    w(IPR, j, i) = c.p;
  }
};

// The primitives written out: rho, vx, vy, vz and p in the first five
// components of w.
template <class Real, bool Reciprocal>
struct OutputPrimitives {
  Array3<Real> u, w;
  Real gamma;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long j, const long i) const {
    const CellPrimitives<Real> c = cell_primitives<Reciprocal>(u, j, i, gamma);
    w(IDN, j, i) = c.rho, w(IVX, j, i) = c.vx, w(IVY, j, i) = c.vy, w(IVZ, j, i) = c.vz, w(IEN, j, i) = c.p;
  }
};

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

// ---- Passive scalars (euler2d.scalars): concentrations s_k advected with
// the gas, their conserved densities rho*s_k in U's rows NCONS + k and the
// concentrations in W's rows First + k (First: the slot after the pressure,
// NPRIM in the 2D kernels' W, NPRIM_VOLUME in 3D). Only the split kernels
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
// (Update in 2D, VolumeUpdate in 3D: its scalars()) does for the gas.
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

}  // namespace cfd::euler2d
