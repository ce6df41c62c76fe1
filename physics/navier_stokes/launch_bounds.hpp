// How navier_stokes' kernels are launched on a GPU (core/parallel.hpp,
// Launch3D: blocks of 1 x TileJ x 64 threads, launch bounds of BlocksPerSm
// blocks a multiprocessor). for_each_3d's default is blocks of 256 threads
// and no bounds, so the compiler takes as many registers as it likes.
//
// The stage update (update.hpp, the convective fluxes read from the faces)
// takes 124-126 registers a thread at orders 2 and 4 and 146 at order 6
// (CUDA 13, H100), so at order 6 a multiprocessor holds one block of 256.
// Capping it at 128 registers (two blocks; 40 bytes of spill a thread) ran
// the Taylor-Green vortex at 256^3, order 6, 9% faster on an H100 (12.39 s
// for 200 steps against 13.49 s); at orders 2 and 4 the cap changes nothing.
// The faces' fluxes (153-164 registers at order 6, 111-122 at order 4) ran
// slower with any cap tried on blocks of 256 (three or four blocks: 17.6 s
// and 21.1 s against 13.8 s, 64-80 registers and 100-350 bytes of spill).
// docs/performance.md, "Sixth H100 run".
#pragma once

#include "core/parallel.hpp"

namespace cfd::navier_stokes {

// The stage's update kernel: two blocks of 256 a multiprocessor.
using StageUpdateLaunch = Launch3D<2, 4>;
// The faces' fluxes: for_each_3d's default.
using FacesLaunch = Launch3D<0, 4>;

}  // namespace cfd::navier_stokes
