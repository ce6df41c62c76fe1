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
// "../thesis.tex" is refused, not followed; and with `prefixes` (the run's
// own first), the form of a file of one of those runs, so that a line
// naming a user's notes.hst in a sod run's folder is refused too. The
// manifest itself is read only if it is a regular file of its own
// (fopen_no_follow): a named pipe there would hold the run for ever.
std::vector<std::string> read_manifest(const std::string& path, const std::vector<std::string>& prefixes) {
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
    const bool of_a_run = prefixes.empty() || std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) {
                            return files::is_output_name_of(line, p);
                          });
    if (!of_a_run) {
      const std::string& own = prefixes.front();
      throw std::runtime_error(path + ":" + std::to_string(number) + ": '" + line.substr(0, 80) +
                               "' is not the name of a file cfdrun writes here (a " + own + " run writes " + own +
                               ".hst, " + own + ".xdmf, " + own + "_<step>.h5, " + own + "_mesh.hdf5, " + own +
                               "_final.txt, checkpoint_<step>.h5 and diagnosis_<step>.h5; another solver's run the "
                               "same under its name); the manifest was changed or damaged (cfdrun removes only the "
                               "files it lists; remove the line, or the manifest and the folder's results by hand)");
    }
    if (std::find(names.begin(), names.end(), line) == names.end()) names.push_back(line);
  }
  return names;
}

}  // namespace

OutputFolder::OutputFolder(std::string dir, bool overwrite, bool continuing, std::vector<std::string> prefixes)
    : dir_(std::move(dir)), prefixes_(std::move(prefixes)) {
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
  // The lock is opened only as a regular file of its own (open_no_follow):
  // never through a link, nor a hard link (either would have cfdrun write
  // the holder's pid into a file elsewhere), nor a named pipe or device.
  // It is not replaced instead: a second cfdrun holding the old file's lock
  // would not see the new one's.
  const std::string lock_path = dir_ + "/" + lock_name;
  try {
    lock_fd_ = files::open_no_follow(lock_path, O_RDWR | O_CREAT);
  } catch (const std::runtime_error& e) {
    const int why = errno;
    if (files::entry_exists(lock_path)) throw;  // refused for what it is; the message says so
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
    written_ = read_manifest(manifest, prefixes_);
    return;
  }
  // Anything under a name cfdrun writes counts, a pipe or a folder too: it
  // is refused here, before the run, rather than when the name comes due.
  std::vector<std::string> results;
  for (const auto& entry : fs::directory_iterator(dir_, ec))
    if (((entry.is_symlink(ec) || entry.is_regular_file(ec)) && looks_like_results(entry.path())) ||
        files::is_output_name(entry.path().filename().string()))
      results.push_back(entry.path().filename());
  std::sort(results.begin(), results.end());
  const bool has_manifest = files::entry_exists(manifest);
  if ((has_manifest || !results.empty()) && !overwrite)
    throw std::runtime_error(dir_ + ": the output folder already holds results (" +
                             (results.empty() ? std::string(manifest_name) : results.front() + ", ...") +
                             "); choose another output.dir, or pass --overwrite to replace them");
  if (has_manifest) previous_ = read_manifest(manifest, prefixes_);
  // --overwrite replaces cfdrun's own files, those the manifest lists; a
  // file that merely carries one of cfdrun's names is the user's.
  for (const auto& name : results)
    if (files::is_output_name(name) && std::find(previous_.begin(), previous_.end(), name) == previous_.end()) {
      const std::string kind = files::special_kind(dir_ + "/" + name);
      throw std::runtime_error(
          dir_ + "/" + name + ": has the name of a file cfdrun writes, but no cfdrun run in this folder wrote it (" +
          (kind.empty() ? std::string() : "it is " + kind + ", and ") + "it is not in " + manifest_name +
          "); --overwrite replaces only cfdrun's own files: move it away, or choose another "
          "output.dir");
    }
}

OutputFolder::~OutputFolder() {
  if (lock_fd_ >= 0) close(lock_fd_);  // drops the lock
}

void OutputFolder::wrote(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  if (std::find(written_.begin(), written_.end(), name) != written_.end()) return;
  written_.push_back(name);
  // Appended at once: a run that fails later still lists what it wrote.
  // Only to a regular file of its own (fopen_no_follow): a link, a named
  // pipe or a hard link planted as the manifest is refused.
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
  if (!files::entry_exists(path)) return;
  // Not even a file the manifest lists: what is there now is not what
  // cfdrun wrote (the new file would replace it, or be written through it).
  const std::string kind = files::special_kind(path);
  if (!kind.empty())
    throw std::runtime_error(path + ": is " + kind + ", not a file cfdrun wrote, under the name of one this run " +
                             "writes; cfdrun neither writes through it nor replaces it: move it away, or choose " +
                             "another output.dir");
  if (listed(name)) return;
  throw std::runtime_error(path + ": a file that no cfdrun run in this folder wrote (it is not in " + manifest_name +
                           ") has the name of one this run writes; cfdrun does not replace it: move it away, or "
                           "choose another output.dir");
}

void OutputFolder::remove(const std::string& name) {
  if (!listed(name)) return;
  const std::string why = files::remove_own_file(dir_ + "/" + name);
  if (!why.empty()) left_in_place(name, why);
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
  for (const auto& name : previous_)
    if (std::find(written_.begin(), written_.end(), name) == written_.end()) {
      const std::string why = files::remove_own_file(dir_ + "/" + name);
      if (!why.empty()) left_in_place(name, why);
    }
  previous_.clear();
  rewrite_manifest();
}

void OutputFolder::left_in_place(const std::string& name, const std::string& why) const {
  // Dropped from the manifest all the same: what is there is not the file
  // cfdrun wrote (or cannot go), and a later --overwrite must not take it
  // for cfdrun's.
  std::fprintf(stderr, "cfdrun: warning: %s/%s: left in place (%s); it is no longer in %s\n", dir_.c_str(),
               name.c_str(), why.c_str(), manifest_name);
}

void prepare_output_dir(const std::string& dir, bool overwrite) {
  OutputFolder folder(dir, overwrite, false);
  folder.retire_previous();
}

}  // namespace cfd
