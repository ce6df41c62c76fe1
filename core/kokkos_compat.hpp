// Everything that differs between Kokkos 3.4 (Debian, CPU) and Kokkos 4.x (CUDA)
// lives here, so that the rest of the code is written once.
#pragma once

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace cfd {

// Kokkos 3.4 keeps the math functions in Kokkos::Experimental; 3.7 moved them
// to Kokkos:: and 4.x removed the old names.
#if KOKKOS_VERSION >= 30700
namespace kmath = Kokkos;
#else
namespace kmath = Kokkos::Experimental;
#endif

// a*b rounded on its own. nvcc fuses a*b + c into one FMA by default, which
// rounds once instead of twice and so differs in the last bit from the CPU
// build (g++ in ISO C++ mode does not contract). Where a kernel must give the
// same bits on every backend, its products go through this.
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION Real mul_unfused(Real a, Real b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<Real, float>)
    return __fmul_rn(a, b);
  else
    return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

inline std::string kokkos_version_string() {
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + (v % 100 < 10 ? "0" : "") +
         std::to_string(v % 100);
}

}  // namespace cfd
