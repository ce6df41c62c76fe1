// Everything that differs between Kokkos 3.4 (Debian, CPU) and Kokkos 4.x (CUDA)
// lives here, so that the rest of the code is written once.
#pragma once

#include <Kokkos_Core.hpp>

#include <string>

namespace cfd {

// Kokkos 3.4 keeps the math functions in Kokkos::Experimental; 3.7 moved them
// to Kokkos:: and 4.x removed the old names.
#if KOKKOS_VERSION >= 30700
namespace kmath = Kokkos;
#else
namespace kmath = Kokkos::Experimental;
#endif

inline std::string kokkos_version_string() {
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + (v % 100 < 10 ? "0" : "") +
         std::to_string(v % 100);
}

}  // namespace cfd
