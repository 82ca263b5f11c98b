#!/usr/bin/env bash
# Prints the path of a ptxas for the tests (scripts/test.sh), fetching
# CUDA's `nvidia-cuda-nvcc-cu12` wheel into target/ptxas when there is no
# ptxas yet. From the same wheel it unpacks libdevice
# (target/ptxas/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc), where
# `futmlir build --target=cuda` finds it for the maths functions of
# kernels. Prints nothing (and succeeds) when ptxas cannot be had, e.g.
# without network: the tests then rely on MLIR's and LLVM's verification.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=target/ptxas
# A CUDA installation has both (libdevice under nvvm/libdevice/).
if command -v ptxas >/dev/null 2>&1; then command -v ptxas; exit 0; fi
find_in() { find "$dir" -name "$1" -type f 2>/dev/null | head -1; }
if [ -z "$(find_in ptxas)" ] || [ -z "$(find_in libdevice.10.bc)" ]; then
  mkdir -p "$dir"
  whl=$(ls "$dir"/*.whl 2>/dev/null | head -1)
  if [ -z "$whl" ]; then
    timeout 120 python3 -m pip download -q --no-deps --only-binary=:all: -d "$dir" nvidia-cuda-nvcc-cu12 >/dev/null 2>&1
    whl=$(ls "$dir"/*.whl 2>/dev/null | head -1)
  fi
  if [ -n "$whl" ]; then
    python3 -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); [z.extract(n, sys.argv[2]) for n in z.namelist() if n.endswith(('bin/ptxas', 'libdevice.10.bc'))]" "$whl" "$dir"
    chmod +x "$(find_in ptxas)" 2>/dev/null
  fi
fi
found=$(find_in ptxas)
[ -n "$found" ] && "$found" --version >/dev/null 2>&1 && realpath "$found"
exit 0
