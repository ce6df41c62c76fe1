#!/usr/bin/python3
"""verify_kh: the McNally et al. (2012) Kelvin-Helmholtz test at several
resolutions, beyond CI. Runs cfdrun on config/kh.yaml for each N, then draws
the density at t = 2 for each N and the mode amplitude M(t) of all runs, fits
the growth rate of M and compares it with the linear theory of the same
initial state (apps/kh_linear_theory.py).

The fit windows: 0.5 <= t <= 1.1, after the seeded vy (not an eigenmode) has
shed its transient and while M < 0.07 (linear); and the wider 0.6 <= t <= 1.4,
which reaches into saturation and so reads lower.

usage: apps/verify_kh.py [--cfdrun PATH] [--sizes 128,256,512] [--out DIR]
"""
import argparse
import os
import subprocess
import sys

try:
    import h5py
    import matplotlib
except ImportError as e:  # a clean message, not a traceback
    sys.exit(f"verify_kh: {e}: it needs h5py, matplotlib and numpy (Debian: python3-h5py python3-matplotlib python3-numpy)")
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import kh_linear_theory

here = os.path.dirname(os.path.abspath(__file__))
p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("--cfdrun", default=os.path.join(here, "..", "build", "openmp", "apps", "cfdrun"))
p.add_argument("--sizes", default="128,256,512")
p.add_argument("--out", default="kh_verify")
p.add_argument("--end-time", type=float, default=2.0)
a = p.parse_args()
sizes = [int(s) for s in a.sizes.split(",")]
os.makedirs(a.out, exist_ok=True)
case = os.path.join(here, "..", "config", "kh.yaml")

runs = {}
for n in sizes:
    folder = os.path.join(a.out, f"N{n}")
    cmd = [a.cfdrun, case, "--output", folder, "--overwrite", "-q", "--set", f"grid.nx={n}",
           "--set", f"grid.ny={n}", "--set", f"time.end_time={a.end_time}"]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    hst = np.genfromtxt(os.path.join(folder, "euler.hst"), delimiter=",", names=True, skip_header=1)
    last = sorted(f for f in os.listdir(folder) if f.endswith(".h5"))[-1]
    with h5py.File(os.path.join(folder, last)) as h:
        runs[n] = (hst, h["fields/rho"][...], float(h.attrs["time"]), float(h.attrs["cell_updates_per_s"]))

fig, axes = plt.subplots(1, len(sizes), figsize=(4.2 * len(sizes), 4))
for ax, n in zip(np.atleast_1d(axes), sizes):
    hst, rho, t, rate = runs[n]
    im = ax.imshow(rho, origin="lower", extent=[0, 1, 0, 1], cmap="viridis", vmin=0.9, vmax=2.1)
    ax.set_title(f"N = {n}, t = {t:.2f}")
fig.colorbar(im, ax=axes, label="density", shrink=0.85)
fig.savefig(os.path.join(a.out, "kh_density.png"), dpi=90)

def fitted_rate(hst, t0, t1):
    m = (hst["time"] >= t0) & (hst["time"] <= t1)
    return np.polyfit(hst["time"][m], np.log(hst["kh_mode_amplitude"][m]), 1)[0]


theory = kh_linear_theory.growth_rate(256, 5.0 / 3.0)
print(f"linear theory of the initial state (256 points in y): growth rate {theory:.4f}")
fig, ax = plt.subplots(figsize=(6, 4))
print("N, rate over 0.5 <= t <= 1.1, its ratio to theory, rate over 0.6 <= t <= 1.4, M(2)")
for n in sizes:
    hst = runs[n][0]
    ax.semilogy(hst["time"], hst["kh_mode_amplitude"], label=f"N = {n}")
    linear, wide = fitted_rate(hst, 0.5, 1.1), fitted_rate(hst, 0.6, 1.4)
    print(f"{n}, {linear:.4f}, {linear / theory:.3f}, {wide:.4f}, {hst['kh_mode_amplitude'][-1]:.4e}")
t = np.linspace(0.3, 1.3, 2)
m0 = np.interp(0.8, runs[sizes[-1]][0]["time"], runs[sizes[-1]][0]["kh_mode_amplitude"])
ax.semilogy(t, m0 * np.exp(theory * (t - 0.8)), "k--", label=f"linear theory, rate {theory:.2f}")
ax.set_xlabel("t")
ax.set_ylabel("mode amplitude M")
ax.legend()
fig.tight_layout()
fig.savefig(os.path.join(a.out, "kh_mode.png"), dpi=90)
print("wrote", os.path.join(a.out, "kh_density.png"), "and kh_mode.png")
