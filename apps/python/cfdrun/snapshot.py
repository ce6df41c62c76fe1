"""One cfdrun HDF5 snapshot (docs/output-format.md, "HDF5 snapshot")."""
import os
import stat
from collections.abc import Mapping

import numpy as np

try:
    import h5py
except ImportError as e:  # pragma: no cover - the message says what to install
    raise ImportError(f"cfdrun needs h5py ({e}); Debian: apt-get install python3-h5py") from e


# A solver's former name -> its name (physics/solvers.cpp, SolverEntry::former_name).
FORMER_SOLVER_NAMES = {"euler2d": "euler"}
# Keys of files written before they were renamed -> their names now, as cfdrun
# reads them (KeySpec::former): a section renamed with its solver, and keys
# renamed in their section; a former boolean that became a choice maps its
# values too.
FORMER_SECTIONS = {"euler2d": "euler"}
FORMER_KEYS = {"euler.fused_stage": ("euler.kernels", {"true": "fused", "false": "split"}),
               "sod.initial": ("sod.problem", None), "diffusion.initial": ("diffusion.problem", None),
               # the gas keys of every gas solver (cfdrun 0.2)
               "euler.gamma": ("gas.gamma", None), "sod.viscosity": ("viscosity.law", None),
               "gas.mu0": ("viscosity.mu", None), "gas.T0": ("viscosity.T0", None), "gas.S": ("viscosity.S", None)}


# Names users bring from yt, ParaView or papers -> cfdrun's field names.
FIELD_ALIASES = {"density": "rho", "pressure": "p", "velocity_x": "vx", "velocity_y": "vy", "velocity_z": "vz",
                 "temperature": "T", "ux": "vx", "uy": "vy", "uz": "vz", "u": "vx", "v": "vy", "w": "vz",
                 "vx": "u", "velocity": "u"}


def suggestion(name, names):
    """ "; did you mean 'rho'?" for a field name that is not among `names`
    (an alias such as density, or a near spelling), else ""."""
    import difflib
    alias = FIELD_ALIASES.get(name) or FIELD_ALIASES.get(str(name).lower())
    if alias in names:
        return f"; did you mean '{alias}'?"
    close = difflib.get_close_matches(str(name), list(names), n=1, cutoff=0.6) or \
        [n for n in names if n.lower() == str(name).lower()]
    return f"; did you mean '{close[0]}'?" if close else ""


class CfdrunError(Exception):
    """A file that is missing, unreadable, or not cfdrun output; the message
    is one line that starts with the file's path."""


def text(value):
    """An HDF5 string attribute as str (cfdrun writes UTF-8; older h5py may hand bytes)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def plain(value):
    """An attribute as a plain Python value: str, int, float, or a list."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()] if value.dtype.kind in "SO" else value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def parse_configuration(configuration):
    """The resolved case file of a snapshot's `configuration` attribute as
    {"section.key": "value"}. The file is the flat two-level YAML cfdrun
    writes (docs/user-guide.md), so no YAML library is needed; values stay
    text (quotes removed) since their type depends on the key."""
    keys, section = {}, ""
    for line in configuration.splitlines():
        if not line.strip() or line.lstrip().startswith("#") or ":" not in line:
            continue
        key, value = (v.strip() for v in line.split(":", 1))
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if not line[0].isspace():
            section = key if not value else ""
            if value:
                keys[key] = value
        elif section:
            keys[f"{section}.{key}"] = value
    return present_names(keys)


def present_names(keys):
    """A configuration's keys under their present names (FORMER_*), so that
    files written before a rename compare equal to those written after."""
    out = {}
    for key, value in keys.items():
        if key == "solver":
            value = FORMER_SOLVER_NAMES.get(value, value)
        section, _, name = key.partition(".")
        if name and section in FORMER_SECTIONS:
            key = f"{FORMER_SECTIONS[section]}.{name}"
        if key in FORMER_KEYS:
            key, values = FORMER_KEYS[key]
            value = values.get(value, value) if values else value
        out[key] = value
    return out


def open_hdf5(path):
    """h5py.File(path) for reading, or a CfdrunError saying why not."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise CfdrunError(f"{path}: no such file")
    if os.path.isdir(path):
        raise CfdrunError(f"{path}: a folder, not a snapshot file")
    if not stat.S_ISREG(os.stat(path).st_mode):  # a named pipe would wait for a writer
        raise CfdrunError(f"{path}: not a regular file (a named pipe or a device), not a snapshot file")
    try:
        return h5py.File(path, "r")
    except OSError as e:
        # h5py's message is several sentences; its first line says enough.
        reason = " ".join(str(e).split()) or type(e).__name__
        if os.path.getsize(path) == 0:
            reason = "an empty file"
        raise CfdrunError(f"{path}: cannot read it as HDF5 ({reason})") from None


class Fields(Mapping):
    """The fields of one snapshot: name -> numpy array ([ny][nx] in 2D,
    x fastest, as stored; [nx] in 1D), read from the file when first asked
    for and kept, so that opening a large snapshot costs nothing."""

    def __init__(self, path, names):
        self._path, self._names, self._cache = path, list(names), {}

    def __getitem__(self, name):
        if name not in self._names:
            raise KeyError(f"{self._path}: no field '{name}' (fields: {', '.join(self._names)})"
                           f"{suggestion(name, self._names)}")
        if name not in self._cache:
            try:
                with h5py.File(self._path, "r") as h:
                    self._cache[name] = h["fields/" + name][...]
            except (OSError, KeyError) as e:  # a file damaged after its header, or gone
                raise CfdrunError(f"{self._path}: cannot read field '{name}' ({' '.join(str(e).split())})") from None
        return self._cache[name]

    def __contains__(self, name):  # a look at the names, not a read of the data (Mapping's would read it)
        return name in self._names

    def __iter__(self):
        return iter(self._names)

    def __len__(self):
        return len(self._names)

    def __repr__(self):
        return f"Fields({', '.join(self._names)})"


class Snapshot:
    """A cfdrun snapshot. Attributes:

    path, solver, step, time       what the file says about itself
    attrs                          every root attribute as plain Python values
    configuration, config          the resolved case file: its text, and {"section.key": "value"}
    centering, ndim, shape         "node" or "cell"; 1, 2 or 3; the fields' shape ((nz, ny, nx), (ny, nx)
                                   or (nx,): x fastest)
    fields                         {name: numpy array}, read on first use
    units, descriptions            {name: str} of the fields
    x, y, z                        coordinates of the points or cell centres (None where the run has no
                                   such axis)
    x_faces, y_faces, z_faces      cell faces (cell-centred solvers), else None
    coordinate_units               the grid's units ("1", "m", "Lx", "dx", ...)
    output_format                  the snapshot format version (1: files without the attribute)
    """

    def __init__(self, path):
        self.path = os.fspath(path)
        with open_hdf5(self.path) as h:
            if text(h.attrs.get("kind", "")) == "cfdrun checkpoint":
                raise CfdrunError(f"{self.path}: a cfdrun checkpoint, not a snapshot (its state is in /state; "
                                  "cfdinfo describes it)")
            if "fields" not in h or "solver" not in h.attrs or "grid/x" not in h:
                raise CfdrunError(f"{self.path}: not a cfdrun snapshot (no /fields, /grid/x or solver attribute)")
            try:
                self.attrs = {k: plain(v) for k, v in h.attrs.items()}
                names = sorted(h["fields"].keys())
                self.units = {n: text(h["fields/" + n].attrs.get("units", "")) for n in names}
                self.descriptions = {n: text(h["fields/" + n].attrs.get("description", n)) for n in names}
                self.shape = h["fields/" + names[0]].shape if names else ()
                grid = {k: h["grid/" + k][...] for k in ("x", "y", "z", "x_faces", "y_faces", "z_faces")
                        if "grid/" + k in h}
                self.coordinate_units = text(h["grid/x"].attrs.get("units", ""))
                self.coordinate_descriptions = {k: text(h["grid/" + k].attrs.get("description", k))
                                                for k in ("x", "y", "z") if k in grid}
            except (OSError, KeyError, ValueError) as e:
                raise CfdrunError(f"{self.path}: a damaged snapshot ({' '.join(str(e).split())})") from None
        # The euler solver was called euler2d: files written then (and runs
        # continued from them, which keep their folder's names) say so.
        self.solver = FORMER_SOLVER_NAMES.get(text(self.attrs["solver"]), text(self.attrs["solver"]))
        self.step = int(self.attrs.get("step", -1))
        self.time = float(self.attrs.get("time", np.nan))
        # Files written before the attribute existed are format 1
        # (docs/output-format.md, "Format versions").
        self.output_format = int(self.attrs.get("output_format", 1))
        self.configuration = text(self.attrs.get("configuration", ""))
        self.config = parse_configuration(self.configuration)
        self.centering = text(self.attrs.get("centering", "cell" if "x_faces" in grid else "node"))
        self.x, self.y, self.z = grid["x"], grid.get("y"), grid.get("z")
        self.x_faces, self.y_faces, self.z_faces = grid.get("x_faces"), grid.get("y_faces"), grid.get("z_faces")
        self.ndim = 3 if self.z is not None else 2 if self.y is not None else 1
        self.fields = Fields(self.path, names)

    def __getitem__(self, name):
        return self.fields[name]

    def __contains__(self, name):
        return name in self.fields

    def __repr__(self):
        dims = " x ".join(str(n) for n in reversed(self.shape))
        return (f"<cfdrun.Snapshot {self.path}: {self.solver}, step {self.step}, t = {self.time:.6g}, "
                f"{dims} {self.centering}s, fields {', '.join(self.fields)}>")

    @property
    def field_names(self):
        return list(self.fields)

    def load(self):
        """Reads every field now (a later change to the file is then not seen); returns self."""
        for name in self.fields:
            self.fields[name]
        return self

    def edges(self, axis="x"):
        """The cell edges along an axis: the faces of cell-centred data; for
        node-centred data (diffusion) the midpoints between the points, the
        outer ones half a spacing out, so every point owns a cell."""
        if axis not in ("x", "y", "z"):
            raise ValueError(f"{self.path}: no axis {axis!r} (x, y or z)")
        faces = getattr(self, axis + "_faces")
        if faces is not None:
            return faces
        c = getattr(self, axis)
        if c is None:
            raise ValueError(f"{self.path}: a {self.ndim}D snapshot has no {axis} axis")
        if c.size == 1:
            return np.array([c[0] - 0.5, c[0] + 0.5])
        mid = 0.5 * (c[1:] + c[:-1])
        return np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])

    def cell_volumes(self):
        """The volume (3D), area (2D) or length (1D) each value stands for,
        in the grid's units, shaped as the fields: sum(field *
        cell_volumes()) is the total that euler's history reports as e.g.
        `mass`."""
        dx = np.diff(self.edges("x"))
        if self.ndim == 1:
            return dx
        area = np.outer(np.diff(self.edges("y")), dx)
        if self.ndim == 2:
            return area
        return np.diff(self.edges("z"))[:, None, None] * area[None, :, :]

    def plane(self, name, axis="z", at=None):
        """A cut of a 3D field normal to `axis` ("x", "y" or "z"): the plane
        of cells (points) whose coordinate is nearest to `at` (default: the
        middle one). Returns (values, (row axis, row coordinates),
        (column axis, column coordinates), coordinate of the plane):
        values[row, column], rows y and columns x for a z plane, z and x for
        y, z and y for x."""
        if self.ndim != 3:
            raise ValueError(f"{self.path}: a {self.ndim}D snapshot has no planes (plane() is for 3D)")
        if axis not in ("x", "y", "z"):
            raise ValueError(f"{self.path}: no axis {axis!r} (x, y or z)")
        c = getattr(self, axis)
        if at is not None:
            # A plane of the grid only: a value outside the grid's faces (or
            # not a number) would otherwise pick its first or last plane.
            edges = self.edges(axis)
            lo, hi = float(np.min(edges)), float(np.max(edges))
            if not np.isfinite(at) or not lo <= at <= hi:
                raise ValueError(f"{self.path}: {axis} = {at!r} is outside the grid ({axis} from {lo:.6g} to {hi:.6g})")
        k = len(c) // 2 if at is None else int(np.argmin(np.abs(c - at)))
        v = self.fields[name]  # [z][y][x]
        if axis == "z":
            return v[k, :, :], ("y", self.y), ("x", self.x), float(c[k])
        if axis == "y":
            return v[:, k, :], ("z", self.z), ("x", self.x), float(c[k])
        return v[:, :, k], ("z", self.z), ("y", self.y), float(c[k])

    def to_xarray(self):
        """The snapshot as an xarray.Dataset: each field a variable on
        (z, y, x), (y, x) or (x), the coordinates with their units, the root attributes
        (time, step, solver, ...) as the dataset's attrs. Needs xarray."""
        try:
            import xarray as xr
        except ImportError as e:
            raise ImportError(f"to_xarray needs xarray ({e}); Debian: apt-get install python3-xarray") from e
        dims = ("z", "y", "x")[3 - self.ndim:]
        coords = {a: (a, getattr(self, a), {"units": self.coordinate_units,
                                            "description": self.coordinate_descriptions.get(a, a)})
                  for a in dims}
        variables = {n: (dims, self.fields[n], {"units": self.units[n], "description": self.descriptions[n]})
                     for n in self.fields}
        # netCDF takes numbers and strings as attributes, not lists.
        attrs = {k: v for k, v in self.attrs.items() if isinstance(v, (str, int, float))}
        return xr.Dataset(variables, coords=coords, attrs=attrs)


def open_snapshot(path):
    """The cfdrun snapshot in the HDF5 file `path` (a Snapshot); raises
    CfdrunError with a one-line reason for a file that is missing, not HDF5,
    damaged, or not a cfdrun snapshot."""
    return Snapshot(path)
