"""Reading a small text file (a history, a reference curve) whole, with one
line of message for each way it can fail."""
import os
import stat

from .snapshot import CfdrunError


def read_text(path, what):
    """The content of the file at path, decoded as UTF-8. what names the kind
    of file expected ("a cfdrun history file"); a missing file, a folder, an
    unreadable file, binary data or bytes that are not UTF-8 raise
    CfdrunError naming the path."""
    path = os.fspath(path)
    # Only a regular file: a named pipe waits for a writer for ever, and a
    # device (/dev/zero) has no end.
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise CfdrunError(f"{path}: no such file") from None
    except OSError as e:
        raise CfdrunError(f"{path}: cannot read it ({e.strerror or e})") from None
    if stat.S_ISDIR(st.st_mode):
        raise CfdrunError(f"{path}: a folder, not {what}")
    if not stat.S_ISREG(st.st_mode):
        raise CfdrunError(f"{path}: not a regular file (a named pipe or a device), not {what}")
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise CfdrunError(f"{path}: cannot read it ({e.strerror or e})") from None
    if b"\0" in raw:
        raise CfdrunError(f"{path}: not {what} (binary data)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CfdrunError(f"{path}: not {what} (not text)") from None
