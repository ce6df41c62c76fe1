// Wall-clock time: a Stopwatch for timings, and the process's clock that
// the run layer's wall-clock schedule reads (injectable for tests). Below
// the halo and snapshot layers: no dependencies.
#pragma once

#include <chrono>

namespace cfd {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  void restart() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

namespace job {

// Seconds since the process started (since the first call of this, which
// cfdrun makes first thing in main). Tests set CFDRUN_TEST_CLOCK=<s> for a
// clock that advances s seconds at each reading instead.
double process_seconds();

}  // namespace job
}  // namespace cfd
