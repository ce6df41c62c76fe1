#!/usr/bin/python3
"""cfdplot: plot cfdrun snapshots (HDF5) to PNG pictures or one MP4 movie.

usage: cfdplot SNAPSHOT.h5|SERIES.xdmf [...] [-f FIELD] [--log] [--zoom N] [-o OUT.png]
       cfdplot SNAPSHOT.h5 [...]|SERIES.xdmf --movie OUT.mp4 [-f FIELD] [--log] [--zoom N] [--fps N]
       cfdplot PROFILES.csv [PROFILES.csv ...] [--labels A,B] [--title T] -o OUT.png

One picture per snapshot. 2D runs are drawn as an image of one field (rho for
euler2d, u for diffusion, or -f) with a colour bar labelled with its units;
1D runs as one labelled panel per field. An .xdmf index (cfdrun writes one
per series) stands for its snapshots. With --movie the snapshots of one
series become the frames of one MP4, in time order, drawn as the pictures
are, with one colour range (2D) or y range per panel (1D) over all frames;
it needs ffmpeg (Debian: apt-get install ffmpeg). CSV files from
`cfdcompare --exact SNAPSHOT --csv FILE` are drawn as density, velocity and
pressure against the exact solution. The title carries the solver, step and
time stored in the file. Needs h5py and matplotlib (Debian: python3-h5py
python3-matplotlib).
"""
import argparse
import os
import shutil
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET


def die(message):
    """A clean error with exit status 2, never a traceback."""
    print(f"cfdplot: error: {' '.join(str(message).split())}", file=sys.stderr)
    sys.exit(2)


try:
    import h5py
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
except ImportError as e:  # pragma: no cover
    die(f"{e}; install python3-h5py, python3-matplotlib and python3-numpy")


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def plot_profiles(a):
    labels = a.labels.split(",") if a.labels else a.snapshot
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for k, (path, label) in enumerate(zip(a.snapshot, labels)):
        try:
            d = np.genfromtxt(path, delimiter=",", names=True)
        except OSError as e:
            die(f"{path}: {e}")
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
    fig.savefig(out, dpi=100)
    print(f"wrote {out}")


# The field a picture shows unless -f says otherwise.
DEFAULT_FIELD = {"euler2d": "rho", "sod": "rho", "diffusion": "u"}
# 1D panels in this order, then the other fields.
FIELDS_1D = ("rho", "u", "p", "T")


def label_of(h, name):
    units = text(h["fields/" + name].attrs.get("units", ""))
    description = text(h["fields/" + name].attrs.get("description", name))
    return f"{name}: {description}" + (f" [{units}]" if units and units != "1" else "")


def snapshots_of_xdmf(path):
    """The snapshot files an XDMF index names, in time order (each once)."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        die(f"{path}: cannot read it as an XDMF index ({e})")
    steps = []
    for k, grid in enumerate(root.iter("Grid")):
        t = grid.find("Time")
        files = [item.text.strip().split(":", 1)[0] for item in grid.iter("DataItem")
                 if item.get("Format") == "HDF" and item.text and ":" in item.text]
        if t is None or not files:
            continue
        try:
            time = float(t.get("Value"))
        except (TypeError, ValueError):
            die(f"{path}: a time step without a number ({t.get('Value')!r})")
        steps.append((time, k, os.path.join(os.path.dirname(path), files[0])))
    if not steps:
        die(f"{path}: an XDMF index that names no snapshot")
    out = []
    for _, _, f in sorted(steps):
        if f not in out:
            out.append(f)
    return out


def expand(paths):
    """Snapshot files: the given .h5 files, and the snapshots of each .xdmf."""
    out = []
    for p in paths:
        out += snapshots_of_xdmf(p) if p.lower().endswith(".xdmf") else [p]
    return out


def open_snapshot(path):
    """An open cfdrun snapshot, or a clean error."""
    if not os.path.exists(path):
        die(f"{path}: no such file")
    try:
        h = h5py.File(path, "r")
    except OSError as e:
        die(f"{path}: cannot read it as HDF5 ({e})")
    if "fields" not in h or "solver" not in h.attrs:
        h.close()
        die(f"{path}: not a cfdrun snapshot (a checkpoint? try cfdinfo)")
    return h


def frame_of(h, path, a):
    """What the picture of one snapshot shows: its title and, in 2D, one
    field (x, y, data, zoomed) or, in 1D, its panels (x, {name: values})."""
    fields = sorted(h["fields"].keys())
    solver, step, time = text(h.attrs["solver"]), int(h.attrs["step"]), float(h.attrs["time"])
    if a.field and a.field not in fields:
        die(f"{path}: no field '{a.field}' (fields: {', '.join(fields)})")
    fr = {"solver": solver, "step": step, "time": time, "title": f"{solver}, step {step}, t = {time:.6g}"}
    x = h["grid/x"][...]
    if "grid/y" in h:
        name = a.field or DEFAULT_FIELD.get(solver, fields[0])
        data = h["fields/" + name][...].astype(float)
        y = h["grid/y"][...]
        if a.zoom > 0:
            j, i = np.unravel_index(np.argmax(data), data.shape)
            sj = slice(max(j - a.zoom, 0), j + a.zoom + 1)
            si = slice(max(i - a.zoom, 0), i + a.zoom + 1)
            data, x, y = data[sj, si], x[si], y[sj]
        fr.update(ndim=2, name=name, x=x, y=y, data=data, label=label_of(h, name))
    else:
        # 1D: one labelled panel per field, on a shared x axis.
        names = [a.field] if a.field else [n for n in FIELDS_1D if n in fields] + \
            [n for n in fields if n not in FIELDS_1D]
        lo, hi = 0, len(x)
        if a.zoom > 0:  # around the steepest gradient of the first field (a shock, a contact)
            k = int(np.argmax(np.abs(np.diff(h["fields/" + names[0]][...]))))
            lo, hi = max(k - a.zoom, 0), min(k + a.zoom + 2, len(x))
        units = text(h["grid/x"].attrs.get("units", ""))
        fr.update(ndim=1, names=names, x=x[lo:hi], values={n: h["fields/" + n][...][lo:hi] for n in names},
                  labels={n: label_of(h, n) for n in names},
                  xlabel="x" + (f" [{units}]" if units and units != "1" else ""))
    return fr


def log_norm(lo_positive, hi):
    """The logarithmic colour scale of the pictures: down to 1e-16 of the maximum."""
    vmin = max(lo_positive, hi * 1e-16) if np.isfinite(lo_positive) else 1e-16
    return matplotlib.colors.LogNorm(vmin=vmin, vmax=max(hi, vmin * 10))


def new_figure(fr):
    if fr["ndim"] == 2:
        fig, ax = plt.subplots(figsize=(6.4, 5.4))
        return fig, [ax]
    n = len(fr["names"])
    fig, axes = plt.subplots(n, 1, figsize=(7, 2.2 * n + 0.6), sharex=True, squeeze=False)
    return fig, list(axes[:, 0])


def draw(axes, fr, a, norm=None, ylims=None):
    """One snapshot into the figure's axes; norm (2D) and ylims (1D) fix the ranges."""
    if fr["ndim"] == 2:
        ax, data = axes[0], fr["data"]
        if a.log:
            data = np.where(data > 0, data, np.nan)
        im = ax.pcolormesh(fr["x"], fr["y"], data, shading="nearest", norm=norm, cmap="inferno")
        ax.set_aspect("equal")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.set_title(fr["title"])
        return im
    for ax, name in zip(axes, fr["names"]):
        ax.plot(fr["x"], fr["values"][name], ".-", ms=2, lw=0.8)
        if a.log:
            with warnings.catch_warnings():  # a panel with nothing positive (u = 0 at t = 0) stays empty
                warnings.simplefilter("ignore", UserWarning)
                ax.set_yscale("log")
        if ylims and name in ylims:
            ax.set_ylim(*ylims[name])
        ax.set_ylabel(fr["labels"][name], fontsize=8)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel(fr["xlabel"])
    axes[0].set_title(fr["title"])
    return None


def plot_snapshot(path, a, out):
    with open_snapshot(path) as h:
        fr = frame_of(h, path, a)
    fig, axes = new_figure(fr)
    norm = None
    if fr["ndim"] == 2 and a.log:
        positive = fr["data"][fr["data"] > 0]
        norm = log_norm(positive.min() if positive.size else np.inf, positive.max() if positive.size else 0.0)
    im = draw(axes, fr, a, norm=norm)
    if im is not None:
        fig.colorbar(im, ax=axes[0], label=fr["label"])
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    print(f"wrote {out}")


# Keys of the configuration that may differ within one series: a run
# continued from a checkpoint may end later, on other ranks, with other
# output settings, but writes into the same output.dir.
FREE_KEYS = ("time.", "run.", "parallel.", "output.")
FIXED_KEYS = ("output.dir",)


def fixed_configuration(configuration):
    """The configuration's keys that every snapshot of one series shares: {section.key: value}."""
    keys, section = {}, ""
    for line in configuration.splitlines():
        if not line.strip() or line.lstrip().startswith("#") or ":" not in line:
            continue
        key, value = (v.strip() for v in line.split(":", 1))
        if not line[0].isspace():
            section = key if not value else ""
            if value:
                keys[key] = value
        elif section:
            keys[f"{section}.{key}"] = value
    return {k: v for k, v in keys.items() if k in FIXED_KEYS or not k.startswith(FREE_KEYS)}


def series_key(h):
    """What the snapshots of one series share: solver, grid, the fixed configuration."""
    grid = tuple(int(h.attrs[k]) for k in ("global_nx", "global_ny") if k in h.attrs)
    return text(h.attrs["solver"]), grid, fixed_configuration(text(h.attrs.get("configuration", "")))


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
    for path in paths:
        with open_snapshot(path) as h:
            key = series_key(h)
            if first is None:
                first, first_path = key, path
            elif key != first:
                die(f"{path} and {first_path} are not of one series ({describe_difference(first, key)}); "
                    "--movie takes the snapshots of one run")
            fr = frame_of(h, path, a)
        items.append((fr["time"], fr["step"], path))
        if fr["ndim"] == 2:
            d = fr["data"][np.isfinite(fr["data"])]
            if d.size:
                lo, hi = min(lo, d.min()), max(hi, d.max())
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
    with open_snapshot(steps[0][2]) as h:
        fr = frame_of(h, steps[0][2], a)
    if fr["ndim"] == 2:
        if a.log:
            norm = log_norm(lo_positive, hi_positive)
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
                    with open_snapshot(path) as h:
                        fr = frame_of(h, path, a)
                    for ax in axes:
                        ax.clear()
                draw(axes, fr, a, norm=norm, ylims=ylims)
                if k == 0:
                    if fr["ndim"] == 2:
                        sm = matplotlib.cm.ScalarMappable(norm=norm, cmap="inferno")
                        sm.set_array([])
                        fig.colorbar(sm, ax=axes[0], label=fr["label"])
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


def main():
    p = argparse.ArgumentParser(prog="cfdplot", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("snapshot", nargs="+",
                   help="cfdrun snapshots (one picture each), e.g. kh.out/euler2d_*.h5, or a series' .xdmf index, "
                        "or CSV profiles")
    p.add_argument("--labels", help="CSV mode: comma-separated legend labels")
    p.add_argument("--title", help="CSV mode: figure title")
    p.add_argument("--xlim", help="CSV mode: x range to show, e.g. 0.45,0.55")
    p.add_argument("-f", "--field", help="field to draw (default: rho for euler2d and sod, u for diffusion; "
                                         "1D: every field, one panel each)")
    p.add_argument("--log", action="store_true", help="logarithmic colour scale (2D) or y axes (1D)")
    p.add_argument("--zoom", type=int, default=0,
                   help="show only N points either side of the maximum (2D) or of the steepest gradient (1D)")
    p.add_argument("-o", "--output", help="PNG to write (default: each SNAPSHOT with .png; with one snapshot only)")
    p.add_argument("--movie", metavar="OUT.mp4",
                   help="write one MP4 of the snapshots of one series (several .h5 files or one .xdmf), a frame "
                        "each in time order, with one colour range over all frames; needs ffmpeg")
    p.add_argument("--fps", type=float, default=5, help="--movie: frames per second (default 5)")
    a = p.parse_args()
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
    paths = expand(a.snapshot)
    if a.output and len(paths) > 1:
        die("-o names one picture; with several snapshots each gets its own SNAPSHOT.png")
    for path in paths:
        plot_snapshot(path, a, a.output or path.rsplit(".", 1)[0] + ".png")


if __name__ == "__main__":
    main()
