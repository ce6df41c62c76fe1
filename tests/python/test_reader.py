"""The cfdrun package (apps/python/cfdrun) against real output of the binary:
what it reads is what h5py reads, the series is the .xdmf index's, the
history parses with its comment lines and its sums hold what the physics
says, and bad files are CfdrunError with one line.
usage: test_reader.py --cfdrun BIN [--work DIR] [unittest options]"""
import glob
import os
import shutil
import subprocess
import unittest
import xml.etree.ElementTree as ET

import h5py
import numpy as np

import support

support.take_arguments()
import cfdrun  # noqa: E402 (support puts the package on sys.path)


def snapshot_files(folder, solver):
    return sorted(glob.glob(os.path.join(folder, f"{solver}_[0-9]*.h5")))


class Snapshots(unittest.TestCase):
    def test_fields_coordinates_and_attributes_are_what_h5py_reads(self):
        for name in ("kh", "sod", "diffusion"):
            solver = support.SOLVER[name]
            files = snapshot_files(support.run(name), solver)
            self.assertGreaterEqual(len(files), 3, name)
            for f in files:
                s = cfdrun.open_snapshot(f)
                with h5py.File(f, "r") as h:
                    self.assertEqual(s.solver, solver)
                    self.assertEqual(s.step, int(h.attrs["step"]))
                    self.assertEqual(s.time, float(h.attrs["time"]))  # bit for bit, not approximately
                    self.assertEqual(s.configuration, h.attrs["configuration"])
                    self.assertEqual(sorted(s.fields), sorted(h["fields"]))
                    for n in h["fields"]:
                        self.assertEqual(s[n].dtype, h["fields/" + n].dtype)
                        self.assertEqual(s[n].shape, h["fields/" + n].shape)
                        np.testing.assert_array_equal(s[n], h["fields/" + n][...])
                        self.assertEqual(s.units[n], h["fields/" + n].attrs["units"])
                    np.testing.assert_array_equal(s.x, h["grid/x"][...])
                    if "grid/y" in h:
                        np.testing.assert_array_equal(s.y, h["grid/y"][...])
                    if "grid/x_faces" in h:
                        np.testing.assert_array_equal(s.x_faces, h["grid/x_faces"][...])
                    self.assertEqual(s.ndim, 2 if "grid/y" in h else 1)
        s = cfdrun.open_snapshot(files[0])
        self.assertEqual(s.config["solver"], "diffusion")
        self.assertEqual(s.config["grid.nx"], "31")

    def test_format_version_and_older_files(self):
        # Files of this cfdrun say output_format 2; a file of an older one,
        # without the attribute, is format 1 and still reads the same.
        f = snapshot_files(support.run("kh"), "euler")[-1]
        s = cfdrun.open_snapshot(f)
        self.assertEqual(s.output_format, 2)
        old = os.path.join(support.WORK, "format1.h5")
        shutil.copy(f, old)
        with h5py.File(old, "r+") as h:
            del h.attrs["output_format"]
        o = cfdrun.open_snapshot(old)
        self.assertEqual(o.output_format, 1)
        np.testing.assert_array_equal(o["rho"], s["rho"])
        self.assertEqual(o.time, s.time)

    def test_files_of_the_solver_called_euler2d(self):
        # A folder written when euler was called euler2d (tests/cases/euler2d_run,
        # cfdrun at 97b6308): its snapshots say solver euler2d and read as euler.
        folder = os.path.join(support.SOURCE, "tests", "cases", "euler2d_run")
        s = cfdrun.open_snapshot(os.path.join(folder, "euler2d_00000016.h5"))
        self.assertEqual(s.solver, "euler")
        self.assertEqual(s.attrs["solver"], "euler2d")
        series = cfdrun.open_series(folder)
        self.assertEqual([x.step for x in series], [0, 8, 16])
        self.assertEqual({x.solver for x in series}, {"euler"})
        # Its configuration reads under today's names, so that the run
        # continued in its folder by today's cfdrun is one series with it.
        self.assertEqual(s.config["euler.kernels"], "fused")
        self.assertNotIn("euler2d.fused_stage", s.config)
        own = os.path.join(support.WORK, "euler2d_run")
        shutil.rmtree(own, ignore_errors=True)
        shutil.copytree(folder, own)
        subprocess.run([support.CFDRUN, "--restart", os.path.join(own, "checkpoint_00000016.h5"), "-q", "--set",
                        "time.end_time=0.2"], check=True, capture_output=True)
        then, now = s.config, cfdrun.open_snapshot(os.path.join(own, "euler2d_00000032.h5")).config
        # Every key of then is there now; the only keys added since are the
        # gas's and the viscosity's (cfdrun 0.2), at the Euler equations',
        # and the source terms' (none).
        self.assertLessEqual(set(then), set(now))
        added = set(now) - set(then)
        self.assertLessEqual(added, {"gas.R", "gas.Pr", "time.fourier", "viscosity.law", "viscosity.mu",
                                     "viscosity.T0", "viscosity.S", "viscosity.exponent", "sources.mass",
                                     "sources.momentum_x", "sources.momentum_y", "sources.momentum_z",
                                     "sources.energy", "sources.dt_bound"})
        self.assertEqual({now[k] for k in added if k.startswith("sources.")}, {"0", "none"})
        self.assertEqual(now["viscosity.law"], "none")
        self.assertEqual({k for k in then if then[k] != now[k]}, {"time.end_time", "output.dir"})

    def test_cell_volumes_tile_the_domain(self):
        # KH's box is the unit square: 32 x 24 cells of 1/32 x 1/24.
        s = cfdrun.open_series(support.run("kh"))[0]
        self.assertEqual(s.shape, (24, 32))
        self.assertAlmostEqual(s.cell_volumes().sum(), 1.0, places=14)
        np.testing.assert_allclose(s.cell_volumes(), 1 / (32 * 24), rtol=1e-12)
        # diffusion's points are indices 0..30: a unit cell around each.
        d = cfdrun.open_series(support.run("diffusion"))[0]
        np.testing.assert_array_equal(d.edges("x"), np.arange(32) - 0.5)
        self.assertEqual(d.cell_volumes().sum(), 31 * 27)


class SeriesMatchesXdmf(unittest.TestCase):
    def test_times_steps_and_files(self):
        for name in ("kh", "sod", "diffusion"):
            solver = support.SOLVER[name]
            folder = support.run(name)
            index = os.path.join(folder, solver + ".xdmf")
            # The index read independently of the package.
            grids = ET.parse(index).getroot().findall("./Domain/Grid/Grid")
            times = [float(g.find("Time").get("Value")) for g in grids]
            steps = [int(g.get("Name").split()[1]) for g in grids]
            for source in (folder, index):
                series = cfdrun.open_series(source)
                self.assertEqual(len(series), len(grids), source)
                self.assertEqual(series.times.tolist(), times)
                self.assertEqual(series.steps.tolist(), steps)
                self.assertEqual(len(series), len(snapshot_files(folder, solver)))
                for k, snap in enumerate(series):
                    # The index's times are the files' to the bit (17 digits).
                    self.assertEqual(snap.time, times[k])
                    self.assertEqual(snap.step, steps[k])
            self.assertEqual(series.times.tolist(), sorted(times))
            # From the files alone, in any order: the same series.
            files = list(reversed(snapshot_files(folder, solver)))
            by_files = cfdrun.open_series(files)
            self.assertEqual(by_files.times.tolist(), times)
            self.assertEqual(by_files.steps.tolist(), steps)
        # KH's snapshots land on the output times exactly.
        kh = cfdrun.open_series(support.run("kh"))
        self.assertEqual(kh.times.tolist(), [0.0, 0.02, 0.04, 0.06])
        self.assertEqual(kh.nearest(0.041).time, 0.04)

    def test_folder_without_index(self):
        folder = os.path.join(support.WORK, "no_index")
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(support.run("sod"), folder)
        os.remove(os.path.join(folder, "sod.xdmf"))
        series = cfdrun.open_series(folder)
        self.assertEqual(series.times.tolist(), cfdrun.open_series(support.run("sod")).times.tolist())
        self.assertTrue(all(os.path.basename(f).startswith("sod_") for f in series.files))


class History(unittest.TestCase):
    def test_kh_columns_and_conserved_mass(self):
        folder = support.run("kh")
        h = cfdrun.read_history(os.path.join(folder, "euler.hst"))
        self.assertEqual(h.dtype.names, ("step", "time", "dt", "mass", "mom_x", "mom_y", "energy",
                                         "kh_mode_amplitude"))
        self.assertEqual(h.dtype["step"], np.int64)
        series = cfdrun.open_series(folder)
        # A row at every step: steps 0..N, the last at the final snapshot's time.
        np.testing.assert_array_equal(h["step"], np.arange(series.steps[-1] + 1))
        self.assertEqual(h["time"][0], 0.0)
        self.assertEqual(h["dt"][0], 0.0)
        self.assertEqual(h["time"][-1], series.times[-1])
        np.testing.assert_allclose(np.cumsum(h["dt"]), h["time"], rtol=1e-12, atol=1e-15)
        # Periodic on all sides: mass and energy are constant to round-off.
        self.assertLess(np.max(np.abs(h["mass"] - h["mass"][0])) / h["mass"][0], 1e-13)
        self.assertLess(np.max(np.abs(h["energy"] - h["energy"][0])) / h["energy"][0], 1e-13)
        # The mass column is sum(rho * cell area) of the snapshot at that step.
        for snap in series:
            row = h[h["step"] == snap.step][0]
            mass = float(np.sum(snap["rho"] * snap.cell_volumes()))
            self.assertAlmostEqual(row["mass"] / mass, 1.0, delta=1e-13)
        self.assertIn("totals over the box", cfdrun.read_history_comments(os.path.join(folder, "euler.hst"))[0])

    def test_every_solver_and_dict_form(self):
        expected = {"sod": ["interior_mass", "interior_energy"], "diffusion": ["total_u", "max_u"]}
        for name, columns in expected.items():
            path = os.path.join(support.run(name), support.SOLVER[name] + ".hst")
            h = cfdrun.read_history(path, as_dict=True)
            self.assertEqual(list(h), ["step", "time", "dt"] + columns)
            # The file read by hand: the rows after the comment and the header.
            with open(path) as f:
                rows = [line.split(",") for line in f if line[0].isdigit()]
            self.assertEqual(len(h["step"]), len(rows))
            self.assertEqual(h["step"].tolist(), [int(r[0]) for r in rows])
            np.testing.assert_array_equal(h[columns[-1]], [float(r[-1]) for r in rows])
        # diffusion: the spike's total stays 1 until it reaches the edges (not in 12 steps).
        d = cfdrun.read_history(os.path.join(support.run("diffusion"), "diffusion.hst"))
        np.testing.assert_allclose(d["total_u"], 1.0, rtol=1e-14)
        self.assertEqual(d["step"].tolist(), [0, 2, 4, 6, 8, 10, 12])

    def test_partial_and_damaged_files(self):
        source = os.path.join(support.run("kh"), "euler.hst")
        whole = cfdrun.read_history(source)
        with open(source) as f:
            text = f.read()
        folder = os.path.join(support.WORK, "hst")
        os.makedirs(folder, exist_ok=True)

        def write(name, content):
            path = os.path.join(folder, name)
            with open(path, "w") as f:
                f.write(content)
            return path

        # Read while the run writes: the last row half written is left out.
        partial = cfdrun.read_history(write("partial.hst", text + "12,3.5e-01,1.0e-"))
        np.testing.assert_array_equal(partial, whole)
        # A last row whole but for its newline is kept.
        lines = text.splitlines()
        self.assertEqual(cfdrun.read_history(write("no_newline.hst", "\n".join(lines))).size, whole.size)
        # Header only: no rows, the columns known.
        empty_rows = cfdrun.read_history(write("header.hst", "\n".join(lines[:2]) + "\n"))
        self.assertEqual(empty_rows.size, 0)
        self.assertIn("kh_mode_amplitude", empty_rows.dtype.names)
        bad = {"empty.hst": ("", "an empty file"),
               "comments.hst": ("# only a comment\n", "no header line"),
               "short_row.hst": ("\n".join(lines[:4]) + "\n5,1.0\n" + "\n".join(lines[4:]) + "\n",
                                 "short_row.hst:5: 2 values, the header names 8 columns"),
               "words.hst": ("\n".join(lines[:3]) + "\n" + lines[3].replace("e", "x", 1) + "\n",
                             "words.hst:4: not a row of numbers"),
               "other.hst": ("a,b,c\n1,2,3\n", "not a cfdrun history header")}
        for name, (content, message) in bad.items():
            with self.assertRaises(cfdrun.CfdrunError) as caught:
                cfdrun.read_history(write(name, content))
            self.assertIn(message, str(caught.exception))
            self.assertNotIn("\n", str(caught.exception))
        with open(os.path.join(folder, "binary.hst"), "wb") as f:
            f.write(b"\x89HDF\r\n\x1a\n\0\0\0")
        with self.assertRaisesRegex(cfdrun.CfdrunError, "binary data"):
            cfdrun.read_history(os.path.join(folder, "binary.hst"))
        with open(os.path.join(folder, "latin1.hst"), "wb") as f:
            f.write(b"# caf\xe9\nstep,time,dt\n")
        others = {os.path.join(folder, "latin1.hst"): "latin1.hst: not a cfdrun history file (not text)",
                  folder: ": a folder, not a cfdrun history file",
                  os.path.join(folder, "absent.hst"): "absent.hst: no such file"}
        for path, message in others.items():
            with self.assertRaises(cfdrun.CfdrunError) as caught:
                cfdrun.read_history(path)
            self.assertIn(message, str(caught.exception))


class BadFiles(unittest.TestCase):
    def test_one_line_errors(self):
        folder = os.path.join(support.WORK, "bad")
        os.makedirs(folder, exist_ok=True)
        real = snapshot_files(support.run("kh"), "euler")[-1]
        with open(real, "rb") as f:
            head = f.read(4096)
        files = {"empty.h5": b"", "text.h5": b"not an HDF5 file\n", "truncated.h5": head}
        for name, content in files.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(content)
        checkpoint = glob.glob(os.path.join(support.run("kh"), "checkpoint_*.h5"))[0]
        cases = {os.path.join(folder, "empty.h5"): "cannot read it as HDF5 (an empty file)",
                 os.path.join(folder, "text.h5"): "cannot read it as HDF5",
                 os.path.join(folder, "truncated.h5"): "",
                 os.path.join(folder, "missing.h5"): "no such file",
                 folder: "a folder, not a snapshot file",
                 checkpoint: "a cfdrun checkpoint, not a snapshot",
                 os.path.join(support.run("kh"), "euler.hst"): "cannot read it as HDF5"}
        for path, message in cases.items():
            with self.assertRaises(cfdrun.CfdrunError, msg=path) as caught:
                cfdrun.open_snapshot(path).load()
            said = str(caught.exception)
            self.assertTrue(said.startswith(path + ": "), said)
            self.assertIn(message, said)
            self.assertNotIn("\n", said)
        with self.assertRaisesRegex(cfdrun.CfdrunError, "no cfdrun snapshot"):
            cfdrun.open_series(folder)
        with self.assertRaisesRegex(KeyError, "no field 'nope' \\(fields: p, rho, vx, vy, vz\\)"):
            cfdrun.open_snapshot(real)["nope"]


if __name__ == "__main__":
    unittest.main(verbosity=2)
