#include "core/hdf5_file.hpp"

#include "core/safe_files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/statvfs.h>
#endif

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <stdexcept>

// The sanitizers' run time defines it in a sanitizer build (the debug
// preset); elsewhere the weak reference is null.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace cfd {

namespace {

// HDF5 prints its own error stack by default; cfdrun reports errors itself.
// Nor may HDF5 close files at exit: a file whose close failed (a full disk)
// would be flushed again there and crash the process after cfdrun has
// reported the error; every file cfdrun opens it closes itself.
void silence_hdf5() {
  static const bool silenced = [] {
    H5dont_atexit();
    return H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  }();
  (void)silenced;
}

// The system's reason for a failed HDF5 call, when it left one in errno
// ("No space left on device").
std::string system_cause() { return errno != 0 ? std::string(": ") + std::strerror(errno) : std::string(); }

// MPI-IO does not always leave errno behind (a rank whose write failed on a
// full disk said only "cannot write dataset"): the disk is asked directly.
std::string write_cause(const std::string& path) {
  std::string cause = system_cause();
  if (!cause.empty()) return cause;
  struct statvfs disk {};
  const std::string folder = std::filesystem::path(path).parent_path().string();
  if (statvfs(folder.empty() ? "." : folder.c_str(), &disk) == 0 && disk.f_bavail == 0)
    return std::string(": ") + std::strerror(ENOSPC);
  return cause;
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw std::runtime_error(what + system_cause());
}

hid_t check_id(hid_t id, const std::string& what) {
  if (id < 0) throw std::runtime_error(what);
  return id;
}

// Closes an HDF5 handle with the matching call when it leaves scope.
struct Handle {
  hid_t id;
  herr_t (*close)(hid_t);
  Handle(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
  // Moved, never copied: one close per id.
  Handle(Handle&& other) noexcept : id(other.id), close(other.close) { other.id = -1; }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle& operator=(Handle&&) = delete;
  ~Handle() {
    if (id >= 0) close(id);
  }
};

void write_attribute(hid_t file, const std::string& path, const std::string& name, hid_t type, const void* value,
                     hid_t space_id) {
  if (H5Aexists(file, name.c_str()) > 0) H5Adelete(file, name.c_str());
  Handle space{space_id, H5Sclose};
  Handle attr{check_id(H5Acreate2(file, name.c_str(), type, space.id, H5P_DEFAULT, H5P_DEFAULT),
                       path + ": cannot create attribute " + name),
              H5Aclose};
  check(H5Awrite(attr.id, type, value), path + ": cannot write attribute " + name);
}

}  // namespace

namespace {
// The file-creation properties: a user block for the checksum.
hid_t creation_properties(bool checksum) {
  const hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
  if (checksum) H5Pset_userblock(fcpl, static_cast<hsize_t>(h5_checksum_block));
  return fcpl;
}
}  // namespace

H5Writer::H5Writer(std::string path, bool checksum)
    : path_(std::move(path)), tmp_path_(path_ + ".tmp"), checksum_(checksum) {
  silence_hdf5();
  // Whatever is at the temporary name (a killed run's leftover, a planted
  // link) goes, and the file is created afresh: H5F_ACC_EXCL is O_EXCL,
  // which never follows a link, so nothing outside the folder is written.
  files::clear_temporary(tmp_path_);
  Handle fcpl{creation_properties(checksum_), H5Pclose};
  errno = 0;
  file_ = H5Fcreate(tmp_path_.c_str(), H5F_ACC_EXCL, fcpl.id, H5P_DEFAULT);
  if (file_ < 0) throw std::runtime_error(tmp_path_ + ": cannot create HDF5 file" + system_cause());
}

#ifdef CFDRUN_HAVE_PARALLEL_HDF5
H5Writer::H5Writer(std::string path, MPI_Comm comm, bool checksum)
    : path_(std::move(path)), tmp_path_(path_ + ".tmp"), checksum_(checksum), comm_(comm) {
  silence_hdf5();
  MPI_Comm_rank(comm_, &rank_);
  // Rank 0 clears the temporary name before any rank opens it (a link
  // there would be followed by MPI-IO's own open).
  std::string cleared;
  if (rank_ == 0) {
    try {
      files::clear_temporary(tmp_path_);
    } catch (const std::exception& e) {
      cleared = e.what();
    }
  }
  int failed = cleared.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm_);
  if (failed) throw std::runtime_error(cleared.empty() ? tmp_path_ + ": cannot be created (rank 0)" : cleared);
  Handle fcpl{creation_properties(checksum_), H5Pclose};
  Handle fapl{H5Pcreate(H5P_FILE_ACCESS), H5Pclose};
  check(H5Pset_fapl_mpio(fapl.id, comm_, MPI_INFO_NULL), tmp_path_ + ": cannot set up MPI-IO");
  // Metadata (the attributes, the dataset headers) is read together by all
  // ranks, which keeps every rank's view of the file the same.
  check(H5Pset_all_coll_metadata_ops(fapl.id, true), tmp_path_ + ": cannot set collective metadata");
  // Metadata is written by rank 0 alone (HDF5's default), not collectively:
  // collective writes go through Open MPI 4.1's OMPIO aggregation, which
  // lost dataset headers now and then under load ("no dataset state/rho"
  // when rank 0 reopened a checkpoint written on 3 or 4 ranks), as it
  // misplaced data blocks (write_block).
  check(H5Pset_coll_metadata_write(fapl.id, false), tmp_path_ + ": cannot set collective metadata");
  file_ = check_id(H5Fcreate(tmp_path_.c_str(), H5F_ACC_TRUNC, fcpl.id, fapl.id),
                   tmp_path_ + ": cannot create HDF5 file (parallel)");
}
#endif

H5Writer::~H5Writer() {
#ifdef CFDRUN_HAVE_PARALLEL_HDF5
  // An error on the way out of the collective part: closing is itself
  // collective (a barrier, a truncate), and the other ranks are at another
  // collective call or none, so a close here would hang the job (a full disk
  // on 2 ranks once did). The handle is left; the error reaches cfdrun's
  // main, which ends every rank with its message. The temporary file goes.
  if (comm_ != MPI_COMM_NULL && file_ >= 0 && std::uncaught_exceptions() > 0) {
    std::remove(tmp_path_.c_str());
    return;
  }
#endif
  if (file_ >= 0) {
    H5Fclose(file_);
    if (rank_ == 0) std::remove(tmp_path_.c_str());
  }
  // A parallel file that failed before end_collective() was closed with
  // file_ = -1 on the way; its temporary file goes too.
  if (!committed_ && rank_ == 0) std::remove(tmp_path_.c_str());
}

void H5Writer::write_block(const std::string& name, hid_t type, const void* data, const std::vector<hsize_t>& dims,
                           const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count) {
  Handle space{check_id(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                        path_ + ": bad dataspace for " + name),
               H5Sclose};
  Handle lcpl{H5Pcreate(H5P_LINK_CREATE), H5Pclose};
  H5Pset_create_intermediate_group(lcpl.id, 1);
  Handle dcpl{H5Pcreate(H5P_DATASET_CREATE), H5Pclose};
  hsize_t points = 1;
  for (hsize_t d : dims) points *= d;
  if (compression_ > 0 && points > 0) {
#ifdef CFDRUN_HAVE_PARALLEL_HDF5
    if (comm_ != MPI_COMM_NULL) throw std::logic_error(path_ + ": compression in a parallel write");
#endif
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0)
      throw std::runtime_error(path_ + ": this HDF5 library has no deflate filter (zlib); set output.compression: 0");
    // Chunks of whole rows (planes in 3D) up to about 1 MiB: the unit that
    // deflate compresses and a reader decompresses at once.
    std::vector<hsize_t> chunk = dims;
    const hsize_t bytes = H5Tget_size(type);
    for (size_t d = 0; d < chunk.size(); ++d) {
      hsize_t inner = bytes;
      for (size_t e = d + 1; e < chunk.size(); ++e) inner *= chunk[e];
      chunk[d] = std::max<hsize_t>(1, std::min<hsize_t>(chunk[d], (hsize_t{1} << 20) / inner));
      if (chunk[d] > 1 || inner >= (hsize_t{1} << 20)) break;
    }
    check(H5Pset_chunk(dcpl.id, static_cast<int>(chunk.size()), chunk.data()), path_ + ": cannot chunk " + name);
    check(H5Pset_shuffle(dcpl.id), path_ + ": cannot shuffle " + name);
    check(H5Pset_deflate(dcpl.id, static_cast<unsigned>(compression_)), path_ + ": cannot deflate " + name);
  }
  Handle set{check_id(H5Dcreate2(file_, name.c_str(), type, space.id, lcpl.id, dcpl.id, H5P_DEFAULT),
                      path_ + ": cannot create dataset " + name),
             H5Dclose};
  hsize_t entries = 1;
  for (hsize_t c : count) entries *= c;
  Handle memory{check_id(H5Screate_simple(1, &entries, nullptr), path_ + ": bad memory space for " + name), H5Sclose};
  if (entries == 0) {
    H5Sselect_none(space.id);
    H5Sselect_none(memory.id);
  } else {
    check(H5Sselect_hyperslab(space.id, H5S_SELECT_SET, offset.data(), nullptr, count.data(), nullptr),
          path_ + ": bad block of " + name);
  }
  Handle dxpl{H5Pcreate(H5P_DATASET_XFER), H5Pclose};
#ifdef CFDRUN_HAVE_PARALLEL_HDF5
  // Independent writes: each rank's block is one contiguous run per row.
  // Collective ones went wrong with Open MPI 4.1's default MPI-IO (OMPIO):
  // a rank's block of one dataset landed in another (sod_123 on 3 ranks),
  // while ROMIO and independent writes gave the gathered file's bits.
  if (comm_ != MPI_COMM_NULL) H5Pset_dxpl_mpio(dxpl.id, H5FD_MPIO_INDEPENDENT);
#endif
  errno = 0;
  if (H5Dwrite(set.id, type, memory.id, space.id, dxpl.id, data) < 0)
    throw std::runtime_error(path_ + ": cannot write dataset " + name + write_cause(path_));
}

void H5Writer::block(const std::string& name, const double* data, const std::vector<hsize_t>& dims,
                     const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count) {
  write_block(name, H5T_NATIVE_DOUBLE, data, dims, offset, count);
}
void H5Writer::block(const std::string& name, const float* data, const std::vector<hsize_t>& dims,
                     const std::vector<hsize_t>& offset, const std::vector<hsize_t>& count) {
  write_block(name, H5T_NATIVE_FLOAT, data, dims, offset, count);
}

void H5Writer::write(const std::string& name, hid_t type, const void* data, const std::vector<hsize_t>& dims) {
  write_block(name, type, data, dims, std::vector<hsize_t>(dims.size(), 0), dims);
}

bool H5Writer::end_collective() {
#ifdef CFDRUN_HAVE_PARALLEL_HDF5
  if (comm_ == MPI_COMM_NULL) return true;
  const herr_t closed = H5Fclose(file_);
  file_ = -1;
  // H5Fclose may return on rank 0 while another rank still writes its
  // share of the metadata (written collectively, spread over the ranks), and
  // MPI-IO promises the bytes to a later open only after every rank's close:
  // without this barrier rank 0 sometimes reopened a file still lacking a
  // dataset ("no dataset state/rho" on 3 ranks, now and then).
  int closed_everywhere = closed < 0 ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &closed_everywhere, 1, MPI_INT, MPI_MIN, comm_);
  check(closed, tmp_path_ + ": cannot close (parallel)");
  comm_ = MPI_COMM_NULL;
  if (!closed_everywhere) throw std::runtime_error(tmp_path_ + ": another rank could not close the file (parallel)");
  if (rank_ != 0) return false;
  file_ = check_id(H5Fopen(tmp_path_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), tmp_path_ + ": cannot reopen");
#endif
  return rank_ == 0;
}

void H5Writer::dataset(const std::string& name, const double* data, const std::vector<hsize_t>& dims) {
  write(name, H5T_NATIVE_DOUBLE, data, dims);
}
void H5Writer::dataset(const std::string& name, const float* data, const std::vector<hsize_t>& dims) {
  write(name, H5T_NATIVE_FLOAT, data, dims);
}

void H5Writer::dataset(const std::string& name, const long* data, const std::vector<hsize_t>& dims) {
  write(name, H5T_NATIVE_LONG, data, dims);
}

void H5Writer::attribute(const std::string& name, double value) {
  write_attribute(file_, path_, name, H5T_NATIVE_DOUBLE, &value, H5Screate(H5S_SCALAR));
}
void H5Writer::attribute(const std::string& name, long value) {
  write_attribute(file_, path_, name, H5T_NATIVE_LONG, &value, H5Screate(H5S_SCALAR));
}
namespace {
// Variable-length UTF-8: h5py reads it as str, not bytes.
hid_t utf8_string_type() {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}
}  // namespace

void H5Writer::attribute(const std::string& name, const std::string& value) {
  Handle type{utf8_string_type(), H5Tclose};
  const char* data = value.c_str();
  write_attribute(file_, path_, name, type.id, &data, H5Screate(H5S_SCALAR));
}

void H5Writer::dataset_attribute(const std::string& dataset, const std::string& name, const std::string& value) {
  Handle set{check_id(H5Dopen2(file_, dataset.c_str(), H5P_DEFAULT), path_ + ": no dataset " + dataset), H5Dclose};
  Handle type{utf8_string_type(), H5Tclose};
  const char* data = value.c_str();
  write_attribute(set.id, path_ + ":" + dataset, name, type.id, &data, H5Screate(H5S_SCALAR));
}

void H5Writer::commit(bool durable) {
  // Flush and close even when one fails, so that nothing stays open, then
  // remove what could not be finished.
  errno = 0;
  const herr_t flushed = H5Fflush(file_, H5F_SCOPE_GLOBAL);
  std::string cause = system_cause();
  errno = 0;
  const herr_t closed = H5Fclose(file_);
  if (cause.empty()) cause = system_cause();
  file_ = -1;
  if (flushed < 0 || closed < 0) {
    std::remove(tmp_path_.c_str());
    throw std::runtime_error(tmp_path_ + ": cannot finish writing the file" + cause);
  }
  if (checksum_) {
    try {
      long length = 0;
      const std::uint64_t digest = files::file_digest(tmp_path_, h5_checksum_block, &length);
      char block[h5_checksum_block] = {0};
      std::snprintf(block, sizeof block, "cfdrun checksum 1\nlength %ld\ndigest %016llx\n", length,
                    static_cast<unsigned long long>(digest));
      const int fd = files::open_no_follow(tmp_path_, O_WRONLY);
      const bool stamped = pwrite(fd, block, sizeof block, 0) == static_cast<ssize_t>(sizeof block);
      const bool closed_ok = close(fd) == 0;
      if (!stamped || !closed_ok) throw std::runtime_error(tmp_path_ + ": cannot write the checksum" + system_cause());
    } catch (...) {
      std::remove(tmp_path_.c_str());
      throw;
    }
  }
  if (durable) {
    const int fd = open(tmp_path_.c_str(), O_RDONLY);
    const bool synced = fd >= 0 && fsync(fd) == 0;
    if (fd >= 0) close(fd);
    if (!synced) {
      std::remove(tmp_path_.c_str());
      throw std::runtime_error(tmp_path_ + ": cannot flush to disk (fsync)");
    }
  }
  if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    std::remove(tmp_path_.c_str());
    throw std::runtime_error(path_ + ": cannot rename the finished file into place" + system_cause());
  }
  committed_ = true;
}

Checksum h5_verify_checksum(const std::string& path, std::string* why) {
  auto bad = [&](const std::string& what) {
    if (why) *why = what;
    return Checksum::bad;
  };
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return bad(std::string("cannot read it: ") + std::strerror(errno));
  char block[h5_checksum_block + 1] = {0};
  const ssize_t n = pread(fd, block, h5_checksum_block, 0);
  close(fd);
  static const char signature[8] = {'\211', 'H', 'D', 'F', '\r', '\n', '\032', '\n'};
  // The HDF5 signature at the start: no user block, no checksum.
  if (n >= 8 && std::memcmp(block, signature, 8) == 0) return Checksum::absent;
  long length = -1;
  unsigned long long digest = 0;
  if (n != h5_checksum_block ||
      std::sscanf(block, "cfdrun checksum 1\nlength %ld\ndigest %16llx\n", &length, &digest) != 2) {
    // No block of cfdrun's: damaged only if HDF5's signature follows
    // where the block ends (a checkpoint whose block was hit); otherwise
    // not a checkpoint of this format at all, which the caller says.
    char after[8] = {0};
    const int again = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    const bool hdf5_after =
        again >= 0 && pread(again, after, 8, h5_checksum_block) == 8 && std::memcmp(after, signature, 8) == 0;
    if (again >= 0) close(again);
    if (!hdf5_after) return Checksum::absent;
    return bad("its checksum block is damaged");
  }
  // The whole block is what commit() wrote: the text, then zeros (a flip
  // in the padding is damage too).
  char expected[h5_checksum_block] = {0};
  std::snprintf(expected, sizeof expected, "cfdrun checksum 1\nlength %ld\ndigest %016llx\n", length, digest);
  if (std::memcmp(block, expected, h5_checksum_block) != 0) return bad("its checksum block is damaged");
  long actual = 0;
  std::uint64_t computed = 0;
  try {
    computed = files::file_digest(path, h5_checksum_block, &actual);
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  if (actual != length)
    return bad("it holds " + std::to_string(actual + h5_checksum_block) + " bytes, written with " +
               std::to_string(length + h5_checksum_block) + " (cut short, or added to)");
  if (computed != digest) return bad("its bytes differ from those written (the checksum does not match)");
  return Checksum::good;
}

namespace {

// The file a child of h5_run_guarded is reading, in memory shared with its
// parent, which names it when the child crashes; null elsewhere.
char* reading_now = nullptr;
constexpr size_t reading_size = 4096;

void note_reading(const std::string& path) {
  if (!reading_now) return;
  const size_t n = std::min(path.size(), reading_size - 1);
  std::memcpy(reading_now, path.data(), n);
  reading_now[n] = '\0';
}

// HDF5 1.10 can also go round in circles on a damaged file (a global heap in
// H5HG_read). In a child of h5_run_guarded, each read's metadata part (the
// file's and objects' headers, attributes, links) takes milliseconds: where
// it has not ended in this time SIGALRM ends the child, which its parent
// reports as a damaged file. The values of a dataset, whose size is checked
// against the file first, are read without a limit (lift()).
constexpr unsigned metadata_seconds = 10;

struct MetadataDeadline {
  MetadataDeadline() {
    if (reading_now) alarm(metadata_seconds);
  }
  ~MetadataDeadline() { lift(); }
  MetadataDeadline(const MetadataDeadline&) = delete;
  MetadataDeadline& operator=(const MetadataDeadline&) = delete;
  static void lift() {
    if (reading_now) alarm(0);
  }
};

}  // namespace

namespace {

// Whether `path` (a link followed) is a regular file: opening a named pipe
// waits for a writer for ever, and a device has no end.
bool regular_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

bool h5_is_hdf5(const std::string& path) {
  note_reading(path);
  if (!regular_file(path)) return false;
  const MetadataDeadline deadline;
  silence_hdf5();
  return H5Fis_hdf5(path.c_str()) > 0;
}

namespace {

Handle open_read(const std::string& path) {
  if (!regular_file(path)) throw std::runtime_error(path + ": not a regular file");
  silence_hdf5();
  note_reading(path);
  return Handle{check_id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), path + ": cannot open as HDF5"), H5Fclose};
}

// The entries of a dataset's dataspace, refused before anything is allocated
// for them when the file cannot hold them: a flipped bit in a dimension of a
// damaged file asks for petabytes (or wraps the product around).
hsize_t checked_entries(const std::string& path, const std::string& dataset, hid_t file, hid_t set,
                        const std::vector<hsize_t>& dims, hid_t type) {
  hsize_t entries = 1;
  for (hsize_t d : dims) {
    if (d != 0 && entries > std::numeric_limits<hsize_t>::max() / d)
      throw std::runtime_error(path + ": dataset " + dataset + " has a shape no file can hold: a damaged file");
    entries *= d;
  }
  if (entries == 0) return 0;
  const size_t element = H5Tget_size(type);
  hsize_t file_size = 0;
  const bool sized = H5Fget_filesize(file, &file_size) >= 0;
  // Contiguous and compact data is stored whole, uncompressed: its bytes in
  // the file are the shape's (chunked data may be compressed or not written).
  Handle plist{H5Dget_create_plist(set), H5Pclose};
  const H5D_layout_t layout = plist.id >= 0 ? H5Pget_layout(plist.id) : H5D_LAYOUT_ERROR;
  if (layout == H5D_CONTIGUOUS || layout == H5D_COMPACT) {
    const hsize_t stored = H5Dget_storage_size(set);
    const bool overflows = element == 0 || entries > std::numeric_limits<hsize_t>::max() / element;
    if (overflows || stored != entries * element || (sized && stored > file_size))
      throw std::runtime_error(path + ": dataset " + dataset + " has " + std::to_string(entries) + " entries of " +
                               std::to_string(element) + " bytes but " + std::to_string(stored) +
                               " bytes stored: a damaged file");
  }
  return entries;
}

// An attribute holds one value (cfdrun writes scalars): a damaged dataspace
// would have H5Aread write past the one value given to it.
void check_single_value(const std::string& path, const std::string& name, hid_t attr) {
  Handle space{H5Aget_space(attr), H5Sclose};
  if (space.id < 0 || H5Sget_simple_extent_npoints(space.id) != 1)
    throw std::runtime_error(path + ": attribute " + name + " is not a single value");
}

// Link access for every read: an external link (to another file) is not
// followed, wherever it stands on a path (a soft link to one included):
// HDF5 would open its target without a check of its own (a named pipe there
// waits for ever), and cfdrun reads the one file it was given.
herr_t refuse_external_link(const char*, const char*, const char*, const char*, unsigned*, hid_t, void*) { return -1; }
// The property list of that rule for links (H5Lexists, attributes by name),
// datasets (H5Dopen2) or groups (H5Gopen2): each call takes its own class.
hid_t refusing_external_links(hid_t kind) {
  const hid_t l = H5Pcreate(kind);
  if (l >= 0) H5Pset_elink_cb(l, refuse_external_link, nullptr);
  return l >= 0 ? l : H5P_DEFAULT;
}
hid_t this_file_only() {
  static const hid_t lapl = refusing_external_links(H5P_LINK_ACCESS);
  return lapl;
}
hid_t this_file_only_dataset() {
  static const hid_t dapl = refusing_external_links(H5P_DATASET_ACCESS);
  return dapl;
}
hid_t this_file_only_group() {
  static const hid_t gapl = refusing_external_links(H5P_GROUP_ACCESS);
  return gapl;
}

// A dataset of this file and nowhere else: reached through no external
// link (this_file_only_dataset), and its values not in other files
// (external storage, a virtual dataset), which HDF5 would open without a
// check of their own (a named pipe there waits for ever).
Handle open_dataset(hid_t file, const std::string& path, const std::string& dataset) {
  Handle set{check_id(H5Dopen2(file, dataset.c_str(), this_file_only_dataset()),
                      path + ": no dataset " + dataset + " in this file (links to other files are not followed)"),
             H5Dclose};
  Handle plist{H5Dget_create_plist(set.id), H5Pclose};
  if (plist.id < 0 || H5Pget_external_count(plist.id) != 0 || H5Pget_layout(plist.id) == H5D_VIRTUAL)
    throw std::runtime_error(path + ": dataset " + dataset +
                             " keeps its values in other files (external storage or a virtual dataset); cfdrun "
                             "reads one file");
  return set;
}

// A dataset opened for reading, with its shape (slowest first), as every
// reader begins.
struct OpenDataset {
  Handle file, set, space;
  std::vector<hsize_t> dims;
  OpenDataset(const std::string& path, const std::string& dataset)
      : file(open_read(path)), set(open_dataset(file.id, path, dataset)), space{H5Dget_space(set.id), H5Sclose} {
    const int rank = H5Sget_simple_extent_ndims(space.id);
    if (rank < 0) throw std::runtime_error(path + ": bad dataspace of " + dataset);
    dims.resize(rank);
    H5Sget_simple_extent_dims(space.id, dims.data(), nullptr);
  }
};

}  // namespace

std::vector<hsize_t> h5_dataset_dims(const std::string& path, const std::string& dataset) {
  const MetadataDeadline deadline;
  return OpenDataset(path, dataset).dims;
}

H5Array h5_read_array(const std::string& path, const std::string& dataset, bool integers) {
  const MetadataDeadline deadline;
  const OpenDataset d(path, dataset);
  const Handle &file = d.file, &set = d.set;
  H5Array out;
  out.dims = d.dims;
  Handle type{H5Dget_type(set.id), H5Tclose};
  const H5T_class_t kind = H5Tget_class(type.id);
  if (kind != H5T_FLOAT && !(integers && kind == H5T_INTEGER))
    throw std::runtime_error(path + ": dataset " + dataset + " is not " +
                             (integers ? "a number type (floating point or integer)" : "floating point"));
  out.stored_bytes = static_cast<int>(H5Tget_size(type.id));
  const hsize_t count = checked_entries(path, dataset, file.id, set.id, out.dims, type.id);
  out.values.resize(count);
  MetadataDeadline::lift();
  check(H5Dread(set.id, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.values.data()),
        path + ": cannot read " + dataset);
  return out;
}

H5Array h5_read_block(const std::string& path, const std::string& dataset, const std::vector<hsize_t>& offset,
                      const std::vector<hsize_t>& count) {
  const MetadataDeadline deadline;
  Handle file = open_read(path);
  Handle set = open_dataset(file.id, path, dataset);
  Handle space{H5Dget_space(set.id), H5Sclose};
  H5Array out;
  const int rank = H5Sget_simple_extent_ndims(space.id);
  if (rank != static_cast<int>(offset.size()) || rank != static_cast<int>(count.size()))
    throw std::runtime_error(path + ": dataset " + dataset + " has " + std::to_string(rank) + " dimensions, expected " +
                             std::to_string(offset.size()));
  out.dims.resize(rank);
  H5Sget_simple_extent_dims(space.id, out.dims.data(), nullptr);
  hsize_t entries = 1;
  for (int d = 0; d < rank; ++d) {
    if (offset[d] + count[d] > out.dims[d])
      throw std::runtime_error(path + ": dataset " + dataset + " is smaller than the grid it should hold");
    entries *= count[d];
  }
  Handle type{H5Dget_type(set.id), H5Tclose};
  if (H5Tget_class(type.id) != H5T_FLOAT)
    throw std::runtime_error(path + ": dataset " + dataset + " is not floating point");
  out.stored_bytes = static_cast<int>(H5Tget_size(type.id));
  checked_entries(path, dataset, file.id, set.id, out.dims, type.id);
  out.values.resize(entries);
  if (entries == 0) return out;
  check(H5Sselect_hyperslab(space.id, H5S_SELECT_SET, offset.data(), nullptr, count.data(), nullptr),
        path + ": bad block of " + dataset);
  Handle memory{H5Screate_simple(1, &entries, nullptr), H5Sclose};
  MetadataDeadline::lift();
  check(H5Dread(set.id, H5T_NATIVE_DOUBLE, memory.id, space.id, H5P_DEFAULT, out.values.data()),
        path + ": cannot read " + dataset);
  return out;
}

std::vector<long> h5_read_integers(const std::string& path, const std::string& dataset) {
  const MetadataDeadline deadline;
  const OpenDataset d(path, dataset);
  const Handle& set = d.set;
  Handle type{H5Dget_type(set.id), H5Tclose};
  const hsize_t count = checked_entries(path, dataset, d.file.id, set.id, d.dims, type.id);
  std::vector<long> out(static_cast<size_t>(count));
  MetadataDeadline::lift();
  if (count > 0)
    check(H5Dread(set.id, H5T_NATIVE_LONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
          path + ": cannot read " + dataset + " as integers");
  return out;
}

namespace {

// The names HDF5's "get name by index" calls give for indices 0..count-1:
// each is asked once for the length and once for the text.
template <class GetName>
std::vector<std::string> names_by_index(hsize_t count, const GetName& get_name) {
  std::vector<std::string> names;
  for (hsize_t k = 0; k < count; ++k) {
    const ssize_t n = get_name(k, nullptr, 0);
    if (n < 0) continue;
    std::string name(static_cast<size_t>(n) + 1, '\0');
    get_name(k, name.data(), name.size());
    name.resize(static_cast<size_t>(n));
    names.push_back(name);
  }
  return names;
}

}  // namespace

std::vector<std::string> h5_attribute_names(const std::string& path) {
  const MetadataDeadline deadline;
  Handle file = open_read(path);
  H5O_info_t info;
  check(H5Oget_info(file.id, &info), path + ": cannot list the attributes");
  return names_by_index(info.num_attrs, [&](hsize_t k, char* text, size_t size) {
    return H5Aget_name_by_idx(file.id, ".", H5_INDEX_NAME, H5_ITER_INC, k, text, size, H5P_DEFAULT);
  });
}

std::vector<std::string> h5_list_group(const std::string& path, const std::string& group) {
  const MetadataDeadline deadline;
  Handle file = open_read(path);
  if (H5Lexists(file.id, group.c_str(), this_file_only()) <= 0) return {};
  Handle g{check_id(H5Gopen2(file.id, group.c_str(), this_file_only_group()),
                    path + ": " + group + " is not a group of this file (links to other files are not followed)"),
           H5Gclose};
  H5G_info_t info;
  check(H5Gget_info(g.id, &info), path + ": cannot list " + group);
  return names_by_index(info.nlinks, [&](hsize_t k, char* text, size_t size) {
    return H5Lget_name_by_idx(g.id, ".", H5_INDEX_NAME, H5_ITER_INC, k, text, size, H5P_DEFAULT);
  });
}

namespace {
// "fields/rho/units": the object "fields/rho" and its attribute "units";
// "time": the root group's.
std::pair<std::string, std::string> object_and_attribute(const std::string& name) {
  const auto slash = name.rfind('/');
  if (slash == std::string::npos) return {".", name};
  return {name.substr(0, slash), name.substr(slash + 1)};
}
}  // namespace

bool h5_has_attribute(const std::string& path, const std::string& name) {
  const MetadataDeadline deadline;
  Handle file = open_read(path);
  const auto [object, attribute] = object_and_attribute(name);
  if (object != "." && H5Lexists(file.id, object.c_str(), this_file_only()) <= 0) return false;
  return H5Aexists_by_name(file.id, object.c_str(), attribute.c_str(), this_file_only()) > 0;
}

std::string h5_read_string_attribute(const std::string& path, const std::string& name) {
  const MetadataDeadline deadline;
  Handle file = open_read(path);
  const auto [object, attribute] = object_and_attribute(name);
  Handle attr{check_id(H5Aopen_by_name(file.id, object.c_str(), attribute.c_str(), H5P_DEFAULT, this_file_only()),
                       path + ": no attribute " + name),
              H5Aclose};
  Handle type{H5Aget_type(attr.id), H5Tclose};
  if (H5Tget_class(type.id) != H5T_STRING) throw std::runtime_error(path + ": attribute " + name + " is not a string");
  check_single_value(path, name, attr.id);
  if (H5Tis_variable_str(type.id) > 0) {  // cfdrun's own; fixed-length ones from older files below
    Handle memory{utf8_string_type(), H5Tclose};
    char* data = nullptr;
    check(H5Aread(attr.id, memory.id, &data), path + ": cannot read attribute " + name);
    std::string value = data ? data : "";
    H5free_memory(data);
    return value;
  }
  // A fixed-length string is stored in the file whole: one larger than the
  // file is a damaged size, which must not be allocated.
  const size_t size = H5Tget_size(type.id);
  hsize_t file_size = 0;
  if (size == 0 || H5Fget_filesize(file.id, &file_size) < 0 || size > file_size)
    throw std::runtime_error(path + ": attribute " + name + " claims " + std::to_string(size) +
                             " bytes: a damaged file");
  std::string value(size, '\0');
  check(H5Aread(attr.id, type.id, value.data()), path + ": cannot read attribute " + name);
  value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
  return value;
}

double h5_read_real_attribute(const std::string& path, const std::string& name) {
  const MetadataDeadline deadline;
  Handle file = open_read(path);
  Handle attr{check_id(H5Aopen(file.id, name.c_str(), H5P_DEFAULT), path + ": no attribute " + name), H5Aclose};
  Handle type{H5Aget_type(attr.id), H5Tclose};
  const H5T_class_t kind = H5Tget_class(type.id);
  if (kind != H5T_FLOAT && kind != H5T_INTEGER)
    throw std::runtime_error(path + ": attribute " + name + " is not a number");
  check_single_value(path, name, attr.id);
  double value = 0;
  check(H5Aread(attr.id, H5T_NATIVE_DOUBLE, &value), path + ": cannot read attribute " + name);
  return value;
}

namespace {
void abort_by_signal() {
  std::signal(SIGABRT, SIG_DFL);
  std::raise(SIGABRT);
}
}  // namespace

namespace {

// h5_run_guarded, saying how the library failed in `failure` where one is
// given, else on stderr after the tool's name.
int run_guarded(const char* tool, const std::function<int()>& body, std::string* failure) {
  void* page = mmap(nullptr, reading_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return body();
  std::memset(page, 0, reading_size);
  std::fflush(nullptr);  // what is buffered now would be written by both processes
  const pid_t child = fork();
  if (child < 0) {
    munmap(page, reading_size);
    return body();
  }
  if (child == 0) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // a parent killed alone takes the reader with it
#endif
    // The crash must end the child by its signal, which the parent reads:
    // a handler inherited from the parent (AddressSanitizer's, in the debug
    // preset, reports and exits with status 1) would hide it.
    for (const int crash : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(crash, SIG_DFL);
    // Under AddressSanitizer a bad access inside HDF5 (an overlapping
    // memcpy in H5HG_read on a damaged heap) is a report and exit 1 before
    // any signal: it ends the child by SIGABRT instead, so that the parent
    // reads a crash. The report itself stays on stderr.
    if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(abort_by_signal);
    reading_now = static_cast<char*>(page);
    const int status = body();
    // _exit: the atexit handlers and static objects are the parent's to run.
    std::fflush(nullptr);
    _exit(status);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) {
      std::fprintf(stderr, "%s: error: lost the reading process: %s\n", tool, std::strerror(errno));
      munmap(page, reading_size);
      return 2;
    }
  const std::string file(static_cast<const char*>(page), strnlen(static_cast<const char*>(page), reading_size));
  munmap(page, reading_size);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  const int signal_number = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
  switch (signal_number) {
    case SIGALRM:
    case SIGSEGV:
    case SIGBUS:
    case SIGFPE:
    case SIGILL:
    case SIGABRT: {
      const std::string what = signal_number == SIGALRM
                                   ? "damaged HDF5 file (reading its headers had not ended after " +
                                         std::to_string(metadata_seconds) +
                                         " s: the HDF5 library went round in circles)"
                                   : std::string("damaged HDF5 file (reading it crashed the HDF5 library: ") +
                                         strsignal(signal_number) + ")";
      if (failure)
        *failure = what;
      else
        std::fprintf(stderr, "%s: error: %s: %s\n", tool, file.empty() ? "(no file)" : file.c_str(), what.c_str());
      return 2;
    }
    case SIGKILL:
      // A trial read (failure given) whose child alone was killed (the
      // system short of memory): nothing learnt; the caller reads on.
      if (failure) return 0;
      [[fallthrough]];
    default:  // stopped from outside: end the same way
      std::signal(signal_number, SIG_DFL);
      std::raise(signal_number);
      return 128 + signal_number;
  }
}

}  // namespace

int h5_run_guarded(const char* tool, const std::function<int()>& body) { return run_guarded(tool, body, nullptr); }

std::string h5_trial_read(const std::function<void()>& read) {
  std::string failure;
  run_guarded(
      "cfdrun",
      [&] {
        try {
          read();
        } catch (...) {  // the caller's own read meets it again
        }
        return 0;
      },
      &failure);
  return failure;
}

}  // namespace cfd
