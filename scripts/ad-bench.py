#!/usr/bin/env python3
"""Times the gradients of tests/benchmarks/ad (issue 27) against jax.grad
of the same functions, in one run on one GPU.

    python3 scripts/ad-bench.py .gpu/adbench [--small]

.gpu/adbench holds the programs built for CUDA with --shared-runtime
(scripts/cuda-test.sh builds them) and libfutmlir_runtime_cuda.so. Each
program's `primal` and `grad` entry points run with `-r 10 -t FILE`: the
median of the runs' times (the entry point's call and the wait for the
GPU). The anchor is jax.jit of the function and of jax.grad of it (f32,
matmuls at "highest" precision), the median wall-clock time of 10 calls
with block_until_ready after a warm-up. Our gradient is checked against
JAX's (the largest difference relative to JAX's largest magnitude).

Printed per benchmark: our primal and gradient times, their ratio (the
target is at most 4), JAX's two times, and our gradient's time over
JAX's (the target is at most 1.5).
"""
import importlib.util
import os
import statistics
import sys
import tempfile
import time

import numpy as np

spec = importlib.util.spec_from_file_location(
    "gpu_bench", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu-bench.py")
)
gpu_bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gpu_bench)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

jax.config.update("jax_default_matmul_precision", "highest")
RUNS = 10
gpu_bench.RUNS = RUNS


def jax_time(f, *args):
    r = f(*args)
    jax.block_until_ready(r)
    ts = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        r = f(*args)
        jax.block_until_ready(r)
        ts.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(ts), r


def stencil_step(g):
    p = jnp.pad(g, 1, mode="edge")
    return 0.2 * (g + p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:])


def cases(small):
    rng = np.random.default_rng(1)

    def normal(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    n = 128 if small else 1024
    x, y, w = normal(n, n), normal(n, n), normal(n, n, scale=1 / np.sqrt(n))
    yield ("matmul_loss", f"{n}^3", [x, y, w], lambda w: jnp.sum((x @ w - y) ** 2), [w])

    pts, k, d = (4096 if small else 262144), 32, 16
    ps, cs = normal(pts, d), normal(k, d)
    yield (
        "kmeans_cost",
        f"{pts} points, k={k}, d={d}",
        [ps, cs],
        lambda cs: jnp.sum(jnp.min(jnp.sum((ps[:, None, :] - cs[None, :, :]) ** 2, -1), 1)),
        [cs],
    )

    b, h = (128, 64) if small else (1024, 256)
    xb, yb = normal(b, h), normal(b, h)
    w1, w2 = normal(h, h, scale=1 / np.sqrt(h)), normal(h, h, scale=1 / np.sqrt(h))
    yield (
        "mlp_loss",
        f"batch {b}, {h}x{h} layers",
        [xb, yb, w1, w2],
        lambda w1, w2: jnp.sum((jnp.maximum(xb @ w1, 0) @ w2 - yb) ** 2),
        [w1, w2],
    )

    s = 128 if small else 1024
    g = normal(s, s)
    yield (
        "stencil_loss",
        f"{s}^2, 100 steps",
        [g],
        lambda g: jnp.sum(jax.lax.fori_loop(0, 100, lambda _, g: stencil_step(g), g) ** 2),
        [g],
    )


def main():
    bench_dir = sys.argv[1]
    small = "--small" in sys.argv
    print(f"{'benchmark':14} {'size':28} {'primal':>10} {'grad':>10} {'grad/primal':>11}"
          f" {'jax f':>10} {'jax grad':>10} {'grad/jax':>9} {'max rel err':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, size, args, f, wrt in cases(small):
            tp, _ = gpu_bench.ours(bench_dir, tmp, name, args, name + ".primal", "primal")
            tg, out = gpu_bench.ours(bench_dir, tmp, name, args, name + ".grad", "grad")
            jf, _ = jax_time(jax.jit(f), *wrt)
            jg, ref = jax_time(jax.jit(jax.grad(f, argnums=tuple(range(len(wrt))))), *wrt)
            err = None
            if out is not None:
                got = gpu_bench.read_values(out)
                err = max(
                    float(np.max(np.abs(a - np.asarray(r))) / max(1e-30, float(np.max(np.abs(np.asarray(r))))))
                    for a, r in zip(got, ref)
                )

            def fmt(t):
                return f"{t:10.1f}" if t is not None else f"{'failed':>10}"

            ratio = f"{tg / tp:11.2f}" if tp and tg else f"{'-':>11}"
            vs = f"{tg / jg:9.2f}" if tg else f"{'-':>9}"
            e = f"{err:11.2e}" if err is not None else f"{'-':>11}"
            print(f"{name:14} {size:28} {fmt(tp)} {fmt(tg)} {ratio} {jf:10.1f} {jg:10.1f} {vs} {e}", flush=True)
    print("times in µs; grad/primal: ours (target ≤ 4); grad/jax: our gradient's time over jax.grad's (target ≤ 1.5)")


if __name__ == "__main__":
    main()
