#!/usr/bin/python3
"""cfdplot: plot cfdrun snapshots (HDF5) to PNG pictures or one MP4 movie.

usage: cfdplot SNAPSHOT.h5|SERIES.xdmf [...] [-f FIELD] [--log] [--zoom N] [--slice z=0.5] [-o OUT.png]
       cfdplot SNAPSHOT.h5 [...]|SERIES.xdmf --movie OUT.mp4 [-f FIELD] [--log] [--zoom N] [--fps N]
       cfdplot --history RUN.hst [--columns A,B] [--log] [--one-panel] [--reference REF.txt [--reference-label L]]
               [-o OUT.png]
       cfdplot PROFILES.csv [PROFILES.csv ...] [--labels A,B] [--title T] -o OUT.png

One picture per snapshot. 2D runs are drawn as an image of one field (rho for
euler, u for diffusion, or -f) with a colour bar labelled with its units;
1D runs (and 2D ones one cell across, euler's grid.ny: 1 or grid.nx: 1) as
one labelled panel per field; 3D runs as the image of one plane,
normal to z at the grid's middle unless --slice AXIS=VALUE picks another
(the plane of cells nearest to VALUE; the title says which). An .xdmf index (cfdrun writes one
per series) stands for its snapshots. With --movie the snapshots of one
series become the frames of one MP4, in time order, drawn as the pictures
are, with one colour range (2D) or y range per panel (1D) over all frames;
it needs ffmpeg (Debian: apt-get install ffmpeg). CSV files from
`cfdcompare --exact SNAPSHOT --csv FILE` are drawn as density, velocity and
pressure against the exact solution. A snapshot picture's title carries the
solver, step and time stored in the file. With --log, 2D colours span the
positive values (down to 1e-16 of the maximum) and values at or below zero
are drawn in a separate colour named under the picture. Bad input files and output names
are one-line errors with exit status 2. Needs h5py and matplotlib (Debian:
python3-h5py python3-matplotlib); reads the files with the cfdrun Python
package (apps/python/cfdrun, installed beside cfdplot).

--history draws columns of a run's history file (<solver>.hst) against
time into RUN.png beside it (or -o), one panel each, or all in one panel
with --one-panel; without --columns every column after step, time and dt
(a navier_stokes history has 15: name the ones you want). --log makes the
y axes logarithmic. --reference FILE overlays a published curve, a text
file of "time value" or "time,value" lines (# comments skipped), as a
black dashed line labelled with the file's name or --reference-label;
repeat both for more curves. The Taylor-Green dissipation rate against a
reference:
  cfdplot --history tg.out/navier_stokes.hst --columns dissipation_rate,viscous_dissipation \\
          --one-panel --reference brachet_eps.txt --reference-label "Brachet et al."
An unknown column, a history or reference file that is missing, empty or
has a line that is not numbers is an error naming the file (and line).
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import time
import traceback
import warnings


def die(message):
    """A clean error with exit status 2, never a traceback."""
    print(f"cfdplot: error: {' '.join(str(message).split())}", file=sys.stderr)
    sys.exit(2)


def find_package():
    """Puts the cfdrun package on sys.path: apps/python in the source tree,
    <prefix>/share/cfdrun/python where cfdplot is installed as
    <prefix>/bin/cfdplot. First, so that apps/cfdrun (the C++ program's
    folder) is not taken for it."""
    here = os.path.dirname(os.path.realpath(__file__))
    for folder in (os.path.join(here, "python"), os.path.join(here, "..", "share", "cfdrun", "python")):
        if os.path.isfile(os.path.join(folder, "cfdrun", "__init__.py")):
            sys.path.insert(0, os.path.normpath(folder))
            return


try:
    import h5py  # noqa: F401 (the package needs it; imported here to say so)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
except ImportError as e:  # pragma: no cover
    die(f"{e}; install python3-h5py, python3-matplotlib and python3-numpy")
find_package()
try:
    import cfdrun
    from cfdrun import CfdrunError
    from cfdrun.text_file import read_text
except ImportError as e:
    die(f"cannot import the cfdrun Python package ({e}): it lives in apps/python/cfdrun in the sources and in "
        "<prefix>/share/cfdrun/python when installed; put its folder on PYTHONPATH")

text = cfdrun.snapshot.text


def plot_profiles(a):
    labels = a.labels.split(",") if a.labels else a.snapshot
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for k, (path, label) in enumerate(zip(a.snapshot, labels)):
        try:
            d = np.genfromtxt(path, delimiter=",", names=True)
            d["x"], d["rho_exact"]  # the columns cfdcompare writes, or a ValueError
        except (OSError, ValueError) as e:
            die(f"{path}: not a profile CSV of cfdcompare --exact ({e})")
        for ax, name in zip(axes, ["rho", "u", "p"]):
            if k == 0:
                ax.plot(d["x"], d[name + "_exact"], "k-", lw=1, label="exact")
            ax.plot(d["x"], d[name], ".", ms=2.5, label=label)
            ax.set_xlabel("x / Lx")
            ax.set_title({"rho": "density", "u": "velocity", "p": "pressure"}[name])
    axes[0].legend()
    if a.xlim:
        lo, hi = (float(v) for v in a.xlim.split(","))
        for ax in axes:
            ax.set_xlim(lo, hi)
    if a.title:
        fig.suptitle(a.title)
    fig.tight_layout()
    out = a.output or a.snapshot[0].rsplit(".", 1)[0] + ".png"
    save(fig, out, dpi=100)
    print(f"wrote {out}")


# The field a picture shows unless -f says otherwise.
DEFAULT_FIELD = {"euler": "rho", "sod": "rho", "diffusion": "u"}
# 1D panels in this order, then the other fields.
FIELDS_1D = ("rho", "u", "p", "T")


def label_of(snap, name):
    units = snap.units.get(name, "")
    return f"{name}: {snap.descriptions.get(name, name)}" + (f" [{units}]" if units and units != "1" else "")


def axis_label(snap, axis):
    """The coordinate an axis shows, as the file describes it: "x coordinate of the cell centres [Lx]"."""
    units = snap.coordinate_units
    description = snap.coordinate_descriptions.get(axis, axis)
    return description + (f" [{units}]" if units and units != "1" else "")


def snapshots_of_xdmf(path):
    """The snapshot files an XDMF index names, in time order (each once)."""
    try:
        return [f for _, _, f in cfdrun.read_xdmf(path)]
    except CfdrunError as e:
        die(e)


def expand(paths):
    """Snapshot files: the given .h5 files, and the snapshots of each .xdmf."""
    out = []
    for p in paths:
        out += snapshots_of_xdmf(p) if p.lower().endswith(".xdmf") else [p]
    return out


def open_snapshot(path):
    """A cfdrun snapshot (cfdrun.Snapshot), or a clean error."""
    try:
        return cfdrun.open_snapshot(path)
    except CfdrunError as e:
        die(e)


def active_box(data):
    """Where a 2D field differs from its background (its median) by more
    than 1e-3 of its range, when that is under 2% of the grid (a point
    source, the diffusion seed's spike): the slices of that box with a
    margin, square where the grid allows, or None (draw everything)."""
    finite = np.isfinite(data)
    if not finite.any():
        return None
    lo, hi = np.nanmin(np.where(finite, data, np.nan)), np.nanmax(np.where(finite, data, np.nan))
    if not hi > lo:
        return None
    mask = finite & (np.abs(data - np.median(data[finite])) > 1e-3 * (hi - lo))
    if not mask.any() or mask.sum() > 0.02 * data.size:
        return None
    rows, cols = np.nonzero(mask.any(axis=1))[0], np.nonzero(mask.any(axis=0))[0]
    half = max(rows[-1] - rows[0], cols[-1] - cols[0]) // 2 + 1
    half = max(8, int(half * 1.5))
    cj, ci = (rows[0] + rows[-1]) // 2, (cols[0] + cols[-1]) // 2
    sj = slice(max(cj - half, 0), min(cj + half + 1, data.shape[0]))
    si = slice(max(ci - half, 0), min(ci + half + 1, data.shape[1]))
    if sj.stop - sj.start >= 0.8 * data.shape[0] and si.stop - si.start >= 0.8 * data.shape[1]:
        return None
    return sj, si


def frame_of(snap, path, a):
    """What the picture of one snapshot shows: its title and, in 2D, one
    field (x, y, data, zoomed) or, in 1D, its panels (x, {name: values})."""
    fields = snap.field_names
    solver, step, time = snap.solver, snap.step, snap.time
    if a.field and a.field not in fields:
        die(f"{path}: no field '{a.field}' (fields: {', '.join(fields)}){cfdrun.snapshot.suggestion(a.field, fields)}")
    fr = {"solver": solver, "step": step, "time": time, "title": f"{solver}, step {step}, t = {time:.6g}"}
    x = snap.x
    if a.slice and snap.ndim != 3:
        die(f"{path}: --slice is for 3D snapshots, this one is {snap.ndim}D")
    # A 2D snapshot one cell across (euler's grid.ny: 1 or grid.nx: 1) is a 1D case: drawn as lines.
    across = snap.ndim == 2 and 1 in snap.shape
    if snap.ndim >= 2 and not across:
        name = a.field or DEFAULT_FIELD.get(solver, fields[0])
        xaxis, yaxis = "x", "y"
        if snap.ndim == 3:
            axis, at = a.slice if a.slice else ("z", None)
            try:
                data, (yaxis, y), (xaxis, x), where = snap.plane(name, axis, at)
            except ValueError as e:
                die(str(e))
            data = data.astype(float)
            fr["title"] += f", plane {axis} = {where:.6g}"
        else:
            data = snap[name].astype(float)
            y = snap.y
        if a.zoom is not None and a.zoom > 0:
            j, i = np.unravel_index(np.argmax(data), data.shape)
            sj = slice(max(j - a.zoom, 0), j + a.zoom + 1)
            si = slice(max(i - a.zoom, 0), i + a.zoom + 1)
            data, x, y = data[sj, si], x[si], y[sj]
        elif a.zoom is None and not a.movie:
            box = active_box(data)
            if box:
                sj, si = box
                data, x, y = data[sj, si], x[si], y[sj]
                fr["title"] += f"\nthe {si.stop - si.start} x {sj.stop - sj.start} points where it varies " \
                               f"(--zoom 0: all)"
        fr.update(ndim=2, name=name, x=x, y=y, data=data, label=label_of(snap, name),
                  xlabel=axis_label(snap, xaxis), ylabel=axis_label(snap, yaxis))
    else:
        # 1D: one labelled panel per field, on a shared axis (x, or y for a tube along y).
        along = "y" if across and snap.shape[1] == 1 else "x"
        if along == "y":
            x = snap.y

        def line(n):
            return np.asarray(snap[n]).reshape(-1) if across else snap[n]
        names = [a.field] if a.field else [n for n in FIELDS_1D if n in fields] + \
            [n for n in fields if n not in FIELDS_1D]
        lo, hi = 0, len(x)
        if a.zoom:  # around the steepest gradient of the first field (a shock, a contact)
            k = int(np.argmax(np.abs(np.diff(line(names[0])))))
            lo, hi = max(k - a.zoom, 0), min(k + a.zoom + 2, len(x))
        fr.update(ndim=1, names=names, x=x[lo:hi], values={n: line(n)[lo:hi] for n in names},
                  labels={n: label_of(snap, n) for n in names}, xlabel=axis_label(snap, along))
    return fr


# --log draws values at or below zero (and below the scale's floor) in this
# colour, which inferno does not contain, and says so under the picture.
UNDER_COLOUR, UNDER_NAME = "#2b83e0", "blue"
CMAP = matplotlib.colormaps["inferno"].with_extremes(under=UNDER_COLOUR)


def log_norm(lo_positive, hi):
    """The logarithmic colour scale of the pictures: the positive values'
    own range (KH's rho 0.99 to 2.06 stays 0.99 to 2.06, never widened to a
    decade), its bottom no lower than 1e-16 of the maximum so that a few
    tiny values do not squash the rest. Nothing positive, or one value:
    a decade around it, since there is no range to show."""
    if not (np.isfinite(lo_positive) and hi > 0):
        return matplotlib.colors.LogNorm(vmin=0.1, vmax=1.0)
    vmin = max(lo_positive, hi * 1e-16)
    if hi <= vmin:
        return matplotlib.colors.LogNorm(vmin=hi / np.sqrt(10), vmax=hi * np.sqrt(10))
    return matplotlib.colors.LogNorm(vmin=vmin, vmax=hi)


def colour_bar(fig, mappable, ax, label, extend):
    """The colour bar, as long as the picture's side: beside it, or under
    it for a picture much wider than tall (new_figure). On a log scale of
    under two decades its ticks read 1.2, 1.4, ... rather than 1.2 x 10^0."""
    from mpl_toolkits.axes_grid1 import make_axes_locatable
    horizontal = getattr(fig, "cfdplot_bar", "vertical") == "horizontal"
    # Sizes in inches: a fraction of a very narrow picture would be a hair.
    divider = make_axes_locatable(ax)
    cax = divider.append_axes("bottom", size=0.18, pad=0.65) if horizontal else \
        divider.append_axes("right", size=0.2, pad=0.15)
    bar = fig.colorbar(mappable, cax=cax, label=label, extend=extend,
                       orientation="horizontal" if horizontal else "vertical")
    norm = mappable.norm
    if isinstance(norm, matplotlib.colors.LogNorm) and norm.vmax < 100 * norm.vmin:
        plain = matplotlib.ticker.FormatStrFormatter("%.3g")
        axis = bar.ax.xaxis if horizontal else bar.ax.yaxis
        axis.set_major_formatter(plain)
        axis.set_minor_formatter(plain)
    return bar


def below_scale(data, norm):
    """How many finite values a log scale cannot colour: (at or below zero, positive below its floor)."""
    finite = data[np.isfinite(data)]
    return int(np.count_nonzero(finite <= 0)), int(np.count_nonzero((finite > 0) & (finite < norm.vmin)))


def under_note(name, zero, tiny, norm):
    parts = []
    if zero:
        parts.append(f"{zero} points with {name} <= 0")
    if tiny:
        parts.append(f"{tiny} below {norm.vmin:.3g}")
    return f"{UNDER_NAME}: {' and '.join(parts)} (not on the log scale)" if parts else ""


def extent(c):
    """The length a row of cell centres (points) covers, one spacing included."""
    return float(c[-1] - c[0]) + (float(c[1] - c[0]) if len(c) > 1 else 1.0)


def new_figure(fr):
    if fr["ndim"] == 2:
        # The figure takes the picture's shape: a long domain (8 x 1, or 1 x
        # 16) fills the width (height) instead of a thin strip in a square.
        # The image fits in 7.5 x 6 inches, no side under 0.8; the colour bar
        # goes under pictures over 2.5 times wider than tall, else beside.
        aspect = extent(fr["x"]) / extent(fr["y"])
        if aspect >= 7.5 / 6:
            width, height = 7.5, max(7.5 / aspect, 0.8)
        else:
            width, height = max(6 * aspect, 0.8), 6.0
        horizontal = aspect > 2.5
        size = (width + 1.5, height + 2.4) if horizontal else (width + 2.8, height + 1.5)
        # An even number of pixels at a movie's 100 dpi: H.264 needs it.
        fig, ax = plt.subplots(figsize=tuple(round(v * 50) / 50 for v in size))
        fig.cfdplot_bar = "horizontal" if horizontal else "vertical"
        return fig, [ax]
    n = len(fr["names"])
    fig, axes = plt.subplots(n, 1, figsize=(7, 2.2 * n + 0.6), sharex=True, squeeze=False)
    return fig, list(axes[:, 0])


def draw(axes, fr, a, norm=None, ylims=None):
    """One snapshot into the figure's axes; norm (2D) and ylims (1D) fix the ranges."""
    if fr["ndim"] == 2:
        ax, data = axes[0], fr["data"]
        if a.log:
            # LogNorm would mask values <= 0 as "bad" (drawn white, like no
            # data); below the scale's bottom they take the under colour.
            data = np.where(np.isfinite(data) & (data <= 0), norm.vmin / 10, data)
        im = ax.pcolormesh(fr["x"], fr["y"], data, shading="nearest", norm=norm, cmap=CMAP)
        ax.set_aspect("equal")
        ax.set_xlabel(fr["xlabel"])
        ax.set_ylabel(fr["ylabel"])
        ax.set_title(fr["title"])
        return im
    for ax, name in zip(axes, fr["names"]):
        v = fr["values"][name]
        ax.plot(fr["x"], v, ".-", ms=2, lw=0.8)
        if a.log:
            with warnings.catch_warnings():  # a panel with nothing positive (u = 0 at t = 0) stays empty
                warnings.simplefilter("ignore", UserWarning)
                ax.set_yscale("log")
            # Points a log axis cannot show are marked along its bottom edge.
            off = np.isfinite(v) & (v <= 0)
            if off.any():
                ax.plot(fr["x"][off], np.zeros(off.sum()), "v", color=UNDER_COLOUR, ms=3, clip_on=False,
                        transform=ax.get_xaxis_transform(), label=f"{name} <= 0 ({off.sum()} points)")
                ax.legend(loc="upper right", fontsize=7)
        if ylims and name in ylims:
            ax.set_ylim(*ylims[name])
        ax.set_ylabel(fr["labels"][name], fontsize=8)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel(fr["xlabel"])
    axes[0].set_title(fr["title"])
    return None


def save(fig, out, dpi=110):
    """fig into out, or a clean error (a folder that went away, a full disk)."""
    try:
        fig.savefig(out, dpi=dpi)
    except (OSError, ValueError) as e:
        die(f"{out}: cannot write the picture ({getattr(e, 'strerror', None) or e})")
    finally:
        plt.close(fig)


def plot_snapshot(path, a, out):
    fr = frame_of(open_snapshot(path), path, a)
    fig, axes = new_figure(fr)
    norm, note, said = None, "", ""
    if fr["ndim"] == 2:
        finite = fr["data"][np.isfinite(fr["data"])]
        if a.log:
            positive = finite[finite > 0]
            norm = log_norm(positive.min() if positive.size else np.inf, positive.max() if positive.size else 0.0)
            note = under_note(fr["name"], *below_scale(fr["data"], norm), norm)
    im = draw(axes, fr, a, norm=norm)
    if im is not None:
        norm = im.norm
        colour_bar(fig, im, axes[0], fr["label"], "min" if note else "neither")
        said = f" ({fr['name']} coloured from {norm.vmin:.6g} to {norm.vmax:.6g}{', log scale' if a.log else ''}" + \
            (f"; {note}" if note else "") + ")"
        if note:
            fig.text(0.01, 0.01, note, fontsize=8, color=UNDER_COLOUR)
    fig.tight_layout()
    save(fig, out)
    print(f"wrote {out}{said}")


def read_reference(path):
    """A reference curve to overlay on a history: (time, value) as two
    float arrays, from a text file of two numbers a line, separated by
    commas or white space; empty lines and lines that start with # are
    skipped. Raises CfdrunError naming the file (and the line) otherwise."""
    path = os.fspath(path)
    content = read_text(path, "a reference file of time, value lines")
    t, v = [], []
    for n, line in enumerate(content.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p for p in re.split(r"[\s,]+", line) if p]
        try:
            if len(parts) != 2:
                raise ValueError
            time, value = float(parts[0]), float(parts[1])
            if not (np.isfinite(time) and np.isfinite(value)):
                raise ValueError
        except ValueError:
            raise CfdrunError(f"{path}:{n}: not a line of two numbers, time and value, separated by a comma or "
                              f"spaces ({line[:60]!r}; comment lines start with #)") from None
        t.append(time)
        v.append(value)
    if not t:
        what = "an empty file" if not content.strip() else "only comments"
        raise CfdrunError(f"{path}: no time, value lines ({what})")
    return np.array(t), np.array(v)


# Reference curves are black, dashed; a second, third... one dotted, dash-dotted, ...
REFERENCE_STYLES = ("--", ":", "-.", (0, (6, 2, 1, 2, 1, 2)))


def history_columns(h, path, columns):
    """The columns of history h (read from path) to draw: those of --columns
    (comma-separated), or every one after step, time and dt."""
    names = h.dtype.names
    chosen = [c.strip() for c in columns.split(",") if c.strip()] if columns else \
        [n for n in names if n not in ("step", "time", "dt")]
    unknown = [c for c in chosen if c not in names]
    if unknown:
        die(f"{path}: no column '{unknown[0]}' (columns: {', '.join(names)})")
    if not chosen:
        die(f"{path}: no columns to draw besides step, time and dt; name some with --columns")
    return list(dict.fromkeys(chosen))


def history_figure(h, columns, title, log=False, one_panel=False, references=()):
    """The figure of columns of history h against time: one panel per column,
    or with one_panel every column in one panel with a legend; references,
    (label, time, value) each, are drawn over the (one) panel as black dashed
    lines. Returns (figure, axes)."""
    panels = 1 if one_panel else len(columns)
    fig, axes = plt.subplots(panels, 1, figsize=(7, (4.2 if one_panel else 2.0 * panels) + 0.8), sharex=True,
                             squeeze=False)
    axes = list(axes[:, 0])
    for k, c in enumerate(columns):
        ax = axes[0 if one_panel else k]
        ax.plot(h["time"], h[c], ".-", ms=3, lw=0.8, label=c)
    for k, (label, t, v) in enumerate(references):
        axes[0].plot(t, v, color="k", ls=REFERENCE_STYLES[k % len(REFERENCE_STYLES)], lw=1.2, label=label)
    for k, ax in enumerate(axes):
        if log:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                ax.set_yscale("log")
        if not one_panel or len(columns) == 1:
            ax.set_ylabel(columns[k], fontsize=9)
        ax.grid(alpha=0.3)
    if one_panel or references:
        axes[0].legend(fontsize=8)
    axes[-1].set_xlabel("time")
    axes[0].set_title(title if len(title) < 90 else title[:87] + "...", fontsize=9)
    fig.tight_layout()
    return fig, axes


def plot_history(a):
    """The columns of a history file against time, one panel each or one panel
    for all, with reference curves over it."""
    try:
        h = cfdrun.read_history(a.history)
        comments = cfdrun.read_history_comments(a.history)
    except CfdrunError as e:
        die(e)
    columns = history_columns(h, a.history, a.columns)
    if h.size == 0:
        die(f"{a.history}: a history without rows (the run has not written its first one)")
    references = a.reference or []
    labels = a.reference_label or []
    if len(labels) > len(references):
        die(f"{len(labels)} --reference-label for {len(references)} --reference: one label per reference file, "
            "in the same order")
    if references and len(columns) > 1 and not a.one_panel:
        die(f"--reference overlays one panel, and {len(columns)} columns make {len(columns)}: "
            "give one column with --columns, or add --one-panel to draw them all in one")
    curves = []
    for k, path in enumerate(references):
        try:
            t, v = read_reference(path)
        except CfdrunError as e:
            die(e)
        curves.append((labels[k] if k < len(labels) else os.path.basename(path), t, v))
    title = os.path.basename(a.history) + (f": {comments[0]}" if comments else "")
    fig, _ = history_figure(h, columns, title, log=a.log, one_panel=a.one_panel, references=curves)
    out = a.output or os.path.splitext(a.history)[0] + ".png"
    save(fig, out)
    against = "".join(f", against {label} ({t.size} points)" for label, t, _ in curves)
    print(f"wrote {out}: {', '.join(columns)} of {h.size} rows, t = {h['time'][0]:.6g} to {h['time'][-1]:.6g}"
          f"{against}")


def check_picture_name(out):
    """-o names a picture file matplotlib can write, in a folder that exists."""
    if not out or not out.strip():
        die("-o needs a file name, e.g. -o picture.png")
    if out.endswith(os.sep) or os.path.isdir(out):
        die(f"-o {out}: a folder; give a file name, e.g. {os.path.join(out, 'picture.png')}")
    ext = os.path.splitext(out)[1][1:].lower()
    supported = sorted(matplotlib.figure.Figure().canvas.get_supported_filetypes())
    if not ext:
        die(f"-o {out}: give the picture's format as its ending, e.g. {out}.png")
    if ext not in supported:
        die(f"-o {out}: matplotlib cannot write .{ext} pictures (endings: {', '.join(supported)})")
    folder = os.path.dirname(out) or "."
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        die(f"-o {out}: cannot write there (no folder '{folder}', or not writable)")


# Keys of the configuration that may differ within one series: a run
# continued from a checkpoint may end later, on other ranks, with other
# output settings, but writes into the same output.dir.
FREE_KEYS = ("time.", "run.", "parallel.", "output.")
FIXED_KEYS = ("output.dir",)


def fixed_configuration(config):
    """The configuration's keys that every snapshot of one series shares: {section.key: value}."""
    return {k: v for k, v in config.items() if k in FIXED_KEYS or not k.startswith(FREE_KEYS)}


def series_key(snap):
    """What the snapshots of one series share: solver, grid, the fixed configuration."""
    grid = tuple(int(snap.attrs[k]) for k in ("global_nx", "global_ny") if k in snap.attrs)
    return snap.solver, grid, fixed_configuration(snap.config)


def describe_difference(a, b):
    if a[0] != b[0]:
        return f"solver {b[0]}, not {a[0]}"
    if a[1] != b[1]:
        return f"grid {' x '.join(map(str, b[1]))}, not {' x '.join(map(str, a[1]))}"
    k = sorted(k for k in set(a[2]) | set(b[2]) if a[2].get(k) != b[2].get(k))[0]
    return f"{k} {b[2].get(k, '(none)')}, not {a[2].get(k, '(none)')}"


def write_movie(paths, a):
    """One MP4 of the snapshots of one series, a frame each, in time order."""
    import matplotlib.animation as animation

    # Pass 1: every file is a snapshot of the same series; the order and the ranges.
    items, first, first_path = [], None, None
    lo, hi, lo_positive, hi_positive = np.inf, -np.inf, np.inf, 0.0
    ylims = {}
    under = False  # --log: some frame has values the scale cannot colour
    for path in paths:
        snap = open_snapshot(path)
        key = series_key(snap)
        if first is None:
            first, first_path = key, path
        elif key != first:
            die(f"{path} and {first_path} are not of one series ({describe_difference(first, key)}); "
                "--movie takes the snapshots of one run")
        fr = frame_of(snap, path, a)
        items.append((fr["time"], fr["step"], path))
        if fr["ndim"] == 2:
            d = fr["data"][np.isfinite(fr["data"])]
            if d.size:
                lo, hi = min(lo, d.min()), max(hi, d.max())
                under = under or bool((d <= 0).any())
                p = d[d > 0]
                if p.size:
                    lo_positive, hi_positive = min(lo_positive, p.min()), max(hi_positive, p.max())
        else:
            for name, v in fr["values"].items():
                v = v[np.isfinite(v)]
                if a.log:
                    v = v[v > 0]
                if v.size:
                    old = ylims.get(name, (np.inf, -np.inf))
                    ylims[name] = (min(old[0], v.min()), max(old[1], v.max()))
    steps = sorted(items)
    for (_, s0, p0), (_, s1, p1) in zip(steps, steps[1:]):
        if s0 == s1:
            die(f"{p0} and {p1} are both step {s0}: --movie takes the snapshots of one run, each once")

    if shutil.which("ffmpeg") is None or not animation.writers.is_available("ffmpeg"):
        die("--movie needs ffmpeg, which is not installed (Debian: apt-get install ffmpeg)")

    # Fixed ranges over all frames.
    norm = None
    fr = frame_of(open_snapshot(steps[0][2]), steps[0][2], a)
    if fr["ndim"] == 2:
        if a.log:
            norm = log_norm(lo_positive, hi_positive)
            under = under or lo_positive < norm.vmin
        else:
            lo, hi = (lo, hi) if lo <= hi else (0.0, 1.0)
            norm = matplotlib.colors.Normalize(vmin=lo, vmax=hi if hi > lo else lo + 1)
    else:
        for name, (y0, y1) in list(ylims.items()):
            if a.log:
                ylims[name] = (y0 / 1.5, y1 * 1.5) if y1 > y0 else (y0 / 10, y0 * 10)
            else:
                pad = 0.05 * (y1 - y0) if y1 > y0 else max(abs(y0) * 0.05, 1e-12)
                ylims[name] = (y0 - pad, y1 + pad)

    fig, axes = new_figure(fr)
    dpi = 100
    writer = animation.FFMpegWriter(fps=a.fps, codec="h264", bitrate=-1,
                                    metadata={"title": f"{fr['solver']}: {os.path.dirname(steps[0][2]) or '.'}"})
    try:
        with writer.saving(fig, a.movie, dpi):
            for k, (_, _, path) in enumerate(steps):
                if k > 0:
                    fr = frame_of(open_snapshot(path), path, a)
                    for ax in axes:
                        ax.clear()
                draw(axes, fr, a, norm=norm, ylims=ylims)
                if k == 0:
                    if fr["ndim"] == 2:
                        sm = matplotlib.cm.ScalarMappable(norm=norm, cmap=CMAP)
                        sm.set_array([])
                        colour_bar(fig, sm, axes[0], fr["label"], "min" if a.log and under else "neither")
                        if a.log and under:
                            fig.text(0.01, 0.01, f"{UNDER_NAME}: {fr['name']} <= 0 or below {norm.vmin:.3g} "
                                     "(not on the log scale)", fontsize=8, color=UNDER_COLOUR)
                    fig.tight_layout()
                writer.grab_frame()
    except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as e:
        detail = getattr(e, "stderr", None)
        detail = text(detail).strip().splitlines()[-1] if detail else e
        if os.path.exists(a.movie):
            os.remove(a.movie)  # no half-written movie
        die(f"{a.movie}: ffmpeg could not write the movie ({detail})")
    plt.close(fig)
    print(f"wrote {a.movie}: {len(steps)} frames, {fr['solver']} steps {steps[0][1]} to {steps[-1][1]}, "
          f"t = {steps[0][0]:.6g} to {steps[-1][0]:.6g}")


class Parser(argparse.ArgumentParser):
    def error(self, message):
        """Usage errors as one line too, like every other error."""
        die(f"{message} (cfdplot --help for the usage)")


def slice_of(text):
    """--slice AXIS=VALUE: ("z", 0.5)."""
    axis, sep, value = text.partition("=")
    axis = axis.strip()
    if not sep or axis not in ("x", "y", "z"):
        raise argparse.ArgumentTypeError(f"expected AXIS=VALUE with AXIS x, y or z, e.g. z=0.5 (got {text!r})")
    try:
        at = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number (e.g. z=0.5)") from None
    if not math.isfinite(at):
        raise argparse.ArgumentTypeError(f"{value!r} is not a finite number (e.g. z=0.5)")
    return axis, at


def main():
    p = Parser(prog="cfdplot", description=__doc__.split("\n\n")[0],
               formatter_class=argparse.RawDescriptionHelpFormatter,
               epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("snapshot", nargs="*",
                   help="cfdrun snapshots (one picture each), e.g. kh.out/euler_*.h5, or a series' .xdmf index, "
                        "or CSV profiles")
    p.add_argument("--version", action="version",
                   version=f"cfdplot {cfdrun.__version__} (the cfdrun Python package in "
                           f"{os.path.dirname(os.path.dirname(os.path.abspath(cfdrun.__file__)))})")
    p.add_argument("--labels", help="CSV mode: comma-separated legend labels")
    p.add_argument("--title", help="CSV mode: figure title")
    p.add_argument("--xlim", help="CSV mode: x range to show, e.g. 0.45,0.55")
    p.add_argument("-f", "--field", help="field to draw (default: rho for euler and sod, u for diffusion; "
                                         "1D: every field, one panel each)")
    p.add_argument("--slice", metavar="AXIS=VALUE", type=slice_of,
                   help="3D snapshots: draw the plane normal to AXIS (x, y or z) nearest to the coordinate VALUE, "
                        "e.g. z=0.5 (default: the middle plane normal to z)")
    p.add_argument("--log", action="store_true", help="logarithmic colour scale (2D) or y axes (1D, --history)")
    p.add_argument("--zoom", type=int, default=None,
                   help="show only N points either side of the maximum (2D) or of the steepest gradient (1D); "
                        "0: the whole grid. Default: 2D pictures of a field that varies on under 2%% of the grid "
                        "(a point source) show the box where it varies, said in the title; otherwise the whole grid")
    p.add_argument("-o", "--output", help="picture to write, its format from its ending (.png, .pdf, .svg, ...; "
                                          "default: each SNAPSHOT with .png; with one snapshot only)")
    p.add_argument("--movie", metavar="OUT.mp4",
                   help="write one MP4 of the snapshots of one series (several .h5 files or one .xdmf), a frame "
                        "each in time order, with one colour range over all frames; needs ffmpeg")
    p.add_argument("--fps", type=float, default=5, help="--movie: frames per second (default 5)")
    p.add_argument("--history", metavar="RUN.hst",
                   help="draw the columns of a history file against time, one panel each (default picture: RUN.png)")
    p.add_argument("--columns", help="--history: the columns to draw, comma-separated (default: all but step, "
                                     "time, dt)")
    p.add_argument("--one-panel", action="store_true",
                   help="--history: draw the columns in one panel, a line and a legend entry each (default: one "
                        "panel each)")
    p.add_argument("--reference", metavar="FILE", action="append",
                   help="--history: overlay a reference curve, a text file of time, value lines (comma- or "
                        "space-separated; lines starting with # skipped), as a black dashed line labelled with "
                        "the file's name; may be given again for more curves (dotted, dash-dotted, ...). Goes on "
                        "the one panel: one column, or --one-panel")
    p.add_argument("--reference-label", metavar="TEXT", action="append",
                   help="--history: the legend label of a --reference curve instead of its file name; the first "
                        "labels the first --reference, the second the second, ...")
    a = p.parse_args()
    if a.zoom is not None and a.zoom < 0:
        die(f"--zoom takes a number of points, 0 or more, got {a.zoom}")
    if a.output is not None:
        check_picture_name(a.output)
    if a.history:
        if a.snapshot or a.movie:
            die("--history draws one history file; give no snapshots and no --movie with it")
        return plot_history(a)
    for given, option in ((a.columns, "--columns"), (a.one_panel, "--one-panel"), (a.reference, "--reference"),
                          (a.reference_label, "--reference-label")):
        if given:
            die(f"{option} goes with --history")
    if not a.snapshot:
        die("no snapshot given (cfdplot --help for the usage)")
    if a.snapshot[0].endswith(".csv"):
        if a.movie:
            die("--movie takes snapshots (.h5) or an .xdmf index, not CSV profiles")
        return plot_profiles(a)
    if a.movie:
        if not a.movie.lower().endswith(".mp4"):
            die(f"--movie writes an MP4 file: '{a.movie}' must end in .mp4")
        if a.output:
            die("-o names a picture; with --movie the movie is the output")
        if not a.fps > 0:
            die(f"--fps must be positive, got {a.fps:g}")
        folder = os.path.dirname(a.movie) or "."
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            die(f"{a.movie}: cannot write there (no folder '{folder}', or not writable)")
        return write_movie(expand(a.snapshot), a)
    for path in a.snapshot:
        if path.endswith(".hst"):
            die(f"{path}: a history file, not a snapshot; draw it with cfdplot --history {path}")
    paths = expand(a.snapshot)
    if a.output and len(paths) > 1:
        die("-o names one picture; with several snapshots each gets its own SNAPSHOT.png")
    for path in paths:
        plot_snapshot(path, a, a.output or path.rsplit(".", 1)[0] + ".png")


def run():
    try:
        main()
    except CfdrunError as e:  # a file found wanting after it opened (a field that cannot be read)
        die(e)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:  # never a traceback: say what failed, in one line
        # An error raised inside h5py is about the file it was reading.
        in_h5py = any("h5py" in frame.filename for frame in traceback.extract_tb(e.__traceback__))
        if in_h5py and LAST_FILE[0]:
            die(f"{LAST_FILE[0]}: {type(e).__name__}: {e}")
        die(f"{type(e).__name__}: {e}")


METADATA_SECONDS = 10  # as cfdinfo's limit on a file's metadata (core/hdf5_file.hpp)
LAST_FILE = [""]  # the last file h5py opened by name (run_guarded's child), for the messages


def run_guarded():
    """Runs cfdplot in a child process, as cfdinfo reads files
    (core/hdf5_file.hpp, h5_run_guarded): HDF5 can crash inside the process
    on a damaged file (SIGSEGV, SIGABRT), or go round in circles reading a
    damaged heap, which no check can rule out. A crash of the child, or a
    file's opening or attribute read that has not ended after
    METADATA_SECONDS, becomes the one line "cfdplot: error: FILE: damaged
    HDF5 file (...)" and status 2, FILE being the last file the child began
    to read: the child names each h5py.File it opens, and marks the start
    and end of each opening and attribute read, through a pipe. The values
    of datasets are read without a limit. Where no child can be started,
    cfdplot runs in this process."""
    import select
    import signal
    import tempfile
    try:
        read_end, write_end = os.pipe()
        # The child's stderr, given to this process's once the child has
        # ended by itself: a child that HDF5 crashed would otherwise leave
        # the C library's own report ("free(): invalid pointer") beside the
        # one-line error below.
        child_stderr = tempfile.TemporaryFile()
        pid = os.fork()
    except OSError:
        return run()
    if pid == 0:
        os.close(read_end)
        sys.stderr.flush()
        os.dup2(child_stderr.fileno(), 2)
        import h5py

        def marked(method, names_file=False):
            def call(self, *args, **kwargs):
                if names_file:
                    # By name only: h5py also opens an object's own file
                    # again by its id (Group.__getitem__), which names nothing.
                    name = args[0] if args else kwargs.get("name")
                    if isinstance(name, (str, os.PathLike)):
                        LAST_FILE[0] = str(os.fspath(name))
                        os.write(write_end, b"F " + LAST_FILE[0].encode(errors="replace") + b"\n")
                os.write(write_end, b"B\n")
                result = method(self, *args, **kwargs)
                os.write(write_end, b"E\n")
                return result
            return call

        h5py.File.__init__ = marked(h5py.File.__init__, names_file=True)
        h5py.AttributeManager.__getitem__ = marked(h5py.AttributeManager.__getitem__)
        code = 0
        try:
            run()
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    os.close(write_end)
    last, begun, pending, stuck = "an input file", None, b"", False
    while True:
        try:
            ready, _, _ = select.select([read_end], [], [], 0.5)
        except KeyboardInterrupt:
            os.kill(pid, signal.SIGINT)
            continue
        if ready:
            chunk = os.read(read_end, 65536)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line.startswith(b"F "):
                    last = line[2:].decode(errors="replace")
                elif line == b"B":
                    begun = time.monotonic()
                elif line == b"E":
                    begun = None
        if begun is not None and time.monotonic() - begun > METADATA_SECONDS:
            os.kill(pid, signal.SIGKILL)
            stuck = True
            break
    os.close(read_end)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    if os.WIFEXITED(status) and not stuck:
        child_stderr.seek(0)
        sys.stderr.flush()
        sys.stderr.buffer.write(child_stderr.read())
        sys.stderr.flush()
    child_stderr.close()
    if stuck:
        die(f"{last}: damaged HDF5 file (reading its metadata did not end in {METADATA_SECONDS} s)")
    if os.WIFEXITED(status):
        sys.exit(os.WEXITSTATUS(status))
    crash = os.WTERMSIG(status)
    if crash in (signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL, signal.SIGABRT):
        die(f"{last}: damaged HDF5 file (reading it crashed HDF5: {signal.Signals(crash).name})")
    if crash == signal.SIGINT:
        sys.exit(130)
    os.kill(os.getpid(), crash)


if __name__ == "__main__":
    run_guarded()
