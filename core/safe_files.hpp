// Files in the output folder, created and opened so that nothing outside
// it is ever touched: a symbolic link planted under one of cfdrun's names
// (.cfdrun.lock, *.tmp, <solver>.hst, .cfdrun-manifest) is never followed;
// a named pipe, socket, device or folder there is never opened (a pipe
// would hold the run for ever, a device may act on being opened); a hard
// link is never written through (its data is a file elsewhere too); and
// names read back from files (the manifest, a checkpoint's list of kept
// checkpoints) are used only when they have the form cfdrun writes.
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
// What is at `path` (lstat) where it is not a regular file, in words: "a
// symbolic link", "a named pipe (FIFO)", "a socket", "a character device",
// "a block device", "a folder"; "" for a regular file or nothing.
std::string special_kind(const std::string& path);

// open(2) of one of cfdrun's own files in its output folder, for reading
// or writing: only a regular file with one name is opened. Never through a
// link (O_NOFOLLOW); a pipe, socket, device or folder at `path` is refused
// before it is opened, and opened with O_NONBLOCK in case one takes the
// name meanwhile, so that nothing waits; a hard link (st_nlink > 1) is
// refused, since writing it changes the file under its other names too
// (O_TRUNC is applied only after this check). O_CLOEXEC. Throws
// std::runtime_error naming the file and what it is.
int open_no_follow(const std::string& path, int flags, mode_t mode = 0644);
// The same as a stdio stream; `mode` is "r", "r+", "w" or "a".
std::FILE* fopen_no_follow(const std::string& path, const char* mode);

// Removes `path`, one of cfdrun's files in its output folder (--overwrite,
// output.checkpoint_keep), only if it is a regular file: returns "" when it
// is gone or was not there, otherwise why it stays ("a folder", "a symbolic
// link", "cannot be removed: Permission denied"). A link is never followed.
// A hard link is removed: unlink takes only this folder's name, and the
// data stays, unchanged, under its other names.
std::string remove_own_file(const std::string& path);

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
// Whether `name` is one of the names a run whose files are named `prefix`
// (its solver, "sod") writes: <prefix>_<8 digits>.h5, <prefix>.xdmf,
// <prefix>.hst, <prefix>_final.txt, <prefix>_mesh.hdf5, or one of every
// run's checkpoint_<8 digits>.h5 and diagnosis_<8 digits>.h5.
bool is_output_name_of(const std::string& name, const std::string& prefix);

// A checksum of a file's bytes from `offset` to its end (64-bit, word by
// word; any change within one 8-byte word always changes it). Throws
// std::runtime_error when the file cannot be read.
std::uint64_t file_digest(const std::string& path, long offset, long* length = nullptr);

}  // namespace cfd::files
