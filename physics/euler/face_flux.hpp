// The flux through one face: the face scheme as types (reconstruction,
// limiter, Riemann solver), an array read along a direction, and FaceFlux,
// one template for the faces of 1D, 2D and 3D blocks. with_face_scheme turns
// the case's keys into the scheme's template arguments once per launch.
#pragma once

#include "physics/euler/cell_physics.hpp"
#include "physics/gas/limiters.hpp"
#include "physics/gas/riemann_solvers.hpp"

#include <type_traits>
#include <utility>

namespace cfd::euler {

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
// holds rho, vx, vy, vz and p in slots IDN..IPR, as every gas solver's
// (physics/gas/slots.hpp; the 2D kernels' W keeps e after them, in IEI, for
// the tutorial's faces). The normal velocity goes to the Riemann
// solver's first slot: x as it is, y rotated (vy, vx, vz), z cyclically
// (vz, vx, vy); the flux comes back in x, y, z components. A direction in
// which nothing varies then contributes an exact zero, so that a 2D problem
// extruded along z, or a tube along x, y or z, gives the same bits.
template <class Real, int Dir, class Scheme>
struct FaceFlux {
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
            face_value(w, vu, side, idx...), face_value(w, IPR, side, idx...)};
  }
  // The same from face values f[v] already at the face (the 3D fused
  // stage's columns along z), indexed as W.
  template <class Values>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Primitive<Real> face_state(const Values& f) {
    return {f[IDN], f[vn], f[vt], f[vu], f[IPR]};
  }
  // The flux through the face at idx, between the cell below it along Dir
  // and the cell at idx.
  template <class W, class... I>
  KOKKOS_FORCEINLINE_FUNCTION static gas::Conserved<Real> flux(const W& w, Real gamma, I... idx) {
    const gas::Primitive<Real> l = face_state_below(w, idx...), r = face_state(w, Real(-1), idx...);
    if constexpr (Scheme::tutorial) {
      static_assert(sizeof...(I) == 2, "the tutorial's faces are 2D, with e in W");
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
    return gas::with_riemann_solver(
        p.riemann, [&](auto solver) { return launch(FaceScheme<P, L, decltype(solver)::value, false>{}); });
  };
  using Vl = std::integral_constant<Limiter, Limiter::vanleer>;
  if (!p.plm) return with_solver(std::false_type{}, Vl{});
  switch (p.limiter) {
    case Limiter::minmod: return with_solver(std::true_type{}, std::integral_constant<Limiter, Limiter::minmod>{});
    case Limiter::mc: return with_solver(std::true_type{}, std::integral_constant<Limiter, Limiter::mc>{});
    default: return with_solver(std::true_type{}, Vl{});
  }
}

}  // namespace cfd::euler
