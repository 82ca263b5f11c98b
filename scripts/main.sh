#!/usr/bin/env bash
# The main job: build futmlir (release) and run it on the example program.
#
# Today that means: run a pass pipeline over an IR program at the soac
# level and print the result. Compiling a .fut program to an executable
# (GPU when one is present, CPU otherwise) arrives with the backend issue;
# this script will then build and run examples/ programs instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release -q -p futmlir
bin=target/release/futmlir
"$bin" --version
echo "--- futmlir opt examples/dot.mlir --pass-pipeline='ir-cse,ir-dce' --timing"
"$bin" opt examples/dot.mlir --pass-pipeline='ir-cse,ir-dce,ir-op-stats' --timing
