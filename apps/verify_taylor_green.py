#!/usr/bin/python3
"""verify_taylor_green: the peak of the kinetic-energy dissipation rate of a
Taylor-Green vortex run at Re 1600 (config/taylor_green.yaml) against the
published reference, beyond CI.

It reads the run's history, navier_stokes.hst (a run folder, or the file
itself), and takes from it:

- the peak of `dissipation_rate` (-dE_k/dt of the spatial operator, per
  rho0 V: what the reference measures) and of `viscous_dissipation`
  (2 (mu/rho0) times the mean enstrophy): the largest sample and a parabola
  through it and its two neighbours, whose vertex gives the value and the
  time between the samples;
- the relative error of that peak against the reference peak and the
  difference of the peak times: PASS when both are within the tolerances;
- the numerical dissipation, dissipation_rate - viscous_dissipation (the
  scheme's own dissipation, plus the pressure work at M 0.1): its
  time mean over the run and its value at the peak time (interpolated), both
  also as a fraction of the peak;
- with --reference FILE, a reference curve epsilon(t): the L1 difference
  (the time mean of |dissipation_rate - reference|) and the largest
  difference over the time range both cover, the reference interpolated
  linearly to the run's times.

The reference peak (defaults of --reference-peak and --reference-time):
epsilon_max = 0.0127 at t = 9.0, the peak of -dE_k/dt of the incompressible
spectral solution at 512^3 of van Rees, Leonard, Pullin and Koumoutsakos
(2011, "A comparison of vortex and pseudo-spectral methods for the
simulation of periodic vortical flows at high Reynolds numbers",
J. Comput. Phys. 230, 2794-2805), the reference data of the Taylor-Green
case of the 1st International Workshop on High-Order CFD Methods that
DeBonis (2013, "Solutions of the Taylor-Green vortex problem using
high-resolution explicit finite difference methods", AIAA 2013-0382)
tabulates and compares with. The reference is incompressible; the run
is at M 0.1.

examples:
  apps/verify_taylor_green.py tg.out
  apps/verify_taylor_green.py tg.out/navier_stokes.hst --json tg.json
  apps/verify_taylor_green.py tg.out --reference spectral_512.dat --plot tg.png

exit status: 0 PASS; 1 FAIL, or the peak cannot be judged (the run ends
before the reference peak time plus the time tolerance, or its dissipation
is still rising at its end, or not finite); 2 bad input (no such file, not
a navier_stokes history, a bad reference file, an output that cannot be
written).
"""
import argparse
import json
import math
import os
import sys

try:
    import numpy as np
except ImportError as e:  # a clean message, not a traceback
    sys.exit(f"verify_taylor_green: {e}: it needs numpy (Debian: python3-numpy; pip: pip install numpy)")

NAME = "verify_taylor_green"
HISTORY = "navier_stokes.hst"
EPSILON, VISCOUS = "dissipation_rate", "viscous_dissipation"
NEEDED = ("time", EPSILON, VISCOUS)
REFERENCE_SOURCE = "van Rees et al. 2011, spectral 512^3, as DeBonis 2013 tabulates"


def die(message):
    """Bad input: one line on stderr, exit status 2, never a traceback."""
    print("%s: error: %s" % (NAME, message), file=sys.stderr)
    sys.exit(2)


def read_text(path, what):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        die("%s: no such file" % path)
    except IsADirectoryError:
        die("%s: a folder, not %s" % (path, what))
    except OSError as e:
        die("%s: cannot read it (%s)" % (path, e.strerror or e))
    if b"\0" in raw:
        die("%s: not %s (binary data)" % (path, what))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        die("%s: not %s (not text)" % (path, what))


def history_path(path):
    """The history file of a run folder, or the file given."""
    if not os.path.isdir(path):
        if not os.path.exists(path):
            die("%s: no such file or folder" % path)
        return path
    hst = os.path.join(path, HISTORY)
    if os.path.isfile(hst):
        return hst
    others = sorted(f for f in os.listdir(path) if f.endswith(".hst"))
    if others:
        die("%s: no %s (it holds %s: not a navier_stokes run)" % (path, HISTORY, ", ".join(others)))
    die("%s: no %s in this folder (output.history_every 0, or not a run's output folder?)" % (path, HISTORY))


def read_history(path):
    """{column: float array} of the columns NEEDED; `#` lines are comments,
    the first other line the header, a last line without its newline (the
    run still writing) is left out."""
    lines = read_text(path, "a cfdrun history file").split("\n")
    lines.pop()
    names, rows = None, []
    for n, line in enumerate(lines, start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if names is None:
            names = [c.strip() for c in line.split(",")]
            if names[:2] != ["step", "time"]:
                die("%s:%d: not a cfdrun history header (expected step,time,dt,...; got %r)" % (path, n, line[:60]))
            missing = [c for c in NEEDED if c not in names]
            if missing:
                die("%s: no column %s in the header: not a navier_stokes history (the solver's history of "
                    "cfdrun before the energy budget?)" % (path, ", ".join(missing)))
            continue
        row = line.split(",")
        if len(row) != len(names):
            die("%s:%d: %d values, the header names %d columns" % (path, n, len(row), len(names)))
        try:
            numbers = [float(v) for v in row]
        except ValueError:
            die("%s:%d: not a row of numbers (%r)" % (path, n, line[:60]))
        rows.append([numbers[names.index(c)] for c in NEEDED])
    if names is None:
        die("%s: not a cfdrun history file (%s)" % (path, "no header line" if any(lines) else "empty"))
    if len(rows) < 3:
        die("%s: %d row(s) of history: the peak needs 3 or more (output.history_every)" % (path, len(rows)))
    data = np.array(rows)
    t = data[:, 0]
    if not np.all(np.isfinite(t)) or np.any(np.diff(t) <= 0):
        k = int(np.argmax(~np.isfinite(t[1:]) | (np.diff(t) <= 0))) + 1
        die("%s: the times do not increase (row %d: t = %r after %r)" % (path, k + 1, t[k], t[k - 1]))
    return {c: data[:, k] for k, c in enumerate(NEEDED)}


def read_reference(path):
    """(time, epsilon) of a reference curve: two numbers a line, separated
    by a comma or white space; empty lines and # comments skipped."""
    t, v = [], []
    for n, line in enumerate(read_text(path, "a reference file of time, epsilon lines").splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.replace(",", " ").split()
        try:
            if len(parts) != 2:
                raise ValueError
            a, b = float(parts[0]), float(parts[1])
            if not (math.isfinite(a) and math.isfinite(b)):
                raise ValueError
        except ValueError:
            die("%s:%d: not a line of two numbers, time and epsilon, separated by a comma or spaces (%r; "
                "comments start with #)" % (path, n, line[:60]))
        if t and a <= t[-1]:
            die("%s:%d: the times do not increase (t = %r after %r)" % (path, n, a, t[-1]))
        t.append(a)
        v.append(b)
    if len(t) < 2:
        die("%s: %d line(s) of time, epsilon: a reference curve needs 2 or more" % (path, len(t)))
    return np.array(t), np.array(v)


def peak(t, y):
    """(value, time, how) of the maximum of the samples y(t): the vertex of
    the parabola through the largest sample and its neighbours; None when
    the largest sample is the last (still rising)."""
    k = int(np.argmax(y))
    if k == len(y) - 1:
        return None
    if k == 0:
        return float(y[0]), float(t[0]), "the first sample"
    tc = t[k - 1:k + 2] - t[k]  # centred: a well-conditioned fit
    a, b, c = np.polyfit(tc, y[k - 1:k + 2], 2)
    if not a < 0:  # three samples on a line (a flat top): the sample itself
        return float(y[k]), float(t[k]), "the largest sample"
    return float(c - b * b / (4 * a)), float(t[k] - b / (2 * a)), \
        "parabola through t = %.4g, %.4g, %.4g" % tuple(t[k - 1:k + 2])


def time_mean(t, y):
    """The time average of y(t) over [t0, tN] (trapezoidal rule)."""
    return float(np.sum(0.5 * (y[1:] + y[:-1]) * np.diff(t)) / (t[-1] - t[0]))


def compare_reference(t, eps, rt, rv):
    """L1 (time mean |difference|) and max |difference| of eps against the
    reference over the times both cover; None when they share fewer than 2
    of the run's times."""
    inside = (t >= rt[0]) & (t <= rt[-1])
    if np.count_nonzero(inside) < 2:
        return None
    ti = t[inside]
    d = np.abs(eps[inside] - np.interp(ti, rt, rv))
    k = int(np.argmax(d))
    return {"from": float(ti[0]), "to": float(ti[-1]), "samples": int(len(ti)),
            "l1": time_mean(ti, d), "max": float(d[k]), "max_time": float(ti[k])}


def plot(path, h, reference, ref_peak, ref_time, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        die("--plot needs matplotlib (%s); install python3-matplotlib" % e)
    fig, ax = plt.subplots(figsize=(8, 5))
    ax.plot(h["time"], h[EPSILON], label="dissipation_rate (-dE_k/dt)")
    ax.plot(h["time"], h[VISCOUS], label="viscous_dissipation (2 nu enstrophy)")
    if reference is not None:
        ax.plot(reference[0], reference[1], "k--", lw=1.2, label="reference: " + reference[2])
    ax.plot([ref_time], [ref_peak], "k+", ms=12, mew=1.5, label="reference peak %g at t = %g" % (ref_peak, ref_time))
    ax.set_xlabel("t")
    ax.set_ylabel("dissipation rate")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=120)
    except (OSError, ValueError) as e:
        die("%s: cannot write the plot (%s)" % (path, getattr(e, "strerror", None) or e))
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(
        prog="apps/verify_taylor_green.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", metavar="RUN_DIR_OR_HST",
                   help="the run's output folder (holding %s), or that file" % HISTORY)
    p.add_argument("--reference-peak", type=float, default=0.0127, metavar="EPS",
                   help="the reference's peak dissipation rate (default 0.0127: van Rees et al. 2011, spectral 512^3)")
    p.add_argument("--reference-time", type=float, default=9.0, metavar="T",
                   help="the time of the reference's peak (default 9.0)")
    p.add_argument("--peak-tolerance", type=float, default=0.03, metavar="REL",
                   help="largest |relative error| of the peak value that passes (default 0.03)")
    p.add_argument("--time-tolerance", type=float, default=0.2, metavar="DT",
                   help="largest |difference| of the peak time that passes (default 0.2)")
    p.add_argument("--reference", metavar="FILE",
                   help="a reference curve: lines of time and epsilon separated by a comma or spaces, # comments; "
                        "reports the L1 and largest difference of dissipation_rate against it")
    p.add_argument("--plot", metavar="PNG", help="draw dissipation_rate and viscous_dissipation against time "
                   "(the --reference curve dashed black) into this picture")
    p.add_argument("--json", metavar="FILE", help="also write the results to this JSON file")
    a = p.parse_args()
    if not (a.reference_peak > 0 and math.isfinite(a.reference_peak)):
        p.error("--reference-peak must be a positive number, got %g" % a.reference_peak)
    if not math.isfinite(a.reference_time):
        p.error("--reference-time must be a number, got %g" % a.reference_time)
    for name in ("peak_tolerance", "time_tolerance"):
        value = getattr(a, name)
        if not (value >= 0 and math.isfinite(value)):
            p.error("--%s must be a number >= 0, got %g" % (name.replace("_", "-"), value))

    path = history_path(a.run)
    h = read_history(path)
    reference = None
    if a.reference:
        rt, rv = read_reference(a.reference)
        reference = (rt, rv, os.path.basename(a.reference))

    t, eps, visc = h["time"], h[EPSILON], h[VISCOUS]
    source = REFERENCE_SOURCE if (a.reference_peak, a.reference_time) == (0.0127, 9.0) else \
        "given by --reference-peak and --reference-time"
    result = {"history": path, "rows": int(len(t)), "time_start": float(t[0]), "time_end": float(t[-1]),
              "reference": {"peak": a.reference_peak, "time": a.reference_time, "source": source},
              "tolerances": {"peak": a.peak_tolerance, "time": a.time_tolerance}}
    print("%s: %s, %d rows, t = %g to %g" % (NAME, path, len(t), t[0], t[-1]))
    print("reference: epsilon_max = %g at t = %g (%s)" % (a.reference_peak, a.reference_time, source))

    bad = [c for c in (EPSILON, VISCOUS) if not np.all(np.isfinite(h[c]))]
    verdict, why = None, None
    if bad:
        k = int(np.argmax(~np.isfinite(h[bad[0]])))
        verdict, why = "cannot be judged", "%s is not finite from t = %g on: the run diverged" % (bad[0], t[k])
        finite = slice(0, max(k, 0))
    else:
        finite = slice(None)

    peaks = {}
    for name in (EPSILON, VISCOUS):
        got = peak(t[finite], h[name][finite]) if len(t[finite]) >= 3 else None
        peaks[name] = got
        result.setdefault("peaks", {})[name] = None if got is None else {"value": got[0], "time": got[1],
                                                                         "from": got[2]}
        if got is None:
            print("peak of %-19s: none, still rising at the run's end" % name)
        else:
            print("peak of %-19s: %.6g at t = %.4f (%s)" % (name, got[0], got[1], got[2]))

    gap = eps - visc
    if not bad:
        mean_gap = time_mean(t, gap)
        numerical = {"mean": mean_gap}
        print("numerical dissipation (dissipation_rate - viscous_dissipation, with the pressure work):")
        print("  time mean over t = %g to %g: %.4g" % (t[0], t[-1], mean_gap), end="")
        if peaks[EPSILON] is not None:
            value, when = peaks[EPSILON][:2]
            at_peak = float(np.interp(when, t, gap))
            numerical.update({"at_peak": at_peak, "mean_over_peak": mean_gap / value,
                              "at_peak_over_peak": at_peak / value})
            print(" (%.2f%% of the peak)" % (100 * mean_gap / value))
            print("  at the peak time t = %.4f: %.4g (%.2f%% of the peak)" % (when, at_peak, 100 * at_peak / value))
        else:
            print()
        result["numerical_dissipation"] = numerical

    if reference is not None:
        cmp = compare_reference(t, eps, reference[0], reference[1])
        if cmp is None:
            die("%s: covers t = %g to %g, the run %s t = %g to %g: fewer than 2 of the run's times in common"
                % (a.reference, reference[0][0], reference[0][-1], path, t[0], t[-1]))
        cmp["file"] = a.reference
        result["reference_curve"] = cmp
        print("against %s over t = %g to %g (%d samples): L1 (time mean |difference|) %.4g (%.2f%% of the "
              "reference peak), max |difference| %.4g at t = %.4f"
              % (a.reference, cmp["from"], cmp["to"], cmp["samples"], cmp["l1"], 100 * cmp["l1"] / a.reference_peak,
                 cmp["max"], cmp["max_time"]))

    judged_from = a.reference_time + a.time_tolerance
    if verdict is None and t[-1] < judged_from:
        verdict = "cannot be judged"
        why = ("the run ends at t = %g, before the reference peak time %g + the time tolerance %g = %g"
               % (t[-1], a.reference_time, a.time_tolerance, judged_from))
    elif verdict is None and peaks[EPSILON] is None:
        verdict, why = "cannot be judged", "dissipation_rate still rises at the run's end t = %g" % t[-1]
    if verdict is None:
        value, when = peaks[EPSILON][:2]
        rel = (value - a.reference_peak) / a.reference_peak
        dt = when - a.reference_time
        result.update({"relative_error": rel, "time_difference": dt})
        print("relative error of the peak value: %+.4f (%+.2f%%; tolerance %g)" % (rel, 100 * rel, a.peak_tolerance))
        print("peak time difference: %+.4f (tolerance %g)" % (dt, a.time_tolerance))
        ok = abs(rel) <= a.peak_tolerance and abs(dt) <= a.time_tolerance
        verdict = "pass" if ok else "fail"
        if ok:
            why = "peak %.6g at t = %.4f within %g (relative) and %g of %g at t = %g" % (
                value, when, a.peak_tolerance, a.time_tolerance, a.reference_peak, a.reference_time)
        else:
            outside = [w for w, out in (("the peak value is %+.2f%% off" % (100 * rel), abs(rel) > a.peak_tolerance),
                                        ("the peak time is %+.3f off" % dt, abs(dt) > a.time_tolerance)) if out]
            why = " and ".join(outside) + " (tolerances %g relative, %g in time)" % (a.peak_tolerance, a.time_tolerance)
    status = 0 if verdict == "pass" else 1
    result.update({"verdict": verdict, "reason": why, "exit_status": status})

    if a.plot:
        plot(a.plot, h, reference, a.reference_peak, a.reference_time,
             "Taylor-Green vortex, Re 1600: %s" % os.path.basename(os.path.dirname(os.path.abspath(path))))
        print("plot: %s" % a.plot)
    if a.json:
        try:
            with open(a.json, "w") as f:
                json.dump(result, f, indent=2)
                f.write("\n")
        except OSError as e:
            die("%s: cannot write the JSON (%s)" % (a.json, e.strerror or e))
    if verdict == "cannot be judged":
        print("CANNOT JUDGE: the peak cannot be judged: %s" % why)
    else:
        print("%s: %s" % (verdict.upper(), why))
    sys.exit(status)


if __name__ == "__main__":
    main()
