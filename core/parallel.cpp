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

bool team_scratch_fits(size_t bytes, int team_size, int blocks_per_sm) {
#if defined(KOKKOS_ENABLE_CUDA)
  int block_limit = 0, sm_bytes = 0;
  if (cudaDeviceGetAttribute(&block_limit, cudaDevAttrMaxSharedMemoryPerBlock, device_id()) != cudaSuccess ||
      cudaDeviceGetAttribute(&sm_bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device_id()) != cudaSuccess)
    return bytes <= team_scratch_limit();
  const size_t team_reserve = sizeof(double) * (size_t(team_size) + 2) + sizeof(std::int64_t);
  return bytes + team_reserve <= size_t(block_limit) &&
         size_t(sm_bytes) / gpu_block_shared_bytes(bytes, team_size) >= size_t(blocks_per_sm);
#else
  (void)team_size;
  (void)blocks_per_sm;
  return bytes <= team_scratch_limit();
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
