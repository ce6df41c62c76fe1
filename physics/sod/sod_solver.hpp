// The sod solver: a 1D tube of conserved (rho, rho*u, E) in an AoS or SoA
// layout, stepped by the original's KEEP scheme on nodes or by a
// shock-capturing finite-volume scheme on cells. Real and Layout are template
// parameters; AoS is View<Real*[3], LayoutRight>, SoA View<Real*[3], LayoutLeft>.
#pragma once

#include "core/checkpoint.hpp"
#include "core/decomposition.hpp"
#include "core/grid.hpp"
#include "core/halo.hpp"
#include "core/parallel.hpp"
#include "core/snapshot.hpp"
#include "physics/gas/ideal_gas.hpp"
#include "physics/gas/riemann_solvers.hpp"
#include "physics/sod/keep_flux.hpp"
#include "physics/sod/sod_params.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
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
  int first, last, strip;  // first and last updated node, nodes per strip
  KOKKOS_INLINE_FUNCTION NodeState<Real> node(int j) const {
    return node_state(q_old(j, IDN), q_old(j, IMX), q_old(j, IEN), gas);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const int j0 = first + s * strip, j1 = j0 + strip - 1 < last ? j0 + strip - 1 : last;
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

// The end rule of the KEEP scheme for outflow (copy the neighbour) or a wall
// (neighbour's density and internal energy, no velocity) on any (node,
// component) view: the state or a tile of it in scratch.
template <class Real, class Q>
KOKKOS_INLINE_FUNCTION void keep_end_rule(const Q& q, int end, int inner, bool wall) {
  q(end, IDN) = q(inner, IDN);
  if (wall) {
    q(end, IMX) = Real(0);
    q(end, IEN) = q(inner, IEN) - Real(0.5) * q(inner, IMX) * q(inner, IMX) / q(inner, IDN);
  } else {
    q(end, IMX) = q(inner, IMX);
    q(end, IEN) = q(inner, IEN);
  }
}

// End nodes of the KEEP scheme, on the ranks that hold them. Frozen ends are
// never written.
template <class Real, class Layout>
struct KeepEnd {
  State<Real, Layout> q;
  int end, inner;  // local indices of the end node and its neighbour
  bool wall;
  KOKKOS_INLINE_FUNCTION void operator()(const int) const { keep_end_rule<Real>(q, end, inner, wall); }
};

// Several KEEP steps per launch (sod.fused_steps: k). A team loads a tile of
// nodes with a k-node margin into scratch (GPU shared memory, CPU cache),
// takes up to k steps there, the nodes it updates shrinking by one a step
// on each side (the stencil reaches one node), applies the end-node rule of
// KeepEnd after each step where the tile holds a tube end that follows its
// neighbour, and writes its own nodes back: one launch and one halo exchange
// for k steps. Each node's update is KeepFusedStep's, so the same bits.
// NodePerThread: a GPU's way (a thread a node, each node state and flux
// computed once into scratch); otherwise a CPU's (one thread walks the tile).
// Tests run the GPU's way on the host too.
template <class Real, class Layout, bool NodePerThread = !host_backend>
struct KeepTiledSteps {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch =
      Kokkos::View<Real* [3], Kokkos::LayoutLeft, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using NodeScratch =
      Kokkos::View<Real* [5], Kokkos::LayoutLeft, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  State<Real, Layout> q_old, q_new;
  KeepGas<Real> gas;
  Real dx, ratio;
  int steps;
  int tile;                      // nodes a team writes (the last team one more, see tiles)
  int write_begin, write_end;    // the block's own nodes
  int update_begin, update_end;  // nodes a step may update: the tube's inner nodes, halo included
  int extent;                    // nodes of the allocation
  int end_low, end_high;         // local index of a tube end that follows its neighbour, or -1
  bool wall;

  // CPU: 2048 nodes, one thread, in its L2 (256 where tests run a CPU's
  // way on a GPU, in its shared memory). GPU: a step is a chain of
  // dependent divisions and square roots whose latency, not the arithmetic
  // rate, bounds a short tube, so the tube is spread over about as many
  // teams as a GPU has multiprocessors (108 on an A100, 132 on an H100 or
  // H200): the largest tile of 256, 128, 64 or 32 nodes that still gives
  // 128 tiles and whose scratch fits in scratch_max bytes, else 32 (the
  // original's 4096 nodes: 128 tiles of 32; a long tube in FP64 with 32
  // steps: tiles of 128, since 256 would need 41 KB).
  static int tile_for(int nodes, int steps, size_t scratch_max) {
    if (!NodePerThread) return host_backend ? 2048 : 256;
    int t = 256;
    while (t > 32 && (tiles(nodes, t) < 128 || scratch_bytes(t, steps) > scratch_max)) t /= 2;
    return t;
  }
  // Tiles over n nodes. The last tile takes one node more rather than leave
  // one node alone: an end node that follows its neighbour needs that
  // neighbour's state of the same step, which a tile of the end node alone
  // has only while its margin reaches (not in the last step of a launch).
  static int tiles(int n, int tile) {
    const int count = (n + tile - 1) / tile;
    return count > 1 && n % tile == 1 ? count - 1 : count;
  }
  // Nodes a team holds: its tile, the remainder node, the margins.
  KOKKOS_INLINE_FUNCTION static int span(int tile, int steps) { return tile + 1 + 2 * steps; }
  // A GPU team of the GPU's way: a thread per node held, in whole warps.
  // Teams on a CPU, and the CPU's way anywhere, have one thread.
  static int team_threads(int tile, int steps) { return NodePerThread ? (span(tile, steps) + 31) / 32 * 32 : 1; }
  // Two copies of the state (the step's input and output); on a GPU also the
  // node states and interface fluxes of a step, each computed once.
  static size_t scratch_bytes(int tile, int steps) {
    const int n = span(tile, steps);
    return 2 * Scratch::shmem_size(n) + (NodePerThread ? 2 * NodeScratch::shmem_size(n) : 0);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int w0 = write_begin + team.league_rank() * tile;
    const int w1 = team.league_rank() == team.league_size() - 1 || w0 + tile > write_end ? write_end : w0 + tile;
    const int l0 = w0 - steps > 0 ? w0 - steps : 0, l1 = w1 + steps < extent ? w1 + steps : extent;
    const int rank = team.team_rank(), threads = team.team_size(), n = span(tile, steps);
    Scratch a(team.team_scratch(0), n), b(team.team_scratch(0), n);
    // A thread a node: the node states and interface fluxes of a step.
    NodeScratch w(team.team_scratch(0), NodePerThread ? n : 0), f(team.team_scratch(0), NodePerThread ? n : 0);
    for (int j = l0 + rank; j < l1; j += threads)
      for (int c = 0; c < 3; ++c) a(j - l0, c) = b(j - l0, c) = q_old(j, c);
    team.team_barrier();
    for (int s = 1; s <= steps; ++s) {
      const Scratch& from = s % 2 ? a : b;
      const Scratch& to = s % 2 ? b : a;
      const int reach = steps - s;  // the margin still exact after this step
      const int c0 = w0 - reach > update_begin ? w0 - reach : update_begin;
      const int c1 = w1 + reach < update_end ? w1 + reach : update_end;
      if constexpr (!NodePerThread) {
        // One thread along the tile, carrying the node state and the flux
        // to the next node as KeepFusedStep's strips do (each flux once).
        if (c0 < c1) {
          NodeState<Real> centre = node(from, c0 - l0);
          KeepFlux<Real> l = keep_flux(node(from, c0 - 1 - l0), centre, dx, gas);
          for (int k = c0 - l0; k < c1 - l0; ++k) {
            const NodeState<Real> right = node(from, k + 1);
            const KeepFlux<Real> r = keep_flux(centre, right, dx, gas);
            update(from, to, k, l, r);
            follow_ends(to, k + l0, l0, l1);
            centre = right;
            l = r;
          }
        }
      } else {
        // A thread a node: the node states of the nodes the step reads, then
        // the fluxes between them, each once (computing both of a node's
        // fluxes in its own thread instead, one barrier fewer, was 1.4x
        // slower on an H200), then the update.
        for (int j = c0 - 1 + rank; j <= c1; j += threads) {
          const int k = j - l0;
          const NodeState<Real> e = node(from, k);
          w(k, 0) = e.rho, w(k, 1) = e.u, w(k, 2) = e.p, w(k, 3) = e.T, w(k, 4) = e.mu;
        }
        team.team_barrier();
        for (int j = c0 - 1 + rank; j < c1; j += threads) {  // interface j+1/2
          const int k = j - l0;
          const KeepFlux<Real> e = keep_flux(state(w, k), state(w, k + 1), dx, gas);
          f(k, 0) = e.e1, f(k, 1) = e.e2, f(k, 2) = e.e3, f(k, 3) = e.ev2, f(k, 4) = e.ev3;
        }
        team.team_barrier();
        for (int j = c0 + rank; j < c1; j += threads) {
          const int k = j - l0;
          update(from, to, k, flux(f, k - 1), flux(f, k));
          follow_ends(to, j, l0, l1);
        }
      }
      team.team_barrier();
    }
    const Scratch& result = steps % 2 ? b : a;
    for (int j = w0 + rank; j < w1; j += threads)
      for (int c = 0; c < 3; ++c) q_new(j, c) = result(j - l0, c);
  }

  KOKKOS_INLINE_FUNCTION NodeState<Real> node(const Scratch& q, int k) const {
    return node_state(q(k, IDN), q(k, IMX), q(k, IEN), gas);
  }
  KOKKOS_INLINE_FUNCTION static NodeState<Real> state(const NodeScratch& w, int k) {
    return {w(k, 0), w(k, 1), w(k, 2), w(k, 3), w(k, 4)};
  }
  KOKKOS_INLINE_FUNCTION static KeepFlux<Real> flux(const NodeScratch& f, int k) {
    return {f(k, 0), f(k, 1), f(k, 2), f(k, 3), f(k, 4)};
  }
  KOKKOS_INLINE_FUNCTION void update(const Scratch& from, const Scratch& to, int k, const KeepFlux<Real>& l,
                                     const KeepFlux<Real>& r) const {
    to(k, IDN) = keep_update(from(k, IDN), ratio, r.e1, l.e1, Real(0), Real(0));
    to(k, IMX) = keep_update(from(k, IMX), ratio, r.e2, l.e2, r.ev2, l.ev2);
    to(k, IEN) = keep_update(from(k, IEN), ratio, r.e3, l.e3, r.ev3, l.ev3);
  }
  // Node j (block index) has just been updated in `to`: where it is the
  // neighbour of a tube end that follows it, the end takes its new state at
  // once. The rule reads only that neighbour, which no one else writes, and
  // nothing reads the end before the step's last barrier.
  KOKKOS_INLINE_FUNCTION void follow_ends(const Scratch& to, int j, int l0, int l1) const {
    if (j == end_low + 1 && end_low >= l0) keep_end_rule<Real>(to, end_low - l0, j - l0, wall);
    if (j == end_high - 1 && end_high >= 0 && end_high < l1) keep_end_rule<Real>(to, end_high - l0, j - l0, wall);
  }
};

// --- finite-volume kernels (hllc scheme), two ghost cells a side ---------------

template <class Real, class Layout>
KOKKOS_INLINE_FUNCTION gas::Primitive<Real> cell_primitive(const State<Real, Layout>& q, int i, Real gamma) {
  return gas::to_primitive(gas::Conserved<Real>{q(i, IDN), q(i, IMX), Real(0), Real(0), q(i, IEN)}, gamma);
}

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

// The global tube: nx nodes (keep) or cells (hllc) with their ghost layers:
// one node for the KEEP stencil (a node per step fused into one launch),
// two cells for PLM.
inline GridBlock make_grid(const Params& p) {
  const bool keep = p.scheme == Scheme::keep;
  return GridBlock::whole(1, keep ? Centering::node : Centering::cell, {p.nx, 1, 1},
                          keep ? std::max(1, p.fused_steps) : 2, {0, 0, 0},
                          {p.units == Units::sod ? 1.0 : p.length(), 0, 0});
}

inline std::array<bool, 3> periodic(const Params&) { return {false, false, false}; }

template <class Real, class Layout>
class Solver {
 public:
  explicit Solver(const Params& p) : Solver(p, decompose(make_grid(p), periodic(p))) {}
  Solver(const Params& p, const Decomposition& dec)
      : p_(p),
        keep_(p.scheme == Scheme::keep),
        dec_(dec),
        grid_(dec.block),
        q_("sod::q", grid_.extent(0)),
        q2_("sod::q_stage", keep_ && p.kernels == Kernels::split && p.fused_steps == 1 ? 0 : grid_.extent(0)),
        w_("sod::primitives", keep_ && p.kernels == Kernels::split ? grid_.extent(0) : 0),
        f_("sod::fluxes", keep_ ? (p.kernels == Kernels::split ? grid_.extent(0) - 1 : 0) : grid_.end(0) + 1),
        halo_(dec, 3, faces()) {
    gas_ = gas::gas_model<Real>(p.gamma, p.R, p.Pr, p.viscosity);
    dx_ = Real(p.dx());
    fixed_dt_sod_ = keep_ ? p.cfl / (p.nx - 1) : 0.0;
    // Local range of the nodes or cells this block updates: KEEP leaves the
    // two end nodes of the tube to the boundary condition.
    const long first = grid_.offset[0] - grid_.begin(0);  // global index of local 0
    update_begin_ = keep_ ? std::max(grid_.begin(0), 1 - first) : grid_.begin(0);
    update_end_ = keep_ ? std::min(grid_.end(0), p.nx - 1 - first) : grid_.end(0);
  }

  void set_initial_state() {
    auto host = Kokkos::create_mirror_view(q_);
    Kokkos::deep_copy(host, Real(0));
    const double pref = p_.p_ref(), a = p_.a();
    long bad = std::numeric_limits<long>::max();  // the first node (cell) whose state is not physical
    gas::RiemannState bad_state{};
    for (long j = grid_.begin(0); j < grid_.end(0); ++j) {
      const long k = grid_.global_index(0, j);
      // Node k (keep) or cell centre k (hllc), as a fraction of the tube.
      const double x = keep_ ? static_cast<double>(k) / (p_.nx - 1) : (k + 0.5) / p_.nx;
      const gas::RiemannState w = p_.initial ? p_.initial(x) : x < p_.diaphragm ? p_.left : p_.right;
      const gas::Conserved<double> s = dimensional(w, pref, a);
      host(j, IDN) = Real(s.rho);
      host(j, IMX) = Real(s.mx);
      host(j, IEN) = Real(s.energy);
      // Checked in the working precision too: fp32 may round a state of
      // double to zero or infinity.
      const bool finite = std::isfinite(w.rho + w.u + w.p) &&
                          std::isfinite(double(host(j, IDN)) + double(host(j, IMX)) + double(host(j, IEN)));
      if ((!(w.rho > 0) || !(w.p > 0) || !(host(j, IDN) > Real(0)) || !finite) && k < bad) {
        bad = k;
        // As the working precision holds it: a density fp32 rounds to 0 is 0,
        // a state whose momentum or energy overflows has no velocity.
        bad_state = w;
        // (A NaN stays NaN: min(0, NaN) would say 0.)
        if (!(host(j, IDN) > Real(0)) && !std::isnan(w.rho)) bad_state.rho = std::min(0.0, w.rho);
        if (!finite) bad_state.u = NAN;
      }
    }
    refuse_bad_initial_state(bad, bad_state);
    Kokkos::deep_copy(q_, host);
    halo_.fill(Ghosts{q_});
    if (q2_.extent(0) > 0) Kokkos::deep_copy(q2_, q_);
    step_ = 0;
    full_steps_ = 0;
    partial_time_ = 0;
    time_ = 0;
  }

  // A state from the formulas that is not physical at some node ends every
  // rank with the node, its position and values (a ConfigError: the case is
  // wrong). The tube's states are checked with the keys.
  void refuse_bad_initial_state(long bad, const gas::RiemannState& w) const {
    const long first = dec_.comm.min(bad);
    if (first == std::numeric_limits<long>::max()) return;
    double v[3] = {w.rho, w.u, w.p};
    dec_.comm.from_owner(first == bad, v, 3);
    const double x = keep_ ? static_cast<double>(first) / (p_.nx - 1) : (first + 0.5) / p_.nx;
    const std::string what = !std::isfinite(v[0]) || !(v[0] > 0)   ? "density " + format_real(v[0])
                             : !std::isfinite(v[2]) || !(v[2] > 0) ? "pressure " + format_real(v[2])
                                                                   : "velocity " + format_real(v[1]);
    throw ConfigError(std::string("sod: error: the initial state from ") + p_.problem->source + " is not physical: " +
                      (keep_ ? "node " : "cell ") + std::to_string(first + 1) + " at x = " + format_real(x) + " has " +
                      what + "; density and pressure must be positive and finite in the working precision (" +
                      (sizeof(Real) == 4 ? "fp32" : "fp64") + ")");
  }

  // The step size the scheme allows on this block, in Sod units (Lx/a);
  // negative when the state is not physical. dt falls as the speed rises,
  // so the driver's minimum over ranks is the dt of the fastest signal.
  double allowed_dt() const {
    if (keep_) return fixed_dt_sod_;
    Real speed = 0;
    Kokkos::parallel_reduce("sod::max_signal_speed", Kokkos::RangePolicy<ExecSpace>(grid_.begin(0), grid_.end(0)),
                            MaxSignalSpeed<Real, Layout>{q_, Real(p_.gamma)}, Kokkos::Max<Real>(speed));
    if (!(speed > Real(0)) || !std::isfinite(static_cast<double>(speed))) return -1;
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
    time_ = full_steps_ * fixed_dt_sod_ + partial_time_;
  }
  // Steps a launch takes at most (sod.fused_steps; 1 for the hllc scheme).
  int fused_steps() const { return keep_ ? p_.fused_steps : 1; }
  // n full steps, fused_steps at a time (KEEP; otherwise one by one).
  void advance_steps(long n) {
    for (long done = 0; done < n;) {
      const int k = static_cast<int>(std::min<long>(fused_steps(), n - done));
      if (k > 1) {
        keep_tiled_steps(k);
        step_ += k;
        full_steps_ += k;
        time_ = full_steps_ * fixed_dt_sod_ + partial_time_;
      } else {
        advance(allowed_dt());
      }
      done += k;
    }
  }
  // Fused steps the GPU's way (a thread a node) or the CPU's (a thread a
  // tile), whatever the backend: tests run both on the host.
  void set_node_per_thread_tiles(bool on) { node_per_thread_tiles_ = on; }
  // The step just taken was shortened to end at `time`: the clock reads it exactly.
  void land_on(double time) { time_ = time; }

  double time() const { return time_; }
  long step() const { return step_; }
  const GridBlock& grid() const { return grid_; }
  const HaloExchange<Real>& halo() const { return halo_; }
  // Nodes or cells this block updates per step.
  long updates_per_step() const { return std::max(0L, update_end_ - update_begin_); }

  // Sum of rho and E over the interior nodes (keep: 2..nx-1) or cells of all
  // ranks, physical units.
  std::pair<double, double> interior_totals() const {
    double totals[2] = {0, 0};
    auto q = q_;
    Kokkos::parallel_reduce(
        "sod::interior_totals", Kokkos::RangePolicy<ExecSpace>(update_begin_, update_end_),
        KOKKOS_LAMBDA(const int j, double& m, double& en) {
          m += q(j, IDN);
          en += q(j, IEN);
        },
        totals[0], totals[1]);
    dec_.comm.sum(totals, 2);
    return {totals[0], totals[1]};
  }

  // The first node or cell of the tube (1-based) whose density or pressure
  // is not positive, with both values in the output's units; "" if none.
  std::string fault() const {
    auto q = q_;
    const long first = grid_.offset[0] - grid_.begin(0);
    const Real gm1 = Real(p_.gamma - 1);
    long bad = Kokkos::reduction_identity<long>::min();
    Kokkos::parallel_reduce(
        "sod::find_non_physical", Kokkos::RangePolicy<ExecSpace>(grid_.begin(0), grid_.end(0)),
        KOKKOS_LAMBDA(const int j, long& k) {
          const Real rho = q(j, IDN), p = gm1 * (q(j, IEN) - Real(0.5) * q(j, IMX) * q(j, IMX) / rho);
          if (!(rho > Real(0)) || !(p > Real(0))) k = first + j < k ? first + j : k;
        },
        Kokkos::Min<long>(bad));
    bad = dec_.comm.min(bad);
    if (bad == Kokkos::reduction_identity<long>::min()) return "";
    // The rank that holds the node reads its values.
    double values[2] = {0, 0};
    const long local = bad - first;
    const bool owner = local >= grid_.begin(0) && local < grid_.end(0);
    if (owner) {
      // Element by element: with the SoA layout the node's slice across the
      // variables is strided, and Kokkos copies no strided device view to the host.
      Real node[3];
      for (int v = 0; v < 3; ++v) Kokkos::deep_copy(node[v], Kokkos::subview(q_, local, v));
      const double rho = node[IDN], p = (p_.gamma - 1) * (node[IEN] - 0.5 * node[IMX] * node[IMX] / rho);
      const bool sod = p_.units == Units::sod;
      values[0] = sod ? rho / p_.rho_ref : rho;
      values[1] = sod ? p / p_.p_ref() : p;
    }
    dec_.comm.from_owner(owner, values, 2);
    return "non-physical state at step " + std::to_string(step_) + ", t = " + format_real(time()) + ": " +
           (keep_ ? "node " : "cell ") + std::to_string(bad + 1) + " has density " + format_real(values[0]) +
           " and pressure " + format_real(values[1]);
  }

  // Profiles of this block on the host, in the units asked for.
  Profiles profiles() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q_);
    Profiles out;
    const bool sod = p_.units == Units::sod;
    const double a = p_.a(), pref = p_.p_ref();
    for (long j = grid_.begin(0); j < grid_.end(0); ++j) {
      const double rho = host(j, IDN), u = host(j, IMX) / rho;
      const double pr = (p_.gamma - 1) * (host(j, IEN) - 0.5 * rho * u * u);
      const double T = pr / (rho * p_.R);
      out.x.push_back(grid_.coordinate(0, grid_.global_index(0, j)));
      out.rho.push_back(sod ? rho / p_.rho_ref : rho);
      out.u.push_back(sod ? u / a : u);
      out.p.push_back(sod ? pr / pref : pr);
      out.T.push_back(sod ? T / p_.T_ref : T);
    }
    return out;
  }

  std::vector<HostField<double>> fields() const {
    Profiles f = profiles();
    const bool sod = p_.units == Units::sod;
    return {{"rho", std::move(f.rho), sod ? "rho_ref" : "kg/m^3", "density"},
            {"u", std::move(f.u), sod ? "a = sqrt(R*T_ref)" : "m/s", "velocity"},
            {"p", std::move(f.p), sod ? "rho_ref*R*T_ref" : "Pa", "pressure"},
            {"T", std::move(f.T), sod ? "T_ref" : "K", "temperature"}};
  }

  // Conserved state of this block on the host, (n) x 3, for bit-for-bit comparisons.
  std::vector<Real> conserved() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q_);
    std::vector<Real> out;
    for (long j = grid_.begin(0); j < grid_.end(0); ++j)
      for (int c = 0; c < 3; ++c) out.push_back(host(j, c));
    return out;
  }

  // The conserved state of this block (dimensional): what a checkpoint holds.
  std::vector<HostField<Real>> state() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q_);
    std::vector<HostField<Real>> out{{"rho", {}, "kg/m^3", "density"},
                                     {"mom", {}, "kg/(m^2 s)", "momentum density rho*u"},
                                     {"energy", {}, "J/m^3", "total energy density"}};
    for (int c = 0; c < 3; ++c)
      for (long j = grid_.begin(0); j < grid_.end(0); ++j) out[c].values.push_back(host(j, c));
    return out;
  }
  // KEEP counts full steps (the original's time n*dt) and the time of
  // shortened ones apart; both continue exactly.
  Attributes clock() const {
    return {{"step", static_cast<double>(step_)},
            {"full_steps", static_cast<double>(full_steps_)},
            {"partial_time", partial_time_},
            {"time", time()}};
  }
  void restore(const std::vector<HostField<Real>>& state, const Attributes& clock) {
    auto host = Kokkos::create_mirror_view(q_);
    Kokkos::deep_copy(host, Real(0));
    for (int c = 0; c < 3; ++c) {
      size_t k = 0;
      for (long j = grid_.begin(0); j < grid_.end(0); ++j) host(j, c) = state.at(c).values.at(k++);
    }
    Kokkos::deep_copy(q_, host);
    halo_.fill(Ghosts{q_});
    if (q2_.extent(0) > 0) Kokkos::deep_copy(q2_, q_);
    step_ = static_cast<long>(clock_value(clock, "step"));
    full_steps_ = static_cast<long>(clock_value(clock, "full_steps"));
    partial_time_ = clock_value(clock, "partial_time");
    time_ = clock_value(clock, "time");
  }

  void release() {
    q_ = State<Real, Layout>();
    q2_ = State<Real, Layout>();
    w_ = NodeFields<Real, Layout>();
    f_ = NodeFields<Real, Layout>();
    halo_.release();
  }

 private:
  using Ghosts = LineComponents<State<Real, Layout>>;

  // The ends of the tube: ghost cells of the hllc scheme (frozen states,
  // outflow or a wall); the KEEP scheme holds them on its end nodes instead.
  FaceBoundaries<Real> faces() const {
    FaceBoundaries<Real> f;
    if (keep_) return f;
    f.kind[0] = {p_.boundary, p_.boundary};
    f.normal_component[0] = IMX;
    const double pref = p_.p_ref(), a = p_.a();
    const gas::Conserved<double> ends[2] = {dimensional(p_.left, pref, a), dimensional(p_.right, pref, a)};
    for (int side = 0; side < 2; ++side) {
      f.fixed[0][side][IDN] = Real(ends[side].rho);
      f.fixed[0][side][IMX] = Real(ends[side].mx);
      f.fixed[0][side][IEN] = Real(ends[side].energy);
    }
    return f;
  }

  // A state in Sod units as dimensional conserved variables.
  gas::Conserved<double> dimensional(const gas::RiemannState& s, double pref, double a) const {
    const double rho = s.rho * p_.rho_ref, u = s.u * a, pr = s.p * pref;
    return {rho, rho * u, 0, 0, pr / (p_.gamma - 1) + 0.5 * rho * u * u};
  }

  void keep_step(Real ratio) {
    halo_.fill(Ghosts{q_});
    const int b = static_cast<int>(update_begin_), e = static_cast<int>(update_end_);
    if (p_.kernels == Kernels::split) {
      // Primitives of every node a flux needs: the block and the ghosts next to a neighbour.
      const int lo = static_cast<int>(grid_.begin(0)) - (dec_.has_neighbour(0, 0) ? 1 : 0);
      const int hi = static_cast<int>(grid_.end(0)) + (dec_.has_neighbour(0, 1) ? 1 : 0);
      Kokkos::parallel_for("sod::keep_primitives", Kokkos::RangePolicy<ExecSpace>(lo, hi),
                           KeepPrimitives<Real, Layout>{q_, w_, gas_});
      Kokkos::parallel_for("sod::keep_fluxes", Kokkos::RangePolicy<ExecSpace>(lo, hi - 1),
                           KeepFluxes<Real, Layout>{w_, f_, gas_, dx_});
      Kokkos::parallel_for("sod::keep_update", Kokkos::RangePolicy<ExecSpace>(b, e),
                           KeepUpdate<Real, Layout>{q_, f_, ratio});
    } else if (e > b) {
      const int strip = host_backend ? 512 : 1;
      const int strips = (e - b + strip - 1) / strip;
      Kokkos::parallel_for("sod::keep_step_fused", Kokkos::RangePolicy<ExecSpace>(0, strips),
                           KeepFusedStep<Real, Layout>{q_, q2_, gas_, dx_, ratio, b, e - 1, strip});
      std::swap(q_, q2_);
    }
    if (p_.boundary == BoundaryKind::fixed) return;
    const bool wall = p_.boundary == BoundaryKind::reflecting;
    const int first = static_cast<int>(grid_.begin(0)), last = static_cast<int>(grid_.end(0)) - 1;
    if (dec_.at_global_edge(0, 0))
      Kokkos::parallel_for("sod::keep_end_low", Kokkos::RangePolicy<ExecSpace>(0, 1),
                           KeepEnd<Real, Layout>{q_, first, first + 1, wall});
    if (dec_.at_global_edge(0, 1))
      Kokkos::parallel_for("sod::keep_end_high", Kokkos::RangePolicy<ExecSpace>(0, 1),
                           KeepEnd<Real, Layout>{q_, last, last - 1, wall});
  }

  // k full KEEP steps in one launch (KeepTiledSteps), from q_ into q2_.
  void keep_tiled_steps(int k) {
    if (node_per_thread_tiles_)
      keep_tiled_steps<true>(k);
    else
      keep_tiled_steps<false>(k);
  }
  template <bool NodePerThread>
  void keep_tiled_steps(int k) {
    using Steps = KeepTiledSteps<Real, Layout, NodePerThread>;
    halo_.fill(Ghosts{q_});
    const long first = grid_.offset[0] - grid_.begin(0);  // global index of local 0
    const auto local = [&](long global) {
      const long j = global - first;
      return p_.boundary != BoundaryKind::fixed && j >= 0 && j < grid_.extent(0) ? int(j) : -1;
    };
    // Every node the tube's stencil updates within the allocation: the halo too.
    const int u0 = int(std::max<long>(1, 1 - first)), u1 = int(std::min<long>(grid_.extent(0) - 1, p_.nx - 1 - first));
    const int w0 = int(grid_.begin(0)), w1 = int(grid_.end(0));
    const int tile = Steps::tile_for(w1 - w0, k, team_scratch_limit());
    const Steps f{q_,
                  q2_,
                  gas_,
                  dx_,
                  Real(p_.cfl) / Real(p_.a()),
                  k,
                  tile,
                  w0,
                  w1,
                  u0,
                  u1,
                  int(grid_.extent(0)),
                  local(0),
                  local(p_.nx - 1),
                  p_.boundary == BoundaryKind::reflecting};
    const size_t bytes = Steps::scratch_bytes(tile, k);
    if (bytes > team_scratch_limit())
      throw std::runtime_error("sod: " + std::to_string(k) +
                               " fused steps need more shared memory than a GPU block has; choose fewer "
                               "sod.fused_steps");
    Kokkos::parallel_for(
        "sod::keep_tiled_steps",
        Kokkos::TeamPolicy<ExecSpace>(Steps::tiles(w1 - w0, tile), !host_backend ? Steps::team_threads(tile, k) : 1)
            .set_scratch_size(0, Kokkos::PerTeam(bytes)),
        f);
    std::swap(q_, q2_);
  }

  void fluxes(const State<Real, Layout>& q) {
    Kokkos::parallel_for("sod::hllc_fluxes", Kokkos::RangePolicy<ExecSpace>(grid_.begin(0), grid_.end(0) + 1),
                         FaceFluxes<Real, Layout>{q, f_, Real(p_.gamma), p_.reconstruct, p_.limiter});
  }

  // A step: the stages of the integrator's table (physics/gas/integrators.hpp),
  // each u_out = a q + b (u_in + dt L(u_in)) from the faces' fluxes of u_in.
  // The first stage writes q2_ and later ones read it (in place: a cell's
  // update reads only its own entries); the last of several writes q, and
  // forward Euler's one stage writes q2_, which then becomes q.
  void fv_step(Real ratio) {
    const Kokkos::RangePolicy<ExecSpace> cells(grid_.begin(0), grid_.end(0));
    const gas::IntegratorMethod& m = gas::integrator_method(p_.integrator);
    for (int s = 0; s < m.stages; ++s) {
      const bool last = s == m.stages - 1;
      State<Real, Layout>& in = s == 0 ? q_ : q2_;
      State<Real, Layout>& out = last && m.stages > 1 ? q_ : q2_;
      fluxes(in);
      Kokkos::parallel_for("sod::rk_update", cells,
                           RkUpdate<Real, Layout>{q_, in, out, f_, m.stage[s].a.template as<Real>(),
                                                  m.stage[s].b.template as<Real>(), ratio});
      if (last && m.stages == 1) std::swap(q_, q2_);
      halo_.fill(Ghosts{last ? q_ : out});
    }
  }

  Params p_;
  bool keep_;
  Decomposition dec_;
  GridBlock grid_;
  State<Real, Layout> q_, q2_;
  NodeFields<Real, Layout> w_, f_;
  HaloExchange<Real> halo_;
  KeepGas<Real> gas_{};
  Real dx_{};
  long update_begin_ = 0, update_end_ = 0;
  double fixed_dt_sod_ = 0;
  long step_ = 0, full_steps_ = 0;
  double partial_time_ = 0, time_ = 0;
  bool node_per_thread_tiles_ = !host_backend;
};

}  // namespace cfd::sod
