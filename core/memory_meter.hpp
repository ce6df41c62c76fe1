// Bytes held in the solvers' memory space (MemSpace), counted from Kokkos' own
// allocation events (the Kokkos Tools callbacks): every View and every Kokkos
// temporary, with Kokkos' padding, as the device allocator is asked for them.
// The benchmark's bytes-per-cell footprint comes from here, not from sums of
// View sizes.
#pragma once

#include <cstdint>

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

}  // namespace cfd
