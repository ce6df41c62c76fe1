"""Snapshot.to_xarray and Series.to_xarray against h5py on a real KH run.
usage: test_xarray.py --cfdrun BIN [--work DIR] (needs xarray)"""
import glob
import os
import unittest

import h5py
import numpy as np

import support

support.take_arguments()
import cfdrun  # noqa: E402
import xarray as xr  # noqa: E402


class ToXarray(unittest.TestCase):
    def test_snapshot(self):
        f = sorted(glob.glob(os.path.join(support.run("kh"), "euler_[0-9]*.h5")))[-1]
        ds = cfdrun.open_snapshot(f).to_xarray()
        self.assertIsInstance(ds, xr.Dataset)
        with h5py.File(f, "r") as h:
            self.assertEqual(sorted(ds.data_vars), sorted(h["fields"]))
            for n in h["fields"]:
                self.assertEqual(ds[n].dims, ("y", "x"))
                np.testing.assert_array_equal(ds[n].values, h["fields/" + n][...])
                self.assertEqual(ds[n].attrs["units"], h["fields/" + n].attrs["units"])
            np.testing.assert_array_equal(ds["x"].values, h["grid/x"][...])
            np.testing.assert_array_equal(ds["y"].values, h["grid/y"][...])
            self.assertEqual(ds.attrs["time"], h.attrs["time"])
            self.assertEqual(ds.attrs["step"], h.attrs["step"])
            self.assertEqual(ds.attrs["solver"], "euler")
            # Selection by coordinate: the cell at (x, y) = (0.5+, 0.25+) is rho[j, i].
            i, j = 16, 6
            np.testing.assert_array_equal(ds["rho"].sel(x=h["grid/x"][i], y=h["grid/y"][j]).values,
                                          h["fields/rho"][j, i])

    def test_series_and_1d(self):
        series = cfdrun.open_series(support.run("kh"))
        ds = series.to_xarray()
        self.assertEqual(ds["rho"].dims, ("time", "y", "x"))
        self.assertEqual(ds["time"].values.tolist(), series.times.tolist())
        self.assertEqual(ds["step"].values.tolist(), series.steps.tolist())
        for k, snap in enumerate(series):
            np.testing.assert_array_equal(ds["rho"].isel(time=k).values, snap["rho"])
        sod = cfdrun.open_series(support.run("sod"))[-1].to_xarray()
        self.assertEqual(sod["rho"].dims, ("x",))
        self.assertEqual(sod["rho"].size, 100)


if __name__ == "__main__":
    unittest.main(verbosity=2)
