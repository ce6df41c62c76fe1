// The run layer's parts on their own (core/run/): the Schedule with an
// injected clock (no test here reads the wall clock), the OR of stop
// requests over ranks, the history file cut back to a checkpoint.
#include "core/checkpoint.hpp"
#include "core/run/history_file.hpp"
#include "core/run/schedule.hpp"
#include "core/run/stop_requests.hpp"
#include "core/snapshot.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;
using cfd::run::Cadence;
using cfd::run::Due;
using cfd::run::Schedule;
using cfd::run::StopRequests;

namespace {

// The steps at which each event falls due over steps 1..n, one step at a time.
struct Seen {
  std::vector<long> snapshots, history, checks, checkpoints;
};
Seen walk(Schedule& s, long n, double dt = 0.1) {
  Seen seen;
  double t = 0;
  for (long step = 1; step <= n; ++step) {
    const bool landed = s.reaches_output(t, dt);
    t = landed ? s.next_output_time() : t + dt;
    const Due d = s.after_step(step, t, landed);
    if (d.snapshot) seen.snapshots.push_back(step);
    if (d.history) seen.history.push_back(step);
    if (d.check) seen.checks.push_back(step);
    if (d.checkpoint) seen.checkpoints.push_back(step);
  }
  return seen;
}

}  // namespace

TEST(Schedule, StepCountedEventsFallOnTheirMultiples) {
  Cadence c;
  c.output_every = 4;
  c.history_every = 3;
  c.check_every = 5;
  c.checkpoint_every = 6;
  Schedule s(c, 0.0);
  const Seen seen = walk(s, 12);
  EXPECT_EQ(seen.snapshots, (std::vector<long>{4, 8, 12}));
  EXPECT_EQ(seen.history, (std::vector<long>{3, 6, 9, 12}));
  EXPECT_EQ(seen.checks, (std::vector<long>{5, 10}));
  EXPECT_EQ(seen.checkpoints, (std::vector<long>{6, 12}));
  EXPECT_EQ(s.next_output_time(), INFINITY);
  EXPECT_FALSE(s.reaches_output(0, 1e300));
}

TEST(Schedule, OutputTimesAreTheDecimalMultiples) {
  // 3 * 0.1 is 0.30000000000000004 in binary; the user means 0.3.
  EXPECT_EQ(cfd::run::multiple(3, 0.1), 0.3);
  EXPECT_EQ(cfd::run::multiple(7, 0.1), 0.7);
  Cadence c;
  c.output_interval = 0.25;
  Schedule s(c, 0.0);
  // Steps of 0.1: outputs land on 0.25, 0.5, 0.75, 1.0 (steps 3, 6, 9, 12 shortened).
  std::vector<double> landed;
  double t = 0;
  for (long step = 1; step <= 12; ++step) {
    const bool l = s.reaches_output(t, 0.1);
    t = l ? s.next_output_time() : t + 0.1;
    if (s.after_step(step, t, l).snapshot) landed.push_back(t);
  }
  EXPECT_EQ(landed, (std::vector<double>{0.25, 0.5, 0.75, 1.0}));
  EXPECT_EQ(s.outputs_done(), 4);
  EXPECT_EQ(s.snapshots_by_time(), 4);
}

TEST(Schedule, CheckpointTimesAreInTheFilesTime) {
  // A solver time of 2 units of file time each (time_unit = 2): a checkpoint
  // interval of 1 in file time falls due every half unit of solver time.
  Cadence c;
  c.checkpoint_interval = 1.0;
  c.time_unit = 2.0;
  Schedule s(c, 0.0);
  const Seen seen = walk(s, 12, 0.1);  // solver time 0.1 .. 1.2, file time 0.2 .. 2.4
  EXPECT_EQ(seen.checkpoints, (std::vector<long>{5, 10}));
  EXPECT_EQ(s.checkpoints_done(), 2);
  // A long step past several checkpoint times counts them all.
  Schedule t(c, 0.0);
  EXPECT_TRUE(t.after_step(1, 1.6, false).checkpoint);  // file time 3.2
  EXPECT_EQ(t.checkpoints_done(), 3);
  EXPECT_FALSE(t.after_step(2, 1.7, false).checkpoint);
}

TEST(Schedule, AResumedRunMeetsTheSameTimes) {
  Cadence c;
  c.output_interval = 0.25;
  c.checkpoint_interval = 0.5;
  // The counts recorded at t = 0.6 fit the time: kept.
  Schedule s(c, 0.0);
  s.resume(0.6, 2, 1);
  EXPECT_EQ(s.outputs_done(), 2);
  EXPECT_EQ(s.checkpoints_done(), 1);
  EXPECT_EQ(s.next_output_time(), 0.75);
  EXPECT_EQ(s.snapshots_by_time(), 0);
  // At t = 0.5 exactly the recorded count (2: 0.25 and 0.5 passed) is kept,
  // not recomputed with rounding.
  Schedule at(c, 0.0);
  at.resume(0.5, 2, 1);
  EXPECT_EQ(at.next_output_time(), 0.75);
  // Counts that do not fit (--set changed the interval) are recomputed.
  Schedule changed(c, 0.0);
  changed.resume(0.6, 7, 9);
  EXPECT_EQ(changed.outputs_done(), 2);
  EXPECT_EQ(changed.checkpoints_done(), 1);
}

TEST(Schedule, FusedStepsStopShortOfTheNextEvent) {
  Cadence c;
  c.output_every = 10;
  c.history_every = 4;
  Schedule s(c, 0.0);
  EXPECT_EQ(s.steps_in_one_call(0, 16), 4);  // history at 4
  EXPECT_EQ(s.steps_in_one_call(4, 16), 4);  // history at 8
  EXPECT_EQ(s.steps_in_one_call(8, 16), 2);  // output at 10
  EXPECT_EQ(s.steps_in_one_call(10, 1), 1);  // the solver's own limit
  EXPECT_EQ(s.steps_in_one_call(12, 0), 1);  // never fewer than one
  Cadence none;
  EXPECT_EQ(Schedule(none, 0.0).steps_in_one_call(3, 16), 16);
  // Time-based events: every step is looked at.
  Cadence timed;
  timed.output_interval = 0.5;
  EXPECT_EQ(Schedule(timed, 0.0).steps_in_one_call(0, 16), 1);
  timed = Cadence{};
  timed.checkpoint_interval = 0.5;
  EXPECT_EQ(Schedule(timed, 0.0).steps_in_one_call(0, 16), 1);
}

TEST(Schedule, WallClockCheckpointsByAnInjectedClock) {
  Cadence c;
  c.checkpoint_wall_seconds = 10;
  Schedule s(c, 100.0);  // the loop began at 100 s
  EXPECT_FALSE(s.checkpoint_by_wall(100.0));
  EXPECT_FALSE(s.checkpoint_by_wall(109.999));
  EXPECT_TRUE(s.checkpoint_by_wall(110.0));
  s.wall_checkpoint_written(112.5);  // counted from when it was written
  EXPECT_FALSE(s.checkpoint_by_wall(122.0));
  EXPECT_TRUE(s.checkpoint_by_wall(122.5));
  // However fast the machine, n wall-clock checkpoints need n intervals:
  // at one step per 0.001 s for 35 s from 0, three are asked for.
  Schedule fast(c, 0.0);
  int asked = 0;
  for (long k = 1; k <= 35000; ++k) {
    const double now = k * 0.001;
    if (fast.checkpoint_by_wall(now)) {
      ++asked;
      fast.wall_checkpoint_written(now);
    }
  }
  EXPECT_EQ(asked, 3);
  Cadence off;
  EXPECT_FALSE(Schedule(off, 0.0).checkpoint_by_wall(1e9));
}

TEST(Schedule, StopsInTimeBeforeTheWallTimeLimit) {
  Cadence c;
  c.wall_time = 60;
  c.state_bytes = 2e8;  // 1 s at 200 MB/s: the write estimate before the first checkpoint is 1.2 s
  Schedule s(c, 0.0);
  EXPECT_TRUE(s.watches_steps());
  // now + 2 * slowest step + 1.5 * write + 0.5 >= 60: 0 + 0 + 1.8 + 0.5: from 57.7 on (tested clear of rounding).
  EXPECT_FALSE(s.near_wall_limit(57.6));
  EXPECT_TRUE(s.near_wall_limit(57.8));
  s.step_took(2.0);
  s.step_took(1.0);  // the slowest counts
  EXPECT_FALSE(s.near_wall_limit(53.6));
  EXPECT_TRUE(s.near_wall_limit(53.8));
  s.checkpoint_took(4.0);  // measured: 1.5 * 4 = 6
  EXPECT_FALSE(s.near_wall_limit(49.4));
  EXPECT_TRUE(s.near_wall_limit(49.6));
  Cadence none;
  EXPECT_FALSE(Schedule(none, 0.0).near_wall_limit(1e12));
  EXPECT_FALSE(Schedule(none, 0.0).watches_steps());
}

namespace {
// Several ranks' MIN reduction: min() on one rank's array takes, slot by
// slot, the minimum over the arrays all ranks pass (given beforehand).
struct FakeRanks {
  std::vector<std::vector<double>> others;  // the other ranks' arrays
  void min(double* v, int n) const {
    for (const auto& o : others)
      for (int i = 0; i < n; ++i) v[i] = std::min(v[i], o[static_cast<size_t>(i)]);
  }
};
StopRequests requests_of(int bits) { return {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0}; }
}  // namespace

TEST(StopRequests, CombinedAcrossRanksByOr) {
  // Every combination of the requests of three ranks: each request holds
  // when any rank asks, whatever the others ask (one number per rank would
  // give the maximum instead: a wall-time stop on one rank and a signal on
  // another must both hold).
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b)
      for (int c = 0; c < 8; ++c) {
        FakeRanks ranks;
        for (int other : {b, c}) {
          std::vector<double> v(1 + StopRequests::slots);
          v[0] = 0.5 + other;  // their stable steps
          requests_of(other).to_slots(v.data() + 1);
          ranks.others.push_back(v);
        }
        const cfd::run::StepAgreement agreed = cfd::run::agree_on_step(ranks, 0.25, requests_of(a));
        EXPECT_EQ(agreed.requests, requests_of(a | b | c)) << a << " " << b << " " << c;
        EXPECT_EQ(agreed.dt, 0.25);
      }
  // The smallest step wins, and a rank's fault (-1) reaches every rank.
  FakeRanks faulty{{{-1.0, 0, 0, 0}}};
  EXPECT_EQ(cfd::run::agree_on_step(faulty, 0.25, StopRequests{}).dt, -1.0);
  EXPECT_TRUE((StopRequests{false, true, false}).stop());
  EXPECT_TRUE((StopRequests{false, false, true}).stop());
  EXPECT_FALSE((StopRequests{true, false, false}).stop());
}

TEST(HistoryFile, RowsAppendAndAResumedRunCutsBackToTheCheckpoint) {
  const std::string dir = (fs::temp_directory_path() / ("cfdrun_test_history_" + std::to_string(::getpid()))).string();
  fs::remove_all(dir);
  const cfd::GridBlock grid = cfd::GridBlock::whole(1, cfd::Centering::cell, {4, 1, 1}, 2, {0, 0, 0}, {1, 0, 0});
  const std::string path = dir + "/sod.hst";
  auto folder = std::make_shared<cfd::OutputFolder>(dir, false, false);
  cfd::SnapshotSeries series(dir, "sod", cfd::decompose(grid, {false, false, false}), {}, folder);
  cfd::LoopRecord at;
  {
    cfd::run::HistoryFile h(series, path, "# totals\nstep,time,dt,mass\n", true, nullptr);
    ASSERT_TRUE(h.is_open());
    EXPECT_EQ(h.name(), "sod.hst");
    h.append_row(0, 0.0, 0.0, {1.5});
    at.history_file = h.name();
    at.history_bytes = h.bytes();  // a checkpoint after step 0
    h.append_row(1, 0.5, 0.5, {1.25});
  }
  {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(),
              "# totals\nstep,time,dt,mass\n0,0.0000000000000000e+00,0.0000000000000000e+00,"
              "1.5000000000000000e+00\n1,5.0000000000000000e-01,5.0000000000000000e-01,"
              "1.2500000000000000e+00\n");
  }
  {
    // Continued from the checkpoint: step 1's row goes, the header stays.
    cfd::run::HistoryFile h(series, path, "# not written again\n", true, &at);
    EXPECT_EQ(h.bytes(), at.history_bytes);
    h.append_row(1, 0.5, 0.5, {1.0});
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str().find("not written again"), std::string::npos);
  EXPECT_NE(text.str().find("\n1,5.0000000000000000e-01,5.0000000000000000e-01,1.0000000000000000e+00\n"),
            std::string::npos);
  EXPECT_EQ(text.str().find("1.25"), std::string::npos);
  // Not the writing rank: nothing is opened.
  cfd::run::HistoryFile other(series, dir + "/other.hst", "x\n", false, nullptr);
  EXPECT_FALSE(other.is_open());
  EXPECT_FALSE(fs::exists(dir + "/other.hst"));
  fs::remove_all(dir);
}
