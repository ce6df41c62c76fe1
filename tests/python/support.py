"""What the Python tests share: the cfdrun binary, the package on sys.path,
and small real runs of each solver made with that binary.

The binary comes from --cfdrun PATH on the command line (ctest passes
$<TARGET_FILE:cfdrun>) or the environment variable CFDRUN; the runs go into
--work FOLDER (default: a new folder under the system's temporary folder).
Every test script is a unittest program: `python3 test_x.py --cfdrun BIN`.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
PACKAGE = os.path.join(SOURCE, "apps", "python")
CFDPLOT = os.path.join(SOURCE, "apps", "cfdplot.py")
CONFIG = os.path.join(SOURCE, "config")
sys.path.insert(0, PACKAGE)

CFDRUN = os.environ.get("CFDRUN", "")
WORK = ""


def take_arguments():
    """Removes --cfdrun BIN and --work DIR from sys.argv (the rest is unittest's)."""
    global CFDRUN, WORK
    args, rest = sys.argv[1:], [sys.argv[0]]
    while args:
        a = args.pop(0)
        if a in ("--cfdrun", "--work") and args:
            value = args.pop(0)
            if a == "--cfdrun":
                CFDRUN = value
            else:
                WORK = value
        else:
            rest.append(a)
    sys.argv[:] = rest
    if not CFDRUN or not os.access(CFDRUN, os.X_OK):
        sys.exit(f"{sys.argv[0]}: give the cfdrun binary: --cfdrun PATH or CFDRUN=PATH (got {CFDRUN!r})")
    if not WORK:
        WORK = tempfile.mkdtemp(prefix="cfdrun-python-tests-")
    os.makedirs(WORK, exist_ok=True)


# Small runs of each solver: a few snapshots, a history row at every step.
# KH (kh.yaml, periodic on all sides) conserves mass to round-off.
RUNS = {
    "kh": ("kh.yaml", ["grid.nx=32", "grid.ny=24", "time.end_time=0.06", "output.time_interval=0.02",
                       "output.history_every=1"]),
    "sod": ("sod.yaml", ["grid.nx=100", "time.end_time=0.05", "output.every=10", "output.history_every=5"]),
    "diffusion": ("diffusion_seed.yaml", ["time.steps=12", "output.every=4", "output.history_every=2"]),
    # euler's 1D case: Sod's tube along y, one cell across.
    "tube_y": ("kh.yaml", ["euler.problem=sod_y", "grid.nx=1", "grid.ny=64", "boundary.y_lo=outflow",
                           "boundary.y_hi=outflow", "time.end_time=0.1", "output.time_interval=0"]),
}
SOLVER = {"kh": "euler", "sod": "sod", "diffusion": "diffusion", "tube_y": "euler"}


MADE = set()


def run(name):
    """The output folder of the run `name` (made once per test program)."""
    case, sets = RUNS[name]
    out = os.path.join(WORK, "run_" + name)
    # Made afresh once per test program: a --work folder kept from an
    # earlier ctest holds the output of an earlier binary.
    if name not in MADE:
        MADE.add(name)
        command = [CFDRUN, os.path.join(CONFIG, case), "-q", "--output", out, "--overwrite"]
        for s in sets:
            command += ["--set", s]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stdout}{done.stderr}")
    return out


def cfdplot(*args, cwd=None):
    """cfdplot with these arguments: (exit status, stdout, stderr)."""
    done = subprocess.run([sys.executable, CFDPLOT, *args], capture_output=True, text=True, cwd=cwd)
    return done.returncode, done.stdout, done.stderr
