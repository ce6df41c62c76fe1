// Checkpoints of a 3D grid, on however many ranks run the tests (ctest's
// halo.ranks_3d_np* run this under mpirun too): every rank writes its block
// of a 9 x 8 x 7 grid, and the file is read back as the blocks of other
// process grids (one rank holding everything, 3 x 2 x 1, 1 x 2 x 4): each
// value must come back at its global place, bit for bit, which is what a
// restart on another rank count needs.
#include "core/checkpoint.hpp"
#include "core/decomposition.hpp"
#include "core/output_folder.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <memory>

namespace fs = std::filesystem;

namespace {

double value(int c, long x, long y, long z) { return 1.0 / (1 + c) + x + 1e-3 * y + 1e-6 * z; }

std::vector<cfd::HostField<double>> block_state(const cfd::GridBlock& b) {
  std::vector<cfd::HostField<double>> state{{"rho", {}}, {"mom_z", {}}};
  for (int c = 0; c < 2; ++c)
    for (long k = 0; k < b.n[2]; ++k)
      for (long j = 0; j < b.n[1]; ++j)
        for (long i = 0; i < b.n[0]; ++i)
          state[c].values.push_back(value(c, b.offset[0] + i, b.offset[1] + j, b.offset[2] + k));
  return state;
}

}  // namespace

TEST(Checkpoint3d, BlocksOfAnyProcessGridReadBackBitForBit) {
  const cfd::Comm world = cfd::Comm::world();
  const std::string dir = world.broadcast(
      (fs::temp_directory_path() / ("cfdrun_test_checkpoint3d_" + std::to_string(::getpid()))).string());
  const cfd::GridBlock whole = cfd::GridBlock::whole(3, cfd::Centering::cell, {9, 8, 7}, 2, {0, 0, 0}, {1, 1, 1});
  const cfd::Decomposition dec = cfd::decompose(whole, {true, false, true});
  std::shared_ptr<cfd::OutputFolder> folder;
  if (world.is_root()) {
    fs::remove_all(dir);
    folder = std::make_shared<cfd::OutputFolder>(dir, false, false);
  }
  world.barrier();
  std::string path;
  {
    cfd::SnapshotSeries series(dir, "euler3d", dec, {"euler3d", "fp64", "right", "Serial", ""}, folder);
    cfd::LoopRecord loop;
    path = cfd::write_checkpoint<double>(series, "case", 5, 0.5, block_state(dec.block), {{"step", 5}, {"time", 0.5}},
                                         loop);
  }
  // Rank 0 finishes the file (gathered writes, the rename into place) after
  // the others have handed over their blocks.
  world.barrier();
  const cfd::CheckpointHeader header = cfd::read_checkpoint_header(path);
  EXPECT_EQ(header.global_n, (std::vector<long>{9, 8, 7}));
  EXPECT_EQ(header.state, (std::vector<std::string>{"rho", "mom_z"}));
  // The blocks of other process grids, read by this rank (the reads are
  // independent, so one rank may read any block).
  long wrong = 0, read = 0;
  for (const std::array<int, 3> ranks : {std::array<int, 3>{1, 1, 1}, {3, 2, 1}, {1, 2, 4}}) {
    cfd::Decomposition other = dec;
    other.ranks = ranks;
    const int count = ranks[0] * ranks[1] * ranks[2];
    for (int r = world.rank(); r < count; r += world.size()) {
      other.block = other.block_of(r);
      const auto state = cfd::read_checkpoint_state<double>(header, other);
      const auto expected = block_state(other.block);
      ASSERT_EQ(state.size(), 2u);
      for (int c = 0; c < 2; ++c) {
        EXPECT_EQ(state[c].name, expected[c].name);
        ASSERT_EQ(state[c].values.size(), expected[c].values.size());
        for (size_t v = 0; v < state[c].values.size(); ++v) wrong += state[c].values[v] != expected[c].values[v];
        read += static_cast<long>(state[c].values.size());
      }
    }
  }
  EXPECT_EQ(world.sum(wrong), 0);
  // Every grid's blocks were read by some rank: 3 grids of 2 x 504 values.
  EXPECT_EQ(world.sum(read), 3 * 2 * 9 * 8 * 7);
  // A 2D case refuses the 3D file.
  cfd::Decomposition flat = cfd::decompose(
      cfd::GridBlock::whole(2, cfd::Centering::cell, {9, 8, 1}, 2, {0, 0, 0}, {1, 1, 0}), {false, false, false});
  EXPECT_THROW(cfd::read_checkpoint_state<double>(header, flat), cfd::ConfigError);
  world.barrier();
  folder.reset();
  if (world.is_root()) fs::remove_all(dir);
}
