// The conserved components of a compressible gas as checkpoints and
// cfdcompare name them: one list for euler (2D and 3D grids) and
// navier_stokes, so that their checkpoints read alike.
#pragma once

#include "core/global_file.hpp"  // HostField

#include <vector>

namespace cfd::gas {

template <class Real>
std::vector<HostField<Real>> conserved_fields() {
  return {{"rho", {}, "1", "density"},
          {"mom_x", {}, "1", "momentum density rho*vx"},
          {"mom_y", {}, "1", "momentum density rho*vy"},
          {"mom_z", {}, "1", "momentum density rho*vz"},
          {"energy", {}, "1", "total energy density"}};
}

}  // namespace cfd::gas
