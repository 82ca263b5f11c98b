#!/usr/bin/env bash
# The main job: build futmlir (release) and run it on the example programs.
#
# Today that means: interpret examples/mandelbrot.fut with the reference
# interpreter (`futmlir run`, with the work/span of the run), and run a pass
# pipeline over an IR program at the soac level. Compiling a .fut program
# to an executable (GPU when one is present, CPU otherwise) arrives with the
# backend issue; this script will then build and run the executable.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release -q -p futmlir
bin=target/release/futmlir
"$bin" --version
echo "--- echo '48i64 20i64 100' | futmlir run examples/mandelbrot.fut --cost"
echo '48i64 20i64 100' | "$bin" run examples/mandelbrot.fut --cost
echo "--- futmlir opt examples/dot.mlir --pass-pipeline='ir-cse,ir-dce' --timing"
"$bin" opt examples/dot.mlir --pass-pipeline='ir-cse,ir-dce,ir-op-stats' --timing
