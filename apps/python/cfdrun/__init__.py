"""Read cfdrun's output from Python: snapshots, series, the history file.

    import cfdrun
    s = cfdrun.open_snapshot("kh.out/euler_00000100.h5")
    s.time, s.step, s.solver, s.x, s.y, s["rho"]       # numpy arrays and numbers
    series = cfdrun.open_series("kh.out")               # or kh.out/euler.xdmf
    series.times, series.steps, series[-1]
    h = cfdrun.read_history("kh.out/euler.hst")       # structured array
    h["time"], h["mass"]
    s.to_xarray(), series.to_xarray()                   # with xarray
    ds = cfdrun.yt_load(s)                              # with yt

Pure Python on h5py and numpy; xarray and yt are optional. Errors about
files (missing, not HDF5, damaged, not cfdrun's) are CfdrunError with a
one-line message. docs/python.md has the details.
"""
from .history import read_history, read_history_comments
from .series import Series, open_series, read_xdmf
from .snapshot import CfdrunError, Fields, Snapshot, open_snapshot, parse_configuration
from .yt_loader import have_yt, yt_load

__all__ = ["CfdrunError", "Fields", "Series", "Snapshot", "have_yt", "open_series", "open_snapshot",
           "parse_configuration", "read_history", "read_history_comments", "read_xdmf", "yt_load"]
