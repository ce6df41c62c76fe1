// Thin RAII layer over the HDF5 C API: what snapshots and tools need, no more.
#pragma once

#include <hdf5.h>
#ifdef CFDRUN_HAVE_PARALLEL_HDF5
#include <mpi.h>
#endif

#include "core/signals.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cfd {

// Whether this build writes snapshots with parallel HDF5 (MPI-IO): an HDF5
// library built for MPI, in an MPI build.
constexpr bool parallel_hdf5() {
#ifdef CFDRUN_HAVE_PARALLEL_HDF5
  return true;
#else
  return false;
#endif
}

// Writes `path` as `path.tmp` and renames it on commit(), so that a reader never
// sees a half-written file; without commit() the temporary file is removed.
// Opened with a communicator (parallel HDF5 builds only), the file is first
// written by all ranks together, each its own hyperslab of the datasets
// (block()); end_collective() closes it on all ranks and reopens it on rank
// 0 alone, which writes the rest (coordinates, attributes) and commits.
//
// With `checksum`, the file starts with a 512-byte user block (which HDF5
// and h5py skip) that commit() fills with the length and a digest of the
// rest of the file: h5_verify_checksum() then finds any damage, in the
// data or in HDF5's own metadata, before HDF5 reads a byte of it.
class H5Writer {
 public:
  explicit H5Writer(std::string path, bool checksum = false);
#ifdef CFDRUN_HAVE_PARALLEL_HDF5
  H5Writer(std::string path, MPI_Comm comm, bool checksum = false);
#endif
  ~H5Writer();
  H5Writer(const H5Writer&) = delete;
  H5Writer& operator=(const H5Writer&) = delete;

  // `name` may contain groups ("fields/u"); dims are slowest first (C order).
  void dataset(const std::string& name, const double* data, const std::vector<hsize_t>& dims);
  void dataset(const std::string& name, const float* data, const std::vector<hsize_t>& dims);
  void dataset(const std::string& name, const long* data, const std::vector<hsize_t>& dims);
  // One rank's block of a dataset of `dims` (C order), at `offset`, of
  // `count` entries; collective in a parallel file (a rank may write none).
  void block(const std::string& name, const double* data, const std::vector<hsize_t>& dims,
             const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count);
  void block(const std::string& name, const float* data, const std::vector<hsize_t>& dims,
             const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count);
  // Attributes of the root group.
  void attribute(const std::string& name, double value);
  void attribute(const std::string& name, long value);
  void attribute(const std::string& name, const std::string& value);
  // A string attribute of a dataset written before ("fields/rho", "units").
  void dataset_attribute(const std::string& dataset, const std::string& name, const std::string& value);
  // Datasets written from here on are chunked, shuffled and deflated at
  // this level (1-9; 0: stored as they are). Serial files only.
  void compress(int level) { compression_ = level; }
  bool compressed() const { return compression_ > 0; }
  // The end of the collective part: true on rank 0, which carries on alone.
  bool end_collective();
  // Closes and renames the file into place; `durable` also waits until it
  // is on disk (fsync) first, for files a run must be able to continue from.
  void commit(bool durable = false);

 private:
  void write(const std::string& name, hid_t type, const void* data, const std::vector<hsize_t>& dims);
  void write_block(const std::string& name, hid_t type, const void* data, const std::vector<hsize_t>& dims,
                   const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count);
  std::string path_, tmp_path_;
  job::TemporaryFile in_progress_{tmp_path_};  // removed by a second SIGINT
  hid_t file_ = -1;
  bool committed_ = false;
  bool checksum_ = false;
  int compression_ = 0;
  int rank_ = 0;  // in the communicator of a parallel file; 0 otherwise
#ifdef CFDRUN_HAVE_PARALLEL_HDF5
  MPI_Comm comm_ = MPI_COMM_NULL;
#endif
};

// The user block of a file written with a checksum, and what
// h5_verify_checksum() finds: no user block (a file of an older cfdrun, or
// of another program, or not HDF5 at all), the digest matches, or it does
// not (`why` says how).
constexpr long h5_checksum_block = 512;
enum class Checksum { absent, good, bad };
Checksum h5_verify_checksum(const std::string& path, std::string* why = nullptr);

struct H5Array {
  std::vector<hsize_t> dims;  // slowest first
  std::vector<double> values;
  int stored_bytes = 8;  // 4 for a float dataset
};

// Readers throw std::runtime_error naming the file and object. A dataset
// of integers is refused unless `integers` (a user's initial state: any
// numeric type, converted to double by HDF5).
H5Array h5_read_array(const std::string& path, const std::string& dataset, bool integers = false);
// A dataset's shape (slowest first), from its header alone: a caller checks
// it against what it expects before anything is read or allocated.
std::vector<hsize_t> h5_dataset_dims(const std::string& path, const std::string& dataset);
// The entries [offset, offset + count) of a dataset (C order), as doubles.
H5Array h5_read_block(const std::string& path, const std::string& dataset, const std::vector<hsize_t>& offset,
                      const std::vector<hsize_t>& count);
std::vector<long> h5_read_integers(const std::string& path, const std::string& dataset);
// The names of the root group's attributes, in creation order.
std::vector<std::string> h5_attribute_names(const std::string& path);
// The names of the links in a group ("fields"), in name order; empty if there is no such group.
std::vector<std::string> h5_list_group(const std::string& path, const std::string& group);
// `name` is an attribute of the root group ("time"), or of an object given
// before its last '/' ("fields/rho/units").
bool h5_has_attribute(const std::string& path, const std::string& name);
std::string h5_read_string_attribute(const std::string& path, const std::string& name);
double h5_read_real_attribute(const std::string& path, const std::string& name);
bool h5_is_hdf5(const std::string& path);

// Runs `body` (a tool's reading and reporting) in a child process and returns
// its exit status. HDF5 1.10 itself can crash on a damaged file (a flipped
// bit in a global heap address: SIGSEGV in H5HG_read under H5Aread), which
// no check before the call can rule out. A crash of the child (SIGSEGV,
// SIGBUS, SIGFPE, SIGILL, SIGABRT) becomes the one line
// "<tool>: error: <file>: damaged HDF5 file (...)" on stderr and status 2,
// <file> being the last file the child began to read. So does a read whose
// metadata part (headers, attributes, links: milliseconds) has not ended
// after 10 s, where HDF5 goes round in circles on a damaged heap; the values
// of datasets are read without a limit. Any other signal (SIGINT, SIGKILL)
// ends this process too, with that signal. Where no child can be started,
// `body` runs in this process.
int h5_run_guarded(const char* tool, const std::function<int()>& body);

// Reads with `read` in a guarded child as above, first, where a file has no
// checksum to refuse its damage before HDF5 reads it (a format-1
// checkpoint): "" when the read ended, returning or throwing (the caller
// reads again and meets the same error as an exception), else how the HDF5
// library failed on the file ("damaged HDF5 file (reading it crashed ...)").
std::string h5_trial_read(const std::function<void()>& read);

}  // namespace cfd
