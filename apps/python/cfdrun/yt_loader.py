"""A cfdrun snapshot as a yt dataset (yt.load_uniform_grid)."""
import os

import numpy as np

from .snapshot import Snapshot, open_snapshot

# yt is imported on first use: it takes seconds, and most users of the
# package (cfdplot among them) never need it.
yt = None


def have_yt():
    """Whether yt imports (a broken install counts as missing)."""
    global yt
    if yt is None:
        try:
            import yt as module
        except Exception:
            return False
        yt = module
    return True


def _yt_units(units):
    """cfdrun's unit string as yt understands it ("kg/m^3" -> "kg/m**3");
    dimensionless, reference units (rho_ref, Lx) and unknown ones as
    "dimensionless" (the original string stays in ds.parameters)."""
    if not units or units == "1":
        return "dimensionless"
    candidate = units.replace("^", "**")
    try:
        yt.units.Unit(candidate)
        return candidate
    except Exception:
        return "dimensionless"


def _periodicity(snap):
    """Which directions wrap around: euler's boundary.* keys; diffusion's
    edges are fixed and sod's tube has ends, so no. Directions the run
    lacks are periodic, which keeps yt from treating them as edges."""
    c = snap.config
    if snap.solver == "euler":
        x = c.get("boundary.x_lo") == "periodic" and c.get("boundary.x_hi") == "periodic"
        y = c.get("boundary.y_lo") == "periodic" and c.get("boundary.y_hi") == "periodic"
        z = snap.ndim < 3 or (c.get("boundary.z_lo") == "periodic" and c.get("boundary.z_hi") == "periodic")
        return (x, y, z)
    return (False, True, True) if snap.ndim == 1 else (False, False, True)


def yt_load(source, fields=None):
    """The snapshot `source` (a path or a Snapshot) as a yt stream dataset.

    The domain is the cells' extent: the cell faces of cell-centred solvers
    (sod, euler), and for node-centred diffusion one cell of one spacing
    around each point. 2D runs are one cell thick in z and 1D runs one cell
    in y and z, of thickness 1, so that sum(rho * cell_volume) is the total
    the history reports. ds.current_time is the snapshot's time; lengths
    are in metres where the grid is (sod with sod.units: physical), else in
    yt's code_length (the problems are dimensionless). Fields are
    ("stream", name), in float64, with their units where yt knows them.
    `fields` picks some (default: all). Raises ImportError without yt.
    """
    if not have_yt():
        raise ImportError("cfdrun.yt_load needs yt (Debian: apt-get install python3-yt)")
    snap = source if isinstance(source, Snapshot) else open_snapshot(os.fspath(source))
    names = list(fields) if fields is not None else snap.field_names
    ex = snap.edges("x")
    if snap.ndim == 3:
        ey, ez = snap.edges("y"), snap.edges("z")
        dims = (snap.x.size, snap.y.size, snap.z.size)
        bbox = np.array([[ex[0], ex[-1]], [ey[0], ey[-1]], [ez[0], ez[-1]]])
    elif snap.ndim == 2:
        ey = snap.edges("y")
        dims = (snap.x.size, snap.y.size, 1)
        bbox = np.array([[ex[0], ex[-1]], [ey[0], ey[-1]], [0.0, 1.0]])
    else:
        dims = (snap.x.size, 1, 1)
        bbox = np.array([[ex[0], ex[-1]], [0.0, 1.0], [0.0, 1.0]])
    data = {}
    for n in names:
        # cfdrun stores [nz][ny][nx] with x fastest; yt wants [x][y][z].
        v = np.asarray(snap.fields[n], dtype=np.float64)
        v = v.T.reshape(dims) if snap.ndim > 1 else v.reshape(dims)
        data[n] = (np.ascontiguousarray(v), _yt_units(snap.units.get(n, "")))
    length_unit = (1.0, "m") if snap.coordinate_units == "m" else 1.0
    time_unit = (1.0, "s") if snap.coordinate_units == "m" else None
    parameters = {"cfdrun_solver": snap.solver, "cfdrun_step": snap.step, "cfdrun_path": snap.path,
                  "cfdrun_units": dict(snap.units)}
    ds = yt.load_uniform_grid(data, dims, length_unit=length_unit, bbox=bbox, sim_time=snap.time,
                              time_unit=time_unit, periodicity=_periodicity(snap), parameters=parameters)
    return ds
