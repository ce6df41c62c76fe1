#include "core/safe_files.hpp"

#include "core/signals.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace cfd::files {

bool entry_exists(const std::string& path) {
  struct stat s;
  return lstat(path.c_str(), &s) == 0;
}

bool is_link(const std::string& path) {
  struct stat s;
  return lstat(path.c_str(), &s) == 0 && S_ISLNK(s.st_mode);
}

namespace {

std::string kind_of(const struct stat& s) {
  if (S_ISREG(s.st_mode)) return "";
  if (S_ISLNK(s.st_mode)) return "a symbolic link";
  if (S_ISFIFO(s.st_mode)) return "a named pipe (FIFO)";
  if (S_ISSOCK(s.st_mode)) return "a socket";
  if (S_ISCHR(s.st_mode)) return "a character device";
  if (S_ISBLK(s.st_mode)) return "a block device";
  if (S_ISDIR(s.st_mode)) return "a folder";
  return "not a regular file";
}

[[noreturn]] void refuse_link(const std::string& path) {
  throw std::runtime_error(path +
                           ": is a symbolic link; cfdrun writes no file through a link in its output folder "
                           "(remove the link, or choose another output.dir)");
}

// Refuses what cfdrun must not open at `path`, as lstat or fstat saw it:
// anything but a regular file, and a regular file with more than one name.
void refuse_unless_own(const std::string& path, const struct stat& s) {
  if (S_ISLNK(s.st_mode)) refuse_link(path);
  if (!S_ISREG(s.st_mode))
    throw std::runtime_error(path + ": is " + kind_of(s) +
                             ", not a regular file; cfdrun opens only regular files of its own in its output folder "
                             "(move it away, or choose another output.dir)");
  if (s.st_nlink > 1)
    throw std::runtime_error(path + ": is a hard link (the same file has " + std::to_string(s.st_nlink) +
                             " names): cfdrun writes only files of its own, and writing this one would change it "
                             "under its other names too (remove this name, which leaves the data under the others, "
                             "or choose another output.dir)");
}

}  // namespace

std::string special_kind(const std::string& path) {
  struct stat s;
  return lstat(path.c_str(), &s) == 0 ? kind_of(s) : "";
}

int open_no_follow(const std::string& path, int flags, mode_t mode) {
  // What is there is looked at before it is opened: opening a named pipe
  // waits for its other end (a run that hangs for ever), and opening a
  // device may act on it.
  struct stat s;
  if (lstat(path.c_str(), &s) == 0) refuse_unless_own(path, s);
  // Should something else take the name before open: O_NONBLOCK makes the
  // open of a pipe return at once (ENXIO, or a descriptor that fstat then
  // refuses), and O_TRUNC waits until the file is known to be cfdrun's own
  // (truncating a hard link would empty the file under its other names).
  errno = 0;
  const int fd = open(path.c_str(), (flags & ~O_TRUNC) | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode);
  if (fd < 0) {
    const int why = errno;
    // O_NOFOLLOW fails with ELOOP on a link; say what the user can do.
    if (why == ELOOP || is_link(path)) refuse_link(path);
    if (lstat(path.c_str(), &s) == 0 && !S_ISREG(s.st_mode)) refuse_unless_own(path, s);
    errno = why;  // for the caller's message, past lstat's
    throw std::runtime_error(path + ": cannot open: " + std::strerror(why));
  }
  try {
    if (fstat(fd, &s) != 0) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
    refuse_unless_own(path, s);
    // A regular file never blocks; the flag goes so that later calls on the
    // descriptor behave as on any file.
    const int status = fcntl(fd, F_GETFL);
    if (status != -1) fcntl(fd, F_SETFL, status & ~O_NONBLOCK);
    if ((flags & O_TRUNC) && ftruncate(fd, 0) != 0)
      throw std::runtime_error(path + ": cannot empty the file: " + std::strerror(errno));
  } catch (...) {
    close(fd);
    throw;
  }
  return fd;
}

std::FILE* fopen_no_follow(const std::string& path, const char* mode) {
  const std::string m = mode;
  int flags = 0;
  if (m == "r")
    flags = O_RDONLY;
  else if (m == "r+")
    flags = O_RDWR;
  else if (m == "w")
    flags = O_WRONLY | O_CREAT | O_TRUNC;
  else if (m == "a")
    flags = O_WRONLY | O_CREAT | O_APPEND;
  else
    throw std::logic_error("fopen_no_follow: mode " + m);
  const int fd = open_no_follow(path, flags);
  std::FILE* f = fdopen(fd, mode);
  if (!f) {
    const int why = errno;
    close(fd);
    throw std::runtime_error(path + ": cannot open: " + std::strerror(why));
  }
  return f;
}

void clear_temporary(const std::string& path) {
  struct stat s;
  if (lstat(path.c_str(), &s) != 0) return;
  if (S_ISDIR(s.st_mode))
    throw std::runtime_error(path + ": a folder has the name of the temporary file cfdrun writes; move it away");
  if (unlink(path.c_str()) != 0 && errno != ENOENT)
    throw std::runtime_error(path + ": cannot remove the unfinished file: " + std::strerror(errno));
}

std::string remove_own_file(const std::string& path) {
  struct stat s;
  if (lstat(path.c_str(), &s) != 0) return "";
  // Only a regular file: a link (its target is never touched), a pipe, a
  // device or a folder there now is not the file cfdrun wrote. A regular
  // file with other names loses only this one (unlink), its data stays.
  if (!S_ISREG(s.st_mode)) return kind_of(s);
  if (unlink(path.c_str()) != 0 && errno != ENOENT) return std::string("cannot be removed: ") + std::strerror(errno);
  return "";
}

namespace {

bool is_word(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// <word>_<8 digits>.h5
bool is_numbered_h5(const std::string& name, std::string* word) {
  if (!ends_with(name, ".h5") || name.size() < 13) return false;
  const std::string stem = name.substr(0, name.size() - 3);
  const std::string digits = stem.substr(stem.size() - 8);
  if (stem[stem.size() - 9] != '_') return false;
  for (char c : digits)
    if (c < '0' || c > '9') return false;
  *word = stem.substr(0, stem.size() - 9);
  return is_word(*word);
}

}  // namespace

// The names of a run's files other than its numbered ones: <word> and one of these.
constexpr const char* output_tails[] = {".xdmf", ".hst", "_final.txt", "_mesh.hdf5"};

bool is_output_name(const std::string& name) {
  std::string word;
  if (is_numbered_h5(name, &word)) return true;
  for (const char* tail : output_tails)
    if (ends_with(name, tail)) return is_word(name.substr(0, name.size() - std::strlen(tail)));
  return false;
}

bool is_checkpoint_name(const std::string& name) {
  std::string word;
  return is_numbered_h5(name, &word) && word == "checkpoint";
}

bool is_output_name_of(const std::string& name, const std::string& prefix) {
  std::string word;
  if (!is_output_name(name)) return false;
  if (is_numbered_h5(name, &word)) return word == prefix || word == "checkpoint" || word == "diagnosis";
  for (const char* tail : output_tails)
    if (name == prefix + tail) return true;
  return false;
}

std::uint64_t file_digest(const std::string& path, long offset, long* length) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
  // Each step maps the previous value and the next word one to one (an odd
  // multiplier, a rotation, an xor), so a change inside one word always
  // changes the result; the byte count is mixed in at the end.
  constexpr std::uint64_t k1 = 0x9E3779B97F4A7C15ull, k2 = 0xC2B2AE3D27D4EB4Full, k3 = 0x165667B19E3779F9ull;
  std::uint64_t h = 0x27D4EB2F165667C5ull;
  std::vector<unsigned char> buffer(1 << 20);
  long total = 0;
  off_t at = offset;
  while (true) {
    // A full buffer, or what is left before the end.
    ssize_t n = 0;
    while (static_cast<size_t>(n) < buffer.size()) {
      const ssize_t got = pread(fd, buffer.data() + n, buffer.size() - static_cast<size_t>(n), at + n);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        const int why = errno;
        close(fd);
        throw std::runtime_error(path + ": cannot read: " + std::strerror(why));
      }
      if (got == 0) break;
      n += got;
    }
    if (n == 0) break;
    size_t k = 0;
    for (; k < static_cast<size_t>(n); k += 8) {
      std::uint64_t w = 0;
      const size_t bytes = std::min<size_t>(8, static_cast<size_t>(n) - k);
      std::memcpy(&w, buffer.data() + k, bytes);
      h ^= w * k1;
      h = ((h << 27) | (h >> 37)) * k2 + k3;
    }
    total += n;
    at += n;
    if (static_cast<size_t>(n) < buffer.size()) break;  // the end
  }
  close(fd);
  h ^= static_cast<std::uint64_t>(total) * k1;
  h = ((h << 27) | (h >> 37)) * k2 + k3;
  if (length) *length = total;
  return h;
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  const std::string tmp = path + ".tmp";
  job::TemporaryFile in_progress(tmp);
  // A leftover or a planted link goes first, and the new file is created
  // afresh (O_EXCL never follows a link), so nothing outside is written.
  clear_temporary(tmp);
  const int fd = open_no_follow(tmp, O_WRONLY | O_CREAT | O_EXCL);
  errno = 0;
  std::FILE* f = fdopen(fd, "wb");
  if (!f) {
    const int why = errno;
    close(fd);
    std::remove(tmp.c_str());
    throw std::runtime_error(tmp + ": cannot create: " + std::strerror(why));
  }
  const bool written = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size() && std::fflush(f) == 0;
  const int cause = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    const int why = cause != 0 ? cause : errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(tmp + ": cannot write: " + std::strerror(why));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int why = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot rename into place: " + std::strerror(why));
  }
}

}  // namespace cfd::files
