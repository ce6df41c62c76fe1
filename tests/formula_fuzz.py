#!/usr/bin/env python3
"""Malformed formulas in case files (#30): every one ends in exit 2 with a
message naming the file, line, column of the key, and the column inside the
formula, never a crash; valid neighbours run --validate with exit 0, or,
where their state is not physical (a negative density), exit 2 with the
cell: --validate builds the initial state as the run does.

usage: formula_fuzz.py CFDRUN WORK_DIR
Fixed seed; bounded (about 300 cfdrun --validate calls, 10 s here).
"""
import os
import random
import re
import subprocess
import sys

cfdrun, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = random.Random(20261202)

base = "rho1 - rm*exp((y - y0)/L) + 0.01*sin(4*pi*x)"
keys = ["rho", "vx", "vy", "p"]
inserts = ["$", "*", ")", "(", "=", ",", "#x", "foo", "sin", "1e", "..", "?", ":", "[", "'", "\\\\", "^^", "y0y0"]
formulas = []
# Each position of the base formula with each kind of damage.
for pos in range(len(base) + 1):
    for ins in rng.sample(inserts, 5):
        formulas.append(base[:pos] + ins + base[pos:])
for pos in range(len(base)):
    formulas.append(base[:pos] + base[pos + 1:])  # one character deleted
formulas += ["", "   ", "(", ")", "1 +", "sin()", "undefined_name", "x = 1", "1, 2", "?", "min(", "2 ** 3"]

refused = accepted = unphysical = 0
pattern = re.compile(r"case_\d+\.yaml:(\d+):(\d+): error: 'expression\.(\w+)': column (\d+) of the formula: .+\n  (.*)\n( *)\^")
for n, formula in enumerate(formulas):
    key = keys[n % 4]
    path = os.path.join(work, "case_%d.yaml" % n)
    quoted = formula.replace("\\", "\\\\").replace('"', '\\"')
    with open(path, "w") as f:
        f.write("solver: euler\neuler:\n  problem: expression\nconstants: {rho1: 1, rm: -0.5, y0: 0.25, L: 0.025}\n"
                "expression:\n  %s: \"%s\"\n" % (key, quoted))
    r = subprocess.run([cfdrun, path, "--validate"], capture_output=True, text=True, timeout=60)
    if r.returncode < 0:
        sys.exit("FAIL: %r: killed by signal %d" % (formula, -r.returncode))
    if r.returncode == 0:
        accepted += 1
        continue
    if r.returncode != 2:
        sys.exit("FAIL: %r: exit %d: %s" % (formula, r.returncode, r.stderr))
    if "is not physical: cell (i, j) = (" in r.stderr and "(from the formulas expression.*)" in r.stderr:
        unphysical += 1  # a well-formed formula whose state the run would refuse
        continue
    m = pattern.search(r.stderr)
    if not m:
        sys.exit("FAIL: %r: the message does not name the place: %s" % (formula, r.stderr))
    line, column, name, inner, shown, pad = m.groups()
    if (int(line), int(column), name) != (6, 5 + len(key), key):
        sys.exit("FAIL: %r: wrong place %s:%s %s: %s" % (formula, line, column, name, r.stderr))
    inner = int(inner)
    if shown != formula or not (1 <= inner <= len(formula) + 1) or len(pad) != 2 + inner - 1:
        sys.exit("FAIL: %r: column %d or caret wrong: %s" % (formula, inner, r.stderr))
    refused += 1

print("%d malformed formulas refused with exit 2 and the place, %d valid neighbours accepted, %d whose state is not "
      "physical refused with the cell" % (refused, accepted, unphysical))
if refused < 200:
    sys.exit("FAIL: only %d refusals; the fuzz set is too weak" % refused)
