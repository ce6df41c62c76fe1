"""The history file <solver>.hst (docs/output-format.md, "History").

The format, as core/run/time_loop.hpp and the solvers write it: `#` comment lines
(what the sums are, in which units), then one header line of column names
(`step,time,dt,...`), then CSV rows of numbers (`%ld` then `%.16e`).
np.genfromtxt(names=True) takes its names from the first line, comment or
not, so it names the columns after the comment's words; this reader skips
the comments, takes the first other line as the header and checks every
row against it.
"""
import os

import numpy as np

from .snapshot import CfdrunError
from .text_file import read_text


def _columns(path):
    """(comments, names, rows as lists of strings, numbers of their lines)."""
    path = os.fspath(path)
    content = read_text(path, "a cfdrun history file")
    lines = content.split("\n")
    # A reader may look while the run writes: a last line without its
    # newline is a row not yet whole, and is left out.
    partial = lines.pop() if lines else ""
    comments, names, rows, numbers = [], None, [], []
    for n, line in enumerate(lines, start=1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            comments.append(line[1:].strip())
            continue
        if names is None:
            names = [c.strip() for c in line.split(",")]
            if names[:2] != ["step", "time"] or len(set(names)) != len(names) or not all(names):
                raise CfdrunError(f"{path}:{n}: not a cfdrun history header (expected step,time,dt,...; "
                                  f"got {line[:60]!r})")
            continue
        rows.append(line.split(","))
        numbers.append(n)
    if names is None:
        what = "an empty file" if not content.strip() else "no header line (step,time,dt,...)"
        raise CfdrunError(f"{path}: not a cfdrun history file ({what})")
    if partial.strip() and len(partial.split(",")) == len(names):
        # Whole but for the newline (a file cut by hand, say): keep it if it parses.
        try:
            [float(v) for v in partial.split(",")]
            rows.append(partial.strip().split(","))
            numbers.append(len(lines) + 1)
        except ValueError:
            pass
    return comments, names, rows, numbers


def read_history(path, as_dict=False):
    """The history `path` as a structured numpy array, one field per column
    (`step` int64, the others float64): h["time"], h["mass"], ...;
    with as_dict=True a dict {column: 1D array} instead. The comment lines
    are in read_history_comments(path). Raises CfdrunError for a file that
    is not a history, or a row that does not match the header."""
    _, names, rows, numbers = _columns(path)
    dtype = [(n, np.int64 if n == "step" else np.float64) for n in names]
    out = np.zeros(len(rows), dtype=dtype)
    for k, (row, n) in enumerate(zip(rows, numbers)):
        if len(row) != len(names):
            raise CfdrunError(f"{os.fspath(path)}:{n}: {len(row)} values, the header names {len(names)} columns")
        try:
            out[k] = tuple(int(v) if c == "step" else float(v) for c, v in zip(names, row))
        except ValueError:
            raise CfdrunError(f"{os.fspath(path)}:{n}: not a row of numbers ({','.join(row)[:60]!r})") from None
    if as_dict:
        return {n: out[n].copy() for n in names}
    return out


def read_history_comments(path):
    """The comment lines of a history file (what its sums are, their units), without the `#`."""
    return _columns(path)[0]
