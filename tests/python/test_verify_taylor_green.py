"""apps/verify_taylor_green.py on navier_stokes histories it writes itself
(no cfdrun binary): the peak of a known curve to sub-sample accuracy, the
verdicts and their exit status (0 pass, 1 fail or cannot be judged, 2 bad
input naming the file), the numerical dissipation, the --reference
comparison, --json and --plot.
usage: test_verify_taylor_green.py [--work DIR] (needs numpy and matplotlib)"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.normpath(os.path.join(HERE, "..", "..", "apps", "verify_taylor_green.py"))

WORK = ""
if "--work" in sys.argv:  # ctest's --work DIR; the rest of the arguments are unittest's
    k = sys.argv.index("--work")
    WORK = sys.argv[k + 1] if k + 1 < len(sys.argv) else ""
    del sys.argv[k:k + 2]
    os.makedirs(WORK, exist_ok=True)

COLUMNS = ("step,time,dt,mass,mom_x,mom_y,mom_z,energy,kinetic_energy,enstrophy,entropy,dissipation_rate,"
           "viscous_dissipation,ke_rate_convection,ke_rate_pressure,ke_rate_viscous,entropy_rate,max_mach").split(",")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def gaussian(t, peak=0.0127, at=9.0, width=3.0):
    return peak * np.exp(-((t - at) / width) ** 2)


def history_text(t, eps, viscous=None, columns=COLUMNS):
    """A navier_stokes.hst with these times, dissipation_rate and
    viscous_dissipation (default eps - 2e-4); the other columns plausible."""
    viscous = eps - 2e-4 if viscous is None else viscous
    values = {"step": np.arange(len(t)) * 10, "time": t, "dt": np.gradient(t) / 10, "mass": 248.05 + 0 * t,
              "energy": 44325.7 + 0 * t, "kinetic_energy": 0.125 - 0.01 * t, "enstrophy": viscous * 800,
              "entropy": 2647.1 + 0 * t, "dissipation_rate": eps, "viscous_dissipation": viscous,
              "max_mach": 0.1 + 0 * t}
    lines = ["# cfdrun navier_stokes history: a synthetic one", ",".join(columns)]
    for k in range(len(t)):
        row = [str(int(values["step"][k]))] + ["%.16e" % values.get(c, 0 * t)[k] for c in columns[1:]]
        lines.append(",".join(row))
    return "\n".join(lines) + "\n"


class VerifyTaylorGreen(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="verify-taylor-green-", dir=WORK or None)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def write(self, name, content):
        path = os.path.join(self.folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(content)
        return path

    def run_dir(self, name, t, eps, viscous=None):
        """A run folder holding navier_stokes.hst."""
        self.write(os.path.join(name, "navier_stokes.hst"), history_text(t, eps, viscous))
        return os.path.join(self.folder, name)

    def verify(self, *args):
        """(exit status, stdout, stderr, the --json results)."""
        out = os.path.join(self.folder, "result_%d.json" % id(args))
        if os.path.exists(out):
            os.remove(out)
        done = subprocess.run([sys.executable, SCRIPT, *args, "--json", out], capture_output=True, text=True)
        self.assertNotIn("Traceback", done.stderr)
        result = None
        if os.path.exists(out):
            with open(out) as f:
                result = json.load(f)
        return done.returncode, done.stdout, done.stderr, result

    def test_peak_of_a_gaussian_passes(self):
        t = np.round(np.arange(0, 201) * 0.1, 12)  # every 0.1 to t = 20: a sample on the peak
        status, out, err, r = self.verify(self.run_dir("gauss", t, gaussian(t)))
        self.assertEqual(status, 0, out + err)
        peak = r["peaks"]["dissipation_rate"]
        self.assertAlmostEqual(peak["value"], 0.0127, delta=1e-5)
        self.assertAlmostEqual(peak["time"], 9.0, delta=0.01)
        self.assertLess(abs(r["relative_error"]), 1e-3)
        self.assertLess(abs(r["time_difference"]), 0.01)
        self.assertEqual(r["verdict"], "pass")
        self.assertIn("PASS", out)
        # viscous_dissipation = eps - 2e-4: its peak is 2e-4 lower, at the same time.
        self.assertAlmostEqual(r["peaks"]["viscous_dissipation"]["value"], 0.0125, delta=1e-5)
        self.assertAlmostEqual(r["peaks"]["viscous_dissipation"]["time"], 9.0, delta=0.01)

    def test_parabola_finds_the_peak_between_samples(self):
        # Samples every 0.5 from 0.25: the largest samples are 8.75 and 9.25,
        # a quarter step from the peak; the parabola's vertex is much nearer.
        t = 0.25 + 0.5 * np.arange(40)
        eps = gaussian(t)
        self.assertLess(eps.max(), 0.0127 - 8e-5)
        status, out, err, r = self.verify(self.run_dir("coarse", t, eps))
        self.assertEqual(status, 0, out + err)
        self.assertAlmostEqual(r["peaks"]["dissipation_rate"]["value"], 0.0127, delta=1e-5)
        self.assertAlmostEqual(r["peaks"]["dissipation_rate"]["time"], 9.0, delta=0.01)
        self.assertRegex(r["peaks"]["dissipation_rate"]["from"],
                         r"parabola through t = (8.25, 8.75, 9.25|8.75, 9.25, 9.75)")
        # And on unequal steps (0.1 then 0.13): the parabola of three unevenly spaced samples.
        t = np.cumsum(np.where(np.arange(150) % 2, 0.1, 0.13))
        status, out, err, r = self.verify(self.run_dir("uneven", t, gaussian(t, at=9.02)))
        self.assertEqual(status, 0, out + err)
        self.assertAlmostEqual(r["peaks"]["dissipation_rate"]["value"], 0.0127, delta=1e-5)
        self.assertAlmostEqual(r["peaks"]["dissipation_rate"]["time"], 9.02, delta=0.01)

    def test_low_peak_fails_with_its_relative_error(self):
        t = np.round(np.arange(0, 201) * 0.1, 12)
        status, out, err, r = self.verify(self.run_dir("low", t, gaussian(t, peak=0.0120)))
        self.assertEqual(status, 1, out + err)
        m = re.search(r"relative error of the peak value: ([-+0-9.]+)", out)
        self.assertIsNotNone(m, out)
        expected = (0.0120 - 0.0127) / 0.0127  # -0.0551
        self.assertAlmostEqual(float(m.group(1)), expected, delta=1e-4)
        self.assertAlmostEqual(r["relative_error"], expected, delta=1e-5)
        self.assertIn("FAIL", out)
        self.assertIn("-5.51%", out)
        self.assertEqual(r["verdict"], "fail")
        # Within a looser tolerance it passes.
        status, out, _, _ = self.verify(self.run_dir("low", t, gaussian(t, peak=0.0120)), "--peak-tolerance", "0.06")
        self.assertEqual(status, 0, out)

    def test_late_peak_fails_on_time(self):
        t = np.round(np.arange(0, 201) * 0.1, 12)
        status, out, err, r = self.verify(self.run_dir("late", t, gaussian(t, at=9.5)))
        self.assertEqual(status, 1, out + err)
        self.assertAlmostEqual(r["time_difference"], 0.5, delta=0.01)
        self.assertIn("the peak time is +0.500 off", out)
        # The reference time moved to 9.5 by the option: a pass.
        status, out, _, r = self.verify(self.run_dir("late", t, gaussian(t, at=9.5)), "--reference-time", "9.5")
        self.assertEqual(status, 0, out)
        self.assertEqual(r["reference"]["time"], 9.5)

    def test_short_run_cannot_be_judged(self):
        t = np.round(np.arange(0, 51) * 0.1, 12)  # ends at t = 5
        status, out, err, r = self.verify(self.run_dir("short", t, gaussian(t)))
        self.assertEqual(status, 1, out + err)
        self.assertIn("cannot be judged", out)
        self.assertIn("the run ends at t = 5, before the reference peak time 9 + the time tolerance 0.2 = 9.2", out)
        self.assertEqual(r["verdict"], "cannot be judged")
        self.assertIsNone(r["peaks"]["dissipation_rate"])  # still rising at t = 5
        # Ending past 9.2 but still rising (a peak at 12): cannot be judged either.
        t = np.round(np.arange(0, 111) * 0.1, 12)
        status, out, _, r = self.verify(self.run_dir("rising", t, gaussian(t, at=12)))
        self.assertEqual(status, 1, out)
        self.assertIn("dissipation_rate still rises at the run's end t = 11", out)

    def test_numerical_dissipation(self):
        t = np.round(np.arange(0, 201) * 0.1, 12)
        eps = gaussian(t)
        # A gap of 2e-4 + 1e-5 t: time mean 2e-4 + 1e-5 * 10 = 3e-4, 2.9e-4 at the peak t = 9.
        status, out, err, r = self.verify(self.run_dir("gap", t, eps, eps - (2e-4 + 1e-5 * t)))
        self.assertEqual(status, 0, out + err)
        n = r["numerical_dissipation"]
        self.assertAlmostEqual(n["mean"], 3e-4, delta=1e-12)
        self.assertAlmostEqual(n["at_peak"], 2.9e-4, delta=1e-8)
        self.assertAlmostEqual(n["at_peak_over_peak"], 2.9e-4 / 0.0127, delta=1e-5)
        self.assertAlmostEqual(n["mean_over_peak"], 3e-4 / 0.0127, delta=1e-5)
        self.assertIn("time mean over t = 0 to 20: 0.0003 (2.36% of the peak)", out)
        self.assertIn("at the peak time t = 9.0000: 0.00029 (2.28% of the peak)", out)

    def test_reference_curve(self):
        t = np.round(np.arange(0, 201) * 0.1, 12)
        eps = gaussian(t)
        run = self.run_dir("ref", t, eps)
        same = self.write("same.dat", "# time epsilon\n" + "".join("%.17g %.17g\n" % p for p in zip(t, eps)))
        status, out, err, r = self.verify(run, "--reference", same)
        self.assertEqual(status, 0, out + err)
        c = r["reference_curve"]
        self.assertEqual((c["l1"], c["max"]), (0.0, 0.0))
        self.assertEqual((c["from"], c["to"], c["samples"]), (0.0, 20.0, 201))
        # A constant offset of 5e-4, comma separated, over t = 3 to 15 only.
        inside = (t >= 3) & (t <= 15)
        shifted = self.write("shifted.csv", "time,epsilon\n".replace("time", "# time") +
                             "".join("%.17g, %.17g\n" % (a, b + 5e-4) for a, b in zip(t[inside], eps[inside])))
        status, out, err, r = self.verify(run, "--reference", shifted)
        self.assertEqual(status, 0, out + err)
        c = r["reference_curve"]
        self.assertAlmostEqual(c["l1"], 5e-4, delta=1e-12)
        self.assertAlmostEqual(c["max"], 5e-4, delta=1e-12)
        self.assertEqual((c["from"], c["to"], c["samples"]), (3.0, 15.0, 121))
        self.assertIn("over t = 3 to 15 (121 samples): L1 (time mean |difference|) 0.0005 (3.94% of the reference "
                      "peak)", out)
        # A linear reference on other times: interpolated exactly, the L1 of a known difference.
        rt = np.linspace(-1, 21, 12)
        line = self.write("line.dat", "".join("%.17g\t%.17g\n" % (a, 1e-3 * a) for a in rt))
        status, out, err, r = self.verify(run, "--reference", line)
        d = np.abs(eps - 1e-3 * t)
        l1 = np.sum(0.5 * (d[1:] + d[:-1]) * np.diff(t)) / 20
        self.assertAlmostEqual(r["reference_curve"]["l1"], l1, delta=1e-12)
        self.assertAlmostEqual(r["reference_curve"]["max"], d.max(), delta=1e-12)

    def test_plot(self):
        t = np.round(np.arange(0, 201) * 0.1, 12)
        eps = gaussian(t)
        run = self.run_dir("plot", t, eps)
        ref = self.write("plot_ref.dat", "".join("%g,%g\n" % (a, gaussian(a, peak=0.013)) for a in t[::5]))
        png = os.path.join(self.folder, "tg.png")
        status, out, err, _ = self.verify(run, "--reference", ref, "--plot", png)
        self.assertEqual(status, 0, out + err)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), PNG_SIGNATURE)
        self.assertGreater(os.path.getsize(png), 10000)
        status, _, err, _ = self.verify(run, "--plot", os.path.join(self.folder, "no", "such", "folder.png"))
        self.assertEqual(status, 2)
        self.assertIn("folder.png: cannot write the plot", err)

    def test_the_file_itself_and_a_growing_file(self):
        t = np.round(np.arange(0, 201) * 0.1, 12)
        run = self.run_dir("direct", t, gaussian(t))
        hst = os.path.join(run, "navier_stokes.hst")
        status, out, err, r = self.verify(hst)
        self.assertEqual(status, 0, out + err)
        self.assertEqual(r["history"], hst)
        self.assertEqual(r["rows"], 201)
        # A last line without its newline (the run still writing it) is left out.
        with open(hst, "a") as f:
            f.write("2010,20.1,0.01,248")
        status, out, err, r = self.verify(hst)
        self.assertEqual((status, r["rows"]), (0, 201), out + err)

    def test_bad_input_exits_2_naming_the_file(self):
        missing = os.path.join(self.folder, "nothing_here")
        status, out, err, r = self.verify(missing)
        self.assertEqual(status, 2)
        self.assertIn(missing + ": no such file", err)
        self.assertIsNone(r)
        empty = os.path.join(self.folder, "empty_run")
        os.makedirs(empty, exist_ok=True)
        status, _, err, _ = self.verify(empty)
        self.assertEqual(status, 2)
        self.assertIn(empty + ": no navier_stokes.hst", err)
        self.write("euler_run/euler.hst", "step,time,dt,mass\n0,0,0,1\n")
        status, _, err, _ = self.verify(os.path.join(self.folder, "euler_run"))
        self.assertEqual(status, 2)
        self.assertIn("it holds euler.hst: not a navier_stokes run", err)
        # A history without the columns.
        t = np.arange(0, 100) * 0.1
        columns = [c for c in COLUMNS if c not in ("dissipation_rate", "viscous_dissipation")]
        old = self.write("old/navier_stokes.hst", history_text(t, gaussian(t), columns=columns))
        status, _, err, _ = self.verify(old)
        self.assertEqual(status, 2)
        self.assertIn(old + ": no column dissipation_rate, viscous_dissipation in the header", err)
        for name, content, said in [
                ("text.hst", "hello\n", "text.hst:1: not a cfdrun history header"),
                ("blank.hst", "", "blank.hst: not a cfdrun history file (empty)"),
                ("binary.hst", "step\0time\n", "binary.hst: not a cfdrun history file (binary data)"),
                ("word.hst", history_text(t[:5], gaussian(t[:5])).replace("e-02", "x", 1),
                 "word.hst:3: not a row of numbers"),
                ("two.hst", history_text(t[:2], gaussian(t[:2])), "two.hst: 2 row(s) of history"),
                ("back.hst", history_text(np.array([0, 1, 0.5, 2]), gaussian(np.arange(4.0))),
                 "back.hst: the times do not increase (row 3: t = 0.5 after 1.0)")]:
            path = self.write(name, content)
            status, _, err, _ = self.verify(path)
            self.assertEqual(status, 2, name)
            self.assertIn(said, err, name)
        # Bad reference files and option values.
        run = self.run_dir("good", np.arange(0, 201) * 0.1, gaussian(np.arange(0, 201) * 0.1))
        for name, content, said in [("three.dat", "0 1 2\n", "three.dat:1: not a line of two numbers"),
                                    ("one.dat", "# only\n1 2\n", "one.dat: 1 line(s) of time, epsilon"),
                                    ("far.dat", "30 1\n31 1\n", "fewer than 2 of the run's times in common")]:
            status, _, err, _ = self.verify(run, "--reference", self.write(name, content))
            self.assertEqual(status, 2, name)
            self.assertIn(said, err, name)
        status, _, err, _ = self.verify(run, "--reference", os.path.join(self.folder, "no.dat"))
        self.assertEqual(status, 2)
        self.assertIn("no.dat: no such file", err)
        status, _, err, _ = self.verify(run, "--peak-tolerance", "-1")
        self.assertEqual(status, 2)
        self.assertIn("--peak-tolerance must be a number >= 0", err)

    def test_help_names_the_reference(self):
        done = subprocess.run([sys.executable, SCRIPT, "--help"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0)
        for words in ("van Rees, Leonard, Pullin and Koumoutsakos", "J. Comput. Phys. 230", "AIAA 2013-0382",
                      "--reference-peak", "--time-tolerance", "exit status"):
            self.assertIn(words, done.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
