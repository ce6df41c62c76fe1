// Signals in a batch job: SIGTERM, SIGINT and SIGUSR1 ask the run to stop
// after the current step (the run layer then writes a checkpoint and cfdrun
// exits with exit_stopped); a second SIGINT ends the process at once,
// removing the file it was writing so that only complete files remain.
// After Parthenon's signal_handler.cpp and Idefix's SIGUSR2/stop file.
// Below every file writer: plain POSIX, no policy.
#pragma once

#include <string>

namespace cfd::job {

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

}  // namespace cfd::job
