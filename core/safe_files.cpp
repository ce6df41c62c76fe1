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

int open_no_follow(const std::string& path, int flags, mode_t mode) {
  errno = 0;
  const int fd = open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd >= 0) return fd;
  const int why = errno;
  // O_NOFOLLOW fails with ELOOP on a link; say what the user can do.
  const bool link = why == ELOOP || is_link(path);
  errno = why;  // for the caller's message, past lstat's
  if (link)
    throw std::runtime_error(path +
                             ": is a symbolic link; cfdrun writes no file through a link in its output folder "
                             "(remove the link, or choose another output.dir)");
  throw std::runtime_error(path + ": cannot open: " + std::strerror(why));
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

bool is_output_name(const std::string& name) {
  std::string word;
  if (is_numbered_h5(name, &word)) return true;
  for (const char* tail : {".xdmf", ".hst", "_final.txt", "_mesh.hdf5"})
    if (ends_with(name, tail)) return is_word(name.substr(0, name.size() - std::strlen(tail)));
  return false;
}

bool is_checkpoint_name(const std::string& name) {
  std::string word;
  return is_numbered_h5(name, &word) && word == "checkpoint";
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
