// Inflow sides (boundary.<side>: inflow): the ghost cells of a side held at
// a state given by formulas of the position and the time t
// (inflow_<side>.rho, vx, vy, vz, p) where inflow_<side>.where is not zero, and
// the side acting as inflow_<side>.elsewhere (outflow or reflecting) where
// it is. The double Mach reflection needs both: its wall takes the
// post-shock state left of x = 1/6 and reflects to the right of it, and its
// top side follows the moving shock. The formulas are evaluated on the host
// (core/expression.hpp) at each Runge-Kutta stage's time, or once when none
// of a side's formulas reads t, and the halo copies the values in
// (FaceBoundaries::inflow; inflow_ghosts.hpp). The z sides are inflow sides
// of 3D grids only.
#pragma once

#include "core/config.hpp"
#include "core/decomposition.hpp"
#include "physics/gas/problems/problem.hpp"

#include <array>
#include <functional>
#include <vector>

namespace cfd::euler {

using gas::StateAt;

struct InflowSide {
  StateAt state;                                                        // the ghost cells' primitives at (x, y, z, t)
  std::function<bool(double x, double y, double z, double t)> applies;  // where on the side the state holds
  BoundaryKind elsewhere = BoundaryKind::outflow;                       // the side's kind where it does not
  bool steady = true;  // no formula of the side reads t: its ghost values are computed once
};

// The sides: x_lo, x_hi, y_lo, y_hi (Params::boundary), z_lo, z_hi (Params::boundary_z).
constexpr int side_count = 6;
extern const char* const side_names[side_count];

// The keys inflow_<side>.*, each going with boundary.<side>: inflow.
std::vector<KeySpec> inflow_keys();

// The inflow sides of a case: those whose kind is inflow read their
// formulas (a bad one is refused with its place and column); the others
// stay empty.
std::array<InflowSide, side_count> inflow_sides(const Config& c, const std::array<BoundaryKind, side_count>& kinds);

}  // namespace cfd::euler
