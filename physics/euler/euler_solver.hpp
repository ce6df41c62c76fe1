// The euler solver, one class for 2D and 3D grids (Dim, a template
// parameter): conserved U on a grid block with two ghost layers in each of
// its directions, U(var, j, i) in 2D and U(var, k, j, i) in 3D (x fastest in
// memory). A 1D problem is a 2D grid one cell high. What the two share is
// written once here: the cell widths, the initial state and its check, the
// Runge-Kutta step (runge_kutta.hpp), the inflow ghosts (inflow_ghosts.hpp),
// the boundaries, the totals, the output and checkpoint fields, the fault
// report. What differs is the stage:
// - 2D: one fused kernel over tiles (stage_2d.hpp) whose rows away from
//   other ranks run while the y ghosts travel, or with euler.kernels:
//   false the split kernels (split_kernels.hpp), which keep the primitives
//   W and the face fluxes in memory between them. The tutorial's faces
//   (divisions instead of reciprocals) are 2D only.
// - 3D: the halo fills U's ghosts in x, y and z in turn, then one kernel
//   computes the primitives, the faces' fluxes and the update, walking
//   columns of tiles plane by plane (stage_3d.hpp: U and the
//   stages' buffers are the whole footprint), or the split kernels of
//   split_kernels_3d.hpp (the same bits).
// Gravity and passive scalars run the split kernels in both.
#pragma once

#include "core/block_cells.hpp"
#include "core/checkpoint.hpp"
#include "core/decomposition.hpp"
#include "core/grid.hpp"
#include "core/halo.hpp"
#include "core/parallel.hpp"
#include "core/snapshot.hpp"
#include "physics/euler/euler_params.hpp"
#include "physics/euler/inflow_ghosts.hpp"
#include "physics/euler/runge_kutta.hpp"
#include "physics/euler/split_kernels.hpp"
#include "physics/euler/split_kernels_3d.hpp"
#include "physics/euler/stage_2d.hpp"
#include "physics/euler/stage_3d.hpp"
#include "physics/euler/viscous_fluxes.hpp"
#include "physics/gas/state_fields.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cfd::euler {

struct Totals {
  double mass = 0, mom_x = 0, mom_y = 0, energy = 0, kh_mode = 0;
  double mom_z = 0;  // 3D grids
};

// The global grid of a case with two ghost layers: nx x ny cells on `dim`
// 2, nx x ny x nz on 3 (a run takes 3 when grid.nz > 1; a test may run one
// plane through the 3D solver).
inline GridBlock make_grid(const Params& p, int dim) {
  if (dim == 3) return GridBlock::whole(3, Centering::cell, {p.nx, p.ny, p.nz}, ghost, p.lo, p.hi);
  return GridBlock::whole(2, Centering::cell, {p.nx, p.ny, 1}, ghost, {p.lo[0], p.lo[1], 0}, {p.hi[0], p.hi[1], 0});
}
inline std::array<bool, 3> periodic(const Params& p, int dim) {
  return {p.boundary[0] == BoundaryKind::periodic, p.boundary[2] == BoundaryKind::periodic,
          dim == 3 && p.boundary_z[0] == BoundaryKind::periodic};
}

// McNally's mode amplitude's terms of one cell (the history's
// kh_mode_amplitude), with x and y measured from the domain's corner on the
// unit square.
KOKKOS_INLINE_FUNCTION void kh_mode_terms(double x, double y, double vy, double dv, double& as, double& ac,
                                          double& ad) {
  const double pi = 3.14159265358979323846;
  const double e =
      y < 0.5 ? kmath::exp(-4 * pi * kmath::fabs(y - 0.25)) : kmath::exp(-4 * pi * kmath::fabs((1 - y) - 0.25));
  as += vy * kmath::sin(4 * pi * x) * e * dv;
  ac += vy * kmath::cos(4 * pi * x) * e * dv;
  ad += e * dv;
}

template <class Real, int Dim = 2>
class Solver {
  static_assert(Dim == 2 || Dim == 3, "euler::Solver: a 2D or a 3D grid (1D is a 2D grid one cell high)");

 public:
  // U, W, the stage buffers and the fluxes: (var, j, i) or (var, k, j, i).
  using State = std::conditional_t<Dim == 3, Array4<Real>, Array3<Real>>;

  explicit Solver(const Params& p) : Solver(p, decompose(make_grid(p, Dim), periodic(p, Dim))) {}
  Solver(const Params& p, const Decomposition& dec)
      : p_(p),
        dec_(dec),
        grid_(dec.block),
        u_(array("euler::u", NCONS + p.scalars)),
        // The fused forward Euler step writes its result beside the state
        // and swaps the two; the split one updates in place.
        u_stage_(p.fused_stage || p.integrator != Integrator::euler ? array("euler::u_stage", NCONS + p.scalars)
                                                                    : State()),
        u_stage2_(p.fused_stage && p.integrator == Integrator::rk3 ? array("euler::u_stage2", NCONS) : State()),
        // 3D's W is a component shorter: no tutorial faces, no internal energy (split_kernels_3d.hpp).
        w_(p.fused_stage ? State() : array("euler::w", (Dim == 3 ? int(NPRIM_3D) : int(NPRIM)) + p.scalars)),
        fx_(p.fused_stage ? State() : array("euler::flux_x", NCONS + p.scalars, 0, 0, 1)),
        fy_(p.fused_stage ? State() : array("euler::flux_y", NCONS + p.scalars, 0, 1, 0)),
        fz_(p.fused_stage || Dim == 2 ? State() : array("euler::flux_z", NCONS + p.scalars, 1, 0, 0)),
        inflow_(p.inflow, p.sides(), grid_, halo_components(p)),
        halo_(dec, halo_components(p), faces()) {
    const std::string me = "euler::Solver<" + std::to_string(Dim) + ">: ";
    if (p.problem == nullptr || !p.initial)
      throw std::logic_error(me + "Params without a problem (make them with euler::params)");
    if (grid_.ndim != Dim || (Dim == 2 && p.three_d())) throw std::logic_error(me + "a grid of another dimension");
    if (Dim == 3 && p.original_faces) throw std::logic_error(me + "the tutorial's faces are 2D only");
    if ((p.has_gravity() || p.scalars > 0 || p.viscous() || p.sources.any()) && p.fused_stage)
      throw std::logic_error(
          me +
          "gravity, scalars, sources or viscosity with the fused stage (euler::params chooses the split "
          "kernels)");
    if (int(p.scalar_initial.size()) != p.scalars)
      throw std::logic_error(me + "an initial concentration for each passive scalar");
    // Widths as the tutorial takes them: differences of face coordinates
    // x_a(g) = lo + h*g of global face g, so they may differ from h in the
    // last bit, and every rank count gives the same ones. Their reciprocals,
    // which the modern schemes' update multiplies by (flux_difference), are
    // computed here once, with the same bits as on any device.
    for (int d = 0; d < Dim; ++d) {
      width_[d] = Array1<Real>("euler::width", grid_.extent(d));
      inverse_[d] = Array1<Real>("euler::inverse_width", grid_.extent(d));
      auto widths = Kokkos::create_mirror_view(width_[d]);
      auto inverses = Kokkos::create_mirror_view(inverse_[d]);
      for (long k = 0; k < grid_.extent(d); ++k) {
        const long g = grid_.global_index(d, k);
        widths(k) = Real(face(d, g + 1)) - Real(face(d, g));
        inverses(k) = Real(1) / widths(k);
      }
      Kokkos::deep_copy(width_[d], widths);
      Kokkos::deep_copy(inverse_[d], inverses);
    }
    if (p.sources.any()) {
      // The formulas read cell centres as the initial state's formulas do.
      std::vector<double> centres[3];
      for (int d = 0; d < 3; ++d)
        for (long k = 0; k < grid_.extent(d); ++k)
          centres[d].push_back(d < Dim ? centre(d, grid_.global_index(d, k)) : 0.0);
      sources_ = gas::device_sources<Real>(p.sources, centres);
    }
  }

  // Face g and the centre of cell g along d, as the tutorial takes them (the
  // centre is the mean of its two faces).
  double face(int d, long g) const { return spacing(d) * static_cast<double>(g) + p_.lo[d]; }
  double centre(int d, long g) const { return 0.5 * (face(d, g) + face(d, g + 1)); }

  // The problem's state at (x, y, z) and `time` (problems/problem.hpp).
  gas::Primitive<double> initial(double x, double y, double z, double time) const { return p_.initial(x, y, z, time); }

  void set_initial_state(double time = 0) {
    auto host = Kokkos::create_mirror_view(u_);
    const Real gamma = Real(p_.gamma);
    // The first cell (global, x fastest) whose state is not physical.
    long bad = std::numeric_limits<long>::max();
    double bad_values[3] = {0, 0, 0};  // rho, p, and the first scalar that is not finite (1-based; 0: none)
    for (long k = grid_.begin(2); k < grid_.end(2); ++k)
      for (long j = grid_.begin(1); j < grid_.end(1); ++j)
        for (long i = grid_.begin(0); i < grid_.end(0); ++i) {
          const long gi = grid_.global_index(0, i), gj = grid_.global_index(1, j), gk = grid_.global_index(2, k);
          const double x = centre(0, gi), y = centre(1, gj), z = Dim == 3 ? centre(2, gk) : 0.0;
          const gas::Primitive<double> s = p_.initial(x, y, z, time);
          const gas::Conserved<Real> c = gas::to_conserved(
              gas::Primitive<Real>{Real(s.rho), Real(s.vx), Real(s.vy), Real(s.vz), Real(s.p)}, gamma);
          element(host, IDN, k, j, i) = c.rho, element(host, IM1, k, j, i) = c.mx, element(host, IM2, k, j, i) = c.my;
          element(host, IM3, k, j, i) = c.mz, element(host, IEN, k, j, i) = c.energy;
          // A passive scalar is carried like the density: one that is not
          // finite (a formula's 0/0) would end the run as a success with
          // NaN in every snapshot.
          int bad_scalar = 0;
          for (int n = 0; n < p_.scalars; ++n) {
            const Real rho_s = c.rho * Real(p_.scalar_initial[n](x, y, z));
            element(host, NCONS + n, k, j, i) = rho_s;
            if (bad_scalar == 0 && !std::isfinite(double(rho_s))) bad_scalar = n + 1;
          }
          // Checked as the solver holds it: the primitives of the stored state
          // in the working precision, as fault() finds them (fp32 may round
          // a state of double to zero or infinity).
          const CellPrimitives<Real> w = primitives_of(c);
          const bool finite = std::isfinite(double(w.rho)) && std::isfinite(double(w.vx)) &&
                              std::isfinite(double(w.vy)) && std::isfinite(double(w.vz)) && std::isfinite(double(w.p));
          const long flat = (gk * p_.ny + gj) * p_.nx + gi;
          if ((!finite || !(w.rho > Real(0)) || !(w.p > Real(0)) || bad_scalar > 0) && flat < bad) {
            bad = flat;
            bad_values[0] = double(w.rho), bad_values[1] = double(w.p), bad_values[2] = bad_scalar;
          }
        }
    refuse_bad_initial_state(bad, bad_values);
    InflowGhosts<Real>::refuse(inflow_ghosts(time), dec_, Dim == 3);
    Kokkos::deep_copy(u_, host);
    step_ = 0;
    time_ = 0;
    state_changed();
  }

  // dt = cfl * min over this block's cells of min(dx/(|vx|+c), dy/(|vy|+c)
  // [, dz/(|vz|+c)]) (gas::allowed_dt, the gas solvers' one meaning of
  // time.cfl); negative when a cell is not physical. The driver takes
  // the minimum over ranks, which is exact, so every rank count gives the
  // same dt. The fused stage finds the bound of the next step with the last
  // stage of this one (from the values it has just written: the same bits);
  // otherwise a kernel finds it, from the primitives as the face scheme
  // takes them (by a reciprocal, or the tutorial's divisions).
  double allowed_dt() const {
    const double gas = gas_allowed_dt();
    if (!p_.sources.bounded) return gas;
    const Real bound = source_dt_bound();
    return !(bound > Real(0)) ? -1.0 : gas < 0 ? gas : std::min(gas, static_cast<double>(bound));
  }

  // The minimum of sources.dt_bound over this block's cells.
  Real source_dt_bound() const {
    const gas::SourceDtBound<Real, State> bound{sources_, u_, Real(p_.gamma), p_.scalars, time_};
    if constexpr (Dim == 3)
      return min_3d<Real>("euler::source_dt_bound", grid_.begin(2), grid_.end(2), grid_.begin(1), grid_.end(1),
                          grid_.begin(0), grid_.end(0), bound);
    else
      return min_2d<Kokkos::Iterate::Right, Real>("euler::source_dt_bound", int(grid_.begin(1)), int(grid_.end(1)),
                                                  int(grid_.begin(0)), int(grid_.end(0)), 1, bound);
  }

  // The gas's own bound (convective and viscous, time.cfl and time.fourier).
  double gas_allowed_dt() const {
    const auto block_bound = [&](auto reciprocal) {
      constexpr bool R = decltype(reciprocal)::value;
      if constexpr (Dim == 3)
        return min_3d<Real>("euler::dt_bound", grid_.begin(2), grid_.end(2), grid_.begin(1), grid_.end(1),
                            grid_.begin(0), grid_.end(0),
                            DtBound_3d<Real, R>{u_, width_[0], width_[1], width_[2], Real(p_.gamma)});
      else
        return min_2d<Kokkos::Iterate::Right, Real>("euler::dt_bound", int(grid_.begin(1)), int(grid_.end(1)),
                                                    int(grid_.begin(0)), int(grid_.end(0)), 1,
                                                    DtBound<Real, R>{u_, width_[0], width_[1], Real(p_.gamma)});
    };
    Real local = dt_bound_;
    if (!dt_bound_known_) {
      if constexpr (Dim == 3)
        local = block_bound(std::true_type{});  // 3D has no tutorial faces
      else
        local = reciprocal_cells() ? block_bound(std::true_type{}) : block_bound(std::false_type{});
    }
    if (!p_.viscous()) return gas::allowed_dt(p_.cfl, static_cast<double>(local));
    // Viscosity and heat conduction: their own bound, with time.fourier.
    // A direction of one cell (a 1D case) has no viscous flux difference.
    Real sum_inverse_h2 = Real(0);
    const long cells[3] = {p_.nx, p_.ny, p_.nz};
    for (int d = 0; d < Dim; ++d)
      if (cells[d] > 1) sum_inverse_h2 += uniform_inverse_h(d) * uniform_inverse_h(d);
    const ViscousDtBound<Real, State> bound{u_, viscous_gas(), sum_inverse_h2};
    Real viscous;
    if constexpr (Dim == 3)
      viscous = min_3d<Real>("euler::viscous_dt_bound", grid_.begin(2), grid_.end(2), grid_.begin(1), grid_.end(1),
                             grid_.begin(0), grid_.end(0), bound);
    else
      viscous = min_2d<Kokkos::Iterate::Right, Real>("euler::viscous_dt_bound", int(grid_.begin(1)), int(grid_.end(1)),
                                                     int(grid_.begin(0)), int(grid_.end(0)), 1, bound);
    return gas::allowed_dt(p_.cfl, static_cast<double>(local), p_.fourier, static_cast<double>(viscous));
  }

  // The viscous fluxes through the faces along Dir, into `flux`: the gas
  // model in the working precision and 1/h of the uniform grid, the same on
  // every rank.
  template <int Dir>
  ViscousFluxes<Real, Dir, State> viscous_fluxes(const State& flux) const {
    return {w_, flux, viscous_gas(), {uniform_inverse_h(0), uniform_inverse_h(1), uniform_inverse_h(2)}};
  }
  gas::GasModel<Real> viscous_gas() const { return gas::gas_model<Real>(p_.gamma, p_.R, p_.Pr, p_.viscosity); }
  Real uniform_inverse_h(int d) const { return d < Dim ? Real(1 / spacing(d)) : Real(0); }

  // Whether the case's face scheme takes its cells' primitives by a
  // reciprocal (FaceScheme::reciprocal: every scheme but the tutorial's,
  // which is 2D only).
  bool reciprocal_cells() const { return !p_.original_faces; }

  // The first cell of the global grid (x fastest, over all ranks) that is
  // not physical, as i + nx (j + ny k); -1 if none. Collective.
  long first_bad_cell() const {
    auto u = u_;
    const Real gamma = Real(p_.gamma);
    const bool reciprocal = reciprocal_cells();
    return first_flagged_cell(
        "euler::find_bad_cell", grid_, dec_.comm, KOKKOS_LAMBDA(const long k, const long j, const long i) {
          // The primitives as allowed_dt computes them, so that the cell it
          // finds unphysical is the one found here.
          const Real rho = element(u, IDN, k, j, i), mx = element(u, IM1, k, j, i), my = element(u, IM2, k, j, i),
                     mz = element(u, IM3, k, j, i), energy = element(u, IEN, k, j, i);
          const CellPrimitives<Real> w = reciprocal ? cell_primitives<true>(rho, mx, my, mz, energy, gamma)
                                                    : cell_primitives(rho, mx, my, mz, energy, gamma);
          return !(w.rho > 0) || !(w.p > 0);
        });
  }

  // The first cell of the global grid that is not physical, its density and
  // pressure; "" if none.
  std::string fault() const {
    const long first = first_bad_cell();
    if (first < 0 && p_.sources.bounded) {
      const double bound = dec_.comm.min(static_cast<double>(source_dt_bound()));
      if (!(bound > 0))
        return "sources.dt_bound gives " +
               (bound <= -double(Kokkos::reduction_identity<Real>::min()) ? std::string("nan or -inf")
                                                                          : format_real(bound)) +
               " at step " + std::to_string(step_) + ", t = " + format_real(time_) +
               ": a bound on the step must be positive";
    }
    if (first < 0) return "";
    const std::array<long, 3> g = global_cell(first, grid_);
    // The rank that holds the cell reads its values.
    double values[2] = {0, 0};
    long local[3] = {0, 0, 0};
    bool owner = true;
    for (int d = 0; d < 3; ++d) {
      local[d] = g[d] - grid_.offset[d] + grid_.begin(d);
      owner = owner && local[d] >= grid_.begin(d) && local[d] < grid_.end(d);
    }
    if (owner) {
      // Element by element: the cell's slice across the variables is strided,
      // and Kokkos copies no strided device view to the host (CUDA).
      Real c[NCONS];
      for (int v = 0; v < NCONS; ++v) {
        if constexpr (Dim == 3)
          Kokkos::deep_copy(c[v], Kokkos::subview(u_, v, local[2], local[1], local[0]));
        else
          Kokkos::deep_copy(c[v], Kokkos::subview(u_, v, local[1], local[0]));
      }
      const CellPrimitives<Real> w = primitives_of(gas::Conserved<Real>{c[IDN], c[IM1], c[IM2], c[IM3], c[IEN]});
      values[0] = w.rho, values[1] = w.p;
    }
    dec_.comm.from_owner(owner, values, 2);
    return "non-physical state at step " + std::to_string(step_) + ", t = " + format_real(time_) + ": cell " +
           cell_name(g) + " has density " + format_real(values[0]) + " and pressure " + format_real(values[1]);
  }

  void advance(double dt) {
    // Each stage's inflow ghosts at the time its state stands for: t, then
    // t + dt (RK2), or t, t + dt, t + dt/2 (SSP-RK3). The fused stage reads
    // u_in around each cell, so no stage of it may write its input
    // (runge_kutta.hpp); the split kernels read u_in at its own cell only
    // (and W), so they update in place. Either way the same arithmetic.
    const auto at_time = [&](double c) {
      stage_time_ = time_ + c * dt;
      inflow_ghosts(stage_time_);
    };
    const auto one_stage = [&](const State& u_base, const State& u_in, const State& u_out, Real a, Real b, Real h,
                               bool last) { return stage(u_base, u_in, u_out, a, b, h, last); };
    dt_bound_ = ssp_step(p_.integrator, p_.fused_stage, u_, u_stage_, u_stage2_, Real(dt), at_time, one_stage);
    dt_bound_known_ = p_.fused_stage;
    ++step_;
    time_ += dt;
  }

  // Each passive scalar's total, the sum of rho*s_k times the cell area or
  // volume (the history's scalar_k columns).
  std::vector<double> scalar_totals() const {
    std::vector<double> sums(p_.scalars, 0.0);
    auto u = u_;
    auto dx = width_[0], dy = width_[1], dz = width_[2];
    for (int n = 0; n < p_.scalars; ++n) {
      const int v = NCONS + n;
      if constexpr (Dim == 3)
        Kokkos::parallel_reduce(
            "euler::scalar_totals", interior(),
            KOKKOS_LAMBDA(const long k, const long j, const long i, double& sum) {
              sum += u(v, k, j, i) *
                     (static_cast<double>(dx(i)) * static_cast<double>(dy(j)) * static_cast<double>(dz(k)));
            },
            sums[n]);
      else
        Kokkos::parallel_reduce(
            "euler::scalar_totals", interior(),
            KOKKOS_LAMBDA(const int j, const int i, double& sum) {
              sum += u(v, j, i) * (static_cast<double>(dx(i)) * static_cast<double>(dy(j)));
            },
            sums[n]);
    }
    if (!sums.empty()) dec_.comm.sum(sums.data(), int(sums.size()));
    return sums;
  }

  // The totals over the box (sum of value * cell area or volume); kh_mode is
  // McNally's amplitude, over the whole volume in 3D. Other boxes than the
  // unit square are scaled to it.
  Totals totals() const {
    auto u = u_;
    auto dx = width_[0], dy = width_[1], dz = width_[2];
    const double hx = 1.0 / p_.nx, hy = 1.0 / p_.ny;
    const long x0 = grid_.offset[0] - grid_.begin(0), y0 = grid_.offset[1] - grid_.begin(1);
    double m = 0, mx = 0, my = 0, mz = 0, en = 0, s = 0, c = 0, d = 0;
    if constexpr (Dim == 3)
      Kokkos::parallel_reduce(
          "euler::totals", interior(),
          KOKKOS_LAMBDA(const long k, const long j, const long i, double& am, double& amx, double& amy, double& amz,
                        double& aen, double& as, double& ac, double& ad) {
            const double dv = static_cast<double>(dx(i)) * static_cast<double>(dy(j)) * static_cast<double>(dz(k));
            am += u(IDN, k, j, i) * dv;
            amx += u(IM1, k, j, i) * dv;
            amy += u(IM2, k, j, i) * dv;
            amz += u(IM3, k, j, i) * dv;
            aen += u(IEN, k, j, i) * dv;
            kh_mode_terms((x0 + i + 0.5) * hx, (y0 + j + 0.5) * hy, u(IM2, k, j, i) / u(IDN, k, j, i), dv, as, ac, ad);
          },
          m, mx, my, mz, en, s, c, d);
    else  // vz is advected without a z gradient: no z momentum column
      Kokkos::parallel_reduce(
          "euler::totals", interior(),
          KOKKOS_LAMBDA(const int j, const int i, double& am, double& amx, double& amy, double& aen, double& as,
                        double& ac, double& ad) {
            const double dv = static_cast<double>(dx(i)) * static_cast<double>(dy(j));
            am += u(IDN, j, i) * dv;
            amx += u(IM1, j, i) * dv;
            amy += u(IM2, j, i) * dv;
            aen += u(IEN, j, i) * dv;
            kh_mode_terms((x0 + i + 0.5) * hx, (y0 + j + 0.5) * hy, u(IM2, j, i) / u(IDN, j, i), dv, as, ac, ad);
          },
          m, mx, my, en, s, c, d);
    // Over the ranks as many values as the block summed (2D: no z
    // momentum), so that MPI's choice of reduction, which may depend on the
    // message's size, is what it was for each dimension.
    constexpr int count = Dim == 3 ? 8 : 7;
    double sums[8] = {m, mx, my, en, s, c, d, mz};
    dec_.comm.sum(sums, count);
    const double ms = sums[4] / sums[6], mc = sums[5] / sums[6];
    return {sums[0], sums[1], sums[2], sums[3], 2 * std::sqrt(ms * ms + mc * mc), sums[7]};
  }

  // Primitive fields of this block's cells on the host, x fastest: rho, vx,
  // vy, vz, p, then the scalars' concentrations s1, s2, ...
  std::vector<HostField<Real>> fields() const {
    // Code units: the problems are posed dimensionless.
    std::vector<HostField<Real>> out{
        {"rho", {}, "1", "density"},
        {"vx", {}, "1", "velocity along x"},
        {"vy", {}, "1", "velocity along y"},
        {"vz", {}, "1", Dim == 3 ? "velocity along z" : "velocity along z (advected, no z gradient)"},
        {"p", {}, "1", "pressure"}};
    for (int n = 0; n < p_.scalars; ++n)
      out.push_back(
          {"s" + std::to_string(n + 1), {}, "1", "passive scalar " + std::to_string(n + 1) + ", a concentration"});
    // Where output_primitives() puts each of them.
    // (The fused stages' output buffer is U-shaped: p in U's energy slot, IEN == IPR.)
    static_assert(int(IEN) == int(IPR), "W's pressure and U's energy share a slot");
    std::vector<int> slots = {IDN, IVX, IVY, IVZ, IPR};
    for (int n = 0; n < p_.scalars; ++n) slots.push_back((Dim == 3 ? int(NPRIM_3D) : int(NPRIM)) + n);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), output_primitives());
    for (size_t v = 0; v < out.size(); ++v) out[v].values = owned_cells(host, slots[v], grid_);
    return out;
  }

  // The conserved state of this block's cells on the host, x fastest: what
  // a checkpoint holds (U's rows, then each scalar's rho*s_k).
  std::vector<HostField<Real>> state() const {
    std::vector<HostField<Real>> out = gas::conserved_fields<Real>();
    for (int n = 0; n < p_.scalars; ++n)
      out.push_back({"scalar_" + std::to_string(n + 1), {}, "1", "rho * s" + std::to_string(n + 1)});
    return owned_fields(u_, std::move(out), grid_);
  }
  // The conserved state of the owned cells, component after component, for
  // bit-for-bit comparisons.
  std::vector<Real> conserved() const {
    std::vector<Real> out;
    out.reserve((NCONS + p_.scalars) * grid_.owned_count());
    for (const auto& f : state()) out.insert(out.end(), f.values.begin(), f.values.end());
    return out;
  }
  Attributes clock() const { return {{"step", static_cast<double>(step_)}, {"time", time_}}; }
  // Continues from a checkpoint's state: the primitives follow from it as
  // after a step, and the ghosts travel at the start of the next stage.
  void restore(const std::vector<HostField<Real>>& state, const Attributes& clock) {
    restore_owned_cells(u_, state, NCONS + p_.scalars, grid_);
    step_ = static_cast<long>(clock_value(clock, "step"));
    time_ = clock_value(clock, "time");
    inflow_.stale();
    state_changed();
  }

  void release() {
    u_ = u_stage_ = u_stage2_ = w_ = fx_ = fy_ = fz_ = output_ = State();
    for (auto& a : width_) a = Array1<Real>();
    for (auto& a : inverse_) a = Array1<Real>();
    inflow_.release();
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
  double spacing(int d) const {
    const long n = d == 0 ? p_.nx : d == 1 ? p_.ny : p_.nz;
    return (p_.hi[d] - p_.lo[d]) / static_cast<double>(n);
  }

  // An array over the block with its ghosts and `more` entries along each
  // direction (the faces of a flux array); 2D has no k.
  State array(const std::string& label, int vars, int more_k = 0, int more_j = 0, int more_i = 0) const {
    if constexpr (Dim == 3)
      return State(label, vars, grid_.extent(2) + more_k, grid_.extent(1) + more_j, grid_.extent(0) + more_i);
    else
      return State(label, vars, grid_.extent(1) + more_j, grid_.extent(0) + more_i);
  }

  // What the halo exchanges and the inflow sides fill: U (the fused stage,
  // and every 3D stage), or the 2D split kernels' W.
  static int halo_components(const Params& p) {
    if (Dim == 3) return NCONS + p.scalars;
    return p.fused_stage ? int(NCONS) : int(NPRIM) + p.scalars;
  }

  // A cell's primitives as the face scheme takes them (by a reciprocal, or the tutorial's divisions).
  CellPrimitives<Real> primitives_of(const gas::Conserved<Real>& c) const {
    const Real gamma = Real(p_.gamma);
    return reciprocal_cells() ? cell_primitives<true>(c.rho, c.mx, c.my, c.mz, c.energy, gamma)
                              : cell_primitives(c.rho, c.mx, c.my, c.mz, c.energy, gamma);
  }

  // "(i, j) = (..)" or "(i, j, k) = (..)" of a global cell, 1-based.
  static std::string cell_name(const std::array<long, 3>& g) {
    std::string at = "(" + std::to_string(g[0] + 1) + ", " + std::to_string(g[1] + 1);
    if (Dim == 3) at += ", " + std::to_string(g[2] + 1);
    return std::string(Dim == 3 ? "(i, j, k)" : "(i, j)") + " = " + at + ")";
  }

  // An initial state that is not physical in some cell ends every rank with
  // the cell, its position and values (a ConfigError: the case is wrong).
  void refuse_bad_initial_state(long bad, const double values[3]) const {
    const long first = dec_.comm.min(bad);
    if (first == std::numeric_limits<long>::max()) return;
    double v[3] = {values[0], values[1], values[2]};
    dec_.comm.from_owner(first == bad, v, 3);
    const std::array<long, 3> g = global_cell(first, grid_);
    std::string position = "(" + format_real(centre(0, g[0])) + ", " + format_real(centre(1, g[1]));
    if (Dim == 3) position += ", " + format_real(centre(2, g[2]));
    const std::string scalar = "s" + std::to_string(long(v[2]));
    const std::string what =
        !std::isfinite(v[0]) || !(v[0] > 0)   ? "density " + format_real(v[0])
        : !std::isfinite(v[1]) || !(v[1] > 0) ? "pressure " + format_real(v[1])
        : v[2] > 0 ? "passive scalar " + scalar + " that is not finite (from the formula scalars." + scalar + ")"
                   : std::string("a velocity that is not finite");
    const std::string problem = p_.problem->name;
    throw ConfigError("euler: error: the initial state of problem " + problem + " is not physical: cell " +
                      cell_name(g) + " at " + (Dim == 3 ? "(x, y, z)" : "(x, y)") + " = " + position + ") has " + what +
                      (problem == "expression" ? " (from the formulas expression.*)" : "") +
                      "; density and pressure must be positive and finite, scalars finite, in the working precision (" +
                      (sizeof(Real) == 4 ? "fp32" : "fp64") + ")");
  }

  // U was set from outside a step: the 2D split kernels' W follows it, and
  // the fused stage's bound on dt is no longer known.
  void state_changed() {
    dt_bound_known_ = false;
    if constexpr (Dim == 2)
      if (!p_.fused_stage) primitives(u_);
  }

  // The primitives rho, vx, vy, vz and p of the block's cells, computed as
  // the face scheme computes W (by reciprocals or divisions), so that every
  // kind of kernel writes the same bits: the 2D split kernels' W (slots IDN,
  // IVX, IVY, IVZ, IPR; kept up to date after each step), otherwise a stage
  // buffer (unused between steps; IDN .. IEN, then the scalars at
  // NPRIM_3D in 3D), or with 3D forward Euler, which has none, an array
  // of its own.
  State output_primitives() const {
    if constexpr (Dim == 2) {
      if (!p_.fused_stage) return w_;
      with_face_scheme(p_, [&](auto scheme) {
        for_each_2d<Kokkos::Iterate::Right>(
            "euler::output_primitives", int(grid_.begin(1)), int(grid_.end(1)), int(grid_.begin(0)), int(grid_.end(0)),
            1, OutputPrimitives<Real, decltype(scheme)::reciprocal>{u_, u_stage_, Real(p_.gamma)});
      });
      return u_stage_;
    } else {
      if (u_stage_.extent(0) == 0 && output_.extent(0) == 0) output_ = array("euler::output", NCONS + p_.scalars);
      const State out = u_stage_.extent(0) > 0 ? u_stage_ : output_;
      const long k0 = grid_.begin(2), k1 = grid_.end(2), j0 = grid_.begin(1), j1 = grid_.end(1), i0 = grid_.begin(0),
                 i1 = grid_.end(0);
      for_each_3d("euler::output_primitives", k0, k1, j0, j1, i0, i1,
                  Primitives_3d<Real, true>{u_, out, Real(p_.gamma)});
      if (p_.scalars > 0) {
        static_assert(int(NPRIM_3D) == int(NCONS), "the output's scalars in U's rows");
        for_each_3d("euler::output_scalars", k0, k1, j0, j1, i0, i1,
                    ScalarPrimitives<Array4<Real>, NPRIM_3D>{u_, out, p_.scalars});
      }
      return out;
    }
  }

  auto interior() const {
    if constexpr (Dim == 3)
      return Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>, Kokkos::IndexType<long>>(
          {grid_.begin(2), grid_.begin(1), grid_.begin(0)}, {grid_.end(2), grid_.end(1), grid_.end(0)});
    else
      return range_2d<Kokkos::Iterate::Right>(grid_.begin(1), grid_.end(1), grid_.begin(0), grid_.end(0));
  }

  // The faces of the box as the case gives them; reflecting walls negate the
  // normal velocity (W, 2D split kernels) or momentum (U: the fused stage,
  // and every 3D stage; negating the momentum gives the primitives' bits of
  // negating the velocity): the two share their slots.
  static_assert(int(IVX) == int(IM1) && int(IVY) == int(IM2) && int(IVZ) == int(IM3),
                "the normal components of W and U share slots");
  FaceBoundaries<Real> faces() const {
    FaceBoundaries<Real> f;
    f.kind[0] = {p_.boundary[0], p_.boundary[1]};
    f.kind[1] = {p_.boundary[2], p_.boundary[3]};
    if (Dim == 3) f.kind[2] = {p_.boundary_z[0], p_.boundary_z[1]};
    f.normal_component = {IVX, IVY, Dim == 3 ? int(IVZ) : -1};
    inflow_.attach(f);
    return f;
  }

  // The inflow sides' ghost values at `time` (inflow_ghosts.hpp): U in the
  // working precision where the halo fills U's ghosts, and for the 2D split
  // kernels W from U as ComputePrimitives finds it (no scalar flows in).
  typename InflowGhosts<Real>::Bad inflow_ghosts(double time) {
    const auto position = [&](long i, long j, long k) {
      return std::array<double, 3>{centre(0, grid_.global_index(0, i)), centre(1, grid_.global_index(1, j)),
                                   Dim == 3 ? centre(2, grid_.global_index(2, k)) : 0.0};
    };
    const auto primitives = [&](const gas::Conserved<Real>& c) { return primitives_of(c); };
    const bool conserved_ghosts = Dim == 3 || p_.fused_stage;
    // U's scalar rows in 3D; the fused 2D stage's halo holds U alone
    // (halo_components); W's scalar rows of the 2D split kernels.
    const int u_scalars = Dim == 3 ? p_.scalars : 0, w_scalars = p_.scalars;
    const auto store = [conserved_ghosts, u_scalars, w_scalars](const auto& host, long layer, long t,
                                                                const gas::Conserved<Real>& c,
                                                                const CellPrimitives<Real>& cell) {
      if (conserved_ghosts) return InflowGhosts<Real>::store_conserved(host, layer, t, c, u_scalars);
      host(IDN, layer, t) = cell.rho, host(IVX, layer, t) = cell.vx, host(IVY, layer, t) = cell.vy;
      host(IVZ, layer, t) = cell.vz, host(IEI, layer, t) = cell.e, host(IPR, layer, t) = cell.p;
      for (int n = 0; n < w_scalars; ++n) host(NPRIM + n, layer, t) = Real(0);
    };
    return inflow_.refresh(time, dec_, Real(p_.gamma), position, primitives, store);
  }

  // f(std::bool_constant<Blend>) for a stage u_out = a*u_base + b*(...):
  // a plain forward-Euler stage (a = 0, b = 1) runs the kernels compiled
  // without the blend, which read no u_base; every other stage blends.
  template <class F>
  static decltype(auto) with_blend(Real a, Real b, F&& f) {
    if (a == Real(0) && b == Real(1)) return f(std::false_type{});
    return f(std::true_type{});
  }

  // u_out = a*u_base + b*(u_in + dt*L(u_in)); the fused stage's bound on
  // the next dt over the block when find_dt_bound (otherwise, and from the
  // split kernels, of no use).
  Real stage(const State& u_base, const State& u_in, const State& u_out, Real a, Real b, Real dt, bool find_dt_bound) {
    if constexpr (Dim == 3) {
      return volume_stage(u_base, u_in, u_out, a, b, dt, find_dt_bound);
    } else {
      if (p_.fused_stage) return fused_plane_stage(u_base, u_in, u_out, a, b, dt, find_dt_bound);
      split_plane_stage(u_base, u_in, u_out, a, b, dt);
      return Real(0);
    }
  }

  // ---- 2D ----

  // One fused stage: U_in's ghosts, then the kernel; the block's bound on the
  // next dt when find_dt_bound. The rows whose tiles read no ghost row from another
  // rank (a cell reads two rows either side) are computed while the y faces
  // travel, the rows beside those neighbours after (on one rank, or with no
  // neighbour along y, one launch over the whole block).
  Real fused_plane_stage(const State& u_base, const State& u_in, const State& u_out, Real a, Real b, Real dt,
                         bool find_dt_bound) {
    const PlaneComponents<State> state{u_in};
    halo_.begin(state, 0);
    halo_.finish(state, 0);
    halo_.begin(state, 1);
    const std::pair<long, long> rows = halo_.independent_of_neighbours(1, grid_.begin(1), grid_.end(1), ghost, ghost);
    Real bound = Kokkos::reduction_identity<Real>::min();
    const Array1<Real>&dx = width_[0], &dy = width_[1], &inv_dx = inverse_[0], &inv_dy = inverse_[1];
    const auto part = [&](long j0, long j1) {
      const long begin[2] = {grid_.begin(0), j0}, end[2] = {grid_.end(0), j1};
      with_face_scheme(p_, [&](auto scheme) {
        using Scheme = decltype(scheme);
        const Real found = with_blend(a, b, [&](auto blend) {
          return fused_stage<Real, Scheme, decltype(blend)::value>(u_base, u_in, u_out, dx, dy, inv_dx, inv_dy,
                                                                   Real(p_.gamma), a, b, dt, find_dt_bound, begin, end);
        });
        if (found < bound) bound = found;  // an order-free minimum: the same bound however the rows are cut
      });
    };
    part(rows.first, rows.second);
    halo_.finish(state, 1);
    part(grid_.begin(1), rows.first);
    part(rows.second, grid_.end(1));
    return bound;
  }

  // The primitives the face scheme reads: by reciprocals in the modern
  // schemes, by divisions in the tutorial's (FaceScheme::reciprocal, the
  // one source of the choice for the split kernels and the fused stage).
  void primitives(const State& u) {
    with_face_scheme(p_, [&](auto scheme) {
      for_each_2d<Kokkos::Iterate::Right>("euler::primitives", int(grid_.begin(1)), int(grid_.end(1)),
                                          int(grid_.begin(0)), int(grid_.end(0)), 1,
                                          ComputePrimitives<Real, decltype(scheme)::reciprocal>{u, w_, Real(p_.gamma)});
    });
    if (p_.scalars > 0)
      for_each_2d<Kokkos::Iterate::Right>("euler::scalar_primitives", int(grid_.begin(1)), int(grid_.end(1)),
                                          int(grid_.begin(0)), int(grid_.end(0)), 1,
                                          ScalarPrimitives<Array3<Real>, NPRIM>{u, w_, p_.scalars});
  }

  // One forward-Euler stage of the split kernels from the primitives of
  // u_in (already in w_ on the owned cells); then the new primitives. The
  // ghosts of y travel while the x fluxes and the y fluxes that read no y
  // ghost are computed.
  void split_plane_stage(const State& u_base, const State& u_in, const State& u_out, Real a, Real b, Real dt) {
    const int i0 = int(grid_.begin(0)), i1 = int(grid_.end(0)), j0 = int(grid_.begin(1)), j1 = int(grid_.end(1));
    const PlaneComponents<State> prims{w_};
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
      for_each_2d<Kokkos::Iterate::Right>("euler::fluxes_x", j0, j1, i0, i1 + 1, 1,
                                          FaceFluxes<Real, 0, Scheme>{w_, fx_, Real(p_.gamma)});
      const FaceFluxes<Real, 1, Scheme> fluxes_y{w_, fy_, Real(p_.gamma)};
      for_each_2d<Kokkos::Iterate::Right>("euler::fluxes_y", int(fa), int(fb), i0, i1, 1, fluxes_y);
      halo_.finish(prims, 1);
      for_each_2d<Kokkos::Iterate::Right>("euler::fluxes_y", j0, int(fa), i0, i1, 1, fluxes_y);
      for_each_2d<Kokkos::Iterate::Right>("euler::fluxes_y", int(fb), j1 + 1, i0, i1, 1, fluxes_y);
      if (p_.viscous()) {  // after every ghost of W has come: the faces' derivatives along them read corners
        for_each_2d<Kokkos::Iterate::Right>("euler::viscous_fluxes_x", j0, j1, i0, i1 + 1, 1, viscous_fluxes<0>(fx_));
        for_each_2d<Kokkos::Iterate::Right>("euler::viscous_fluxes_y", j0, j1 + 1, i0, i1, 1, viscous_fluxes<1>(fy_));
      }
      if (p_.scalars > 0) {  // from the mass fluxes just computed
        for_each_2d<Kokkos::Iterate::Right>("euler::scalar_fluxes_x", j0, j1, i0, i1 + 1, 1,
                                            ScalarFluxes<Real, 0, Scheme, Array3<Real>, NPRIM>{w_, fx_, p_.scalars});
        for_each_2d<Kokkos::Iterate::Right>("euler::scalar_fluxes_y", j0, j1 + 1, i0, i1, 1,
                                            ScalarFluxes<Real, 1, Scheme, Array3<Real>, NPRIM>{w_, fy_, p_.scalars});
      }
      constexpr bool R = Scheme::reciprocal;
      // As flux_difference takes them.
      const Array1<Real> dx = R ? inverse_[0] : width_[0], dy = R ? inverse_[1] : width_[1];
      with_blend(a, b, [&](auto blend) {
        constexpr bool B = decltype(blend)::value;
        const Update<Real, B, R> gas{u_base, u_in, u_out, fx_, fy_, dx, dy, a, b, dt};
        for_each_2d<Kokkos::Iterate::Right>("euler::update", j0, j1, i0, i1, 1, gas);
        if (p_.scalars > 0)
          for_each_2d<Kokkos::Iterate::Right>("euler::scalar_update", j0, j1, i0, i1, 1,
                                              ScalarUpdate<Update<Real, B, R>>{gas, p_.scalars});
      });
    });
    // W still holds u_in's primitives (u_out may be u_in itself).
    if (p_.has_gravity())
      for_each_2d<Kokkos::Iterate::Right>(
          "euler::gravity", j0, j1, i0, i1, 1,
          GravitySource<Real, Array3<Real>>{
              w_, u_out, fx_, fy_, {}, Real(p_.gravity[0]), Real(p_.gravity[1]), Real(0), b * dt});
    if (sources_.count > 0)
      for_each_2d<Kokkos::Iterate::Right>(
          "euler::sources", j0, j1, i0, i1, 1,
          gas::ApplySources<Real, State>{sources_, w_, u_out, int(NPRIM), p_.scalars, stage_time_, b * dt});
    primitives(u_out);
  }

  // ---- 3D ----

  // The halo fills u_in's ghosts (a reflecting side negates the normal
  // momentum), then the fused stage computes W as it goes, or the split
  // kernels from W of the whole block.
  Real volume_stage(const State& u_base, const State& u_in, const State& u_out, Real a, Real b, Real dt,
                    bool find_dt_bound) {
    halo_.fill(VolumeComponents<State>{u_in});
    if (!p_.fused_stage) {
      for_each_3d("euler::primitives", 0, grid_.extent(2), 0, grid_.extent(1), 0, grid_.extent(0),
                  Primitives_3d<Real, true>{u_in, w_, Real(p_.gamma)});
      if (p_.scalars > 0)  // the split kernels only (the constructor refuses the fused stage with scalars)
        for_each_3d("euler::scalar_primitives", 0, grid_.extent(2), 0, grid_.extent(1), 0, grid_.extent(0),
                    ScalarPrimitives<Array4<Real>, NPRIM_3D>{u_in, w_, p_.scalars});
    }
    const long i0 = grid_.begin(0), i1 = grid_.end(0), j0 = grid_.begin(1), j1 = grid_.end(1), k0 = grid_.begin(2),
               k1 = grid_.end(2);
    Real bound = Kokkos::reduction_identity<Real>::min();
    with_face_scheme(p_, [&](auto scheme) {
      using Scheme = decltype(scheme);
      if constexpr (!Scheme::tutorial) {
        const Real gamma = Real(p_.gamma);
        if (p_.fused_stage) {
          const long begin[3] = {i0, j0, k0}, end[3] = {i1, j1, k1};
          bound = with_blend(a, b, [&](auto blend) {
            return volume_fused_stage<Real, Scheme, decltype(blend)::value>(u_base, u_in, u_out, width_, inverse_,
                                                                            gamma, a, b, dt, find_dt_bound, begin, end);
          });
          return;
        }
        for_each_3d("euler::fluxes_x", k0, k1, j0, j1, i0, i1 + 1, FaceFluxes_3d<Real, 0, Scheme>{w_, fx_, gamma});
        for_each_3d("euler::fluxes_y", k0, k1, j0, j1 + 1, i0, i1, FaceFluxes_3d<Real, 1, Scheme>{w_, fy_, gamma});
        for_each_3d("euler::fluxes_z", k0, k1 + 1, j0, j1, i0, i1, FaceFluxes_3d<Real, 2, Scheme>{w_, fz_, gamma});
        if (p_.viscous()) {
          for_each_3d("euler::viscous_fluxes_x", k0, k1, j0, j1, i0, i1 + 1, viscous_fluxes<0>(fx_));
          for_each_3d("euler::viscous_fluxes_y", k0, k1, j0, j1 + 1, i0, i1, viscous_fluxes<1>(fy_));
          for_each_3d("euler::viscous_fluxes_z", k0, k1 + 1, j0, j1, i0, i1, viscous_fluxes<2>(fz_));
        }
        if (p_.scalars > 0) {  // from the mass fluxes just computed
          using A = Array4<Real>;
          for_each_3d("euler::scalar_fluxes_x", k0, k1, j0, j1, i0, i1 + 1,
                      ScalarFluxes<Real, 0, Scheme, A, NPRIM_3D>{w_, fx_, p_.scalars});
          for_each_3d("euler::scalar_fluxes_y", k0, k1, j0, j1 + 1, i0, i1,
                      ScalarFluxes<Real, 1, Scheme, A, NPRIM_3D>{w_, fy_, p_.scalars});
          for_each_3d("euler::scalar_fluxes_z", k0, k1 + 1, j0, j1, i0, i1,
                      ScalarFluxes<Real, 2, Scheme, A, NPRIM_3D>{w_, fz_, p_.scalars});
        }
        with_blend(a, b, [&](auto blend) {
          constexpr bool B = decltype(blend)::value;
          const Update_3d<Real, B, true> gas{u_base,      u_in,        u_out,       fx_, fy_, fz_,
                                             inverse_[0], inverse_[1], inverse_[2], a,   b,   dt};
          for_each_3d("euler::update", k0, k1, j0, j1, i0, i1, gas);
          if (p_.scalars > 0)
            for_each_3d("euler::scalar_update", k0, k1, j0, j1, i0, i1,
                        ScalarUpdate<Update_3d<Real, B, true>>{gas, p_.scalars});
        });
        // W still holds u_in's primitives (u_out may be u_in itself).
        if (p_.has_gravity())
          for_each_3d("euler::gravity", k0, k1, j0, j1, i0, i1,
                      GravitySource<Real, Array4<Real>>{w_, u_out, fx_, fy_, fz_, Real(p_.gravity[0]),
                                                        Real(p_.gravity[1]), Real(p_.gravity[2]), b * dt});
        if (sources_.count > 0)
          for_each_3d(
              "euler::sources", k0, k1, j0, j1, i0, i1,
              gas::ApplySources<Real, State>{sources_, w_, u_out, int(NPRIM_3D), p_.scalars, stage_time_, b * dt});
      }
    });
    return bound;
  }

  Params p_;
  Decomposition dec_;
  GridBlock grid_;
  State u_, u_stage_, u_stage2_, w_, fx_, fy_, fz_;
  mutable State output_;                         // 3D forward Euler's output primitives (output_primitives)
  std::array<Array1<Real>, 3> width_, inverse_;  // cell widths and their reciprocals along x, y (and z)
  InflowGhosts<Real> inflow_;                    // the inflow sides' ghost values (before halo_, which holds them)
  HaloExchange<Real> halo_;
  gas::DeviceSources<Real> sources_;  // the user's source terms (sources.*), none: count 0
  long step_ = 0;
  double time_ = 0;
  double stage_time_ = 0;  // the time the stage's input stands for (advance's at_time)
  // The fused stage's bound on the next dt, found by the last stage of a
  // step; not known after U was set from outside a step.
  Real dt_bound_ = 0;
  bool dt_bound_known_ = false;
};

}  // namespace cfd::euler
