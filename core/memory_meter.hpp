// Bytes held in the solvers' memory space (MemSpace), counted from Kokkos' own
// allocation events (the Kokkos Tools callbacks): every View and every Kokkos
// temporary, with Kokkos' padding, as the device allocator is asked for them.
// The benchmark's bytes-per-cell footprint comes from here, not from sums of
// View sizes.
#pragma once

#include <cstdint>
#include <exception>
#include <string>

namespace cfd {

// Counts while it lives (one at a time); installs the callbacks on
// construction, passing every event on to the ones installed before (a
// Kokkos Tools library loaded with KOKKOS_TOOLS_LIBS), and puts those back on
// destruction, so timed runs carry no hook of cfdrun's.
class AllocationMeter {
 public:
  AllocationMeter();
  ~AllocationMeter();
  AllocationMeter(const AllocationMeter&) = delete;
  AllocationMeter& operator=(const AllocationMeter&) = delete;

  std::int64_t current_bytes() const;  // allocated since construction, less what was freed
  std::int64_t peak_bytes() const;     // the most current_bytes has been
};

// "MemTotal" or "MemAvailable" of /proc/meminfo in GiB (0 if unknown).
double memory_gib(const char* key);

// What went wrong, in words: an allocation that failed (Kokkos' message or
// std::bad_alloc) says what it was for, how much, and how much memory the
// machine or GPU has, then "<smaller>, or more ranks (mpirun...) need less";
// any other error is its own message. `smaller` is the tool's own advice
// ("A smaller grid, fp32", "Smaller --sizes").
std::string describe_failure(const std::exception& e, const std::string& smaller);

}  // namespace cfd
