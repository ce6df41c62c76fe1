#!/usr/bin/env bash
# usage: restart_former_name.sh BIN_DIR FIXTURE_DIR
#
# A run written when the euler solver was called euler2d continues after the
# rename, bit for bit. FIXTURE_DIR/euler2d_run is an output folder written by
# cfdrun at 97b6308 (config/kh.yaml on 24 x 24 cells to t = 0.1, its
# checkpoint at step 16); FIXTURE_DIR/euler2d_run.expected holds the SHA-256
# of each field of that build's final snapshot of the same case run unbroken
# to t = 0.2, and that run's history.
#
# 1. Continued in its own folder (a copy), to t = 0.2: the final fields have
#    the old build's digests, the history is the old unbroken run's byte for
#    byte, and the folder keeps its names (euler2d_*.h5, euler2d.hst,
#    euler2d.xdmf: one series), with a note that the solver is now euler.
# 2. Branched into a new folder (--output NEW): the same fields, and the new
#    folder's files are named euler_*.h5, euler.hst, euler.xdmf.
# 3. The new build run unbroken from the checkpoint's stored case under its
#    present names gives the same digests (the rename changed no bits).
set -euo pipefail
bin=$1 fixture=$2
source "$(dirname "$0")/test_lib.sh"
# One thread, as the folder was written: the history's totals are sums over
# the cells, whose order follows the thread count (the fields do not).
export OMP_PROC_BIND=false OMP_NUM_THREADS=1
python=${PYTHON:-python3}

digests() {  # SNAPSHOT: "field NAME SHA256" lines, as in the .expected file
  "$python" - "$1" <<'EOF'
import hashlib, sys
import h5py, numpy as np
with h5py.File(sys.argv[1], "r") as h:
    for k in sorted(h["fields"]):
        d = h["fields"][k]
        a = np.ascontiguousarray(d[...]).astype(d.dtype.newbyteorder("<"))
        print("field", k, hashlib.sha256(a.tobytes()).hexdigest())
EOF
}
expected_fields=$(grep '^field ' "$fixture/euler2d_run.expected")
expected_history=$(sed -n '/^# cfdrun euler2d history/,$p' "$fixture/euler2d_run.expected")

fresh_work restart_former_name
cp -r "$fixture/euler2d_run" own
"$bin/cfdrun" --restart own/checkpoint_00000016.h5 --set time.end_time=0.2 -q 2>notes.txt ||
  fail "continuing the euler2d checkpoint in its folder failed: $(cat notes.txt)"
grep -q "note: solver 'euler2d' is now called 'euler'" notes.txt || fail "no note of the new name: $(cat notes.txt)"
[ -f own/euler2d_00000032.h5 ] || fail "the continued folder has no euler2d_00000032.h5: $(ls own)"
if ls own | grep -q '^euler[_.]'; then fail "the continued folder mixes names: $(ls own)"; fi
[ "$(digests own/euler2d_00000032.h5)" = "$expected_fields" ] ||
  fail "continued fields differ from the old build's unbroken run: $(digests own/euler2d_00000032.h5)"
[ "$(cat own/euler2d.hst)" = "$expected_history" ] || fail "the continued history differs: $(diff own/euler2d.hst <(echo "$expected_history"))"
grep -q 'euler2d_00000032.h5' own/euler2d.xdmf || fail "the XDMF index does not list the new snapshot"
"$bin/cfdinfo" own >info.txt || fail "cfdinfo cannot read the continued folder"
grep -q 'snapshots   5' info.txt || fail "cfdinfo: $(cat info.txt)"
echo "continued in its own folder: the old build's bits, one series of euler2d_*.h5"

cp -r "$fixture/euler2d_run" branch_from
"$bin/cfdrun" --restart branch_from/checkpoint_00000016.h5 --set time.end_time=0.2 --output branch -q 2>/dev/null ||
  fail "branching from the euler2d checkpoint failed"
[ -f branch/euler_00000032.h5 ] && [ -f branch/euler.hst ] && [ -f branch/euler.xdmf ] ||
  fail "the branch's files are not named euler: $(ls branch)"
[ "$(digests branch/euler_00000032.h5)" = "$expected_fields" ] || fail "the branch's fields differ"
echo "branched into a new folder: euler_*.h5, the same bits"

"$bin/cfdrun" "${fixture%/}/../../config/kh.yaml" --set grid.nx=24 --set grid.ny=24 --set time.end_time=0.2 \
  --set output.time_interval=0.05 --output unbroken -q || fail "the unbroken run failed"
[ "$(digests unbroken/euler_00000032.h5)" = "$expected_fields" ] || fail "the new build's unbroken run differs"
tail -n +2 unbroken/euler.hst >now.hst
echo "$expected_history" | tail -n +2 >then.hst
cmp -s now.hst then.hst || fail "the unbroken history differs from the old build's: $(diff now.hst then.hst)"
echo "the new build unbroken: the old build's digests and history rows"
