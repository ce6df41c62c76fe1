#!/usr/bin/env bash
# usage: apps/doc_images.sh [BIN_DIR] [OUT_DIR]
#
# Regenerates the pictures of the docs that come from cfdrun's own runs
# (docs/images/diffusion.png, sod_keep_seed.png, sod_keep_inviscid.png,
# sod_hllc.png, kh_density.png, kh_mode.png, and ParaView's first view of
# each solver, paraview_*.png, yt's slice yt_slice.png) with the shipped cases and the
# shipped tools, so that a picture in the docs is always one command away
# from the code. BIN_DIR (default build/openmp/apps) holds cfdrun and
# cfdcompare; OUT_DIR (default docs/images) receives the pictures; the runs
# go to a temporary folder that is removed at the end. About 4 minutes on 2
# cores, most of it the Kelvin-Helmholtz runs at N = 128 and 256
# (apps/verify_kh.py; docs/kh.md quotes its fits at 128, 256, 512, which
# DOC_IMAGES_KH_SIZES=128,256,512 reproduces in about 20 minutes more).
#
# The throughput and scaling pictures (cpu_throughput.png, h200_*.png) are
# drawn from measured data in docs/data by apps/plot_bench.py and
# apps/plot_scaling.py; docs/data/diary.md and docs/parallel.md give their
# commands.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${1:-$root/build/openmp/apps}
out=${2:-$root/docs/images}
python=${PYTHON:-/usr/bin/python3}
[ -x "$bin/cfdrun" ] || { echo "doc_images: no cfdrun in $bin (build first, or give BIN_DIR)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
plot() { "$python" "$here/cfdplot.py" "$@"; }

# The default case after 100 steps, on a log scale around the spike
# (docs/user-guide.md).
"$bin/cfdrun" "$root/config/diffusion.yaml" -q --output diffusion.out
plot diffusion.out/diffusion_00000100.h5 --log --zoom 40 -o "$out/diffusion.png"

# KEEP, the original case, against the exact inviscid solution (docs/sod.md).
"$bin/cfdrun" "$root/config/sod_keep_seed.yaml" -q --output keep.out
keep_last=$(ls keep.out/sod_[0-9]*.h5 | sort | tail -n 1)
"$bin/cfdcompare" --exact "$keep_last" --csv keep.csv > /dev/null
plot keep.csv --labels "KEEP (original case)" --title "KEEP, the original case, against the exact solution" \
  -o "$out/sod_keep_seed.png"

# KEEP with and without viscosity after 60 steps.
"$bin/cfdrun" "$root/config/sod_keep_seed.yaml" -q --output keep60.out --set time.steps=60
"$bin/cfdrun" "$root/config/sod_keep_seed.yaml" -q --output inviscid60.out --set time.steps=60 \
  --set viscosity.law=none
"$bin/cfdcompare" --exact keep60.out/sod_00000060.h5 --csv keep60.csv > /dev/null
"$bin/cfdcompare" --exact inviscid60.out/sod_00000060.h5 --csv inviscid60.csv > /dev/null
plot keep60.csv inviscid60.csv --labels "Sutherland viscosity,no viscosity" \
  --title "KEEP after 60 steps, with and without viscosity" -o "$out/sod_keep_inviscid.png"

# PLM + HLLC + SSP-RK2 on Sod's problem at t = 0.2 (config/sod.yaml).
"$bin/cfdrun" "$root/config/sod.yaml" -q --output hllc.out
hllc_last=$(ls hllc.out/sod_[0-9]*.h5 | sort | tail -n 1)
"$bin/cfdcompare" --exact "$hllc_last" --csv hllc.csv > /dev/null
plot hllc.csv --labels "PLM + HLLC + SSP-RK2, 400 cells" --title "Sod at t = 0.2 against the exact solution" \
  -o "$out/sod_hllc.png"

# Kelvin-Helmholtz (McNally et al. 2012): density at t = 2 and the mode's
# growth against linear theory (docs/kh.md).
"$python" "$here/verify_kh.py" --cfdrun "$bin/cfdrun" --sizes "${DOC_IMAGES_KH_SIZES:-128,256}" --out kh
cp kh/kh_density.png kh/kh_mode.png "$out/"
# ParaView's default view of each solver's series as it opens (pvbatch, with
# the checks of tests/paraview_readers.py: the representation, the ranges
# and integrals against the HDF5 files; docs/output-format.md). Skipped
# without pvbatch and xvfb-run (python3-paraview, xvfb).
pictures="diffusion.png sod_keep_seed.png sod_keep_inviscid.png sod_hllc.png kh_density.png kh_mode.png"
if command -v pvbatch > /dev/null && command -v xvfb-run > /dev/null; then
  pv() { xvfb-run -a pvbatch "$root/tests/paraview_readers.py" "$1" --png "$out/$2" --field "$3" > /dev/null; }
  pv diffusion.out/diffusion.xdmf paraview_diffusion.png u
  pv keep.out/sod.xdmf paraview_sod_keep.png rho
  pv hllc.out/sod.xdmf paraview_sod_hllc.png rho
  "$bin/cfdrun" "$root/config/kh.yaml" -q --output kh_pv.out --set grid.nx=128 --set grid.ny=128 \
    --set time.end_time=1.5 --set output.time_interval=0.5
  pv kh_pv.out/euler.xdmf paraview_kh.png rho
  pictures+=" paraview_diffusion.png paraview_sod_keep.png paraview_sod_hllc.png paraview_kh.png"
else
  echo "doc_images: no pvbatch or xvfb-run: the ParaView pictures are not redrawn" >&2
fi
# yt's SlicePlot of a KH density through cfdrun's frontend, in the
# domain's own coordinates and code units (docs/python.md). Skipped without yt.
if "$python" -c "import yt" 2> /dev/null; then
  "$bin/cfdrun" "$root/config/kh.yaml" -q --output kh_yt.out --set grid.nx=128 --set grid.ny=128 \
    --set time.end_time=1.5 --set output.time_interval=0.5
  PYTHONPATH="$here/python" "$python" -c "import cfdrun, yt; yt.set_log_level(40)
cfdrun.slice_plot(cfdrun.open_series('kh_yt.out')[-1], 'density').save('$out/yt_slice.png')"
  pictures+=" yt_slice.png"
else
  echo "doc_images: no yt: the yt picture is not redrawn" >&2
fi
echo "doc_images: wrote $(cd "$out" && ls $pictures | tr '\n' ' ')into $out"
