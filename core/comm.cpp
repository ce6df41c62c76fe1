#include "core/comm.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

#if defined(CFDRUN_HAVE_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace cfd {

bool MpiSession::launched() {
  const char* force = std::getenv("CFDRUN_MPI_INIT");
  if (force && std::string(force) == "always") return true;
  // Open MPI's mpirun, PMI (MPICH, Intel MPI, srun --mpi=pmi2) and PMIx (srun, Open MPI 5).
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v)) return true;
  return false;
}

#ifdef CFDRUN_HAVE_MPI

namespace {
void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI error in ") + what);
}
}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!launched()) return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(&argc, &argv);
  // Errors come back as codes, so that cfdrun can say what failed.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MpiSession::~MpiSession() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) return;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

Comm::Comm(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

Comm Comm::world() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  // Unit tests and tools that never start MPI run as one process.
  if (!initialized) return Comm();
  return Comm(MPI_COMM_WORLD);
}

double Comm::min(double value) const {
  if (size_ > 1) check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MIN, comm_), "MPI_Allreduce(min)");
  return value;
}
double Comm::max(double value) const {
  if (size_ > 1) check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce(max)");
  return value;
}
long Comm::min(long value) const {
  if (size_ > 1) check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_LONG, MPI_MIN, comm_), "MPI_Allreduce(min)");
  return value;
}
void Comm::sum(double* values, int count) const {
  if (size_ > 1) check(MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_SUM, comm_), "MPI_Allreduce(sum)");
}
void Comm::min(double* values, int count) const {
  if (size_ > 1) check(MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_MIN, comm_), "MPI_Allreduce(min)");
}
long Comm::sum(long value) const {
  if (size_ > 1) check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_LONG, MPI_SUM, comm_), "MPI_Allreduce(sum)");
  return value;
}
void Comm::barrier() const {
  if (size_ > 1) MPI_Barrier(comm_);
}
void Comm::abort(int status) const {
  std::fflush(stderr);
  MPI_Abort(comm_, status);
}
std::string Comm::broadcast(const std::string& value) const {
  if (size_ == 1) return value;
  long n = static_cast<long>(value.size());
  check(MPI_Bcast(&n, 1, MPI_LONG, 0, comm_), "MPI_Bcast");
  std::string out = rank_ == 0 ? value : std::string(static_cast<size_t>(n), '\0');
  check(MPI_Bcast(out.data(), static_cast<int>(n), MPI_CHAR, 0, comm_), "MPI_Bcast");
  return out;
}

namespace {
template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <>
MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
MPI_Datatype mpi_type<long>() {
  return MPI_LONG;
}
}  // namespace

// Counts and offsets are in elements, as MPI takes them (int): a gathered
// array may hold up to 2^31 - 1 of them.
template <class T>
std::vector<T> Comm::gather(const std::vector<T>& values) const {
  if (size_ == 1) return values;
  if (values.size() > static_cast<size_t>(INT32_MAX)) throw std::runtime_error("gather: more than 2^31 values a rank");
  const int count = static_cast<int>(values.size());
  std::vector<int> counts(rank_ == 0 ? size_ : 0), displs(rank_ == 0 ? size_ : 0);
  check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_), "MPI_Gather");
  std::vector<T> out;
  if (rank_ == 0) {
    long total = 0;
    for (int r = 0; r < size_; ++r) displs[r] = static_cast<int>(total), total += counts[r];
    if (total > INT32_MAX) throw std::runtime_error("gather: more than 2^31 values in all");
    out.resize(static_cast<size_t>(total));
  }
  check(MPI_Gatherv(values.data(), count, mpi_type<T>(), out.data(), counts.data(), displs.data(), mpi_type<T>(), 0,
                    comm_),
        "MPI_Gatherv");
  return out;
}

bool Comm::device_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

#else  // one process

MpiSession::MpiSession(int&, char**&) {}
MpiSession::~MpiSession() = default;
Comm Comm::world() { return Comm(); }
double Comm::min(double value) const { return value; }
double Comm::max(double value) const { return value; }
long Comm::min(long value) const { return value; }
void Comm::sum(double*, int) const {}
void Comm::min(double*, int) const {}
long Comm::sum(long value) const { return value; }
void Comm::barrier() const {}
void Comm::abort(int) const {}
std::string Comm::broadcast(const std::string& value) const { return value; }
template <class T>
std::vector<T> Comm::gather(const std::vector<T>& values) const {
  return values;
}
bool Comm::device_aware() { return false; }

#endif

template std::vector<double> Comm::gather(const std::vector<double>&) const;
template std::vector<float> Comm::gather(const std::vector<float>&) const;
template std::vector<long> Comm::gather(const std::vector<long>&) const;

}  // namespace cfd
