#!/usr/bin/env python3
"""Fuzzing cfdrun's command line through the binary: a fixed-seed set of
mutated command lines (options dropped, repeated, swapped, cut short, given
odd values; --set with any key and odd values; --kokkos-*, --wall-time,
--restart, --output with odd text). Every run must end within its time limit
with exit status 0, 1 or 2 (3 only with a wall-time limit), never a signal,
an uncaught exception or a sanitizer report; a --validate that exits 0 must
hold every --set value it was given.

usage: fuzz_cli.py CFDRUN CONFIG_DIR [COUNT]
"""
import os
import random
import re
import shutil
import subprocess
import sys

cfdrun, config_dir = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 400
rng = random.Random(20261130)
cases = sorted(os.path.join(config_dir, f) for f in os.listdir(config_dir) if f.endswith(".yaml"))

keys = {}  # solver -> [(key, type)]
solvers = [line.split()[0] for line in
           subprocess.run([cfdrun, "--list-solvers"], capture_output=True, text=True, check=True).stdout.splitlines()]
for solver in solvers:
    listing = subprocess.run([cfdrun, "--list-keys", solver], capture_output=True, text=True, check=True).stdout
    keys[solver] = [(m.group(1), m.group(2)) for m in re.finditer(r"^  (\S+)\s+(\S+)\s+default", listing, re.M)]
all_keys = sorted({k for v in keys.values() for k, _ in v})

odd = ["0", "-1", "1", "2", "64", "1e3", "1e-320", "nan", "inf", "", "~", "- x", "[1, 2]", "{a: 1}", "run # 2",
       "true", "no", "fp32", "left", "hllc", "rk3", "outflow", "0x10", "9223372036854775808", "é", "a b", "\t",
       "x" * 500, "=", "a=b", "00:00:01", "1:99:00", "'q'", '"q"', "\\", "%s%n", "../x", "/dev/null"]
options = ["--set", "--output", "--overwrite", "--validate", "--quiet", "-q", "--list-keys", "--markdown",
           "--version", "--help", "-h", "--restart", "--wall-time", "--kokkos-threads=1", "--kokkos-threads=abc",
           "--kokkos-num-threads=-3", "--kokkos-threads=", "--kokkos-numa=2", "--kokkos-help", "--frobnicate", "-",
           "--", "--set=grid.nx=8", "--set=", "--sett"]
sanitizer = re.compile(r"AddressSanitizer|LeakSanitizer|runtime error:|terminate called|Aborted|Segmentation")


def mutated():
    case = rng.choice(cases)
    args = [case]
    validate = rng.random() < 0.8
    for _ in range(rng.randint(0, 5)):
        r = rng.random()
        if r < 0.5:
            key = rng.choice(all_keys) if rng.random() < 0.8 else rng.choice(["grid", ".nx", "grid.", "a.b.c", "solver"])
            args += ["--set", key + "=" + rng.choice(odd)] if rng.random() < 0.9 else ["--set", key]
        elif r < 0.8:
            args.append(rng.choice(options))
            if args[-1] in ("--output", "--restart", "--wall-time") and rng.random() < 0.8:
                args.append(rng.choice(odd + [case]))
        else:
            args.append(rng.choice(odd + cases))
    # command-line level edits
    r = rng.random()
    if r < 0.15 and len(args) > 1:
        del args[rng.randrange(len(args))]
    elif r < 0.25 and len(args) > 1:
        i, j = rng.randrange(len(args)), rng.randrange(len(args))
        args[i], args[j] = args[j], args[i]
    elif r < 0.35 and args:
        i = rng.randrange(len(args))
        args[i] = args[i][: rng.randrange(len(args[i]) + 1)]
    if validate:
        args.append("--validate")
    else:
        # A real run, kept small: the last --set wins.
        args += ["--set", "grid.nx=12", "--set", "time.steps=3", "--output", "fuzz_cli.out", "--overwrite", "-q"]
        if "euler" in open(case).read() or "sod" in open(case).read():
            args += ["--set", "time.end_time=0"]
        if "diffusion" not in open(case).read():
            pass
        else:
            args += ["--set", "grid.ny=12"]
    return args


exit_counts = {}


def check(args):
    try:
        p = subprocess.run([cfdrun] + args, capture_output=True, timeout=60, errors="replace",
                           env=dict(os.environ, OMP_NUM_THREADS="1"))
    except subprocess.TimeoutExpired:
        return "did not end within 60 s"
    out = p.stdout + p.stderr
    exit_counts[p.returncode] = exit_counts.get(p.returncode, 0) + 1
    if p.returncode < 0:
        return f"killed by signal {-p.returncode}"
    allowed = {0, 1, 2} | ({3} if any(a.startswith("--wall-time") or "wall_time" in a for a in args) else set())
    if p.returncode not in allowed:
        return f"exit status {p.returncode}"
    if sanitizer.search(out):
        return "a crash or sanitizer report: " + sanitizer.search(out).group(0)
    if p.returncode != 0 and not re.search(r"error", out):
        return "failed without an error message"
    if p.returncode == 0 and "--validate" in args and "valid; resolved configuration" in out:
        # Every --set must be in the resolved configuration, with its value.
        sets = {}
        for i, a in enumerate(args[:-1]):
            if a == "--set" and "=" in args[i + 1]:
                key, value = args[i + 1].split("=", 1)
                sets[key] = value
        for key, value in sets.items():
            section, _, name = key.partition(".")
            block = re.search(rf"^{re.escape(section)}:\n((?:  .*\n)*)", out, re.M)
            if not block or not re.search(rf"^  {re.escape(name)}: ", block.group(1), re.M):
                return f"--set {key} accepted but not in the resolved configuration"
    return ""


failures = 0
statuses = {}
for n in range(count):
    args = mutated()
    problem = check(args)
    key = problem or "ok"
    statuses[key] = statuses.get(key, 0) + 1
    if problem:
        failures += 1
        if failures <= 10:
            print(f"FAIL {n}: {problem}: cfdrun {' '.join(repr(a) for a in args)}")
shutil.rmtree("fuzz_cli.out", ignore_errors=True)
tally = ", ".join(f"{n} with status {s}" for s, n in sorted(exit_counts.items()))
print(f"{count} command lines: {count - failures} ended cleanly ({tally}), {failures} did not")
sys.exit(1 if failures else 0)
