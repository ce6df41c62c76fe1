// The euler2d solver: conserved U(var, j, i) on a grid block with two ghost
// layers (x fastest in memory). A Runge-Kutta stage is one fused kernel over
// tiles (fused_stage.hpp), or with euler2d.fused_stage: false the split
// kernels (euler2d_kernels.hpp), which keep the primitives W and the face
// fluxes in memory between them.
#pragma once

#include "core/checkpoint.hpp"
#include "core/decomposition.hpp"
#include "core/grid.hpp"
#include "core/halo.hpp"
#include "core/parallel.hpp"
#include "core/snapshot.hpp"
#include "physics/euler2d/euler2d_kernels.hpp"
#include "physics/euler2d/euler2d_params.hpp"
#include "physics/euler2d/fused_stage.hpp"
#include "physics/euler2d/inflow_ghosts.hpp"
#include "physics/euler2d/runge_kutta.hpp"
#include "physics/gas/state_fields.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cfd::euler2d {

struct Totals {
  double mass = 0, mom_x = 0, mom_y = 0, energy = 0, kh_mode = 0;
  double mom_z = 0;  // 3D grids (volume_solver.hpp)
};

// The global grid of a case: nx x ny cells with two ghost layers.
inline GridBlock make_grid(const Params& p) {
  return GridBlock::whole(2, Centering::cell, {p.nx, p.ny, 1}, ghost, {p.lo[0], p.lo[1], 0}, {p.hi[0], p.hi[1], 0});
}
inline std::array<bool, 3> periodic(const Params& p) {
  return {p.boundary[0] == BoundaryKind::periodic, p.boundary[2] == BoundaryKind::periodic, false};
}

template <class Real>
class Solver {
 public:
  explicit Solver(const Params& p) : Solver(p, decompose(make_grid(p), periodic(p))) {}
  Solver(const Params& p, const Decomposition& dec)
      : p_(p),
        dec_(dec),
        grid_(dec.block),
        u_(state_array("euler2d::u", NCONS + p.scalars, true)),
        // The fused forward Euler step writes its result beside the state
        // and swaps the two; the split one updates in place.
        u_stage_(
            state_array("euler2d::u_stage", NCONS + p.scalars, p.fused_stage || p.integrator != Integrator::euler)),
        u_stage2_(state_array("euler2d::u_stage2", NCONS, p.fused_stage && p.integrator == Integrator::rk3)),
        w_(state_array("euler2d::w", NPRIM + p.scalars, !p.fused_stage)),
        fx_("euler2d::flux_x", p.fused_stage ? 0 : NCONS + p.scalars, p.fused_stage ? 0 : grid_.extent(1),
            p.fused_stage ? 0 : grid_.extent(0) + 1),
        fy_("euler2d::flux_y", p.fused_stage ? 0 : NCONS + p.scalars, p.fused_stage ? 0 : grid_.extent(1) + 1,
            p.fused_stage ? 0 : grid_.extent(0)),
        dx_("euler2d::dx", grid_.extent(0)),
        dy_("euler2d::dy", grid_.extent(1)),
        inv_dx_("euler2d::inv_dx", grid_.extent(0)),
        inv_dy_("euler2d::inv_dy", grid_.extent(1)),
        // The fused stage fills U's ghosts, the split kernels W's.
        inflow_(p.inflow, p.sides(), grid_, halo_components(p)),
        halo_(dec, halo_components(p), faces()) {
    if (p.problem == nullptr || !p.initial)
      throw std::logic_error("euler2d::Solver: Params without a problem (make them with euler2d::params)");
    if (p.has_gravity() && p.fused_stage)
      throw std::logic_error(
          "euler2d::Solver: gravity with the fused stage (euler2d::params chooses the split kernels)");
    if (p.scalars > 0 && (p.fused_stage || int(p.scalar_initial.size()) != p.scalars))
      throw std::logic_error(
          "euler2d::Solver: passive scalars need the split kernels and an initial concentration each");
    // Widths as the tutorial takes them: differences of face coordinates
    // x_a(g) = lo + h*g of global face g, so they may differ from h in the
    // last bit, and every rank count gives the same ones. Their reciprocals,
    // which the modern schemes' update multiplies by (flux_difference), are
    // computed here once, with the same bits as on any device.
    for (int d = 0; d < 2; ++d) {
      auto widths = Kokkos::create_mirror_view(d == 0 ? dx_ : dy_);
      auto inverses = Kokkos::create_mirror_view(d == 0 ? inv_dx_ : inv_dy_);
      const double h = (p.hi[d] - p.lo[d]) / (d == 0 ? p.nx : p.ny);
      for (long k = 0; k < grid_.extent(d); ++k) {
        const long g = grid_.global_index(d, k);
        widths(k) = Real(h * static_cast<double>(g + 1) + p.lo[d]) - Real(h * static_cast<double>(g) + p.lo[d]);
        inverses(k) = Real(1) / widths(k);
      }
      Kokkos::deep_copy(d == 0 ? dx_ : dy_, widths);
      Kokkos::deep_copy(d == 0 ? inv_dx_ : inv_dy_, inverses);
    }
  }

  // Cell centre of global cell k as the tutorial takes it: the mean of its two faces.
  double centre(int d, long k) const {
    const double h = (p_.hi[d] - p_.lo[d]) / (d == 0 ? p_.nx : p_.ny);
    return 0.5 * ((h * static_cast<double>(k) + p_.lo[d]) + (h * static_cast<double>(k + 1) + p_.lo[d]));
  }

  void set_initial_state(double time = 0) {
    auto host = Kokkos::create_mirror_view(u_);
    const Real gamma = Real(p_.gamma);
    // The first cell (global, x fastest) whose state is not physical.
    long bad = std::numeric_limits<long>::max();
    double bad_values[3] = {0, 0, 0};
    for (long j = grid_.begin(1); j < grid_.end(1); ++j)
      for (long i = grid_.begin(0); i < grid_.end(0); ++i) {
        const gas::Primitive<double> s =
            initial(centre(0, grid_.global_index(0, i)), centre(1, grid_.global_index(1, j)), time);
        const long flat = grid_.global_index(1, j) * p_.nx + grid_.global_index(0, i);
        const gas::Conserved<Real> c =
            gas::to_conserved(gas::Primitive<Real>{Real(s.rho), Real(s.vx), Real(s.vy), Real(s.vz), Real(s.p)}, gamma);
        host(IDN, j, i) = c.rho;
        host(IM1, j, i) = c.mx;
        host(IM2, j, i) = c.my;
        host(IM3, j, i) = c.mz;
        host(IEN, j, i) = c.energy;
        for (int k = 0; k < p_.scalars; ++k) {
          const double x = centre(0, grid_.global_index(0, i)), y = centre(1, grid_.global_index(1, j));
          host(NCONS + k, j, i) = c.rho * Real(p_.scalar_initial[k](x, y, 0));
        }
        // Checked as the solver holds it: the primitives of the stored state
        // in the working precision, as bad_cell() finds them (fp32 may round
        // a state of double to zero or infinity).
        const CellPrimitives<Real> w =
            reciprocal_cells() ? cell_primitives<true>(host, j, i, gamma) : cell_primitives(host, j, i, gamma);
        const bool finite = std::isfinite(double(w.rho)) && std::isfinite(double(w.vx)) &&
                            std::isfinite(double(w.vy)) && std::isfinite(double(w.p));
        if ((!finite || !(w.rho > Real(0)) || !(w.p > Real(0))) && flat < bad) {
          bad = flat;
          bad_values[0] = double(w.rho), bad_values[1] = double(w.p);
          bad_values[2] = std::isfinite(double(w.vx + w.vy)) ? 0.0 : NAN;
        }
      }
    refuse_bad_initial_state(bad, bad_values);
    InflowGhosts<Real>::refuse(inflow_ghosts(time), dec_, false);
    Kokkos::deep_copy(u_, host);
    step_ = 0;
    time_ = 0;
    state_changed();
  }

  // An initial state that is not physical in some cell ends every rank with
  // the cell, its position and values (a ConfigError: the case is wrong).
  void refuse_bad_initial_state(long bad, const double values[3]) const {
    const long first = dec_.comm.min(bad);
    if (first == std::numeric_limits<long>::max()) return;
    double v[3] = {values[0], values[1], values[2]};
    dec_.comm.from_owner(first == bad, v, 3);
    const long i = first % p_.nx, j = first / p_.nx;
    const std::string what = !std::isfinite(v[0]) || !(v[0] > 0)   ? "density " + format_real(v[0])
                             : !std::isfinite(v[1]) || !(v[1] > 0) ? "pressure " + format_real(v[1])
                                                                   : std::string("a velocity that is not finite");
    const std::string problem = p_.problem->name;
    throw ConfigError("euler2d: error: the initial state of problem " + problem + " is not physical: cell (i, j) = (" +
                      std::to_string(i + 1) + ", " + std::to_string(j + 1) + ") at (x, y) = (" +
                      format_real(centre(0, i)) + ", " + format_real(centre(1, j)) + ") has " + what +
                      (problem == "expression" ? " (from the formulas expression.*)" : "") +
                      "; density and pressure must be positive and finite in the working precision (" +
                      (sizeof(Real) == 4 ? "fp32" : "fp64") + ")");
  }

  // The problem's state at (x, y) and `time` (problems/problem.hpp).
  gas::Primitive<double> initial(double x, double y, double time) const { return p_.initial(x, y, 0, time); }

  // dt = cfl * min over this block's cells of min(dx/(|vx|+c), dy/(|vy|+c));
  // negative when a cell is not physical. The driver takes the minimum over
  // ranks, which is exact, so every rank count gives the same dt.
  // The fused stage finds the bound of the next step with the last stage of
  // this one; otherwise a kernel finds it. The primitives come as the face
  // scheme takes them (by a reciprocal, or the tutorial's divisions).
  double stable_dt() const {
    const auto block_bound = [&](auto reciprocal) {
      return min_2d<Kokkos::Iterate::Right, Real>(
          "euler2d::dt_bound", int(grid_.begin(1)), int(grid_.end(1)), int(grid_.begin(0)), int(grid_.end(0)), 1,
          DtBound<Real, decltype(reciprocal)::value>{u_, dx_, dy_, Real(p_.gamma)});
    };
    const Real local = dt_bound_known_      ? dt_bound_
                       : reciprocal_cells() ? block_bound(std::true_type{})
                                            : block_bound(std::false_type{});
    return local < Real(0) || !(local == local) ? -1.0 : p_.cfl * static_cast<double>(local);
  }

  // Whether the case's face scheme takes its cells' primitives by a
  // reciprocal (FaceScheme::reciprocal: every scheme but the tutorial's).
  bool reciprocal_cells() const { return !p_.original_faces; }

  // First cell (i, j) of the global grid, 0-based, that is not physical, over all ranks.
  std::pair<long, long> bad_cell() const {
    auto u = u_;
    const Real gamma = Real(p_.gamma);
    const bool reciprocal = reciprocal_cells();
    const long nx = p_.nx, x0 = grid_.offset[0] - grid_.begin(0), y0 = grid_.offset[1] - grid_.begin(1);
    long first = Kokkos::reduction_identity<long>::min();
    Kokkos::parallel_reduce(
        "euler2d::find_bad_cell", interior(),
        KOKKOS_LAMBDA(const int j, const int i, long& k) {
          const long flat = (y0 + j) * nx + (x0 + i);
          // The primitives as stable_dt computes them, so that the cell it
          // finds unphysical is the one found here.
          const CellPrimitives<Real> w =
              reciprocal ? cell_primitives<true>(u, j, i, gamma) : cell_primitives(u, j, i, gamma);
          if ((!(w.rho > 0) || !(w.p > 0)) && flat < k) k = flat;
        },
        Kokkos::Min<long>(first));
    first = dec_.comm.min(first);
    if (first == Kokkos::reduction_identity<long>::min()) return {-1, -1};
    return {first % nx, first / nx};
  }

  // The first cell of the global grid that is not physical, its density and
  // pressure; "" if none.
  std::string fault() const {
    const auto [i, j] = bad_cell();
    if (i < 0) return "";
    // The rank that holds the cell reads its values.
    double values[2] = {0, 0};
    const long li = i - grid_.offset[0] + grid_.begin(0), lj = j - grid_.offset[1] + grid_.begin(1);
    const bool owner = li >= grid_.begin(0) && li < grid_.end(0) && lj >= grid_.begin(1) && lj < grid_.end(1);
    if (owner) {
      // Element by element: the cell's slice across the variables is strided,
      // and Kokkos copies no strided device view to the host (CUDA).
      Real u[NCONS];
      for (int v = 0; v < NCONS; ++v) Kokkos::deep_copy(u[v], Kokkos::subview(u_, v, lj, li));
      const CellPrimitives<Real> w = reciprocal_cells()
                                         ? cell_primitives<true>(u[IDN], u[IM1], u[IM2], u[IM3], u[IEN], Real(p_.gamma))
                                         : cell_primitives(u[IDN], u[IM1], u[IM2], u[IM3], u[IEN], Real(p_.gamma));
      values[0] = w.rho;
      values[1] = w.p;
    }
    dec_.comm.from_owner(owner, values, 2);
    return "non-physical state at step " + std::to_string(step_) + ", t = " + format_real(time_) + ": cell (i, j) = (" +
           std::to_string(i + 1) + ", " + std::to_string(j + 1) + ") has density " + format_real(values[0]) +
           " and pressure " + format_real(values[1]);
  }

  void advance(double dt) {
    // Each stage's inflow ghosts at the time its state stands for: t, then
    // t + dt (RK2), or t, t + dt, t + dt/2 (SSP-RK3).
    const auto at = [&](double c) { inflow_ghosts(time_ + c * dt); };
    // The fused stage fills U_in's ghosts and runs one kernel, which finds
    // the next dt bound with the last stage; the split kernels fill W's.
    const auto one_stage = [&](const Array3<Real>& u_base, const Array3<Real>& u_in, const Array3<Real>& u_out, Real a,
                               Real b, Real h, bool last) {
      if (p_.fused_stage) return fused(u_base, u_in, u_out, a, b, h, last);
      stage(u_base, u_in, u_out, a, b, h);
      return Real(0);
    };
    dt_bound_ = ssp_step(p_.integrator, p_.fused_stage, u_, u_stage_, u_stage2_, Real(dt), at, one_stage);
    dt_bound_known_ = p_.fused_stage;
    ++step_;
    time_ += dt;
  }

  // Each passive scalar's total, the sum of rho*s_k times the cell area
  // (the history's scalar_k columns).
  std::vector<double> scalar_totals() const {
    std::vector<double> sums(p_.scalars, 0.0);
    auto u = u_;
    auto dx = dx_, dy = dy_;
    for (int k = 0; k < p_.scalars; ++k) {
      const int v = NCONS + k;
      Kokkos::parallel_reduce(
          "euler2d::scalar_totals", interior(),
          KOKKOS_LAMBDA(const int j, const int i, double& sum) {
            sum += u(v, j, i) * (static_cast<double>(dx(i)) * static_cast<double>(dy(j)));
          },
          sums[k]);
    }
    if (!sums.empty()) dec_.comm.sum(sums.data(), int(sums.size()));
    return sums;
  }

  Totals totals() const {
    auto u = u_;
    auto dx = dx_, dy = dy_;
    // McNally's amplitude is defined on the unit square; other boxes are scaled to it.
    const double hx = 1.0 / p_.nx, hy = 1.0 / p_.ny;
    const long x0 = grid_.offset[0] - grid_.begin(0), y0 = grid_.offset[1] - grid_.begin(1);
    double m = 0, mx = 0, my = 0, en = 0, s = 0, c = 0, d = 0;
    Kokkos::parallel_reduce(
        "euler2d::totals", interior(),
        KOKKOS_LAMBDA(const int j, const int i, double& am, double& amx, double& amy, double& aen, double& as,
                      double& ac, double& ad) {
          const double dv = static_cast<double>(dx(i)) * static_cast<double>(dy(j));
          am += u(IDN, j, i) * dv;
          amx += u(IM1, j, i) * dv;
          amy += u(IM2, j, i) * dv;
          aen += u(IEN, j, i) * dv;
          // McNally's mode amplitude, with x and y measured from the domain's corner.
          const double pi = 3.14159265358979323846;
          const double x = (x0 + i + 0.5) * hx, y = (y0 + j + 0.5) * hy;
          const double e =
              y < 0.5 ? kmath::exp(-4 * pi * kmath::fabs(y - 0.25)) : kmath::exp(-4 * pi * kmath::fabs((1 - y) - 0.25));
          const double vy = u(IM2, j, i) / u(IDN, j, i);
          as += vy * kmath::sin(4 * pi * x) * e * dv;
          ac += vy * kmath::cos(4 * pi * x) * e * dv;
          ad += e * dv;
        },
        m, mx, my, en, s, c, d);
    double sums[7] = {m, mx, my, en, s, c, d};
    dec_.comm.sum(sums, 7);
    const double ms = sums[4] / sums[6], mc = sums[5] / sums[6];
    return {sums[0], sums[1], sums[2], sums[3], 2 * std::sqrt(ms * ms + mc * mc)};
  }

  // Primitive fields of this block's cells on the host, x fastest: rho, vx, vy, vz, p.
  std::vector<HostField<Real>> fields() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), output_primitives());
    // Code units: the problems are posed dimensionless.
    std::vector<HostField<Real>> out{{"rho", {}, "1", "density"},
                                     {"vx", {}, "1", "velocity along x"},
                                     {"vy", {}, "1", "velocity along y"},
                                     {"vz", {}, "1", "velocity along z (advected, no z gradient)"},
                                     {"p", {}, "1", "pressure"}};
    std::vector<int> vars = {IDN, IVX, IVY, IVZ, p_.fused_stage ? int(IEN) : int(IPR)};
    for (int k = 0; k < p_.scalars; ++k) {
      out.push_back(
          {"s" + std::to_string(k + 1), {}, "1", "passive scalar " + std::to_string(k + 1) + ", a concentration"});
      vars.push_back(NPRIM + k);
    }
    for (size_t k = 0; k < vars.size(); ++k) {
      out[k].values.reserve(grid_.owned_count());
      for (long j = grid_.begin(1); j < grid_.end(1); ++j)
        for (long i = grid_.begin(0); i < grid_.end(0); ++i) out[k].values.push_back(host(vars[k], j, i));
    }
    return out;
  }

  // Conserved state of this block's cells on the host, for bit-for-bit comparisons.
  std::vector<Real> conserved() const {
    std::vector<Real> out;
    out.reserve((NCONS + p_.scalars) * grid_.owned_count());
    for (const auto& f : state()) out.insert(out.end(), f.values.begin(), f.values.end());
    return out;
  }

  // The conserved state of this block's cells on the host, x fastest: what
  // a checkpoint holds.
  std::vector<HostField<Real>> state() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_);
    std::vector<HostField<Real>> out = gas::conserved_fields<Real>();
    for (int k = 0; k < p_.scalars; ++k)
      out.push_back({"scalar_" + std::to_string(k + 1), {}, "1", "rho * s" + std::to_string(k + 1)});
    for (int v = 0; v < NCONS + p_.scalars; ++v) {
      out[v].values.reserve(grid_.owned_count());
      for (long j = grid_.begin(1); j < grid_.end(1); ++j)
        for (long i = grid_.begin(0); i < grid_.end(0); ++i) out[v].values.push_back(host(v, j, i));
    }
    return out;
  }
  Attributes clock() const { return {{"step", static_cast<double>(step_)}, {"time", time_}}; }
  // Continues from a checkpoint's state: the primitives follow from it as
  // after a step, and the ghosts travel at the start of the next stage.
  void restore(const std::vector<HostField<Real>>& state, const Attributes& clock) {
    auto host = Kokkos::create_mirror_view(u_);
    for (int v = 0; v < NCONS + p_.scalars; ++v) {
      size_t k = 0;
      for (long j = grid_.begin(1); j < grid_.end(1); ++j)
        for (long i = grid_.begin(0); i < grid_.end(0); ++i) host(v, j, i) = state.at(v).values.at(k++);
    }
    Kokkos::deep_copy(u_, host);
    step_ = static_cast<long>(clock_value(clock, "step"));
    time_ = clock_value(clock, "time");
    inflow_.stale();
    state_changed();
  }

  void release() {
    u_ = u_stage_ = u_stage2_ = w_ = fx_ = fy_ = Array3<Real>();
    inflow_.release();
    dx_ = dy_ = inv_dx_ = inv_dy_ = Array1<Real>();
    halo_.release();
  }

  long step() const { return step_; }
  double time() const { return time_; }
  // The step just taken was shortened to end at `time` (an end or output
  // time): the clock reads it exactly, not the sum that may miss it by a bit.
  void land_on(double time) { time_ = time; }
  const GridBlock& grid() const { return grid_; }
  const HaloExchange<Real>& halo() const { return halo_; }
  // Cells of this block, updated once per step.
  long updates_per_step() const { return grid_.owned_count(); }

 private:
  // A (var, j, i) array over the block with its ghosts, or an empty one.
  Array3<Real> state_array(const std::string& label, int vars, bool needed) const {
    if (!needed) return Array3<Real>(label, 0, 0, 0);
    return Array3<Real>(label, vars, grid_.extent(1), grid_.extent(0));
  }

  // U was set from outside a step: the split kernels' W follows it, and the
  // fused stage's bound on dt is no longer known.
  void state_changed() {
    dt_bound_known_ = false;
    if (!p_.fused_stage) primitives(u_);
  }

  // The primitives rho, vx, vy, vz and p of the block's cells (in slots IDN,
  // IVX, IVY, IVZ and IPR of the split kernels' W; in the fused stage's
  // IDN..IEN of its stage buffer, unused between steps), computed as the
  // face scheme computes W (by reciprocals or divisions), so that both kinds
  // of kernel write the same bits.
  Array3<Real> output_primitives() const {
    if (!p_.fused_stage) return w_;
    with_face_scheme(p_, [&](auto scheme) {
      for_each_2d<Kokkos::Iterate::Right>(
          "euler2d::output_primitives", int(grid_.begin(1)), int(grid_.end(1)), int(grid_.begin(0)), int(grid_.end(0)),
          1, OutputPrimitives<Real, decltype(scheme)::reciprocal>{u_, u_stage_, Real(p_.gamma)});
    });
    return u_stage_;
  }

  // One fused stage: U_in's ghosts, then the kernel; the block's bound on the
  // next dt when find_dt_bound. The rows whose tiles read no ghost row from another
  // rank (a cell reads two rows either side) are computed while the y faces
  // travel, the rows beside those neighbours after (on one rank, or with no
  // neighbour along y, one launch over the whole block).
  Real fused(const Array3<Real>& u_base, const Array3<Real>& u_in, const Array3<Real>& u_out, Real a, Real b, Real dt,
             bool find_dt_bound) {
    const PlaneComponents<Array3<Real>> state{u_in};
    halo_.begin(state, 0);
    halo_.finish(state, 0);
    halo_.begin(state, 1);
    const std::pair<long, long> rows = halo_.independent_of_neighbours(1, grid_.begin(1), grid_.end(1), ghost, ghost);
    Real bound = Kokkos::reduction_identity<Real>::min();
    const auto stage = [&](long j0, long j1) {
      const long begin[2] = {grid_.begin(0), j0}, end[2] = {grid_.end(0), j1};
      with_face_scheme(p_, [&](auto scheme) {
        using Scheme = decltype(scheme);
        const Real part = a == Real(0) && b == Real(1)
                              ? fused_stage<Real, Scheme, false>(u_base, u_in, u_out, dx_, dy_, inv_dx_, inv_dy_,
                                                                 Real(p_.gamma), a, b, dt, find_dt_bound, begin, end)
                              : fused_stage<Real, Scheme, true>(u_base, u_in, u_out, dx_, dy_, inv_dx_, inv_dy_,
                                                                Real(p_.gamma), a, b, dt, find_dt_bound, begin, end);
        if (part < bound) bound = part;  // an order-free minimum: the same bound however the rows are cut
      });
    };
    stage(rows.first, rows.second);
    halo_.finish(state, 1);
    stage(grid_.begin(1), rows.first);
    stage(rows.second, grid_.end(1));
    return bound;
  }

  Range2D<Kokkos::Iterate::Right> interior() const {
    return range_2d<Kokkos::Iterate::Right>(grid_.begin(1), grid_.end(1), grid_.begin(0), grid_.end(0));
  }

  // The faces of the box as the case gives them; reflecting walls negate the
  // normal velocity (W, split kernels) or momentum (U, fused stage): the two
  // share their slots.
  static_assert(int(IVX) == int(IM1) && int(IVY) == int(IM2), "the normal components of W and U share slots");
  FaceBoundaries<Real> faces() const {
    FaceBoundaries<Real> f;
    f.kind[0] = {p_.boundary[0], p_.boundary[1]};
    f.kind[1] = {p_.boundary[2], p_.boundary[3]};
    f.normal_component = {IVX, IVY, -1};
    inflow_.attach(f);
    return f;
  }

  static int halo_components(const Params& p) { return p.fused_stage ? int(NCONS) : int(NPRIM) + p.scalars; }

  // The inflow sides' ghost values at `time` (inflow_ghosts.hpp): U in the
  // working precision for the fused stage, and for the split kernels W from
  // U as ComputePrimitives finds it (no scalar flows in).
  typename InflowGhosts<Real>::Bad inflow_ghosts(double time) {
    const Real gamma = Real(p_.gamma);
    const auto position = [&](long i, long j, long) {
      return std::array<double, 3>{centre(0, grid_.global_index(0, i)), centre(1, grid_.global_index(1, j)), 0.0};
    };
    const auto primitives = [&](const gas::Conserved<Real>& c) {
      return reciprocal_cells() ? cell_primitives<true>(c.rho, c.mx, c.my, c.mz, c.energy, gamma)
                                : cell_primitives(c.rho, c.mx, c.my, c.mz, c.energy, gamma);
    };
    const bool fused = p_.fused_stage;
    const int scalars = p_.scalars;
    const auto store = [fused, scalars](const auto& host, long layer, long t, const gas::Conserved<Real>& c,
                                        const CellPrimitives<Real>& cell) {
      // The fused stage's halo holds U alone (halo_components).
      if (fused) return InflowGhosts<Real>::store_conserved(host, layer, t, c, 0);
      host(IDN, layer, t) = cell.rho, host(IVX, layer, t) = cell.vx, host(IVY, layer, t) = cell.vy;
      host(IVZ, layer, t) = cell.vz, host(IEI, layer, t) = cell.e, host(IPR, layer, t) = cell.p;
      for (int k = 0; k < scalars; ++k) host(NPRIM + k, layer, t) = Real(0);
    };
    return inflow_.refresh(time, dec_, gamma, position, primitives, store);
  }

  // The primitives the face scheme reads: by reciprocals in the modern
  // schemes, by divisions in the tutorial's (FaceScheme::reciprocal, the
  // one source of the choice for the split kernels and the fused stage).
  void primitives(const Array3<Real>& u) {
    with_face_scheme(p_, [&](auto scheme) {
      for_each_2d<Kokkos::Iterate::Right>("euler2d::primitives", int(grid_.begin(1)), int(grid_.end(1)),
                                          int(grid_.begin(0)), int(grid_.end(0)), 1,
                                          ComputePrimitives<Real, decltype(scheme)::reciprocal>{u, w_, Real(p_.gamma)});
    });
    if (p_.scalars > 0)
      for_each_2d<Kokkos::Iterate::Right>("euler2d::scalar_primitives", int(grid_.begin(1)), int(grid_.end(1)),
                                          int(grid_.begin(0)), int(grid_.end(0)), 1,
                                          ScalarPrimitives<Array3<Real>, NPRIM>{u, w_, p_.scalars});
  }

  // One forward-Euler stage from the primitives of u_in (already in w_ on
  // the owned cells): u_out = a*u_base + b*(u_in + dt*L(u_in)); then the new
  // primitives. The ghosts of y travel while the x fluxes and the y fluxes
  // that read no y ghost are computed.
  void stage(const Array3<Real>& u_base, const Array3<Real>& u_in, const Array3<Real>& u_out, Real a, Real b, Real dt) {
    const int i0 = int(grid_.begin(0)), i1 = int(grid_.end(0)), j0 = int(grid_.begin(1)), j1 = int(grid_.end(1));
    const PlaneComponents<Array3<Real>> prims{w_};
    halo_.begin(prims, 0);
    halo_.finish(prims, 0);
    halo_.begin(prims, 1);
    // Face j of y lies between cells j-1 and j; its states read cells j-2 to j+1.
    // Plain names: the lambda below captures them, which C++17 forbids for a structured binding.
    const std::pair<long, long> faces_y = halo_.independent_of_neighbours(1, j0, j1 + 1, 2, 1);
    const long fa = faces_y.first, fb = faces_y.second;
    // Index order (j, i) with i contiguous: the sweeps run along i.
    with_face_scheme(p_, [&](auto scheme) {
      using Scheme = decltype(scheme);
      for_each_2d<Kokkos::Iterate::Right>("euler2d::fluxes_x", j0, j1, i0, i1 + 1, 1,
                                          FaceFluxes<Real, 0, Scheme>{w_, fx_, Real(p_.gamma)});
      const FaceFluxes<Real, 1, Scheme> fluxes_y{w_, fy_, Real(p_.gamma)};
      for_each_2d<Kokkos::Iterate::Right>("euler2d::fluxes_y", int(fa), int(fb), i0, i1, 1, fluxes_y);
      halo_.finish(prims, 1);
      for_each_2d<Kokkos::Iterate::Right>("euler2d::fluxes_y", j0, int(fa), i0, i1, 1, fluxes_y);
      for_each_2d<Kokkos::Iterate::Right>("euler2d::fluxes_y", int(fb), j1 + 1, i0, i1, 1, fluxes_y);
      if (p_.scalars > 0) {  // from the mass fluxes just computed
        for_each_2d<Kokkos::Iterate::Right>("euler2d::scalar_fluxes_x", j0, j1, i0, i1 + 1, 1,
                                            ScalarFluxes<Real, 0, Scheme, Array3<Real>, NPRIM>{w_, fx_, p_.scalars});
        for_each_2d<Kokkos::Iterate::Right>("euler2d::scalar_fluxes_y", j0, j1 + 1, i0, i1, 1,
                                            ScalarFluxes<Real, 1, Scheme, Array3<Real>, NPRIM>{w_, fy_, p_.scalars});
      }
      constexpr bool R = Scheme::reciprocal;
      const Array1<Real> dx = R ? inv_dx_ : dx_, dy = R ? inv_dy_ : dy_;  // as flux_difference takes them
      const auto update = [&](auto blend) {
        constexpr bool B = decltype(blend)::value;
        const Update<Real, B, R> gas{u_base, u_in, u_out, fx_, fy_, dx, dy, a, b, dt};
        for_each_2d<Kokkos::Iterate::Right>("euler2d::update", j0, j1, i0, i1, 1, gas);
        if (p_.scalars > 0)
          for_each_2d<Kokkos::Iterate::Right>("euler2d::scalar_update", j0, j1, i0, i1, 1,
                                              ScalarUpdate<Update<Real, B, R>>{gas, p_.scalars});
      };
      if (a == Real(0) && b == Real(1))
        update(std::false_type{});
      else
        update(std::true_type{});
    });
    // W still holds u_in's primitives (u_out may be u_in itself).
    if (p_.has_gravity())
      for_each_2d<Kokkos::Iterate::Right>(
          "euler2d::gravity", j0, j1, i0, i1, 1,
          GravitySource<Real, Array3<Real>>{
              w_, u_out, fx_, fy_, {}, Real(p_.gravity[0]), Real(p_.gravity[1]), Real(0), b * dt});
    primitives(u_out);
  }

  Params p_;
  Decomposition dec_;
  GridBlock grid_;
  Array3<Real> u_, u_stage_, u_stage2_, w_, fx_, fy_;
  Array1<Real> dx_, dy_, inv_dx_, inv_dy_;  // cell widths and their reciprocals
  InflowGhosts<Real> inflow_;               // the inflow sides' ghost values (before halo_, which holds them)
  HaloExchange<Real> halo_;
  long step_ = 0;
  double time_ = 0;
  // The fused stage's bound on the next dt, found by the last stage of a step.
  Real dt_bound_ = 0;
  bool dt_bound_known_ = false;
};

}  // namespace cfd::euler2d
