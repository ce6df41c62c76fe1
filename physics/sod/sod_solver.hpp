// The sod solver: a 1D tube of conserved (rho, rho*u, E) in an AoS or SoA
// layout, stepped by the original's KEEP scheme on nodes or by a
// shock-capturing finite-volume scheme on cells. Real and Layout are template
// parameters; AoS is View<Real*[3], LayoutRight>, SoA View<Real*[3], LayoutLeft>.
#pragma once

#include "core/grid.hpp"
#include "core/parallel.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/riemann_solvers.hpp"
#include "physics/sod/keep_flux.hpp"
#include "physics/sod/sod_params.hpp"

#include <cmath>
#include <vector>

namespace cfd::sod {

enum Component { IDN = 0, IMX = 1, IEN = 2 };

template <class Real, class Layout>
using State = Kokkos::View<Real* [3], Layout, MemSpace>;
template <class Real, class Layout>
using NodeFields = Kokkos::View<Real* [5], Layout, MemSpace>;  // rho,u,p,T,mu or e1,e2,e3,ev2,ev3

// --- KEEP kernels ------------------------------------------------------------

template <class Real, class Layout>
struct KeepPrimitives {
  State<Real, Layout> q;
  NodeFields<Real, Layout> w;
  KeepGas<Real> gas;
  KOKKOS_INLINE_FUNCTION void operator()(const int j) const {
    const NodeState<Real> s = node_state(q(j, IDN), q(j, IMX), q(j, IEN), gas);
    w(j, 0) = s.rho, w(j, 1) = s.u, w(j, 2) = s.p, w(j, 3) = s.T, w(j, 4) = s.mu;
  }
};

template <class Real, class Layout>
struct KeepFluxes {
  NodeFields<Real, Layout> w, f;
  KeepGas<Real> gas;
  Real dx;
  KOKKOS_INLINE_FUNCTION void operator()(const int j) const {  // interface j+1/2
    const NodeState<Real> a{w(j, 0), w(j, 1), w(j, 2), w(j, 3), w(j, 4)};
    const NodeState<Real> b{w(j + 1, 0), w(j + 1, 1), w(j + 1, 2), w(j + 1, 3), w(j + 1, 4)};
    const KeepFlux<Real> e = keep_flux(a, b, dx, gas);
    f(j, 0) = e.e1, f(j, 1) = e.e2, f(j, 2) = e.e3, f(j, 3) = e.ev2, f(j, 4) = e.ev3;
  }
};

template <class Real, class Layout>
struct KeepUpdate {
  State<Real, Layout> q;
  NodeFields<Real, Layout> f;
  Real ratio;  // dt/dx
  KOKKOS_INLINE_FUNCTION void operator()(const int j) const {
    q(j, IDN) = keep_update(q(j, IDN), ratio, f(j, 0), f(j - 1, 0), Real(0), Real(0));
    q(j, IMX) = keep_update(q(j, IMX), ratio, f(j, 1), f(j - 1, 1), f(j, 3), f(j - 1, 3));
    q(j, IEN) = keep_update(q(j, IEN), ratio, f(j, 2), f(j - 1, 2), f(j, 4), f(j - 1, 4));
  }
};

// One kernel per step. Each thread walks a strip of nodes, carrying the last
// node state and interface flux along, so that every node's primitives and
// every flux are computed once per strip (twice at strip ends) from the old
// state: the same operations as the split path, so the same bits. GPUs take
// one node per thread, CPUs long strips.
template <class Real, class Layout>
struct KeepFusedStep {
  State<Real, Layout> q_old, q_new;
  KeepGas<Real> gas;
  Real dx, ratio;
  int last, strip;  // last updated node, nodes per strip
  KOKKOS_INLINE_FUNCTION NodeState<Real> node(int j) const {
    return node_state(q_old(j, IDN), q_old(j, IMX), q_old(j, IEN), gas);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const int j0 = 1 + s * strip, j1 = j0 + strip - 1 < last ? j0 + strip - 1 : last;
    NodeState<Real> b = node(j0);
    KeepFlux<Real> l = keep_flux(node(j0 - 1), b, dx, gas);
    for (int j = j0; j <= j1; ++j) {
      const NodeState<Real> c = node(j + 1);
      const KeepFlux<Real> r = keep_flux(b, c, dx, gas);
      q_new(j, IDN) = keep_update(q_old(j, IDN), ratio, r.e1, l.e1, Real(0), Real(0));
      q_new(j, IMX) = keep_update(q_old(j, IMX), ratio, r.e2, l.e2, r.ev2, l.ev2);
      q_new(j, IEN) = keep_update(q_old(j, IEN), ratio, r.e3, l.e3, r.ev3, l.ev3);
      b = c;
      l = r;
    }
  }
};

// End nodes of the KEEP scheme for outflow (copy the neighbour) or a wall
// (neighbour's density and internal energy, no velocity). Frozen ends are
// never written.
template <class Real, class Layout>
struct KeepEnds {
  State<Real, Layout> q;
  int last;
  bool wall;
  KOKKOS_INLINE_FUNCTION void operator()(const int side) const {
    const int end = side == 0 ? 0 : last, inner = side == 0 ? 1 : last - 1;
    q(end, IDN) = q(inner, IDN);
    if (wall) {
      q(end, IMX) = Real(0);
      q(end, IEN) = q(inner, IEN) - Real(0.5) * q(inner, IMX) * q(inner, IMX) / q(inner, IDN);
    } else {
      q(end, IMX) = q(inner, IMX);
      q(end, IEN) = q(inner, IEN);
    }
  }
};

// --- finite-volume kernels (hllc scheme), two ghost cells a side ---------------

template <class Real, class Layout>
KOKKOS_INLINE_FUNCTION gas::Primitive<Real> cell_primitive(const State<Real, Layout>& q, int i, Real gamma) {
  return gas::to_primitive(gas::Conserved<Real>{q(i, IDN), q(i, IMX), Real(0), Real(0), q(i, IEN)}, gamma);
}

template <class Real, class Layout>
struct GhostCells {
  State<Real, Layout> q;
  int n;  // interior cells
  Boundary boundary;
  gas::Conserved<Real> left, right;                            // frozen states
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {  // k = 0,1 left; 2,3 right
    const bool lo = k < 2;
    const int layer = lo ? k : k - 2;                   // 0: next to the interior
    const int ghost = lo ? 1 - layer : n + 2 + layer;   // storage index
    const int mirror = lo ? 2 + layer : n + 1 - layer;  // interior cell it reflects
    const int edge = lo ? 2 : n + 1;
    if (boundary == Boundary::frozen) {
      const gas::Conserved<Real>& s = lo ? left : right;
      q(ghost, IDN) = s.rho, q(ghost, IMX) = s.mx, q(ghost, IEN) = s.energy;
    } else if (boundary == Boundary::outflow) {
      q(ghost, IDN) = q(edge, IDN), q(ghost, IMX) = q(edge, IMX), q(ghost, IEN) = q(edge, IEN);
    } else {
      q(ghost, IDN) = q(mirror, IDN), q(ghost, IMX) = -q(mirror, IMX), q(ghost, IEN) = q(mirror, IEN);
    }
  }
};

template <class Real, class Layout>
struct FaceFluxes {
  State<Real, Layout> q;
  NodeFields<Real, Layout> f;  // components 0..2 used, face i between cells i-1 and i
  Real gamma;
  bool reconstruct;
  gas::Limiter limiter;
  KOKKOS_INLINE_FUNCTION gas::Primitive<Real> face_state(int i, Real side) const {
    gas::Primitive<Real> w = cell_primitive(q, i, gamma);
    if (!reconstruct) return w;
    const gas::Primitive<Real> m = cell_primitive(q, i - 1, gamma), p = cell_primitive(q, i + 1, gamma);
    w.rho += side * Real(0.5) * gas::limited_slope(limiter, w.rho - m.rho, p.rho - w.rho);
    w.vx += side * Real(0.5) * gas::limited_slope(limiter, w.vx - m.vx, p.vx - w.vx);
    w.p += side * Real(0.5) * gas::limited_slope(limiter, w.p - m.p, p.p - w.p);
    return w;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const gas::Conserved<Real> F = gas::hllc_flux(face_state(i - 1, Real(1)), face_state(i, Real(-1)), gamma);
    f(i, 0) = F.rho, f(i, 1) = F.mx, f(i, 2) = F.energy;
  }
};

// q_out = a*q_base + b*(q_in - dt/dx*(F_i+1 - F_i)): forward Euler (a=0, b=1)
// and the two stages of SSP-RK2 (Shu & Osher 1988).
template <class Real, class Layout>
struct RkUpdate {
  State<Real, Layout> q_base, q_in, q_out;
  NodeFields<Real, Layout> f;
  Real a, b, ratio;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    for (int c = 0; c < 3; ++c) {
      const Real stage = q_in(i, c) - ratio * (f(i + 1, c) - f(i, c));
      q_out(i, c) = a == Real(0) ? stage : a * q_base(i, c) + b * stage;
    }
  }
};

// Largest signal speed |u| + c over the interior cells.
template <class Real, class Layout>
struct MaxSignalSpeed {
  State<Real, Layout> q;
  Real gamma;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, Real& speed) const {
    const gas::Primitive<Real> w = cell_primitive(q, i, gamma);
    const Real s = kmath::fabs(w.vx) + gas::sound_speed(w.rho, w.p, gamma);
    if (s > speed) speed = s;
  }
};

// Profiles on the host in the units asked for, plus totals.
struct Profiles {
  std::vector<double> x, rho, u, p, T;
};

template <class Real, class Layout>
class Solver {
 public:
  explicit Solver(const Params& p)
      : p_(p),
        keep_(p.scheme == Scheme::keep),
        ghost_(keep_ ? 0 : 2),
        grid_(GridBlock::whole(1, keep_ ? Centering::node : Centering::cell, {p.nx, 1, 1}, ghost_, {0, 0, 0},
                               {p.units == Units::sod ? 1.0 : p.length(), 0, 0})),
        q_("sod::q", p.nx + 2 * ghost_),
        q2_("sod::q_stage", keep_ && p.kernels == Kernels::split ? 0 : p.nx + 2 * ghost_),
        w_("sod::primitives", keep_ && p.kernels == Kernels::split ? p.nx : 0),
        f_("sod::fluxes", keep_ ? (p.kernels == Kernels::split ? p.nx - 1 : 0) : p.nx + 3) {
    gas_ = KeepGas<Real>{Real(p.gamma), Real(p.R),   Real(p.gamma * p.R / (p.gamma - 1)),
                         Real(p.Pr),    Real(p.mu0), Real(p.T0),
                         Real(p.S),     p.viscosity};
    dx_ = Real(p.dx());
    fixed_dt_sod_ = keep_ ? p.cfl / (p.nx - 1) : 0.0;
  }

  void set_initial_state() {
    auto host = Kokkos::create_mirror_view(q_);
    const double pref = p_.p_ref(), a = p_.a();
    for (long k = 0; k < p_.nx; ++k) {
      // Node k (keep) or cell centre k (hllc), as a fraction of the tube.
      const double x = keep_ ? static_cast<double>(k) / (p_.nx - 1) : (k + 0.5) / p_.nx;
      const gas::Conserved<double> s = dimensional(x < p_.diaphragm ? p_.left : p_.right, pref, a);
      host(k + ghost_, IDN) = Real(s.rho);
      host(k + ghost_, IMX) = Real(s.mx);
      host(k + ghost_, IEN) = Real(s.energy);
    }
    Kokkos::deep_copy(q_, host);
    if (q2_.extent(0) > 0) Kokkos::deep_copy(q2_, q_);
    const gas::Conserved<double> l = dimensional(p_.left, pref, a), r = dimensional(p_.right, pref, a);
    frozen_left_ = {Real(l.rho), Real(l.mx), Real(0), Real(0), Real(l.energy)};
    frozen_right_ = {Real(r.rho), Real(r.mx), Real(0), Real(0), Real(r.energy)};
    step_ = 0;
    full_steps_ = 0;
    partial_time_ = 0;
    if (!keep_) fill_ghosts(q_);
  }

  // The step size the scheme allows now, in Sod units (Lx/a).
  double stable_dt() const {
    if (keep_) return fixed_dt_sod_;
    Real speed = 0;
    Kokkos::parallel_reduce("sod::max_signal_speed", Kokkos::RangePolicy<ExecSpace>(2, p_.nx + 2),
                            MaxSignalSpeed<Real, Layout>{q_, Real(p_.gamma)}, Kokkos::Max<Real>(speed));
    return p_.cfl * p_.dx() / static_cast<double>(speed) * p_.a() / p_.length();
  }

  // One step of `dt` Sod units.
  void advance(double dt) {
    const bool full = keep_ && dt == fixed_dt_sod_;
    // The original's dt/dx = CFL/a for full KEEP steps; otherwise from dt.
    const Real ratio = full ? Real(p_.cfl) / Real(p_.a()) : Real(dt * p_.length() / p_.a() / p_.dx());
    if (keep_)
      keep_step(ratio);
    else
      fv_step(ratio);
    ++step_;
    if (full)
      ++full_steps_;
    else
      partial_time_ += dt;
  }

  double time() const { return full_steps_ * fixed_dt_sod_ + partial_time_; }
  long step() const { return step_; }
  const GridBlock& grid() const { return grid_; }
  long updates_per_step() const { return keep_ ? p_.nx - 2 : p_.nx; }

  // Sum of rho and E over the interior nodes (keep: 2..nx-1) or cells, physical units.
  std::pair<double, double> interior_totals() const {
    const int b = keep_ ? 1 : 2, e = keep_ ? p_.nx - 1 : p_.nx + 2;
    double mass = 0, energy = 0;
    auto q = q_;
    Kokkos::parallel_reduce(
        "sod::interior_totals", Kokkos::RangePolicy<ExecSpace>(b, e),
        KOKKOS_LAMBDA(const int j, double& m, double& en) {
          m += q(j, IDN);
          en += q(j, IEN);
        },
        mass, energy);
    return {mass, energy};
  }

  Profiles profiles() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q_);
    Profiles out;
    const bool sod = p_.units == Units::sod;
    const double a = p_.a(), pref = p_.p_ref();
    for (long k = 0; k < p_.nx; ++k) {
      const long j = k + ghost_;
      const double rho = host(j, IDN), u = host(j, IMX) / rho;
      const double pr = (p_.gamma - 1) * (host(j, IEN) - 0.5 * rho * u * u);
      const double T = pr / (rho * p_.R);
      out.x.push_back(grid_.coordinate(0, k));
      out.rho.push_back(sod ? rho / p_.rho_ref : rho);
      out.u.push_back(sod ? u / a : u);
      out.p.push_back(sod ? pr / pref : pr);
      out.T.push_back(sod ? T / p_.T_ref : T);
    }
    return out;
  }

  // Conserved state on the host, (nx) x 3, for bit-for-bit comparisons.
  std::vector<Real> conserved() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q_);
    std::vector<Real> out;
    for (long k = 0; k < p_.nx; ++k)
      for (int c = 0; c < 3; ++c) out.push_back(host(k + ghost_, c));
    return out;
  }

  void release() {
    q_ = State<Real, Layout>();
    q2_ = State<Real, Layout>();
    w_ = NodeFields<Real, Layout>();
    f_ = NodeFields<Real, Layout>();
  }

 private:
  // A state in Sod units as dimensional conserved variables.
  gas::Conserved<double> dimensional(const gas::RiemannState& s, double pref, double a) const {
    const double rho = s.rho * p_.rho_ref, u = s.u * a, pr = s.p * pref;
    return {rho, rho * u, 0, 0, pr / (p_.gamma - 1) + 0.5 * rho * u * u};
  }

  void keep_step(Real ratio) {
    const int n = static_cast<int>(p_.nx);
    if (p_.kernels == Kernels::split) {
      Kokkos::parallel_for("sod::keep_primitives", Kokkos::RangePolicy<ExecSpace>(0, n),
                           KeepPrimitives<Real, Layout>{q_, w_, gas_});
      Kokkos::parallel_for("sod::keep_fluxes", Kokkos::RangePolicy<ExecSpace>(0, n - 1),
                           KeepFluxes<Real, Layout>{w_, f_, gas_, dx_});
      Kokkos::parallel_for("sod::keep_update", Kokkos::RangePolicy<ExecSpace>(1, n - 1),
                           KeepUpdate<Real, Layout>{q_, f_, ratio});
    } else {
      const int strip = std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace> ? 512 : 1;
      const int strips = (n - 2 + strip - 1) / strip;
      Kokkos::parallel_for("sod::keep_step_fused", Kokkos::RangePolicy<ExecSpace>(0, strips),
                           KeepFusedStep<Real, Layout>{q_, q2_, gas_, dx_, ratio, n - 2, strip});
      std::swap(q_, q2_);
    }
    if (p_.boundary != Boundary::frozen)
      Kokkos::parallel_for("sod::keep_ends", Kokkos::RangePolicy<ExecSpace>(0, 2),
                           KeepEnds<Real, Layout>{q_, n - 1, p_.boundary == Boundary::reflecting});
  }

  void fill_ghosts(const State<Real, Layout>& q) {
    Kokkos::parallel_for(
        "sod::ghost_cells", Kokkos::RangePolicy<ExecSpace>(0, 4),
        GhostCells<Real, Layout>{q, static_cast<int>(p_.nx), p_.boundary, frozen_left_, frozen_right_});
  }

  void fluxes(const State<Real, Layout>& q) {
    Kokkos::parallel_for("sod::hllc_fluxes", Kokkos::RangePolicy<ExecSpace>(2, p_.nx + 3),
                         FaceFluxes<Real, Layout>{q, f_, Real(p_.gamma), p_.reconstruct, p_.limiter});
  }

  void fv_step(Real ratio) {
    const Kokkos::RangePolicy<ExecSpace> cells(2, p_.nx + 2);
    fluxes(q_);
    if (!p_.rk2) {
      Kokkos::parallel_for("sod::rk_update", cells, RkUpdate<Real, Layout>{q_, q_, q2_, f_, Real(0), Real(1), ratio});
      std::swap(q_, q2_);
      fill_ghosts(q_);
      return;
    }
    Kokkos::parallel_for("sod::rk_update", cells, RkUpdate<Real, Layout>{q_, q_, q2_, f_, Real(0), Real(1), ratio});
    fill_ghosts(q2_);
    fluxes(q2_);
    Kokkos::parallel_for("sod::rk_update", cells, RkUpdate<Real, Layout>{q_, q2_, q_, f_, Real(0.5), Real(0.5), ratio});
    fill_ghosts(q_);
  }

  Params p_;
  bool keep_;
  int ghost_;
  GridBlock grid_;
  State<Real, Layout> q_, q2_;
  NodeFields<Real, Layout> w_, f_;
  KeepGas<Real> gas_{};
  Real dx_{};
  gas::Conserved<Real> frozen_left_{}, frozen_right_{};
  double fixed_dt_sod_ = 0;
  long step_ = 0, full_steps_ = 0;
  double partial_time_ = 0;
};

}  // namespace cfd::sod
