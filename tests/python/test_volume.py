"""3D snapshots in the Python package and cfdplot: the reader's axes,
planes, cell volumes and xarray dimensions, and cfdplot --slice. No solver
writes 3D files yet, so the file is a real KH snapshot extruded in z by
h5py, in the layout core/snapshot.cpp writes for 3D grids
(tests/test_io.cpp, Hdf5.ThreeDimensionalGridIsARectilinearVolume, checks
that layout on the C++ side): fields [nz][ny][nx], grid/z and grid/z_faces.
usage: test_volume.py --cfdrun BIN [--work DIR] (needs h5py, matplotlib)"""
import glob
import os
import re
import shutil
import subprocess
import unittest

import h5py
import numpy as np

import support

support.take_arguments()
import cfdrun  # noqa: E402 (support puts the package on the path)

NZ = 5
Z_FACES = np.linspace(0.0, 1.0, NZ + 1)


def volume_snapshot():
    """A KH snapshot made 3D: every field's plane k is the 2D field times (k + 1)."""
    source = sorted(glob.glob(os.path.join(support.run("kh"), "euler_[0-9]*.h5")))[-1]
    path = os.path.join(support.WORK, "volume.h5")
    shutil.copyfile(source, path)
    with h5py.File(path, "r+") as h:
        for name in list(h["fields"].keys()):
            plane = h["fields/" + name][...]
            attrs = dict(h["fields/" + name].attrs)
            del h["fields/" + name]
            d = h.create_dataset("fields/" + name, data=np.stack([plane * (k + 1) for k in range(NZ)]))
            d.attrs.update(attrs)
        h.create_dataset("grid/z_faces", data=Z_FACES)
        h.create_dataset("grid/z", data=0.5 * (Z_FACES[1:] + Z_FACES[:-1]))
        h["grid/z"].attrs["description"] = "z coordinate of the cell centres"
        h.attrs["global_nz"] = np.int64(NZ)  # as core/global_file.cpp writes global_nx ...
    return path, source


class VolumeReader(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.path, cls.source = volume_snapshot()

    def test_axes_planes_and_volumes(self):
        snap = cfdrun.open_snapshot(self.path)
        flat = cfdrun.open_snapshot(self.source)
        self.assertEqual(snap.ndim, 3)
        self.assertEqual(snap.shape, (NZ,) + flat.shape)
        np.testing.assert_array_equal(snap.edges("z"), Z_FACES)
        rho = flat["rho"]
        # The middle plane by default, the nearest one to a coordinate otherwise.
        values, rows, cols, where = snap.plane("rho")
        self.assertEqual((rows[0], cols[0], where), ("y", "x", 0.5))
        np.testing.assert_array_equal(values, rho * 3)
        values, rows, cols, where = snap.plane("rho", "z", 0.05)
        np.testing.assert_array_equal(values, rho)
        self.assertEqual(where, 0.1)
        values, rows, cols, _ = snap.plane("rho", "y", flat.y[2])
        self.assertEqual((rows[0], cols[0]), ("z", "x"))
        np.testing.assert_array_equal(values, np.stack([rho[2, :] * (k + 1) for k in range(NZ)]))
        values, rows, cols, _ = snap.plane("rho", "x", flat.x[-1])
        self.assertEqual((rows[0], cols[0]), ("z", "y"))
        np.testing.assert_array_equal(values[4], rho[:, -1] * 5)
        # The cells tile the box: volume = area * 1 (z from 0 to 1), and the
        # mass is the planes' masses weighted by 1..5, times dz = 0.2.
        volumes = snap.cell_volumes()
        self.assertEqual(volumes.shape, snap.shape)
        self.assertAlmostEqual(volumes.sum(), flat.cell_volumes().sum(), delta=1e-14)
        mass_2d = (rho * flat.cell_volumes()).sum()
        self.assertAlmostEqual((snap["rho"] * volumes).sum(), mass_2d * 0.2 * 15, delta=1e-12)
        with self.assertRaisesRegex(ValueError, "2D snapshot has no planes"):
            flat.plane("rho")
        with self.assertRaisesRegex(ValueError, "no axis 'w'"):
            snap.plane("rho", "w")

    def test_xarray_dimensions(self):
        try:
            import xarray  # noqa: F401
        except ImportError:
            self.skipTest("no xarray")
        ds = cfdrun.open_snapshot(self.path).to_xarray()
        self.assertEqual(ds["rho"].dims, ("z", "y", "x"))
        np.testing.assert_array_equal(ds["z"].values, 0.5 * (Z_FACES[1:] + Z_FACES[:-1]))


class VolumeInfo(unittest.TestCase):
    def test_cfdinfo_names_three_counts(self):
        path, source = volume_snapshot()
        cfdinfo = os.path.join(os.path.dirname(support.CFDRUN), "cfdinfo")
        done = subprocess.run([cfdinfo, path], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(done.stdout, r"grid +32 x 24 x 5 cells")


class VolumePictures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.path, cls.source = volume_snapshot()

    def test_slices(self):
        out = os.path.join(support.WORK, "volume_z.png")
        status, stdout, stderr = support.cfdplot(self.path, "--slice", "z=0.05", "-o", out)
        self.assertEqual(status, 0, stderr)
        self.assertGreater(os.path.getsize(out), 10000)
        # The colours span that plane's values: the 2D field's own.
        rho = cfdrun.open_snapshot(self.source)["rho"]
        m = re.search(r"\(rho coloured from ([-0-9.e+]+) to ([-0-9.e+]+)", stdout)
        self.assertIsNotNone(m, stdout)
        self.assertAlmostEqual(float(m.group(1)) / rho.min(), 1, delta=1e-5)
        self.assertAlmostEqual(float(m.group(2)) / rho.max(), 1, delta=1e-5)
        # Another axis, and the default (the middle z plane: 3 times rho).
        status, _, stderr = support.cfdplot(self.path, "--slice", "x=0.5", "-o",
                                            os.path.join(support.WORK, "volume_x.png"))
        self.assertEqual(status, 0, stderr)
        status, stdout, stderr = support.cfdplot(self.path, "-o", os.path.join(support.WORK, "volume_mid.png"))
        self.assertEqual(status, 0, stderr)
        m = re.search(r"\(rho coloured from ([-0-9.e+]+) to ([-0-9.e+]+)", stdout)
        self.assertAlmostEqual(float(m.group(2)) / (3 * rho.max()), 1, delta=1e-5)

    def test_bad_slices_are_one_line_errors(self):
        for args, message in ((["--slice", "w=0.5"], "expected AXIS=VALUE"),
                              (["--slice", "z=half"], "'half' is not a number"),
                              (["--slice", "z"], "expected AXIS=VALUE"),
                              (["--slice", "z=nan"], "'nan' is not a finite number"),
                              (["--slice", "z=1e308"], "z = 1e+308 is outside the grid (z from "),
                              (["--slice", "x=-0.5"], "x = -0.5 is outside the grid (x from 0 to 1)")):
            status, _, stderr = support.cfdplot(self.path, *args, "-o", os.path.join(support.WORK, "bad.png"))
            self.assertEqual(status, 2, stderr)
            self.assertIn(message, stderr)
            self.assertEqual(len(stderr.strip().splitlines()), 1, stderr)
        status, _, stderr = support.cfdplot(self.source, "--slice", "z=0.5", "-o",
                                            os.path.join(support.WORK, "flat.png"))
        self.assertEqual(status, 2, stderr)
        self.assertIn("--slice is for 3D snapshots, this one is 2D", stderr)


if __name__ == "__main__":
    unittest.main()
