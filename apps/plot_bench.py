#!/usr/bin/python3
"""plot_bench: throughput against problem size from cfdbench CSV files.

One panel per solver found in the files, one line per (variant, precision):
cell-updates per second against n (points per side; nodes for sod), both
axes logarithmic. Rows with the same solver, variant, precision and n keep
the last one read.

usage: apps/plot_bench.py FILE.csv [FILE.csv ...] --out throughput.png [--title TEXT]
"""
import argparse
import csv
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as e:  # a clean message, not a traceback (ctest runs it through tests/needs.sh)
    sys.exit(f"plot_bench: {e}: it needs matplotlib (Debian: python3-matplotlib)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="cfdbench --csv outputs")
    ap.add_argument("--out", required=True, help="image to write (png, pdf, svg)")
    ap.add_argument("--title", default="", help="figure title")
    a = ap.parse_args()

    series = {}  # solver -> (variant, precision) -> {n: updates_per_s}
    for path in a.files:
        try:
            with open(path, newline="") as f:
                for row in csv.DictReader(f):
                    key = (row["variant"], row["precision"])
                    series.setdefault(row["solver"], {}).setdefault(key, {})[int(row["n"])] = float(row["updates_per_s"])
        except (OSError, KeyError, ValueError) as e:
            sys.exit(f"plot_bench: {path}: not a cfdbench CSV ({e})")
    if not series:
        sys.exit("plot_bench: no rows in the given files")

    solvers = sorted(series)
    fig, axes = plt.subplots(1, len(solvers), figsize=(5 * len(solvers), 4), squeeze=False)
    for ax, solver in zip(axes[0], solvers):
        for (variant, precision), points in sorted(series[solver].items()):
            n = sorted(points)
            ax.loglog(n, [points[k] for k in n], "o-", label=f"{variant} {precision}")
        ax.set_title(solver)
        ax.set_xlabel("nodes" if solver == "sod" else "n (n x n cells)")
        ax.set_ylabel("cell-updates per second")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    if a.title:
        fig.suptitle(a.title)
    fig.tight_layout()
    fig.savefig(a.out, dpi=90)
    print("wrote", a.out)


if __name__ == "__main__":
    main()
