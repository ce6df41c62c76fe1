// Domain decomposition and the halo layer on one process: how a grid is
// split over a process grid (sizes, offsets, neighbours, the choice of
// MPI_Dims_create and its errors), and what the ghost layers hold after a
// fill (periodic copies and each kind of physical face).
#include "core/decomposition.hpp"
#include "core/halo.hpp"

#include <gtest/gtest.h>

#include <numeric>

using cfd::BoundaryKind;
using cfd::Centering;
using cfd::GridBlock;

TEST(Decomposition, SplitsEvenlyWithinOneEntry) {
  // 10 over 4 ranks: 3 3 2 2, contiguous and covering.
  long offset = 0, n = 0, next = 0;
  const long expect[4] = {3, 3, 2, 2};
  for (int c = 0; c < 4; ++c) {
    cfd::split_evenly(10, 4, c, offset, n);
    EXPECT_EQ(offset, next);
    EXPECT_EQ(n, expect[c]);
    next = offset + n;
  }
  EXPECT_EQ(next, 10);
}

TEST(Decomposition, OneRankHoldsTheWholeGridAndIsItsOwnPeriodicNeighbour) {
  const GridBlock whole = GridBlock::whole(2, Centering::cell, {40, 30, 1}, 2, {0, 0, 0}, {1, 1, 0});
  const cfd::Decomposition d = cfd::decompose(whole, {true, false, false});
  EXPECT_EQ(d.comm.size(), 1);
  EXPECT_EQ(d.block.n[0], 40);
  EXPECT_EQ(d.block.n[1], 30);
  EXPECT_EQ(d.neighbour[0][0], 0);
  EXPECT_EQ(d.neighbour[0][1], 0);
  EXPECT_EQ(d.neighbour[1][0], -1);
  EXPECT_EQ(d.neighbour[1][1], -1);
  EXPECT_TRUE(d.at_global_edge(1, 0) && d.at_global_edge(1, 1));
  EXPECT_EQ(d.process_grid(), "1 x 1");
}

TEST(Decomposition, BlocksOfAProcessGridTileTheGlobalGrid) {
  // Blocks of other ranks come from their grid coordinates alone.
  const GridBlock whole = GridBlock::whole(2, Centering::node, {101, 37, 1}, 1, {0, 0, 0}, {100, 36, 0});
  cfd::Decomposition d = cfd::decompose(whole, {false, false, false});
  d.ranks = {3, 2, 1};
  std::vector<int> covered(101 * 37, 0);
  for (int r = 0; r < 6; ++r) {
    const GridBlock b = d.block_of(r);
    EXPECT_GE(b.n[0], 33);
    EXPECT_LE(b.n[0], 34);
    EXPECT_GE(b.n[1], 18);
    EXPECT_LE(b.n[1], 19);
    for (long j = 0; j < b.n[1]; ++j)
      for (long i = 0; i < b.n[0]; ++i) ++covered[(b.offset[1] + j) * 101 + b.offset[0] + i];
  }
  EXPECT_EQ(std::count(covered.begin(), covered.end(), 1), 101 * 37);
}

TEST(Decomposition, RejectsProcessGridsThatCannotWork) {
  const GridBlock whole = GridBlock::whole(2, Centering::cell, {8, 8, 1}, 2, {0, 0, 0}, {1, 1, 0});
  try {
    cfd::decompose(whole, {false, false, false}, {3, 0, 0});
    FAIL() << "3 ranks along x on 1 process";
  } catch (const cfd::DecompositionError& e) {
    EXPECT_EQ(e.key, "parallel.ranks_x");
    EXPECT_NE(std::string(e.what()).find("does not fit 1 ranks"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cfd::decompose(whole, {false, false, false}, {0, 0, 2}), cfd::DecompositionError);  // 2D solver
  EXPECT_THROW(cfd::decompose(whole, {false, false, false}, {-1, 0, 0}), cfd::DecompositionError);
}

namespace {

// A 6 x 5 block with 2 ghost layers whose owned cell (i, j) holds 100*gi + gj
// (global indices) in component 0 and its negative in component 1.
using View = Kokkos::View<double***, Kokkos::LayoutRight, cfd::MemSpace>;
constexpr int g = 2, nx = 6, ny = 5;

View filled(const cfd::FaceBoundaries<double>& faces, std::array<bool, 3> periodic) {
  const GridBlock whole = GridBlock::whole(2, Centering::cell, {nx, ny, 1}, g, {0, 0, 0}, {1, 1, 0});
  const cfd::Decomposition d = cfd::decompose(whole, periodic);
  View v("v", 2, ny + 2 * g, nx + 2 * g);
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, -999.0);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) h(0, j + g, i + g) = 100 * i + j, h(1, j + g, i + g) = -(100 * i + j);
  Kokkos::deep_copy(v, h);
  cfd::HaloExchange<double> halo(d, 2, faces);
  halo.fill(cfd::PlaneComponents<View>{v});
  return v;
}

}  // namespace

TEST(Halo, PeriodicGhostsAreTheOppositeSideCornersIncluded) {
  cfd::FaceBoundaries<double> faces;
  faces.kind[0] = faces.kind[1] = {BoundaryKind::periodic, BoundaryKind::periodic};
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), filled(faces, {true, true, false}));
  for (int j = 0; j < ny + 2 * g; ++j)
    for (int i = 0; i < nx + 2 * g; ++i) {
      const int gi = ((i - g) % nx + nx) % nx, gj = ((j - g) % ny + ny) % ny;
      ASSERT_EQ(h(0, j, i), 100 * gi + gj) << i << "," << j;
      ASSERT_EQ(h(1, j, i), -(100 * gi + gj)) << i << "," << j;
    }
}

TEST(Halo, PhysicalFacesOutflowReflectingAndFixed) {
  cfd::FaceBoundaries<double> faces;
  faces.kind[0] = {BoundaryKind::outflow, BoundaryKind::reflecting};
  faces.kind[1] = {BoundaryKind::fixed, BoundaryKind::none};
  faces.normal_component = {1, 0, -1};
  faces.fixed[1][0][0] = 7, faces.fixed[1][0][1] = 8;
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), filled(faces, {false, false, false}));
  for (int j = g; j < ny + g; ++j)
    for (int layer = 0; layer < g; ++layer) {
      // x low, outflow: the edge cell.
      EXPECT_EQ(h(0, j, g - 1 - layer), h(0, j, g));
      EXPECT_EQ(h(1, j, g - 1 - layer), h(1, j, g));
      // x high, reflecting: the mirror cell, component 1 (the normal one) negated.
      EXPECT_EQ(h(0, j, nx + g + layer), h(0, j, nx + g - 1 - layer));
      EXPECT_EQ(h(1, j, nx + g + layer), -h(1, j, nx + g - 1 - layer));
    }
  for (int i = 0; i < nx + 2 * g; ++i)
    for (int layer = 0; layer < g; ++layer) {
      EXPECT_EQ(h(0, g - 1 - layer, i), 7);  // y low, fixed state
      EXPECT_EQ(h(1, g - 1 - layer, i), 8);
      EXPECT_EQ(h(0, ny + g + layer, i), -999);  // y high, none: untouched
    }
}

// An inflow face: the values the solver gives per (component, layer, t)
// where their last component is 1, the face's elsewhere kind where it is 0;
// a face whose values have another shape than its slab is refused.
TEST(Halo, InflowFacesTakeTheirValuesWhereTheyApply) {
  cfd::FaceBoundaries<double> faces;
  faces.kind[0] = {BoundaryKind::inflow, BoundaryKind::outflow};
  faces.kind[1] = {BoundaryKind::outflow, BoundaryKind::inflow};
  faces.normal_component = {0, 1, -1};
  faces.elsewhere[1][1] = BoundaryKind::reflecting;
  // x low: (2 + 1 components, 2 layers, ny + 2g across), everywhere.
  // The halo's own type of values (the device's default layout).
  using Values = Kokkos::View<double***, cfd::MemSpace>;
  Values x_lo("x_lo", 3, g, ny + 2 * g), y_hi("y_hi", 3, g, nx + 2 * g);
  auto hx = Kokkos::create_mirror_view(x_lo);
  auto hy = Kokkos::create_mirror_view(y_hi);
  for (int layer = 0; layer < g; ++layer) {
    for (int t = 0; t < ny + 2 * g; ++t)
      hx(0, layer, t) = 1000 + 10 * layer + t, hx(1, layer, t) = -1, hx(2, layer, t) = 1;
    // y high: its values hold left of x cell 3, the reflecting wall from there.
    for (int t = 0; t < nx + 2 * g; ++t)
      hy(0, layer, t) = 2000 + 10 * layer + t, hy(1, layer, t) = -2, hy(2, layer, t) = t < 3 + g ? 1 : 0;
  }
  Kokkos::deep_copy(x_lo, hx);
  Kokkos::deep_copy(y_hi, hy);
  faces.inflow[0][0] = x_lo;
  faces.inflow[1][1] = y_hi;
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), filled(faces, {false, false, false}));
  for (int layer = 0; layer < g; ++layer) {
    for (int j = g; j < ny + g; ++j) {
      EXPECT_EQ(h(0, j, g - 1 - layer), 1000 + 10 * layer + j);
      EXPECT_EQ(h(1, j, g - 1 - layer), -1);
    }
    for (int i = 0; i < nx + 2 * g; ++i) {
      const int ghost_row = ny + g + layer, mirror_row = ny + g - 1 - layer;
      if (i < 3 + g) {
        EXPECT_EQ(h(0, ghost_row, i), 2000 + 10 * layer + i) << i;
        EXPECT_EQ(h(1, ghost_row, i), -2) << i;
      } else {  // reflecting: component 1 is y's normal one, negated
        EXPECT_EQ(h(0, ghost_row, i), h(0, mirror_row, i)) << i;
        EXPECT_EQ(h(1, ghost_row, i), -h(1, mirror_row, i)) << i;
      }
    }
  }
  faces.inflow[1][1] = Values("short", 3, g, nx);  // not the slab's extent across
  EXPECT_THROW(filled(faces, {false, false, false}), std::logic_error);
}
