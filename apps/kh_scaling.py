#!/usr/bin/python3
"""kh_scaling: the original KH code's MPI table (problems.md section 3),
measured with cfdrun: the tutorial's scheme (config/kh_seed.yaml) at each
N x N for a fixed number of steps on 1 rank and on R ranks, side by side
with the published 1 A100 / 4 A100 times.

For every size it runs `cfdrun config/kh_seed.yaml` with time.steps fixed,
once on 1 rank and once on R ranks (through --launcher), takes the loop time
from the final snapshot (attribute timing_loop_s, the slowest rank's), and
checks that the R-rank final state is the 1-rank one bit for bit (cfdcompare
at zero tolerance, every field). With --halo it also runs `cfdbench
--variants tutorial` on R ranks for the halo exchange's time per step and
its share of the step. One GPU per rank on GPU builds.

usage: apps/kh_scaling.py [--bin DIR] [--ranks 4] [--sizes 500,1000,2000]
                          [--steps 20000] [--launcher "mpirun -np {n}"]
                          [--work DIR] [--halo] [--halo-steps 2000]
                          [--markdown FILE]

Exit status 0 when every size ran and every R-rank result equals the 1-rank
one bit for bit; 1 when a result differs or a run failed; 2 for bad options.
Example, the original's table on a 4-GPU machine:
  apps/kh_scaling.py --bin /tmp/cr/build/apps --ranks 4 --halo --markdown kh4.md
and a quick correctness run on a laptop (4 ranks, small grids):
  apps/kh_scaling.py --ranks 4 --sizes 40,64 --steps 50
"""
import argparse
import csv as csv_module
import os
import shlex
import subprocess
import sys

# problems.md section 3: 20000 steps, seconds on 1 A100 and on 4 A100s.
ORIGINAL = {500: (21.9, 11.0), 1000: (76.2, 26.8), 2000: (306.0, 83.2)}
FIELDS = ["rho", "vx", "vy", "vz", "p"]


def die(message, status=2):
    print(f"kh_scaling: error: {message}", file=sys.stderr)
    sys.exit(status)


def positive_list(text, option):
    try:
        values = [int(v) for v in text.split(",") if v]
    except ValueError:
        die(f"{option} expects whole numbers separated by commas, got '{text}'")
    if not values or min(values) < 5:
        die(f"{option} expects sizes of at least 5, got '{text}'")
    return values


def run(command, what):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"kh_scaling: {what} failed (exit {result.returncode}):\n  {shlex.join(command)}\n"
              f"{result.stdout[-2000:]}{result.stderr[-2000:]}", file=sys.stderr)
        sys.exit(1)
    return result.stdout


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__[__doc__.index("usage:"):])
    parser.add_argument("--bin", default=os.path.join(here, "..", "build", "openmp", "apps"),
                        help="folder with cfdrun, cfdcompare, cfdbench (default build/openmp/apps)")
    parser.add_argument("--ranks", type=int, default=4, help="ranks (GPUs) to compare with one (default 4)")
    parser.add_argument("--sizes", default="500,1000,2000", help="N of the N x N grids (default 500,1000,2000)")
    parser.add_argument("--steps", type=int, default=20000, help="steps per run (default 20000, the original's)")
    parser.add_argument("--launcher", default="mpirun -np {n}",
                        help="how to start n ranks; {n} is replaced (default 'mpirun -np {n}')")
    parser.add_argument("--work", default="kh_scaling.out", help="folder for the runs (default kh_scaling.out)")
    parser.add_argument("--halo", action="store_true", help="also measure the halo time per step (cfdbench)")
    parser.add_argument("--halo-steps", type=int, default=2000, help="steps of the cfdbench halo run (default 2000)")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    sizes = positive_list(args.sizes, "--sizes")
    if args.ranks < 2:
        die(f"--ranks must be at least 2, got {args.ranks}")
    if args.steps < 1 or args.halo_steps < 1:
        die("--steps and --halo-steps must be positive")
    if "{n}" not in args.launcher:
        die(f"--launcher must contain {{n}} for the rank count, got '{args.launcher}'")
    tools = {t: os.path.join(args.bin, t) for t in ("cfdrun", "cfdcompare", "cfdbench")}
    for name, path in tools.items():
        if not os.access(path, os.X_OK):
            die(f"{path} is not an executable (build cfdrun, or give --bin)")
    try:
        import h5py
    except ImportError:
        die("needs h5py (Debian: apt-get install python3-h5py)")
    case = os.path.join(here, "..", "config", "kh_seed.yaml")
    os.makedirs(args.work, exist_ok=True)

    rows, all_equal = [], True
    for n in sizes:
        loop, finals = {}, {}
        for r in (1, args.ranks):
            out = os.path.join(args.work, f"kh{n}_np{r}")
            command = [tools["cfdrun"], case, "-q", "--output", out, "--overwrite",
                       "--set", f"grid.nx={n}", "--set", f"grid.ny={n}", "--set", f"time.steps={args.steps}",
                       "--set", "output.time_interval=0", "--set", "output.every=0",
                       "--set", "output.history_every=0", "--set", "output.checkpoint_at_end=false"]
            run(shlex.split(args.launcher.format(n=r)) + command, f"cfdrun on {r} rank(s) at {n}^2")
            final = os.path.join(out, f"euler_{args.steps:08d}.h5")
            with h5py.File(final, "r") as f:
                loop[r] = float(f.attrs["timing_loop_s"])
            finals[r] = final
        equal = True
        for field in FIELDS:
            result = subprocess.run([tools["cfdcompare"], finals[1], finals[args.ranks], "--field", field,
                                     "--atol", "0", "--rtol", "0", "-q"], capture_output=True, text=True)
            equal = equal and result.returncode == 0
        all_equal = all_equal and equal
        halo_ms = share = None
        if args.halo:
            csv = os.path.join(args.work, f"halo{n}_np{args.ranks}.csv")
            run(shlex.split(args.launcher.format(n=args.ranks)) +
                [tools["cfdbench"], "--solver", "euler2d", "--variants", "tutorial", "--precision", "fp64",
                 "--sizes", str(n), "--steps", str(args.halo_steps), "--repeats", "1", "--csv", csv],
                f"cfdbench on {args.ranks} ranks at {n}^2")
            with open(csv) as f:
                row = next(csv_module.DictReader(f))
            halo_ms = float(row["halo_ms"])
            share = halo_ms / (float(row["loop_s"]) / int(row["steps"]) * 1e3)
        rows.append((n, loop[1], loop[args.ranks], equal, halo_ms, share))

    r = args.ranks
    lines = [f"kh_seed (the tutorial's scheme), {args.steps} steps, FP64: 1 rank against {r} ranks",
             "",
             f"| N^2 | 1 rank (s) | {r} ranks (s) | speed-up | efficiency | {r} ranks = 1 rank | halo ms/step | "
             "halo share | original: 1 A100 (s) | 4 A100 (s) | speed-up |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for n, one, many, equal, halo_ms, share in rows:
        speedup = one / many
        original = ORIGINAL.get(n) if args.steps == 20000 else None
        orig = (f"{original[0]:.1f} | {original[1]:.1f} | {original[0] / original[1]:.2f}x" if original
                else "- | - | -")
        halo = f"{halo_ms:.4f} | {100 * share:.1f}%" if halo_ms is not None else "- | -"
        lines.append(f"| {n}^2 | {one:.3f} | {many:.3f} | {speedup:.2f}x | {100 * speedup / r:.1f}% | "
                     f"{'bit for bit' if equal else 'DIFFERS'} | {halo} | {orig} |")
    table = "\n".join(lines) + "\n"
    print(table, end="")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)
    if not all_equal:
        print("kh_scaling: the several-rank result differs from the one-rank result", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
