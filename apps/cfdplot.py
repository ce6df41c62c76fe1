#!/usr/bin/python3
"""cfdplot: plot a cfdrun snapshot (HDF5) to a PNG.

usage: cfdplot SNAPSHOT.h5 [-f FIELD] [--log] [--zoom N] [-o OUT.png]
       cfdplot PROFILES.csv [PROFILES.csv ...] [--labels A,B] [--title T] -o OUT.png

2D runs are drawn as an image with a colour bar, 1D runs as profiles of every
field. CSV files from `cfdcompare --exact SNAPSHOT --csv FILE` are drawn as
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
    sys.exit(f"cfdplot: error: {e}; install python3-h5py and python3-matplotlib")


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def plot_profiles(a):
    labels = a.labels.split(",") if a.labels else a.snapshot
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for k, (path, label) in enumerate(zip(a.snapshot, labels)):
        try:
            d = np.genfromtxt(path, delimiter=",", names=True)
        except OSError as e:
            sys.exit(f"cfdplot: error: {path}: {e}")
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


def main():
    p = argparse.ArgumentParser(prog="cfdplot", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("snapshot", nargs="+",
                   help="a cfdrun snapshot, e.g. diffusion.out/diffusion_00000100.h5, or CSV profiles")
    p.add_argument("--labels", help="CSV mode: comma-separated legend labels")
    p.add_argument("--title", help="CSV mode: figure title")
    p.add_argument("--xlim", help="CSV mode: x range to show, e.g. 0.45,0.55")
    p.add_argument("-f", "--field", help="field to draw (2D; default: the first one)")
    p.add_argument("--log", action="store_true", help="logarithmic colour scale (2D)")
    p.add_argument("--zoom", type=int, default=0,
                   help="2D: show only N points either side of the maximum")
    p.add_argument("-o", "--output", help="PNG to write (default: SNAPSHOT with .png)")
    a = p.parse_args()
    if a.snapshot[0].endswith(".csv"):
        return plot_profiles(a)
    a.snapshot = a.snapshot[0]

    try:
        h = h5py.File(a.snapshot, "r")
    except OSError as e:
        sys.exit(f"cfdplot: error: {a.snapshot}: {e}")
    with h:
        fields = list(h["fields"].keys())
        solver, step, time = text(h.attrs["solver"]), int(h.attrs["step"]), float(h.attrs["time"])
        title = f"{solver}, step {step}, t = {time:.6g}"
        out = a.output or a.snapshot.rsplit(".", 1)[0] + ".png"
        x = h["grid/x"][...]
        if "grid/y" in h:
            name = a.field or fields[0]
            if name not in fields:
                sys.exit(f"cfdplot: error: no field '{name}' (fields: {', '.join(fields)})")
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
            fig.colorbar(im, ax=ax, label=name)
            ax.set_aspect("equal")
            ax.set_xlabel("x")
            ax.set_ylabel("y")
        else:
            fig, ax = plt.subplots(figsize=(7, 4.5))
            for name in ([a.field] if a.field else fields):
                ax.plot(x, h["fields/" + name][...], label=name)
            ax.set_xlabel("x")
            ax.legend()
        ax.set_title(title)
        fig.tight_layout()
        fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
