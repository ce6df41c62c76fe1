#!/usr/bin/env bash
# usage: output_times.sh PYTHON
# End and output times are hit exactly: the times stored in khseed's
# snapshots (fixture khseed: kh_seed to t = 0.05, a snapshot every 0.01) are
# 0, 0.01, ..., 0.05 as the doubles nearest those decimals, not sums of
# steps. Runs in ctest's work folder, through needs.sh (h5py).
set -euo pipefail
python=$1
"$python" -c "
import glob, h5py
t = [h5py.File(f, 'r').attrs['time'] for f in sorted(glob.glob('khseed/euler_*.h5'))]
print(t)
assert t == [0.0, 0.01, 0.02, 0.03, 0.04, 0.05], t"
