// The ghost values of a block's inflow sides (inflow_sides.hpp) as the halo
// copies them in (FaceBoundaries::inflow), one source for 2D and 3D grids
// (euler::Solver<Real, Dim>): for each inflow side of the box without a
// neighbouring rank, an array (component, layer, t) laid out as the halo's slab
// along the side (slab_geometry: t across the slab, the lower other direction
// first), with one component more that is 1 where the side's state applies and
// 0 where the side acts as inflow_<side>.elsewhere. The solver refreshes them
// on the host before each Runge-Kutta stage's fill, at the time that stage's
// state stands for; a side none of whose formulas reads t is computed once.
#pragma once

#include "core/halo.hpp"
#include "physics/euler/cell_physics.hpp"  // CellPrimitives
#include "physics/euler/inflow_sides.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace cfd::euler {

template <class Real>
class InflowGhosts {
 public:
  using Values = Kokkos::View<Real***, MemSpace>;

  // A ghost cell of an inflow side whose state is not physical.
  struct Bad {
    int side = -1;  // -1: none
    double x = 0, y = 0, z = 0, rho = 0, p = 0, time = 0;
  };

  InflowGhosts() = default;
  // `components`: those of the field the halo fills (U's or W's); only the
  // inflow sides get arrays.
  InflowGhosts(const std::array<InflowSide, side_count>& sides, const std::array<BoundaryKind, side_count>& kinds,
               const GridBlock& block, int components)
      : sides_(sides) {
    for (int s = 0; s < side_count; ++s) {
      if (kinds[s] != BoundaryKind::inflow) continue;
      const SlabGeometry slab = slab_geometry(block, s / 2, components);
      geometry_[s] = slab;
      values_[s] = Values("euler::inflow", components + 1, slab.ghost, slab.across);
      host_[s] = Kokkos::create_mirror_view(values_[s]);
    }
  }

  // Hands the halo the inflow sides' arrays and what each side is elsewhere.
  void attach(FaceBoundaries<Real>& faces) const {
    for (int s = 0; s < side_count; ++s) {
      faces.inflow[s / 2][s % 2] = values_[s];
      faces.elsewhere[s / 2][s % 2] = sides_[s].elsewhere;
    }
  }

  // The values at `time` of the sides this rank fills (no neighbour there).
  // position(i, j, k) gives a ghost cell's centre {x, y, z}; a ghost takes
  // the state as a cell of the block holds it: the conserved state in the
  // working precision, and its primitives as primitives(conserved) finds
  // them, so that a side at the state of its neighbouring cells gives what
  // outflow would, bit for bit. store(host, layer, t, conserved, primitives)
  // writes a ghost's components. Returns this rank's first ghost whose state
  // is not physical.
  template <class Position, class Primitives, class Store>
  Bad refresh(double time, const Decomposition& dec, Real gamma, const Position& position, const Primitives& primitives,
              const Store& store) {
    Bad bad;
    bool any = false;
    for (int s = 0; s < side_count; ++s) {
      const int d = s / 2, side = s % 2;
      if (values_[s].extent(0) == 0 || dec.has_neighbour(d, side)) continue;
      if (current_ && sides_[s].steady) continue;
      any = true;
      const auto& host = host_[s];
      const SlabGeometry& slab = geometry_[s];
      const int applies = int(host.extent(0)) - 1;
      for (long layer = 0; layer < slab.ghost; ++layer)
        for (long t = 0; t < slab.across; ++t) {
          long i, j, k;
          slab.at(side == 0 ? slab.begin - 1 - layer : slab.end + layer, t, i, j, k);
          const std::array<double, 3> x = position(i, j, k);
          const bool here = sides_[s].applies(x[0], x[1], x[2], time);
          host(applies, layer, t) = here ? Real(1) : Real(0);
          const gas::Primitive<double> w =
              here ? sides_[s].state(x[0], x[1], x[2], time) : gas::Primitive<double>{1, 0, 0, 0, 1};
          const gas::Conserved<Real> c = gas::to_conserved(
              gas::Primitive<Real>{Real(w.rho), Real(w.vx), Real(w.vy), Real(w.vz), Real(w.p)}, gamma);
          const CellPrimitives<Real> cell = primitives(c);
          store(host, layer, t, c, cell);
          const bool finite = std::isfinite(double(cell.rho)) && std::isfinite(double(cell.vx)) &&
                              std::isfinite(double(cell.vy)) && std::isfinite(double(cell.vz)) &&
                              std::isfinite(double(cell.p));
          if (bad.side < 0 && (!finite || !(cell.rho > Real(0)) || !(cell.p > Real(0))))
            bad = {s, x[0], x[1], x[2], double(cell.rho), double(cell.p), time};
        }
      Kokkos::deep_copy(values_[s], host);
    }
    if (any) current_ = true;
    return bad;
  }

  // A ghost's components when the halo fills U (the fused stages, 2D and
  // 3D): the conserved state, then `scalars` passive scalars at zero (no
  // scalar flows in).
  template <class Host>
  static void store_conserved(const Host& host, long layer, long t, const gas::Conserved<Real>& c, int scalars) {
    const Real u[NCONS] = {c.rho, c.mx, c.my, c.mz, c.energy};
    for (int v = 0; v < NCONS; ++v) host(v, layer, t) = u[v];
    for (int n = 0; n < scalars; ++n) host(NCONS + n, layer, t) = Real(0);
  }

  // A restored state: the steady sides are computed again at the next fill.
  void stale() { current_ = false; }

  // Refuses an inflow state that is not physical on any rank, naming the
  // side's key and where (every rank throws the same error).
  static void refuse(const Bad& mine, const Decomposition& dec, bool three_d) {
    const long none = std::numeric_limits<long>::max();
    const long first = dec.comm.min(mine.side < 0 ? none : long(dec.comm.rank()));
    if (first == none) return;
    double v[7] = {double(mine.side), mine.x, mine.y, mine.z, mine.rho, mine.p, mine.time};
    dec.comm.from_owner(first == dec.comm.rank(), v, 7);
    const std::string side = side_names[int(v[0])];
    const bool rho_bad = !std::isfinite(v[4]) || !(v[4] > 0), p_bad = !rho_bad && (!std::isfinite(v[5]) || !(v[5] > 0));
    const std::string what = rho_bad ? "density " + format_real(v[4])
                             : p_bad ? "pressure " + format_real(v[5])
                                     : std::string("a velocity that is not finite");
    const std::string at =
        three_d ? "(x, y, z) = (" + format_real(v[1]) + ", " + format_real(v[2]) + ", " + format_real(v[3]) + ")"
                : "(x, y) = (" + format_real(v[1]) + ", " + format_real(v[2]) + ")";
    throw ConfigError("euler: error: the inflow state of boundary." + side + " (inflow_" + side + "." +
                      (rho_bad ? "rho"
                       : p_bad ? "p"
                               : "vx, vy, vz") +
                      ") is not physical: the ghost cell at " + at + " at t = " + format_real(v[6]) + " has " + what +
                      (sizeof(Real) == 4 ? " (in fp32)" : ""));
  }

  void release() {
    for (int s = 0; s < side_count; ++s) values_[s] = Values(), host_[s] = typename Values::HostMirror();
  }

 private:
  std::array<InflowSide, side_count> sides_;
  std::array<SlabGeometry, side_count> geometry_{};
  std::array<Values, side_count> values_;
  std::array<typename Values::HostMirror, side_count> host_;
  bool current_ = false;  // the steady sides' values are computed
};

}  // namespace cfd::euler
