#include "core/job_control.hpp"

#include "core/safe_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cfd::job {

namespace {

volatile std::sig_atomic_t pending = 0;
// The path of the file being written, for the handler (which may only make
// async-signal-safe calls: unlink and _exit).
char writing[4096] = {0};
volatile std::sig_atomic_t writing_set = 0;

extern "C" void on_stop_signal(int signal) {
  if (pending != 0 && signal == SIGINT) {
    // A second interrupt: the user wants out now.
    if (writing_set) unlink(writing);
    _exit(128 + SIGINT);
  }
  if (pending == 0) pending = signal;
}

const auto process_start = std::chrono::steady_clock::now();

}  // namespace

void install_signal_handlers() {
  static const bool installed = [] {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;  // interrupted writes carry on
    for (int s : {SIGTERM, SIGINT, SIGUSR1}) sigaction(s, &action, nullptr);
    return true;
  }();
  (void)installed;
}

int stop_signal() { return pending; }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGUSR1: return "SIGUSR1";
    default: return "a signal";
  }
}

TemporaryFile::TemporaryFile(const std::string& path) {
  writing_set = 0;
  std::strncpy(writing, path.c_str(), sizeof writing - 1);
  writing[sizeof writing - 1] = '\0';
  writing_set = path.size() < sizeof writing;
}

TemporaryFile::~TemporaryFile() { writing_set = 0; }

void write_file_atomically(const std::string& path, const std::string& contents) {
  const std::string tmp = path + ".tmp";
  TemporaryFile in_progress(tmp);
  // A leftover or a planted link goes first, and the new file is created
  // afresh (O_EXCL never follows a link), so nothing outside is written.
  files::clear_temporary(tmp);
  const int fd = files::open_no_follow(tmp, O_WRONLY | O_CREAT | O_EXCL);
  errno = 0;
  std::FILE* f = fdopen(fd, "wb");
  if (!f) {
    const int why = errno;
    close(fd);
    std::remove(tmp.c_str());
    throw std::runtime_error(tmp + ": cannot create: " + std::strerror(why));
  }
  const bool written = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size() && std::fflush(f) == 0;
  const int cause = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    const int why = cause != 0 ? cause : errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(tmp + ": cannot write: " + std::strerror(why));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int why = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot rename into place: " + std::strerror(why));
  }
}

double process_seconds() {
  // CFDRUN_TEST_CLOCK=<s>: a clock for tests that advances by s seconds at
  // every reading, so that what falls due by the wall clock (checkpoints,
  // the wall-time limit) depends on the run's steps, not the machine's speed.
  static const double tick = [] {
    const char* v = std::getenv("CFDRUN_TEST_CLOCK");
    return v ? std::strtod(v, nullptr) : 0.0;
  }();
  if (tick > 0) {
    static long readings = 0;
    return tick * static_cast<double>(++readings);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - process_start).count();
}

double parse_wall_time(const std::string& text) {
  const std::string forms = "'" + text + "': expected HH:MM:SS, MM:SS or seconds (e.g. 01:30:00, 90:00 or 5400)";
  double parts[3] = {0, 0, 0};
  int count = 0;
  size_t start = 0;
  while (true) {
    const size_t colon = text.find(':', start);
    const std::string part = text.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (count == 3 || part.empty() || part.find_first_not_of("0123456789.") != std::string::npos)
      throw std::invalid_argument(forms);
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(part, &used);
    } catch (const std::exception&) {
      throw std::invalid_argument(forms);
    }
    if (used != part.size() || !std::isfinite(v)) throw std::invalid_argument(forms);
    parts[count++] = v;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  double seconds = 0;
  for (int k = 0; k < count; ++k) {
    if (k > 0 && parts[k] >= 60) throw std::invalid_argument(forms + "; minutes and seconds must be below 60");
    seconds = seconds * 60 + parts[k];
  }
  if (!(seconds > 0)) throw std::invalid_argument(forms + "; it must be positive");
  return seconds;
}

}  // namespace cfd::job

namespace cfd {

std::vector<KeySpec> run_keys() {
  std::vector<KeySpec> k = {
      {"run.wall_time", KeyType::string, "",
       "stop before this much wall-clock time (HH:MM:SS, MM:SS or seconds) has passed since cfdrun started, "
       "leaving a checkpoint (same as --wall-time); empty: no limit"},
      {"run.check_every",
       KeyType::integer,
       "0",
       "check the whole state for NaN, Inf and non-positive density or pressure every this many steps (0: the "
       "solver's choice; it is also checked before every checkpoint and the final snapshot)",
       {},
       0},
      {"run.dt_floor",
       KeyType::real,
       "1e-8",
       "stop with an error when the stable time step falls below this fraction of the first step's (0: never)",
       {},
       0,
       1},
  };
  k.push_back({"run.continued_from", KeyType::string, "",
               "set by cfdrun --restart CHECKPOINT --output NEW: the checkpoint (and its step) this run continues "
               "from, stored with its results; empty for a run from its initial state"});
  mark_on_restart(k, {"run.*"}, OnRestart::same_bits);  // limits and checks: no effect on a result
  return k;
}

RunSettings run_settings(const Config& config) {
  RunSettings s;
  const std::string wall = config.get_string("run.wall_time");
  if (!wall.empty()) {
    try {
      s.wall_time = job::parse_wall_time(wall);
    } catch (const std::invalid_argument& e) {
      config.reject("run.wall_time", e.what());
    }
  }
  s.check_every = config.get_int("run.check_every");
  s.dt_floor = config.get_real("run.dt_floor");
  return s;
}

}  // namespace cfd
