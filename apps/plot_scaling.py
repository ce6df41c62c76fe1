#!/usr/bin/python3
"""plot_scaling: throughput against rank count from cfdbench CSV files.

One panel per series: a solver, variant and precision at one size n, weak
(n per rank, `cfdbench --per-rank`) or strong (n for the whole grid). Each
rank count is a bar of cell-updates per second over the whole grid, with its
value and the halo time per step (`halo_ms`, the slowest rank's) written
inside; a dashed line marks ideal scaling, N times the one-rank rate, and
the label above the bar is the efficiency rate(N) / (N x rate(1)), which is
both the weak efficiency and the strong speed-up divided by N.

The CSV rows do not say whether a run was weak or strong; the script tells
them apart from the updates a step, updates_per_s x loop_s / steps: about
N x n^2 (n for sod) on N ranks is weak, about n^2 strong. A one-rank row at n
is the reference of both kinds. Series without a one-rank row, and one-rank
rows without a several-rank row, are left out. Rows with the same solver,
variant, precision, n, kind and rank count keep the last one read. Panels
follow the solvers in the order the files name them.

usage: apps/plot_scaling.py FILE.csv [FILE.csv ...] --out scaling.png [--rank-name GPU] [--title TEXT]
"""
import argparse
import csv
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as e:  # a clean message, not a traceback (ctest runs it through tests/needs.sh)
    sys.exit(f"plot_scaling: {e}: it needs matplotlib (Debian: python3-matplotlib)")


def short(v):
    """3.94e9 rather than 3.94e+09."""
    m, e = f"{v:.2e}".split("e")
    return f"{m}e{int(e)}"


def kind_of(row):
    """'weak' or 'strong' for a row on several ranks, from its updates a step."""
    n, ranks = int(row["n"]), int(row["ranks"])
    per_step = float(row["updates_per_s"]) * float(row["loop_s"]) / int(row["steps"])
    whole = n if row["solver"] == "sod" else n * n
    # Weak runs update about ranks x whole (a little less: diffusion's
    # interior variants leave the edges), strong ones about whole.
    return "weak" if per_step / whole > (1 + ranks) / 2 else "strong"


def read(paths):
    rows = []
    for path in paths:
        try:
            with open(path, newline="") as f:
                for row in csv.DictReader(f):
                    if row.get("ranks") in (None, ""):
                        sys.exit(f"plot_scaling: {path}: no ranks column (written by a cfdbench without one)")
                    rows.append(row)
        except (OSError, KeyError, ValueError) as e:
            sys.exit(f"plot_scaling: {path}: not a cfdbench CSV ({e})")
    return rows


def series_of(rows):
    """(solver, variant, precision, n, kind) -> {ranks: row}."""
    single, several = {}, {}
    try:
        for row in rows:
            key = (row["solver"], row["variant"], row["precision"], int(row["n"]))
            ranks = int(row["ranks"])
            if ranks == 1:
                single[key] = row
            else:
                several.setdefault(key + (kind_of(row),), {})[ranks] = row
    except (KeyError, ValueError, ZeroDivisionError) as e:
        sys.exit(f"plot_scaling: a row is not a cfdbench row ({e})")
    out = {}
    for key, by_ranks in several.items():
        if key[:4] in single:
            out[key] = {1: single[key[:4]], **by_ranks}
    return out


def panel(ax, key, points, rank_name):
    solver, variant, precision, n, kind = key
    ranks = sorted(points)
    rate = {r: float(points[r]["updates_per_s"]) for r in ranks}
    x = list(range(len(ranks)))
    ax.bar(x, [rate[r] for r in ranks], width=0.6, color="tab:blue", alpha=0.85, label="measured")
    for xi, r in zip(x, ranks):
        ideal = r * rate[1]
        ax.plot([xi - 0.38, xi + 0.38], [ideal, ideal], "k--", lw=1.2, label="ideal (N x 1-rank rate)" if xi == 0 else None)
        if r > 1:
            ax.annotate(f"{100 * rate[r] / ideal:.1f}%", (xi, max(ideal, rate[r])), xytext=(0, 4),
                        textcoords="offset points", ha="center", va="bottom", fontsize=10, fontweight="bold")
        text = f"{short(rate[r])}/s"
        halo = float(points[r].get("halo_ms") or 0)
        if halo > 0:
            text += f"\n\nhalo\n{halo:.2f} ms\nper step"
        ax.text(xi, rate[r] / 2, text, ha="center", va="center", fontsize=8, color="white")
    ax.set_xticks(x)
    ax.set_xticklabels([f"{r} {rank_name}{'s' if r > 1 else ''}" for r in ranks])
    size = f"{n}" if solver == "sod" else f"{n}^2"
    where = f"{size} per {rank_name}" if kind == "weak" else f"{size} in all"
    ax.set_title(f"{solver} {variant} {precision}\n{kind} scaling, {where}", fontsize=10)
    ax.set_ylabel("cell-updates per second (whole grid)")
    top = max(max(rate.values()), ranks[-1] * rate[1])
    ax.set_ylim(0, top * 1.15)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="cfdbench --csv outputs (one rank and several)")
    ap.add_argument("--out", required=True, help="image to write (png, pdf, svg)")
    ap.add_argument("--rank-name", default="rank", help="what one rank is called on the axis, e.g. GPU")
    ap.add_argument("--title", default="", help="figure title")
    a = ap.parse_args()

    # Solvers in the order read; weak before strong, then variant, n, fp64 first.
    rows = read(a.files)
    order = list(dict.fromkeys(row["solver"] for row in rows))
    series = series_of(rows)
    if not series:
        sys.exit("plot_scaling: no series with both a one-rank row and a several-rank row at the same n")
    keys = sorted(series, key=lambda k: (order.index(k[0]), k[4] != "weak", k[1], k[3], k[2] != "fp64"))
    cols = min(len(keys), 2)
    nrows = (len(keys) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 4.3 * nrows), squeeze=False)
    for ax, key in zip(axes.flat, keys):
        panel(ax, key, series[key], a.rank_name)
    for ax in list(axes.flat)[len(keys):]:
        ax.set_visible(False)
    if a.title:
        fig.suptitle(a.title)
    fig.tight_layout()
    fig.savefig(a.out, dpi=90)
    print("wrote", a.out)
    for key in keys:
        p = series[key]
        r1 = float(p[1]["updates_per_s"])
        effs = ", ".join(f"{r}: {short(float(p[r]['updates_per_s']))} ({100 * float(p[r]['updates_per_s']) / (r * r1):.1f}%)"
                         for r in sorted(p) if r > 1)
        print(f"  {' '.join(map(str, key))}: 1 rank {short(r1)}; {effs}")


if __name__ == "__main__":
    main()
