#!/usr/bin/env bash
# Runs the whole test suite (installing LLVM/MLIR 22 first if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo test --workspace "$@"
