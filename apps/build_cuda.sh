#!/usr/bin/env bash
# GPU (CUDA) build of cfdrun: Kokkos 4.6.01 (and KokkosKernels, when its source is
# given) for the card's architecture, then cfdrun. `bash apps/setup.sh cuda` calls it.
#
#   bash apps/build_cuda.sh KOKKOS_SOURCE_DIR [BUILD_ROOT]
#
# KOKKOS_SOURCE_DIR  a Kokkos 4.6.01 source tree (e.g. .deps/kokkos-4.6.01); it is
#                    only read: the script builds from a copy in BUILD_ROOT/src.
# BUILD_ROOT         default /tmp/cfdrun-cuda. Gets src/kokkos (the patched copy),
#                    kokkos-build, kokkos (the install prefix) and build (cfdrun;
#                    the executables land in BUILD_ROOT/build/apps).
#
# Kokkos is built once: a later call finds BUILD_ROOT/kokkos/.complete and reuses
# it (delete BUILD_ROOT/kokkos to rebuild it). Environment:
#   CFDRUN_CMAKE_ARGS    extra arguments for cfdrun's cmake configure, split on
#                        blanks (no quoting), e.g. "-DCFDRUN_MPI=ON -DCFDRUN_CUDA_FMA=ON"
#   CFDRUN_ENABLE_TESTS  ON to build the GoogleTest suite too (default OFF)
#   CFDRUN_JOBS          parallel build jobs (default: nproc)
#   CFDRUN_TARGETS       only these targets, split on blanks (e.g. "cfdrun cfdinfo" for a
#                        quick check on a leased card; default: all)
#   CUDA_ROOT            CUDA toolkit, when nvcc is not on PATH (default /usr/local/cuda)
#   KOKKOS_KERNELS_SRC   a KokkosKernels 4.x source tree (e.g. .deps/kokkos-kernels-4.6.01):
#                        built into the same prefix (BLAS and sparse components, no
#                        vendor TPLs) and used by cfdrun (-DCFDRUN_ENABLE_KOKKOSKERNELS=ON)
#   CFDRUN_CUDA_ARCH     the compute capability, e.g. 90 (H100/H200), 80 (A100), 89, 100;
#                        default: what nvidia-smi reports, else 90
#
# Needs CUDA 13.0 (12.x works too), gcc, CMake, yaml-cpp, HDF5; no network.
#
# Two local changes are made to the copy of Kokkos 4.6.01, both because of CUDA 13:
#  1. bin/nvcc_wrapper hard-codes default_arch="sm_70", and nothing in it reads an
#     environment variable for the architecture (only NVCC_WRAPPER_DEFAULT_COMPILER,
#     NVCC_WRAPPER_TMPDIR, NVCC_WRAPPER_SHOW_COMMANDS_BEING_RUN). CUDA 13 dropped
#     sm_70 (Volta), so every call without -arch (CMake's compiler checks, cfdrun's
#     configure) fails. The copy defaults to sm_90 and, from now on, honours
#     NVCC_WRAPPER_DEFAULT_ARCH.
#  2. core/src/Cuda/Kokkos_Cuda_Instance.hpp calls three runtime functions whose
#     signatures CUDA 13 changed (the former *_v2 forms became the only ones):
#       cudaGraphAddDependencies  gained a `const cudaGraphEdgeData*` argument
#       cudaMemAdvise             takes a cudaMemLocation instead of a device ordinal
#       cudaMemPrefetchAsync      takes a cudaMemLocation and a flags argument
#     Each call is wrapped in #if CUDART_VERSION >= 13000 ... #else <original> #endif.
#     (Kokkos_CudaSpace.cpp has two more such calls, cudaMemAdvise_v2 under
#     KOKKOS_ENABLE_IMPL_CUDA_UNIFIED_MEMORY and cudaMemAdvise under
#     KOKKOS_IMPL_DEBUG_CUDA_PIN_UVM_TO_HOST; neither is enabled in this build.)
#
# MPI: nothing special is needed. With CMAKE_CXX_COMPILER=nvcc_wrapper, CMake's
# FindMPI does not use mpicxx as the compiler; it asks Open MPI's wrapper for its
# flags (mpicxx --showme:compile / --showme:link) and compiles with nvcc_wrapper,
# so OMPI_CXX=nvcc_wrapper is NOT required. (It would only be needed if mpicxx
# itself were made the compiler, e.g. CMAKE_CXX_COMPILER=mpicxx, which this
# script does not do.)
set -euo pipefail

log() { printf '[build_cuda] %s\n' "$*"; }
die() {
  printf '[build_cuda] ERROR: %s\n' "$*" >&2
  exit 1
}
usage() {
  echo "usage: bash apps/build_cuda.sh KOKKOS_SOURCE_DIR [BUILD_ROOT]   (BUILD_ROOT default /tmp/cfdrun-cuda)" >&2
  exit 2
}

if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
case "$1" in -h | --help) usage ;; esac

kokkos_in=$1
root=${2:-/tmp/cfdrun-cuda}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${CFDRUN_JOBS:-$(nproc)}
tests=${CFDRUN_ENABLE_TESTS:-OFF}

[ -d "$kokkos_in" ] || die "Kokkos source directory '$kokkos_in' does not exist"
[ -f "$kokkos_in/bin/nvcc_wrapper" ] ||
  die "'$kokkos_in' has no bin/nvcc_wrapper: not a Kokkos source tree (expected Kokkos 4.6.01)"
kokkos_in=$(cd "$kokkos_in" && pwd)
mkdir -p "$root"
root=$(cd "$root" && pwd)

src=$root/src/kokkos
kokkos_build=$root/kokkos-build
kernels_in=${KOKKOS_KERNELS_SRC:-}
kernels_build=$root/kokkos-kernels-build
if [ -n "$kernels_in" ]; then
  [ -f "$kernels_in/CMakeLists.txt" ] && [ -d "$kernels_in/sparse" ] ||
    die "KOKKOS_KERNELS_SRC='$kernels_in' is not a KokkosKernels source tree"
  kernels_in=$(cd "$kernels_in" && pwd)
fi

# The card's architecture: Kokkos' option and nvcc's sm_XX.
arch=${CFDRUN_CUDA_ARCH:-}
if [ -z "$arch" ] && command -v nvidia-smi >/dev/null 2>&1; then
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
fi
arch=${arch:-90}
case $arch in
  70) kokkos_arch=VOLTA70 ;; 75) kokkos_arch=TURING75 ;; 80) kokkos_arch=AMPERE80 ;; 86) kokkos_arch=AMPERE86 ;;
  89) kokkos_arch=ADA89 ;; 90) kokkos_arch=HOPPER90 ;; 100) kokkos_arch=BLACKWELL100 ;; 120) kokkos_arch=BLACKWELL120 ;;
  *) die "compute capability '$arch' has no Kokkos architecture option here (set CFDRUN_CUDA_ARCH, e.g. 90)" ;;
esac
export NVCC_WRAPPER_DEFAULT_ARCH=sm_$arch
prefix=$root/kokkos
build=$root/build

# nvcc_wrapper runs `nvcc` from PATH, or $CUDA_ROOT/bin/nvcc when CUDA_ROOT is set.
if ! command -v nvcc >/dev/null 2>&1; then
  cuda_root=${CUDA_ROOT:-/usr/local/cuda}
  [ -x "$cuda_root/bin/nvcc" ] || die "nvcc is neither on PATH nor in $cuda_root/bin (set CUDA_ROOT)"
  export PATH=$cuda_root/bin:$PATH
fi
log "nvcc: $(command -v nvcc) ($(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'))"
log "host compiler: $(${NVCC_WRAPPER_DEFAULT_COMPILER:-g++} --version | head -n 1)"
log "jobs: $jobs, build root: $root"

# --- local changes to the copy of Kokkos ------------------------------------------

patch_nvcc_wrapper() {
  local w=$src/bin/nvcc_wrapper
  if grep -q '^default_arch="sm_70"$' "$w"; then
    log "nvcc_wrapper: default architecture sm_70 -> sm_90 (and honour NVCC_WRAPPER_DEFAULT_ARCH)"
    # shellcheck disable=SC2016 # the ${...} is for nvcc_wrapper, not for this shell
    sed -i 's/^default_arch="sm_70"$/default_arch=${NVCC_WRAPPER_DEFAULT_ARCH:-"sm_90"}/' "$w"
  elif grep -q '^default_arch=' "$w"; then
    log "nvcc_wrapper: default_arch is not sm_70 here, leaving it: $(grep '^default_arch=' "$w")"
  else
    die "no default_arch= line in $w; this script expects Kokkos 4.6.01"
  fi
}

patch_cuda13() {
  local f=$src/core/src/Cuda/Kokkos_Cuda_Instance.hpp
  [ -f "$f" ] || die "$f is missing; this script expects Kokkos 4.6.01"
  if grep -q 'CUDART_VERSION >= 13000' "$f"; then
    log "Kokkos_Cuda_Instance.hpp already has CUDA 13 guards, leaving it"
    return
  fi
  log "Kokkos_Cuda_Instance.hpp: guarding cudaGraphAddDependencies, cudaMemAdvise, cudaMemPrefetchAsync for CUDA 13"
  # 1) cudaGraphAddDependencies(graph, from, to, edgeData, n): null edge data = the old behaviour.
  sed -i 's/^\( *\)return cudaGraphAddDependencies(graph, from, to, numDependencies);$/#if CUDART_VERSION >= 13000\n\1return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);\n#else\n&\n#endif/' "$f"
  # 2) cudaMemAdvise(ptr, n, advice, cudaMemLocation); device cudaCpuDeviceId means the host.
  sed -i '/^ *return cudaMemAdvise(devPtr, count, advice, device);$/{
i\
#if CUDART_VERSION >= 13000\
    cudaMemLocation loc;\
    loc.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;\
    loc.id = device;\
    return cudaMemAdvise(devPtr, count, advice, loc);\
#else
a\
#endif
}' "$f"
  # 3) cudaMemPrefetchAsync(ptr, n, cudaMemLocation, flags, stream); the original spans two lines.
  sed -i '/^ *return cudaMemPrefetchAsync(devPtr, count, dstDevice,$/{
N
i\
#if CUDART_VERSION >= 13000\
    cudaMemLocation loc;\
    loc.type = dstDevice == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;\
    loc.id = dstDevice;\
    return cudaMemPrefetchAsync(devPtr, count, loc, 0, get_input_stream(stream));\
#else
a\
#endif
}' "$f"
  # Every edit must have happened exactly once, or the source is not the expected 4.6.01.
  local n
  n=$(grep -c '^#if CUDART_VERSION >= 13000$' "$f" || true)
  [ "$n" -eq 3 ] || die "expected 3 CUDA 13 guards in $f, made $n: is this Kokkos 4.6.01?"
  local call
  for call in 'cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies)' \
    'cudaMemAdvise(devPtr, count, advice, loc)' \
    'cudaMemPrefetchAsync(devPtr, count, loc, 0, get_input_stream(stream))'; do
    grep -qF "$call" "$f" || die "the CUDA 13 edit giving $call did not apply to $f"
  done
}

build_kokkos() {
  if [ -f "$prefix/.complete" ] && [ "$(cat "$prefix/.complete")" = "$kokkos_arch" ]; then
    log "Kokkos: reusing $prefix for $kokkos_arch ($prefix/.complete exists; delete $prefix to rebuild)"
    return
  fi
  local version
  version=$(sed -n 's/^set(Kokkos_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))$/\2/p' "$kokkos_in/CMakeLists.txt" | paste -sd. -)
  log "Kokkos ${version:-?}: copying $kokkos_in to $src"
  [ "$version" = 4.6.1 ] || log "warning: expected Kokkos 4.6.01, found ${version:-an unknown version}"
  rm -rf "$src" "$kokkos_build" "$prefix"
  mkdir -p "$src"
  tar -C "$kokkos_in" --exclude=./.git -cf - . | tar -C "$src" -xf -
  patch_nvcc_wrapper
  patch_cuda13

  log "Kokkos: configuring in $kokkos_build (CUDA + Serial, $kokkos_arch, Release, C++17)"
  cmake -S "$src" -B "$kokkos_build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_STANDARD=17 \
    -DCMAKE_CXX_COMPILER="$src/bin/nvcc_wrapper" \
    -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DKokkos_ENABLE_CUDA=ON \
    -DKokkos_ENABLE_SERIAL=ON \
    -DKokkos_ARCH_${kokkos_arch}=ON \
    -DKokkos_ENABLE_TESTS=OFF \
    -DKokkos_ENABLE_EXAMPLES=OFF \
    -DKokkos_ENABLE_BENCHMARKS=OFF
  log "Kokkos: building with $jobs jobs"
  cmake --build "$kokkos_build" -j "$jobs"
  log "Kokkos: installing into $prefix"
  cmake --install "$kokkos_build"
  [ -x "$prefix/bin/nvcc_wrapper" ] || die "the Kokkos install has no bin/nvcc_wrapper"
  grep -q '^default_arch=.*NVCC_WRAPPER_DEFAULT_ARCH' "$prefix/bin/nvcc_wrapper" ||
    die "the installed nvcc_wrapper does not honour NVCC_WRAPPER_DEFAULT_ARCH"
  echo "$kokkos_arch" >"$prefix/.complete"
  rm -f "$prefix/.kernels-complete"
  log "Kokkos: done ($prefix)"
}

# KokkosKernels into the same prefix: BLAS and sparse (what cfdrun uses), no
# cuBLAS/cuSPARSE, so that the same kernels run on the CPU and the GPU, and no
# explicit instantiations: cfdrun instantiates the few kernels it calls
# (dot, axpby, update, mult, nrm2, spmv, Gauss-Seidel) itself, as the CPU
# set-up does. The library then builds in seconds instead of the ~6 minutes
# its default instantiations for double and float take on 16 cores.
build_kernels() {
  [ -n "$kernels_in" ] || return 0
  if [ -f "$prefix/.kernels-complete" ]; then
    log "KokkosKernels: reusing the install in $prefix"
    return
  fi
  log "KokkosKernels: configuring $kernels_in in $kernels_build"
  rm -rf "$kernels_build"
  cmake -S "$kernels_in" -B "$kernels_build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_STANDARD=17 \
    -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" \
    -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DKokkos_ROOT="$prefix" \
    -DKokkosKernels_ENABLE_ALL_COMPONENTS=OFF \
    -DKokkosKernels_ENABLE_COMPONENT_BLAS=ON \
    -DKokkosKernels_ENABLE_COMPONENT_SPARSE=ON \
    -DKokkosKernels_ADD_DEFAULT_ETI=OFF \
    -DKokkosKernels_INST_DOUBLE=OFF \
    -DKokkosKernels_INST_FLOAT=OFF \
    -DKokkosKernels_INST_OFFSET_INT=OFF \
    -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
    -DKokkosKernels_INST_ORDINAL_INT=OFF \
    -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF \
    -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF \
    -DKokkosKernels_ENABLE_TPL_CUSOLVER=OFF \
    -DKokkosKernels_ENABLE_TESTS=OFF \
    -DKokkosKernels_ENABLE_PERFTESTS=OFF \
    -DKokkosKernels_ENABLE_EXAMPLES=OFF
  log "KokkosKernels: building with $jobs jobs"
  cmake --build "$kernels_build" -j "$jobs"
  cmake --install "$kernels_build"
  touch "$prefix/.kernels-complete"
  log "KokkosKernels: done ($prefix)"
}

build_cfdrun() {
  local extra=()
  read -r -a extra <<<"${CFDRUN_CMAKE_ARGS:-}"
  log "cfdrun: configuring $repo in $build${extra[*]:+ (extra: ${extra[*]})}"
  cmake -S "$repo" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DKokkos_ROOT="$prefix" \
    -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" \
    -DCFDRUN_ENABLE_KOKKOSKERNELS="$([ -n "$kernels_in" ] && echo ON || echo OFF)" \
    -DCFDRUN_ENABLE_TESTS="$tests" \
    "${extra[@]}"
  local targets=()
  read -r -a targets <<<"${CFDRUN_TARGETS:-}"
  log "cfdrun: building ${targets[*]:-everything} with $jobs jobs"
  cmake --build "$build" -j "$jobs" ${targets[@]:+--target "${targets[@]}"}
  local built=()
  for exe in cfdrun cfdinfo cfdcompare cfdbench; do [ -x "$build/apps/$exe" ] && built+=("$exe"); done
  log "cfdrun: done; executables in $build/apps (${built[*]:-none})"
  log "  e.g. $build/apps/cfdrun $repo/config/diffusion.yaml --output runs/diffusion-cuda"
}

build_kokkos
build_kernels
build_cfdrun
