#include "core/signals.hpp"

#include <unistd.h>

#include <csignal>
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

}  // namespace cfd::job
