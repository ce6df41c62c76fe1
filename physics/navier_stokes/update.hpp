// One Runge-Kutta stage of a cell: the right-hand side
//   L = -((F_x(i+1) - F_x(i))/h_x + (F_y(j+1) - F_y(j))/h_y) - (F_z(k+1) - F_z(k))/h_z
// from the faces' fluxes (fluxes.hpp; in a step each face's computed once,
// FaceFluxes, before the updates; the budget diagnostics' single terms are
// computed by each cell, the same bits), then the integrator's rule for the stage:
//   ssp:  out = a base + b (in + dt L)                  (SSP-RK3, Shu and Osher 1988)
//   rk4:  stages 1-3: acc (=, +=) w_acc L, out = base + w_out dt L; stage 4:
//         out = base + dt/6 (acc + L)                    (classical RK4)
// (the coefficients from the integrator's table, gas/integrators.hpp)
//   rhs:  out = L                                        (the diagnostics)
// Each cell reads and writes only its own U entries, so out may be in.
#pragma once

#include "physics/euler/face_flux.hpp"
#include "physics/gas/user_sources.hpp"
#include "physics/navier_stokes/fluxes.hpp"
#include "physics/navier_stokes/shock_sensor.hpp"

#include <climits>

namespace cfd::navier_stokes {

enum class StageKind { ssp, rk4, rhs };

// A stage's coefficients from the integrator's table (gas/integrators.hpp).
template <class Real>
struct StageRule {
  StageKind kind = StageKind::ssp;
  Real a = 0, b = 1;                // ssp
  Real dt = 0;                      // ssp: the step; rk4: w_out times the step
  Real w_acc = 1;                   // rk4: acc += w_acc L
  bool first = true, last = false;  // rk4: acc = L at the first stage; the last adds acc
};

// The faces on walls along each direction, in local indices (LONG_MIN when
// the block has none on that side).
struct WallFaces {
  long lo[3] = {LONG_MIN, LONG_MIN, LONG_MIN}, hi[3] = {LONG_MIN, LONG_MIN, LONG_MIN};
  KOKKOS_FORCEINLINE_FUNCTION bool on_wall(int d, long face) const { return face == lo[d] || face == hi[d]; }
};

// Slots of a face array (FaceFluxes): the convective flux's five
// components, then the viscous flux's point value (momentum x, y, z, energy).
constexpr int convective_slot = 0, viscous_slot = NCONS, face_slots = NCONS + 4;

// The fluxes through every face normal to D that the updates read, each
// computed once per face instead of once per reading cell (a cell's update
// reads two faces' convective fluxes and, with Viscous, 2 Half point values
// of the viscous flux per direction): KEEP's convective flux at the faces
// [first, last] (face i between cells i-1 and i; an empty range, first >
// last, for none) into slots 0-4, and with Viscous the viscous point values
// at every face the kernel runs over (the caller's range: the block's faces
// and Half - 1 more on each side) into slots 5-8. The nodes are loaded once
// for both.
//
// Hybrid (navier_stokes.convective_flux: hybrid or upwind): a face whose
// stencil the shock sensor marks (shock_sensor.hpp; theta > threshold, so a
// threshold below 0 marks every face) takes the upwind flux instead of
// KEEP's: MUSCL with the van Leer limiter on W and the HLLC Riemann solver,
// euler's face flux (physics/euler/face_flux.hpp) applied to this W, whose
// slots are euler's. A face holds one flux whichever it is, and both cells
// beside it read that one, so the blend is conservative; the choice is the
// face's alone (the sensor of the cells around it, ghosts included), so it
// does not depend on the ranks. A wall's face keeps KEEP's two-point flux,
// which carries no mass through the wall.
using HybridUpwind = euler::FaceScheme<true, gas::Limiter::vanleer, gas::RiemannSolver::hllc, false>;
template <int Half>
inline constexpr int hybrid_reach = Half > 2 ? Half : 2;  // the cells a face's stencils read on each side

template <class Real, int Dim, int Half, int D, bool Viscous, bool Hybrid = false>
struct FaceFluxes {
  Array4<Real> w, g, faces;
  Real inverse_h[3];
  GasModel<Real> gas;
  WallFaces walls;
  long first, last;
  Array4<Real> theta;  // Hybrid: the shock sensor of the cells (shock_sensor.hpp)
  Real threshold = 0;  // Hybrid: a face goes upwind where theta > threshold
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    using Face = FaceFlux<Real, Dim, Half, D>;
    const long face = D == 0 ? i : D == 1 ? j : k;
    gas::KeepNode<Real, 3> node[2 * Half];
    Face::load(w, k, j, i, node);
    if (face >= first && face <= last) {
      const bool wall = walls.on_wall(D, face);
      bool upwind = false;
      if constexpr (Hybrid) upwind = !wall && shock_at_face<D, hybrid_reach<Half>>(theta, k, j, i, threshold);
      Flux<Real> f;
      if (upwind) {
        const gas::Conserved<Real> c = euler::FaceFlux<Real, D, HybridUpwind>::flux(w, gas.gamma, k, j, i);
        f.mass = c.rho, f.momentum[0] = c.mx, f.momentum[1] = c.my, f.momentum[2] = c.mz, f.energy = c.energy;
      } else {
        f = Face::convective_of(node, gas, wall, all_terms);
      }
      faces(convective_slot, k, j, i) = f.mass;
      for (int m = 0; m < 3; ++m) faces(convective_slot + 1 + m, k, j, i) = f.momentum[m];
      faces(convective_slot + 4, k, j, i) = f.energy;
    }
    if constexpr (Viscous) {
      const Flux<Real> f = Face::viscous_of(node, g, k, j, i, inverse_h, gas);
      for (int m = 0; m < 3; ++m) faces(viscous_slot + m, k, j, i) = f.momentum[m];
      faces(viscous_slot + 3, k, j, i) = f.energy;
    }
  }
};

// ConvectiveStored: the convective fluxes are read from the faces (a step's
// stages) instead of computed by the cell (the diagnostics' single terms). A
// template argument rather than a flag: the stage's kernel would otherwise
// carry the unused path's 2 x 2 Half nodes and pair fluxes in its register
// allocation.
template <class Real, int Dim, int Half, bool ConvectiveStored = false>
struct CellUpdate {
  Array4<Real> w, g, base, in, out, acc;
  // The fluxes through the faces normal to x, y, z (FaceFluxes' slots; face
  // i between cells i-1 and i), computed once per face before the update:
  // the viscous point values always, the convective fluxes with
  // ConvectiveStored.
  Array4<Real> faces_x, faces_y, faces_z;
  Real inverse_h[3];
  GasModel<Real> gas;
  WallFaces walls;
  StageRule<Real> rule;
  int terms = all_terms;

  // The weights of the viscous flux a face gives its cells, from the point
  // values F at faces f-Half+1 .. f+Half-1: Fhat_f = e_0 F_f + sum_k e_k
  // (F_{f-k} + F_{f+k}), e_k = sum_{l>k} c_l (FaceStencil's c), so that
  // (Fhat_{i+1} - Fhat_i)/h is the staggered central derivative of the
  // scheme's order, sum_l c_l (F_{i+l} - F_{i+1-l})/h; conservative, as a
  // difference of face values.
  KOKKOS_FORCEINLINE_FUNCTION static Real deconvolution(int k) {
    Real e = Real(0);
    for (int l = k + 1; l <= Half; ++l) e += Real(gas::FaceStencil<Half>::c(l));
    return e;
  }

  template <int D>
  KOKKOS_FORCEINLINE_FUNCTION void divergence(long k, long j, long i, Real div[NCONS]) const {
    using Face = FaceFlux<Real, Dim, Half, D>;
    (void)sizeof(Face);
    const long cell = D == 0 ? i : D == 1 ? j : k;
    // (k, j, i) moved by s along D.
    const auto at = [&](long s, long& kk, long& jj, long& ii) {
      kk = D == 2 ? k + s : k, jj = D == 1 ? j + s : j, ii = D == 0 ? i + s : i;
    };
    long kk, jj, ii;
    Real lo[NCONS] = {0, 0, 0, 0, 0}, hi[NCONS] = {0, 0, 0, 0, 0};
    const Array4<Real>& faces = D == 0 ? faces_x : D == 1 ? faces_y : faces_z;
    if constexpr (ConvectiveStored) {
      at(1, kk, jj, ii);
      for (int n = 0; n < NCONS; ++n) {
        lo[n] = faces(convective_slot + n, k, j, i);
        hi[n] = faces(convective_slot + n, kk, jj, ii);
      }
    } else if (terms & (convection | pressure)) {
      const Flux<Real> a = Face::convective_at(w, k, j, i, gas, walls.on_wall(D, cell), terms);
      at(1, kk, jj, ii);
      const Flux<Real> b = Face::convective_at(w, kk, jj, ii, gas, walls.on_wall(D, cell + 1), terms);
      lo[0] = a.mass, hi[0] = b.mass;
      for (int m = 0; m < 3; ++m) lo[1 + m] = a.momentum[m], hi[1 + m] = b.momentum[m];
      lo[4] = a.energy, hi[4] = b.energy;
    }
    if ((terms & viscous) && gas.viscosity.law != gas::ViscosityLaw::none) {
      // Point values at faces cell-Half+1 .. cell+Half: slot s holds face cell + s - Half + 1.
      constexpr int N = 2 * Half;
      Flux<Real> v[N];
      for (int s = 0; s < N; ++s) {
        at(s - Half + 1, kk, jj, ii);
        for (int m = 0; m < 3; ++m) v[s].momentum[m] = faces(viscous_slot + m, kk, jj, ii);
        v[s].energy = faces(viscous_slot + 3, kk, jj, ii);
      }
      // Fhat of faces cell (slot Half - 1) and cell + 1 (slot Half); the
      // point value alone where the weights would reach across a wall.
      for (int side = 0; side < 2; ++side) {
        const int c = Half - 1 + side;
        const long face = cell + side;
        const bool whole =
            walls.lo[D] <= face - (Half - 1) && (walls.hi[D] == LONG_MIN || face + (Half - 1) <= walls.hi[D]);
        Real f[NCONS];
        f[0] = Real(0);
        for (int m = 0; m < 3; ++m) f[1 + m] = v[c].momentum[m];
        f[4] = v[c].energy;
        if (Half > 1 && whole) {
          const Real e0 = deconvolution(0);
          for (int m = 0; m < 3; ++m) f[1 + m] = e0 * v[c].momentum[m];
          f[4] = e0 * v[c].energy;
          for (int q = 1; q < Half; ++q) {
            const Real e = deconvolution(q);
            for (int m = 0; m < 3; ++m) f[1 + m] += e * (v[c - q].momentum[m] + v[c + q].momentum[m]);
            f[4] += e * (v[c - q].energy + v[c + q].energy);
          }
        }
        Real* target = side == 0 ? lo : hi;
        for (int n = 1; n < NCONS; ++n) target[n] -= f[n];
      }
    }
    for (int n = 0; n < NCONS; ++n) div[n] = (hi[n] - lo[n]) * inverse_h[D];
  }

  KOKKOS_FORCEINLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    Real L[NCONS], part[NCONS];
    divergence<0>(k, j, i, L);
    divergence<1>(k, j, i, part);
    for (int c = 0; c < NCONS; ++c) L[c] = -(L[c] + part[c]);
    if constexpr (Dim == 3) {
      divergence<2>(k, j, i, part);
      for (int c = 0; c < NCONS; ++c) L[c] -= part[c];
    }
    for (int c = 0; c < NCONS; ++c) {
      switch (rule.kind) {
        case StageKind::ssp:
          out(c, k, j, i) = rule.a * base(c, k, j, i) + rule.b * (in(c, k, j, i) + rule.dt * L[c]);
          break;
        case StageKind::rhs: out(c, k, j, i) = L[c]; break;
        case StageKind::rk4:
          if (rule.last) {
            out(c, k, j, i) = base(c, k, j, i) + rule.dt * (acc(c, k, j, i) + L[c]);
          } else {
            acc(c, k, j, i) = rule.first ? L[c] : acc(c, k, j, i) + rule.w_acc * L[c];
            out(c, k, j, i) = base(c, k, j, i) + rule.dt * L[c];
          }
          break;
      }
    }
  }
};

// The user's source terms S (sources.*) of a stage, added to what the
// update wrote by the same rule as L: S is evaluated from W (the stage's
// input, which the update leaves as it found it) at the stage's time.
template <class Real>
struct StageSources {
  gas::DeviceSources<Real> s;
  Array4<Real> w, out, acc;
  StageRule<Real> rule;
  double t;
  KOKKOS_INLINE_FUNCTION void operator()(const long k, const long j, const long i) const {
    double in[gas::source_inputs];
    gas::source_detail::place(in, s, t, k, j, i);
    for (int v = 0; v < 5; ++v) in[4 + v] = double(w(v, k, j, i));
    for (int v = 9; v < gas::source_inputs; ++v) in[v] = 0.0;
    for (int n = 0; n < s.count; ++n) {
      const int c = s.rows(n);
      const Real S = Real(evaluate(s.programs(n), in));
      switch (rule.kind) {
        case StageKind::ssp: out(c, k, j, i) += rule.b * (rule.dt * S); break;
        case StageKind::rhs: out(c, k, j, i) += S; break;
        case StageKind::rk4:
          if (!rule.last) acc(c, k, j, i) += rule.first ? S : rule.w_acc * S;
          out(c, k, j, i) += rule.dt * S;
          break;
      }
    }
  }
};

}  // namespace cfd::navier_stokes
