#!/usr/bin/python3
"""verify_sedov: the Sedov-Taylor shock radius of a finished 3D sedov run
against the similarity solution R = xi (E t^2 / rho)^(1/5), beyond CI.

For every snapshot of the run's folder (or the files given) it averages the
density over spherical shells one cell wide around the box's centre and
takes as the shock radius the point outside the densest shell where the
average falls through the midpoint between that peak and the ambient density
(interpolated between shells): the measure of tests/test_euler3d.cpp. xi is
alpha^(-1/5) with alpha the energy integral of the similarity solution for
a spherical blast in a uniform gas: 0.851072 for gamma = 1.4 and 0.49365 for
gamma = 5/3 (Kamm & Timmes 2007, "On efficient generation of numerically
robust Sedov solutions", LA-UR-07-2849; xi = 1.0328 and 1.1517, Taylor's
1.033 for air).

usage: apps/verify_sedov.py RUN_DIR_OR_FILES... [--tolerance 0.02]
Exit status 0 when the last snapshot's radius is within the tolerance
(relative), 1 when not, 2 for bad usage (not a 3D sedov run, a gamma
without a tabulated alpha).
"""
import argparse
import glob
import os
import re
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:  # a clean message, not a traceback
    sys.exit(f"verify_sedov: {e}: it needs h5py and numpy (Debian: python3-h5py python3-numpy)")

ALPHA = {1.4: 0.851072, 5.0 / 3.0: 0.49365}

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("paths", nargs="+", help="a run's output folder, or snapshot files")
p.add_argument("--tolerance", type=float, default=0.02, help="relative tolerance of the last radius (default 0.02)")
args = p.parse_args()

files = []
for path in args.paths:
    files += sorted(glob.glob(os.path.join(path, "euler_*.h5"))) if os.path.isdir(path) else [path]
if not files:
    sys.exit("verify_sedov: no snapshot (euler_*.h5) in " + " ".join(args.paths))


def key(config, section, name, *former):
    """A scalar from the resolved configuration the snapshot carries (or
    under a former spelling, (section, name) pairs: snapshots of cfdrun
    before 0.2 hold euler.gamma, later ones gas.gamma)."""
    for sec, nam in ((section, name),) + former:
        block = re.search(r"^" + sec + r":\n((?:  .*\n)*)", config, re.M)
        found = block and re.search(r"^  " + nam + r": *(\S+)", block.group(1), re.M)
        if found:
            return found.group(1)
    sys.exit("verify_sedov: the snapshot's configuration has no %s.%s" % (section, name))


def shock_radius(rho, h, ambient):
    n = rho.shape[0]
    c = (np.arange(n) + 0.5) * h - 0.5 * n * h
    z, y, x = np.meshgrid(c, c, c, indexing="ij")
    shell = (np.sqrt(x * x + y * y + z * z) / h).astype(np.int64)
    inside = shell < n // 2
    mean = np.bincount(shell[inside], rho[inside], n // 2) / np.bincount(shell[inside], None, n // 2)
    peak = int(np.argmax(mean))
    half = 0.5 * (mean[peak] + ambient)
    for b in range(peak, n // 2 - 1):
        if mean[b + 1] < half:
            return h * (b + 0.5 + (mean[b] - half) / (mean[b] - mean[b + 1]))
    return float("nan")


worst = None
print("%-24s %10s %12s %12s %9s" % ("snapshot", "t", "R measured", "R similarity", "ratio"))
for f in files:
    with h5py.File(f, "r") as h:
        config = h.attrs["configuration"]
        config = config.decode() if isinstance(config, bytes) else config
        problem = key(config, "euler", "problem", ("euler2d", "problem"))
        if problem != "sedov" or "fields/rho" not in h or h["fields/rho"].ndim != 3:
            sys.exit("verify_sedov: %s is not a 3D sedov snapshot" % f)
        rho = h["fields/rho"][...]
        t = float(h.attrs["time"])
        n = rho.shape
        if not (n[0] == n[1] == n[2]):
            sys.exit("verify_sedov: %s: the measure needs a cube of cells, got %s" % (f, n))
        h_cell = float(h["grid/x_faces"][1] - h["grid/x_faces"][0])
    gamma = float(key(config, "gas", "gamma", ("euler", "gamma"), ("euler2d", "gamma")))
    alpha = next((a for g, a in ALPHA.items() if abs(g - gamma) < 1e-12), None)
    if alpha is None:
        sys.exit("verify_sedov: no tabulated alpha for gamma = %g (known: 1.4, 5/3)" % gamma)
    energy, rho0 = float(key(config, "sedov", "energy")), float(key(config, "sedov", "rho"))
    if t <= 0:
        continue
    expected = alpha ** -0.2 * (energy * t * t / rho0) ** 0.2
    measured = shock_radius(rho, h_cell, rho0)
    ratio = measured / expected
    worst = ratio
    print("%-24s %10.5f %12.6f %12.6f %9.4f" % (os.path.basename(f), t, measured, expected, ratio))
if worst is None:
    sys.exit("verify_sedov: no snapshot after t = 0")
ok = abs(worst - 1) <= args.tolerance
print("last snapshot: R / R_similarity = %.4f, %s the tolerance %g" % (worst, "within" if ok else "OUTSIDE", args.tolerance))
sys.exit(0 if ok else 1)
