#include "core/memory_meter.hpp"

#include "core/parallel.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
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

double memory_gib(const char* key) {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (!f) return 0;
  char line[256];
  double kib = 0;
  const size_t n = std::strlen(key);
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, key, n) == 0 && line[n] == ':') kib = std::atof(line + n + 1);
  std::fclose(f);
  return kib / (1024.0 * 1024.0);
}

std::string describe_failure(const std::exception& e, const std::string& smaller) {
  std::string what = e.what();
  const bool kokkos = what.find("Kokkos failed to allocate") != std::string::npos ||
                      what.find("memory space failed to allocate") != std::string::npos;
  if (!kokkos && !dynamic_cast<const std::bad_alloc*>(&e)) return what;
  std::string out = "out of memory: ";
  if (kokkos) {
    // Kokkos 3 to 4.5: 'label "euler::u" ... named "Host" ... Allocation of size 298 G failed';
    // Kokkos 4.6: 'Kokkos ERROR: Cuda memory space failed to allocate 670.6 GiB (label="diffusion::u").'
    auto between = [&](const std::string& before, const std::string& after) {
      const auto a = what.find(before);
      if (a == std::string::npos) return std::string();
      const auto b = what.find(after, a + before.size());
      return b == std::string::npos ? std::string() : what.substr(a + before.size(), b - a - before.size());
    };
    std::string label = between("label \"", "\""), space = between("named \"", "\"");
    std::string size = between("Allocation of size ", " failed");
    if (size.empty()) {  // Kokkos 4.6
      label = between("(label=\"", "\")");
      space = between("Kokkos ERROR: ", " memory space failed");
      size = between("failed to allocate ", " (label=");
      if (!size.empty() && size.back() == 'B') size.pop_back();  // "670.6 GiB" -> "670.6 Gi" + "B" below
    }
    out += "cannot allocate " + (label.empty() ? std::string("an array") : "'" + label + "'") +
           (size.empty() ? "" : " (" + size + "B)") + (space.empty() ? "" : " in " + space + " memory");
  } else {
    out += "a host allocation failed (std::bad_alloc)";
  }
  char mem[160];
#ifdef KOKKOS_ENABLE_CUDA
  if (what.find("named \"Cuda") != std::string::npos || what.find("ERROR: Cuda memory space") != std::string::npos) {
    std::snprintf(mem, sizeof mem, "; the GPU has %.1f GiB of memory",
                  static_cast<double>(Kokkos::Cuda().cuda_device_prop().totalGlobalMem) / (1024.0 * 1024.0 * 1024.0));
    return out + mem + ". " + smaller + ", or more ranks (mpirun, one GPU each) need less per GPU";
  }
#endif
  std::snprintf(mem, sizeof mem, "; this machine has %.1f GiB of memory, %.1f GiB available", memory_gib("MemTotal"),
                memory_gib("MemAvailable"));
  return out + mem + ". " + smaller + ", or more ranks (mpirun) need less per process";
}

}  // namespace cfd
