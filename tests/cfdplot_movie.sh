#!/usr/bin/env bash
# usage: cfdplot_movie.sh movie PYTHON CFDPLOT FOLDER SOLVER OUT.mp4 [CFDPLOT OPTIONS...]
#        cfdplot_movie.sh errors PYTHON CFDPLOT
# movie:  `cfdplot FOLDER/SOLVER.xdmf --movie OUT.mp4` writes one frame per
#         snapshot of the series (ffprobe counts the frames it decodes), as
#         H.264 of a non-trivial size, and the frames follow the time order
#         whatever the order of the files given.
# errors: each wrong use of --movie exits 2 with one line "cfdplot: error: ...",
#         never a traceback: not .mp4, mixed solvers, two series, an unknown
#         field, a file that is missing or not HDF5, no ffmpeg.
# Runs in ctest's work folder, on the fixtures khseed, sodseed and pv_sod;
# through needs.sh, which skips it (77) without h5py, numpy, matplotlib or ffmpeg.
set -uo pipefail
mode=$1 python=$2 cfdplot=$3
shift 3

fail() {
  echo "FAIL: $*"
  exit 1
}

case $mode in
movie)
  folder=$1 solver=$2 out=$3
  shift 3
  files=("$folder"/"$solver"_[0-9]*.h5)
  snapshots=${#files[@]}
  [ "$snapshots" -ge 3 ] || fail "$folder holds $snapshots snapshots of $solver; the test wants a series of 3 or more"
  rm -f "$out"
  said=$("$python" "$cfdplot" "$folder/$solver.xdmf" --movie "$out" "$@" 2>&1) || fail "cfdplot: $said"
  echo "$said"
  grep -q "wrote $out: $snapshots frames" <<<"$said" || fail "cfdplot did not report $snapshots frames"
  probe=$(ffprobe -v error -count_frames -select_streams v:0 \
    -show_entries stream=codec_name,width,height,nb_read_frames -of default=noprint_wrappers=1 "$out") ||
    fail "ffprobe cannot read $out"
  echo "$probe" | tr '\n' ' '
  echo
  frames=$(sed -n 's/^nb_read_frames=//p' <<<"$probe")
  [ "$frames" = "$snapshots" ] || fail "$out has $frames frames, the series $snapshots snapshots"
  grep -q '^codec_name=h264$' <<<"$probe" || fail "$out is not H.264"
  size=$(stat -c %s "$out")
  [ "$size" -ge $((1000 * snapshots)) ] || fail "$out is only $size bytes for $snapshots frames"
  # The snapshots given as files in reverse order: the same frames, in time order.
  reversed=()
  for f in "${files[@]}"; do reversed=("$f" "${reversed[@]}"); done
  step() { "$python" -c "import h5py, sys; print(int(h5py.File(sys.argv[1], 'r').attrs['step']))" "$1"; }
  said=$("$python" "$cfdplot" "${reversed[@]}" --movie "${out%.mp4}_files.mp4" "$@" 2>&1) || fail "cfdplot: $said"
  grep -q "steps $(step "${files[0]}") to $(step "${files[-1]}")," <<<"$said" || fail "not in time order: $said"
  echo "$out: $frames frames of $snapshots snapshots, $size bytes; the files in any order give the time order"
  ;;
errors)
  # expected status 2, one line matching REGEX, no traceback
  check() {
    local regex=$1
    shift
    local said status
    said=$("$@" 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "exit status $status, not 2, for: ${*: -4}: $said"
    grep -q Traceback <<<"$said" && fail "a traceback for: $*: $said"
    [ "$(printf '%s\n' "$said" | wc -l)" -eq 1 ] || fail "more than one line for: $*: $said"
    grep -Eq "^cfdplot: error: $regex" <<<"$said" || fail "message does not match /$regex/: $said"
    echo "ok: $said"
  }
  py=("$python" "$cfdplot")
  check "--movie writes an MP4 file: 'kh.gif' must end in \.mp4" "${py[@]}" khseed/euler.xdmf --movie kh.gif
  check "sodseed/sod_00002500.h5 and khseed/euler_00000000.h5 are not of one series \(solver sod, not euler\)" \
    "${py[@]}" khseed/euler_00000000.h5 sodseed/sod_00002500.h5 --movie mixed.mp4
  check "pv_sod/sod_00000050.h5 and sodseed/sod_00002500.h5 are not of one series \(" \
    "${py[@]}" sodseed/sod_00002500.h5 pv_sod/sod_00000050.h5 --movie two.mp4
  check "khseed/euler_00000000.h5: no field 'nope' \(fields: p, rho, vx, vy, vz\)" \
    "${py[@]}" khseed/euler.xdmf --movie nope.mp4 -f nope
  check "nope.h5: no such file" "${py[@]}" khseed/euler_00000000.h5 nope.h5 --movie nope.mp4
  check "khseed/euler.hst: cannot read it as HDF5" \
    "${py[@]}" khseed/euler_00000000.h5 khseed/euler.hst --movie hst.mp4
  check "--movie needs ffmpeg, which is not installed \(Debian: apt-get install ffmpeg\)" \
    env PATH=/nonexistent "${py[@]}" khseed/euler.xdmf --movie noffmpeg.mp4
  ;;
*)
  echo "usage: cfdplot_movie.sh movie|errors ..." >&2
  exit 2
  ;;
esac
