#!/usr/bin/env bash
# cfdrun set-up on a fresh Debian bookworm machine.
#
#   bash apps/setup.sh run     install what is missing, build the tools (not the tests;
#                              CFDRUN_ENABLE_TESTS=ON builds them too), run config/diffusion.yaml
#   bash apps/setup.sh test    install what is missing, build, run the whole test suite
#   bash apps/setup.sh deps    only install the dependencies
#   bash apps/setup.sh cuda [test]
#                              the GPU build (Kokkos 4.x with CUDA): builds cfdrun with
#                              KOKKOS_CUDA_ROOT (an installed Kokkos with CUDA), or builds
#                              Kokkos (and KokkosKernels) from KOKKOS_SRC (and
#                              KOKKOS_KERNELS_SRC) with apps/build_cuda.sh for the card
#                              nvidia-smi reports; then runs config/diffusion.yaml on the GPU,
#                              or with `test` the whole suite there. It installs nothing
#                              (GPU machines are often offline): CUDA, CMake, g++, yaml-cpp,
#                              HDF5 (and MPI) must be present. CFDRUN_ENABLE_TESTS=ON makes
#                              the run mode build the tests too (a later `cuda test` then
#                              only runs them); CFDRUN_TEST_JOBS (default 6) sets ctest -j.
#
# Debian's own Kokkos package is Serial-only, so an OpenMP build of Kokkos 3.4.01
# and KokkosKernels 3.4 is made from Debian's trilinos source package and cached
# in $CFDRUN_DEPS (default ~/.cache/cfdrun); later runs reuse it.
# Environment: CFDRUN_DEPS, CFDRUN_BUILD (default build/openmp), CFDRUN_JOBS.
set -euo pipefail

mode=${1:-run}
case "$mode" in run | test | deps | cuda) ;;
*)
  echo "usage: bash apps/setup.sh run|test|deps   or   bash apps/setup.sh cuda [test]" >&2
  exit 2
  ;;
esac

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps=${CFDRUN_DEPS:-$HOME/.cache/cfdrun}
kokkos_prefix=$deps/kokkos-3.4.01-openmp
build=${CFDRUN_BUILD:-$repo/build/openmp}
jobs=${CFDRUN_JOBS:-$(nproc)}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo

if [ "$mode" = cuda ]; then
  what=${2:-run}
  case "$what" in run | test) ;; *)
    echo "usage: bash apps/setup.sh cuda [test]" >&2
    exit 2
    ;;
  esac
  # The run mode builds the tests too when CFDRUN_ENABLE_TESTS=ON, so that a
  # later `cuda test` only runs them.
  tests=${CFDRUN_ENABLE_TESTS:-OFF}
  [ "$what" = test ] && tests=ON
  if [ -n "${KOKKOS_CUDA_ROOT:-}" ]; then
    [ -x "$KOKKOS_CUDA_ROOT/bin/nvcc_wrapper" ] || {
      echo "[setup] KOKKOS_CUDA_ROOT=$KOKKOS_CUDA_ROOT has no bin/nvcc_wrapper: not a Kokkos install with CUDA" >&2
      exit 2
    }
    build=${CFDRUN_BUILD:-$repo/build/cuda}
    kk=OFF
    compgen -G "$KOKKOS_CUDA_ROOT/lib*/cmake/KokkosKernels" >/dev/null && kk=ON
    printf '[setup] cfdrun with the Kokkos in %s (KokkosKernels %s)\n' "$KOKKOS_CUDA_ROOT" "$kk"
    cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$KOKKOS_CUDA_ROOT" \
      -DCMAKE_CXX_COMPILER="$KOKKOS_CUDA_ROOT/bin/nvcc_wrapper" -DCFDRUN_ENABLE_KOKKOSKERNELS=$kk \
      -DCFDRUN_ENABLE_TESTS=$tests
    cmake --build "$build" -j "$jobs"
  else
    [ -n "${KOKKOS_SRC:-}" ] || {
      echo "[setup] cuda: set KOKKOS_CUDA_ROOT (an installed Kokkos 4.x with CUDA), or KOKKOS_SRC (a Kokkos 4.x" \
        "source tree, e.g. .deps/kokkos-4.6.01) and optionally KOKKOS_KERNELS_SRC (a KokkosKernels 4.x source tree)" >&2
      exit 2
    }
    root=${CFDRUN_CUDA_BUILD:-$HOME/.cache/cfdrun/cuda}
    CFDRUN_ENABLE_TESTS=$tests bash "$repo/apps/build_cuda.sh" "$KOKKOS_SRC" "$root"
    build=$root/build
  fi
  if [ "$what" = test ]; then
    printf '[setup] running the test suite on the GPU\n'
    cd "$build" && ctest --output-on-failure -j "${CFDRUN_TEST_JOBS:-6}"
  else
    printf '[setup] running config/diffusion.yaml on the GPU into %s\n' "$repo/runs/diffusion-cuda"
    "$build/apps/cfdrun" "$repo/config/diffusion.yaml" --output "$repo/runs/diffusion-cuda" --overwrite
  fi
  exit 0
fi

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

packages=(cmake g++ make pkg-config dpkg-dev libyaml-cpp-dev libhdf5-dev
  libgtest-dev libmuparser-dev nlohmann-json3-dev gfortran python3-h5py python3-matplotlib python3-numpy
  openmpi-bin libopenmpi-dev libhdf5-openmpi-dev)
# The test mode also opens the output with ParaView's readers (pvbatch),
# renders a picture without a display (xvfb-run), encodes cfdplot's
# movies (ffmpeg, ffprobe), checks the Python package's xarray and yt
# readers and installs the package with pip into a virtual environment
# (tests/python).
[ "$mode" = test ] && packages+=(python3-paraview xvfb xauth ffmpeg python3-yt python3-xarray python3-venv
  python3-setuptools)

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
}

# Kokkos 3.4.01 + KokkosKernels 3.4 with OpenMP, from Debian's trilinos 13.2.0-4
# sources, both into one prefix (KokkosKernels' CMake config hard-codes Kokkos').
build_kokkos() {
  if [ -f "$kokkos_prefix/.complete" ]; then
    return
  fi
  log "building OpenMP Kokkos 3.4.01 + KokkosKernels into $kokkos_prefix (once, about a minute)"
  local src=$deps/src
  mkdir -p "$src"
  if ! ls "$src"/trilinos_13.2.0.orig.tar.gz >/dev/null 2>&1; then
    if ! apt-get source --print-uris trilinos=13.2.0-4 >/dev/null 2>&1; then
      log "adding a deb-src entry for bookworm"
      printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
        $sudo tee /etc/apt/sources.list.d/cfdrun-debian-src.sources >/dev/null
      $sudo apt-get update -q
    fi
    (cd "$src" && apt-get source --download-only trilinos=13.2.0-4)
  fi
  local top=Trilinos-trilinos-release-13-2-0
  rm -rf "${src:?}/$top"
  tar -xzf "$src/trilinos_13.2.0.orig.tar.gz" -C "$src" "$top/packages/kokkos" "$top/packages/kokkos-kernels"
  rm -rf "$kokkos_prefix" "$src/build-kokkos" "$src/build-kk"
  cmake -S "$src/$top/packages/kokkos" -B "$src/build-kokkos" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_STANDARD=17 -DCMAKE_INSTALL_PREFIX="$kokkos_prefix" \
    -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_TESTS=OFF >/dev/null
  cmake --build "$src/build-kokkos" -j "$jobs" >/dev/null
  cmake --install "$src/build-kokkos" >/dev/null
  cmake -S "$src/$top/packages/kokkos-kernels" -B "$src/build-kk" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_STANDARD=17 -DCMAKE_INSTALL_PREFIX="$kokkos_prefix" -DKokkos_ROOT="$kokkos_prefix" \
    -DKokkosKernels_ADD_DEFAULT_ETI=OFF -DKokkosKernels_INST_EXECSPACE_OPENMP=OFF \
    -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF -DKokkosKernels_INST_EXECSPACE_THREADS=OFF \
    -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF \
    -DKokkosKernels_INST_OFFSET_SIZE_T=OFF -DKokkosKernels_INST_OFFSET_INT=OFF \
    -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_ENABLE_TESTS=OFF >/dev/null
  cmake --build "$src/build-kk" -j "$jobs" >/dev/null
  cmake --install "$src/build-kk" >/dev/null
  rm -rf "${src:?}/$top" "$src/build-kokkos" "$src/build-kk"
  touch "$kokkos_prefix/.complete"
}

configure_and_build() {
  # The run mode builds the tools only (no GoogleTest suite: the longest part
  # of the build); the test mode turns the tests on again in the same build
  # folder, so that `run` then `test` reconfigures and builds what is missing.
  local tests=ON
  [ "$mode" = run ] && tests=${CFDRUN_ENABLE_TESTS:-OFF}
  log "configuring and building cfdrun in $build (tests $tests)"
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos_prefix" -DCFDRUN_NATIVE=ON \
    -DCFDRUN_ENABLE_TESTS=$tests
  cmake --build "$build" -j "$jobs"
}

install_packages
build_kokkos
[ "$mode" = deps ] && exit 0
configure_and_build
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
case "$mode" in
run)
  out=$repo/runs/diffusion
  log "running config/diffusion.yaml into $out"
  "$build/apps/cfdrun" "$repo/config/diffusion.yaml" --output "$out" --overwrite
  log "results in $out: open $out/diffusion.xdmf in ParaView, or plot with"
  log "  apps/cfdplot.py $out/diffusion_00000100.h5 --log --zoom 40"
  ;;
test)
  log "running the test suite"
  cd "$build" && ctest --output-on-failure -j "$jobs"
  ;;
esac
