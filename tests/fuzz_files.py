#!/usr/bin/env python3
"""Fuzzing the file classes of reliability issues through the binaries: a
fixed-seed set of cases, each drawn from one class, each in a folder of its
own with a sentinel tree around the output folder (a parent-level file,
siblings of the output folder, a folder "outside" that planted links and hard
links reach, the user's own files inside the output folder). The classes:

  special_files    a named pipe, a folder, a symbolic link (to a file, a
                   folder, nothing, an absolute path) or a hard link planted
                   under a name cfdrun writes (.cfdrun-manifest, .cfdrun.lock,
                   the history, XDMF, snapshots, checkpoints, NAME.tmp); then
                   a fresh run, an --overwrite or a --restart into the folder
  forged_manifest  lines added to .cfdrun-manifest: users' files, ../ paths,
                   absolute paths, folders, names with '/', empty, very long
                   and non-UTF-8 lines; then --overwrite or --restart
  fixed_keys       --restart CHECKPOINT --set KEY=VALUE with a key that
                   --list-keys does not mark as changeable on restart, in
                   a third of the cases under a former spelling
                   (euler2d.*, euler.gamma, gas.mu0, ...): status 2, and
                   nothing in the folder written or created
  non_finite       formulas giving NaN or Inf (0/0, 1/0, sqrt(-1), 1e308*10,
                   ...) for euler's passive scalars and expression.* of
                   euler (1D, 2D, 3D), sod, diffusion and navier_stokes:
                   status 2 for the run and for --validate, no snapshot
                   holding a value that is not finite
  initial_files    file.path (euler 2D and 3D, sod, diffusion) naming HDF5
                   files with huge declared shapes, wrong shapes, integer
                   types (accepted), NaN or Inf values (refused), missing
                   datasets, unreadable filters, external storage, links; a
                   text file, an empty file, a named pipe, a folder: status 0
                   or 2 as documented, within 20 s, under 1 GiB of memory
  damaged_tools    a copy of a cfdrun output folder with one file damaged
                   (bits flipped, cut short, a block zeroed or overwritten)
                   or a named pipe as a snapshot, the history or a reference
                   curve: cfdinfo and cfdplot (--history) end with 0 or 2, a
                   status 2 with a one-line error naming the file, never a
                   traceback

Every run must end within its time limit with a documented exit status (0,
1 or 2; never a signal), without a crash or sanitizer report in its output;
nothing outside the output folder is created, changed or removed, and the
user's own files inside it (notes.txt, README.md, notes.hst, a folder of
theirs) are never changed or removed. The first case that breaks a rule is
printed (class, what was planted, the commands) and the script exits 1.

usage: fuzz_files.py CFDRUN CONFIG_DIR WORK_DIR [COUNT [CFDPLOT]]
  CFDRUN's folder holds cfdinfo; CFDPLOT defaults to CONFIG_DIR/../apps/cfdplot.py
  (its pictures are skipped where this Python has no matplotlib).
  FUZZ_FILES_SKIP=class,...  draws the cases of those classes but does not run them.
"""
import collections
import hashlib
import importlib.util
import os
import random
import re
import resource
import shlex
import shutil
import signal
import stat
import subprocess
import sys

import h5py
import numpy as np

SEED = 20261207
CLASSES = {  # name: weight
    "special_files": 25,
    "forged_manifest": 18,
    "fixed_keys": 14,
    "non_finite": 13,
    "initial_files": 17,
    "damaged_tools": 13,
}
CRASH = re.compile(r"Traceback \(most recent call last\)|Segmentation|Aborted|terminate called|core dumped|"
                   r"AddressSanitizer|LeakSanitizer|ThreadSanitizer|runtime error:|stack smashing|double free|"
                   r"free\(\): |malloc\(\): |corrupted size")
MEMORY_LIMIT_KB = 1024 * 1024  # peak resident memory of any one child

cfdrun, config_dir, work = (os.path.abspath(a) for a in sys.argv[1:4])
count = int(sys.argv[4]) if len(sys.argv) > 4 else 800
cfdplot = os.path.abspath(sys.argv[5]) if len(sys.argv) > 5 else \
    os.path.join(os.path.dirname(config_dir), "apps", "cfdplot.py")
cfdinfo = os.path.join(os.path.dirname(cfdrun), "cfdinfo")
have_matplotlib = importlib.util.find_spec("matplotlib") is not None and os.path.isfile(cfdplot)
skip = {s.strip() for s in os.environ.get("FUZZ_FILES_SKIP", "").split(",") if s.strip()}
unknown = skip - set(CLASSES)
if unknown:
    sys.exit(f"FUZZ_FILES_SKIP: no class {', '.join(sorted(unknown))} (classes: {', '.join(CLASSES)})")
env = dict(os.environ, OMP_PROC_BIND=os.environ.get("OMP_PROC_BIND", "false"), MPLBACKEND="Agg",
           MPLCONFIGDIR=os.path.join(work, "mplconfig"))


def config(name):
    return os.path.join(config_dir, name)


# The former spellings of keys (the Python package's table, which cfdrun's
# KeySpec::former matches): a fixed key given under its former name on
# --restart must be refused as the present one is.
_spec = importlib.util.spec_from_file_location(
    "cfdrun_snapshot", os.path.join(os.path.dirname(config_dir), "apps", "python", "cfdrun", "snapshot.py"))
_snapshot = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_snapshot)
# (solver, present key) -> its former spellings in that solver: a former key
# of a solver's own section is that solver's; gas.mu0, gas.T0 and gas.S were
# sod's alone (the other gas solvers never had them: unknown keys there).
FORMER_SPELLINGS = collections.defaultdict(list)
for _former, (_present, _values) in _snapshot.FORMER_KEYS.items():
    if _values is not None:
        continue
    _section = _former.split(".")[0]
    FORMER_SPELLINGS[("sod" if _section == "gas" else _section, _present)].append(_former)


def sets(*pairs):
    args = []
    for p in pairs:
        args += ["--set", p]
    return args


# Small runs of each solver, with checkpoints (each well under a second).
RUNS = {
    "diffusion": [config("diffusion_seed.yaml")] + sets("grid.nx=15", "grid.ny=13", "time.steps=16",
                                                        "output.checkpoint_every=8"),
    "sod": [config("sod.yaml")] + sets("grid.nx=40", "output.checkpoint_every=10"),
    "euler": [config("kh.yaml")] + sets("grid.nx=16", "grid.ny=16", "time.end_time=0.05",
                                        "output.checkpoint_interval=0.02"),
    "navier_stokes": [config("taylor_green_2d.yaml")] + sets("grid.nx=8", "grid.ny=8", "time.steps=6",
                                                             "output.checkpoint_every=3"),
}
SOLVERS = list(RUNS)
# More shapes of snapshots for the tools.
TOOL_RUNS = dict(RUNS, **{
    "euler_1d": [config("kh.yaml")] + sets("grid.nx=32", "grid.ny=1", "euler.problem=sod_x", "time.end_time=0.05",
                                           "output.every=2"),
    "euler_3d": [config("kh.yaml")] + sets("grid.nx=8", "grid.ny=8", "grid.nz=4", "time.cfl=0.3",
                                           "time.end_time=0.02"),
})


class Violation(Exception):
    pass


def run(command, cwd, timeout):
    """(status, stdout, stderr); status None when it did not end within timeout (its process group is killed)."""
    p = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return None, out.decode(errors="replace"), err.decode(errors="replace")
    return p.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def describe(path):
    """What is at path, without following a link or opening anything but a regular file."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ("absent",)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISREG(st.st_mode):
        with open(path, "rb") as f:
            return ("file", hashlib.sha256(f.read()).hexdigest(), st.st_mode & 0o7777)
    if stat.S_ISDIR(st.st_mode):
        return ("folder", st.st_mode & 0o7777)
    if stat.S_ISFIFO(st.st_mode):
        return ("named pipe", st.st_mode & 0o7777)
    return ("other", st.st_mode)


def tree(root, leave_out=()):
    """{relative path: describe()} of everything under root but the paths in leave_out."""
    state = {}

    def walk(rel):
        for name in sorted(os.listdir(os.path.join(root, rel))):
            r = os.path.join(rel, name) if rel else name
            if r in leave_out:
                continue
            state[r] = describe(os.path.join(root, r))
            if state[r][0] == "folder":
                walk(r)
    walk("")
    return state


def differences(before, after):
    lines = []
    for path in sorted(set(before) | set(after)):
        b, a = before.get(path, ("absent",)), after.get(path, ("absent",))
        if b != a:
            what = "created" if b[0] == "absent" else "removed" if a[0] == "absent" else "changed"
            lines.append(f"{path}: {what} ({b[0]} -> {a[0]})")
    return lines


def list_keys(solver):
    """[(key, type, choices, fixed)] from cfdrun --list-keys."""
    text = subprocess.run([cfdrun, "--list-keys", solver], capture_output=True, text=True, check=True).stdout
    keys = []
    for m in re.finditer(r"^  (\S+)\s+(\S+)\s+default (.*)$", text, re.M):
        brackets = [b for b in re.findall(r"\[([^\]]*)\]", m.group(3)) if not b.startswith("--restart")]
        choices = brackets[-1].split("|") if m.group(2) == "choice" and brackets else []
        keys.append((m.group(1), m.group(2), choices, "[--restart:" not in m.group(3)))
    return keys


def stored_config(path):
    """{section.key: value text} of cfdinfo PATH --config."""
    text = subprocess.run([cfdinfo, path, "--config"], capture_output=True, text=True, check=True).stdout
    values, section = {}, ""
    for line in text.splitlines():
        m = re.match(r"^(\S[^:]*):\s*(.*)$", line)
        if m:
            section = m.group(1)
            if m.group(2):
                values[section] = m.group(2)
            continue
        m = re.match(r"^  ([^:]+):\s*(.*)$", line)
        if m:
            values[f"{section}.{m.group(1)}"] = m.group(2).strip().strip('"')
    return values


class Case:
    def __init__(self, n, cls, rng, variant):
        self.n, self.cls, self.rng, self.variant = n, cls, rng, variant
        self.base = os.path.join(work, f"c{n:04d}_{cls}")
        self.runs = os.path.join(self.base, "runs")
        self.out = os.path.join(self.runs, "out")
        shown = f"{variant[0]} (allowed: status {' or '.join(map(str, sorted(variant[1])))})" \
            if isinstance(variant, tuple) else variant
        self.log = [f"variant: {shown}"]
        self.user_files = []
        self.watched = None

    def note(self, text):
        self.log.append(text)

    # The sentinel tree: WORK/cNNNN/{parent.txt, outside/, runs/{sibling.h5, sibling/, sibling_run/, out/}}.
    def make_tree(self, sibling_run=None):
        shutil.rmtree(self.base, ignore_errors=True)
        os.makedirs(os.path.join(self.base, "outside", "deep"))
        os.makedirs(os.path.join(self.runs, "sibling"))
        os.makedirs(self.out)
        files = {
            "parent.txt": "a file beside the runs' folder\n",
            "outside/precious.txt": "precious\n",
            "outside/deep/thesis.tex": "\\section{Results}\n",
            "outside/history.hst": "# step, time\n0, 0.0\n",
            "runs/sibling.h5": "not HDF5: a sibling of the output folder\n",
            "runs/sibling/diffusion.hst": "# step, time\n",
            "runs/sibling/.cfdrun-manifest": "diffusion.hst\n",
            "runs/out/notes.txt": "the user's notes\n",
            "runs/out/README.md": "# my run\n",
        }
        for rel, text in files.items():
            with open(os.path.join(self.base, rel), "w") as f:
                f.write(text)
        if sibling_run:
            shutil.copytree(sibling_run, os.path.join(self.runs, "sibling_run"), symlinks=True)
        self.user_files = [f[len("runs/out/"):] for f in files if f.startswith("runs/out/")]

    def add_user_file(self, rel, text="mine\n"):
        path = os.path.join(self.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        self.user_files.append(rel)

    def watch(self):
        users = {u: describe(os.path.join(self.out, u)) for u in self.user_files}
        self.watched = (tree(self.base, {"runs/out"}), users)

    def check_untouched(self, what):
        before, users = self.watched
        changed = differences(before, tree(self.base, {"runs/out"}))
        if changed:
            raise Violation(f"{what} touched files outside the output folder: " + "; ".join(changed[:8]))
        for u, d in users.items():
            now = describe(os.path.join(self.out, u))
            if now != d:
                raise Violation(f"{what} changed or removed the user's file out/{u} ({d[0]} -> {now[0]})")

    def shown(self, command):
        return "(cd " + shlex.quote(self.runs) + " && " + shlex.join(command) + ")"

    def setup(self, command, timeout=120):
        """A run that prepares the case: it must succeed."""
        self.note("setup: " + self.shown(command))
        status, out, err = run(command, self.runs, timeout)
        if status != 0:
            raise Violation(f"the set-up run ended with status {status}: {(out + err).strip()[-600:]}")

    def check(self, command, allowed=(0, 1, 2), timeout=60, tool="cfdrun"):
        """Runs a checked command: it ends in time, with an allowed status, without a crash."""
        self.note("run: " + self.shown(command))
        status, out, err = run(command, self.runs, timeout)
        text = out + err
        self.note(f"  -> status {status}: {text.strip()[-400:]}")
        tally[self.cls][status if status is not None else "timeout"] += 1
        if status is None:
            raise Violation(f"{tool} did not end within {timeout} s")
        if status < 0:
            raise Violation(f"{tool} was killed by signal {-status} ({signal.Signals(-status).name})")
        if status not in allowed:
            raise Violation(f"{tool} exited with status {status}; allowed here: {sorted(allowed)}")
        # (cfdinfo and cfdplot read a file's headers in a child process: "damaged HDF5 file (reading it
        # crashed the HDF5 library: Segmentation fault)" is their documented answer, status 2.)
        m = CRASH.search("\n".join(line for line in text.splitlines() if "damaged HDF5 file (" not in line))
        if m:
            raise Violation(f"{tool}'s output holds a crash report: '{m.group(0)}'")
        if status != 0 and "error" not in text:
            raise Violation(f"{tool} exited with status {status} without an error message")
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        if peak > MEMORY_LIMIT_KB:
            raise Violation(f"{tool} took {peak / 1024:.0f} MiB of memory (limit {MEMORY_LIMIT_KB / 1024:.0f} MiB)")
        return status, out, err


def fresh_run(solver, extra=()):
    return [cfdrun] + RUNS[solver] + ["-q", "--output", "out"] + list(extra)


def plant(case, name, kind):
    """Puts kind under out/name (replacing what is there); returns what it planted."""
    path = os.path.join(case.out, name)
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        if kind == "hard link out":  # a second name outside for the run's own file
            second = os.path.join(case.base, "outside", name.lstrip(".") + ".second")
            os.link(path, second)
            return f"out/{name} hard-linked as outside/{os.path.basename(second)}"
        os.remove(path)
    if kind == "hard link out":
        kind = "hard link in"
    if kind == "named pipe":
        os.mkfifo(path)
    elif kind == "folder":
        os.mkdir(path)
        case.add_user_file(os.path.join(name, "inside.txt"), "a file in the user's folder\n")
    elif kind == "link to file":
        os.symlink("../../outside/precious.txt", path)
    elif kind == "link to nothing":
        os.symlink("../../outside/new_file.txt", path)
    elif kind == "link to folder":
        os.symlink("../../outside/deep", path)
    elif kind == "absolute link":
        os.symlink(os.path.join(case.base, "outside", "precious.txt"), path)
    elif kind == "link to sibling":
        os.symlink("../sibling.h5", path)
    elif kind == "hard link in":
        os.link(os.path.join(case.base, "outside", "history.hst"), path)
    return f"out/{name}: {kind}"


def planted_stay(case, planted):
    """Pipes, folders and links planted under cfdrun's names stay; under NAME.tmp (cfdrun's name for NAME
    while it writes it) they may be removed, a folder only when empty (its user's file is watched)."""
    for name, kind, before in planted:
        now = describe(os.path.join(case.out, name))
        if name.endswith(".tmp") and now[0] == "absent":
            continue
        if kind in ("named pipe", "folder") and now[0] != before[0]:
            raise Violation(f"the {kind} planted as out/{name} became {now[0]}")
        if "link" in kind and "hard" not in kind and now != before:
            raise Violation(f"the symbolic link planted as out/{name} became {now}")


def special_files(case):
    rng = case.rng
    solver = rng.choice(SOLVERS)
    scenario = case.variant
    ref = reference[solver]
    user_hst = rng.random() < 0.15  # a user's file with a name cfdrun writes: the folder is refused
    case.make_tree(sibling_run=ref["folder"] if rng.random() < 0.3 else None)
    if scenario != "fresh":
        case.setup(fresh_run(solver))
    if user_hst:
        case.add_user_file("notes.hst", "the user's own history\n")
    names = [".cfdrun-manifest", ".cfdrun.lock", ".cfdrun-manifest.tmp"] + ref["files"] + \
        [f + ".tmp" for f in ref["files"]]
    kinds = ["named pipe", "folder", "link to file", "link to nothing", "link to folder", "absolute link",
             "link to sibling", "hard link in", "hard link out"]
    planted = []
    for name in rng.sample(names, rng.randint(1, 3)):
        kind = rng.choice(kinds)
        case.note("planted " + plant(case, name, kind))
        planted.append((name, kind, describe(os.path.join(case.out, name))))
    case.watch()
    if scenario == "restart":
        checkpoints = [n for n, _, _ in planted if n in ref["checkpoints"]]
        checkpoint = rng.choice(checkpoints) if checkpoints and rng.random() < 0.4 else rng.choice(ref["checkpoints"])
        command = [cfdrun, "--restart", "out/" + checkpoint, "-q"]
    else:
        command = fresh_run(solver, ["--overwrite"] if scenario != "fresh" or rng.random() < 0.5 else [])
    case.check(command)
    case.check_untouched(scenario)
    planted_stay(case, planted)


FORGED = [
    "notes.hst", "notes.txt", "README.md", "./notes.txt", "mydir", "mydir/", "mydir/inside.h5", "../sibling.h5",
    "../sibling/diffusion.hst", "../sibling_run/{solver}.hst", "../../parent.txt", "../../outside/precious.txt",
    "../../outside/deep", "{abs}/outside/precious.txt", "{abs}/runs/out/notes.txt", "/", "..", ".", "", " ", "\t",
    "\r", "{solver}.hst/../notes.txt", "{checkpoint}/../../../outside/precious.txt", "notes.txt\r",
    "{solver}_00000000.h5 ", " {solver}.hst", "x" * 5000, "{solver}_" + "9" * 3000 + ".h5", "*", "*.h5",
    "~/notes.txt", "$HOME", "{solver}_00009999.h5", "{solver}_00009998.h5", "checkpoint_00009997.h5",
    "../out/notes.txt", "out/notes.txt", "{solver}.hst\x00notes.txt",
]
# Lines of names cfdrun writes (of this run's solver, another's, checkpoints), some of them planted links.
NAMES_OF_RUNS = ["{solver}_00009999.h5", "{solver}_00009998.h5", "checkpoint_00009997.h5", "diagnosis_00000001.h5",
                 "{solver}.hst", "{solver}_final.txt", "", "{other}.hst", "{other}_00000000.h5", "{checkpoint}",
                 "{solver}.xdmf"]
FORGED_BYTES = [b"\xff\xfe\x80.h5", b"notes\xc3(.txt", b"\xed\xa0\x80", b"\x00" * 40, bytes(range(1, 32)) + b".h5"]


def forged_manifest(case):
    rng = case.rng
    solver = rng.choice(SOLVERS)
    ref = reference[solver]
    case.make_tree(sibling_run=ref["folder"] if rng.random() < 0.5 else None)
    case.setup(fresh_run(solver))
    # The user's files, added after the run: with a name cfdrun writes only
    # now and then (notes.hst makes --overwrite refuse the folder at once).
    case.add_user_file("mydir/inside.h5", "the user's data\n")
    if rng.random() < 0.3:
        case.add_user_file("notes.hst", "the user's history\n")
    os.symlink("../../outside/precious.txt", os.path.join(case.out, "notes_link.txt"))
    case.user_files.append("notes_link.txt")
    planted = []
    runs_names = rng.random() < 0.4  # lines that follow the manifest's rules: --overwrite goes on
    if runs_names or rng.random() < 0.4:  # a hard link and a symbolic link under names of the run
        name = f"{solver}_00009999.h5"
        os.link(os.path.join(case.base, "outside", "history.hst"), os.path.join(case.out, name))
        case.note(f"planted out/{name}: a hard link to outside/history.hst")
        name = f"{solver}_00009998.h5"
        os.symlink("../../outside/precious.txt", os.path.join(case.out, name))
        case.note(f"planted out/{name}: a symbolic link to outside/precious.txt")
        planted.append((name, "link to file", describe(os.path.join(case.out, name))))
    manifest = os.path.join(case.out, ".cfdrun-manifest")
    with open(manifest, "rb") as f:
        lines = f.read().split(b"\n")
    if runs_names:  # the planted links listed as the run's: --overwrite meets them
        lines[-1:-1] = [f"{solver}_00009999.h5".encode(), f"{solver}_00009998.h5".encode()]
    for _ in range(rng.randint(1, 4)):
        if runs_names or rng.random() < 0.8:
            text = rng.choice(NAMES_OF_RUNS if runs_names else FORGED)
            line = text.format(solver=solver, abs=case.base, checkpoint=rng.choice(ref["checkpoints"]),
                               other=rng.choice([s for s in SOLVERS if s != solver])).encode()
        else:
            line = rng.choice(FORGED_BYTES)
        where = len(lines) if rng.random() < 0.6 else rng.randrange(len(lines) + 1)
        lines.insert(where, line)
        case.note(f"manifest line {where + 1}: {line[:80]!r}{'...' if len(line) > 80 else ''}")
    with open(manifest, "wb") as f:
        f.write(b"\n".join(lines) + (b"\n" if rng.random() < 0.5 else b""))
    case.watch()
    if case.variant == "restart":
        command = [cfdrun, "--restart", "out/" + rng.choice(ref["checkpoints"]), "-q"]
    else:
        other = rng.choice(SOLVERS) if case.variant == "overwrite by another solver" else solver
        command = fresh_run(other, ["--overwrite"])
    case.check(command)
    case.check_untouched(case.variant)
    planted_stay(case, planted)


def different_value(kind, choices, current, rng):
    def differs(v):
        if current is None:
            return True
        try:
            return float(v) != float(current)
        except ValueError:
            return v != current
    if kind == "integer":
        pool = ["1", "2", "3", "5", "7", "9", "12", "17", "24", "33", "64", "100"]
    elif kind == "real":
        pool = ["0.001", "0.05", "0.2", "0.3", "0.7", "1.5", "2.5", "10"]
    elif kind == "boolean":
        pool = ["true", "false"]
    elif kind == "choice" and choices:
        pool = choices
    else:
        pool = ["x", "1 + x", "0.5", "state.h5", "a b", "2*pi"]
    pool = [v for v in pool if differs(v)]
    return rng.choice(pool) if pool else None


def fixed_keys(case):
    rng = case.rng
    solver = rng.choice(SOLVERS)
    ref = reference[solver]
    case.make_tree()
    case.setup(fresh_run(solver))
    candidates = [k for k in keys[solver] if k[3] and k[0] != "solver"]
    while True:
        key, kind, choices, _ = rng.choice(candidates)
        if key.endswith(".*"):
            key = key[:-1] + rng.choice(["zz", "a", "y0", "w"])
        value = different_value(kind, choices, ref["config"].get(key), rng)
        if value is not None:
            break
    checkpoint = rng.choice(ref["checkpoints"])
    # A former spelling of the key (a renamed section's, euler2d.*, or a renamed
    # key's), when it has one, in a third of the cases.
    formers = list(FORMER_SPELLINGS.get((solver, key), []))
    for old, new in _snapshot.FORMER_SECTIONS.items():
        if solver == new and key.startswith(new + "."):
            formers.append(old + key[len(new):])
        if solver == new:  # a renamed key of the renamed section: both its former spellings
            formers += [old + f[len(new):] for f in FORMER_SPELLINGS.get((solver, key), []) if f.startswith(new + ".")]
    if formers and rng.random() < 0.35:
        key = rng.choice(formers)
    options = [["--set", f"{key}={value}"]]
    if rng.random() < 0.3:
        options.append(["--set", "output.every=2"])  # a key that may change
    if rng.random() < 0.3:
        options.append(["--output", "out_new"])  # a new folder: not created
    rng.shuffle(options)
    command = [cfdrun, "--restart", "out/" + checkpoint, "-q"] + [a for o in options for a in o]
    case.note(f"{key} ({kind}, stored {ref['config'].get(key)!r}) set to {value!r}")
    folder = tree(case.out)
    case.watch()
    status, out, err = case.check(command, allowed=(2,))
    if f"'{key}' cannot change" not in out + err:
        raise Violation(f"the refusal does not say that '{key}' cannot change")
    case.check_untouched("a refused --restart")
    changed = differences(folder, tree(case.out))
    if changed:
        raise Violation("a refused --restart wrote in the output folder: " + "; ".join(changed[:8]))


BAD_FORMULAS = ["0/0", "1/0", "-1/0", "sqrt(-1)", "1e308*10", "log(0)", "log(-1)", "exp(1000)", "1e200*1e200",
                "x < 0.5 ? 1 : 0/0", "x > 0.5 ? 1/0 : 1", "asin(2)", "c*10"]
NON_FINITE_SETUPS = {
    # name: (case arguments, the formula keys (None: a passive scalar's), the precision key)
    "euler scalars": ([config("kh.yaml")] + sets("grid.nx=16", "grid.ny=16", "time.end_time=0.01"), None,
                      "euler.precision"),
    "euler 2D": ([config("kh.yaml")] + sets("grid.nx=16", "grid.ny=12", "time.end_time=0.01",
                                            "euler.problem=expression"),
                 ["expression.rho", "expression.p", "expression.vx", "expression.vy"], "euler.precision"),
    "euler 1D": ([config("kh.yaml")] + sets("grid.nx=32", "grid.ny=1", "time.end_time=0.01",
                                            "euler.problem=expression"),
                 ["expression.rho", "expression.p", "expression.vx"], "euler.precision"),
    "euler 3D": ([config("kh.yaml")] + sets("grid.nx=8", "grid.ny=8", "grid.nz=4", "time.cfl=0.3",
                                            "time.end_time=0.01", "euler.problem=expression"),
                 ["expression.rho", "expression.p", "expression.vx", "expression.vz"], "euler.precision"),
    "sod": ([config("sod.yaml")] + sets("grid.nx=40", "time.end_time=0.01", "sod.problem=expression"),
            ["expression.rho", "expression.p", "expression.u"], "sod.precision"),
    "diffusion": ([config("diffusion_seed.yaml")] + sets("grid.nx=16", "grid.ny=12", "time.steps=4",
                                                         "diffusion.problem=expression"),
                  ["expression.u"], "diffusion.precision"),
    "navier_stokes": ([config("taylor_green_2d.yaml")] + sets("grid.nx=8", "grid.ny=8", "time.steps=4",
                                                              "navier_stokes.problem=expression"),
                      ["expression.rho", "expression.p", "expression.vx"], "navier_stokes.precision"),
}


def non_finite_values(folder):
    """Names of HDF5 files under folder holding a float value that is not finite."""
    found = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not name.endswith((".h5", ".hdf5")) or not os.path.isfile(path) or os.path.islink(path):
            continue
        bad = []

        def visit(item_name, item):
            if isinstance(item, h5py.Dataset) and item.dtype.kind == "f" and not np.all(np.isfinite(item[()])):
                bad.append(item_name)
        try:
            with h5py.File(path, "r") as f:
                f.visititems(visit)
        except OSError:
            continue
        if bad:
            found.append(f"{name}: {', '.join(bad)}")
    return found


def non_finite(case):
    rng = case.rng
    name = case.variant
    args, fields, precision = NON_FINITE_SETUPS[name]
    case.make_tree()
    formula = rng.choice(BAD_FORMULAS)
    extra = []
    if formula == "c*10":
        extra += sets("constants.c=" + rng.choice(["1e308", "-1e308", "1.7e308"]))
    if precision and rng.random() < 0.25:  # finite in fp64, not in fp32
        extra += sets(precision + "=fp32")
        formula = rng.choice(["1e39", "-1e39", "x < 0.5 ? 1 : 4e38*2"])
    if fields is None:
        scalars = rng.randint(1, 3)
        key = f"scalars.s{rng.randint(1, scalars)}"
        extra += sets(f"euler.scalars={scalars}")
    else:
        key = rng.choice(fields)
    extra += sets(f"{key}={formula}")
    case.note(f"{name}: {key} = {formula}")
    case.watch()
    command = [cfdrun] + args + extra + ["-q", "--output", "out"]
    case.check(command, allowed=(2,))
    found = non_finite_values(case.out)
    if found:
        raise Violation("a snapshot holds values that are not finite: " + "; ".join(found))
    case.check([cfdrun] + args + extra + ["--validate"], allowed=(2,))
    case.check_untouched("a refused run")


# Initial-state files: (kind, statuses allowed). The 2D euler grid is
# 16 x 12 (not square: a file with the axes swapped is refused).
FILE_KINDS = [
    ("good", {0}), ("float32", {0}), ("integer", {0}), ("big-endian", {0}), ("in /fields", {0}),
    ("optional missing", {0}), ("deflate", {0}), ("soft link", {0}), ("symlink to a good file", {0}),
    ("external storage", {2}), ("cfdrun snapshot", {0}), ("NaN", {2}), ("Inf", {2}), ("not positive", {2}),
    ("fill value NaN", {2}), ("fill value 1, no data", {0, 2}), ("huge shape", {2}), ("huge chunked shape", {2}),
    ("huge 3D shape", {2}), ("axes swapped", {2}), ("flattened", {2}), ("extra axis", {2}), ("scalar", {2}),
    ("empty", {2}), ("strings", {2}), ("compound", {2}), ("complex", {2}), ("booleans", {0, 2}),
    ("a group", {2}), ("required missing", {2}), ("lzf filter", {2}), ("external storage missing", {2}),
    ("external storage short", {2}), ("external link", {2}), ("bits flipped", {0, 2}), ("cut short", {2}),
    ("text file", {2}), ("empty file", {2}), ("named pipe", {2}), ("folder", {2}), ("no such file", {2}),
    ("symlink to a named pipe", {2}), ("symlink loop", {2}), ("/dev/null", {2}),
    ("external storage in a named pipe", {2}), ("external link to a named pipe", {2}),
    ("soft link to an external link to a named pipe", {2}), ("external link as fields", {2}),
]
FILE_SETUPS = {
    # name: (case arguments, shape, required datasets, optional datasets)
    "euler 2D": ([config("kh.yaml")] + sets("grid.nx=16", "grid.ny=12", "time.end_time=0.01", "euler.problem=file"),
                 (12, 16), ["rho", "p"], ["vx", "vy"]),
    "euler 3D": ([config("kh.yaml")] + sets("grid.nx=8", "grid.ny=6", "grid.nz=4", "time.cfl=0.3",
                                            "time.end_time=0.01", "euler.problem=file"),
                 (4, 6, 8), ["rho", "p"], ["vx", "vy", "vz"]),
    "sod": ([config("sod.yaml")] + sets("grid.nx=40", "time.end_time=0.01", "sod.problem=file"), (40,),
            ["rho", "p"], ["u"]),
    "diffusion": ([config("diffusion_seed.yaml")] + sets("grid.nx=16", "grid.ny=12", "time.steps=4",
                                                         "diffusion.problem=file"), (12, 16), ["u"], []),
}


def initial_file(case, setup, kind, rng):
    """Writes the file (or what stands for it) for kind; returns its path."""
    args, shape, required, optional = FILE_SETUPS[setup]
    folder = os.path.join(case.base, "outside")
    path = os.path.join(folder, "state.h5")
    names = required + optional
    target = rng.choice(required if kind in ("not positive", "required missing") else names)

    def values(name):
        if name in ("rho", "p"):
            return 1.0 + 0.5 * np.random.default_rng(7).random(shape)
        if name == "u" and setup == "diffusion":
            return np.random.default_rng(8).random(shape)
        return np.full(shape, 0.1)

    def write(p, special=None, group=""):
        with h5py.File(p, "w") as f:
            for name in names:
                if kind == "optional missing" and name in optional:
                    continue
                if kind == "required missing" and name == target and name in required:
                    continue
                if special and name == target:
                    special(f, group + name)
                else:
                    f[group + name] = values(name)
        return p

    def replaced(data):
        return lambda f, name: f.create_dataset(name, data=data)

    good = os.path.join(folder, "good.h5")
    fifo = os.path.join(folder, "pipe.h5")
    if kind in ("good", "optional missing", "required missing"):
        return write(path)
    if kind == "float32":
        return write(path, replaced(values(target).astype(np.float32)))
    if kind == "integer":
        dtype = rng.choice(["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"])
        case.note(f"{target} as {dtype}")
        return write(path, replaced(np.full(shape, 2 if target in ("rho", "p", "u") else 0, dtype=dtype)))
    if kind == "big-endian":
        return write(path, replaced(values(target).astype(">f8")))
    if kind == "in /fields":
        return write(path, group="fields/")
    if kind == "deflate":
        return write(path, lambda f, name: f.create_dataset(name, data=values(target), chunks=True, compression="gzip",
                                                            shuffle=rng.random() < 0.5, fletcher32=rng.random() < 0.5))
    if kind == "soft link":
        other = rng.choice([n for n in names if n != target and (n in ("rho", "p")) == (target in ("rho", "p"))]
                           or [target])
        if other == target:
            return write(path)
        return write(path, lambda f, name: f.__setitem__(name, h5py.SoftLink("/" + other)) if other in f else
                     f.create_dataset(name, data=values(target)))
    if kind == "symlink to a good file":
        write(good)
        os.symlink("good.h5", path)
        return path
    if kind.startswith("external storage"):
        raw = values(target).astype("<f8").tobytes()
        if kind == "external storage in a named pipe":
            os.mkfifo(fifo)
            store = fifo
        else:
            store = os.path.join(folder, "raw.bin")
            if kind != "external storage missing":
                with open(store, "wb") as f:
                    f.write(raw[: len(raw) // 3] if kind == "external storage short" else raw)
        return write(path, lambda f, name: f.create_dataset(name, shape=shape, dtype="<f8",
                                                            external=[(store, 0, h5py.h5f.UNLIMITED)]))
    if kind == "soft link to an external link to a named pipe":
        os.mkfifo(fifo)

        def soft_to_external(f, name):
            f["elsewhere"] = h5py.ExternalLink(fifo, "/" + name)
            f[name] = h5py.SoftLink("/elsewhere")
        return write(path, soft_to_external)
    if kind == "external link as fields":  # the group itself in another file
        os.mkfifo(fifo)
        with h5py.File(path, "w") as f:
            f["fields"] = h5py.ExternalLink(fifo, "/fields")
        return path
    if kind.startswith("external link"):
        if kind == "external link to a named pipe":
            os.mkfifo(fifo)
            other = fifo
        else:
            other = write(good)
        return write(path, lambda f, name: f.__setitem__(name, h5py.ExternalLink(other, "/" + name)))
    if kind == "cfdrun snapshot":
        snapshot = reference_snapshot[setup]
        shutil.copy(snapshot, path)
        return path
    if kind in ("NaN", "Inf", "not positive"):
        data = values(target)
        index = tuple(rng.randrange(1, n - 1) if n > 2 else 0 for n in shape)  # interior: diffusion's edges hold 0
        data[index] = {"NaN": np.nan, "Inf": rng.choice([np.inf, -np.inf]), "not positive": rng.choice([0.0, -1.0])}[
            kind]
        case.note(f"{target}[{index}] = {data[index]}")
        return write(path, replaced(data))
    if kind == "fill value NaN":
        return write(path, lambda f, name: f.create_dataset(name, shape=shape, dtype="f8", fillvalue=np.nan))
    if kind == "fill value 1, no data":
        return write(path, lambda f, name: f.create_dataset(name, shape=shape, dtype="f8", fillvalue=1.0))
    if kind == "huge shape":
        big = (16000,) * len(shape) if len(shape) < 3 else (1000, 1000, 1000)
        return write(path, lambda f, name: f.create_dataset(name, shape=big, dtype="f8"))
    if kind == "huge chunked shape":
        big = (2 ** 40, 2 ** 20, 2 ** 10)[: len(shape)]
        return write(path, lambda f, name: f.create_dataset(name, shape=big, dtype="f8", chunks=(16,) * len(shape)))
    if kind == "huge 3D shape":
        return write(path, lambda f, name: f.create_dataset(name, shape=(2 ** 20, 2 ** 20, 2 ** 20), dtype="f4",
                                                            chunks=(8, 8, 8)))
    if kind == "axes swapped":
        swapped = tuple(reversed(shape)) if len(shape) > 1 else (shape[0] + 1,)
        return write(path, replaced(np.ones(swapped)))
    if kind == "flattened":
        flat = (int(np.prod(shape)),) if len(shape) > 1 else (1, shape[0])
        return write(path, replaced(np.ones(flat)))
    if kind == "extra axis":
        return write(path, replaced(np.ones((1,) + shape)))
    if kind == "scalar":
        return write(path, replaced(np.float64(1.0)))
    if kind == "empty":
        return write(path, replaced(np.zeros((0,) * len(shape))))
    if kind == "strings":
        return write(path, replaced(np.full(shape, b"1.0", dtype="S3")))
    if kind == "compound":
        return write(path, replaced(np.zeros(shape, dtype=[("a", "f8"), ("b", "i4")])))
    if kind == "complex":
        return write(path, replaced(np.ones(shape, dtype=complex)))
    if kind == "booleans":
        return write(path, replaced(np.ones(shape, dtype=bool)))
    if kind == "a group":
        return write(path, lambda f, name: f.create_group(name))
    if kind == "lzf filter":
        # (constant values: a chunk that lzf cannot shrink is stored unfiltered, and read)
        return write(path, lambda f, name: f.create_dataset(name, data=np.full(shape, 2.0), compression="lzf"))
    if kind in ("bits flipped", "cut short"):
        write(path)
        data = bytearray(open(path, "rb").read())
        if kind == "cut short":
            data = data[: rng.randrange(len(data) // 2)]
        else:
            for _ in range(rng.randint(1, 6)):
                data[rng.randrange(min(len(data), 4096))] ^= 1 << rng.randrange(8)
        with open(path, "wb") as f:
            f.write(data)
        return path
    if kind == "text file":
        with open(path, "w") as f:
            f.write("rho p\n1 1\n")
        return path
    if kind == "empty file":
        open(path, "w").close()
        return path
    if kind == "named pipe":
        os.mkfifo(path)
        return path
    if kind == "folder":
        os.mkdir(path)
        return path
    if kind == "no such file":
        return path
    if kind == "symlink to a named pipe":
        os.mkfifo(fifo)
        os.symlink("pipe.h5", path)
        return path
    if kind == "symlink loop":
        os.symlink("loop.h5", path)
        os.symlink("state.h5", os.path.join(folder, "loop.h5"))
        return path
    if kind == "/dev/null":
        return "/dev/null"
    raise ValueError(kind)


def initial_files(case):
    rng = case.rng
    kind, allowed = case.variant
    setup = rng.choice(list(FILE_SETUPS))
    args = FILE_SETUPS[setup][0]
    case.make_tree()
    path = initial_file(case, setup, kind, rng)
    case.note(f"{setup}: file.path is {kind}")
    if kind == "not positive" and setup == "diffusion":
        allowed = {0}  # any finite u
    case.watch()
    if rng.random() < 0.5:
        command = [cfdrun] + args + sets("file.path=" + path) + ["--validate"]
    else:
        command = [cfdrun] + args + sets("file.path=" + path) + ["-q", "--output", "out"]
    case.check(command, allowed=allowed, timeout=20)
    if kind in ("NaN", "Inf"):
        found = non_finite_values(case.out)
        if found:
            raise Violation("a snapshot holds values that are not finite: " + "; ".join(found))
    case.check_untouched("a run from an initial-state file")


DAMAGE = ["flip", "flip in the headers", "cut", "zero a block", "random block", "append"]
PIPES = ["named pipe as the history", "named pipe as a snapshot", "named pipe as a reference curve"]


def damage(data, how, rng):
    data = bytearray(data)
    if how.startswith("flip"):
        span = min(len(data), 4096) if how == "flip in the headers" else len(data)
        spots = [(rng.randrange(span), rng.randrange(8)) for _ in range(rng.randint(1, 8))]
        for offset, bit in spots:
            data[offset] ^= 1 << bit
        return bytes(data), f"bits {spots}"
    if how == "cut":
        keep = rng.randrange(len(data))
        return bytes(data[:keep]), f"to {keep} of {len(data)} bytes"
    start = rng.randrange(len(data))
    size = rng.choice([8, 64, 512, 4096])
    if how == "zero a block":
        data[start:start + size] = bytes(len(data[start:start + size]))
    elif how == "random block":
        data[start:start + size] = bytes(rng.randrange(256) for _ in range(len(data[start:start + size])))
    else:
        data += bytes(rng.randrange(256) for _ in range(size))
    return bytes(data), f"{size} bytes at {start}"


def one_line_error(tool, status, err, names):
    if status != 2:
        return
    lines = [line for line in err.splitlines() if line.strip()]
    if len(lines) != 1 or not any(n in lines[0] for n in names):
        raise Violation(f"{tool} exited with status 2 without a one-line error naming {names[0]}: {err.strip()[:600]}")


def damaged_tools(case):
    rng = case.rng
    how = case.variant
    source = rng.choice(list(TOOL_RUNS))
    ref = tool_reference[source]
    case.make_tree()
    for name in os.listdir(ref):
        if name != ".cfdrun.lock":
            shutil.copy(os.path.join(ref, name), os.path.join(case.out, name))
    files = sorted(n for n in os.listdir(ref) if n.endswith((".h5", ".hst", ".xdmf", ".hdf5")))
    snapshots = [n for n in files if re.match(r".*_\d{8}\.h5$", n) and not n.startswith("checkpoint")]
    history = [n for n in files if n.endswith(".hst")][0]
    with open(os.path.join(ref, history)) as f:
        columns = [line for line in f if not line.startswith("#")][0].strip().split(",")[3:]
    reference_curve = None
    if how in PIPES:
        name = {PIPES[0]: history, PIPES[1]: rng.choice(snapshots), PIPES[2]: "reference.txt"}[how]
        if how == PIPES[2]:
            reference_curve, name = "out/" + name, history
        path = os.path.join(case.base, "runs", reference_curve) if reference_curve else os.path.join(case.out, name)
        if os.path.exists(path):
            os.remove(path)
        os.mkfifo(path)
        case.note(f"{source}: {os.path.relpath(path, case.runs)} is a named pipe")
    else:
        name = rng.choice(snapshots) if rng.random() < 0.6 else rng.choice(files)
        path = os.path.join(case.out, name)
        with open(path, "rb") as f:
            data, what = damage(f.read(), how, rng)
        with open(path, "wb") as f:
            f.write(data)
        case.note(f"{source}: out/{name} damaged ({how}: {what})")
    case.watch()
    rel = "out/" + name
    if not reference_curve and (name.endswith(".h5") or rng.random() < 0.3):
        target = rel if rng.random() < 0.8 else "out"
        command = [cfdinfo, target] + rng.choice([[], [], ["--json"], ["--config"]])
        status, out, err = case.check(command, allowed=(0, 2), tool="cfdinfo")
        one_line_error("cfdinfo", status, err, [name, target])
    # (cfdplot on a named pipe as a snapshot gives up after its 10 s limit on
    # reading headers: tried now and then only.)
    if have_matplotlib and (how != PIPES[1] or rng.random() < 0.25):
        if reference_curve:
            command = [sys.executable, cfdplot, "--history", rel, "--columns", rng.choice(columns),
                       "--reference", reference_curve, "-o", "out/picture.png"]
            name = os.path.basename(reference_curve)
        elif name.endswith(".hst"):
            command = [sys.executable, cfdplot, "--history", rel, "-o", "out/picture.png"]
        elif name.endswith(".xdmf"):
            command = [sys.executable, cfdplot, rel]
        else:
            command = [sys.executable, cfdplot, rel, "-o", "out/picture.png"]
            if rng.random() < 0.3:
                command += ["-f", rng.choice(["rho", "p", "u", "vx", "T", "s1"])]
        status, out, err = case.check(command, allowed=(0, 2), tool="cfdplot")
        one_line_error("cfdplot", status, err, [name])
    case.check_untouched("a tool on a damaged file")


VARIANTS = {
    "special_files": ["fresh", "overwrite", "restart"],
    "forged_manifest": ["overwrite", "restart", "overwrite by another solver"],
    "fixed_keys": SOLVERS,
    "non_finite": list(NON_FINITE_SETUPS),
    "initial_files": FILE_KINDS,
    "damaged_tools": DAMAGE * 2 + PIPES,
}
RUN_CLASS = {"special_files": special_files, "forged_manifest": forged_manifest, "fixed_keys": fixed_keys,
             "non_finite": non_finite, "initial_files": initial_files, "damaged_tools": damaged_tools}


def prepare():
    """Reference runs: the names each solver writes, its stored configuration, snapshots for the tools."""
    global reference, tool_reference, reference_snapshot, keys
    folder = os.path.join(work, "reference")
    os.makedirs(folder)
    reference, tool_reference, reference_snapshot = {}, {}, {}
    for name, args in TOOL_RUNS.items():
        out = os.path.join(folder, name)
        status, text, err = run([cfdrun] + args + ["-q", "--output", out], folder, 120)
        if status != 0:
            sys.exit(f"FAIL: the reference run {name} ended with status {status}: {text}{err}")
        tool_reference[name] = out
        if name in RUNS:
            files = [f for f in open(os.path.join(out, ".cfdrun-manifest")).read().split("\n") if f]
            checkpoints = sorted(f for f in files if f.startswith("checkpoint_"))
            reference[name] = {"folder": out, "files": files, "checkpoints": checkpoints,
                               "config": stored_config(os.path.join(out, checkpoints[0]))}
    # Snapshots of the initial-state grids, as initial-state files.
    for setup, (args, _, _, _) in FILE_SETUPS.items():
        out = os.path.join(folder, "file_" + setup.replace(" ", "_"))
        plain = [a for i, a in enumerate(args) if not a.endswith("problem=file") and
                 not (i + 1 < len(args) and args[i + 1].endswith("problem=file"))]
        status, text, err = run([cfdrun] + plain + ["-q", "--output", out], folder, 120)
        if status != 0:
            sys.exit(f"FAIL: the reference run for {setup} ended with status {status}: {text}{err}")
        first = sorted(f for f in os.listdir(out) if re.search(r"_0+\.h5$", f) and not f.startswith("checkpoint_"))
        reference_snapshot[setup] = os.path.join(out, first[0])
    keys = {solver: list_keys(solver) for solver in SOLVERS}


def main():
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prepare()
    master = random.Random(SEED)
    names, weights = list(CLASSES), list(CLASSES.values())
    orders = {}
    for k, cls in enumerate(names):  # each class walks through its variants in a shuffled order
        orders[cls] = list(VARIANTS[cls])
        random.Random(SEED + k).shuffle(orders[cls])
    drawn = collections.Counter()
    ran = collections.Counter()
    for n in range(count):
        cls = master.choices(names, weights)[0]
        case_seed = master.getrandbits(32)
        variant = orders[cls][drawn[cls] % len(orders[cls])]
        drawn[cls] += 1
        if cls in skip:
            continue
        case = Case(n, cls, random.Random(case_seed), variant)
        try:
            RUN_CLASS[cls](case)
        except Violation as e:
            print(f"FAIL: case {n}, class {cls}: {e}")
            print("  " + "\n  ".join(case.log))
            print(f"  (the case's files are kept in {case.base})")
            return 1
        ran[cls] += 1
        shutil.rmtree(case.base, ignore_errors=True)
    for cls in names:
        statuses = ", ".join(f"{n} with status {s}" for s, n in sorted(tally[cls].items(), key=str))
        state = "skipped (FUZZ_FILES_SKIP)" if cls in skip else f"{ran[cls]} cases, their runs {statuses}"
        print(f"{cls}: {drawn[cls]} drawn, {state}")
    if not have_matplotlib:
        print(f"(cfdplot not run: no matplotlib in {sys.executable}, or no {cfdplot})")
    skipped = f" ({', '.join(sorted(skip))} skipped)" if skip else ""
    print(f"file fuzz: {sum(ran.values())} cases, all ended as documented{skipped}")
    return 0


tally = collections.defaultdict(collections.Counter)
reference = tool_reference = reference_snapshot = keys = None
if __name__ == "__main__":
    sys.exit(main())
