// Launch bounds of navier_stokes' two largest kernels on a GPU. for_each_3d
// (core/parallel.hpp) runs blocks of 256 threads (its tile 1 x 4 x 64) and
// lets the compiler take as many registers as it likes: under Nsight Compute
// on an H100 (Taylor-Green 128^3, order 4, RK4; docs/performance.md, "Fifth
// H100 run") the stage update took 162 registers a thread, one block a
// multiprocessor (12.5% occupancy), and the faces' fluxes 118-122, two
// blocks (25%), neither above half the memory bandwidth: bound by latency.
// Asking for more blocks a multiprocessor caps the registers at
// 65536 / (256 x blocks) and trades occupancy for spills.
#pragma once

#include "core/parallel.hpp"

namespace cfd::navier_stokes {

// Blocks of 256 threads a multiprocessor the kernels are compiled for; 0
// leaves the registers to the compiler.
constexpr int update_blocks_per_sm = 0;
constexpr int faces_blocks_per_sm = 0;

// for_each_3d with launch bounds of Blocks blocks a multiprocessor on a GPU
// (none with 0 and on the host, where it is for_each_3d).
template <int Blocks, class F>
void for_each_3d_bounded(const char* label, long k0, long k1, long j0, long j1, long i0, long i1, const F& f) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  if constexpr (!host_backend && Blocks > 0) {
    if (k0 >= k1 || j0 >= j1 || i0 >= i1) return;
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                         Kokkos::LaunchBounds<256, Blocks>>;
    Kokkos::parallel_for(
        label, Policy({k0, j0, i0}, {k1, j1, i1}, {1, 4, 64}),
        KOKKOS_LAMBDA(const long k, const long j, const long i) { f(k, j, i); });
    return;
  }
#endif
  for_each_3d(label, k0, k1, j0, j1, i0, i1, f);
}

}  // namespace cfd::navier_stokes
