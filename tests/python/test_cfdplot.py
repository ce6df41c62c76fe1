"""cfdplot (apps/cfdplot.py) on real runs: --log colours span the data,
values <= 0 get their own colour and a note, axes are named after the
coordinates, --history draws the history (with reference curves over
it), and bad files and output names end in one line on stderr with exit
status 2.
usage: test_cfdplot.py --cfdrun BIN [--work DIR] (needs matplotlib)
The HistoryFiles tests write their own small files and need no binary:
without --cfdrun or CFDRUN the others are skipped (also under pytest:
/usr/bin/python3 -m pytest tests/python/test_cfdplot.py)."""
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import h5py
import matplotlib.image
import numpy as np

import support

HAVE_CFDRUN = "--cfdrun" in sys.argv or bool(os.environ.get("CFDRUN"))
if HAVE_CFDRUN:
    support.take_arguments()
needs_cfdrun = unittest.skipUnless(HAVE_CFDRUN, "needs the cfdrun binary (--cfdrun BIN or CFDRUN=BIN)")

COLOURED = re.compile(r"\((\w+) coloured from ([-0-9.e+]+) to ([-0-9.e+]+)(, log scale)?")
UNDER_RGB = np.array([0x2B, 0x83, 0xE0]) / 255  # cfdplot's UNDER_COLOUR


def last_snapshot(name):
    return sorted(glob.glob(os.path.join(support.run(name), support.SOLVER[name] + "_[0-9]*.h5")))[-1]


def work(name):
    path = os.path.join(support.WORK, name)
    os.makedirs(path, exist_ok=True)
    return path


@needs_cfdrun
class LogColours(unittest.TestCase):
    def colour_range(self, stdout):
        m = COLOURED.search(stdout)
        self.assertIsNotNone(m, stdout)
        return m.group(1), float(m.group(2)), float(m.group(3)), bool(m.group(4))

    def test_kh_rho_range_is_the_data_range(self):
        # KH's rho lies between about 1 and 2, less than a decade: the
        # colours must span exactly that, not 0.99 to 9.9.
        f = last_snapshot("kh")
        with h5py.File(f, "r") as h:
            rho = h["fields/rho"][...]
        out = os.path.join(work("plots"), "kh_log.png")
        status, stdout, stderr = support.cfdplot(f, "--log", "-o", out)
        self.assertEqual(status, 0, stderr)
        name, lo, hi, log = self.colour_range(stdout)
        self.assertEqual((name, log), ("rho", True))
        self.assertLess(rho.max() / rho.min(), 10)
        # Printed with 6 digits: within 1e-5 of the data's own extremes.
        self.assertAlmostEqual(lo / rho.min(), 1, delta=1e-5)
        self.assertAlmostEqual(hi / rho.max(), 1, delta=1e-5)
        self.assertNotIn("<= 0", stdout)
        self.assertGreater(os.path.getsize(out), 10000)
        # Linear: the same range.
        status, stdout, _ = support.cfdplot(f, "-o", os.path.join(work("plots"), "kh_lin.png"))
        name, lo, hi, log = self.colour_range(stdout)
        self.assertFalse(log)
        self.assertAlmostEqual(lo / rho.min(), 1, delta=1e-5)
        self.assertAlmostEqual(hi / rho.max(), 1, delta=1e-5)

    def test_zeros_are_coloured_and_counted(self):
        # The diffusion spike after 12 steps: u > 0 in a diamond around the
        # centre, exactly 0 outside it.
        f = last_snapshot("diffusion")
        with h5py.File(f, "r") as h:
            u = h["fields/u"][...]
        zeros = int(np.count_nonzero(u == 0))
        self.assertGreater(zeros, 100)
        self.assertFalse((u < 0).any())
        out = os.path.join(work("plots"), "diffusion_log.png")
        status, stdout, stderr = support.cfdplot(f, "--log", "-o", out)
        self.assertEqual(status, 0, stderr)
        self.assertIn(f"blue: {zeros} points with u <= 0 (not on the log scale)", stdout)
        name, lo, hi, _ = self.colour_range(stdout)
        positive = u[u > 0]
        self.assertGreaterEqual(lo, positive.min() * (1 - 1e-5))
        self.assertAlmostEqual(hi / u.max(), 1, delta=1e-5)
        # The zeros are drawn in the under colour, not left white.
        rgb = matplotlib.image.imread(out)[..., :3]
        under = np.all(np.abs(rgb - UNDER_RGB) < 0.02, axis=-1)
        self.assertGreater(int(under.sum()), 1000)
        # Without --log the zeros are ordinary values: no under colour.
        out = os.path.join(work("plots"), "diffusion_lin.png")
        status, stdout, _ = support.cfdplot(f, "-o", out)
        self.assertEqual(status, 0)
        self.assertNotIn("<= 0", stdout)
        rgb = matplotlib.image.imread(out)[..., :3]
        self.assertLess(int(np.all(np.abs(rgb - UNDER_RGB) < 0.02, axis=-1).sum()), 50)

    def test_sod_1d_log_marks_nothing_when_all_positive(self):
        status, stdout, stderr = support.cfdplot(last_snapshot("sod"), "--log", "-o",
                                                 os.path.join(work("plots"), "sod_log.png"))
        self.assertEqual(status, 0, stderr)
        self.assertTrue(stdout.startswith("wrote "), stdout)


@needs_cfdrun
class AxisLabels(unittest.TestCase):
    def test_labels_name_the_coordinates(self):
        # SVG keeps each text as a comment beside its glyphs.
        for name, labels in (("kh", ["x coordinate of the cell centres", "y coordinate of the cell centres"]),
                             ("diffusion", ["x coordinate of the points [dx (point index)]",
                                            "y coordinate of the points [dx (point index)]"]),
                             ("sod", ["x coordinate of the cell centres [Lx (the tube"])):
            out = os.path.join(work("plots"), name + ".svg")
            status, _, stderr = support.cfdplot(last_snapshot(name), "-o", out)
            self.assertEqual(status, 0, stderr)
            with open(out) as f:
                texts = re.findall(r"<!-- (.*?) -->", f.read())
            for label in labels:
                self.assertTrue(any(t.startswith(label) for t in texts), f"{name}: no {label!r} in {texts}")


@needs_cfdrun
class OneCellAcross(unittest.TestCase):
    def test_a_tube_one_cell_across_is_drawn_as_lines(self):
        # euler with grid.nx = 1: the fields' shape is (ny, 1); cfdplot
        # draws a panel a field along y (as the sod solver's 1D files), not
        # a one-pixel-wide image.
        f = last_snapshot("tube_y")
        with h5py.File(f, "r") as h:
            self.assertEqual(h["fields/rho"].shape, (64, 1))
        out = os.path.join(work("plots"), "tube_y.svg")
        status, stdout, stderr = support.cfdplot(f, "-o", out)
        self.assertEqual(status, 0, stderr)
        self.assertNotIn("coloured", stdout)  # lines, not a colour map
        with open(out) as fh:
            texts = re.findall(r"<!-- (.*?) -->", fh.read())
        self.assertTrue(any(t.startswith("y coordinate of the cell centres") for t in texts), texts)
        self.assertTrue(any(t.startswith("rho") for t in texts), texts)


@needs_cfdrun
class History(unittest.TestCase):
    def test_history_picture(self):
        hst = os.path.join(support.run("kh"), "euler.hst")
        out = os.path.join(work("plots"), "kh_history.png")
        status, stdout, stderr = support.cfdplot("--history", hst, "--columns", "mass,kh_mode_amplitude", "--log",
                                                 "-o", out)
        self.assertEqual(status, 0, stderr)
        with open(hst) as f:
            rows = sum(1 for line in f if line[0].isdigit())
        self.assertIn(f"wrote {out}: mass, kh_mode_amplitude of {rows} rows, t = 0 to 0.06", stdout)
        self.assertGreater(os.path.getsize(out), 10000)
        # Default: every column after step, time, dt, beside the file.
        copy = os.path.join(work("plots"), "sod.hst")
        shutil.copy(os.path.join(support.run("sod"), "sod.hst"), copy)
        status, stdout, stderr = support.cfdplot("--history", copy)
        self.assertEqual(status, 0, stderr)
        self.assertIn("interior_mass, interior_energy of", stdout)
        self.assertTrue(os.path.exists(os.path.join(work("plots"), "sod.png")))


def check_clean_error(test, args, message, cwd):
    """cfdplot ARGS, run in CWD, fails with status 2 and one line
    "cfdplot: error: ..." holding MESSAGE, no traceback."""
    status, stdout, stderr = support.cfdplot(*args, cwd=cwd)
    test.assertEqual(status, 2, f"{args}: {stdout}{stderr}")
    test.assertNotIn("Traceback", stderr)
    lines = stderr.splitlines()
    test.assertEqual(len(lines), 1, f"{args}: {stderr}")
    test.assertTrue(lines[0].startswith("cfdplot: error: "), stderr)
    test.assertIn(message, lines[0])


@needs_cfdrun
class CleanErrors(unittest.TestCase):
    def check(self, args, message):
        check_clean_error(self, args, message, work("errors"))

    def test_bad_input_files(self):
        folder = work("errors")
        real = last_snapshot("kh")
        with open(real, "rb") as f:
            content = f.read()
        files = {"empty.h5": b"", "text.h5": b"rho = 1\n", "truncated.h5": content[:4096],
                 "half.h5": content[:len(content) // 2]}
        for name, data in files.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        with open(os.path.join(folder, "bad.hst"), "w") as f:
            f.write("# cfdrun\nstep,time,dt,mass\n0,0,0,1\n1,zz,0,1\n")
        with open(os.path.join(folder, "bad.xdmf"), "w") as f:
            f.write("<Xdmf><Domain>")
        checkpoint = glob.glob(os.path.join(support.run("kh"), "checkpoint_*.h5"))[0]
        self.check(["empty.h5"], "empty.h5: cannot read it as HDF5 (an empty file)")
        self.check(["text.h5"], "text.h5: cannot read it as HDF5")
        self.check(["truncated.h5"], "truncated.h5: ")
        self.check(["half.h5"], "half.h5: ")
        self.check(["missing.h5"], "missing.h5: no such file")
        self.check([folder], "a folder, not a snapshot file")
        self.check([checkpoint], "a cfdrun checkpoint, not a snapshot")
        self.check(["bad.xdmf"], "bad.xdmf: cannot read it as an XDMF index")
        self.check([os.path.join(support.run("kh"), "euler.hst")], "a history file, not a snapshot; draw it with")
        self.check(["--history", "bad.hst"], "bad.hst:4: not a row of numbers")
        self.check(["--history", "empty.h5"], "empty.h5: not a cfdrun history file (an empty file)")
        self.check(["--history", real], "not a cfdrun history file (binary data)")
        self.check(["--history", os.path.join(support.run("kh"), "euler.hst"), "--columns", "nope"],
                   "no column 'nope' (columns: step, time, dt, mass,")
        self.check([real, "-f", "nope"], "no field 'nope' (fields: p, rho, vx, vy, vz)")
        self.check([real, "-f", "density"], "no field 'density' (fields: p, rho, vx, vy, vz); did you mean 'rho'?")
        self.check([real, "-f", "vxx"], "did you mean 'vx'?")
        self.check([real, "-f", "P"], "did you mean 'p'?")
        self.check([], "no snapshot given")
        self.check([real, "--zoom", "x"], "argument --zoom: invalid int value: 'x'")

    def test_version(self):
        with open(os.path.join(support.SOURCE, "CMakeLists.txt")) as f:
            version = re.search(r"project\(cfdrun VERSION ([0-9.]+)", f.read()).group(1)
        status, stdout, stderr = support.cfdplot("--version")
        self.assertEqual(status, 0, stderr)
        self.assertTrue(stdout.startswith(f"cfdplot {version} (the cfdrun Python package in "), stdout)

    def test_long_domains_fill_the_picture(self):
        # 8 x 1 and 1 x 16 boxes: the picture takes the domain's shape
        # (wider than tall, taller than wide) instead of a strip in a square.
        folder = work("long")
        for name, sets, wide in (("long", ["grid.nx=64", "grid.ny=8", "kh_mcnally.x_max=8"], True),
                                 ("tall", ["grid.nx=4", "grid.ny=64", "kh_mcnally.y_max=16",
                                           "kh_mcnally.y_lower=4", "kh_mcnally.y_upper=12"], False)):
            out = os.path.join(folder, name + ".out")
            command = [support.CFDRUN, os.path.join(support.CONFIG, "kh.yaml"), "-q", "--output", out, "--overwrite",
                       "--set", "time.steps=1", "--set", "time.end_time=0"]
            for s in sets:
                command += ["--set", s]
            subprocess.run(command, check=True, capture_output=True)
            picture = os.path.join(folder, name + ".png")
            status, _, stderr = support.cfdplot(os.path.join(out, "euler_00000001.h5"), "-o", picture)
            self.assertEqual(status, 0, stderr)
            height, width = matplotlib.image.imread(picture).shape[:2]
            if wide:
                self.assertGreater(width, 2.5 * height)
            else:
                self.assertGreater(height, 1.8 * width)

    def test_files_that_crash_or_stall_hdf5(self):
        # HDF5 1.10 crashes (SIGSEGV) on one and goes round in circles
        # reading an attribute of the other (tests/cases, as cfdinfo's
        # tests use them): cfdplot reads in a guarded child and says so in
        # one line, status 2, in about 10 s at the most.
        cases = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cases")
        crash = os.path.normpath(os.path.join(cases, "damaged_heap_crash.h5"))
        loop = os.path.normpath(os.path.join(cases, "damaged_heap_loop.h5"))
        self.check([crash], crash + ": damaged HDF5 file (reading it crashed HDF5: SIGSEGV)")
        self.check([loop], loop + ": damaged HDF5 file (reading its metadata did not end in 10 s)")

    def test_odd_output_names(self):
        real = last_snapshot("kh")
        self.check([real, "-o", "picture.xyz"], "-o picture.xyz: matplotlib cannot write .xyz pictures")
        self.check([real, "-o", "picture"], "-o picture: give the picture's format as its ending, e.g. picture.png")
        self.check([real, "-o", "no/such/folder/p.png"], "cannot write there (no folder 'no/such/folder'")
        self.check([real, "-o", work("errors")], "a folder; give a file name")
        self.check([real, "-o", ""], "-o needs a file name")
        self.check([real, real, "-o", "one.png"], "-o names one picture")
        self.check([real, "--movie", "m.mp4", "-o", "x.png"], "-o names a picture; with --movie")
        self.assertFalse(os.path.exists(os.path.join(work("errors"), "picture")))


def load_cfdplot():
    """apps/cfdplot.py as a module, for its functions."""
    spec = importlib.util.spec_from_file_location("cfdplot", support.CFDPLOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A navier_stokes-like history: a comment, the header, rows as cfdrun writes them.
HISTORY_COLUMNS = ("step", "time", "dt", "mass", "kinetic_energy", "dissipation_rate", "viscous_dissipation")
HISTORY_ROWS = [(0, 0.0, 0.0, 39.47841760435760, 0.25, 9.984e-3, 9.999e-3),
                (20, 0.095780849244459995, 4.789e-3, 39.47841760435746, 0.2490449744650515, 9.9497e-3, 9.9608e-3),
                (40, 0.19156316049895053, 4.789e-3, 39.47841760435745, 0.2480940721944904, 9.9153e-3, 9.9228e-3),
                (60, 0.28734547174342, 4.789e-3, 39.47841760435744, 0.2471470000000001, 9.8812e-3, 9.8850e-3),
                (80, 0.38312778298790, 4.789e-3, 39.47841760435743, 0.2462040000000000, 9.8470e-3, 9.8474e-3)]
# A reference curve as published data come: a comment, a blank line, commas, spaces and tabs.
REFERENCE_TEXT = "# Taylor-Green dissipation rate, Re = 1600\n\n0.0 0.0099\n0.1, 0.00985\n  0.2\t0.0098\n" \
                 "# a comment between the lines\n0.3,0.00975\n4.0e-1   9.7e-3\n"
REFERENCE = np.array([[0.0, 0.0099], [0.1, 0.00985], [0.2, 0.0098], [0.3, 0.00975], [0.4, 0.0097]])


class HistoryFiles(unittest.TestCase):
    """--history with --columns, --one-panel, --reference on small files of
    its own (no cfdrun binary): the picture, the data it draws, the errors."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="cfdplot-history-", dir=support.WORK or None)
        cls.hst = cls.write("navier_stokes.hst", "# cfdrun navier_stokes history: box totals\n" +
                            ",".join(HISTORY_COLUMNS) + "\n" +
                            "".join(",".join([str(r[0])] + [f"{v:.16e}" for v in r[1:]]) + "\n"
                                    for r in HISTORY_ROWS))
        cls.ref = cls.write("tg_reference.dat", REFERENCE_TEXT)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    @classmethod
    def write(cls, name, content):
        path = os.path.join(cls.folder, name)
        with open(path, "w") as f:
            f.write(content)
        return path

    def check_png(self, path):
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), PNG_SIGNATURE, path)
        self.assertGreater(os.path.getsize(path), 10000)
        rgb = matplotlib.image.imread(path)[..., :3]
        self.assertGreater(rgb.shape[0], 200)
        self.assertGreater(rgb.shape[1], 400)
        return rgb

    def test_parsed_and_drawn_data_are_the_files(self):
        cfdplot = load_cfdplot()
        t, v = cfdplot.read_reference(self.ref)
        np.testing.assert_array_equal(t, REFERENCE[:, 0])
        np.testing.assert_array_equal(v, REFERENCE[:, 1])
        h = cfdplot.cfdrun.read_history(self.hst)
        self.assertEqual(h.dtype.names, HISTORY_COLUMNS)
        rows = np.array(HISTORY_ROWS)
        for k, name in enumerate(HISTORY_COLUMNS):
            np.testing.assert_array_equal(h[name], rows[:, k], name)
        columns = cfdplot.history_columns(h, self.hst, "dissipation_rate, viscous_dissipation")
        self.assertEqual(columns, ["dissipation_rate", "viscous_dissipation"])
        self.assertEqual(cfdplot.history_columns(h, self.hst, None), list(HISTORY_COLUMNS[3:]))
        # One panel: a line per column, then the reference, black and dashed, with its label.
        fig, axes = cfdplot.history_figure(h, columns, "title", one_panel=True, references=[("Brachet", t, v)])
        self.assertEqual(len(axes), 1)
        lines = axes[0].get_lines()
        self.assertEqual([line.get_label() for line in lines], ["dissipation_rate", "viscous_dissipation", "Brachet"])
        for line, name in zip(lines, columns):
            np.testing.assert_array_equal(line.get_xdata(), rows[:, 1])
            np.testing.assert_array_equal(line.get_ydata(), rows[:, HISTORY_COLUMNS.index(name)])
        np.testing.assert_array_equal(lines[2].get_xdata(), REFERENCE[:, 0])
        np.testing.assert_array_equal(lines[2].get_ydata(), REFERENCE[:, 1])
        self.assertEqual(lines[2].get_linestyle(), "--")
        self.assertEqual(matplotlib.colors.to_rgb(lines[2].get_color()), (0.0, 0.0, 0.0))
        self.assertEqual([text.get_text() for text in axes[0].get_legend().get_texts()],
                         ["dissipation_rate", "viscous_dissipation", "Brachet"])
        cfdplot.plt.close(fig)
        # One panel per column, log y axes.
        fig, axes = cfdplot.history_figure(h, ["mass", "kinetic_energy"], "title", log=True)
        self.assertEqual([ax.get_ylabel() for ax in axes], ["mass", "kinetic_energy"])
        self.assertEqual([ax.get_yscale() for ax in axes], ["log", "log"])
        np.testing.assert_array_equal(axes[1].get_lines()[0].get_ydata(), rows[:, 4])
        cfdplot.plt.close(fig)

    def test_picture(self):
        # Default name: the history's with .png, beside it.
        status, stdout, stderr = support.cfdplot("--history", self.hst, "--columns",
                                                 "dissipation_rate,viscous_dissipation", "--one-panel",
                                                 "--reference", self.ref, "--reference-label", "Brachet et al.")
        self.assertEqual(status, 0, stderr)
        out = os.path.join(self.folder, "navier_stokes.png")
        self.assertEqual(stdout.strip(), f"wrote {out}: dissipation_rate, viscous_dissipation of 5 rows, "
                                         f"t = 0 to 0.383128, against Brachet et al. (5 points)")
        with_reference = self.check_png(out)
        # -o, the label by default the file's name; the reference's dashes change the picture.
        plain = os.path.join(self.folder, "plain.png")
        status, stdout, stderr = support.cfdplot("--history", self.hst, "--columns", "dissipation_rate", "-o", plain)
        self.assertEqual(status, 0, stderr)
        self.assertNotIn("against", stdout)
        other = os.path.join(self.folder, "ke.png")
        status, stdout, stderr = support.cfdplot("--history", self.hst, "--columns", "dissipation_rate", "--log",
                                                 "--reference", self.ref, "--reference", self.ref, "-o", other)
        self.assertEqual(status, 0, stderr)
        self.assertIn("against tg_reference.dat (5 points), against tg_reference.dat (5 points)", stdout)
        dark = [int(np.all(self.check_png(p) < 0.2, axis=-1).sum()) for p in (plain, other)]
        self.assertGreater(dark[1], dark[0] + 200)
        self.assertGreater(int(np.all(with_reference < 0.2, axis=-1).sum()), 1000)

    def check(self, args, message):
        check_clean_error(self, args, message, self.folder)

    def test_errors(self):
        hst = "navier_stokes.hst"
        self.write("empty.hst", "")
        self.write("header_only.hst", "# cfdrun\nstep,time,dt,mass\n")
        self.write("empty.dat", "")
        self.write("comments.dat", "# t eps\n\n# nothing else\n")
        self.write("bad_value.dat", "# t eps\n0 0.0099\n0.1 x\n")
        self.write("three.dat", "0 0.0099\n\n0.1 0.0098 7\n")
        self.write("one.dat", "0 0.0099\n0.1\n")
        self.write("nan.dat", "0 nan\n")
        self.check(["--history", hst, "--columns", "kinetic_energy,nope"],
                   "navier_stokes.hst: no column 'nope' (columns: step, time, dt, mass, kinetic_energy, "
                   "dissipation_rate, viscous_dissipation)")
        self.check(["--history", "missing.hst"], "missing.hst: no such file")
        self.check(["--history", "empty.hst"], "empty.hst: not a cfdrun history file (an empty file)")
        self.check(["--history", "header_only.hst"], "header_only.hst: a history without rows")
        for name, message in (("missing.dat", "missing.dat: no such file"),
                              ("empty.dat", "empty.dat: no time, value lines (an empty file)"),
                              ("comments.dat", "comments.dat: no time, value lines (only comments)"),
                              ("bad_value.dat", "bad_value.dat:3: not a line of two numbers, time and value"),
                              ("three.dat", "three.dat:3: not a line of two numbers"),
                              ("one.dat", "one.dat:2: not a line of two numbers"),
                              ("nan.dat", "nan.dat:1: not a line of two numbers")):
            self.check(["--history", hst, "--columns", "kinetic_energy", "--reference", name], message)
        self.check(["--history", hst, "--columns", "dissipation_rate,viscous_dissipation", "--reference",
                    "tg_reference.dat"], "--reference overlays one panel, and 2 columns make 2")
        self.check(["--history", hst, "--columns", "kinetic_energy", "--reference", "tg_reference.dat",
                    "--reference-label", "a", "--reference-label", "b"], "2 --reference-label for 1 --reference")
        self.check(["x.h5", "--reference", "tg_reference.dat"], "--reference goes with --history")
        self.check(["x.h5", "--one-panel"], "--one-panel goes with --history")
        for name in ("missing.png", "empty.png", "header_only.png"):  # no picture of a failed run
            self.assertFalse(os.path.exists(os.path.join(self.folder, name)), name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
