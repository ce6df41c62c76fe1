// How navier_stokes' kernels are launched on a GPU (core/parallel.hpp,
// Launch3D<BlocksPerSm, TileJ>: blocks of 1 x TileJ x 64 threads, launch
// bounds of BlocksPerSm blocks a multiprocessor). for_each_3d's default is
// blocks of 256 threads and no bounds.
//
// Both kernels of a stage hold many values a thread (CUDA 13, sm_90, FP64):
// the stage update (update.hpp, the convective fluxes read from the faces)
// 124-126 registers at orders 2 and 4 and 146 at order 6, the faces' fluxes
// (fluxes.hpp) 111-122 at order 4 and 153-164 at order 6. In blocks of 256 a
// multiprocessor (65536 registers) then holds one block at order 6: 8 warps
// to hide the latency of memory. Blocks of 128 fit three (12 warps) without
// a cap on the registers, and that is what ran fastest on an H100 (the
// Taylor-Green vortex at 256^3, 200 steps, the time loop; docs/data/diary.md,
// "Seventh H100 run"). TileJ = 2 also changes what a warp reads (2 lines of
// 16 cells instead of 4 of 8: fewer 32-byte sectors for the loads shifted
// along i), which the measurement did not separate from the occupancy:
//
//   update                    faces            order 6   order 4
//   256 threads, 2 blocks     256 threads      12.43 s   10.11 s  (the previous shape)
//   256 threads, 2 blocks     128 threads      10.86 s
//   128 threads, 3 blocks     128 threads      10.46 s    9.30 s  (shipped)
//
// Capping the registers instead spills: the update at two blocks of 256 (128
// registers, 40 bytes of spill) was the previous shape; the faces at three
// or four blocks of 256 (64-80 registers, 100-350 bytes of spill) ran 28-53%
// slower ("Sixth H100 run"). The bound of three blocks of 128 allows 168
// registers, so it costs the update nothing at any order (144 at order 6,
// no spill) and keeps a later change from dropping it to fewer blocks
// unnoticed. The shapes change how threads are grouped, not what a thread
// computes: the results are the CPU's bit for bit (apps/backend_agreement.sh).
#pragma once

#include "core/parallel.hpp"

namespace cfd::navier_stokes {

// The stage's update kernel: blocks of 128, three a multiprocessor.
using StageUpdateLaunch = Launch3D<3, 2>;
// The faces' fluxes: blocks of 128, no cap on the registers.
using FacesLaunch = Launch3D<0, 2>;

}  // namespace cfd::navier_stokes
