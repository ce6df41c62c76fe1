#!/usr/bin/env bash
# usage: compression.sh BIN_DIR CONFIG_DIR
#
# output.compression (#29): snapshots deflated (with shuffle, chunked) hold
# the same values bit for bit as plain ones, are smaller, and are the same
# under mpirun (gathered to rank 0); checkpoints stay uncompressed, and a run
# continued from one with compression on gives the same bits.
set -uo pipefail
bin=$1 config=$2
cfdrun=$bin/cfdrun
source "$(dirname "${BASH_SOURCE[0]}")/test_lib.sh"
fresh_work compression
small=(--set grid.nx=96 --set grid.ny=64 --set time.end_time=0.4 --set output.time_interval=0.2)
"$cfdrun" "$config/kh.yaml" -q --output plain "${small[@]}" --set output.checkpoint_interval=0.2 || fail "plain run"
"$cfdrun" "$config/kh.yaml" -q --output packed "${small[@]}" --set output.compression=6 || fail "compressed run"
sod=(--set grid.nx=4000 --set time.end_time=0.02)
"$cfdrun" "$config/sod.yaml" -q --output sod_plain "${sod[@]}" || fail "sod plain"
"$cfdrun" "$config/sod.yaml" -q --output sod_packed "${sod[@]}" --set output.compression=9 || fail "sod compressed"
heat=(--set grid.nx=128 --set grid.ny=96 --set time.steps=20)
"$cfdrun" "$config/diffusion_seed.yaml" -q --output heat_plain "${heat[@]}" || fail "diffusion plain"
"$cfdrun" "$config/diffusion_seed.yaml" -q --output heat_packed "${heat[@]}" --set output.compression=1 ||
  fail "diffusion compressed"
folders=(plain packed sod_plain sod_packed heat_plain heat_packed)
if [ -n "${MPIEXEC:-}" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  "$MPIEXEC" --oversubscribe -np 3 "$cfdrun" "$config/kh.yaml" -q --output packed3 "${small[@]}" \
    --set output.compression=6 || fail "compressed run on 3 ranks"
  folders+=(plain packed3)
fi
# Continued from a checkpoint with compression on: the same bits.
first=$(cd plain && ls checkpoint_*.h5 | sort | head -n 1)
cp -r plain resumed
"$cfdrun" --restart "resumed/$first" -q --overwrite --output resumed_packed --set output.compression=4 ||
  fail "a branch with compression"
folders+=(plain resumed_packed)

"${PYTHON:-python3}" - "${folders[@]}" <<'EOF' || fail "compressed snapshots"
import glob, os, sys
import h5py, numpy as np
pairs = list(zip(sys.argv[1::2], sys.argv[2::2]))
for plain, packed in pairs:
    names = sorted(n for n in (os.path.basename(p) for p in glob.glob(packed + "/*_[0-9]*.h5"))
                   if not n.startswith(("checkpoint_", "diagnosis_")))
    assert names, packed
    size_plain = size_packed = 0
    for name in names:
        with h5py.File(f"{plain}/{name}") as x, h5py.File(f"{packed}/{name}") as y:
            for f in x["fields"]:
                a, b = x["fields"][f], y["fields"][f]
                assert a.compression is None, f"{plain}/{name}: {f} is compressed"
                assert b.compression == "gzip" and b.shuffle and b.chunks, f"{packed}/{name}: {f}: {b.compression}"
                assert a.dtype == b.dtype and np.array_equal(a[...], b[...]), f"{packed}/{name}: {f} differs"
                assert a.attrs.get("units") == b.attrs.get("units")
            writer = y.attrs["writer"]
            assert (writer.decode() if isinstance(writer, bytes) else writer) == "rank 0", f"{packed}/{name}: {writer}"
        size_plain += os.path.getsize(f"{plain}/{name}")
        size_packed += os.path.getsize(f"{packed}/{name}")
    for c in glob.glob(packed + "/checkpoint_*.h5"):
        with h5py.File(c) as z:
            for d in z["state"]:
                assert z["state"][d].compression is None, f"{c}: state/{d} is compressed"
    assert size_packed < size_plain, (packed, size_packed, size_plain)
    print(f"{packed}: {len(names)} snapshots, {size_packed} bytes against {size_plain} "
          f"({size_packed / size_plain:.2f}), the same values")
EOF
echo "compression: all checks passed"
