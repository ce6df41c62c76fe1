// The run policy every solver shares: cfdrun's exit statuses, the stop of a
// run that leaves a checkpoint, and the `run` section of the case (the
// wall-clock limit and the checks for a broken state).
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

struct RunSettings {
  double wall_time = 0;  // seconds from the start of cfdrun (0: none)
  long check_every = 0;  // steps between full state checks (0: the solver's choice)
  double dt_floor = 0;   // a stable dt below this fraction of the first one is a fault (0: none)
};
std::vector<KeySpec> run_keys();
RunSettings run_settings(const Config& config);

// "HH:MM:SS", "MM:SS" or plain seconds ("5400", "90.5") -> seconds; throws
// std::invalid_argument naming the accepted forms.
double parse_wall_time(const std::string& text);

}  // namespace cfd
