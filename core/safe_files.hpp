// Files in the output folder, created and opened so that nothing outside
// it is ever touched: a symbolic link planted under one of cfdrun's names
// (.cfdrun.lock, *.tmp, <solver>.hst, .cfdrun-manifest) is never followed,
// and names read back from files (the manifest, a checkpoint's list of
// kept checkpoints) are used only when they have the form cfdrun writes.
// Below the snapshot and checkpoint layers: plain POSIX calls, no HDF5.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace cfd::files {

// Whether anything, a dangling link included, is at `path` (lstat).
bool entry_exists(const std::string& path);
// Whether `path` is a symbolic link.
bool is_link(const std::string& path);

// open(2) that never follows a link at `path` (O_NOFOLLOW, O_CLOEXEC);
// throws std::runtime_error naming the file, and saying so for a link.
int open_no_follow(const std::string& path, int flags, mode_t mode = 0644);
// The same as a stdio stream; `mode` is "r", "r+", "w" or "a".
std::FILE* fopen_no_follow(const std::string& path, const char* mode);

// Makes way for a temporary file cfdrun creates next: whatever is at
// `path` (a leftover of a killed run, or a link, which is removed and not
// followed) goes; a folder there is an error.
void clear_temporary(const std::string& path);

// Writes `contents` to `path` through `path.tmp`, renamed into place when
// complete (a second SIGINT removes the temporary file); on any failure the
// temporary file is removed and the error names the system's reason ("No
// space left on device").
void write_file_atomically(const std::string& path, const std::string& contents);

// Whether `name` is a plain file name (no folder part) of a form cfdrun
// writes in an output folder: <word>_<8 digits>.h5 (snapshots,
// checkpoint_*, diagnosis_*), <word>.xdmf, <word>.hst, <word>_final.txt,
// <word>_mesh.hdf5, where a word is lower-case letters, digits and '_'.
bool is_output_name(const std::string& name);
// Whether `name` is checkpoint_<8 digits>.h5.
bool is_checkpoint_name(const std::string& name);

// A checksum of a file's bytes from `offset` to its end (64-bit, word by
// word; any change within one 8-byte word always changes it). Throws
// std::runtime_error when the file cannot be read.
std::uint64_t file_digest(const std::string& path, long offset, long* length = nullptr);

}  // namespace cfd::files
