// Execution and memory spaces, defined once, and the iteration policies every
// solver uses.
#pragma once

#include "core/kokkos_compat.hpp"

#include <string>
#include <vector>

namespace cfd {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
using HostSpace = Kokkos::DefaultHostExecutionSpace;

// Names of the execution spaces compiled into this build, default first.
std::vector<std::string> enabled_execution_spaces();

// Loop order of a 2D MDRange: which index runs fastest inside a tile.
enum class IterationOrder { left, right, default_order };

template <Kokkos::Iterate Order>
using Range2D = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Order, Order>>;

// A 2D range over [i0,i1) x [j0,j1). On GPUs Kokkos' default tile is 32
// threads per block, about a fifth of the memory bandwidth on a stencil, so
// the tile is set to 256 threads laid along the index that is contiguous in
// memory (0 = first index, 1 = second). On CPUs Kokkos' own tiling is kept.
template <Kokkos::Iterate Order>
Range2D<Order> range_2d(int i0, int i1, int j0, int j1, int contiguous_index) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  if constexpr (!std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace>) {
    const int along = 64, across = 4;
    if (contiguous_index == 0) return Range2D<Order>({i0, j0}, {i1, j1}, {along, across});
    return Range2D<Order>({i0, j0}, {i1, j1}, {across, along});
  }
#endif
  (void)contiguous_index;
  return Range2D<Order>({i0, j0}, {i1, j1});
}

}  // namespace cfd
