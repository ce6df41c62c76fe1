#include "core/comm.hpp"
#include "core/parallel.hpp"

#include <gtest/gtest.h>

int main(int argc, char* argv[]) {
  // MPI only under a launcher: the unit tests run on one process, where
  // cfd::Comm needs no MPI, and Open MPI's own allocations at exit would
  // otherwise fail the sanitizer build's leak check at test discovery.
  cfd::MpiSession mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  int status = 0;
  {
    cfd::KokkosSession kokkos(argc, argv);
    status = RUN_ALL_TESTS();
  }
  return status;
}
