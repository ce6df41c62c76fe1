"""Read cfdrun's output from Python: snapshots, series, the history file.

    import cfdrun
    s = cfdrun.open_snapshot("kh.out/euler_00000100.h5")
    s.time, s.step, s.solver, s.x, s.y, s["rho"]       # numpy arrays and numbers
    series = cfdrun.open_series("kh.out")               # or kh.out/euler.xdmf
    series.times, series.steps, series[-1]
    h = cfdrun.read_history("kh.out/euler.hst")       # structured array
    h["time"], h["mass"]
    s.to_xarray(), series.to_xarray()                   # with xarray
    ds = cfdrun.yt_load(s)                              # with yt (or yt.load(path) once
    ts = cfdrun.yt_series("kh.out")                     #   cfdrun is imported), a DatasetSeries

Pure Python on h5py and numpy; xarray and yt are optional. Errors about
files (missing, not HDF5, damaged, not cfdrun's) are CfdrunError with a
one-line message. docs/python.md has the details.
"""
__version__ = "0.2.0"  # cfdrun's version (CMakeLists.txt's project()); tests/python/test_pip.py checks

try:
    import numpy  # noqa: F401
    import h5py  # noqa: F401
except ImportError as e:  # the install hint, not a traceback from deep inside the package
    raise ImportError(f"the cfdrun Python package needs numpy and h5py ({e}); Debian: apt-get install "
                      "python3-numpy python3-h5py; pip: pip install numpy h5py") from None
from .history import read_history, read_history_comments
from .series import Series, open_series, read_xdmf
from .snapshot import CfdrunError, Fields, Snapshot, open_snapshot, parse_configuration
from .yt_loader import have_yt, register_yt, slice_plot, yt_load, yt_series

__all__ = ["CfdrunError", "Fields", "Series", "Snapshot", "have_yt", "open_series", "open_snapshot",
           "parse_configuration", "read_history", "read_history_comments", "read_xdmf", "register_yt", "slice_plot", "yt_load",
           "yt_series"]
