"""cfdrun's yt frontend against numpy on real runs: the domain, the time and
the totals (KH's mass and diffusion's sum of u) that yt integrates; yt.load
and DatasetSeries on cfdrun's files; yt's field names, units and derived
fields; a SlicePlot's axes.
usage: test_yt.py --cfdrun BIN [--work DIR] (needs yt)"""
import gc
import os
import subprocess
import sys
import unittest

import numpy as np

import support

support.take_arguments()
import yt  # noqa: E402
import cfdrun  # noqa: E402  (after yt: registers the frontend at once)

yt.set_log_level(40)


def wide_kh():
    """A KH run on [0, 4] x [-1, 1]: edges that a centred axis would hide."""
    out = os.path.join(support.WORK, "run_wide_kh")
    command = [support.CFDRUN, os.path.join(support.CONFIG, "kh.yaml"), "-q", "--output", out, "--overwrite",
               "--set", "grid.nx=32", "--set", "grid.ny=16", "--set", "kh_mcnally.x_max=4",
               "--set", "kh_mcnally.y_min=-1", "--set", "kh_mcnally.y_max=1", "--set", "kh_mcnally.y_lower=-0.5",
               "--set", "kh_mcnally.y_upper=0.5", "--set", "time.end_time=0.05"]
    subprocess.run(command, check=True, capture_output=True)
    return out


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


class YtNative(unittest.TestCase):
    """What a yt user does without reading cfdrun's docs."""

    def test_yt_load_knows_the_files(self):
        folder = support.run("kh")
        snap = cfdrun.open_series(folder)[-1]
        ds = yt.load(snap.path)
        self.assertIsInstance(ds, cfdrun.register_yt())
        self.assertEqual(ds.basename, os.path.basename(snap.path))
        self.assertEqual(float(ds.current_time.d), snap.time)
        ad = ds.all_data()
        # yt's names and cfdrun's, the same numbers; code units for a
        # dimensionless case.
        for ours, theirs in (("rho", "density"), ("vx", "velocity_x"), ("vy", "velocity_y"), ("p", "pressure")):
            np.testing.assert_array_equal(ad["gas", theirs].d, ad["stream", ours].d)
        self.assertEqual(str(ad["gas", "density"].units), "code_mass/code_length**3")
        self.assertEqual(str(ad["gas", "velocity_x"].units), "code_velocity")
        self.assertEqual(str(ad["gas", "pressure"].units), "code_pressure")
        self.assertEqual(str(ds.domain_right_edge.units), "code_length")
        self.assertEqual(str(ds.current_time.units), "code_time")
        self.assertEqual(ds.gamma, float(snap.config["gas.gamma"]))
        # A checkpoint, the mesh file and the XDMF index are not snapshots.
        for other in ("checkpoint_", "euler_mesh.hdf5", "euler.xdmf"):
            path = next(os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.startswith(other))
            self.assertFalse(cfdrun.yt_loader.is_snapshot(path), path)

    def test_derived_fields_match_numpy(self):
        snap = cfdrun.open_series(support.run("kh"))[-1]
        ad = yt.load(snap.path).all_data()

        def as_file(values):  # yt's [x][y][z] cells in the file's [y][x] order
            return values.reshape(snap.x.size, snap.y.size).T

        gamma = float(snap.config["gas.gamma"])
        rho, vx, vy, vz, p = (snap[n] for n in ("rho", "vx", "vy", "vz", "p"))
        speed2 = vx * vx + vy * vy + vz * vz
        np.testing.assert_allclose(as_file(ad["gas", "kinetic_energy_density"].d), 0.5 * rho * speed2, rtol=1e-14)
        np.testing.assert_allclose(as_file(ad["gas", "sound_speed"].d), np.sqrt(gamma * p / rho), rtol=1e-14)
        np.testing.assert_allclose(as_file(ad["gas", "mach_number"].d), np.sqrt(speed2 / (gamma * p / rho)),
                                   rtol=1e-14)
        self.assertEqual(str(ad["gas", "kinetic_energy_density"].units), "code_pressure")

    def test_physical_sod_is_in_si(self):
        out = os.path.join(support.WORK, "run_sod_physical")
        subprocess.run([support.CFDRUN, os.path.join(support.CONFIG, "sod.yaml"), "-q", "--output", out, "--overwrite",
                        "--set", "grid.nx=100", "--set", "time.end_time=0.05", "--set", "sod.units=physical"],
                       check=True, capture_output=True)
        snap = cfdrun.open_series(out)[-1]
        self.assertEqual(snap.coordinate_units, "m")
        ds = yt.load(snap.path)
        ad = ds.all_data()
        # yt keeps edges and times in code units; here they are a metre and a second.
        self.assertEqual(float(ds.length_unit.to("m").d), 1.0)
        self.assertEqual(float(ds.time_unit.to("s").d), 1.0)
        self.assertEqual(float(ds.mass_unit.to("kg").d), 1.0)
        self.assertEqual(float(ds.domain_right_edge.to("m")[0].d), float(snap.edges("x")[-1]))
        self.assertEqual(float(ds.current_time.to("s").d), snap.time)
        self.assertEqual(str(ad["gas", "density"].units), "kg/m**3")
        self.assertEqual(str(ad["gas", "velocity_x"].units), "m/s")
        self.assertEqual(str(ad["gas", "pressure"].units), "Pa")
        self.assertEqual(str(ad["gas", "temperature"].units), "K")
        np.testing.assert_array_equal(ad["gas", "velocity_x"].d, snap["u"])
        # yt converts: the same pressure in bar.
        np.testing.assert_allclose(ad["gas", "pressure"].to("bar").d, snap["p"] * 1e-5, rtol=1e-15)

    def test_cfdrun_first_and_a_lookup_of_yt(self):
        # cfdrun imported before yt, and yt looked up (find_spec, as a check
        # that it is installed) before it is imported: yt.load still knows
        # the files.
        snap = cfdrun.open_series(support.run("kh"))[-1]
        code = ("import importlib.util, sys; import cfdrun; assert 'yt' not in sys.modules; "
                "importlib.util.find_spec('yt'); import yt; yt.set_log_level(40); "
                f"ds = yt.load({snap.path!r}); print(type(ds).__name__, float(ds.current_time))")
        env = dict(os.environ, PYTHONPATH=support.PACKAGE)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.split(), ["CfdrunDataset", repr(snap.time)])

    def test_fields_held_once_and_missing_velocities_zero(self):
        snap = cfdrun.open_series(support.run("sod"))[-1]
        ds = cfdrun.yt_load(snap.path)
        ad = ds.all_data()
        # The loader's own snapshot keeps no copy of what yt holds.
        self.assertEqual(len(ds.cfdrun_snapshot.fields._cache), 0)
        # sod stores u only: y and z velocities are zero, so yt's kinetic
        # energy is 1/2 rho u^2.
        np.testing.assert_array_equal(ad["gas", "velocity_y"].d, 0)
        np.testing.assert_allclose(ad["gas", "kinetic_energy_density"].d, 0.5 * snap["rho"] * snap["u"] ** 2,
                                   rtol=1e-14, atol=1e-300)
        # A snapshot the user read keeps what it held.
        mine = cfdrun.open_snapshot(snap.path).load()
        cfdrun.yt_load(mine)
        self.assertEqual(len(mine.fields._cache), len(mine.field_names))

    def test_series(self):
        folder = support.run("kh")
        times = list(cfdrun.open_series(folder).times)
        self.assertGreaterEqual(len(times), 3)
        by_glob = yt.load(os.path.join(folder, "euler_*.h5"))
        self.assertEqual([float(ds.current_time.d) for ds in by_glob], times)
        ours = cfdrun.yt_series(folder)
        self.assertEqual([float(ds.current_time.d) for ds in ours], times)
        # A glob that also matches the checkpoints: the snapshots alone, by time.
        globbed = cfdrun.yt_series(os.path.join(folder, "*.h5"))
        self.assertEqual([float(ds.current_time.d) for ds in globbed], times)
        masses = [float((ds.all_data()["gas", "cell_mass"]).sum().d) for ds in ours]
        h = cfdrun.read_history(os.path.join(folder, "euler.hst"))
        self.assertAlmostEqual(masses[-1] / h["mass"][-1], 1.0, delta=1e-13)

    def test_slice_plot_axes_are_the_domains(self):
        snap = cfdrun.open_series(wide_kh())[-1]
        np.testing.assert_array_equal(snap.edges("x")[[0, -1]], [0.0, 4.0])
        plot = cfdrun.slice_plot(snap.path, "density")
        gc.collect()  # the dataset slice_plot loaded must outlive this
        plot.save(os.path.join(support.WORK, "wide_kh_slice.png"))
        axes = plot.plots["gas", "density"].axes
        np.testing.assert_allclose(axes.get_xlim(), (0.0, 4.0), atol=1e-12)
        np.testing.assert_allclose(axes.get_ylim(), (-1.0, 1.0), atol=1e-12)
        self.assertIn("code", axes.get_xlabel())
        self.assertIn("length", axes.get_xlabel())
        # yt's own default centres the axes on the window (-2 to 2 here):
        # what slice_plot's origin="native" is for.
        ds = yt.load(snap.path)  # held: yt's plots keep only a weak reference
        centred = yt.SlicePlot(ds, "z", ("gas", "density"))
        centred.render()
        np.testing.assert_allclose(centred.plots["gas", "density"].axes.get_xlim(), (-2.0, 2.0), atol=1e-12)


if __name__ == "__main__":
    unittest.main(verbosity=2)
