// The halo layer in three dimensions, on however many ranks run the tests
// (one in the unit-test run; ctest's halo.ranks_3d_np* run these under
// mpirun on 2, 3, 4, 6 and 8 ranks, on a 9 x 8 x 7 grid that none of those
// counts divides evenly). After a fill, every entry of every rank's block,
// ghosts, edges and corners included, must hold what the global grid's
// boundaries give there: an independent host reference below, applied
// direction by direction as the halo promises (x, then y, then z).
#include "core/decomposition.hpp"
#include "core/halo.hpp"

#include <gtest/gtest.h>

#include <cmath>

using cfd::BoundaryKind;
using cfd::Centering;
using cfd::GridBlock;

namespace {

using View = Kokkos::View<double****, Kokkos::LayoutRight, cfd::MemSpace>;
constexpr int components = 3, ghost = 2;
constexpr long global_n[3] = {9, 8, 7};

// The owned value of component c at global cell (x, y, z); distinct everywhere.
double owned(int c, long x, long y, long z) { return (c + 1) * (1 + x + 100 * y + 10000 * z) * (c == 1 ? -1 : 1); }

// What the global domain's ghost entry holds: the last direction in which
// the index lies outside the grid decides, from the entry it copies
// (periodic: the other side; outflow: the edge; reflecting: the mirror, the
// normal component negated; fixed: the face's state).
double expected(const cfd::FaceBoundaries<double>& faces, int c, std::array<long, 3> g) {
  for (int d = 2; d >= 0; --d) {
    const long n = global_n[d];
    if (g[d] >= 0 && g[d] < n) continue;
    const int side = g[d] < 0 ? 0 : 1;
    const long layer = side == 0 ? -1 - g[d] : g[d] - n;  // 0 touches the interior
    double sign = 1;
    switch (faces.kind[d][side]) {
      case BoundaryKind::periodic: g[d] = (g[d] + n) % n; break;
      case BoundaryKind::outflow: g[d] = side == 0 ? 0 : n - 1; break;
      case BoundaryKind::reflecting:
        g[d] = side == 0 ? layer : n - 1 - layer;
        if (c == faces.normal_component[d]) sign = -1;
        break;
      case BoundaryKind::fixed: return faces.fixed[d][side][c];
      default: return NAN;  // none and inflow are not tested here
    }
    return sign * expected(faces, c, g);
  }
  return owned(c, g[0], g[1], g[2]);
}

// Fills the blocks of a decomposition of the 9 x 8 x 7 grid over every rank
// (`requested` ranks per direction, 0: automatic), runs the halo, and counts
// the entries, over all ranks, that differ from expected().
long wrong_entries(const cfd::FaceBoundaries<double>& faces, std::array<int, 3> requested = {0, 0, 0}) {
  const GridBlock whole =
      GridBlock::whole(3, Centering::cell, {global_n[0], global_n[1], global_n[2]}, ghost, {0, 0, 0}, {1, 1, 1});
  const cfd::Decomposition dec = cfd::decompose(whole, faces.periodic(), requested);
  const GridBlock& b = dec.block;
  View v("v", components, b.extent(2), b.extent(1), b.extent(0));
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, -12345.0);  // no ghost may keep this
  for (int c = 0; c < components; ++c)
    for (long k = 0; k < b.n[2]; ++k)
      for (long j = 0; j < b.n[1]; ++j)
        for (long i = 0; i < b.n[0]; ++i)
          h(c, k + ghost, j + ghost, i + ghost) = owned(c, b.offset[0] + i, b.offset[1] + j, b.offset[2] + k);
  Kokkos::deep_copy(v, h);
  cfd::HaloExchange<double> halo(dec, components, faces);
  halo.fill(cfd::VolumeComponents<View>{v});
  Kokkos::deep_copy(h, v);
  long wrong = 0;
  for (int c = 0; c < components; ++c)
    for (long k = 0; k < b.extent(2); ++k)
      for (long j = 0; j < b.extent(1); ++j)
        for (long i = 0; i < b.extent(0); ++i) {
          const std::array<long, 3> g{b.offset[0] + i - ghost, b.offset[1] + j - ghost, b.offset[2] + k - ghost};
          const double want = expected(faces, c, g), got = h(c, k, j, i);
          if (!(got == want)) {
            if (wrong < 5)
              ADD_FAILURE() << "rank " << dec.comm.rank() << " of " << dec.process_grid() << ": component " << c
                            << " at global (" << g[0] << ", " << g[1] << ", " << g[2] << ") holds " << got
                            << ", expected " << want;
            ++wrong;
          }
        }
  // Every rank learns the total, so all of them take the same path on.
  return dec.comm.sum(wrong);
}

// Process grids for the rank count: the automatic one, and one with the
// ranks along x first (so that x, the fastest direction, is cut too).
std::array<int, 3> ranks_along_x_first() {
  const int size = cfd::Comm::world().size();
  if (size <= 4) return {size, 0, 0};
  return {size % 2 == 0 ? 2 : 1, 0, 0};
}

}  // namespace

TEST(Halo3d, PeriodicBoxEveryGhostEdgeAndCornerFromAcross) {
  cfd::FaceBoundaries<double> faces;
  for (int d = 0; d < 3; ++d) faces.kind[d] = {BoundaryKind::periodic, BoundaryKind::periodic};
  EXPECT_EQ(wrong_entries(faces), 0);
  EXPECT_EQ(wrong_entries(faces, ranks_along_x_first()), 0);
}

TEST(Halo3d, EveryPhysicalKindOnSomeSide) {
  cfd::FaceBoundaries<double> faces;
  faces.kind[0] = {BoundaryKind::outflow, BoundaryKind::reflecting};
  faces.kind[1] = {BoundaryKind::periodic, BoundaryKind::periodic};
  faces.kind[2] = {BoundaryKind::fixed, BoundaryKind::reflecting};
  faces.normal_component = {0, 1, 2};
  for (int c = 0; c < components; ++c) faces.fixed[2][0][c] = 0.5 + c;
  EXPECT_EQ(wrong_entries(faces), 0);
  EXPECT_EQ(wrong_entries(faces, ranks_along_x_first()), 0);
}

TEST(Halo3d, WallsAcrossThePeriodicDirection) {
  cfd::FaceBoundaries<double> faces;
  faces.kind[0] = {BoundaryKind::periodic, BoundaryKind::periodic};
  faces.kind[1] = {BoundaryKind::reflecting, BoundaryKind::outflow};
  faces.kind[2] = {BoundaryKind::periodic, BoundaryKind::periodic};
  faces.normal_component = {0, 1, 2};
  EXPECT_EQ(wrong_entries(faces), 0);
  EXPECT_EQ(wrong_entries(faces, ranks_along_x_first()), 0);
}

// The reference itself: a corner ghost of the periodic box is the cell
// diagonally across, and a reflecting face negates only its normal component.
TEST(Halo3d, ReferenceOfTheTest) {
  cfd::FaceBoundaries<double> faces;
  for (int d = 0; d < 3; ++d) faces.kind[d] = {BoundaryKind::periodic, BoundaryKind::periodic};
  EXPECT_EQ(expected(faces, 0, {-1, -2, 7}), owned(0, 8, 6, 0));
  faces.kind[1] = {BoundaryKind::reflecting, BoundaryKind::reflecting};
  faces.normal_component = {-1, 1, -1};
  EXPECT_EQ(expected(faces, 1, {0, -2, 0}), -owned(1, 0, 1, 0));
  EXPECT_EQ(expected(faces, 2, {0, 9, 0}), owned(2, 0, 6, 0));
}
