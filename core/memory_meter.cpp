#include "core/memory_meter.hpp"

#include "core/parallel.hpp"

#include <atomic>
#include <cstring>
#include <stdexcept>

namespace cfd {
namespace {

std::atomic<std::int64_t> current{0}, peak{0};
std::atomic<bool> active{false};
// The callbacks installed before the meter (a tool loaded with
// KOKKOS_TOOLS_LIBS): every event goes on to them, and they are put back after.
Kokkos_Profiling_allocateDataFunction previous_allocate = nullptr;
Kokkos_Profiling_deallocateDataFunction previous_deallocate = nullptr;

bool in_mem_space(const Kokkos::Tools::SpaceHandle& handle) {
  return std::strncmp(handle.name, MemSpace::name(), sizeof(handle.name)) == 0;
}

void on_allocate(Kokkos::Tools::SpaceHandle handle, const char* label, const void* ptr, std::uint64_t size) {
  if (previous_allocate) previous_allocate(handle, label, ptr, size);
  if (!in_mem_space(handle)) return;
  const std::int64_t now = current += static_cast<std::int64_t>(size);
  std::int64_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
}

void on_deallocate(Kokkos::Tools::SpaceHandle handle, const char* label, const void* ptr, std::uint64_t size) {
  if (previous_deallocate) previous_deallocate(handle, label, ptr, size);
  if (in_mem_space(handle)) current -= static_cast<std::int64_t>(size);
}

}  // namespace

AllocationMeter::AllocationMeter() {
  if (active.exchange(true)) throw std::logic_error("AllocationMeter: only one may count at a time");
  current = 0;
  peak = 0;
  const auto installed = Kokkos::Tools::Experimental::get_callbacks();
  previous_allocate = installed.allocate_data;
  previous_deallocate = installed.deallocate_data;
  Kokkos::Tools::Experimental::set_allocate_data_callback(on_allocate);
  Kokkos::Tools::Experimental::set_deallocate_data_callback(on_deallocate);
}

AllocationMeter::~AllocationMeter() {
  Kokkos::Tools::Experimental::set_allocate_data_callback(previous_allocate);
  Kokkos::Tools::Experimental::set_deallocate_data_callback(previous_deallocate);
  previous_allocate = nullptr;
  previous_deallocate = nullptr;
  active = false;
}

std::int64_t AllocationMeter::current_bytes() const { return current.load(); }
std::int64_t AllocationMeter::peak_bytes() const { return peak.load(); }

}  // namespace cfd
