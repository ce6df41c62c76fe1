#include "core/parallel.hpp"

#include <cstdint>
#include <cstdlib>

namespace cfd {

KokkosSession::KokkosSession(int& argc, char* argv[]) {
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::initialize(argc, argv);
}

KokkosSession::~KokkosSession() { Kokkos::finalize(); }

int device_id() {
#if defined(KOKKOS_ENABLE_CUDA)
  return ExecSpace().cuda_device();
#else
  return -1;
#endif
}

size_t team_scratch_limit(int team_size) {
#if defined(KOKKOS_ENABLE_CUDA)
  int block_bytes = 0;
  if (cudaDeviceGetAttribute(&block_bytes, cudaDevAttrMaxSharedMemoryPerBlock, device_id()) != cudaSuccess)
    return team_scratch_limit();
  const size_t reserved = sizeof(double) * (size_t(team_size) + 2) + sizeof(std::int64_t);
  return size_t(block_bytes) > reserved ? size_t(block_bytes) - reserved : 0;
#else
  (void)team_size;
  return team_scratch_limit();
#endif
}

std::vector<std::string> enabled_execution_spaces() {
  std::vector<std::string> spaces{ExecSpace::name()};
  auto add = [&](const char* name) {
    if (spaces.front() != name) spaces.push_back(name);
  };
#ifdef KOKKOS_ENABLE_CUDA
  add("Cuda");
#endif
#ifdef KOKKOS_ENABLE_HIP
  add("HIP");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  add("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
  add("Threads");
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  add("Serial");
#endif
  return spaces;
}

}  // namespace cfd
