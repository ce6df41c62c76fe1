// Launch bounds of navier_stokes' stage update on a GPU. for_each_3d
// (core/parallel.hpp) runs blocks of 256 threads (its tile 1 x 4 x 64) and
// lets the compiler take as many registers as it likes. The stage update
// (update.hpp, the convective fluxes read from the faces) takes 124-126
// registers a thread at orders 2 and 4 and 146 at order 6 (CUDA 13, H100),
// so at order 6 a multiprocessor holds one block of 256. Capping it at 128
// registers (two blocks; 40 bytes of spill a thread) ran the Taylor-Green
// vortex at 256^3, order 6, 9% faster on an H100 (12.39 s for 200 steps
// against 13.49 s); at orders 2 and 4 the cap changes nothing. The faces'
// fluxes (153-164 registers at order 6, 111-122 at order 4) ran slower with
// any cap tried (three or four blocks: 17.6 s and 21.1 s against 13.8 s,
// 64-80 registers and 100-350 bytes of spill). docs/performance.md, "Sixth
// H100 run".
#pragma once

#include "core/parallel.hpp"

namespace cfd::navier_stokes {

// Blocks of 256 threads a multiprocessor the stage update is compiled for.
constexpr int stage_update_blocks_per_sm = 2;

// for_each_3d with launch bounds of Blocks blocks a multiprocessor on a GPU
// (for_each_3d itself on the host, where launch bounds mean nothing).
template <int Blocks, class F>
void for_each_3d_bounded(const char* label, long k0, long k1, long j0, long j1, long i0, long i1, const F& f) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  if constexpr (!host_backend) {
    if (k0 >= k1 || j0 >= j1 || i0 >= i1) return;
    // range_3d's tile (core/parallel.hpp says why its last extent is 64).
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                         Kokkos::LaunchBounds<256, Blocks>>;
    Kokkos::parallel_for(
        label, Policy({k0, j0, i0}, {k1, j1, i1}, {1, 4, 64}),
        KOKKOS_LAMBDA(const long k, const long j, const long i) { f(k, j, i); });
  } else
#endif
  {
    for_each_3d(label, k0, k1, j0, j1, i0, i1, f);
  }
}

}  // namespace cfd::navier_stokes
