#include "core/parallel.hpp"

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
