// The processes of a run and what they say to each other: MPI when cfdrun is
// built with it (CFDRUN_HAVE_MPI), otherwise one process. Everything else in
// cfdrun talks to MPI through this header, so a build without MPI is the
// same code with one rank.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef CFDRUN_HAVE_MPI
#include <mpi.h>
#endif

namespace cfd {

// Initialises MPI for the lifetime of the object (before Kokkos, so that
// Kokkos can pick a GPU by local rank) and finalises it after; only under
// an MPI launcher (mpirun, mpiexec, srun), since starting MPI in a lone
// process (a "singleton") takes Open MPI half a second and gives one rank
// anyway. CFDRUN_MPI_INIT=always starts it whatever the environment.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  // Whether this process was started by an MPI launcher.
  static bool launched();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// A communicator: MPI_COMM_WORLD, a Cartesian one, or the single process of
// a build without MPI. Copies share the communicator; none is freed.
class Comm {
 public:
  static Comm world();
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

  double min(double value) const;
  double max(double value) const;
  long min(long value) const;
  // Element-wise sums and minima over ranks, in place.
  void sum(double* values, int count) const;
  void min(double* values, int count) const;
  double sum(double value) const {
    sum(&value, 1);
    return value;
  }
  long sum(long value) const;
  // The values of the one rank that holds them (`owner`), on every rank:
  // the others' count as zeros, so a sum over ranks adds nothing to them.
  // How the first bad cell found by a reduction is reported with its state.
  void from_owner(bool owner, double* values, int count) const {
    if (!owner)
      for (int v = 0; v < count; ++v) values[v] = 0;
    sum(values, count);
  }
  void barrier() const;
  // Ends every rank of the run with `status` (MPI_Abort); returns only
  // without MPI.
  void abort(int status) const;
  // Rank 0's string on every rank.
  std::string broadcast(const std::string& value) const;

  // Gathers each rank's values to rank 0, in rank order (empty elsewhere).
  template <class T>
  std::vector<T> gather(const std::vector<T>& values) const;

  // Whether the MPI library takes CUDA device pointers (asked at run time;
  // false without MPI). Host builds hand their buffers over either way.
  static bool device_aware();

#ifdef CFDRUN_HAVE_MPI
  explicit Comm(MPI_Comm comm);
  MPI_Comm handle() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_SELF;
#else
 private:
#endif
  Comm() = default;
  int rank_ = 0, size_ = 1;
};

// A failure every rank has reached together (a non-physical state found by a
// reduction, a bad case): rank 0 reports it and all ranks exit cleanly.
// Any other exception on a rank of a multi-rank run aborts every rank.
struct CollectiveError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace cfd
