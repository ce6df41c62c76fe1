"""cfdrun snapshots in yt: a frontend, so that yt.load opens a snapshot and
yt.load("run.out/euler_*.h5") gives a DatasetSeries, with yt's field names
("gas", "density") beside cfdrun's ("stream", "rho") and the case's units.

yt is imported on first use: it takes seconds, and most users of the
package (cfdplot among them) never need it. The frontend is registered as
soon as both cfdrun and yt are imported, in either order.
"""
import glob
import importlib.abc
import importlib.util
import os
import sys

import numpy as np

from .snapshot import CfdrunError, Snapshot, open_snapshot

yt = None
_frontend = None

# cfdrun's field -> yt's name for the same quantity, per solver: the names
# yt's own derived fields (kinetic energy, Mach number, sound speed, ...)
# are built on. diffusion's u is not a velocity, so it keeps its name.
YT_NAMES = {
    "euler": {"rho": "density", "vx": "velocity_x", "vy": "velocity_y", "vz": "velocity_z", "p": "pressure"},
    "navier_stokes": {"rho": "density", "vx": "velocity_x", "vy": "velocity_y", "vz": "velocity_z",
                      "p": "pressure", "T": "temperature"},
    "sod": {"rho": "density", "u": "velocity_x", "p": "pressure", "T": "temperature"},
}
# yt's name -> its units where the case is posed dimensionless (code units).
CODE_UNITS = {"density": "code_mass/code_length**3", "velocity_x": "code_velocity", "velocity_y": "code_velocity",
              "velocity_z": "code_velocity", "pressure": "code_pressure", "temperature": "code_temperature"}
INSTALL_HINT = "cfdrun's yt support needs yt (Debian: apt-get install python3-yt; pip: pip install yt)"


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


def _require_yt():
    if not have_yt():
        raise ImportError(INSTALL_HINT)
    register_yt()


def physical(snap):
    """Whether the snapshot's numbers are in SI units (sod with sod.units:
    physical: grid in m, fields in kg/m^3, m/s, Pa, K); every other case is
    posed dimensionless, and yt then gets code units."""
    return snap.coordinate_units == "m"


def _field_units(snap, name, yt_name):
    """The units yt gets for one field: SI as the file says for physical
    runs; code units for the quantities yt knows; else dimensionless."""
    if physical(snap):
        units = snap.units.get(name, "")
        if not units or units == "1":
            return "dimensionless"
        candidate = units.replace("^", "**")
        try:
            yt.units.Unit(candidate)
            return candidate
        except Exception:
            return "dimensionless"
    return CODE_UNITS.get(yt_name, "dimensionless")


def _periodicity(snap):
    """Which directions wrap around: the boundary.* keys of euler and
    navier_stokes; diffusion's edges are fixed and sod's tube has ends.
    Directions the run lacks are periodic, which keeps yt from treating
    them as edges."""
    c = snap.config
    if snap.solver in ("euler", "navier_stokes"):
        def wraps(axis, present):
            return not present or (c.get(f"boundary.{axis}_lo") == "periodic"
                                    and c.get(f"boundary.{axis}_hi") == "periodic")
        return (wraps("x", True), wraps("y", snap.ndim >= 2), wraps("z", snap.ndim >= 3))
    return (False, True, True) if snap.ndim == 1 else (False, False, True)


def _gamma(snap):
    try:
        return float(snap.config.get("gas.gamma", "1.4"))
    except ValueError:
        return 1.4


def _stream_arguments(snap, fields):
    """load_uniform_grid's arguments for a snapshot: the data under both
    names, the box, the units, the periodicity."""
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
    aliases = YT_NAMES.get(snap.solver, {})
    data = {}
    for n in names:
        # cfdrun stores [nz][ny][nx] with x fastest; yt wants [x][y][z]. The
        # snapshot's copy of a field it did not hold before is let go: yt's
        # is the one kept (a field in memory once, not twice). A name the
        # file lacks is Fields' KeyError, with its list and suggestion.
        held = n in snap.fields._cache
        v = np.asarray(snap.fields[n], dtype=np.float64)
        v = np.ascontiguousarray(v.T.reshape(dims) if snap.ndim > 1 else v.reshape(dims))
        if not held:
            snap.fields._cache.pop(n, None)
        yt_name = aliases.get(n)
        # Both names hold the same array: ("stream", "rho") is the file's
        # name, ("stream", "density") the one yt aliases to ("gas", "density").
        data[n] = (v, _field_units(snap, n, yt_name))
        if yt_name:
            data[yt_name] = (v, _field_units(snap, n, yt_name))
    # The velocity components a run does not store (sod's y and z, a 2D
    # navier_stokes run's z) are zero: given as such (one shared array),
    # yt's vector fields (kinetic energy, speed, Mach number) work everywhere.
    if "velocity_x" in data:
        zero = None
        for c in ("velocity_y", "velocity_z"):
            if c not in data:
                zero = np.zeros(dims) if zero is None else zero
                data[c] = (zero, data["velocity_x"][1])
    if physical(snap):
        units = dict(length_unit=(1.0, "m"), mass_unit=(1.0, "kg"), time_unit=(1.0, "s"), unit_system="mks")
    else:
        units = dict(unit_system="code")
    parameters = {"cfdrun_solver": snap.solver, "cfdrun_step": snap.step, "cfdrun_path": snap.path,
                  "cfdrun_units": dict(snap.units), "cfdrun_coordinate_units": snap.coordinate_units}
    return dict(data=data, domain_dimensions=dims, bbox=bbox, sim_time=snap.time,
                periodicity=_periodicity(snap), parameters=parameters, **units)


def _snapshot_or_none(path):
    """The cfdrun snapshot at `path`, or None for anything else (a
    checkpoint, a mesh or other HDF5 file, a folder, a pipe): Snapshot's own
    checks decide what a snapshot is."""
    try:
        return open_snapshot(os.fspath(path))
    except (CfdrunError, OSError, TypeError, ValueError):
        return None


def is_snapshot(path):
    """Whether `path` is a cfdrun snapshot: what the frontend claims in yt.load."""
    return _snapshot_or_none(path) is not None


def register_yt():
    """Defines cfdrun's yt frontend (once; needs yt) and returns its class.
    After this yt.load(path) opens a cfdrun snapshot."""
    global _frontend
    if _frontend is not None:
        return _frontend
    if not have_yt():
        raise ImportError(INSTALL_HINT)
    from yt.frontends.stream.api import StreamDataset

    class CfdrunDataset(StreamDataset):
        """A cfdrun snapshot: yt's in-memory (stream) dataset, made from the
        file, so that it has every stream feature and yt.load finds it."""

        def __new__(cls, filename, *args, **kwargs):
            # No cache by file name (yt's default): a run may rewrite a file.
            return object.__new__(cls)

        def __init__(self, filename, fields=None, **kwargs):
            snap = filename if isinstance(filename, Snapshot) else open_snapshot(os.fspath(filename))
            self.cfdrun_snapshot = snap
            arguments = _stream_arguments(snap, fields)
            unit_system = arguments["unit_system"]
            # yt builds the stream handler (the data, the box, the units);
            # this dataset takes it over.
            # (Quietly: the dataset made there would log its parameters too.)
            from yt.utilities.logger import ytLogger
            level = ytLogger.level
            ytLogger.setLevel(max(level, 30))
            try:
                handler = yt.load_uniform_grid(**arguments).stream_handler
            finally:
                ytLogger.setLevel(level)
            handler.name = os.path.abspath(snap.path)  # ds.filename, ds.basename
            super().__init__(handler, geometry="cartesian", unit_system=unit_system)

        def _parse_parameter_file(self):
            super()._parse_parameter_file()
            # yt's sound speed and Mach number use ds.gamma (5/3 by default).
            self.gamma = _gamma(self.cfdrun_snapshot)

        @classmethod
        def _is_valid(cls, filename, *args, **kwargs):
            return is_snapshot(filename)

        def __str__(self):
            return self.basename

    _frontend = CfdrunDataset
    return _frontend


def yt_load(source, fields=None):
    """The snapshot `source` (a path or a Snapshot) as a yt dataset, the
    same as yt.load(path).

    The domain is the cells' extent: the cell faces of cell-centred solvers,
    and for node-centred diffusion one cell of one spacing around each
    point. 2D runs are one cell thick in z and 1D runs one cell in y and z,
    of thickness 1, so that sum(rho * cell_volume) is the total the history
    reports. ds.current_time is the snapshot's time. Units: sod with
    sod.units: physical is in SI (m, s, kg); every other case is posed
    dimensionless, so yt gets code units (code_length, code_time,
    code_mass, with code_velocity and code_pressure), which are 1. Each field
    is ("stream", name) as in the file, and under yt's name where yt has one
    (density, velocity_x/_y/_z, pressure, temperature), which makes ("gas",
    "density") and yt's derived fields (kinetic_energy_density, mach_number,
    vorticity_z, ...) work; ds.gamma is the case's. `fields` picks some
    (default: all). Raises ImportError without yt.
    """
    _require_yt()
    if not isinstance(source, Snapshot):
        source = open_snapshot(os.fspath(source))
    return _frontend(source, fields=fields)


def snapshot_paths(source):
    """The snapshot files of a run folder, its XDMF index or a glob pattern
    (checkpoints and other files it matches left out), in the order of
    their time."""
    from .series import open_series
    source = os.fspath(source)
    if any(c in source for c in "*?["):
        snaps = [s for s in map(_snapshot_or_none, glob.glob(source)) if s is not None]
        if not snaps:
            raise CfdrunError(f"{source}: no cfdrun snapshot matches")
        return [s.path for s in sorted(snaps, key=lambda s: (s.time, s.path))]
    return [s.path for s in open_series(source)]


def yt_series(source, fields=None):
    """A run (its folder, its XDMF index or a glob of snapshots) as a
    yt.DatasetSeries in time order: `for ds in yt_series("kh.out")`, or
    .piter() under MPI. Each dataset is loaded when reached."""
    _require_yt()
    paths = snapshot_paths(source)
    kwargs = {} if fields is None else {"fields": list(fields)}
    return yt.DatasetSeries(paths, **kwargs)


def slice_plot(source, field, axis="z", **kwargs):
    """yt.SlicePlot of a snapshot (a path, a Snapshot or a yt dataset) with
    the axes in the domain's own coordinates: origin="native", where yt's
    default centres them on the window (a [0, 4] domain would read -2 to 2).
    Other keywords go to yt.SlicePlot."""
    _require_yt()
    ds = source if isinstance(source, _frontend) else yt_load(source)
    kwargs.setdefault("origin", "native")
    if isinstance(field, str):
        field = ("stream", field) if field in ds.cfdrun_snapshot.fields else ("gas", field)
    plot = yt.SlicePlot(ds, axis, field, **kwargs)
    # yt's plot holds its dataset by a weak reference only; one loaded here
    # would otherwise be collected while the plot is still in use.
    plot.cfdrun_dataset = ds
    return plot


class _RegisterAfterYt(importlib.abc.MetaPathFinder):
    """Registers the frontend right after yt is first imported, so that the
    order of `import yt` and `import cfdrun` does not matter, at no cost
    until then: a finder that hands yt's import to the usual ones with a
    loader that registers once yt's module has run. It leaves the path when
    yt is imported, not when yt is merely looked up (importlib.util.find_spec,
    a check that yt is installed)."""

    def __init__(self):
        self._looking = False

    def find_spec(self, name, path=None, target=None):
        if name != "yt" or self._looking:
            return None
        self._looking = True  # the lookup below comes back here: pass it on
        try:
            spec = importlib.util.find_spec("yt")
        finally:
            self._looking = False
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _RegisteringLoader(spec.loader, self)
        return spec


class _RegisteringLoader:
    """yt's own loader, and the registration after its module has run."""

    def __init__(self, loader, finder):
        self._loader, self._finder = loader, finder

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)
        _register_quietly()

    def __getattr__(self, name):  # resources, file names, ...: yt's loader's
        return getattr(self._loader, name)


def _register_quietly():
    try:
        register_yt()
    except Exception:  # a broken yt counts as missing; yt_load says so
        pass


def _register_when_yt_is_imported():
    if "yt" in sys.modules:  # imported already: register now, at no cost
        _register_quietly()
    elif not any(isinstance(f, _RegisterAfterYt) for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterAfterYt())


_register_when_yt_is_imported()
