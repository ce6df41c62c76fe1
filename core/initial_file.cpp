#include "core/initial_file.hpp"

#include "core/hdf5_file.hpp"

#include <algorithm>
#include <filesystem>

namespace cfd {

KeySpec initial_file_key(const std::string& datasets) {
  return {"file.path", KeyType::string, "",
          "the HDF5 file of the initial state: " + datasets + "; relative to the case file's folder"};
}

std::string case_relative_path(const Config& c, const std::string& key) {
  const std::filesystem::path given = c.get_string(key);
  if (given.is_absolute()) return given.string();
  const std::filesystem::path folder = std::filesystem::path(c.source()).parent_path();
  return (folder / given).lexically_normal().string();
}

std::vector<std::vector<double>> read_initial_file(const Config& c, const std::string& path_key,
                                                   const std::vector<std::string>& names,
                                                   const std::vector<std::string>& optional,
                                                   const std::vector<long>& shape, const std::string& shape_names) {
  if (c.get_string(path_key).empty()) c.reject(path_key, "give the HDF5 file of the initial state");
  const std::string path = case_relative_path(c, path_key);
  long count = 1;
  for (long n : shape) count *= n;
  std::vector<std::vector<double>> out;
  try {
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
      c.reject(path_key, path + ": not a regular file (a folder, a named pipe or a device)");
    if (!h5_is_hdf5(path)) c.reject(path_key, path + ": no such file, or not an HDF5 file");
    // A snapshot's fields, or a user's datasets at the root.
    const bool snapshot = !h5_list_group(path, "fields").empty();
    const std::string group = snapshot ? "fields/" : "";
    const std::vector<std::string> present = h5_list_group(path, snapshot ? "fields" : "/");
    for (const std::string& name : names) {
      if (std::find(present.begin(), present.end(), name) == present.end()) {
        if (std::find(optional.begin(), optional.end(), name) == optional.end())
          c.reject(path_key, path + ": no dataset " + group + name);
        out.emplace_back(size_t(count), 0.0);
        continue;
      }
      // The shape from the dataset's header first: a small file declaring a
      // huge dataset is refused before anything is read or allocated.
      const std::vector<hsize_t> dims = h5_dataset_dims(path, group + name);
      bool fits = dims.size() == shape.size();
      for (size_t d = 0; fits && d < shape.size(); ++d) fits = dims[d] == hsize_t(shape[d]);
      if (!fits) {
        std::string got, want;
        for (hsize_t d : dims) got += (got.empty() ? "" : ", ") + std::to_string(d);
        for (long d : shape) want += (want.empty() ? "" : ", ") + std::to_string(d);
        c.reject(path_key, path + ": dataset " + group + name + " has shape (" + got + "); the grid needs " +
                               shape_names + " = (" + want + ")");
      }
      out.push_back(h5_read_array(path, group + name, true).values);  // any number type, as double
    }
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {
    c.reject(path_key, e.what());
  }
  return out;
}

}  // namespace cfd
