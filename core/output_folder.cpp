#include "core/output_folder.hpp"

#include "core/safe_files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace cfd {

namespace {

// Results in a folder that has no manifest (an older cfdrun, or files put
// there by hand): what makes a folder one that "holds results".
bool looks_like_results(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".h5" || ext == ".xdmf" || ext == ".hst" || files::is_output_name(p.filename().string());
}

// The names a manifest lists. Every one must have a form cfdrun writes: the
// names are removed by --overwrite, so a manifest changed to name
// "../thesis.tex" is refused, not followed.
std::vector<std::string> read_manifest(const std::string& path) {
  std::vector<std::string> names;
  if (!files::entry_exists(path)) return names;
  std::FILE* f = files::fopen_no_follow(path, "r");
  std::string text;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0 && text.size() < (64u << 20)) text.append(buffer, n);
  std::fclose(f);
  std::istringstream in(text);
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    if (!files::is_output_name(line))
      throw std::runtime_error(path + ":" + std::to_string(number) + ": '" + line.substr(0, 80) +
                               "' is not the name of a file cfdrun writes; the manifest was changed or damaged "
                               "(cfdrun removes only the files it lists; remove it, and the folder's results "
                               "by hand)");
    if (std::find(names.begin(), names.end(), line) == names.end()) names.push_back(line);
  }
  return names;
}

}  // namespace

OutputFolder::OutputFolder(std::string dir, bool overwrite, bool continuing) : dir_(std::move(dir)) {
  std::error_code ec;
  if (files::is_link(dir_) && !fs::exists(dir_, ec))
    throw std::runtime_error(dir_ + ": the output path is a symbolic link to " + fs::read_symlink(dir_, ec).string() +
                             ", which does not exist");
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec))
    throw std::runtime_error(dir_ + ": the output path exists and is not a folder");
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(dir_ + ": cannot create the output folder: " + ec.message());

  // One run per folder: an advisory lock the system drops when the process
  // ends, however it ends.
  // The lock is never opened through a link (a link planted under its
  // name would have cfdrun write the holder's pid into the file it names).
  const std::string lock_path = dir_ + "/" + lock_name;
  try {
    lock_fd_ = files::open_no_follow(lock_path, O_RDWR | O_CREAT);
  } catch (const std::runtime_error& e) {
    const int why = errno;
    if (files::is_link(lock_path)) throw;
    throw std::runtime_error(dir_ + ": cannot write in the output folder: " + std::strerror(why));
  }
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int why = errno;
    char holder[256] = {0};
    const ssize_t n = pread(lock_fd_, holder, sizeof holder - 1, 0);
    close(lock_fd_);
    lock_fd_ = -1;
    if (why == EWOULDBLOCK)
      throw std::runtime_error(dir_ + ": another cfdrun is writing to this folder (" +
                               (n > 0 ? std::string(holder, static_cast<size_t>(n)) : std::string("pid unknown")) +
                               "); wait for it to end, or choose another output.dir");
    throw std::runtime_error(dir_ + ": cannot lock the output folder: " + std::strerror(why));
  }
  char host[128] = "?";
  gethostname(host, sizeof host - 1);
  const std::string holder = "pid " + std::to_string(getpid()) + " on " + host;
  if (ftruncate(lock_fd_, 0) == 0 && pwrite(lock_fd_, holder.data(), holder.size(), 0) < 0) {
    // The lock holds without the note of who holds it.
  }

  try {
    take_stock(overwrite, continuing);
  } catch (...) {
    close(lock_fd_);  // a refused folder is not held
    lock_fd_ = -1;
    throw;
  }
}

void OutputFolder::take_stock(bool overwrite, bool continuing) {
  std::error_code ec;
  const std::string manifest = dir_ + "/" + manifest_name;
  if (continuing) {
    written_ = read_manifest(manifest);
    return;
  }
  std::vector<std::string> results;
  for (const auto& entry : fs::directory_iterator(dir_, ec))
    if ((entry.is_symlink(ec) || entry.is_regular_file(ec)) && looks_like_results(entry.path()))
      results.push_back(entry.path().filename());
  std::sort(results.begin(), results.end());
  const bool has_manifest = files::entry_exists(manifest);
  if ((has_manifest || !results.empty()) && !overwrite)
    throw std::runtime_error(dir_ + ": the output folder already holds results (" +
                             (results.empty() ? std::string(manifest_name) : results.front() + ", ...") +
                             "); choose another output.dir, or pass --overwrite to replace them");
  if (has_manifest) previous_ = read_manifest(manifest);
  // --overwrite replaces cfdrun's own files, those the manifest lists; a
  // file that merely carries one of cfdrun's names is the user's.
  for (const auto& name : results)
    if (files::is_output_name(name) && std::find(previous_.begin(), previous_.end(), name) == previous_.end())
      throw std::runtime_error(dir_ + "/" + name +
                               ": has the name of a file cfdrun writes, but no cfdrun run in this folder wrote it (it "
                               "is not in " +
                               manifest_name +
                               "); --overwrite replaces only cfdrun's own files: move it away, or choose another "
                               "output.dir");
}

OutputFolder::~OutputFolder() {
  if (lock_fd_ >= 0) close(lock_fd_);  // drops the lock
}

void OutputFolder::wrote(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  if (std::find(written_.begin(), written_.end(), name) != written_.end()) return;
  written_.push_back(name);
  // Appended at once: a run that fails later still lists what it wrote.
  // Never through a link: a link planted as the manifest is refused.
  std::FILE* f = files::fopen_no_follow(dir_ + "/" + manifest_name, "a");
  const bool ok = std::fprintf(f, "%s\n", name.c_str()) > 0;
  if (std::fclose(f) != 0 || !ok)
    throw std::runtime_error(dir_ + "/" + manifest_name + ": cannot write: " + std::strerror(errno));
}

bool OutputFolder::listed(const std::string& name) const {
  return std::find(written_.begin(), written_.end(), name) != written_.end() ||
         std::find(previous_.begin(), previous_.end(), name) != previous_.end();
}

void OutputFolder::claim(const std::string& path) const {
  const std::string name = fs::path(path).filename().string();
  if (!files::entry_exists(path) || listed(name)) return;
  throw std::runtime_error(path + ": a file that no cfdrun run in this folder wrote (it is not in " + manifest_name +
                           ") has the name of one this run writes; cfdrun does not replace it: move it away, or "
                           "choose another output.dir");
}

void OutputFolder::remove(const std::string& name) {
  if (!listed(name)) return;
  std::error_code ec;
  fs::remove(dir_ + "/" + name, ec);  // removes a link itself, never what it names
  written_.erase(std::remove(written_.begin(), written_.end(), name), written_.end());
  previous_.erase(std::remove(previous_.begin(), previous_.end(), name), previous_.end());
  rewrite_manifest();
}

void OutputFolder::rewrite_manifest() const {
  std::string text = "# cfdrun: the files of the run in this folder; --overwrite removes these and no others\n";
  for (const auto& name : previous_) text += name + "\n";
  for (const auto& name : written_)
    if (std::find(previous_.begin(), previous_.end(), name) == previous_.end()) text += name + "\n";
  files::write_file_atomically(dir_ + "/" + manifest_name, text);
}

void OutputFolder::retire_previous() {
  if (previous_.empty()) return;
  std::error_code ec;
  for (const auto& name : previous_)
    if (std::find(written_.begin(), written_.end(), name) == written_.end()) fs::remove(dir_ + "/" + name, ec);
  previous_.clear();
  rewrite_manifest();
}

void prepare_output_dir(const std::string& dir, bool overwrite) {
  OutputFolder folder(dir, overwrite, false);
  folder.retire_previous();
}

}  // namespace cfd
