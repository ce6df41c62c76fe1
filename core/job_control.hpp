// Job control: what a run inside a batch job needs to end well. SIGTERM,
// SIGINT and SIGUSR1 ask the run to stop after the current step (the driver
// then writes a checkpoint and cfdrun exits with exit_stopped); a second
// SIGINT ends the process at once, removing the file it was writing so that
// only complete files remain. A wall-clock limit is checked the same way.
// After Parthenon's signal_handler.cpp and Idefix's SIGUSR2/stop file.
#pragma once

#include "core/config.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace cfd {

// cfdrun's exit statuses (docs/user-guide.md): 0 done, 1 the run failed,
// 2 bad command line or case, 3 stopped early (signal or wall time) with a
// checkpoint to continue from.
constexpr int exit_done = 0, exit_failed = 1, exit_usage = 2, exit_stopped = 3;

// Ends the run on every rank after a checkpoint was written; cfdrun exits
// with exit_stopped and prints the message.
struct RunStopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace job {

// Installs the handlers of SIGTERM, SIGINT and SIGUSR1 (once per process).
void install_signal_handlers();
// The signal that asked to stop (0 if none).
int stop_signal();
// "SIGTERM", "SIGINT", "SIGUSR1".
const char* signal_name(int signal);

// The file being written now, removed by a second SIGINT. One at a time per
// process: outputs are written one after another.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::string& path);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
};

// Writes `contents` to `path` through `path.tmp`, renamed into place when
// complete; on any failure the temporary file is removed and the error
// names the system's reason ("No space left on device").
void write_file_atomically(const std::string& path, const std::string& contents);

// Seconds since the process started (since the first call of this, which
// cfdrun makes first thing in main). Tests set CFDRUN_TEST_CLOCK=<s> for a
// clock that advances s seconds at each reading instead.
double process_seconds();

// "HH:MM:SS", "MM:SS" or plain seconds ("5400", "90.5") -> seconds; throws
// std::invalid_argument naming the accepted forms.
double parse_wall_time(const std::string& text);

}  // namespace job
}  // namespace cfd

namespace cfd {

// The `run` section every solver shares: the wall-clock limit and the
// checks for a broken state.
struct RunSettings {
  double wall_time = 0;  // seconds from the start of cfdrun (0: none)
  long check_every = 0;  // steps between full state checks (0: the solver's choice)
  double dt_floor = 0;   // a stable dt below this fraction of the first one is a fault (0: none)
};
std::vector<KeySpec> run_keys();
RunSettings run_settings(const Config& config);

}  // namespace cfd
