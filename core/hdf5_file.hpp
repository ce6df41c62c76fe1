// Thin RAII layer over the HDF5 C API: what snapshots and tools need, no more.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

namespace cfd {

// Writes `path` as `path.tmp` and renames it on commit(), so that a reader never
// sees a half-written file; without commit() the temporary file is removed.
class H5Writer {
 public:
  explicit H5Writer(std::string path);
  ~H5Writer();
  H5Writer(const H5Writer&) = delete;
  H5Writer& operator=(const H5Writer&) = delete;

  // `name` may contain groups ("fields/u"); dims are slowest first (C order).
  void dataset(const std::string& name, const double* data, const std::vector<hsize_t>& dims);
  void dataset(const std::string& name, const float* data, const std::vector<hsize_t>& dims);
  // Attributes of the root group.
  void attribute(const std::string& name, double value);
  void attribute(const std::string& name, long value);
  void attribute(const std::string& name, const std::string& value);
  void commit();

 private:
  void write(const std::string& name, hid_t type, const void* data, const std::vector<hsize_t>& dims);
  std::string path_, tmp_path_;
  hid_t file_ = -1;
};

struct H5Array {
  std::vector<hsize_t> dims;  // slowest first
  std::vector<double> values;
  int stored_bytes = 8;  // 4 for a float dataset
};

// Readers throw std::runtime_error naming the file and object.
H5Array h5_read_array(const std::string& path, const std::string& dataset);
bool h5_has_attribute(const std::string& path, const std::string& name);
std::string h5_read_string_attribute(const std::string& path, const std::string& name);
double h5_read_real_attribute(const std::string& path, const std::string& name);
bool h5_is_hdf5(const std::string& path);

}  // namespace cfd
