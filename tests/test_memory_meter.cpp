// The device-footprint meter (core/memory_meter.hpp): it counts Kokkos'
// allocations through the Kokkos Tools callbacks and chains to a tool loaded
// before it, which must keep seeing every allocation and release.
#include "core/memory_meter.hpp"
#include "core/parallel.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace {
std::int64_t tool_bytes = 0;
void tool_allocate(Kokkos::Tools::SpaceHandle, const char*, const void*, std::uint64_t size) {
  tool_bytes += static_cast<std::int64_t>(size);
}
void tool_deallocate(Kokkos::Tools::SpaceHandle, const char*, const void*, std::uint64_t size) {
  tool_bytes -= static_cast<std::int64_t>(size);
}
}  // namespace

// A Kokkos Tools library loaded before (KOKKOS_TOOLS_LIBS) keeps seeing
// every allocation while the meter counts, and has its callbacks back after.
TEST(AllocationMeter, ChainsToTheToolLoadedBefore) {
  Kokkos::fence();
  Kokkos::Tools::Experimental::set_allocate_data_callback(tool_allocate);
  Kokkos::Tools::Experimental::set_deallocate_data_callback(tool_deallocate);
  tool_bytes = 0;
  {
    cfd::AllocationMeter meter;
    Kokkos::View<double*, cfd::MemSpace> a("a", 1000);
    EXPECT_GE(tool_bytes, 8000);  // the tool saw it
    EXPECT_GE(meter.current_bytes(), 8000);
  }
  EXPECT_EQ(tool_bytes, 0);  // and its release
  {
    Kokkos::View<double*, cfd::MemSpace> b("b", 500);
    EXPECT_GE(tool_bytes, 4000);  // the tool's callbacks are back
  }
  Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
  Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
}
