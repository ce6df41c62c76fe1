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
