"""Reading a small text file (a history, a reference curve) whole, with one
line of message for each way it can fail."""
import os

from .snapshot import CfdrunError


def read_text(path, what):
    """The content of the file at path, decoded as UTF-8. what names the kind
    of file expected ("a cfdrun history file"); a missing file, a folder, an
    unreadable file, binary data or bytes that are not UTF-8 raise
    CfdrunError naming the path."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise CfdrunError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CfdrunError(f"{path}: a folder, not {what}") from None
    except OSError as e:
        raise CfdrunError(f"{path}: cannot read it ({e.strerror or e})") from None
    if b"\0" in raw:
        raise CfdrunError(f"{path}: not {what} (binary data)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CfdrunError(f"{path}: not {what} (not text)") from None
