#!/usr/bin/env bash
# Prints the path of a ptxas for the tests (scripts/test.sh), fetching
# CUDA's `nvidia-cuda-nvcc-cu12` wheel into target/ptxas when there is no
# ptxas yet; prints nothing (and succeeds) when it cannot be had, e.g.
# without network: the tests then rely on MLIR's and LLVM's verification.
set -uo pipefail
cd "$(dirname "$0")/.."
if command -v ptxas >/dev/null 2>&1; then command -v ptxas; exit 0; fi
dir=target/ptxas
found=$(find "$dir" -name ptxas -type f 2>/dev/null | head -1)
if [ -z "$found" ]; then
  mkdir -p "$dir"
  timeout 120 python3 -m pip download -q --no-deps --only-binary=:all: -d "$dir" nvidia-cuda-nvcc-cu12 >/dev/null 2>&1 || exit 0
  whl=$(ls "$dir"/*.whl 2>/dev/null | head -1)
  [ -n "$whl" ] || exit 0
  python3 -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); [z.extract(n, sys.argv[2]) for n in z.namelist() if n.endswith('bin/ptxas')]" "$whl" "$dir" || exit 0
  found=$(find "$dir" -name ptxas -type f | head -1)
  [ -n "$found" ] || exit 0
  chmod +x "$found"
fi
"$found" --version >/dev/null 2>&1 && realpath "$found"
exit 0
