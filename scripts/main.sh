#!/usr/bin/env bash
# The main job: build futmlir (release), compile the example program to an
# executable and run it — on the GPU when one is present (an NVIDIA driver
# answers `nvidia-smi`), otherwise for the CPU — and compare it with the
# reference interpreter. Then a pass pipeline over an IR program at the
# soac level, with its timing table.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release -q
bin=target/release/futmlir
"$bin" --version
target=cpu
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  target=cuda
  # CUDA's libdevice (for maths functions in kernels), into target/ptxas/
  # where futmlir finds it, unless a CUDA installation has it.
  scripts/fetch-ptxas.sh >/dev/null
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "--- futmlir build examples/mandelbrot.fut --target=$target -o mandelbrot"
"$bin" build examples/mandelbrot.fut --target=$target -o "$out/mandelbrot"
echo "--- echo '48i64 20i64 100' | ./mandelbrot -r 10 -t times"
echo '48i64 20i64 100' | "$out/mandelbrot" -r 10 -t "$out/times" | tee "$out/compiled.txt"
echo "(run times in µs: $(tr '\n' ' ' < "$out/times"))"
echo "--- the same with the interpreter: echo '48i64 20i64 100' | futmlir run examples/mandelbrot.fut --cost"
echo '48i64 20i64 100' | "$bin" run examples/mandelbrot.fut --cost > "$out/interpreted.txt"
if cmp -s "$out/compiled.txt" "$out/interpreted.txt"; then
  echo "the executable ($target) and the interpreter agree"
else
  echo "error: the executable ($target) and the interpreter differ" >&2
  exit 1
fi
echo "--- futmlir opt examples/dot.mlir --pass-pipeline='ir-cse,ir-dce' --timing"
"$bin" opt examples/dot.mlir --pass-pipeline='ir-cse,ir-dce,ir-op-stats' --timing
