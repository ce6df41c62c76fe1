"""cfdplot (apps/cfdplot.py) on real runs: --log colours span the data,
values <= 0 get their own colour and a note, axes are named after the
coordinates, --history draws the history, and bad files and output names
end in one line on stderr with exit status 2.
usage: test_cfdplot.py --cfdrun BIN [--work DIR] (needs matplotlib)"""
import glob
import os
import re
import shutil
import unittest

import h5py
import matplotlib.image
import numpy as np

import support

support.take_arguments()

COLOURED = re.compile(r"\((\w+) coloured from ([-0-9.e+]+) to ([-0-9.e+]+)(, log scale)?")
UNDER_RGB = np.array([0x2B, 0x83, 0xE0]) / 255  # cfdplot's UNDER_COLOUR


def last_snapshot(name):
    return sorted(glob.glob(os.path.join(support.run(name), support.SOLVER[name] + "_[0-9]*.h5")))[-1]


def work(name):
    path = os.path.join(support.WORK, name)
    os.makedirs(path, exist_ok=True)
    return path


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


class History(unittest.TestCase):
    def test_history_picture(self):
        hst = os.path.join(support.run("kh"), "euler2d.hst")
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


class CleanErrors(unittest.TestCase):
    def check(self, args, message):
        status, stdout, stderr = support.cfdplot(*args, cwd=work("errors"))
        self.assertEqual(status, 2, f"{args}: {stdout}{stderr}")
        self.assertNotIn("Traceback", stderr)
        lines = stderr.splitlines()
        self.assertEqual(len(lines), 1, f"{args}: {stderr}")
        self.assertTrue(lines[0].startswith("cfdplot: error: "), stderr)
        self.assertIn(message, lines[0])

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
        self.check([os.path.join(support.run("kh"), "euler2d.hst")], "a history file, not a snapshot; draw it with")
        self.check(["--history", "bad.hst"], "bad.hst:4: not a row of numbers")
        self.check(["--history", "empty.h5"], "empty.h5: not a cfdrun history file (an empty file)")
        self.check(["--history", real], "not a cfdrun history file (binary data)")
        self.check(["--history", os.path.join(support.run("kh"), "euler2d.hst"), "--columns", "nope"],
                   "no column 'nope' (columns: step, time, dt, mass,")
        self.check([real, "-f", "nope"], "no field 'nope' (fields: p, rho, vx, vy, vz)")
        self.check([], "no snapshot given")
        self.check([real, "--zoom", "x"], "argument --zoom: invalid int value: 'x'")

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


if __name__ == "__main__":
    unittest.main(verbosity=2)
