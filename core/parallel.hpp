// Execution and memory spaces, defined once, and the iteration policies every
// solver uses.
#pragma once

#include "core/kokkos_compat.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

// Asks the GPU compiler to unroll the next loop (fixed trip count), so that
// small arrays in it stay in registers.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define CFD_UNROLL _Pragma("unroll")
#else
#define CFD_UNROLL
#endif

// Tells the host compiler that the next loop's iterations are independent
// (no aliasing between what it reads and writes), so that it vectorises a
// loop over Views it cannot prove apart. Only where OpenMP is the backend.
#if defined(KOKKOS_ENABLE_OPENMP) && defined(_OPENMP) && !defined(__CUDA_ARCH__)
#define CFD_SIMD _Pragma("omp simd")
#else
#define CFD_SIMD
#endif

namespace cfd {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
using HostSpace = Kokkos::DefaultHostExecutionSpace;
// Whether the kernels run on the host (a CPU backend): the one spelling of
// the question that picks a kernel's CPU or GPU shape.
constexpr bool host_backend = std::is_same_v<ExecSpace, HostSpace>;
// Host memory the GPU copies to and from at full speed (page-locked), for
// buffers that cross between them often: halo faces on their way to MPI.
#if defined(KOKKOS_ENABLE_CUDA)
using PinnedHostMemory = Kokkos::CudaHostPinnedSpace;
#else
using PinnedHostMemory = Kokkos::HostSpace;
#endif

// The team scratch (level 0) a kernel may ask for: on a GPU the shared
// memory Kokkos leaves a block (about 40 KB of 48); on a CPU no bound, as a
// team's scratch is ordinary memory that Kokkos allocates at any size (its
// nominal 32 KB limit is not checked).
inline size_t team_scratch_limit() {
  if constexpr (host_backend)
    return ~size_t(0);
  else
    return static_cast<size_t>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0));
}

// A block's shared memory on an NVIDIA multiprocessor, for a team of
// team_size threads with `scratch` bytes of team scratch: the scratch, what
// Kokkos takes for team reductions (a double a thread, plus two, and an
// int64 for the team's id), the 1 KB the hardware reserves for each block,
// and 256 bytes for static shared memory (Kokkos' own is 48).
constexpr size_t gpu_block_shared_bytes(size_t scratch, int team_size) {
  return scratch + sizeof(double) * (size_t(team_size) + 2) + sizeof(std::int64_t) + 1024 + 256;
}

// One multiprocessor of the NVIDIA architecture Kokkos was built for: its
// shared memory for blocks and its resident threads (CUDA C++ programming
// guide, technical specifications per compute capability). Launch bounds
// are fixed at compile time, so a kernel asks for no more blocks than this
// holds (gpu_blocks_per_sm).
struct GpuMultiprocessor {
  size_t shared_bytes;
  int threads;
};
constexpr GpuMultiprocessor gpu_multiprocessor_built_for() {
#if defined(KOKKOS_ARCH_HOPPER90) || defined(KOKKOS_ARCH_BLACKWELL100)
  return {228 * 1024, 2048};
#elif defined(KOKKOS_ARCH_AMPERE80)
  return {164 * 1024, 2048};
#elif defined(KOKKOS_ARCH_AMPERE86) || defined(KOKKOS_ARCH_ADA89) || defined(KOKKOS_ARCH_BLACKWELL120)
  return {100 * 1024, 1536};
#elif defined(KOKKOS_ARCH_VOLTA70) || defined(KOKKOS_ARCH_VOLTA72) || defined(KOKKOS_ARCH_PASCAL61)
  return {96 * 1024, 2048};
#else  // Turing, Pascal 60 or not known here: 64 KB (Kepler, 48 KB, is not covered)
  return {64 * 1024, 1024};
#endif
}

// How many blocks of team_size threads, each with `scratch` bytes of team
// scratch, to ask a multiprocessor to hold at once (launch bounds): `wanted`,
// or fewer where the multiprocessor (by default the GPU built for's) holds
// fewer; at least one.
constexpr int gpu_blocks_per_sm(size_t scratch, int team_size, int wanted,
                                GpuMultiprocessor sm = gpu_multiprocessor_built_for()) {
  size_t n = size_t(wanted);
  const size_t by_memory = sm.shared_bytes / gpu_block_shared_bytes(scratch, team_size);
  const size_t by_threads = size_t(sm.threads / team_size);
  if (by_memory < n) n = by_memory;
  if (by_threads < n) n = by_threads;
  return n < 1 ? 1 : int(n);
}

// Whether a kernel whose teams of team_size threads each take `bytes` of
// team scratch launches with blocks_per_sm such blocks held at once (its
// launch bounds), on the GPU this process runs on; always on a CPU. Kokkos
// checks two things at launch: a block's shared memory against the block's
// limit less what the team takes for team reductions (scratch_size_max
// above assumes 1024 threads, so a team of 256 may have 6 KB more, 47,080
// bytes of 49,152 on NVIDIA GPUs), and, through TeamPolicy::team_size_max,
// that blocks_per_sm blocks fit a multiprocessor (counted here as
// gpu_block_shared_bytes counts a block).
bool team_scratch_fits(size_t bytes, int team_size, int blocks_per_sm);

// Initialises Kokkos for the lifetime of the object and finalises it after.
// libgomp treats an unset OMP_PROC_BIND as false; saying so explicitly only
// spares users Kokkos 3's warning about it, and a user's own setting wins.
class KokkosSession {
 public:
  KokkosSession(int& argc, char* argv[]);
  ~KokkosSession();
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;
};

// The GPU this process runs on, -1 on CPU builds.
int device_id();

// Names of the execution spaces compiled into this build, default first.
std::vector<std::string> enabled_execution_spaces();

// Loop order of a 2D MDRange: which index runs fastest inside a tile.
enum class IterationOrder { left, right, default_order };

template <Kokkos::Iterate Order>
using Range2D = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Order, Order>>;

// Which index of (i, j) runs fastest for an iteration order: Kokkos'
// Default is the layout order of the execution space (right on CPUs, left on GPUs).
template <Kokkos::Iterate Order>
constexpr int fastest_index() {
  if constexpr (Order == Kokkos::Iterate::Left) return 0;
  if constexpr (Order == Kokkos::Iterate::Right) return 1;
  return std::is_same_v<ExecSpace::array_layout, Kokkos::LayoutLeft> ? 0 : 1;
}

// A 2D range over [i0,i1) x [j0,j1). On GPUs Kokkos maps threadIdx.x to the
// first index whatever the iteration order, and its default tile is 32
// threads per block, about a fifth of the memory bandwidth on a stencil. So
// the tile (256 threads) is laid along the order's fast index: a warp walks
// along memory when that index is the contiguous one and across it when it
// is not, as the original study's contiguous and strided loops do. On CPUs
// Kokkos' own tiling is kept.
template <Kokkos::Iterate Order>
Range2D<Order> range_2d(int i0, int i1, int j0, int j1) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  if constexpr (!host_backend) {
    if constexpr (fastest_index<Order>() == 0) return Range2D<Order>({i0, j0}, {i1, j1}, {64, 4});
    return Range2D<Order>({i0, j0}, {i1, j1}, {1, 256});
  }
#endif
  return Range2D<Order>({i0, j0}, {i1, j1});
}

// Calls f(i, j) on a contiguous run of the fast index for one value of the
// slow one. The indices are long: GCC vectorizes a loop only when it can
// prove the addresses affine in the loop index, which the int-to-size_t
// conversion inside a View access defeats. `omp simd` says what the compiler
// cannot prove about Views: no point of a line reads what another writes.
template <class F, int Fast>
struct LineSweep {
  F f;
  long begin, end;
  KOKKOS_INLINE_FUNCTION void operator()(const long slow) const {
#if defined(_OPENMP)
#pragma omp simd
#endif
    for (long fast = begin; fast < end; ++fast) {
      if constexpr (Fast == 0)
        f(fast, slow);
      else
        f(slow, fast);
    }
  }
};

// Runs f(i, j) over [i0,i1) x [j0,j1) with the fast index given by Order.
// f takes long indices (see LineSweep) and must not read what another point
// of the same sweep writes.
// On GPUs this is a tiled MDRange. On CPUs, when the fast index is the one
// contiguous in memory, the sweep runs as whole lines, a parallel loop over
// the slow index with the fast one innermost: Kokkos 3.4's host MDRange
// reaches clearly less of the copy bandwidth on the heat stencil than lines
// do (docs/data/diary.md, "diffusion"). Any other order stays an MDRange.
template <Kokkos::Iterate Order, class F>
void for_each_2d(const char* label, int i0, int i1, int j0, int j1, int contiguous_index, const F& f) {
  if (i0 >= i1 || j0 >= j1) return;
  constexpr int fast = fastest_index<Order>();
  if constexpr (host_backend) {
    if (fast == contiguous_index) {
      if constexpr (fast == 0)
        Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(j0, j1),
                             LineSweep<F, 0>{f, i0, i1});
      else
        Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(i0, i1),
                             LineSweep<F, 1>{f, j0, j1});
      return;
    }
  }
  Kokkos::parallel_for(label, range_2d<Order>(i0, i1, j0, j1), f);
}

// Calls f(i, j) along one line and keeps the minimum; see LineSweep.
template <class Real, class F, int Fast>
struct LineMin {
  F f;
  long begin, end;
  KOKKOS_INLINE_FUNCTION void operator()(const long slow, Real& result) const {
    Real line = result;
#if defined(_OPENMP)
#pragma omp simd reduction(min : line)
#endif
    for (long fast = begin; fast < end; ++fast) {
      const Real value = Fast == 0 ? f(fast, slow) : f(slow, fast);
      line = value < line ? value : line;
    }
    if (line < result) result = line;
  }
};

// The minimum of f(i, j) over [i0,i1) x [j0,j1), with the sweeps of
// for_each_2d (lines along the contiguous index on CPUs, tiles on GPUs).
template <Kokkos::Iterate Order, class Real, class F>
Real min_2d(const char* label, int i0, int i1, int j0, int j1, int contiguous_index, const F& f) {
  Real result = Kokkos::reduction_identity<Real>::min();
  if (i0 >= i1 || j0 >= j1) return result;
  constexpr int fast = fastest_index<Order>();
  if constexpr (host_backend) {
    if (fast == contiguous_index) {
      if constexpr (fast == 0)
        Kokkos::parallel_reduce(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(j0, j1),
                                LineMin<Real, F, 0>{f, i0, i1}, Kokkos::Min<Real>(result));
      else
        Kokkos::parallel_reduce(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(i0, i1),
                                LineMin<Real, F, 1>{f, j0, j1}, Kokkos::Min<Real>(result));
      return result;
    }
  }
  Kokkos::parallel_reduce(
      label, range_2d<Order>(i0, i1, j0, j1),
      KOKKOS_LAMBDA(const int i, const int j, Real& m) {
        const Real value = f(i, j);
        if (value < m) m = value;
      },
      Kokkos::Min<Real>(result));
  return result;
}

// ---- 3D sweeps: f(k, j, i) over [k0,k1) x [j0,j1) x [i0,i1), i contiguous
// (LayoutRight (var, k, j, i) arrays). On CPUs a parallel loop over the
// (k, j) lines with i innermost under `omp simd`, as for_each_2d's lines; on
// GPUs a 3D MDRange whose tiles lie along i: Kokkos 4.6 makes a tile of
// 1 x TileJ x 64 a block of the same dimensions, so threadIdx.z takes i and
// a warp (x fastest, then y) covers TileJ lines of 32 / TileJ cells (TileJ
// is 4 by default; Launch3D below).
template <class F>
struct VolumeLineSweep {
  F f;
  long j0, nj, i0, i1;
  KOKKOS_INLINE_FUNCTION void operator()(const long line) const {
    const long k = line / nj, j = j0 + line % nj;
#if defined(_OPENMP)
#pragma omp simd
#endif
    for (long i = i0; i < i1; ++i) f(k, j, i);
  }
};
template <class Real, class F>
struct VolumeLineMin {
  F f;
  long j0, nj, i0, i1;
  KOKKOS_INLINE_FUNCTION void operator()(const long line, Real& result) const {
    const long k = line / nj, j = j0 + line % nj;
    Real m = result;
#if defined(_OPENMP)
#pragma omp simd reduction(min : m)
#endif
    for (long i = i0; i < i1; ++i) {
      const Real value = f(k, j, i);
      m = value < m ? value : m;
    }
    if (m < result) result = m;
  }
};
// The 3D MDRange over (k, j, i), i fastest; Traits such as Kokkos::LaunchBounds.
template <class... Traits>
using Range3DWith =
    Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>, Traits...>;
using Range3D = Range3DWith<>;
// How a 3D sweep is launched on a GPU: tiles (blocks) of 1 x TileJ x 64
// threads and, when BlocksPerSm > 0, launch bounds asking the compiler to fit
// BlocksPerSm such blocks on a multiprocessor, which caps the registers a
// thread may take (65536 / (64 TileJ BlocksPerSm) on NVIDIA's cards, rounded
// down to a multiple of 8). A kernel whose registers leave a multiprocessor
// one block of 256 can be faster with a cap (some spill, twice the warps to
// hide latency) or in smaller blocks (no cap, more blocks fit); which one
// wins is measured on the card (docs/data/diary.md, "Sixth" and "Seventh
// H100 run"), so solvers name their shapes beside the kernels
// (physics/navier_stokes/launch_shapes.hpp). The default, Launch3D<>, is the
// plain Range3D. On the host both arguments mean nothing.
//
// The tile's last extent is at most 64: Kokkos 4.6's CUDA MDRange maps the
// third tile extent to the block's z dimension, which CUDA caps at 64, and
// clamps the block there, but its device loop still steps through the range
// in tiles of the extent asked for (KokkosExp_IterateTileGPU.hpp: offset =
// tile_id * m_tile[2] + threadIdx.z): a tile of 128 ran only the first 64
// entries of each 128, and every 3D kernel skipped cells of lines longer
// than 64 (found on an H100: the 2D vortex at 64^2 and the Taylor-Green
// vortex at 256^3 went wrong on the GPU, 32^3 and smaller did not).
template <int BlocksPerSm = 0, int TileJ = 4>
struct Launch3D {
  static_assert(BlocksPerSm >= 0 && TileJ >= 1 && 64 * TileJ <= 1024, "a block holds at most 1024 threads");
  static constexpr int threads = 64 * TileJ;
  using Policy = std::conditional_t<BlocksPerSm == 0, Range3D, Range3DWith<Kokkos::LaunchBounds<threads, BlocksPerSm>>>;
};
template <class Launch = Launch3D<>>
typename Launch::Policy range_3d(long k0, long k1, long j0, long j1, long i0, long i1) {
  using Policy = typename Launch::Policy;
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  if constexpr (!host_backend) return Policy({k0, j0, i0}, {k1, j1, i1}, {1, Launch::threads / 64, 64});
#endif
  return Policy({k0, j0, i0}, {k1, j1, i1});
}
template <class Launch = Launch3D<>, class F>
void for_each_3d(const char* label, long k0, long k1, long j0, long j1, long i0, long i1, const F& f) {
  if (k0 >= k1 || j0 >= j1 || i0 >= i1) return;
  if constexpr (host_backend) {
    // Lines numbered from k = 0 so that VolumeLineSweep finds k by one division.
    const long nj = j1 - j0;
    Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(k0 * nj, k1 * nj),
                         VolumeLineSweep<F>{f, j0, nj, i0, i1});
  } else {
    Kokkos::parallel_for(
        label, range_3d<Launch>(k0, k1, j0, j1, i0, i1),
        KOKKOS_LAMBDA(const long k, const long j, const long i) { f(k, j, i); });
  }
}
template <class Real, class F>
Real min_3d(const char* label, long k0, long k1, long j0, long j1, long i0, long i1, const F& f) {
  Real result = Kokkos::reduction_identity<Real>::min();
  if (k0 >= k1 || j0 >= j1 || i0 >= i1) return result;
  if constexpr (host_backend) {
    const long nj = j1 - j0;
    Kokkos::parallel_reduce(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long>>(k0 * nj, k1 * nj),
                            VolumeLineMin<Real, F>{f, j0, nj, i0, i1}, Kokkos::Min<Real>(result));
  } else {
    Kokkos::parallel_reduce(
        label, range_3d(k0, k1, j0, j1, i0, i1),
        KOKKOS_LAMBDA(const long k, const long j, const long i, Real& m) {
          const Real value = f(k, j, i);
          if (value < m) m = value;
        },
        Kokkos::Min<Real>(result));
  }
  return result;
}

}  // namespace cfd
