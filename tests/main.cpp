#include "core/comm.hpp"
#include "core/parallel.hpp"

#include <gtest/gtest.h>

int main(int argc, char* argv[]) {
  cfd::MpiSession mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  int status = 0;
  {
    cfd::KokkosSession kokkos(argc, argv);
    status = RUN_ALL_TESTS();
  }
  return status;
}
