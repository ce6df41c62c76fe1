// The euler2d method on a 3D grid (grid.nz > 1): conserved U(var, k, j, i)
// on a block with two ghost layers in each direction, and a Runge-Kutta
// stage: the halo fills U's ghosts in x, y and z in turn, then one kernel
// computes the primitives, the faces' fluxes and the update, walking
// columns of tiles plane by plane (the fused stage, volume_fused_stage.hpp,
// the default: U and the stages' buffers are the whole footprint), or with
// euler2d.fused_stage: false the kernels of volume_kernels.hpp, W of the
// block, the x, y and z fluxes into arrays and the update from them (the
// same bits). Gravity and passive scalars run the split kernels, as in 2D
// (GravitySource and the Scalar* kernels: one source for both). The inflow
// sides (inflow_ghosts.hpp, one source with 2D), on any of the six sides,
// work with the fused stage and the split kernels: their ghosts hold U. The 2D
// solver (euler2d_solver.hpp) keeps the tutorial's faces; euler2d::params
// refuses those with grid.nz > 1, naming the key.
#pragma once

#include "core/block_cells.hpp"
#include "core/checkpoint.hpp"
#include "core/decomposition.hpp"
#include "core/grid.hpp"
#include "core/halo.hpp"
#include "core/parallel.hpp"
#include "core/snapshot.hpp"
#include "physics/euler2d/euler2d_params.hpp"
#include "physics/euler2d/euler2d_solver.hpp"  // Totals
#include "physics/euler2d/inflow_ghosts.hpp"
#include "physics/euler2d/runge_kutta.hpp"
#include "physics/euler2d/volume_fused_stage.hpp"
#include "physics/euler2d/volume_kernels.hpp"
#include "physics/gas/state_fields.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cfd::euler2d {

// The global grid of a 3D case: nx x ny x nz cells with two ghost layers.
inline GridBlock make_volume_grid(const Params& p) {
  return GridBlock::whole(3, Centering::cell, {p.nx, p.ny, p.nz}, ghost, p.lo, p.hi);
}
inline std::array<bool, 3> volume_periodic(const Params& p) {
  return {p.boundary[0] == BoundaryKind::periodic, p.boundary[2] == BoundaryKind::periodic,
          p.boundary_z[0] == BoundaryKind::periodic};
}

template <class Real>
class VolumeSolver {
 public:
  explicit VolumeSolver(const Params& p) : VolumeSolver(p, decompose(make_volume_grid(p), volume_periodic(p))) {}
  VolumeSolver(const Params& p, const Decomposition& dec)
      : p_(p),
        dec_(dec),
        grid_(dec.block),
        u_(array("euler2d::u", NCONS + p.scalars, 0, 0, 0)),
        u_stage_(p.integrator == Integrator::euler && !p.fused_stage
                     ? Array4<Real>()
                     : array("euler2d::u_stage", NCONS + p.scalars, 0, 0, 0)),
        u_stage2_(p.integrator == Integrator::rk3 && p.fused_stage ? array("euler2d::u_stage2", NCONS, 0, 0, 0)
                                                                   : Array4<Real>()),
        w_(p.fused_stage ? Array4<Real>() : array("euler2d::w", NPRIM_VOLUME + p.scalars, 0, 0, 0)),
        fx_(p.fused_stage ? Array4<Real>() : array("euler2d::flux_x", NCONS + p.scalars, 0, 0, 1)),
        fy_(p.fused_stage ? Array4<Real>() : array("euler2d::flux_y", NCONS + p.scalars, 0, 1, 0)),
        fz_(p.fused_stage ? Array4<Real>() : array("euler2d::flux_z", NCONS + p.scalars, 1, 0, 0)),
        inflow_(p.inflow, p.sides(), grid_, NCONS + p.scalars),
        halo_(dec, NCONS + p.scalars, faces()) {
    if (p.problem == nullptr || !p.initial)
      throw std::logic_error("euler2d::VolumeSolver: Params without a problem (make them with euler2d::params)");
    if (grid_.ndim != 3) throw std::logic_error("euler2d::VolumeSolver: a 3D decomposition");
    if (p.original_faces) throw std::logic_error("euler2d::VolumeSolver: the tutorial's faces are 2D only");
    if ((p.has_gravity() || p.scalars > 0) && p.fused_stage)
      throw std::logic_error(
          "euler2d::VolumeSolver: gravity or scalars with the fused stage (euler2d::params chooses the split "
          "kernels)");
    if (int(p.scalar_initial.size()) != p.scalars)
      throw std::logic_error("euler2d::VolumeSolver: an initial concentration for each passive scalar");
    // Widths and their reciprocals as the 2D solver takes them, from the
    // global face coordinates, so that every rank count gets the same ones.
    for (int d = 0; d < 3; ++d) {
      width_[d] = Array1<Real>("euler2d::width", grid_.extent(d));
      inverse_[d] = Array1<Real>("euler2d::inverse_width", grid_.extent(d));
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
  }

  // Face g and the centre of cell g along d, as the 2D solver takes them.
  double face(int d, long g) const { return spacing(d) * static_cast<double>(g) + p_.lo[d]; }
  double centre(int d, long g) const { return 0.5 * (face(d, g) + face(d, g + 1)); }

  void set_initial_state(double time = 0) {
    auto host = Kokkos::create_mirror_view(u_);
    const Real gamma = Real(p_.gamma);
    long bad = std::numeric_limits<long>::max();
    double bad_values[2] = {0, 0};
    for (long k = grid_.begin(2); k < grid_.end(2); ++k)
      for (long j = grid_.begin(1); j < grid_.end(1); ++j)
        for (long i = grid_.begin(0); i < grid_.end(0); ++i) {
          const long gi = grid_.global_index(0, i), gj = grid_.global_index(1, j), gk = grid_.global_index(2, k);
          const gas::Primitive<double> s = p_.initial(centre(0, gi), centre(1, gj), centre(2, gk), time);
          const gas::Conserved<Real> c = gas::to_conserved(
              gas::Primitive<Real>{Real(s.rho), Real(s.vx), Real(s.vy), Real(s.vz), Real(s.p)}, gamma);
          host(IDN, k, j, i) = c.rho, host(IM1, k, j, i) = c.mx, host(IM2, k, j, i) = c.my;
          host(IM3, k, j, i) = c.mz, host(IEN, k, j, i) = c.energy;
          for (int n = 0; n < p_.scalars; ++n)
            host(NCONS + n, k, j, i) = c.rho * Real(p_.scalar_initial[n](centre(0, gi), centre(1, gj), centre(2, gk)));
          const CellPrimitives<Real> w = cell_primitives<true>(c.rho, c.mx, c.my, c.mz, c.energy, gamma);
          const bool finite = std::isfinite(double(w.rho)) && std::isfinite(double(w.vx)) &&
                              std::isfinite(double(w.vy)) && std::isfinite(double(w.vz)) && std::isfinite(double(w.p));
          const long flat = (gk * p_.ny + gj) * p_.nx + gi;
          if ((!finite || !(w.rho > Real(0)) || !(w.p > Real(0))) && flat < bad) {
            bad = flat;
            bad_values[0] = double(w.rho), bad_values[1] = double(w.p);
          }
        }
    refuse_bad_initial_state(bad, bad_values);
    InflowGhosts<Real>::refuse(inflow_ghosts(time), dec_, true);
    Kokkos::deep_copy(u_, host);
    dt_bound_known_ = false;
    step_ = 0;
    time_ = 0;
  }

  // The fused stage finds the bound of the next step with the last stage of
  // this one (from the values it has just written: the same bits); otherwise
  // a kernel finds it.
  double stable_dt() const {
    const Real local =
        dt_bound_known_ ? dt_bound_
                        : min_3d<Real>("euler2d::dt_bound", grid_.begin(2), grid_.end(2), grid_.begin(1), grid_.end(1),
                                       grid_.begin(0), grid_.end(0),
                                       VolumeDtBound<Real, true>{u_, width_[0], width_[1], width_[2], Real(p_.gamma)});
    return local < Real(0) || !(local == local) ? -1.0 : p_.cfl * static_cast<double>(local);
  }

  std::string fault() const {
    auto u = u_;
    const Real gamma = Real(p_.gamma);
    const long first = first_flagged_cell(
        "euler2d::find_bad_cell", grid_, dec_.comm, KOKKOS_LAMBDA(const long k, const long j, const long i) {
          const CellPrimitives<Real> w = cell_primitives<true>(u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i),
                                                               u(IM3, k, j, i), u(IEN, k, j, i), gamma);
          return !(w.rho > 0) || !(w.p > 0);
        });
    if (first < 0) return "";
    const long nx = p_.nx, ny = p_.ny;
    const long gi = first % nx, gj = first / nx % ny, gk = first / (nx * ny);
    double values[2] = {0, 0};
    const long li = gi - grid_.offset[0] + grid_.begin(0), lj = gj - grid_.offset[1] + grid_.begin(1),
               lk = gk - grid_.offset[2] + grid_.begin(2);
    const bool owner = li >= grid_.begin(0) && li < grid_.end(0) && lj >= grid_.begin(1) && lj < grid_.end(1) &&
                       lk >= grid_.begin(2) && lk < grid_.end(2);
    if (owner) {
      Real c[NCONS];
      for (int v = 0; v < NCONS; ++v) Kokkos::deep_copy(c[v], Kokkos::subview(u_, v, lk, lj, li));
      const CellPrimitives<Real> w = cell_primitives<true>(c[IDN], c[IM1], c[IM2], c[IM3], c[IEN], gamma);
      values[0] = w.rho, values[1] = w.p;
    }
    dec_.comm.from_owner(owner, values, 2);
    return "non-physical state at step " + std::to_string(step_) + ", t = " + format_real(time_) +
           ": cell (i, j, k) = (" + std::to_string(gi + 1) + ", " + std::to_string(gj + 1) + ", " +
           std::to_string(gk + 1) + ") has density " + format_real(values[0]) + " and pressure " +
           format_real(values[1]);
  }

  void advance(double dt) {
    // The fused stage reads u_in around each cell, so no stage of it may
    // write its input (runge_kutta.hpp); the split kernels read u_in at its
    // own cell only (and W), so they update in place. Either way the same
    // arithmetic. Each stage's inflow ghosts at the time its state stands for.
    const auto at = [&](double c) { inflow_ghosts(time_ + c * dt); };
    const auto one_stage = [&](const Array4<Real>& u_base, const Array4<Real>& u_in, const Array4<Real>& u_out, Real a,
                               Real b, Real h, bool last) { return stage(u_base, u_in, u_out, a, b, h, last); };
    dt_bound_ = ssp_step(p_.integrator, p_.fused_stage, u_, u_stage_, u_stage2_, Real(dt), at, one_stage);
    dt_bound_known_ = p_.fused_stage;
    ++step_;
    time_ += dt;
  }

  // The totals over the box (sum of value * cell volume); kh_mode is
  // McNally's amplitude over the whole volume, as the 2D solver's over its area.
  Totals totals() const {
    auto u = u_;
    auto dx = width_[0], dy = width_[1], dz = width_[2];
    const double hx = 1.0 / p_.nx, hy = 1.0 / p_.ny;
    const long x0 = grid_.offset[0] - grid_.begin(0), y0 = grid_.offset[1] - grid_.begin(1);
    double m = 0, mx = 0, my = 0, mz = 0, en = 0, s = 0, c = 0, d = 0;
    Kokkos::parallel_reduce(
        "euler2d::totals", interior(),
        KOKKOS_LAMBDA(const long k, const long j, const long i, double& am, double& amx, double& amy, double& amz,
                      double& aen, double& as, double& ac, double& ad) {
          const double dv = static_cast<double>(dx(i)) * static_cast<double>(dy(j)) * static_cast<double>(dz(k));
          am += u(IDN, k, j, i) * dv;
          amx += u(IM1, k, j, i) * dv;
          amy += u(IM2, k, j, i) * dv;
          amz += u(IM3, k, j, i) * dv;
          aen += u(IEN, k, j, i) * dv;
          const double pi = 3.14159265358979323846;
          const double x = (x0 + i + 0.5) * hx, y = (y0 + j + 0.5) * hy;
          const double e =
              y < 0.5 ? kmath::exp(-4 * pi * kmath::fabs(y - 0.25)) : kmath::exp(-4 * pi * kmath::fabs((1 - y) - 0.25));
          const double vy = u(IM2, k, j, i) / u(IDN, k, j, i);
          as += vy * kmath::sin(4 * pi * x) * e * dv;
          ac += vy * kmath::cos(4 * pi * x) * e * dv;
          ad += e * dv;
        },
        m, mx, my, mz, en, s, c, d);
    double sums[8] = {m, mx, my, mz, en, s, c, d};
    dec_.comm.sum(sums, 8);
    const double ms = sums[5] / sums[7], mc = sums[6] / sums[7];
    return {sums[0], sums[1], sums[2], sums[4], 2 * std::sqrt(ms * ms + mc * mc), sums[3]};
  }

  // Primitive fields of this block's cells on the host, x fastest: rho, vx,
  // vy, vz, p, then the scalars' concentrations s1, s2, ... (2D's names).
  std::vector<HostField<Real>> fields() const {
    const long k0 = grid_.begin(2), k1 = grid_.end(2), j0 = grid_.begin(1), j1 = grid_.end(1), i0 = grid_.begin(0),
               i1 = grid_.end(0);
    with_reciprocal([&](auto) {
      for_each_3d("euler2d::output_primitives", k0, k1, j0, j1, i0, i1,
                  VolumePrimitives<Real, true>{u_, u_stage_out(), Real(p_.gamma)});
    });
    std::vector<HostField<Real>> out{{"rho", {}, "1", "density"},
                                     {"vx", {}, "1", "velocity along x"},
                                     {"vy", {}, "1", "velocity along y"},
                                     {"vz", {}, "1", "velocity along z"},
                                     {"p", {}, "1", "pressure"}};
    if (p_.scalars > 0) {
      static_assert(int(NPRIM_VOLUME) == int(NCONS), "the output's scalars in U's rows");
      for_each_3d("euler2d::output_scalars", k0, k1, j0, j1, i0, i1,
                  ScalarPrimitives<Array4<Real>, NPRIM_VOLUME>{u_, u_stage_out(), p_.scalars});
    }
    for (int n = 0; n < p_.scalars; ++n)
      out.push_back(
          {"s" + std::to_string(n + 1), {}, "1", "passive scalar " + std::to_string(n + 1) + ", a concentration"});
    return owned_fields(u_stage_out(), std::move(out), grid_);
  }

  // The conserved state (a checkpoint's): U's rows, then each scalar's rho*s_k (2D's names).
  std::vector<HostField<Real>> state() const {
    std::vector<HostField<Real>> out = gas::conserved_fields<Real>();
    for (int n = 0; n < p_.scalars; ++n)
      out.push_back({"scalar_" + std::to_string(n + 1), {}, "1", "rho * s" + std::to_string(n + 1)});
    return owned_fields(u_, std::move(out), grid_);
  }
  // The conserved state of the owned cells, component after component.
  std::vector<Real> conserved() const {
    std::vector<Real> out;
    for (const auto& f : state()) out.insert(out.end(), f.values.begin(), f.values.end());
    return out;
  }
  Attributes clock() const { return {{"step", static_cast<double>(step_)}, {"time", time_}}; }
  void restore(const std::vector<HostField<Real>>& state, const Attributes& clock) {
    restore_owned_cells(u_, state, NCONS + p_.scalars, grid_);
    inflow_.stale();
    dt_bound_known_ = false;
    step_ = static_cast<long>(clock_value(clock, "step"));
    time_ = clock_value(clock, "time");
  }
  const HaloExchange<Real>& halo() const { return halo_; }

  void release() {
    u_ = u_stage_ = u_stage2_ = w_ = fx_ = fy_ = fz_ = output_ = Array4<Real>();
    for (auto& a : width_) a = Array1<Real>();
    for (auto& a : inverse_) a = Array1<Real>();
    inflow_.release();
    halo_.release();
  }

  long step() const { return step_; }
  double time() const { return time_; }
  void land_on(double time) { time_ = time; }
  const GridBlock& grid() const { return grid_; }
  long updates_per_step() const { return grid_.owned_count(); }
  // Each passive scalar's total, the sum of rho*s_k times the cell volume
  // (the history's scalar_k columns).
  std::vector<double> scalar_totals() const {
    std::vector<double> sums(p_.scalars, 0.0);
    auto u = u_;
    auto dx = width_[0], dy = width_[1], dz = width_[2];
    for (int n = 0; n < p_.scalars; ++n) {
      const int v = NCONS + n;
      Kokkos::parallel_reduce(
          "euler2d::scalar_totals", interior(),
          KOKKOS_LAMBDA(const long k, const long j, const long i, double& sum) {
            sum +=
                u(v, k, j, i) * (static_cast<double>(dx(i)) * static_cast<double>(dy(j)) * static_cast<double>(dz(k)));
          },
          sums[n]);
    }
    if (!sums.empty()) dec_.comm.sum(sums.data(), int(sums.size()));
    return sums;
  }

 private:
  double spacing(int d) const {
    const long n = d == 0 ? p_.nx : d == 1 ? p_.ny : p_.nz;
    return (p_.hi[d] - p_.lo[d]) / static_cast<double>(n);
  }
  // A (var, k, j, i) array over the block with its ghosts and `more` entries
  // along each direction (the faces of a flux array).
  Array4<Real> array(const std::string& label, int vars, int more_k, int more_j, int more_i) const {
    return Array4<Real>(label, vars, grid_.extent(2) + more_k, grid_.extent(1) + more_j, grid_.extent(0) + more_i);
  }
  // Where fields() writes the output primitives: the stage buffer between
  // steps, or with forward Euler (which has none) an array of its own.
  Array4<Real> u_stage_out() const {
    if (u_stage_.extent(0) > 0) return u_stage_;
    if (output_.extent(0) == 0) output_ = array("euler2d::output", NCONS + p_.scalars, 0, 0, 0);
    return output_;
  }
  template <class F>
  void with_reciprocal(F&& f) const {
    f(std::true_type{});  // every scheme of 3D takes its primitives by a reciprocal (FaceScheme::reciprocal)
  }
  using Interior = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>, Kokkos::IndexType<long>>;
  Interior interior() const {
    return Interior({grid_.begin(2), grid_.begin(1), grid_.begin(0)}, {grid_.end(2), grid_.end(1), grid_.end(0)});
  }

  FaceBoundaries<Real> faces() const {
    FaceBoundaries<Real> f;
    f.kind[0] = {p_.boundary[0], p_.boundary[1]};
    f.kind[1] = {p_.boundary[2], p_.boundary[3]};
    f.kind[2] = {p_.boundary_z[0], p_.boundary_z[1]};
    f.normal_component = {IVX, IVY, IVZ};
    inflow_.attach(f);
    return f;
  }

  // The inflow sides' ghost values at `time` (inflow_ghosts.hpp): U in the
  // working precision (the halo fills U's ghosts; no scalar flows in).
  typename InflowGhosts<Real>::Bad inflow_ghosts(double time) {
    const Real gamma = Real(p_.gamma);
    const auto position = [&](long i, long j, long k) {
      return std::array<double, 3>{centre(0, grid_.global_index(0, i)), centre(1, grid_.global_index(1, j)),
                                   centre(2, grid_.global_index(2, k))};
    };
    const auto primitives = [gamma](const gas::Conserved<Real>& c) {
      return cell_primitives<true>(c.rho, c.mx, c.my, c.mz, c.energy, gamma);
    };
    const int scalars = p_.scalars;
    const auto store = [scalars](const auto& host, long layer, long t, const gas::Conserved<Real>& c,
                                 const CellPrimitives<Real>&) {
      InflowGhosts<Real>::store_conserved(host, layer, t, c, scalars);
    };
    return inflow_.refresh(time, dec_, gamma, position, primitives, store);
  }

  void refuse_bad_initial_state(long bad, const double values[2]) const {
    const long first = dec_.comm.min(bad);
    if (first == std::numeric_limits<long>::max()) return;
    double v[2] = {values[0], values[1]};
    dec_.comm.from_owner(first == bad, v, 2);
    const long i = first % p_.nx, j = first / p_.nx % p_.ny, k = first / (p_.nx * p_.ny);
    const std::string what = !std::isfinite(v[0]) || !(v[0] > 0)   ? "density " + format_real(v[0])
                             : !std::isfinite(v[1]) || !(v[1] > 0) ? "pressure " + format_real(v[1])
                                                                   : std::string("a velocity that is not finite");
    throw ConfigError("euler2d: error: the initial state of problem " + std::string(p_.problem->name) +
                      " is not physical: cell (i, j, k) = (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                      ", " + std::to_string(k + 1) + ") at (x, y, z) = (" + format_real(centre(0, i)) + ", " +
                      format_real(centre(1, j)) + ", " + format_real(centre(2, k)) + ") has " + what +
                      "; density and pressure must be positive and finite in the working precision (" +
                      (sizeof(Real) == 4 ? "fp32" : "fp64") + ")");
  }

  // u_out = a*u_base + b*(u_in + dt*L(u_in)): the halo fills u_in's ghosts
  // (a reflecting side negates the normal momentum, which gives the
  // primitives' bits of negating the normal velocity), then the fused stage
  // computes W as it goes, or the split kernels from W of the whole block.
  // Returns the fused stage's bound on the next dt over the block when
  // find_dt_bound (otherwise, and from the split kernels, the largest Real).
  Real stage(const Array4<Real>& u_base, const Array4<Real>& u_in, const Array4<Real>& u_out, Real a, Real b, Real dt,
             bool find_dt_bound) {
    halo_.fill(VolumeComponents<Array4<Real>>{u_in});
    if (!p_.fused_stage) {
      for_each_3d("euler2d::primitives", 0, grid_.extent(2), 0, grid_.extent(1), 0, grid_.extent(0),
                  VolumePrimitives<Real, true>{u_in, w_, Real(p_.gamma)});
      if (p_.scalars > 0)  // the split kernels only (the constructor refuses the fused stage with scalars)
        for_each_3d("euler2d::scalar_primitives", 0, grid_.extent(2), 0, grid_.extent(1), 0, grid_.extent(0),
                    ScalarPrimitives<Array4<Real>, NPRIM_VOLUME>{u_in, w_, p_.scalars});
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
          const auto fused = [&](auto blend) {
            bound = volume_fused_stage<Real, Scheme, decltype(blend)::value>(
                u_base, u_in, u_out, width_, inverse_, gamma, a, b, dt, find_dt_bound, begin, end);
          };
          if (a == Real(0) && b == Real(1))
            fused(std::false_type{});
          else
            fused(std::true_type{});
          return;
        }
        for_each_3d("euler2d::fluxes_x", k0, k1, j0, j1, i0, i1 + 1, VolumeFaceFluxes<Real, 0, Scheme>{w_, fx_, gamma});
        for_each_3d("euler2d::fluxes_y", k0, k1, j0, j1 + 1, i0, i1, VolumeFaceFluxes<Real, 1, Scheme>{w_, fy_, gamma});
        for_each_3d("euler2d::fluxes_z", k0, k1 + 1, j0, j1, i0, i1, VolumeFaceFluxes<Real, 2, Scheme>{w_, fz_, gamma});
        if (p_.scalars > 0) {  // from the mass fluxes just computed
          using A = Array4<Real>;
          for_each_3d("euler2d::scalar_fluxes_x", k0, k1, j0, j1, i0, i1 + 1,
                      ScalarFluxes<Real, 0, Scheme, A, NPRIM_VOLUME>{w_, fx_, p_.scalars});
          for_each_3d("euler2d::scalar_fluxes_y", k0, k1, j0, j1 + 1, i0, i1,
                      ScalarFluxes<Real, 1, Scheme, A, NPRIM_VOLUME>{w_, fy_, p_.scalars});
          for_each_3d("euler2d::scalar_fluxes_z", k0, k1 + 1, j0, j1, i0, i1,
                      ScalarFluxes<Real, 2, Scheme, A, NPRIM_VOLUME>{w_, fz_, p_.scalars});
        }
        const auto update = [&](auto blend) {
          constexpr bool B = decltype(blend)::value;
          const VolumeUpdate<Real, B, true> gas{u_base,      u_in,        u_out,       fx_, fy_, fz_,
                                                inverse_[0], inverse_[1], inverse_[2], a,   b,   dt};
          for_each_3d("euler2d::update", k0, k1, j0, j1, i0, i1, gas);
          if (p_.scalars > 0)
            for_each_3d("euler2d::scalar_update", k0, k1, j0, j1, i0, i1,
                        ScalarUpdate<VolumeUpdate<Real, B, true>>{gas, p_.scalars});
        };
        if (a == Real(0) && b == Real(1))
          update(std::false_type{});
        else
          update(std::true_type{});
        // W still holds u_in's primitives (u_out may be u_in itself).
        if (p_.has_gravity())
          for_each_3d("euler2d::gravity", k0, k1, j0, j1, i0, i1,
                      GravitySource<Real, Array4<Real>>{w_, u_out, fx_, fy_, fz_, Real(p_.gravity[0]),
                                                        Real(p_.gravity[1]), Real(p_.gravity[2]), b * dt});
      }
    });
    return bound;
  }

  Params p_;
  Decomposition dec_;
  GridBlock grid_;
  Array4<Real> u_, u_stage_, u_stage2_, w_, fx_, fy_, fz_;
  mutable Array4<Real> output_;
  std::array<Array1<Real>, 3> width_, inverse_;
  InflowGhosts<Real> inflow_;  // the inflow sides' ghost values (before halo_, which holds them)
  HaloExchange<Real> halo_;
  long step_ = 0;
  double time_ = 0;
  // The fused stage's bound on the next dt, found by the last step's last
  // stage; not known after U was set from outside a step.
  Real dt_bound_ = 0;
  bool dt_bound_known_ = false;
};

}  // namespace cfd::euler2d
