"""Checks a cfdrun output folder the way a user's tools read it: every HDF5
snapshot opens with h5py with the documented datasets and attributes, and the
XDMF index parses and points at datasets that exist with the shapes it states.
usage: check_output.py FOLDER SOLVER [EXPECTED_SNAPSHOTS]"""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import h5py
import numpy as np

folder, solver = Path(sys.argv[1]), sys.argv[2]
expected = int(sys.argv[3]) if len(sys.argv) > 3 else None
files = sorted(folder.glob(f"{solver}_*.h5"))
assert files, f"no snapshots in {folder}"
assert not list(folder.glob("*.tmp")), "temporary files left behind"
if expected is not None:
    assert len(files) == expected, f"{len(files)} snapshots, expected {expected}"

required = ["time", "step", "solver", "precision", "layout", "execution_space",
            "cfdrun_version", "git_revision", "kokkos_version", "configuration"]
for f in files:
    with h5py.File(f, "r") as h:
        for a in required:
            assert a in h.attrs, f"{f}: attribute {a} missing"
        # Strings are variable-length UTF-8: h5py hands users str, not bytes.
        for a in ["solver", "precision", "layout", "configuration", "cfdrun_version"]:
            assert isinstance(h.attrs[a], str), f"{f}: attribute {a} is {type(h.attrs[a]).__name__}, not str"
        assert h.attrs["solver"] == solver
        assert "fields" in h and "grid" in h, f"{f}: groups missing"
        for name, d in list(h["fields"].items()) + list(h["grid"].items()):
            assert np.all(np.isfinite(d[...])), f"{f}: {name} not finite"
            for a in ["units", "description"]:
                assert isinstance(d.attrs.get(a), str) and d.attrs[a], f"{f}: {d.name} has no {a}"

with h5py.File(files[-1], "r") as h:
    for a in ["timing_total_s", "timing_loop_s", "timing_h2d_s", "timing_d2h_s", "timing_exit_s",
              "cell_updates_per_s"]:
        assert a in h.attrs, f"last snapshot lacks {a}"
    for a in ["timing_total_s", "timing_loop_s"]:
        assert h.attrs[a] > 0, f"last snapshot has {a} = {h.attrs[a]}: timings stored before they were taken"
    assert h.attrs["timing_total_s"] >= h.attrs["timing_loop_s"], "TOTAL shorter than LOOP"
    config = h.attrs["configuration"]
    assert f"solver: {solver}" in config, config

xdmf = ET.parse(folder / f"{solver}.xdmf")
grids = xdmf.getroot().findall("./Domain/Grid/Grid")
assert len(grids) == len(files), f"XDMF lists {len(grids)} of {len(files)} snapshots"
times = [float(g.find("Time").get("Value")) for g in grids]
assert times == sorted(times), "XDMF times not increasing"
for item in xdmf.getroot().iter("DataItem"):
    if item.get("Format") != "HDF":
        continue
    fname, dset = item.text.strip().split(":")
    with h5py.File(folder / fname, "r") as h:
        shape = tuple(int(n) for n in item.get("Dimensions").split())
        assert dset in h, f"XDMF points at missing {fname}:{dset}"
        # The index gives every attribute three dimensions (z y x), one entry thick where the data has fewer.
        squeeze = lambda s: tuple(s)[next((i for i, n in enumerate(s) if n != 1), len(s)):]
        assert squeeze(h[dset].shape) == squeeze(shape), f"{fname}:{dset} has shape {h[dset].shape}, XDMF says {shape}"
print(f"{folder}: {len(files)} snapshots and the XDMF index check out")
