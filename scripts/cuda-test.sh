#!/usr/bin/env bash
# Builds, on this (build) machine, what the GPU machine runs: the test
# suite compiled for CUDA with its cases (.gpu/suite), the checker that
# runs them (.gpu/futmlir-check), and the benchmarks (.gpu/bench, and the
# gradients in .gpu/adbench). The GPU
# machine needs the NVIDIA driver and, for the benchmarks' anchors,
# PyTorch; no Rust. There, from the repository root:
#
#   .gpu/futmlir-check .gpu/suite            # N passed, N failed, N skipped
#   python3 scripts/gpu-bench.py .gpu/bench  # the table of ratios
#   python3 scripts/ad-bench.py .gpu/adbench # gradients against jax.grad
#
# .gpu/ is ignored by git (.gitignore); it stays well under 64 MiB (the
# runtime is one shared library).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release -q
bin=target/release/futmlir
rm -rf .gpu
mkdir -p .gpu/bench
"$bin" test tests/programs --backend=cuda --bundle .gpu/suite
cp target/release/futmlir-check .gpu/
cp target/release/libfutmlir_runtime_cuda.so .gpu/bench/
for b in tests/benchmarks/*.fut; do
  "$bin" build --target=cuda --shared-runtime -o ".gpu/bench/$(basename "$b" .fut)" "$b"
done
# The gradients of issue 27 (python3 scripts/ad-bench.py .gpu/adbench).
mkdir -p .gpu/adbench
cp target/release/libfutmlir_runtime_cuda.so .gpu/adbench/
for b in tests/benchmarks/ad/*.fut; do
  "$bin" build --target=cuda --shared-runtime -o ".gpu/adbench/$(basename "$b" .fut)" "$b"
done
du -sh .gpu
