// The navier_stokes solver on a 2D (Dim 2) or 3D block, one source: a
// Runge-Kutta stage is W from U (state.hpp), W's ghosts from the halo and
// the walls, direction after direction (walls.hpp), the velocity gradient
// (gradients.hpp), and the stage update of each cell from its faces' KEEP
// and viscous fluxes (update.hpp, fluxes.hpp). The order (2, 4, 6) is a
// template argument of the kernels, chosen once per stage.
#pragma once

#include "core/block_cells.hpp"
#include "core/checkpoint.hpp"
#include "core/decomposition.hpp"
#include "core/grid.hpp"
#include "core/halo.hpp"
#include "core/parallel.hpp"
#include "core/snapshot.hpp"
#include "physics/gas/state_fields.hpp"
#include "physics/navier_stokes/diagnostics.hpp"
#include "physics/navier_stokes/gradients.hpp"
#include "physics/navier_stokes/launch_shapes.hpp"
#include "physics/navier_stokes/navier_stokes_params.hpp"
#include "physics/navier_stokes/time_step.hpp"
#include "physics/navier_stokes/update.hpp"
#include "physics/navier_stokes/walls.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cfd::navier_stokes {

inline GridBlock make_grid(const Params& p) {
  return GridBlock::whole(p.dimensions(), Centering::cell, {p.nx, p.ny, p.nz}, p.ghost_width(), p.lo, p.hi);
}
inline std::array<bool, 3> periodic(const Params& p) {
  return {!p.sides[0].is_wall(), !p.sides[2].is_wall(), !p.sides[4].is_wall()};
}

// Calls f(std::integral_constant<int, Half>) for the order's half width.
template <class F>
void with_half_width(int order, F&& f) {
  if (order == 2)
    f(std::integral_constant<int, 1>{});
  else if (order == 4)
    f(std::integral_constant<int, 2>{});
  else if (order == 6)
    f(std::integral_constant<int, 3>{});
  else
    throw std::logic_error("navier_stokes: order " + std::to_string(order) + " (2, 4 or 6)");
}

template <class Real, int Dim>
class Solver {
 public:
  explicit Solver(const Params& p) : Solver(p, decompose(make_grid(p), periodic(p))) {}
  Solver(const Params& p, const Decomposition& dec)
      : p_(p),
        dec_(dec),
        grid_(dec.block),
        u_(array("navier_stokes::u", NCONS)),
        u_stage_(array("navier_stokes::u_stage", NCONS)),
        acc_(p.integrator == Integrator::rk4 ? array("navier_stokes::rk4_sum", NCONS) : Array4<Real>()),
        w_(array("navier_stokes::w", NPRIM)),
        g_(array("navier_stokes::velocity_gradient", 3 * Dim)),
        faces_{face_array(0), face_array(1), Dim == 3 ? face_array(2) : Array4<Real>()},
        theta_(p.hybrid() ? array("navier_stokes::shock_sensor", 1) : Array4<Real>()),
        halo_(dec, NPRIM, faces()) {
    if (p.problem == nullptr || !p.initial)
      throw std::logic_error("navier_stokes::Solver: Params without a problem (make them with params())");
    if (grid_.ndim != Dim || p.dimensions() != Dim)
      throw std::logic_error("navier_stokes::Solver: the grid's dimensions are not the solver's");
    for (int d = 0; d < 3; ++d) {
      const long n = d == 0 ? p.nx : d == 1 ? p.ny : p.nz;
      h_[d] = (p.hi[d] - p.lo[d]) / static_cast<double>(n);
      inverse_h_[d] = d < Dim ? Real(static_cast<double>(n) / (p.hi[d] - p.lo[d])) : Real(0);
    }
    gas_ = {gas::gas_model<Real>(p.gamma, p.R, p.Pr, p.viscosity), p.pressure_equilibrium};
    for (int d = 0; d < Dim; ++d) {
      if (p.side(d, 0).is_wall() && !dec_.has_neighbour(d, 0)) walls_.lo[d] = grid_.begin(d);
      if (p.side(d, 1).is_wall() && !dec_.has_neighbour(d, 1)) walls_.hi[d] = grid_.end(d);
    }
    if (p.sources.any()) {
      std::vector<double> centres[3];
      for (int d = 0; d < 3; ++d)
        for (long k = 0; k < grid_.extent(d); ++k)
          centres[d].push_back(d < Dim ? centre(d, grid_.global_index(d, k)) : 0.0);
      sources_ = gas::device_sources<Real>(p.sources, centres);
    }
  }

  double centre(int d, long g) const { return p_.lo[d] + (static_cast<double>(g) + 0.5) * h_[d]; }

  void set_initial_state(double time = 0) {
    auto host = Kokkos::create_mirror_view(u_);
    const double gamma = p_.gamma;
    long bad = std::numeric_limits<long>::max();
    for (long k = grid_.begin(2); k < grid_.end(2); ++k)
      for (long j = grid_.begin(1); j < grid_.end(1); ++j)
        for (long i = grid_.begin(0); i < grid_.end(0); ++i) {
          const long gi = grid_.global_index(0, i), gj = grid_.global_index(1, j), gk = grid_.global_index(2, k);
          gas::Primitive<double> s = p_.initial(centre(0, gi), centre(1, gj), Dim == 3 ? centre(2, gk) : 0.0, time);
          if (Dim == 2) s.vz = 0;  // a 2D state has no motion along z (params refuses a wall's vz)
          const gas::Conserved<double> c = gas::to_conserved(s, gamma);
          host(IDN, k, j, i) = Real(c.rho), host(IM1, k, j, i) = Real(c.mx), host(IM2, k, j, i) = Real(c.my);
          host(IM3, k, j, i) = Real(c.mz), host(IEN, k, j, i) = Real(c.energy);
          const bool finite = std::isfinite(s.rho) && std::isfinite(s.vx) && std::isfinite(s.vy) &&
                              std::isfinite(s.vz) && std::isfinite(s.p);
          const long flat = (gk * p_.ny + gj) * p_.nx + gi;
          if ((!finite || !(s.rho > 0) || !(s.p > 0)) && flat < bad) bad = flat;
        }
    const long first = dec_.comm.min(bad);
    if (first != std::numeric_limits<long>::max())
      throw ConfigError("navier_stokes: error: the initial state of problem " + std::string(p_.problem->name) +
                        " is not physical at cell (i, j, k) = (" + std::to_string(first % p_.nx + 1) + ", " +
                        std::to_string(first / p_.nx % p_.ny + 1) + ", " + std::to_string(first / (p_.nx * p_.ny) + 1) +
                        "): density and pressure must be positive and finite");
    Kokkos::deep_copy(u_, host);
    step_ = 0;
    time_ = 0;
  }

  double allowed_dt() const {
    Real curvature = Real(0);  // sum_d 1/h_d^2
    for (int d = 0; d < Dim; ++d) curvature += inverse_h_[d] * inverse_h_[d];
    const Real local =
        min_3d<Real>("navier_stokes::dt_bound", grid_.begin(2), grid_.end(2), grid_.begin(1), grid_.end(1),
                     grid_.begin(0), grid_.end(0),
                     DtBound<Real, Dim>{
                         u_, {Real(h_[0]), Real(h_[1]), Real(h_[2])}, curvature, gas_, Real(p_.cfl), Real(p_.fourier)});
    if (local < Real(0) || !(local == local)) return -1.0;
    // A fixed step is taken as long as the state is physical.
    const double gas = p_.fixed_dt > 0 ? p_.fixed_dt : static_cast<double>(local);
    if (!p_.sources.bounded) return gas;
    const Real bound = source_dt_bound();
    return !(bound > Real(0)) ? -1.0 : std::min(gas, static_cast<double>(bound));
  }

  // The minimum of sources.dt_bound over this block's cells.
  Real source_dt_bound() const {
    return min_3d<Real>("navier_stokes::source_dt_bound", grid_.begin(2), grid_.end(2), grid_.begin(1), grid_.end(1),
                        grid_.begin(0), grid_.end(0),
                        gas::SourceDtBound<Real, Array4<Real>>{sources_, u_, Real(p_.gamma), 0, time_});
  }

  std::string fault() const {
    auto u = u_;
    const GasModel<Real> gas = gas_;
    const long first = first_flagged_cell(
        "navier_stokes::find_bad_cell", grid_, dec_.comm, KOKKOS_LAMBDA(const long k, const long j, const long i) {
          const CellState<Real> s = cell_state(u, k, j, i, gas);
          return !(s.rho > 0) || !(s.p > 0);
        });
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
    return "non-physical state at step " + std::to_string(step_) + ", t = " + format_real(time_) +
           ": cell (i, j, k) = (" + std::to_string(g[0] + 1) + ", " + std::to_string(g[1] + 1) + ", " +
           std::to_string(g[2] + 1) + ") has a density or pressure that is not positive";
  }

  // A step: the stages of the integrator's table (physics/gas/integrators.hpp).
  // Every stage but the last writes u_stage, which the next reads (in place:
  // a cell's update reads only its own entries of it); the last writes u.
  void advance(double dt) {
    const Real h = Real(dt);
    const gas::IntegratorMethod& m = gas::integrator_method(p_.integrator);
    for (int s = 0; s < m.stages; ++s) {
      const gas::IntegratorStage& c = m.stage[s];
      const bool last = s == m.stages - 1;
      StageRule<Real> rule;
      if (m.convex) {
        rule.kind = StageKind::ssp;
        rule.a = c.a.template as<Real>(), rule.b = c.b.template as<Real>(), rule.dt = h;
      } else {
        rule.kind = StageKind::rk4;
        rule.first = s == 0, rule.last = last;
        rule.w_acc = c.w_acc.template as<Real>();
        rule.dt = c.w_out.scaled(h);  // w_out dt, as dt * num / den
      }
      stage_time_ = time_ + c.time.value() * dt;
      stage(s == 0 ? u_ : u_stage_, {u_, last ? u_ : u_stage_, rule});
    }
    ++step_;
    time_ += dt;
  }

  // The budgets and totals of the history file (diagnostics.hpp).
  // With the hybrid flux, the rates of all terms are the hybrid's (the
  // faces' fluxes as a stage takes them); the single terms' are KEEP's.
  Diagnostics diagnostics() const {
    fill_primitives(u_, true, p_.hybrid());
    Diagnostics out = totals(terms_rate(all_terms));
    if (p_.viscosity.law != gas::ViscosityLaw::none) out.ke_rate_viscous = terms_rate(viscous).kinetic_energy;
    const Rates c = terms_rate(convection), pr = terms_rate(pressure);
    out.ke_rate_convection = c.kinetic_energy;
    out.ke_rate_pressure = pr.kinetic_energy;
    return out;
  }

  // The spatial operator's right-hand side L (dU/dt = L) of the current
  // state, only the `terms` of fluxes.hpp, component after component over
  // the owned cells: what the budgets sum, and what the tests hold against
  // analytic derivatives. With the hybrid flux, all_terms is the hybrid's
  // and the single terms are KEEP's (so they need not add up to it).
  std::vector<std::vector<Real>> right_hand_side(int terms) const {
    fill_primitives(u_, true, p_.hybrid());
    evaluate(terms);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_stage_);
    std::vector<std::vector<Real>> out;
    for (int v = 0; v < NCONS; ++v) out.push_back(owned_cells(host, v, grid_));
    return out;
  }

  std::vector<HostField<Real>> fields() const {
    fill_primitives(u_, false);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), w_);
    std::vector<HostField<Real>> out{
        {"rho", {}, "1", "density"}, {"vx", {}, "1", "velocity along x"}, {"vy", {}, "1", "velocity along y"}};
    std::vector<int> slots{IDN, IVX, IVY};
    if (Dim == 3) out.push_back({"vz", {}, "1", "velocity along z"}), slots.push_back(IVZ);
    out.push_back({"p", {}, "1", "pressure"}), slots.push_back(IPR);
    out.push_back({"T", {}, "1", "temperature p/(rho R)"}), slots.push_back(ITM);
    for (size_t f = 0; f < out.size(); ++f) out[f].values = owned_cells(host, slots[f], grid_);
    if (p_.hybrid()) {  // where the hybrid flux switches (shock_sensor.hpp)
      fill_sensor();
      auto theta = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), theta_);
      out.push_back({"shock_sensor", owned_cells(theta, 0, grid_), "1",
                     "shock sensor: the larger of Ducros' max(-div v/sqrt(div v^2 + |curl v|^2 + eps^2), 0) "
                     "and Jameson's pressure sensor; faces near cells above navier_stokes.sensor_threshold take "
                     "the upwind flux"});
    }
    return out;
  }

  std::vector<HostField<Real>> state() const { return owned_fields(u_, gas::conserved_fields<Real>(), grid_); }
  Attributes clock() const { return {{"step", static_cast<double>(step_)}, {"time", time_}}; }
  void restore(const std::vector<HostField<Real>>& state, const Attributes& clock) {
    restore_owned_cells(u_, state, NCONS, grid_);
    step_ = static_cast<long>(clock_value(clock, "step"));
    time_ = clock_value(clock, "time");
  }
  const HaloExchange<Real>& halo() const { return halo_; }
  void release() {
    u_ = u_stage_ = acc_ = w_ = g_ = theta_ = Array4<Real>();
    for (auto& a : faces_) a = Array4<Real>();
    halo_.release();
  }

  long step() const { return step_; }
  double time() const { return time_; }
  void land_on(double time) { time_ = time; }
  const GridBlock& grid() const { return grid_; }
  long updates_per_step() const { return grid_.owned_count(); }
  const Params& params() const { return p_; }

 private:
  struct Stage {
    Array4<Real> base, out;
    StageRule<Real> rule;
  };
  // out = a base + b (in + dt L(in)): `in` is the stage's input state, given to stage().
  Stage ssp(const Array4<Real>& base, const Array4<Real>& out, Real a, Real b, Real dt) const {
    StageRule<Real> rule;
    rule.kind = StageKind::ssp;
    rule.a = a, rule.b = b, rule.dt = dt;
    return {base, out, rule};
  }

  // The fluxes through the faces normal to d (update.hpp's FaceFluxes): the
  // convective flux and, with a viscosity law, the viscous point value.
  Array4<Real> face_array(int d) const {
    const int slots = p_.viscosity.law == gas::ViscosityLaw::none ? NCONS : face_slots;
    return array(std::string("navier_stokes::face_flux_") + "xyz"[d], slots);
  }
  Array4<Real> array(const std::string& label, int vars) const {
    return Array4<Real>(label, vars, grid_.extent(2), grid_.extent(1), grid_.extent(0));
  }
  using Interior = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>, Kokkos::IndexType<long>>;
  Interior interior() const {
    return Interior({grid_.begin(2), grid_.begin(1), grid_.begin(0)}, {grid_.end(2), grid_.end(1), grid_.end(0)});
  }

  // The halo fills the periodic sides and the ranks' faces; the walls are
  // the solver's (walls.hpp), so their kind is none here.
  FaceBoundaries<Real> faces() const {
    FaceBoundaries<Real> f;
    for (int d = 0; d < 3; ++d)
      for (int s = 0; s < 2; ++s) f.kind[d][s] = p_.side(d, s).is_wall() ? BoundaryKind::none : BoundaryKind::periodic;
    return f;
  }

  // W of u on the owned cells, its ghosts, and with `gradient` the
  // velocity gradient (the viscous fluxes' and the enstrophy's) and the
  // viscous fluxes' point values at the faces; with `convective` (a stage)
  // the convective fluxes at the faces too.
  void fill_primitives(const Array4<Real>& u, bool gradient, bool convective = false) const {
    const long i0 = grid_.begin(0), i1 = grid_.end(0), j0 = grid_.begin(1), j1 = grid_.end(1), k0 = grid_.begin(2),
               k1 = grid_.end(2);
    for_each_3d("navier_stokes::primitives", k0, k1, j0, j1, i0, i1, Primitives<Real>{u, w_, gas_});
    const VolumeComponents<Array4<Real>> prims{w_};
    for (int d = 0; d < Dim; ++d) {
      halo_.begin(prims, d);
      halo_.finish(prims, d);
      for (int side = 0; side < 2; ++side)
        if (p_.side(d, side).is_wall() && !dec_.has_neighbour(d, side)) fill_wall(d, side);
    }
    if (convective && p_.hybrid()) fill_sensor();
    with_half_width(p_.order, [&](auto half) {
      constexpr int H = decltype(half)::value;
      const bool viscous = gradient && p_.viscosity.law != gas::ViscosityLaw::none;
      if (gradient) fill_gradient<H>();
      if (convective && p_.hybrid()) {
        if (viscous)
          fill_faces<H, true, true>(true);
        else
          fill_faces<H, false, true>(true);
      } else if (viscous) {
        fill_faces<H, true>(convective);
      } else if (convective) {
        fill_faces<H, false>(true);
      }
    });
  }

  template <int H>
  void fill_gradient() const {
    const long i0 = grid_.begin(0), i1 = grid_.end(0), j0 = grid_.begin(1), j1 = grid_.end(1), k0 = grid_.begin(2),
               k1 = grid_.end(2);
    // G along k over the owned cells along k and the ghosts along the
    // others, as far as the viscous fluxes reach (update.hpp).
    const long e = grid_.ghost;
    const long ei0 = i0 - e, ei1 = i1 + e, ej0 = j0 - e, ej1 = j1 + e, ek0 = Dim == 3 ? k0 - e : k0,
               ek1 = Dim == 3 ? k1 + e : k1;
    for_each_3d("navier_stokes::gradient_x", ek0, ek1, ej0, ej1, i0, i1,
                VelocityGradient<Real, H, 0>{w_, g_, inverse_h_[0]});
    for_each_3d("navier_stokes::gradient_y", ek0, ek1, j0, j1, ei0, ei1,
                VelocityGradient<Real, H, 1>{w_, g_, inverse_h_[1]});
    if constexpr (Dim == 3)
      for_each_3d("navier_stokes::gradient_z", k0, k1, ej0, ej1, ei0, ei1,
                  VelocityGradient<Real, H, 2>{w_, g_, inverse_h_[2]});
  }

  // The shock sensor (shock_sensor.hpp) of the owned cells and ghost - 1
  // layers beyond them, from W with its ghosts filled.
  void fill_sensor() const {
    const long r = grid_.ghost - 1;
    double h_min = h_[0];
    for (int d = 1; d < Dim; ++d) h_min = std::min(h_min, h_[d]);
    const ShockSensor<Real, Dim> f{
        w_, theta_, {inverse_h_[0], inverse_h_[1], inverse_h_[2]}, Real(sensor_eps / h_min), Real(p_.gamma)};
    for_each_3d("navier_stokes::shock_sensor", Dim == 3 ? grid_.begin(2) - r : grid_.begin(2),
                Dim == 3 ? grid_.end(2) + r : grid_.end(2), grid_.begin(1) - r, grid_.end(1) + r, grid_.begin(0) - r,
                grid_.end(0) + r, f);
  }

  // The faces' fluxes the updates read (update.hpp): along d, the convective
  // ones at faces begin .. end when `convective` (with Hybrid, KEEP's or the
  // upwind one by the sensor), and with Viscous the viscous point values at
  // faces begin - H + 1 .. end + H - 1.
  template <int H, bool Viscous, bool Hybrid = false>
  void fill_faces(bool convective) const {
    const Real ih[3] = {inverse_h_[0], inverse_h_[1], inverse_h_[2]};
    long b[3], e[3];
    for (int d = 0; d < 3; ++d) b[d] = grid_.begin(d), e[d] = grid_.end(d);
    const long reach = Viscous ? H - 1 : 0;
    const auto along = [&](auto dir) {
      constexpr int D = decltype(dir)::value;
      long lo[3] = {b[0], b[1], b[2]}, hi[3] = {e[0], e[1], e[2]};
      lo[D] -= reach, hi[D] += reach + 1;
      // No convective face: an empty [first, last].
      const long first = convective ? b[D] : 1, last = convective ? e[D] : 0;
      FaceFluxes<Real, Dim, H, D, Viscous, Hybrid> f{w_,   g_,     faces_[D], {ih[0], ih[1], ih[2]},
                                                     gas_, walls_, first,     last};
      if constexpr (Hybrid) f.theta = theta_, f.threshold = Real(p_.face_threshold());
      const char* label[3] = {"navier_stokes::faces_x", "navier_stokes::faces_y", "navier_stokes::faces_z"};
      for_each_3d<FacesLaunch>(label[D], lo[2], hi[2], lo[1], hi[1], lo[0], hi[0], f);
    };
    along(std::integral_constant<int, 0>{});
    along(std::integral_constant<int, 1>{});
    if constexpr (Dim == 3) along(std::integral_constant<int, 2>{});
  }

  void fill_wall(int d, int side) const {
    const Wall& wall = p_.side(d, side);
    WallGhosts<Real> f{w_,
                       d,
                       side,
                       grid_.begin(d),
                       grid_.end(d),
                       {Real(wall.velocity[0]), Real(wall.velocity[1]), Real(wall.velocity[2])},
                       Real(wall.temperature),
                       Real(p_.R),
                       wall.kind == Side::isothermal_wall};
    const long H = grid_.ghost;
    const long e[3] = {grid_.extent(0), grid_.extent(1), grid_.extent(2)};
    // The ghost layers of the side over the whole extent of the other directions.
    for_each_3d("navier_stokes::wall_ghosts", 0, d == 2 ? H : e[2], 0, d == 1 ? H : e[1], 0, d == 0 ? H : e[0], f);
  }

  template <int H, bool ConvectiveStored = false>
  CellUpdate<Real, Dim, H, ConvectiveStored> update(const Stage& s, int terms) const {
    CellUpdate<Real, Dim, H, ConvectiveStored> f;
    f.w = w_, f.g = g_, f.base = s.base, f.in = s.base, f.out = s.out, f.acc = acc_;
    f.faces_x = faces_[0], f.faces_y = faces_[1], f.faces_z = faces_[2];
    for (int d = 0; d < 3; ++d) f.inverse_h[d] = inverse_h_[d];
    f.gas = gas_, f.walls = walls_, f.rule = s.rule, f.terms = terms;
    return f;
  }

  // One Runge-Kutta stage: L from the state u_in, then s's rule.
  void stage(const Array4<Real>& u_in, Stage s) {
    fill_primitives(u_in, p_.viscosity.law != gas::ViscosityLaw::none, true);
    // The ssp rule reads `in` at the cell: the stage's input.
    with_half_width(p_.order, [&](auto half) {
      constexpr int H = decltype(half)::value;
      CellUpdate<Real, Dim, H, true> f = update<H, true>(s, all_terms);
      f.in = u_in;
      for_each_3d<StageUpdateLaunch>("navier_stokes::update", grid_.begin(2), grid_.end(2), grid_.begin(1),
                                     grid_.end(1), grid_.begin(0), grid_.end(0), f);
    });
    if (sources_.count > 0)
      for_each_3d("navier_stokes::sources", grid_.begin(2), grid_.end(2), grid_.begin(1), grid_.end(1), grid_.begin(0),
                  grid_.end(0), StageSources<Real>{sources_, w_, s.out, acc_, s.rule, stage_time_});
  }

  // The budget rates of the terms `terms` of the state whose W and G are
  // filled.
  Rates terms_rate(int terms) const {
    evaluate(terms);
    Rates r = budget_rates<Real>(interior(), u_, u_stage_, gas_, cell_volume());
    double sums[2] = {r.kinetic_energy, r.entropy};
    dec_.comm.sum(sums, 2);
    return {sums[0], sums[1]};
  }
  // L of `terms` into u_stage_ (free between steps), from W and G as filled.
  void evaluate(int terms) const {
    Stage s;
    s.base = u_;
    s.out = u_stage_;
    s.rule.kind = StageKind::rhs;
    const auto over_cells = [&](const auto& f) {
      for_each_3d("navier_stokes::rhs", grid_.begin(2), grid_.end(2), grid_.begin(1), grid_.end(1), grid_.begin(0),
                  grid_.end(0), f);
    };
    with_half_width(p_.order, [&](auto half) {
      constexpr int H = decltype(half)::value;
      if (p_.hybrid() && terms == all_terms)  // the faces' fluxes, as filled with the hybrid's
        over_cells(update<H, true>(s, terms));
      else
        over_cells(update<H>(s, terms));
    });
  }

  double cell_volume() const { return h_[0] * h_[1] * (Dim == 3 ? h_[2] : 1.0); }

  // The reference density of the per-mass diagnostics (E_k, enstrophy, 2 nu
  // <omega^2>): rho0 = 1 in the units of every shipped problem.
  static constexpr double rho_ref = 1;

  Diagnostics totals(const Rates& rates) const {
    Diagnostics d = box_totals<Real, Dim>(interior(), u_, g_, gas_, cell_volume());
    double sums[8] = {d.mass, d.mom_x, d.mom_y, d.mom_z, d.energy, d.kinetic_energy, d.enstrophy, d.entropy};
    dec_.comm.sum(sums, 8);
    double volume = 1;
    for (int k = 0; k < Dim; ++k) volume *= p_.hi[k] - p_.lo[k];
    Diagnostics out;
    out.mass = sums[0], out.mom_x = sums[1], out.mom_y = sums[2], out.mom_z = sums[3], out.energy = sums[4];
    out.kinetic_energy = sums[5] / (rho_ref * volume);
    out.enstrophy = sums[6] / (rho_ref * volume);
    out.entropy = sums[7];
    out.dissipation_rate = -rates.kinetic_energy / (rho_ref * volume);
    out.entropy_rate = rates.entropy;
    out.viscous_dissipation = 2 * p_.viscosity.mu0 / rho_ref * out.enstrophy;
    if (p_.viscosity.law == gas::ViscosityLaw::none) out.viscous_dissipation = 0;
    out.max_mach = dec_.comm.max(max_mach<Real>(interior(), u_, gas_));
    out.volume = volume;
    return out;
  }

  Params p_;
  Decomposition dec_;
  GridBlock grid_;
  Array4<Real> u_, u_stage_, acc_;
  mutable Array4<Real> w_, g_;
  std::array<Array4<Real>, 3> faces_;  // the fluxes at the faces normal to x, y, z (update.hpp's FaceFluxes)
  Array4<Real> theta_;                 // the hybrid's shock sensor (shock_sensor.hpp)
  mutable HaloExchange<Real> halo_;
  GasModel<Real> gas_{};
  WallFaces walls_;
  double h_[3];
  Real inverse_h_[3];
  long step_ = 0;
  double time_ = 0;
  double stage_time_ = 0;             // the time the stage's input stands for
  gas::DeviceSources<Real> sources_;  // the user's source terms (sources.*), none: count 0
};

}  // namespace cfd::navier_stokes
