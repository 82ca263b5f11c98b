#!/usr/bin/env bash
# Runs the whole test suite (installing LLVM/MLIR 22 first if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# ptxas checks the generated PTX when it can be had (see fetch-ptxas.sh).
FUTMLIR_PTXAS=$(scripts/fetch-ptxas.sh)
if [ -n "$FUTMLIR_PTXAS" ]; then export FUTMLIR_PTXAS; fi
cargo test --workspace "$@"
# The whole workspace: compiled programs link the runtime library
# (libfutmlir_runtime_cuda.a) that futmlir finds beside itself.
cargo build --release -q
# Conformance: Futhark's own tests and the diku-dk libraries (../shared),
# against the expectation files in tests/conformance/ (a regression fails),
# AD and accumulators (the list `ad`) included.
if [ -d ../shared/futhark-tests ]; then
  scripts/conformance.sh interp --list runnable --list negative --list libs --list ad
  scripts/conformance.sh cpu --list runnable --list negative --list libs --list ad
else
  echo "conformance: ../shared/futhark-tests not found; skipped" >&2
fi
