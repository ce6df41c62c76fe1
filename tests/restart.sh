#!/usr/bin/env bash
# usage: restart.sh BIN_DIR NAME "N_WHOLE N_FIRST N_REST" CASE.yaml FIRST_SET REST_SET [cfdrun options...]
#
# Runs CASE three times: in one go on N_WHOLE ranks; up to FIRST_SET (a
# key=value that ends the run early, e.g. time.end_time=0.2) on N_FIRST
# ranks; then from the checkpoint that run left, with --restart --set
# REST_SET on N_REST ranks, into the same folder. Passes when the two
# folders hold the same snapshot series (the same files, every field bit for
# bit, the same time and step attributes), the same XDMF index and the same
# history and text files, byte for byte, and the same mesh file of a
# cell-centred series (<solver>_mesh.hdf5), array for array. A rank count of 0 runs cfdrun
# without mpirun.
#
# FIRST_SET from:STEP instead takes a copy of the uninterrupted run's folder
# and continues it from its checkpoint_<STEP>.h5 (written on the way, e.g.
# by output.checkpoint_every): the continued run must cut the history back,
# drop the later snapshots and write them again, the same bits.
set -euo pipefail
bin=$1 name=$2 ranks=($3) case_file=$4 first_set=$5 rest_set=$6
shift 6
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_PROC_BIND=false
export OMPI_MCA_rmaps_base_oversubscribe=1
if [ "${ranks[0]}" -gt 1 ] || [ "${ranks[1]}" -gt 1 ] || [ "${ranks[2]}" -gt 1 ]; then
  export OMP_NUM_THREADS=1  # ranks outnumber the cores
fi

launch() {  # RANKS cfdrun-arguments...
  local n=$1
  shift
  if [ "$n" -eq 0 ]; then
    "$bin/cfdrun" "$@"
  else
    "${MPIEXEC:-mpirun}" -np "$n" "$bin/cfdrun" "$@"
  fi
}

whole=${name}_whole parts=${name}_parts
rm -rf "$whole" "$parts"
launch "${ranks[0]}" "$case_file" -q --output "$whole" "$@" --set "$rest_set"
if [[ $first_set == from:* ]]; then
  cp -r "$whole" "$parts"
  checkpoint=$(printf 'checkpoint_%08d.h5' "${first_set#from:}")
  echo "continuing a copy of the uninterrupted run from its $checkpoint"
else
  launch "${ranks[1]}" "$case_file" -q --output "$parts" "$@" --set "$first_set"
  checkpoint=$(cd "$parts" && ls -- checkpoint_*.h5 | sort | tail -n 1)
  echo "first part ended with $checkpoint"
fi
launch "${ranks[2]}" --restart "$parts/$checkpoint" -q --set "$rest_set"

# Totals in the history are sums over the ranks' blocks: on another rank
# count they are added in another order, so there the history's totals are
# compared to 1e-12 (step, time and dt still exactly).
same_ranks=0
[ "${ranks[0]}" = "${ranks[1]}" ] && [ "${ranks[1]}" = "${ranks[2]}" ] && same_ranks=1
"${PYTHON:-python3}" - "$whole" "$parts" "$same_ranks" <<'EOF'
import filecmp, glob, os, sys
import h5py
whole, parts, same_ranks = sys.argv[1], sys.argv[2], sys.argv[3] == "1"

def same_history(x, y):
    lx, ly = open(x).read().splitlines(), open(y).read().splitlines()
    if len(lx) != len(ly):
        return False
    for a, b in zip(lx, ly):
        if a.startswith("#") or a.startswith("step"):
            if a != b:
                return False
            continue
        va, vb = a.split(","), b.split(",")
        if va[:3] != vb[:3] or len(va) != len(vb):
            return False
        for p, q in zip(va[3:], vb[3:]):
            p, q = float(p), float(q)
            if abs(p - q) > 1e-12 * max(abs(p), abs(q), 1e-300) and abs(p - q) > 1e-14:
                return False
    return True

def listing(d):
    return sorted(f for f in os.listdir(d) if not f.startswith("checkpoint_"))

a, b = listing(whole), listing(parts)
if a != b:
    sys.exit(f"different files: whole run {a}, restarted {b}")
series = [f for f in a if f.endswith(".h5")]
for name in series:
    fa, fb = h5py.File(os.path.join(whole, name), "r"), h5py.File(os.path.join(parts, name), "r")
    for key in ("step", "time"):
        if fa.attrs[key] != fb.attrs[key]:
            sys.exit(f"{name}: attribute {key} {fa.attrs[key]!r} != {fb.attrs[key]!r}")
    if sorted(fa["fields"]) != sorted(fb["fields"]):
        sys.exit(f"{name}: fields {sorted(fa['fields'])} != {sorted(fb['fields'])}")
    for field in fa["fields"]:
        x, y = fa["fields"][field][()], fb["fields"][field][()]
        if x.dtype != y.dtype or x.shape != y.shape or x.tobytes() != y.tobytes():
            sys.exit(f"{name}: field {field} differs")
for name in a:
    x, y = os.path.join(whole, name), os.path.join(parts, name)
    if name.endswith("_mesh.hdf5"):  # the cells of a cell-centred series (XDMF index)
        with h5py.File(x, "r") as fa, h5py.File(y, "r") as fb:
            for key in ("points", "cells"):
                if fa[key][()].tobytes() != fb[key][()].tobytes() or fa[key].shape != fb[key].shape:
                    sys.exit(f"{name}: {key} differs")
    elif name.endswith(".hst") and not same_ranks:
        if not same_history(x, y):
            sys.exit(f"{name} differs (steps, times or dt, or totals beyond 1e-12)")
    elif name.endswith((".xdmf", ".hst", ".txt")) and not filecmp.cmp(x, y, shallow=False):
        sys.exit(f"{name} differs")
print(f"{len(series)} snapshots bit for bit; {', '.join(f for f in a if not f.endswith(('.h5', '.hdf5')))} byte "
      f"for byte{''.join(', ' + f + ' array for array' for f in a if f.endswith('.hdf5'))}")
EOF
echo "${name}: the restarted run is the uninterrupted one"
