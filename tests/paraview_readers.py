"""Opens cfdrun output with ParaView's three XDMF readers (XDMF Reader,
Xdmf3 Reader S, Xdmf3 Reader T), as a user would, and checks what they load
against the HDF5 files: every time step loads; point and cell counts are the
grid's (cell-centred runs: the quadrilaterals or lines of
<solver>_mesh.hdf5, see write_xdmf in core/snapshot.cpp); every array's range
is the dataset's; the representation a render view gives the data when it is
shown, what the user sees after Apply, is Surface in every reader for every
run, coloured by a field (--field: that one); Integrate Variables gives the integral computed from the HDF5 (cell data:
sum of value x cell area or length, to 1e-12 relative, and its Area (2D) or
Length (1D) is the domain's; point data: the trapezoidal rule), and --total
NAME=VALUE that integral at every step; the vector `velocity` has three
components equal to vx, vy, vz (sod: u, 0, 0) in the reader that evaluates
XDMF functions (XDMF Reader; the Xdmf3 readers skip it and keep the scalars);
optionally renders a PNG of the last step as the reader shows it by default.

usage: pvbatch paraview_readers.py FOLDER/<solver>.xdmf [--png OUT.png] [--field NAME]
                                   [--total NAME=VALUE]
--field NAME: the field the data must be coloured by as they open.
Exit status 0 when every reader passes every check.
"""
import glob
import os
import sys

import h5py
import numpy as np
trapezoid = getattr(np, "trapezoid", None) or np.trapz  # numpy 2 renamed trapz
from paraview import simple

xdmf = os.path.abspath(sys.argv[1])
png = sys.argv[sys.argv.index("--png") + 1] if "--png" in sys.argv else None
png_field = sys.argv[sys.argv.index("--field") + 1] if "--field" in sys.argv else None
total = sys.argv[sys.argv.index("--total") + 1].split("=") if "--total" in sys.argv else None
folder = os.path.dirname(xdmf)
prefix = os.path.basename(xdmf)[: -len(".xdmf")]
files = sorted(glob.glob(os.path.join(folder, prefix + "_[0-9]*.h5")))
assert files, f"no snapshots next to {xdmf}"

failures = []


def fail(message):
    failures.append(message)
    print("FAIL:", message)


def expected(h5file):
    """Counts, ranges and integrals from the HDF5 file."""
    with h5py.File(h5file, "r") as f:
        cell = f.attrs["centering"] == "cell"
        axes = [a for a in ("x", "y") if f"grid/{a}" in f]
        fields = {k: f["fields"][k][()].astype(np.float64) for k in f["fields"]}
        coords = [f[f"grid/{a}_faces" if cell else f"grid/{a}"][()] for a in axes]
        time = float(f.attrs["time"])
    n = [len(c) - 1 if cell else len(c) for c in coords]
    cells = int(np.prod(n))
    points = int(np.prod([len(c) for c in coords]))  # cell corners (cell data) or the grid's points
    if not cell:
        cells = int(np.prod([max(k - 1, 1) for k in n]))
    # Cell data: quadrilaterals (2D) or lines (1D), so Integrate Variables
    # gives the area or length integral, and its Area or Length.
    integrals = {}
    measure = float(np.prod([c[-1] - c[0] for c in coords]))
    for name, v in fields.items():
        if cell:
            widths = [np.diff(c) for c in coords]
            w = widths[0] if len(widths) == 1 else np.outer(widths[1], widths[0])
            integrals[name] = float(np.sum(v * w))
        else:
            # 2D: trapezoid over x then y (u[j, i]); 1D: over x.
            if v.ndim == 1:
                integrals[name] = float(trapezoid(v, coords[0]))
            else:
                integrals[name] = float(trapezoid(trapezoid(v, coords[0], axis=1), coords[1]))
    ranges = {k: (float(v.min()), float(v.max())) for k, v in fields.items()}
    # The velocity vector's components, x fastest as VTK orders cells and points.
    names = ["vx", "vy", "vz"] if "vx" in fields else ["u"] if len(axes) == 1 and "u" in fields else []
    velocity = None
    if names:
        comps = [fields[k].reshape(-1) if k in fields else None for k in names + [None] * (3 - len(names))]
        velocity = np.stack([c if c is not None else np.zeros_like(comps[0]) for c in comps], axis=1)
    return dict(cell=cell, cells=cells, points=points, ranges=ranges, integrals=integrals, time=time,
                measure=measure, measure_name="Area" if len(axes) == 2 else "Length", velocity=velocity)


def array_of(reader, name, cell):
    """The reader's array NAME as numpy, from its output in this process
    (pvbatch's builtin session), or None."""
    from vtk.util.numpy_support import vtk_to_numpy
    data = reader.GetClientSideObject().GetOutputDataObject(0)
    while data is not None and data.IsA("vtkCompositeDataSet"):
        data = data.GetBlock(0)
    if data is None:
        return None
    a = (data.GetCellData() if cell else data.GetPointData()).GetArray(name)
    return None if a is None else vtk_to_numpy(a)


readers = {
    "XDMF Reader": lambda: simple.XDMFReader(FileNames=[xdmf]),
    "Xdmf3 Reader S": lambda: simple.Xdmf3ReaderS(FileName=[xdmf]),
    "Xdmf3 Reader T": lambda: simple.Xdmf3ReaderT(FileName=[xdmf]),
}
for label, make in readers.items():
    try:
        reader = make()
        reader.UpdatePipelineInformation()
    except Exception as e:  # a reader that cannot open the file at all
        fail(f"{label}: cannot open {xdmf}: {e}")
        continue
    times = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
    if len(times) != len(files):
        fail(f"{label}: {len(times)} time steps, the series has {len(files)} snapshots")
        continue
    for t, h5 in zip(times, files):
        want = expected(h5)
        if abs(t - want["time"]) > 1e-12 * max(1.0, abs(want["time"])):
            fail(f"{label}: time {t} for {os.path.basename(h5)}, which holds t = {want['time']}")
        reader.UpdatePipeline(t)
        tag = f"{label}, {os.path.basename(h5)}"
        # What the reader loaded, as the pipeline reports it (not through
        # Fetch, which does not always deliver a whole rectilinear grid).
        info = reader.GetDataInformation()
        if info.GetNumberOfCells() != want["cells"] or info.GetNumberOfPoints() != want["points"]:
            fail(f"{tag}: {info.GetNumberOfPoints()} points and {info.GetNumberOfCells()} cells, "
                 f"expected {want['points']} and {want['cells']}")
        arrays = reader.CellData if want["cell"] else reader.PointData
        for name, (lo, hi) in want["ranges"].items():
            if name not in arrays.keys():
                fail(f"{tag}: no {'cell' if want['cell'] else 'point'} array {name}")
                continue
            r = arrays[name].GetRange()
            if abs(r[0] - lo) > 1e-12 * max(1.0, abs(lo)) or abs(r[1] - hi) > 1e-12 * max(1.0, abs(hi)):
                fail(f"{tag}: {name} range {r}, the HDF5 holds ({lo}, {hi})")
        # The vector velocity: its three components are the datasets'.
        if want["velocity"] is not None and label == "XDMF Reader":
            got = array_of(reader, "velocity", want["cell"])
            if got is None:
                fail(f"{tag}: no vector velocity")
            elif got.shape != want["velocity"].shape or not np.array_equal(got, want["velocity"].astype(got.dtype)):
                fail(f"{tag}: velocity {got.shape} differs from (vx, vy, vz) {want['velocity'].shape} of the HDF5")
        # Integrate Variables over the last step (it is the slowest check), and
        # every step when a total is to be checked.
        if h5 == files[-1] or total:
            integrate = simple.IntegrateVariables(Input=reader)
            integrate.UpdatePipeline(t)
            out = integrate.CellData if want["cell"] else integrate.PointData
            checks = dict(want["integrals"]) if h5 == files[-1] else {}
            if total:
                checks[total[0]] = float(total[1])
            for name, value in checks.items():
                got = out[name].GetRange()[0] if name in out.keys() else float("nan")
                tolerance = 1e-12 if want["cell"] else 1e-9
                if not abs(got - value) <= tolerance * max(1.0, abs(value)):
                    fail(f"{tag}: Integrate Variables of {name} = {got!r}, from the HDF5 {value!r}")
            if want["cell"]:
                # The size Integrate Variables divides by for an average: the domain's.
                what = want["measure_name"]
                size = out[what].GetRange()[0] if what in out.keys() else float("nan")
                if not abs(size - want["measure"]) <= 1e-12 * max(1.0, want["measure"]):
                    fail(f"{tag}: Integrate Variables' {what} {size!r} (of {sorted(out.keys())}), the domain's "
                         f"size is {want['measure']!r}")
            simple.Delete(integrate)
    # What the user sees after Apply: the representation a render view gives
    # the data by default (vtkSMRepresentationTypeDomain: Outline for a 3D
    # structured grid, Surface for a 2D or 1D one and for unstructured
    # cells). Node-centred runs are one point thick, cell-centred runs
    # quadrilaterals or lines (write_xdmf): a Surface, in every reader.
    view = simple.CreateRenderView()
    shown = simple.Show(reader, view)
    representation = shown.Representation
    if representation != "Surface":
        fail(f"{label}: {os.path.basename(xdmf)} opens as {representation}, expected Surface")
    # Coloured by a field as it opens (the index's first attribute), not a
    # plain white surface: --field names the one expected.
    colour = list(shown.ColorArrayName)
    association = "CELLS" if want["cell"] else "POINTS"
    if colour[0] != association or colour[1] not in want["ranges"] or (png_field and colour[1] != png_field):
        fail(f"{label}: {os.path.basename(xdmf)} opens coloured by {colour}, expected {association} "
             f"{png_field or 'a field'}")
    simple.Delete(shown)
    simple.Delete(view)
    print(f"{label}: {len(times)} time steps of {os.path.basename(xdmf)} load with the HDF5's counts, ranges and "
          f"integrals{', and velocity' if want['velocity'] is not None and label == 'XDMF Reader' else ''}; "
          f"shown as {representation} coloured by {colour[1]}")
    if png and label == "Xdmf3 Reader S":
        view = simple.CreateRenderView()
        view.ViewSize = [640, 640]
        view.OrientationAxesVisibility = 0
        view.ViewTime = times[-1]
        display = simple.Show(reader, view)  # as it opens: no representation chosen here
        display.LineWidth = 6  # a 1D run is a line, drawn one pixel wide unless told
        field = display.ColorArrayName[1]  # the colouring it opens with
        simple.Render(view)
        display.RescaleTransferFunctionToDataRange(False, True)  # to the last step's range
        simple.ResetCamera(view)
        simple.SaveScreenshot(png, view)
        # The field drawn, not an empty view or an outline: many colours.
        import matplotlib.image
        pixels = matplotlib.image.imread(png)
        colours = len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0))
        if colours < 10:
            fail(f"{png} shows {colours} colours: the field was not drawn")
        print(f"rendered {field} at t = {times[-1]} to {png} ({colours} colours)")
    simple.Delete(reader)

# Leave without ParaView's teardown, which can end in an X error
# (GLXBadContext) under xvfb-run after everything has passed.
sys.stdout.flush()
os._exit(1 if failures else 0)
