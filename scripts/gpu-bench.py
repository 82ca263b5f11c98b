#!/usr/bin/env python3
"""Times the CUDA benchmark executables (scripts/cuda-test.sh builds them
into .gpu/bench) against PyTorch on the same GPU, in one run.

    python3 scripts/gpu-bench.py .gpu/bench [N]
    python3 scripts/gpu-bench.py .gpu/bench --curve
    python3 scripts/gpu-bench.py .gpu/bench --kernels [N]
    python3 scripts/gpu-bench.py .gpu/bench --products [SIDE]

Each program runs on N elements (default 10**8; the segmented sum on
[sqrt N][N / sqrt N] and [N / 100][100]) with `-r 20 -t FILE`: the
median of the 20 runs' times (the entry point's call and waiting for the
GPU; not copying the input in or the result out). Each anchor is the
median of 20 runs timed with CUDA events after a warm-up. The ratio is
anchor time / our time: above 1 is faster than the anchor.

`--kernels` times the GPU's work alone, on both sides alike: the sum of
the durations of one run's kernels under Nsight Compute (`ncu
--clock-control none`, metric gpu__time_duration.sum), for our
executables and for the anchors run in a Python process of their own.
A run's kernels are those of two runs less those of one, which leaves
out start-up and warm-up work.

`--products` times the matrix products of issue 25 (tests/benchmarks/
matmul.fut: `main`, and `linear` with a bias and a ReLU after each dot
product) on [SIDE][SIDE] f32 (default 4096) against `a @ b` and
`relu(addmm(bias, a, b))`, cuBLAS with TF32 off, in TFLOP/s.
"""
import csv
import glob
import math
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

RUNS = 20
TYPES = {np.float32: b" f32", np.int32: b" i32", np.int64: b" i64"}


def write_values(path, arrays):
    """Futhark's binary value format: b, version 2, rank, type, dims, data."""
    with open(path, "wb") as f:
        for a in arrays:
            f.write(b"b" + bytes([2, a.ndim]) + TYPES[a.dtype.type])
            f.write(struct.pack("<%dQ" % a.ndim, *a.shape))
            f.write(a.tobytes())


def ours(bench_dir, tmp, name, arrays, label=None, entry=None):
    """Times executable `name` (its entry point `entry`, or main) on
    `arrays`; `label` names its files when a program runs on several
    datasets."""
    label = label or name
    inp = os.path.join(tmp, label + ".in")
    write_values(inp, arrays)
    times = os.path.join(tmp, label + ".times")
    exe = [os.path.join(bench_dir, name)] + (["-e", entry] if entry else [])
    try:
        with open(inp, "rb") as f:
            subprocess.run(exe + ["-r", str(RUNS), "-t", times, "-n"], stdin=f, check=True)
        with open(inp, "rb") as f:
            out = subprocess.run(exe + ["-b"], stdin=f, check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        # One program failing leaves the other rows to be measured.
        print(f"{label}: {e}", file=sys.stderr)
        return None, None
    with open(times) as f:
        ts = [float(x) for x in f.read().split()]
    return statistics.median(ts), out


def checked(r, test):
    """test(our results), or None when our run failed."""
    return None if r is None else bool(test(r))


def read_values(data):
    """The values of Futhark's binary format, as numpy arrays."""
    values = []
    types = {b" f32": np.float32, b" i32": np.int32, b" i64": np.int64}
    while data:
        assert data[:2] == b"b\x02", "not a binary value"
        rank = data[2]
        dtype = types[data[3:7]]
        shape = struct.unpack("<%dQ" % rank, data[7 : 7 + 8 * rank])
        count = int(np.prod(shape))
        start = 7 + 8 * rank
        end = start + count * np.dtype(dtype).itemsize
        values.append(np.frombuffer(data[start:end], dtype=dtype, count=count).reshape(shape))
        data = data[end:]
    return values


def read_value(data):
    """The first value of Futhark's binary format, as a numpy array."""
    return read_values(data)[0]


def anchor(f):
    f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(RUNS):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        f()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) * 1000.0)
    return statistics.median(ts)


def anchor_wall(f):
    """The median wall-clock time of f() and waiting for the GPU: what
    `-t` measures of ours (f should also copy a scalar result to the
    host, as our entry points do)."""
    f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        f()
        torch.cuda.synchronize()
        ts.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(ts)


def curve(bench_dir):
    """Sum and scan from 10^3 to 10^9 elements, against torch (events and
    wall clock)."""
    print(f"{torch.cuda.get_device_name()}, median of {RUNS} runs; times in µs")
    print("| n | sum | torch.sum | torch.sum wall | scan | torch.cumsum | torch.cumsum wall |")
    print("|---|---|---|---|---|---|---|")
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as tmp:
        for e in range(3, 10):
            n = 10**e
            xs = rng.random(n, dtype=np.float32)
            ints = rng.integers(0, 10, n, dtype=np.int32)
            txs, tints = torch.from_numpy(xs).cuda(), torch.from_numpy(ints).cuda()
            s, _ = ours(bench_dir, tmp, "sum", [xs], f"sum-{e}")
            c, _ = ours(bench_dir, tmp, "scan", [ints], f"scan-{e}")
            row = [
                s,
                anchor(lambda: torch.sum(txs)),
                anchor_wall(lambda: torch.sum(txs).item()),
                c,
                anchor(lambda: torch.cumsum(tints, 0, dtype=torch.int32)),
                anchor_wall(lambda: torch.cumsum(tints, 0, dtype=torch.int32)),
            ]
            print(f"| 10^{e} | " + " | ".join("-" if t is None else f"{t:.1f}" for t in row) + " |")
            del txs, tints
            torch.cuda.empty_cache()


# The programs of `--kernels`: name, our executable, the arrays it reads
# (numpy code over n, rng), and the anchor (torch code over the same
# arrays as tensors a0, a1, ...).
KERNEL_ROWS = [
    ("sum f32", "sum", "[rng.random(n, dtype=np.float32)]", "torch.sum(a0)"),
    ("dot f32", "dot", "[rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)]", "torch.dot(a0, a1)"),
    # A device copy is no kernel (cuMemcpy): the anchor here is an
    # elementwise kernel of the copy's traffic.
    ("map x*2+1 f32", "map", "[rng.random(n, dtype=np.float32)]", "torch.mul(a0, 2.0)"),
    ("scan (+) i32", "scan", "[rng.integers(0, 10, n, dtype=np.int32)]", "torch.cumsum(a0, 0, dtype=torch.int32)"),
    ("hist 256 bins", "hist", "[rng.integers(0, 256, n, dtype=np.int64)]", "torch.bincount(a0, minlength=256)"),
    ("segmented sum [sqrt n][n/sqrt n] f32", "segsum", "[rng.random(n, dtype=np.float32)[: math.isqrt(n) * (n // math.isqrt(n))].reshape(math.isqrt(n), n // math.isqrt(n))]", "torch.sum(a0, dim=1)"),
    ("segmented sum [n/100][100] f32", "segsum", "[rng.random(n, dtype=np.float32).reshape(n // 100, 100)]", "torch.sum(a0, dim=1)"),
    ("argmax (value, index) f32", "argmax", "[rng.random(n, dtype=np.float32)]", "torch.max(a0, 0)"),
    ("filter x > 0.5 f32", "filter", "[rng.random(n, dtype=np.float32)]", "a0[a0 > 0.5]"),
]


def ncu_total(cmd, stdin=None):
    """The summed durations (µs) of the kernels `cmd` runs, under ncu."""
    ncu = next(iter(sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"))), "ncu")
    full = [ncu, "--clock-control", "none", "--metrics", "gpu__time_duration.sum", "--csv"] + cmd
    with open(stdin or os.devnull, "rb") as f:
        out = subprocess.run(full, stdin=f, check=True, capture_output=True, text=True).stdout
    scale = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}
    total, count = 0.0, 0
    for row in csv.reader(line for line in out.splitlines() if line.startswith('"')):
        if len(row) > 3 and row[-3] == "gpu__time_duration.sum":
            total += float(row[-1].replace(",", "")) * scale[row[-2]]
            count += 1
    return total, count


def kernels(bench_dir, n):
    """One run's kernel time, ours and the anchors' (see the docstring)."""
    print(f"{torch.cuda.get_device_name()}, n = {n}; the durations of one run's kernels (µs), ncu")
    print("| program | futmlir kernels (µs) | launches | anchor | anchor kernels (µs) | launches | ratio |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, exe, arrays, anchor_code in KERNEL_ROWS:
            rng = np.random.default_rng(1)
            values = eval(arrays, {"np": np, "math": math, "rng": rng, "n": n})
            inp = os.path.join(tmp, "in")
            write_values(inp, values)
            ours_t = [ncu_total([os.path.join(bench_dir, exe), "-r", str(r), "-n"], inp) for r in (1, 2)]
            np.savez(os.path.join(tmp, "arrays.npz"), *values)
            script = os.path.join(tmp, "anchor.py")
            with open(script, "w") as f:
                f.write("import sys, numpy as np, torch\n")
                f.write(f"vs = np.load({os.path.join(tmp, 'arrays.npz')!r})\n")
                f.write("ts = [torch.from_numpy(vs[f'arr_{i}']).cuda() for i in range(len(vs.files))]\n")
                f.write("a0, a1 = (ts + [None])[:2]\n")
                f.write("torch.cuda.synchronize()\n")
                f.write(f"for _ in range(int(sys.argv[1])):\n    r = {anchor_code}\ntorch.cuda.synchronize()\n")
            theirs = [ncu_total([sys.executable, script, str(r)]) for r in (1, 2)]
            (o1, c1), (o2, c2) = ours_t
            (t1, d1), (t2, e2) = theirs
            o, t = o2 - o1, t2 - t1
            print(f"| {name} | {o:.1f} | {c2 - c1} | {anchor_code} | {t:.1f} | {e2 - d1} | {t / o:.3f} |", flush=True)


def products(bench_dir, side):
    """The matrix products (see the module's text)."""
    torch.backends.cuda.matmul.allow_tf32 = False
    rng = np.random.default_rng(1)
    a = rng.random((side, side), dtype=np.float32) - 0.5
    b = rng.random((side, side), dtype=np.float32) - 0.5
    bias = rng.random(side, dtype=np.float32) - 0.5
    ta, tb, tbias = (torch.from_numpy(x).cuda() for x in (a, b, bias))
    flops = 2 * side**3
    print(f"{torch.cuda.get_device_name()}, [{side}][{side}] f32, median of {RUNS} runs, TF32 off")
    print("| program | futmlir (µs) | futmlir TFLOP/s | anchor | anchor (µs) | anchor TFLOP/s | ratio | result checked |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for entry, args, f, aname in [
            ("main", [a, b], lambda: ta @ tb, "a @ b"),
            ("linear", [a, b, bias], lambda: torch.relu(torch.addmm(tbias, ta, tb)), "relu(addmm(bias, a, b))"),
        ]:
            ref = f().cpu().numpy()
            t, r = ours(bench_dir, tmp, "matmul", args, f"matmul-{entry}", entry)
            ok = checked(r, lambda r: np.allclose(read_value(r), ref, rtol=1e-3, atol=1e-3 * math.sqrt(side)))
            at = anchor(f)
            if t is None:
                print(f"| matmul {entry} | failed | - | {aname} | {at:.0f} | {flops / at / 1e6:.1f} | - | - |")
                continue
            check = "ok" if ok else "WRONG"
            print(f"| matmul {entry} | {t:.0f} | {flops / t / 1e6:.1f} | {aname} | {at:.0f} | {flops / at / 1e6:.1f} | {at / t:.3f} | {check} |")


def main():
    bench_dir = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "--products":
        products(bench_dir, int(sys.argv[3]) if len(sys.argv) > 3 else 4096)
        return
    if len(sys.argv) > 2 and sys.argv[2] == "--curve":
        curve(bench_dir)
        return
    if len(sys.argv) > 2 and sys.argv[2] == "--kernels":
        kernels(bench_dir, int(sys.argv[3]) if len(sys.argv) > 3 else 10**8)
        return
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10**8
    rng = np.random.default_rng(1)
    xs = rng.random(n, dtype=np.float32)
    ys = rng.random(n, dtype=np.float32)
    ints = rng.integers(0, 10, n, dtype=np.int32)
    bins = rng.integers(0, 256, n, dtype=np.int64)
    txs, tys = torch.from_numpy(xs).cuda(), torch.from_numpy(ys).cuda()
    tints, tbins = torch.from_numpy(ints).cuda(), torch.from_numpy(bins).cuda()
    out = torch.empty_like(txs)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        t, r = ours(bench_dir, tmp, "sum", [xs])
        ref = torch.sum(txs).item()
        ok = checked(r, lambda r: abs(float(read_value(r)) - ref) <= 1e-3 * abs(ref))
        rows.append(("sum f32", t, anchor(lambda: torch.sum(txs)), "torch.sum", 4 * n, ok, anchor_wall(lambda: torch.sum(txs).item())))
        t, r = ours(bench_dir, tmp, "dot", [xs, ys])
        ref = torch.dot(txs, tys).item()
        ok = checked(r, lambda r: abs(float(read_value(r)) - ref) <= 1e-3 * abs(ref))
        rows.append(("dot f32", t, anchor(lambda: torch.dot(txs, tys)), "torch.dot", 8 * n, ok, anchor_wall(lambda: torch.dot(txs, tys).item())))
        t, r = ours(bench_dir, tmp, "map", [xs])
        # NVPTX may fuse the multiply-add (one rounding): compare to 1e-6.
        ok = checked(r, lambda r: np.allclose(read_value(r), xs * np.float32(2) + np.float32(1), rtol=1e-6, atol=0))
        rows.append(("map x*2+1 f32", t, anchor(lambda: out.copy_(txs)), "copy (d2d)", 8 * n, ok, anchor_wall(lambda: out.copy_(txs))))
        t, r = ours(bench_dir, tmp, "scan", [ints])
        ref = torch.cumsum(tints, 0, dtype=torch.int32).cpu().numpy()
        ok = checked(r, lambda r: np.array_equal(read_value(r), ref))
        rows.append(("scan (+) i32", t, anchor(lambda: torch.cumsum(tints, 0, dtype=torch.int32)), "torch.cumsum", 8 * n, ok, anchor_wall(lambda: torch.cumsum(tints, 0, dtype=torch.int32))))
        t, r = ours(bench_dir, tmp, "hist", [bins])
        ref = torch.bincount(tbins, minlength=256).cpu().numpy()
        ok = checked(r, lambda r: np.array_equal(read_value(r), ref))
        rows.append(("hist 256 bins", t, anchor(lambda: torch.bincount(tbins, minlength=256)), "torch.bincount", 8 * n, ok, anchor_wall(lambda: torch.bincount(tbins, minlength=256))))
        # Segmented sums on two shapes of (about) n elements: square, and
        # rows of 100.
        side = math.isqrt(n)
        for nrows, ncols in [(side, n // side), (n // 100, 100)]:
            xss = xs[: nrows * ncols].reshape(nrows, ncols)
            txss = txs[: nrows * ncols].view(nrows, ncols)
            t, r = ours(bench_dir, tmp, "segsum", [xss], f"segsum-{nrows}x{ncols}")
            ref = torch.sum(txss, dim=1).cpu().numpy()
            ok = checked(r, lambda r: np.allclose(read_value(r), ref, rtol=1e-3, atol=0))
            rows.append((f"segmented sum [{nrows}][{ncols}] f32", t, anchor(lambda: torch.sum(txss, dim=1)), "torch.sum(dim=1)", 4 * nrows * ncols, ok, anchor_wall(lambda: torch.sum(txss, dim=1))))
        # Column sums of the square matrix (Note [Column reductions]).
        xss = xs[: side * side].reshape(side, side)
        txss = txs[: side * side].view(side, side)
        t, r = ours(bench_dir, tmp, "colsums", [xss], f"colsums-{side}")
        ref = torch.sum(txss, dim=0).cpu().numpy()
        ok = checked(r, lambda r: np.allclose(read_value(r), ref, rtol=1e-3, atol=1e-3))
        rows.append((f"column sums [{side}][{side}] f32", t, anchor(lambda: torch.sum(txss, dim=0)), "torch.sum(dim=0)", 4 * side * side, ok, anchor_wall(lambda: torch.sum(txss, dim=0))))
        t, r = ours(bench_dir, tmp, "argmax", [xs])
        ref = torch.max(txs, 0)
        # torch.max may return any index of a tied maximum; ours must be
        # the first (numpy's argmax).
        first = int(np.argmax(xs))
        ok = checked(r, lambda r: [float(v) for v in read_values(r)] == [ref.values.item(), first])
        rows.append(("argmax (value, index) f32", t, anchor(lambda: torch.max(txs, 0)), "torch.max(x, 0)", 4 * n, ok, anchor_wall(lambda: [v.item() for v in torch.max(txs, 0)])))
        t, r = ours(bench_dir, tmp, "filter", [xs])
        ref = txs[txs > 0.5].cpu().numpy()
        ok = checked(r, lambda r: np.array_equal(read_value(r), ref))
        rows.append(("filter x > 0.5 f32", t, anchor(lambda: txs[txs > 0.5]), "x[x > 0.5]", 4 * n + 4 * len(ref), ok, anchor_wall(lambda: txs[txs > 0.5])))
        # k rounds of x*0.5+1 over each row of [n/10^5][10^5]: a kernel per
        # round after map-loop interchange (main), a loop per thread
        # (per_thread, each row its own trip count, all k here).
        k, ncols = 10, 100000
        nrows = n // ncols
        xss = xs[: nrows * ncols].reshape(nrows, ncols)
        txss = txs[: nrows * ncols].view(nrows, ncols)

        def rounds():
            y = txss
            for _ in range(k):
                y = torch.mul(y, 0.5).add_(1.0)
            return y

        ref = rounds().cpu().numpy()
        for entry, args, what in [("main", [xss, np.array(k, dtype=np.int64)], "G7"), ("per_thread", [xss, np.full(nrows, k, dtype=np.int64)], "per thread")]:
            t, r = ours(bench_dir, tmp, "iterate", args, f"iterate-{entry}", entry)
            ok = checked(r, lambda r: np.allclose(read_value(r), ref, rtol=1e-5, atol=0))
            rows.append((f"{k} rounds of map [{nrows}][{ncols}] f32 ({what})", t, anchor(rounds), "torch loop", 8 * k * nrows * ncols, ok, anchor_wall(rounds)))
    print(f"{torch.cuda.get_device_name()}, n = {n}, median of {RUNS} runs")
    print("The anchor is timed with CUDA events around its kernels; 'wall' times it")
    print("as -t times ours: the call and the wait for the GPU (and the copy of a")
    print("scalar result to the host), by the host's clock.")
    print(f"| program | futmlir (µs) | anchor | anchor (µs) | ratio | anchor wall (µs) | ratio wall | futmlir GB/s | result checked |")
    print(f"|---|---|---|---|---|---|---|---|---|")
    for name, t, a, aname, nbytes, ok, w in rows:
        if t is None:
            print(f"| {name} | failed | {aname} | {a:.0f} | - | {w:.0f} | - | - | - |")
            continue
        check = "ok" if ok else "WRONG"
        print(f"| {name} | {t:.0f} | {aname} | {a:.0f} | {a / t:.3f} | {w:.0f} | {w / t:.3f} | {nbytes / t / 1e3:.0f} | {check} |")


if __name__ == "__main__":
    main()
