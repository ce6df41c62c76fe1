// The diffusion solver: two fields on one rank's block of the grid, stepped
// in place. Precision (Real) and memory layout (Layout) are template
// parameters; the loop order and kernel variant are runtime choices made once
// per step.
#pragma once

#include "core/checkpoint.hpp"
#include "core/conjugate_gradient.hpp"
#include "core/decomposition.hpp"
#include "core/grid.hpp"
#include "core/halo.hpp"
#include "core/snapshot.hpp"
#include "physics/diffusion/diffusion_params.hpp"
#include "physics/diffusion/heat_stencil.hpp"
#ifdef CFDRUN_HAVE_KOKKOSKERNELS
#include "physics/diffusion/implicit_heat.hpp"
#endif

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

namespace cfd::diffusion {

// The global grid of a case: nx x ny points. The fixed edges are owned
// points, so a block needs ghost points only where it meets another rank:
// one layer per fused step when the run has several ranks, none on one rank. Coordinates
// are point indices.
// Fused steps (temporal blocking) need as many layers as steps per pass.
inline GridBlock make_grid(const Params& p, const Comm& comm = Comm::world()) {
  return GridBlock::whole(2, Centering::node, {p.nx, p.ny, 1}, comm.size() > 1 ? p.fused_steps : 0, {0.0, 0.0, 0.0},
                          {static_cast<double>(p.nx - 1), static_cast<double>(p.ny - 1), 0.0});
}

// No face is periodic, and none is physical in the halo's sense: the edges
// hold their zeros themselves.
constexpr std::array<bool, 3> periodic{false, false, false};

template <class Real, class Layout>
class Solver {
 public:
  explicit Solver(const Params& p) : Solver(p, decompose(make_grid(p), periodic)) {}
  Solver(const Params& p, const Decomposition& dec)
      : p_(p),
        dec_(dec),
        grid_(dec.block),
        u_("diffusion::u", grid_.extent(0), grid_.extent(1)),
        v_("diffusion::v", grid_.extent(0), grid_.extent(1)),
        halo_(dec, 1, FaceBoundaries<Real>{}) {
    // Params made by hand (tests, cfdbench) start from the problem's default, the spike.
    // A problem chosen without its state set is a caller's mistake, not a spike.
    if (!p_.initial && p_.problem && p_.problem != &problems_list::spike)
      throw std::logic_error(std::string("diffusion: problem '") + p_.problem->name + "' without its initial state");
    if (!p_.initial) p_.problem = &problems_list::spike, p_.initial = centre_spike(p_.nx, p_.ny);
    // A pass of k fused steps reads k points into a neighbour rank's block.
    if (p.fused_steps > 1 && dec.comm.size() > 1 && grid_.ghost < p.fused_steps)
      throw std::invalid_argument("diffusion: " + std::to_string(p.fused_steps) + " fused steps need a halo of " +
                                  std::to_string(p.fused_steps) + " points (make_grid), this block has " +
                                  std::to_string(grid_.ghost));
    if (p.scheme != Scheme::explicit_euler) {
#ifdef CFDRUN_HAVE_KOKKOSKERNELS
      const Unknowns unknowns{int(interior_begin(0)), int(interior_end(0)), int(interior_begin(1)),
                              int(interior_end(1))};
      implicit_ = std::make_shared<ImplicitHeat<Real, Layout>>(p, unknowns, dec, grid_.extent(0), grid_.extent(1));
#else
      throw std::runtime_error("diffusion: the implicit schemes need a build with Kokkos Kernels");
#endif
    }
  }

  // The problem's u (problems/) at the interior points, evaluated in double
  // and rounded once, the edges exactly 0, set on the host and copied to the
  // device as in the original. A value that is not finite ends every rank
  // with the first such point (a ConfigError: the case is wrong).
  void set_initial_state() {
    auto host = Kokkos::create_mirror_view(u_);
    Kokkos::deep_copy(host, Real(0));
    long bad = std::numeric_limits<long>::max();
    double bad_value = 0;
    for (long j = interior_begin(1); j < interior_end(1); ++j)
      for (long i = interior_begin(0); i < interior_end(0); ++i) {
        const long gi = grid_.global_index(0, i), gj = grid_.global_index(1, j);
        const double u = p_.initial(gi, gj);
        host(i, j) = static_cast<Real>(u);
        // Finite in the working precision: fp32 turns 1e39 into infinity.
        if (!std::isfinite(double(host(i, j))) && gj * grid_.global_n[0] + gi < bad)
          bad = gj * grid_.global_n[0] + gi, bad_value = u;
      }
    const long first = dec_.comm.min(bad);
    if (first != std::numeric_limits<long>::max()) {
      dec_.comm.from_owner(first == bad, &bad_value, 1);
      const long gi = first % grid_.global_n[0], gj = first / grid_.global_n[0];
      const double gx = double(grid_.global_n[0] - 1), gy = double(grid_.global_n[1] - 1);
      throw ConfigError(std::string("diffusion: error: ") + p_.problem->source + " " + format_real(bad_value) +
                        " at point (i, j) = (" + std::to_string(gi + 1) + ", " + std::to_string(gj + 1) +
                        "), (x, y) = (" + format_real(gi / gx) + ", " + format_real(gj / gy) +
                        "); u must be finite in the working precision (" + (sizeof(Real) == 4 ? "fp32" : "fp64") + ")");
    }
    Kokkos::deep_copy(u_, host);
    Kokkos::deep_copy(v_, Real(0));
    step_ = 0;
  }

  void advance_steps(long steps) {
    if (implicit_) {
      for (long s = 0; s < steps; ++s) implicit_step();
      return;
    }
    // Passes of fused_steps; a pass of one step (a step the time loop hands
    // over alone, or the last of a series) is the plain sweep, which gives
    // the same bits without the tiles' copies.
    for (long done = 0; done < steps;) {
      const int k = static_cast<int>(std::min<long>(p_.fused_steps, steps - done));
      if (k > 1) {
        fused_pass(k);
      } else {
        switch (p_.order) {
          case IterationOrder::left: step<Kokkos::Iterate::Left>(); break;
          case IterationOrder::right: step<Kokkos::Iterate::Right>(); break;
          case IterationOrder::default_order: step<Kokkos::Iterate::Default>(); break;
        }
      }
      std::swap(u_, v_);
      step_ += k;
      done += k;
    }
  }

  // Passes of fused steps the GPU's way (StreamedSteps, up to 8 steps) or the
  // CPU's (TiledSteps), whatever the backend: tests run both on the host.
  void set_streamed_passes(bool on) { streamed_passes_ = on; }
  // One step; the step size is fixed by alpha (dt is the driver's, alpha).
  void advance(double) { advance_steps(1); }
  // Steps the time loop may hand to advance_steps at once (core/run/time_loop.hpp).
  int fused_steps() const { return implicit_ ? 1 : p_.fused_steps; }
  // A failed linear solve (every rank knows it) ends the run through the
  // driver's fault path.
  double allowed_dt() const { return solve_failure_.empty() ? p_.alpha : -1.0; }
  // alpha <= 0.25 keeps the explicit scheme stable; NaN or Inf can still
  // come from the input (or a broken device), and are reported at the first
  // point. An implicit step whose solve did not converge is reported as such.
  std::string fault() const {
    if (!solve_failure_.empty()) {  // every rank has the same failure: the search below is collective
      const std::string where = non_finite();
      return where.empty() ? solve_failure_ : solve_failure_ + "; " + where;
    }
    return non_finite();
  }

  // The first NaN or Inf of u over all ranks, or "" (collective).
  std::string non_finite() const {
    auto u = u_;
    const long nx = grid_.n[0], x0 = grid_.begin(0), y0 = grid_.begin(1);
    const long gx = grid_.global_n[0], ox = grid_.offset[0], oy = grid_.offset[1];
    long first = Kokkos::reduction_identity<long>::min();
    Kokkos::parallel_reduce(
        "diffusion::find_non_finite", Kokkos::RangePolicy<ExecSpace>(0, grid_.owned_count()),
        KOKKOS_LAMBDA(const long k, long& bad) {
          const long i = k % nx, j = k / nx;
          const Real v = u(x0 + i, y0 + j);
          const long flat = (oy + j) * gx + ox + i;
          if (!(v - v == Real(0)) && flat < bad) bad = flat;  // NaN or Inf
        },
        Kokkos::Min<long>(first));
    first = dec_.comm.min(first);
    if (first == Kokkos::reduction_identity<long>::min()) return "";
    return "non-finite value at step " + std::to_string(step_) + ", point (i, j) = (" + std::to_string(first % gx + 1) +
           ", " + std::to_string(first / gx + 1) + ")";
  }

  // Sum and maximum of u over the owned points of all ranks (the sum's
  // order depends on the rank count; the final total_u attribute is summed
  // in one order).
  std::pair<double, double> totals() const {
    auto u = u_;
    const long nx = grid_.n[0], x0 = grid_.begin(0), y0 = grid_.begin(1);
    double sum = 0, peak = -INFINITY;
    Kokkos::parallel_reduce(
        "diffusion::totals", Kokkos::RangePolicy<ExecSpace>(0, grid_.owned_count()),
        KOKKOS_LAMBDA(const long k, double& s, double& m) {
          const double v = u(x0 + k % nx, y0 + k / nx);
          s += v;
          m = v > m ? v : m;
        },
        sum, Kokkos::Max<double>(peak));
    return {dec_.comm.sum(sum), dec_.comm.max(peak)};
  }

  // The field is the whole state.
  std::vector<HostField<Real>> state() const { return fields(); }
  // The implicit schemes' iteration count travels with the step, so that a
  // continued run reports the totals of one run.
  Attributes clock() const {
    Attributes c{{"step", static_cast<double>(step_)}};
    if (implicit_) c.push_back({"cg_iterations", static_cast<double>(total_iterations_)});
    return c;
  }
  void restore(const std::vector<HostField<Real>>& state, const Attributes& clock) {
    auto host = Kokkos::create_mirror_view(u_);
    Kokkos::deep_copy(host, Real(0));
    size_t k = 0;
    for (long j = grid_.begin(1); j < grid_.end(1); ++j)
      for (long i = grid_.begin(0); i < grid_.end(0); ++i) host(i, j) = state.at(0).values.at(k++);
    Kokkos::deep_copy(u_, host);
    // v's interior is written before it is read; its edges stay 0 as u's.
    Kokkos::deep_copy(v_, Real(0));
    step_ = static_cast<long>(clock_value(clock, "step"));
    last_solve_ = CgResult{};
    solve_failure_.clear();
    if (implicit_) total_iterations_ = static_cast<long>(clock_value(clock, "cg_iterations"));
  }

  // The current field on the owned points, x fastest.
  std::vector<HostField<Real>> fields() const {
    return {{"u", to_host(), "1", "the diffused quantity u (the initial spike is 1; the edges hold 0)"}};
  }
  std::vector<Real> to_host() const {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u_);
    std::vector<Real> out(static_cast<size_t>(grid_.owned_count()));
    size_t k = 0;
    for (long j = grid_.begin(1); j < grid_.end(1); ++j)
      for (long i = grid_.begin(0); i < grid_.end(0); ++i) out[k++] = host(i, j);
    return out;
  }

  // Frees the device fields (the original's "exit data").
  void release() {
    implicit_.reset();
    u_ = Field<Real, Layout>();
    v_ = Field<Real, Layout>();
    halo_.release();
  }

  // The implicit schemes' last solve and all solves so far (zeros for the
  // explicit scheme).
  const CgResult& last_solve() const { return last_solve_; }
  long total_iterations() const { return total_iterations_; }
#ifdef CFDRUN_HAVE_KOKKOSKERNELS
  // Bytes one application of the implicit operator moves at least (cfdbench).
  double operator_bytes() const { return implicit_ ? implicit_->operator_bytes() : 0.0; }
  ImplicitHeat<Real, Layout>* implicit() const { return implicit_.get(); }
#endif

  // The halo exchange the steps use: the CG's own for the implicit schemes.
  const HaloExchange<Real>& halo() const {
#ifdef CFDRUN_HAVE_KOKKOSKERNELS
    if (implicit_) return implicit_->halo();
#endif
    return halo_;
  }
  long step() const { return step_; }
  double time() const { return step_ * p_.alpha; }  // in units of dx^2/D
  void land_on(double) {}                           // steps are never shortened
  const GridBlock& grid() const { return grid_; }
  // Points this block writes per step.
  long updates_per_step() const {
    if (p_.variant == Variant::baseline) return grid_.owned_count();
    long n = 1;
    for (int d = 0; d < 2; ++d) n *= std::max(0L, interior_end(d) - interior_begin(d));
    return n;
  }

 private:
  // The owned points that are not on the global edge, along d, in local indices.
  long interior_begin(int d) const { return std::max(grid_.begin(d), updatable_begin(d)); }
  long interior_end(int d) const { return std::min(grid_.end(d), updatable_end(d)); }
  // The points of the allocation that are not on the global edge, halo
  // included, along d (what a fused pass may update).
  long updatable_begin(int d) const { return std::max(0L, 1 - (grid_.offset[d] - grid_.begin(d))); }
  long updatable_end(int d) const {
    return std::min(grid_.extent(d), grid_.global_n[d] - 1 - (grid_.offset[d] - grid_.begin(d)));
  }

  // One implicit step: u_new into u_ (v_ holds the right-hand side).
  void implicit_step() {
#ifdef CFDRUN_HAVE_KOKKOSKERNELS
    if (!solve_failure_.empty()) return;
    last_solve_ = implicit_->step(u_, v_);
    total_iterations_ += last_solve_.iterations;
    ++step_;
    if (!last_solve_.converged) {
      char text[400];
      if (last_solve_.breakdown)
        std::snprintf(text, sizeof text,
                      "the %s solve of step %ld broke down after %ld iterations: p.Ap was not positive "
                      "(a NaN or Inf in the field?)",
                      name(p_.scheme), step_, last_solve_.iterations);
      else
        std::snprintf(text, sizeof text,
                      "the %s solve of step %ld did not converge: relative residual %.3e after %ld iterations "
                      "(diffusion.cg_tolerance %.3g, diffusion.cg_max_iterations %ld; raise the cap, which a "
                      "--restart may change, or take smaller steps)",
                      name(p_.scheme), step_, last_solve_.relative_residual, last_solve_.iterations, p_.cg_tolerance,
                      p_.cg_max_iterations);
      solve_failure_ = text;
    }
#endif
  }

  // One step: the ghost points of x first, then those of y travel while the
  // rows that do not read them are updated; the rows next to a neighbour
  // rank's face follow.
  template <Kokkos::Iterate Order>
  void step() {
    const PointField<Field<Real, Layout>> points{u_};
    halo_.begin(points, 0);
    halo_.finish(points, 0);
    halo_.begin(points, 1);
    const bool baseline = p_.variant == Variant::baseline;
    const long j0 = baseline ? grid_.begin(1) : interior_begin(1), j1 = baseline ? grid_.end(1) : interior_end(1);
    const auto [a, b] = halo_.independent_of_neighbours(1, j0, j1, 1, 1);
    sweep<Order>(a, b);
    halo_.finish(points, 1);
    sweep<Order>(j0, a);
    sweep<Order>(b, j1);
  }

  // k steps in one pass over memory (heat_stencil.hpp): the halo,
  // p_.fused_steps deep, is filled once, then on a GPU every team
  // streams its columns through k levels in registers (StreamedSteps; more
  // than 8 steps take the tiles), on a CPU every tile takes its k steps in
  // a cache-sized buffer (TiledSteps). The points a pass may update are the
  // global interior within the allocation: the owned ones and the halo's.
  void fused_pass(int k) {
    halo_.fill(PointField<Field<Real, Layout>>{u_});
    int w0[2], w1[2], u0[2], u1[2];
    for (int d = 0; d < 2; ++d) {
      w0[d] = static_cast<int>(interior_begin(d));
      w1[d] = static_cast<int>(interior_end(d));
      u0[d] = static_cast<int>(updatable_begin(d));
      u1[d] = static_cast<int>(updatable_end(d));
    }
    if (streamed_passes_ && k <= max_streamed_steps)
      streamed_steps<Real, Layout>(u_, v_, static_cast<Real>(p_.alpha), k, w0, w1, u0, u1);
    else
      tiled_steps<Real, Layout>(u_, v_, static_cast<Real>(p_.alpha), k, w0, w1, u0, u1);
  }

  // The update of rows [j0, j1) (owned points; the interior variant leaves
  // the global edge alone).
  template <Kokkos::Iterate Order>
  void sweep(long j0, long j1) {
    if (j0 >= j1) return;
    const int contiguous = std::is_same_v<Layout, Kokkos::LayoutLeft> ? 0 : 1;
    const Real alpha = static_cast<Real>(p_.alpha);
    const long first_x = grid_.offset[0] - grid_.begin(0), first_y = grid_.offset[1] - grid_.begin(1);
    if (p_.variant == Variant::baseline) {
      for_each_2d<Order>(
          "diffusion::heat_step_baseline", grid_.begin(0), grid_.end(0), j0, j1, contiguous,
          BaselineStep<Real, Layout>{u_, v_, alpha, first_x, first_y, grid_.global_n[0] - 1, grid_.global_n[1] - 1});
    } else {
      const int i0 = static_cast<int>(interior_begin(0)), i1 = static_cast<int>(interior_end(0));
      // GPUs sweeping along memory take strips (heat_stencil.hpp says why);
      // CPUs reach the copy bandwidth with plain line sweeps.
      if (!host_backend && fastest_index<Order>() == contiguous)
        step_interior_in_strips<Real, Layout>(u_, v_, alpha, i0, i1, int(j0), int(j1));
      else
        for_each_2d<Order>("diffusion::heat_step_interior", i0, i1, int(j0), int(j1), contiguous,
                           InteriorStep<Real, Layout>{u_, v_, alpha});
    }
  }

  Params p_;
  Decomposition dec_;
  GridBlock grid_;
  Field<Real, Layout> u_, v_;
  HaloExchange<Real> halo_;
  long step_ = 0;
#ifdef CFDRUN_HAVE_KOKKOSKERNELS
  std::shared_ptr<ImplicitHeat<Real, Layout>> implicit_;
#else
  std::shared_ptr<void> implicit_;
#endif
  CgResult last_solve_;
  long total_iterations_ = 0;
  std::string solve_failure_;
  bool streamed_passes_ = !host_backend;
};

}  // namespace cfd::diffusion
