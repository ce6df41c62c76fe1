#!/usr/bin/env bash
# usage: error_on_one_rank.sh MPIEXEC BIN_DIR CASE.yaml
# An error on one rank alone ends every rank with the message, never a hang:
# rank 0 cannot write the XDMF index (a folder holds the name of its
# temporary file, which no run creates; a folder under an output's own name
# is refused before the run starts, on every rank), so on 2 ranks cfdrun
# must exit 1 within 120 s saying "error on rank 0 of 2:
# abort/euler.xdmf.tmp: ...". Works in ranks_error_on_one_rank under
# ctest's work folder.
set -euo pipefail
mpiexec=$1 bin=$2 case_file=$3
here=$(dirname "${BASH_SOURCE[0]}")
source "$here/test_lib.sh"
fresh_work ranks_error_on_one_rank
mkdir -p abort/euler.xdmf.tmp
exec timeout 120 bash "$here/expect.sh" 1 \
  'error on rank 0 of 2: abort/euler.xdmf.tmp: a folder has the name of the temporary file cfdrun writes' -- \
  "$mpiexec" -np 2 "$bin/cfdrun" "$case_file" --output abort --set grid.nx=16 --set grid.ny=16
