#include "core/run/history_file.hpp"

#include "core/checkpoint.hpp"
#include "core/safe_files.hpp"
#include "core/snapshot.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace cfd::run {

HistoryFile::HistoryFile(const SnapshotSeries& series, const std::string& path, const std::string& header, bool writer,
                         const LoopRecord* from)
    : path_(path), name_(std::filesystem::path(path).filename().string()) {
  if (!writer) return;
  std::error_code ec;
  const bool resume = from && from->history_bytes >= 0 && from->history_file == name_ &&
                      std::filesystem::exists(path, ec) &&
                      std::filesystem::file_size(path, ec) >= static_cast<uintmax_t>(from->history_bytes);
  series.claim(path);
  if (resume) {
    file_.reset(files::fopen_no_follow(path, "r+"));
    if (file_ && ftruncate(fileno(file_.get()), static_cast<off_t>(from->history_bytes)) != 0)
      throw std::runtime_error(path + ": cannot cut the history back to the checkpoint: " + std::strerror(errno));
    if (file_) std::fseek(file_.get(), 0, SEEK_END);
  } else {
    if (from && from->history_bytes >= 0)
      std::fprintf(stderr, "cfdrun: warning: %s is missing or shorter than at the checkpoint; it restarts here\n",
                   path.c_str());
    file_.reset(files::fopen_no_follow(path, "w"));
  }
  if (!file_) throw std::runtime_error(path + ": cannot open the history file: " + std::strerror(errno));
  if (!resume) append(header);
  series.wrote(path);
}

void HistoryFile::append(const std::string& text) {
  const long good = std::ftell(file_.get());
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), file_.get()) == text.size() && std::fflush(file_.get()) == 0) return;
  const std::string why = std::strerror(errno != 0 ? errno : EIO);
  std::clearerr(file_.get());
  if (good >= 0 && ftruncate(fileno(file_.get()), good) == 0) std::fseek(file_.get(), good, SEEK_SET);
  throw std::runtime_error(path_ + ": cannot write the history: " + why);
}

void HistoryFile::append_row(long step, double time, double dt, const std::vector<double>& totals) {
  if (!file_) return;
  char field[64];
  std::snprintf(field, sizeof field, "%ld,%.16e,%.16e", step, time, dt);
  std::string line = field;
  for (double v : totals) {
    std::snprintf(field, sizeof field, ",%.16e", v);
    line += field;
  }
  append(line + "\n");
}

long HistoryFile::bytes() const { return file_ ? std::ftell(file_.get()) : 0; }

}  // namespace cfd::run
