#!/usr/bin/env python3
"""euler against the OpenACC tutorial's Fortran OpenMP code, side by side.

Runs, in one go and with the same thread count, the Fortran yardstick
(cfcanaoj/gpuhydro, folder KHf90openmp) at each N and `cfdbench --solver
euler` at the same N, and prints cell-updates per second and their ratio.

The Fortran code is never part of this repository. Build one executable per
N outside it: set `ngrid` in its main.f90 to N (and `nhymax`, its step
count, so that a run takes seconds), then
    gfortran -O2 -fopenmp -ffree-line-length-none main.f90 -o kh<N>
and pass the folder holding kh128, kh256, ... with --fortran-dir. Each prints
`time/count/cell` (seconds per cell update), whose inverse is its throughput.

Example:
    apps/bench_vs_fortran.py --fortran-dir /tmp/khf --sizes 128,256,512 --threads 2
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile


def fortran_rate(exe, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run([exe], capture_output=True, text=True, env=env, cwd=os.path.dirname(exe), check=True).stdout
    m = re.search(r"time/count/cell\s+([0-9.EeDd+-]+)", out)
    if not m:
        sys.exit(f"bench_vs_fortran: {exe} printed no 'time/count/cell' line")
    return 1.0 / float(m.group(1).replace("D", "E").replace("d", "e"))


def cfdrun_rates(cfdbench, sizes, variants, steps, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_PROC_BIND=os.environ.get("OMP_PROC_BIND", "true"))
    with tempfile.NamedTemporaryFile(suffix=".csv") as tmp:
        csv_path = tmp.name
        cmd = [cfdbench, "--solver", "euler2d", "--sizes", ",".join(map(str, sizes)), "--steps", str(steps),
               "--precision", "fp64", "--variants", ",".join(variants), "--csv", csv_path]
        subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
        with open(csv_path) as f:
            rows = list(csv.DictReader(f))
    return {(r["variant"], int(r["n"])): float(r["updates_per_s"]) for r in rows}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fortran-dir", required=True, help="folder with the Fortran executables kh<N>")
    ap.add_argument("--sizes", default="128,256,512", help="N list (default 128,256,512)")
    ap.add_argument("--threads", type=int, default=2, help="OpenMP threads for both (default 2)")
    ap.add_argument("--steps", type=int, default=0, help="cfdrun steps per run (default: 2e7/N^2, at least 20)")
    ap.add_argument("--cfdbench", default=os.path.join(here, "..", "build", "openmp", "apps", "cfdbench"))
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    for n in sizes:
        if not os.access(os.path.join(args.fortran_dir, f"kh{n}"), os.X_OK):
            sys.exit(f"bench_vs_fortran: {args.fortran_dir}/kh{n}: not an executable (see --help to build it)")
    if not os.access(args.cfdbench, os.X_OK):
        sys.exit(f"bench_vs_fortran: {args.cfdbench}: not found; build cfdrun first (apps/setup.sh run)")

    variants = ["tutorial", "plm-hlle-rk2"]
    print(f"{'N':>5} {'Fortran':>10} {'cfdrun same scheme':>19} {'ratio':>6} {'cfdrun plm+hlle+rk2':>20} {'ratio':>6}")
    for n in sizes:
        steps = args.steps or max(20, int(2e7 / (n * n)))
        f = fortran_rate(os.path.join(os.path.abspath(args.fortran_dir), f"kh{n}"), args.threads)
        c = cfdrun_rates(args.cfdbench, [n], variants, steps, args.threads)
        same, modern = c[("tutorial", n)], c[("plm-hlle-rk2", n)]
        print(f"{n:>5} {f:>10.3e} {same:>19.3e} {same / f:>6.2f} {modern:>20.3e} {modern / f:>6.2f}")
    print("(cell-updates per second, FP64; RK2 does two stages of work per update)")


if __name__ == "__main__":
    main()
