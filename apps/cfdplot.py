#!/usr/bin/python3
"""cfdplot: plot a cfdrun snapshot (HDF5) to a PNG.

usage: cfdplot SNAPSHOT.h5 [SNAPSHOT.h5 ...] [-f FIELD] [--log] [--zoom N] [-o OUT.png]
       cfdplot PROFILES.csv [PROFILES.csv ...] [--labels A,B] [--title T] -o OUT.png

One picture per snapshot. 2D runs are drawn as an image of one field (rho for
euler2d, u for diffusion, or -f) with a colour bar labelled with its units;
1D runs as one labelled panel per field. CSV files from `cfdcompare --exact SNAPSHOT --csv FILE` are drawn as
density, velocity and pressure against the exact solution. The title carries the solver, step and time stored in the file. Needs
h5py and matplotlib (Debian: python3-h5py python3-matplotlib).
"""
import argparse
import sys

try:
    import h5py
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
except ImportError as e:  # pragma: no cover
    die(f"{e}; install python3-h5py and python3-matplotlib")


def die(message):
    """A clean error with exit status 2, never a traceback."""
    print(f"cfdplot: error: {message}", file=sys.stderr)
    sys.exit(2)


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


def label_of(h, name):
    units = text(h["fields/" + name].attrs.get("units", ""))
    description = text(h["fields/" + name].attrs.get("description", name))
    return f"{name}: {description}" + (f" [{units}]" if units and units != "1" else "")


def plot_snapshot(path, a, out):
    try:
        h = h5py.File(path, "r")
    except OSError as e:
        die(f"{path}: {e}")
    with h:
        if "fields" not in h or "solver" not in h.attrs:
            die(f"{path}: not a cfdrun snapshot (a checkpoint? try cfdinfo)")
        fields = sorted(h["fields"].keys())
        solver, step, time = text(h.attrs["solver"]), int(h.attrs["step"]), float(h.attrs["time"])
        if a.field and a.field not in fields:
            die(f"{path}: no field '{a.field}' (fields: {', '.join(fields)})")
        title = f"{solver}, step {step}, t = {time:.6g}"
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
            fig, ax = plt.subplots(figsize=(6.4, 5.4))
            norm = None
            if a.log:
                positive = data[data > 0]
                vmin = max(positive.min(), positive.max() * 1e-16) if positive.size else 1e-16
                norm = matplotlib.colors.LogNorm(vmin=vmin, vmax=max(data.max(), vmin * 10))
                data = np.where(data > 0, data, np.nan)
            im = ax.pcolormesh(x, y, data, shading="nearest", norm=norm, cmap="inferno")
            fig.colorbar(im, ax=ax, label=label_of(h, name))
            ax.set_aspect("equal")
            ax.set_xlabel("x")
            ax.set_ylabel("y")
            ax.set_title(title)
        else:
            # 1D: one labelled panel per field, on a shared x axis.
            names = [a.field] if a.field else [n for n in ("rho", "u", "p", "T") if n in fields] + \
                [n for n in fields if n not in ("rho", "u", "p", "T")]
            lo, hi = 0, len(x)
            if a.zoom > 0:  # around the steepest gradient of the first field (a shock, a contact)
                k = int(np.argmax(np.abs(np.diff(h["fields/" + names[0]][...]))))
                lo, hi = max(k - a.zoom, 0), min(k + a.zoom + 2, len(x))
            fig, axes = plt.subplots(len(names), 1, figsize=(7, 2.2 * len(names) + 0.6), sharex=True, squeeze=False)
            for ax, name in zip(axes[:, 0], names):
                v = h["fields/" + name][...][lo:hi]
                ax.plot(x[lo:hi], v, ".-", ms=2, lw=0.8)
                if a.log:
                    ax.set_yscale("log")
                ax.set_ylabel(label_of(h, name), fontsize=8)
                ax.grid(alpha=0.3)
            units = text(h["grid/x"].attrs.get("units", ""))
            axes[-1, 0].set_xlabel("x" + (f" [{units}]" if units and units != "1" else ""))
            axes[0, 0].set_title(title)
        fig.tight_layout()
        fig.savefig(out, dpi=110)
        plt.close(fig)
    print(f"wrote {out}")


def main():
    p = argparse.ArgumentParser(prog="cfdplot", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("snapshot", nargs="+",
                   help="cfdrun snapshots (one picture each), e.g. kh.out/euler2d_*.h5, or CSV profiles")
    p.add_argument("--labels", help="CSV mode: comma-separated legend labels")
    p.add_argument("--title", help="CSV mode: figure title")
    p.add_argument("--xlim", help="CSV mode: x range to show, e.g. 0.45,0.55")
    p.add_argument("-f", "--field", help="field to draw (default: rho for euler2d and sod, u for diffusion; "
                                         "1D: every field, one panel each)")
    p.add_argument("--log", action="store_true", help="logarithmic colour scale (2D) or y axes (1D)")
    p.add_argument("--zoom", type=int, default=0,
                   help="show only N points either side of the maximum (2D) or of the steepest gradient (1D)")
    p.add_argument("-o", "--output", help="PNG to write (default: each SNAPSHOT with .png; with one snapshot only)")
    a = p.parse_args()
    if a.snapshot[0].endswith(".csv"):
        return plot_profiles(a)
    if a.output and len(a.snapshot) > 1:
        die("-o names one picture; with several snapshots each gets its own SNAPSHOT.png")
    for path in a.snapshot:
        plot_snapshot(path, a, a.output or path.rsplit(".", 1)[0] + ".png")


if __name__ == "__main__":
    main()
