"""cfdrun.yt_load against numpy on real runs: the domain, the time and the
totals (KH's mass and diffusion's sum of u) that yt integrates.
usage: test_yt.py --cfdrun BIN [--work DIR] (needs yt)"""
import os
import unittest

import numpy as np

import support

support.take_arguments()
import cfdrun  # noqa: E402


class YtLoad(unittest.TestCase):
    def test_kh_mass_time_and_domain(self):
        folder = support.run("kh")
        snap = cfdrun.open_series(folder)[-1]
        ds = cfdrun.yt_load(snap.path)
        self.assertEqual(float(ds.current_time.d), snap.time)
        self.assertEqual(tuple(ds.domain_dimensions), (32, 24, 1))
        np.testing.assert_allclose(ds.domain_left_edge.to("code_length").d, [0, 0, 0], atol=1e-15)
        np.testing.assert_allclose(ds.domain_right_edge.to("code_length").d, [1, 1, 1], rtol=1e-15)
        self.assertEqual(tuple(ds.periodicity), (True, True, True))
        ad = ds.all_data()
        rho = ad["stream", "rho"].d
        volume = ad["index", "cell_volume"].to("code_length**3").d
        mass_yt = float(np.sum(rho * volume))
        mass_np = float(np.sum(snap["rho"] * snap.cell_volumes()))
        self.assertAlmostEqual(mass_yt / mass_np, 1.0, delta=1e-13)
        # ... and the history's mass at that step.
        h = cfdrun.read_history(os.path.join(folder, "euler.hst"))
        self.assertAlmostEqual(mass_yt / h["mass"][h["step"] == snap.step][0], 1.0, delta=1e-13)
        # The cell at (i, j) in yt is rho[j, i] in the file.
        point = ds.point([snap.x[5], snap.y[7], 0.5])
        self.assertEqual(float(point["stream", "rho"].d[0]), float(snap["rho"][7, 5]))

    def test_diffusion_and_sod(self):
        d = cfdrun.open_series(support.run("diffusion"))[-1]
        ds = cfdrun.yt_load(d)
        total = float(np.sum(ds.all_data()["stream", "u"].d))
        self.assertAlmostEqual(total, float(np.sum(d["u"])), delta=1e-13)
        np.testing.assert_allclose(ds.domain_left_edge.to("code_length").d[:2], [-0.5, -0.5])
        np.testing.assert_allclose(ds.domain_right_edge.to("code_length").d[:2], [30.5, 26.5])
        s = cfdrun.open_series(support.run("sod"))[-1]
        ds = cfdrun.yt_load(s, fields=["rho", "p"])
        self.assertEqual(tuple(ds.domain_dimensions), (100, 1, 1))
        self.assertEqual(float(ds.current_time.d), s.time)
        ad = ds.all_data()
        width = ad["index", "dx"].to("code_length").d
        self.assertAlmostEqual(float(np.sum(ad["stream", "rho"].d * width)), float(np.sum(s["rho"] * s.cell_volumes())),
                               delta=1e-13)


if __name__ == "__main__":
    unittest.main(verbosity=2)
