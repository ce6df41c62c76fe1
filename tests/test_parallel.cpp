// The 2D sweeps of core/parallel.hpp: every point visited once, in every loop
// order and layout, and min_2d finds the minimum wherever it lies.
#include "core/parallel.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace {

template <class Layout>
using Counts = Kokkos::View<int**, Layout, cfd::MemSpace>;

template <Kokkos::Iterate Order, class Layout>
void expect_each_point_once(int contiguous) {
  const int n0 = 37, n1 = 23;
  Counts<Layout> count("count", n0, n1);
  cfd::for_each_2d<Order>(
      "test::count", 2, n0 - 3, 1, n1 - 1, contiguous, KOKKOS_LAMBDA(const long i, const long j) { count(i, j) += 1; });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), count);
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j) {
      const bool inside = i >= 2 && i < n0 - 3 && j >= 1 && j < n1 - 1;
      ASSERT_EQ(host(i, j), inside ? 1 : 0) << "at " << i << "," << j;
    }
}

// f(i, j) = (i - 11)^2 + (j - 7)^2 + 0.25, smallest at (11, 7).
struct Bowl {
  KOKKOS_INLINE_FUNCTION double operator()(const long i, const long j) const {
    return double((i - 11) * (i - 11) + (j - 7) * (j - 7)) + 0.25;
  }
};

}  // namespace

TEST(Parallel, ForEach2dVisitsEveryPointOnceInEveryOrderAndLayout) {
  expect_each_point_once<Kokkos::Iterate::Left, Kokkos::LayoutLeft>(0);
  expect_each_point_once<Kokkos::Iterate::Right, Kokkos::LayoutLeft>(0);
  expect_each_point_once<Kokkos::Iterate::Left, Kokkos::LayoutRight>(1);
  expect_each_point_once<Kokkos::Iterate::Right, Kokkos::LayoutRight>(1);
}

TEST(Parallel, Min2dFindsTheMinimumAlongAndAcrossMemory) {
  // Fast index contiguous (line sweeps on CPUs) and not (MDRange).
  EXPECT_EQ((cfd::min_2d<Kokkos::Iterate::Right, double>("test::min", 0, 40, 0, 30, 1, Bowl{})), 0.25);
  EXPECT_EQ((cfd::min_2d<Kokkos::Iterate::Left, double>("test::min", 0, 40, 0, 30, 1, Bowl{})), 0.25);
  // A range that excludes the bottom of the bowl: the nearest point (12, 7).
  EXPECT_EQ((cfd::min_2d<Kokkos::Iterate::Right, double>("test::min", 12, 40, 0, 30, 1, Bowl{})), 1.25);
  // An empty range gives the identity of min.
  EXPECT_EQ((cfd::min_2d<Kokkos::Iterate::Right, double>("test::min", 5, 5, 0, 30, 1, Bowl{})),
            Kokkos::reduction_identity<double>::min());
}

// Launch bounds follow the GPU built for: the euler fused stage's blocks
// (256 threads; 5,200 values of team scratch, and 192 bytes for Kokkos'
// padding, as FusedStage2d::scratch_bytes_at_most counts them) on the
// multiprocessors of an H100/H200, an A100, a 100 KB GPU (sm_86/89/120) and
// a T4, the counts its comment in stage_2d.hpp gives. A block counts its
// scratch, the team-reduction area, the 1 KB reserve and 256 bytes of
// static shared memory.
TEST(Parallel, GpuBlocksPerMultiprocessorFollowTheArchitecture) {
  constexpr size_t fp32 = 5200 * 4 + 3 * 64, fp64 = 5200 * 8 + 3 * 64;
  static_assert(cfd::gpu_block_shared_bytes(41624, 256) == 41624 + 8 * 258 + 8 + 1024 + 256);
  const cfd::GpuMultiprocessor h200{228 * 1024, 2048}, a100{164 * 1024, 2048}, ada{100 * 1024, 1536},
      t4{64 * 1024, 1024};
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp32, 256, 7, h200), 7);
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp64, 256, 4, h200), 4);
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp32, 256, 12, h200), 8);  // threads: 2048 / 256
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp64, 256, 12, h200), 5);  // shared memory: 233,472 / 45,144
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp32, 256, 7, a100), 6);
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp64, 256, 4, a100), 3);
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp32, 256, 7, ada), 4);
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp64, 256, 4, ada), 2);
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp32, 256, 7, t4), 2);
  EXPECT_EQ(cfd::gpu_blocks_per_sm(fp64, 256, 4, t4), 1);
  EXPECT_EQ(cfd::gpu_blocks_per_sm(200000, 256, 4, t4), 1);  // never fewer than one
}
