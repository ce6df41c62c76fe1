#include "core/clock.hpp"

#include <cstdlib>

namespace cfd::job {

namespace {

const auto process_start = std::chrono::steady_clock::now();

}  // namespace

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

}  // namespace cfd::job
