"""A time series of cfdrun snapshots: an output folder, its <solver>.xdmf
index, or a list of snapshot files (docs/output-format.md, "XDMF index")."""
import glob
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import numpy as np

from .snapshot import CfdrunError, open_hdf5, open_snapshot

# <solver>_<8-digit step>.h5; checkpoint_ and diagnosis_ files share the
# pattern but are not snapshots of the series.
SNAPSHOT_NAME = re.compile(r"^(?P<solver>[A-Za-z0-9]+)_(?P<step>[0-9]{8})\.h5$")
NOT_SERIES = ("checkpoint", "diagnosis")


def read_xdmf(path):
    """The snapshots an XDMF index lists: [(time, step, file path)] in time
    order, each file once. The time is the index's (cfdrun writes it with 17
    significant digits, so it is the snapshot's `time` attribute exactly);
    the step comes from the grid's name, "step N"."""
    path = os.fspath(path)
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise CfdrunError(f"{path}: no such file") from None
    except (OSError, ET.ParseError) as e:
        raise CfdrunError(f"{path}: cannot read it as an XDMF index ({e})") from None
    entries = []
    for k, grid in enumerate(root.iter("Grid")):
        t = grid.find("Time")
        files = [item.text.strip().split(":", 1)[0] for item in grid.iter("DataItem")
                 if item.get("Format") == "HDF" and item.text and ":" in item.text]
        if t is None or not files:
            continue  # the temporal collection itself
        try:
            time = float(t.get("Value"))
        except (TypeError, ValueError):
            raise CfdrunError(f"{path}: a time step without a number ({t.get('Value')!r})") from None
        m = re.fullmatch(r"step (-?[0-9]+)", grid.get("Name", ""))
        step = int(m.group(1)) if m else None
        entries.append((time, k, step, os.path.join(os.path.dirname(path), files[0])))
    if not entries:
        raise CfdrunError(f"{path}: an XDMF index that names no snapshot")
    out, seen = [], set()
    for time, _, step, f in sorted(entries, key=lambda e: (e[0], e[1])):
        if f not in seen:
            seen.add(f)
            out.append((time, step, f))
    return out


def _time_and_step(path):
    with open_hdf5(path) as h:
        if "time" not in h.attrs or "step" not in h.attrs:
            raise CfdrunError(f"{path}: not a cfdrun snapshot (no time or step attribute)")
        return float(h.attrs["time"]), int(h.attrs["step"])


def _snapshots_in_folder(folder):
    """The series in an output folder: its .xdmf index where there is one,
    else the <solver>_<step>.h5 files, ordered by their time attribute."""
    indexes = sorted(glob.glob(os.path.join(glob.escape(folder), "*.xdmf")))
    if len(indexes) == 1:
        return read_xdmf(indexes[0]), indexes[0]
    if len(indexes) > 1:
        raise CfdrunError(f"{folder}: several XDMF indexes ({', '.join(map(os.path.basename, indexes))}); "
                          "open one of them")
    files = [os.path.join(folder, f) for f in sorted(os.listdir(folder))
             if SNAPSHOT_NAME.match(f) and SNAPSHOT_NAME.match(f).group("solver") not in NOT_SERIES]
    if not files:
        raise CfdrunError(f"{folder}: no cfdrun snapshot (<solver>_<step>.h5) or .xdmf index in this folder")
    return _from_files(files), folder


def _from_files(files):
    entries = []
    for f in files:
        time, step = _time_and_step(f)
        entries.append((time, step, f))
    return sorted(entries, key=lambda e: (e[0], e[1]))


class Series(Sequence):
    """The snapshots of one run in time order. `series[k]` opens the k-th
    (a Snapshot); `times`, `steps` and `files` are numpy arrays / a list
    known without opening any snapshot when the series comes from an .xdmf
    index."""

    def __init__(self, entries, source):
        self.source = source
        self.times = np.array([e[0] for e in entries], dtype=float)
        self.files = [e[2] for e in entries]
        steps = [e[1] if e[1] is not None else _time_and_step(e[2])[1] for e in entries]
        self.steps = np.array(steps, dtype=np.int64)
        self._open = {}

    def __len__(self):
        return len(self.files)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        k = range(len(self))[k]  # negative indices, and IndexError past the end
        if k not in self._open:
            self._open[k] = open_snapshot(self.files[k])
        return self._open[k]

    def __repr__(self):
        if not len(self):
            return f"<cfdrun.Series {self.source}: empty>"
        return (f"<cfdrun.Series {self.source}: {len(self)} snapshots, steps {self.steps[0]} to {self.steps[-1]}, "
                f"t = {self.times[0]:.6g} to {self.times[-1]:.6g}>")

    def nearest(self, time):
        """The snapshot nearest in time to `time`."""
        return self[int(np.argmin(np.abs(self.times - time)))]

    def to_xarray(self):
        """The whole series as one xarray.Dataset with a `time` dimension
        (and `step` along it); every snapshot must have the same grid. It
        reads every field of every snapshot: mind the memory on large runs."""
        import xarray as xr
        datasets = []
        for snap in self:
            ds = snap.to_xarray()
            # Attributes that differ between snapshots (time, timings) stay with each snapshot, not the whole.
            datasets.append(ds.expand_dims(time=[snap.time]).assign_coords(step=("time", [snap.step])))
        try:
            return xr.concat(datasets, dim="time", combine_attrs="drop_conflicts", join="exact")
        except ValueError as e:
            raise CfdrunError(f"{self.source}: the snapshots do not share one grid ({e})") from None


def open_series(source):
    """The series of snapshots of `source`: an output folder, an .xdmf index,
    or a list of snapshot files (ordered by their time)."""
    if isinstance(source, (list, tuple)):
        return Series(_from_files([os.fspath(f) for f in source]), "files")
    source = os.fspath(source)
    if os.path.isdir(source):
        entries, index = _snapshots_in_folder(source)
        return Series(entries, index)
    if source.lower().endswith(".xdmf"):
        return Series(read_xdmf(source), source)
    if not os.path.exists(source):
        raise CfdrunError(f"{source}: no such file or folder")
    return Series(_from_files([source]), source)

