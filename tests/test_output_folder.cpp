// The output folder's rule (core/output_folder.hpp): only regular files that
// cfdrun created, under the names it writes, are ever opened for writing or
// removed. Named pipes, sockets and folders under its names (the lock and
// the manifest included), hard links, and manifest lines that name a user's
// file are refused, and what they stand for is not read, changed or removed.
// Each test fails on the code before the rule (a pipe there made the run
// wait for ever: PipeWatch ends the wait, and the test says so).
#include "core/checkpoint.hpp"
#include "core/hdf5_file.hpp"
#include "core/output_folder.hpp"
#include "core/run/history_file.hpp"
#include "core/safe_files.hpp"
#include "core/snapshot.hpp"
#include "tests/test_files.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace {

std::string fresh_dir(const std::string& name) { return cfd::test::fresh_dir("folder_" + name); }
using cfd::test::slurp;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A sod run's prefixes as cfdrun passes them: its own first, then every
// solver's name and former name.
const std::vector<std::string> sod_run = {"sod", "diffusion", "euler", "euler2d", "navier_stokes"};

std::string manifest_of(const std::string& dir) { return dir + "/" + cfd::OutputFolder::manifest_name; }
std::string lock_of(const std::string& dir) { return dir + "/" + cfd::OutputFolder::lock_name; }

// What a test plants under one of cfdrun's names, and how cfdrun's message
// names it.
enum class Plant { pipe, socket, folder };
const char* kind(Plant p) {
  switch (p) {
    case Plant::pipe: return "a named pipe (FIFO)";
    case Plant::socket: return "a socket";
    case Plant::folder: return "a folder";
  }
  return "";
}

// Plants `p` at `path`; "" or why it could not.
std::string plant(const std::string& path, Plant p) {
  switch (p) {
    case Plant::pipe: return mkfifo(path.c_str(), 0644) == 0 ? "" : std::string("mkfifo: ") + std::strerror(errno);
    case Plant::socket: {
      sockaddr_un address{};
      if (path.size() >= sizeof address.sun_path) return "the path is too long for a socket";
      address.sun_family = AF_UNIX;
      std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
      const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
      if (fd < 0) return std::string("socket: ") + std::strerror(errno);
      const bool bound = ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
      const std::string why = bound ? "" : std::string("bind: ") + std::strerror(errno);
      close(fd);  // the socket's name stays in the folder
      return why;
    }
    case Plant::folder:
      fs::create_directory(path);
      std::ofstream(path + "/mine.txt") << "mine";
      return fs::exists(path + "/mine.txt") ? "" : "cannot create the folder";
  }
  return "?";
}

// Whether `path` is still what plant() put there.
bool still_there(const std::string& path, Plant p) {
  const fs::file_status s = fs::symlink_status(path);
  switch (p) {
    case Plant::pipe: return fs::is_fifo(s);
    case Plant::socket: return fs::is_socket(s);
    case Plant::folder: return fs::is_directory(s) && slurp(path + "/mine.txt") == "mine";
  }
  return false;
}

// Ends, after a few seconds, any wait on the named pipe at `path`: opens a
// reader (for a writer waiting in open; kept open until the end, so that
// its writes raise no SIGPIPE) and a writer, closed at once (for a reader
// waiting in open, which then reads the end of the file). A test that
// needed it has found cfdrun waiting on a pipe: had_to_unblock().
class PipeWatch {
 public:
  explicit PipeWatch(std::string path) : path_(std::move(path)), thread_([this] { watch(); }) {}
  ~PipeWatch() {
    done_ = true;
    thread_.join();
    if (reader_ >= 0) close(reader_);
  }
  PipeWatch(const PipeWatch&) = delete;
  PipeWatch& operator=(const PipeWatch&) = delete;
  bool had_to_unblock() const { return unblocked_; }

 private:
  void watch() {
    for (int k = 0; k < 100 && !done_; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (done_) return;
    unblocked_ = true;
    reader_ = open(path_.c_str(), O_RDONLY | O_NONBLOCK);
    const int writer = open(path_.c_str(), O_WRONLY | O_NONBLOCK);
    if (writer >= 0) close(writer);
  }
  std::string path_;
  std::atomic<bool> done_{false}, unblocked_{false};
  int reader_ = -1;
  std::thread thread_;  // last: started once the members it uses are
};

// Asks `open` to take the special file `p` planted at `path` (as the
// manifest, the lock, the history): it must refuse at once, naming the
// path and what it is, without waiting on a pipe, and leave it as it was.
void expect_refused(const std::string& path, Plant p, const std::function<void()>& open, const std::string& as) {
  PipeWatch watch(path);
  try {
    open();
    ADD_FAILURE() << kind(p) << " was taken for " << as;
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), path + ": is " + kind(p))) << e.what();
  }
  EXPECT_FALSE(watch.had_to_unblock()) << "cfdrun waited on the named pipe (" << as << ")";
  EXPECT_TRUE(still_there(path, p)) << kind(p) << " (" << as << ")";
}

// For a pipe, a socket and a folder in turn: a fresh folder `name` with
// that planted at path_of(folder), then body(folder, what) (said and
// skipped where the system cannot make it).
template <class PathOf, class Body>
void with_each_plant(const std::string& name, PathOf path_of, Body body) {
  for (const Plant p : {Plant::pipe, Plant::socket, Plant::folder}) {
    const std::string dir = fresh_dir(name);
    fs::create_directories(dir);
    const std::string why = plant(path_of(dir), p);
    if (!why.empty()) {
      std::printf("(%s not tried: %s)\n", kind(p), why.c_str());
      continue;
    }
    body(dir, p);
    fs::remove_all(dir);
  }
}

// A sod-like run's decomposition: 4 cells on one rank.
cfd::Decomposition line() {
  return cfd::decompose(cfd::GridBlock::whole(1, cfd::Centering::cell, {4, 1, 1}, 2, {0, 0, 0}, {1, 0, 0}),
                        {false, false, false});
}

// A new run's history at `path` in the folder `dir`: the row of step 0, as
// a checkpoint after it records it (returned), and with `step_after` one
// row more, written after that checkpoint.
cfd::LoopRecord write_history(const std::string& dir, const std::string& path, bool step_after) {
  auto folder = std::make_shared<cfd::OutputFolder>(dir, false, false, sod_run);
  cfd::SnapshotSeries series(dir, "sod", line(), {}, folder);
  cfd::run::HistoryFile h(series, path, "# totals\nstep,time,dt,mass\n", true, nullptr);
  h.append_row(0, 0.0, 0.0, {1.5});
  cfd::LoopRecord at;
  at.history_file = h.name();
  at.history_bytes = h.bytes();
  if (step_after) h.append_row(1, 0.5, 0.5, {1.25});
  return at;
}

}  // namespace

// The first case and its neighbours: a pipe, a socket or a folder
// as the manifest, with --overwrite (the run hung for ever on the pipe) and
// with --restart: refused at once, naming what it is; nothing is read.
TEST(OutputFolderSpecialFiles, ManifestThatIsNotAFileIsRefusedNotRead) {
  with_each_plant("manifest", manifest_of, [](const std::string& dir, Plant p) {
    for (const bool continuing : {false, true})
      expect_refused(
          manifest_of(dir), p, [&] { cfd::OutputFolder run(dir, !continuing, continuing, sod_run); },
          std::string("the manifest, continuing ") + (continuing ? "yes" : "no"));
  });
}

// The lock: a pipe, a socket or a folder under .cfdrun.lock is refused,
// not locked nor written (the holder's pid), and stays.
TEST(OutputFolderSpecialFiles, LockThatIsNotAFileIsRefused) {
  with_each_plant("lock", lock_of, [](const std::string& dir, Plant p) {
    expect_refused(
        lock_of(dir), p, [&] { cfd::OutputFolder run(dir, false, false, sod_run); }, "the lock");
  });
}

// A pipe where the manifest lists the history: --overwrite opened it for
// writing and waited for a reader for ever; --restart could not cut it
// back. Both are refused at once, naming the pipe.
TEST(OutputFolderSpecialFiles, PipeUnderTheHistoryNameIsRefusedWithoutWaiting) {
  const std::string dir = fresh_dir("history_pipe");
  const std::string path = dir + "/sod.hst";
  const cfd::LoopRecord at = write_history(dir, path, false);
  fs::remove(path);
  ASSERT_EQ(mkfifo(path.c_str(), 0644), 0);
  for (const bool restart : {false, true}) {
    auto folder = std::make_shared<cfd::OutputFolder>(dir, !restart, restart, sod_run);
    ASSERT_TRUE(folder->listed("sod.hst"));
    cfd::SnapshotSeries series(dir, "sod", line(), {}, folder);
    expect_refused(
        path, Plant::pipe,
        [&] { cfd::run::HistoryFile h(series, path, "# totals\nstep,time,dt,mass\n", true, restart ? &at : nullptr); },
        std::string("the history, restart ") + (restart ? "yes" : "no"));
  }
  fs::remove_all(dir);
}

// The second case: a hard link under the history's name, to a file
// outside the folder. --restart cut it back (and appended), --overwrite
// emptied it: the file outside changed. Both are refused, and the file
// outside keeps every byte.
TEST(OutputFolderHardLinks, HistoryIsNotWrittenThroughOnRestartOrOverwrite) {
  const std::string dir = fresh_dir("history_link");
  const std::string outside = dir + "_outside.hst";
  const std::string path = dir + "/sod.hst";
  const cfd::LoopRecord at = write_history(dir, path, true);
  fs::remove(outside);
  ASSERT_EQ(link(path.c_str(), outside.c_str()), 0);
  const std::string before = slurp(outside);
  ASSERT_GT(before.size(), static_cast<size_t>(at.history_bytes));  // a cut would show
  for (const bool restart : {true, false}) {
    auto folder = std::make_shared<cfd::OutputFolder>(dir, !restart, restart, sod_run);
    cfd::SnapshotSeries series(dir, "sod", line(), {}, folder);
    try {
      cfd::run::HistoryFile h(series, path, "# a new history\n", true, restart ? &at : nullptr);
      h.append_row(2, 1.0, 0.5, {1.0});
      ADD_FAILURE() << "the history was written through a hard link (restart " << restart << ")";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), path + ": is a hard link")) << e.what();
      EXPECT_TRUE(contains(e.what(), "cfdrun writes only files of its own")) << e.what();
    }
    EXPECT_EQ(slurp(outside), before) << "restart " << restart;
    EXPECT_EQ(fs::hard_link_count(path), 2u);
  }
  fs::remove_all(dir);
  fs::remove(outside);
}

// Hard links under the lock and the manifest: the lock had the holder's pid
// written into the file outside, the manifest had the new run's names
// appended to it. Both are refused before anything is written.
TEST(OutputFolderHardLinks, LockAndManifestAreNotWrittenThrough) {
  for (const char* name : {cfd::OutputFolder::lock_name, cfd::OutputFolder::manifest_name}) {
    const std::string dir = fresh_dir("link_" + std::string(name + 1));
    {
      cfd::OutputFolder run(dir, false, false, sod_run);
      std::ofstream(dir + "/sod_00000000.h5") << "a snapshot";
      run.wrote(dir + "/sod_00000000.h5");
    }
    const std::string outside = dir + "_outside";
    fs::remove(outside);
    // Not what cfdrun would write there (the lock holds this process's pid).
    if (std::string(name) == cfd::OutputFolder::lock_name) std::ofstream(lock_of(dir)) << "the user's file\n";
    ASSERT_EQ(link((dir + "/" + name).c_str(), outside.c_str()), 0);
    const std::string before = slurp(outside);
    try {
      cfd::OutputFolder run(dir, true, false, sod_run);
      std::ofstream(dir + "/sod_00000001.h5") << "another snapshot";
      run.wrote(dir + "/sod_00000001.h5");
      ADD_FAILURE() << name << ": written through a hard link";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), dir + "/" + name + ": is a hard link")) << e.what();
    }
    EXPECT_EQ(slurp(outside), before) << name;
    fs::remove_all(dir);
    fs::remove(outside);
  }
}

// Files written under a temporary name and renamed into place (snapshots,
// the XDMF index) replace the folder's name of a hard-linked file: the
// other name keeps the old bytes.
TEST(OutputFolderHardLinks, SnapshotAndIndexAreReplacedNotWrittenThrough) {
  const std::string dir = fresh_dir("snapshot_link");
  {
    auto folder = std::make_shared<cfd::OutputFolder>(dir, false, false, sod_run);
    cfd::SnapshotSeries series(dir, "sod", line(), {}, folder);
    series.write<double>(0, 0.0, {{"rho", std::vector<double>(4, 1.0)}});
  }
  std::vector<std::pair<std::string, std::string>> kept;  // outside name, its bytes
  for (const char* name : {"sod_00000000.h5", "sod.xdmf"}) {
    const std::string outside = dir + "_outside_" + name;
    fs::remove(outside);
    ASSERT_EQ(link((dir + "/" + name).c_str(), outside.c_str()), 0);
    kept.push_back({outside, slurp(outside)});
  }
  {
    auto folder = std::make_shared<cfd::OutputFolder>(dir, false, true, sod_run);
    cfd::SnapshotSeries series(dir, "sod", line(), {}, folder);
    series.write<double>(0, 0.0, {{"rho", std::vector<double>(4, 2.0)}});  // other bytes
  }
  for (const auto& [outside, bytes] : kept) {
    EXPECT_EQ(slurp(outside), bytes) << outside;
    EXPECT_EQ(fs::hard_link_count(outside), 1u) << outside;
    fs::remove(outside);
  }
  EXPECT_EQ(cfd::h5_read_array(dir + "/sod_00000000.h5", "fields/rho").values, std::vector<double>(4, 2.0));
  fs::remove_all(dir);
}

// The third case: a line added to the manifest naming a user's
// file. notes.hst has a form cfdrun writes, but no sod run writes it:
// refused, with --overwrite (which removed it) and with --restart, naming
// the manifest's line; notes.hst stays.
TEST(OutputFolderManifest, LineNamingAUsersFileIsRefused) {
  const std::string dir = fresh_dir("notes");
  {
    cfd::OutputFolder run(dir, false, false, sod_run);
    std::ofstream(dir + "/sod_00000000.h5") << "a snapshot";
    run.wrote(dir + "/sod_00000000.h5");
  }
  std::ofstream(dir + "/notes.hst") << "my notes";
  std::ofstream(manifest_of(dir), std::ios::app) << "notes.hst\n";
  const std::string text = slurp(manifest_of(dir));
  const long last_line = static_cast<long>(std::count(text.begin(), text.end(), '\n'));
  for (const bool continuing : {false, true}) {
    try {
      cfd::OutputFolder run(dir, !continuing, continuing, sod_run);
      run.retire_previous();
      ADD_FAILURE() << "a manifest line naming notes.hst was taken (continuing " << continuing << ")";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), manifest_of(dir) + ":" + std::to_string(last_line) +
                                         ": 'notes.hst' is not the name of a file cfdrun writes"))
          << e.what();
    }
    EXPECT_EQ(slurp(dir + "/notes.hst"), "my notes");
    EXPECT_EQ(slurp(dir + "/sod_00000000.h5"), "a snapshot");
  }
  fs::remove_all(dir);
}

// What the prefixes allow: an earlier run of another solver in the folder
// is replaced by --overwrite (its names are a solver's), while a run told
// only its own prefix refuses that manifest.
TEST(OutputFolderManifest, AnotherSolversRunIsReplaced) {
  const std::string dir = fresh_dir("other_solver");
  const std::vector<std::string> names = {"diffusion_00000000.h5", "diffusion.xdmf", "diffusion.hst",
                                          "checkpoint_00000004.h5", "diffusion_final.txt"};
  {
    cfd::OutputFolder run(dir, false, false, {"diffusion", "sod"});
    for (const auto& name : names) {
      std::ofstream(dir + "/" + name) << "diffusion's";
      run.wrote(dir + "/" + name);
    }
  }
  std::ofstream(dir + "/notes.md") << "mine";
  EXPECT_THROW(cfd::OutputFolder(dir, true, false, {"sod"}), std::runtime_error);
  {
    cfd::OutputFolder run(dir, true, false, sod_run);
    run.retire_previous();
  }
  for (const auto& name : names) EXPECT_FALSE(fs::exists(dir + "/" + name)) << name;
  EXPECT_EQ(slurp(dir + "/notes.md"), "mine");
  fs::remove_all(dir);
}

// A folder under a snapshot's name. In a new folder it is refused before
// the run (without --overwrite as results, with it as not cfdrun's); where
// the manifest lists the snapshot and a run writes it again (--restart) the
// snapshot is refused, naming the folder; the folder and its file stay.
TEST(OutputFolderSpecialFiles, FolderUnderASnapshotName) {
  const std::string dir = fresh_dir("snapshot_folder");
  const std::string snapshot = dir + "/sod_00000000.h5";
  fs::create_directories(dir);
  ASSERT_EQ(plant(snapshot, Plant::folder), "");
  EXPECT_THROW(cfd::OutputFolder(dir, false, false, sod_run), std::runtime_error);
  try {
    cfd::OutputFolder run(dir, true, false, sod_run);
    ADD_FAILURE() << "--overwrite took a folder with a snapshot's name";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "no cfdrun run in this folder wrote it (it is a folder")) << e.what();
  }
  EXPECT_TRUE(still_there(snapshot, Plant::folder));
  fs::remove_all(dir);

  {
    auto folder = std::make_shared<cfd::OutputFolder>(dir, false, false, sod_run);
    cfd::SnapshotSeries series(dir, "sod", line(), {}, folder);
    series.write<double>(0, 0.0, {{"rho", std::vector<double>(4, 1.0)}});
  }
  fs::remove(snapshot);
  ASSERT_EQ(plant(snapshot, Plant::folder), "");
  {
    auto folder = std::make_shared<cfd::OutputFolder>(dir, false, true, sod_run);
    ASSERT_TRUE(folder->listed("sod_00000000.h5"));
    cfd::SnapshotSeries series(dir, "sod", line(), {}, folder);
    try {
      series.write<double>(0, 0.0, {{"rho", std::vector<double>(4, 1.0)}});
      ADD_FAILURE() << "a snapshot was written over a folder";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), snapshot + ": is a folder")) << e.what();
    }
  }
  EXPECT_TRUE(still_there(snapshot, Plant::folder));
  fs::remove_all(dir);
}

// Removing (--overwrite's retire_previous, output.checkpoint_keep's remove):
// a name the manifest lists that is no longer a regular file (a folder, a
// pipe, a link) stays, and leaves the manifest; a hard link loses only the
// folder's name, its data stays under the other.
TEST(OutputFolderSpecialFiles, OnlyRegularFilesAreRemoved) {
  const std::string dir = fresh_dir("remove");
  const std::string outside_link = dir + "_target", outside_hard = dir + "_hard";
  const std::vector<std::string> names = {"sod_00000005.h5", "sod_00000006.h5", "sod_00000007.h5", "sod_00000008.h5",
                                          "checkpoint_00000004.h5"};
  {
    cfd::OutputFolder run(dir, false, false, sod_run);
    for (const auto& name : names) {
      std::ofstream(dir + "/" + name) << "old";
      run.wrote(dir + "/" + name);
    }
  }
  auto at = [&](const std::string& name) { return dir + "/" + name; };
  fs::remove(at("sod_00000005.h5"));
  fs::create_directory(at("sod_00000005.h5"));  // empty: fs::remove would take it
  fs::remove(at("sod_00000006.h5"));
  ASSERT_EQ(mkfifo(at("sod_00000006.h5").c_str(), 0644), 0);
  fs::remove(at("sod_00000007.h5"));
  fs::remove(outside_link);
  std::ofstream(outside_link) << "mine";
  fs::create_symlink(outside_link, at("sod_00000007.h5"));
  fs::remove(outside_hard);
  ASSERT_EQ(link(at("sod_00000008.h5").c_str(), outside_hard.c_str()), 0);
  fs::remove(at("checkpoint_00000004.h5"));
  ASSERT_EQ(mkfifo(at("checkpoint_00000004.h5").c_str(), 0644), 0);
  {
    // output.checkpoint_keep in a continued run: the pipe stays, unlisted.
    cfd::OutputFolder run(dir, false, true, sod_run);
    run.remove("checkpoint_00000004.h5");
    EXPECT_FALSE(run.listed("checkpoint_00000004.h5"));
  }
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(at("checkpoint_00000004.h5"))));
  // No longer listed, it is the user's: --overwrite refuses the folder.
  try {
    cfd::OutputFolder run(dir, true, false, sod_run);
    ADD_FAILURE() << "an unlisted pipe under a checkpoint's name was taken for cfdrun's";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "no cfdrun run in this folder wrote it (it is a named pipe (FIFO)")) << e.what();
  }
  fs::remove(at("checkpoint_00000004.h5"));
  {
    cfd::OutputFolder run(dir, true, false, sod_run);
    run.retire_previous();
  }
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(at("sod_00000005.h5"))));
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(at("sod_00000006.h5"))));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(at("sod_00000007.h5"))));
  EXPECT_EQ(slurp(outside_link), "mine");
  EXPECT_FALSE(fs::exists(fs::symlink_status(at("sod_00000008.h5"))));
  EXPECT_EQ(slurp(outside_hard), "old");
  const std::string manifest = slurp(manifest_of(dir));
  for (const auto& name : names) EXPECT_FALSE(contains(manifest, name)) << name << " is still listed";
  fs::remove_all(dir);
  fs::remove(outside_link);
  fs::remove(outside_hard);
}
