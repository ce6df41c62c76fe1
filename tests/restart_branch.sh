#!/usr/bin/env bash
# usage: restart_branch.sh BIN_DIR CONFIG_DIR
#
# Branches of a run (#29): cfdrun --restart CHECKPOINT --output NEW.
# - unchanged numerics: the branch's last snapshot is the unbroken run's, bit
#   for bit; the branch's series begins at the checkpoint's step; its
#   snapshots name the checkpoint they continue from; the checkpoint's own
#   folder is not touched (hashed before and after);
# - new numerics (time.cfl, euler.riemann): accepted with a note naming
#   the key, its old and new value and the step, and the results differ;
# - a fixed key (grid.nx) is refused (status 2) with the list of keys that
#   may change, and creates nothing; --overwrite in the run's own folder is
#   refused; a NEW folder holding results needs --overwrite, as for any run.
set -uo pipefail
bin=$1 config=$2
cfdrun=$bin/cfdrun
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work restart_branch
tree_hash() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }

small=(--set grid.nx=32 --set grid.ny=32 --set time.end_time=0.6 --set output.time_interval=0.2
  --set output.checkpoint_interval=0.3 --set output.history_every=2)
"$cfdrun" "$config/kh.yaml" -q --output whole "${small[@]}" || fail "the unbroken run failed"
checkpoint=$(cd whole && ls checkpoint_*.h5 | sort | head -n 1)
[ "$checkpoint" != "$(cd whole && ls checkpoint_*.h5 | sort | tail -n 1)" ] || fail "one checkpoint only: $(ls whole)"
step=$((10#$(echo "$checkpoint" | sed 's/checkpoint_\([0-9]*\)\.h5/\1/')))
before=$(tree_hash whole)

# 1. The same numerics into a new folder.
out=$("$cfdrun" --restart "whole/$checkpoint" -q --output same 2>&1) || fail "branch: $out"
[ -z "$out" ] || fail "a branch with unchanged numerics printed: $out"
"${PYTHON:-python3}" - whole same "$step" "whole/$checkpoint" <<'EOF' || fail "branch with unchanged numerics"
import glob, os, sys
import h5py, numpy as np
whole, branch, step, checkpoint = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def snaps(d):
    return sorted(os.path.basename(p) for p in glob.glob(d + "/euler_[0-9]*.h5"))
w, b = snaps(whole), snaps(branch)
steps = [int(n[6:14]) for n in b]
assert steps[0] == step, f"the branch's series begins at step {steps[0]}, not the checkpoint's {step}"
# The branch begins with the checkpoint's state (a snapshot the unbroken
# run need not have), then has the unbroken run's later snapshots.
assert b[1:] == [n for n in w if int(n[6:14]) > step], f"branch {b} vs whole {w}"
assert len(b) >= 3, b
for name in b[1:]:
    with h5py.File(f"{whole}/{name}") as x, h5py.File(f"{branch}/{name}") as y:
        assert x.attrs["time"] == y.attrs["time"], name
        for f in x["fields"]:
            assert np.array_equal(x["fields"][f][...], y["fields"][f][...]), f"{name}: {f} differs"
for name in b:
    with h5py.File(f"{branch}/{name}") as y:
        conf = y.attrs["configuration"]
        conf = conf.decode() if isinstance(conf, bytes) else conf
        assert f'continued_from: "{checkpoint} (step {step})"' in conf, conf
hst = open(f"{branch}/euler.hst").read().splitlines()
rows = [l for l in hst if l and l[0].isdigit()]
assert int(rows[0].split(",")[0]) == step, f"the branch's history begins at {rows[0]}"
xdmf = open(f"{branch}/euler.xdmf").read()
for name in b:
    assert name in xdmf, name
assert "../" not in xdmf
print(f"branch at step {step}: {len(b)} snapshots, the same bits as the unbroken run")
EOF
[ "$(tree_hash whole)" = "$before" ] || fail "the checkpoint's folder changed"

# 2. New numerics: a note, and other results.
out=$("$cfdrun" --restart "whole/$checkpoint" -q --output cfl --set time.cfl=0.3 --set euler.riemann=llf 2>&1) ||
  fail "branch with new numerics: $out"
echo "$out" | grep -q "note: time.cfl changes from 0.4 to 0.3 at step $step" || fail "no note for time.cfl: $out"
echo "$out" | grep -q "note: euler.riemann changes from hllc to llf at step $step" || fail "no note for riemann: $out"
last=$(cd whole && ls euler_[0-9]*.h5 | sort | tail -n 1)
lastb=$(cd cfl && ls euler_[0-9]*.h5 | sort | tail -n 1)
"${PYTHON:-python3}" - "whole/$last" "cfl/$lastb" <<'EOF' || fail "new numerics gave the same result"
import sys
import h5py, numpy as np
with h5py.File(sys.argv[1]) as x, h5py.File(sys.argv[2]) as y:
    assert x.attrs["time"] == y.attrs["time"], (x.attrs["time"], y.attrs["time"])
    assert not np.array_equal(x["fields/rho"][...], y["fields/rho"][...])
    d = float(np.max(np.abs(x["fields/rho"][...] - y["fields/rho"][...])))
    assert 0 < d < 0.5, d
    print(f"new numerics: max |rho difference| {d:.3g} at t = {x.attrs['time']}")
EOF
[ "$(tree_hash whole)" = "$before" ] || fail "the checkpoint's folder changed"

# 3. A fixed key: refused, nothing created.
out=$("$cfdrun" --restart "whole/$checkpoint" -q --output fixed --set grid.nx=64 2>&1)
status=$?
[ $status -eq 2 ] || fail "grid.nx on --restart: status $status: $out"
echo "$out" | grep -q "'grid.nx' cannot change" || fail "message: $out"
echo "$out" | grep -q "time.cfl" || fail "the message does not list the keys that may change: $out"
[ ! -e fixed ] || fail "a refused branch created its folder"
# A user's constant read by the run's formulas (constants.* of
# double_mach's inflow sides) is as fixed as a key of the solver's own.
"$cfdrun" "$config/double_mach.yaml" -q --output mach --set grid.nx=32 --set grid.ny=8 --set time.end_time=0.004 \
  --set output.time_interval=0 --set output.checkpoint_interval=0.002 || fail "the double Mach run failed"
mach=$(cd mach && ls checkpoint_*.h5 | sort | head -n 1)
name=x0  # where the shock meets the wall
out=$("$cfdrun" --restart "mach/$mach" -q --output mach_changed --set "constants.$name=0.5" 2>&1)
status=$?
[ $status -eq 2 ] || fail "constants.$name on --restart: status $status: $out"
echo "$out" | grep -q "'constants.$name' cannot change" || fail "message: $out"
[ ! -e mach_changed ] || fail "a refused branch created its folder"

# 4. --overwrite in the run's own folder: refused, nothing changed.
out=$("$cfdrun" --restart "whole/$checkpoint" -q --overwrite --set time.end_time=0.8 2>&1)
status=$?
[ $status -eq 2 ] || fail "--overwrite in the own folder: status $status: $out"
echo "$out" | grep -q "goes with --output NEW" || fail "message: $out"
[ "$(tree_hash whole)" = "$before" ] || fail "the checkpoint's folder changed"

# 5. A new folder that holds results needs --overwrite.
out=$("$cfdrun" --restart "whole/$checkpoint" -q --output same 2>&1)
status=$?
[ $status -eq 2 ] || [ $status -eq 1 ] || fail "a branch into a folder with results: status $status: $out"
echo "$out" | grep -q "already holds results" || fail "message: $out"
"$cfdrun" --restart "whole/$checkpoint" -q --output same --overwrite || fail "--overwrite into the branch's folder"
[ "$(tree_hash whole)" = "$before" ] || fail "the checkpoint's folder changed"
echo "restart branches: all checks passed"
