"""pip install of the Python package into a fresh virtual environment,
offline, with Debian's numpy, h5py and yt (--system-site-packages), as
docs/python.md says; then, from the environment's Python in another folder
(so the source tree is not on the path), the package's version and a yt
SlicePlot of a real snapshot whose axes read the domain's edges and units.
usage: test_pip.py --cfdrun BIN [--work DIR] (needs venv, setuptools, yt)"""
import os
import re
import shutil
import subprocess
import sys
import textwrap
import unittest

import support

support.take_arguments()

CHECK = textwrap.dedent("""
    import os, sys
    import yt
    import cfdrun
    yt.set_log_level(40)
    assert os.path.realpath(cfdrun.__file__).startswith(os.path.realpath(sys.prefix)), cfdrun.__file__
    ds = yt.load(sys.argv[1])
    plot = yt.SlicePlot(ds, "z", ("gas", "density"), origin="native")
    plot.save(sys.argv[2])
    axes = plot.plots["gas", "density"].axes
    print("version", cfdrun.__version__)
    print("xlim", *axes.get_xlim())
    print("ylim", *axes.get_ylim())
    print("xlabel", axes.get_xlabel())
""")


def project_version():
    with open(os.path.join(support.SOURCE, "CMakeLists.txt")) as f:
        return re.search(r"project\(cfdrun VERSION ([0-9.]+)", f.read()).group(1)


class PipInstall(unittest.TestCase):
    def test_offline_install_and_a_slice(self):
        work = os.path.join(support.WORK, "pip")
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        # A copy of the package: pip builds in the folder it is given, and a
        # test writes nothing into the sources.
        source = os.path.join(work, "source")
        shutil.copytree(support.PACKAGE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
        # pip writes build/ into the folder it installs from: the sources'
        # must look the same after this test as before it.
        sources_before = sorted(os.listdir(support.PACKAGE))
        venv = os.path.join(work, "venv")
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        done = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                               "--disable-pip-version-check", source],
                              capture_output=True, text=True, env=env, cwd=work)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

        out = os.path.join(work, "kh.out")
        subprocess.run([support.CFDRUN, os.path.join(support.CONFIG, "kh.yaml"), "-q", "--output", out,
                        "--set", "grid.nx=24", "--set", "grid.ny=12", "--set", "kh_mcnally.x_min=-1",
                        "--set", "kh_mcnally.x_max=3", "--set", "kh_mcnally.y_max=2", "--set", "kh_mcnally.y_lower=0.5",
                        "--set", "kh_mcnally.y_upper=1.5", "--set", "time.steps=2"], check=True, capture_output=True)
        snapshot = os.path.join(out, "euler_00000002.h5")
        picture = os.path.join(work, "slice.png")
        script = os.path.join(work, "check.py")
        with open(script, "w") as f:
            f.write(CHECK)
        done = subprocess.run([python, script, snapshot, picture], capture_output=True, text=True, env=env, cwd=work)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        said = {line.split()[0]: line.split(None, 1)[1] for line in done.stdout.splitlines() if line.strip()}
        self.assertEqual(said["version"], project_version())
        self.assertEqual([float(v) for v in said["xlim"].split()], [-1.0, 3.0])
        self.assertEqual([float(v) for v in said["ylim"].split()], [0.0, 2.0])
        self.assertIn("code", said["xlabel"])
        self.assertTrue(os.path.getsize(picture) > 10000)
        # Nothing was written into the sources (the copy took pip's build/).
        self.assertEqual(sorted(os.listdir(support.PACKAGE)), sources_before)


if __name__ == "__main__":
    unittest.main(verbosity=2)
