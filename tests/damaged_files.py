#!/usr/bin/env python3
"""Damaged snapshots never crash the tools (issue #34).

usage: damaged_files.py BIN_DIR CONFIG_DIR [VARIANTS] [SEED]

Writes a small diffusion and a small sod snapshot with cfdrun, then makes
VARIANTS (default 70) copies of them with 1 to 4 bits flipped at places drawn
from a fixed SEED (default 34), and runs cfdinfo (text and --json) and
cfdcompare (against the undamaged file; --exact for sod) on each. Every run
must end with one of the documented statuses 0 to 3, within a minute: a
signal (HDF5 1.10 crashes in H5HG_read on some of these files, and loops for
ever there on others), a hang or an exit status outside 0-3 fails the test,
and so does a status 2 without a message. Only the standard library is needed.
"""
import collections
import glob
import os
import random
import subprocess
import sys


def run(command, timeout=60):
    try:
        r = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=timeout)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def snapshot(cfdrun, case, out, sets):
    command = [cfdrun, case, "-q", "--output", out, "--overwrite"]
    for s in sets:
        command += ["--set", s]
    status, text = run(command, timeout=300)
    if status != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited {status}:\n{text}")
    files = sorted(f for f in glob.glob(os.path.join(out, "*_[0-9]*.h5")) if "checkpoint_" not in f)
    if not files:
        sys.exit(f"FAIL: {out} holds no snapshot")
    return files[-1]


def main():
    bin_dir, config = sys.argv[1], sys.argv[2]
    variants = int(sys.argv[3]) if len(sys.argv) > 3 else 70
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 34
    cfdinfo, cfdcompare = os.path.join(bin_dir, "cfdinfo"), os.path.join(bin_dir, "cfdcompare")
    cfdrun = os.path.join(bin_dir, "cfdrun")
    # Small grids: the files are mostly metadata (headers, attributes, the
    # global heap of the strings), where a flipped bit does the most harm.
    diffusion = snapshot(cfdrun, os.path.join(config, "diffusion_seed.yaml"), "damaged_diffusion",
                         ["grid.nx=12", "grid.ny=8", "time.steps=4"])
    sod = snapshot(cfdrun, os.path.join(config, "sod.yaml"), "damaged_sod", ["grid.nx=24"])
    commands = {
        "diffusion": lambda f: {"cfdinfo": [cfdinfo, f], "cfdinfo --json": [cfdinfo, f, "--json"],
                                "cfdcompare": [cfdcompare, diffusion, f]},
        "sod": lambda f: {"cfdinfo": [cfdinfo, f], "cfdinfo --json": [cfdinfo, f, "--json"],
                          "cfdcompare --exact": [cfdcompare, "--exact", f]},
    }
    # The undamaged files: every tool reads them.
    for kind, original in (("diffusion", diffusion), ("sod", sod)):
        for tool, command in commands[kind](original).items():
            status, text = run(command)
            if status != 0:
                sys.exit(f"FAIL: {tool} on the undamaged {original} exited {status}:\n{text}")

    rng = random.Random(seed)
    tally = collections.defaultdict(collections.Counter)
    damaged_messages = 0
    failures = []
    for v in range(variants):
        kind, original = (("diffusion", diffusion), ("sod", sod))[v % 2]
        data = bytearray(open(original, "rb").read())
        flips = []
        for _ in range(rng.randint(1, 4)):
            offset, bit = rng.randrange(len(data)), rng.randrange(8)
            data[offset] ^= 1 << bit
            flips.append(f"{offset}:{bit}")
        path = f"damaged_{v:03d}.h5"
        with open(path, "wb") as f:
            f.write(data)
        for tool, command in commands[kind](path).items():
            status, text = run(command)
            tally[tool][status] += 1
            damaged_messages += "damaged HDF5 file" in text
            if status not in (0, 1, 2, 3):
                how = f"signal {-status}" if isinstance(status, int) and status < 0 else f"status {status}"
                failures.append(f"{tool} on {path} ({kind}, bits {' '.join(flips)} flipped): {how}\n{text}")
            elif status == 2 and not text.strip():  # every refusal says why
                failures.append(f"{tool} on {path}: status 2 without a message")
        if not failures:
            os.remove(path)
    for tool in sorted(tally):
        print(f"{tool:20s} " + ", ".join(f"status {s}: {n}" for s, n in sorted(tally[tool].items(), key=str)))
    print(f"{damaged_messages} run(s) said 'damaged HDF5 file' (HDF5 crashed or looped in the reading child)")
    if failures:
        print(f"FAIL: {len(failures)} run(s) ended outside statuses 0-3 or said nothing:")
        for f in failures:
            print("  " + f)
        sys.exit(1)
    print(f"every run of {variants} damaged files ended with status 0-3")


if __name__ == "__main__":
    main()
