// The diffusion solver: two fields on one grid block, stepped in place.
// Precision (Real) and memory layout (Layout) are template parameters; the
// loop order and kernel variant are runtime choices made once per step.
#pragma once

#include "core/grid.hpp"
#include "physics/diffusion/diffusion_params.hpp"
#include "physics/diffusion/heat_stencil.hpp"

#include <vector>

namespace cfd::diffusion {

// The global grid of a case: nx x ny points, one block, no ghosts (the fixed
// edges play their role). Coordinates are point indices.
inline GridBlock make_grid(const Params& p) {
  return GridBlock::whole(2, Centering::node, {p.nx, p.ny, 1}, 0, {0.0, 0.0, 0.0},
                          {static_cast<double>(p.nx - 1), static_cast<double>(p.ny - 1), 0.0});
}

template <class Real, class Layout>
class Solver {
 public:
  explicit Solver(const Params& p)
      : params_(p),
        grid_(make_grid(p)),
        u_("diffusion::u", grid_.extent(0), grid_.extent(1)),
        v_("diffusion::v", grid_.extent(0), grid_.extent(1)) {}

  // u = 0 except u((nx+1)/2, (ny+1)/2) = 1 (1-based, integer division);
  // set on the host and copied to the device, as in the original.
  void set_initial_state() {
    auto host = Kokkos::create_mirror_view(u_);
    Kokkos::deep_copy(host, Real(0));
    const long ci = (grid_.global_n[0] + 1) / 2 - 1, cj = (grid_.global_n[1] + 1) / 2 - 1;
    const long li = ci - grid_.offset[0] + grid_.begin(0), lj = cj - grid_.offset[1] + grid_.begin(1);
    if (li >= grid_.begin(0) && li < grid_.end(0) && lj >= grid_.begin(1) && lj < grid_.end(1)) host(li, lj) = Real(1);
    Kokkos::deep_copy(u_, host);
    Kokkos::deep_copy(v_, Real(0));
    step_ = 0;
  }

  void advance(long steps) {
    for (long s = 0; s < steps; ++s) {
      switch (params_.order) {
        case IterationOrder::left: sweep<Kokkos::Iterate::Left>(); break;
        case IterationOrder::right: sweep<Kokkos::Iterate::Right>(); break;
        case IterationOrder::default_order: sweep<Kokkos::Iterate::Default>(); break;
      }
      std::swap(u_, v_);
      ++step_;
    }
  }

  // The current field on the owned points, x fastest.
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
    u_ = Field<Real, Layout>();
    v_ = Field<Real, Layout>();
  }

  long step() const { return step_; }
  double time() const { return step_ * params_.alpha; }  // in units of dx^2/D
  const GridBlock& grid() const { return grid_; }
  // Points written per step.
  long updates_per_step() const {
    return params_.variant == Variant::baseline ? grid_.owned_count() : (grid_.n[0] - 2) * (grid_.n[1] - 2);
  }

 private:
  template <Kokkos::Iterate Order>
  void sweep() {
    const int contiguous = std::is_same_v<Layout, Kokkos::LayoutLeft> ? 0 : 1;
    const Real alpha = static_cast<Real>(params_.alpha);
    const long first_x = grid_.offset[0] - grid_.begin(0), first_y = grid_.offset[1] - grid_.begin(1);
    if (params_.variant == Variant::baseline) {
      for_each_2d<Order>(
          "diffusion::heat_step_baseline", grid_.begin(0), grid_.end(0), grid_.begin(1), grid_.end(1), contiguous,
          BaselineStep<Real, Layout>{u_, v_, alpha, first_x, first_y, grid_.global_n[0] - 1, grid_.global_n[1] - 1});
    } else {
      // Interior of this block: owned points that are not on the global edge.
      const int i0 = static_cast<int>(std::max(grid_.begin(0), 1 - first_x));
      const int i1 = static_cast<int>(std::min(grid_.end(0), grid_.global_n[0] - 1 - first_x));
      const int j0 = static_cast<int>(std::max(grid_.begin(1), 1 - first_y));
      const int j1 = static_cast<int>(std::min(grid_.end(1), grid_.global_n[1] - 1 - first_y));
      // GPUs sweeping along memory take strips (heat_stencil.hpp says why);
      // CPUs reach the copy bandwidth with plain line sweeps.
      if (!std::is_same_v<ExecSpace, HostSpace> && fastest_index<Order>() == contiguous)
        step_interior_in_strips<Real, Layout>(u_, v_, alpha, i0, i1, j0, j1);
      else
        for_each_2d<Order>("diffusion::heat_step_interior", i0, i1, j0, j1, contiguous,
                           InteriorStep<Real, Layout>{u_, v_, alpha});
    }
  }

  Params params_;
  GridBlock grid_;
  Field<Real, Layout> u_, v_;
  long step_ = 0;
};

}  // namespace cfd::diffusion
