#!/usr/bin/env python3
"""Times variants of a benchmark on the GPU machine.

Every executable `NAME_*` in DIR (built with `futmlir build --target=cuda
--shared-runtime`, with libfutmlir_runtime_cuda.so beside them) is run on
10^8 random values (i32 when NAME starts with `scan`, f32 otherwise; as
two arrays when it starts with `dot`), -r 20, twice; prints the medians and an md5 of the
result, so that variants can be checked to agree. `--param a=b,c=d` runs
every variant once more per setting, with those `--param`s.

    python3 scripts/gpu-variants.py DIR [--param reduce_groups=1056 ...]
"""
import argparse, hashlib, os, statistics, struct, subprocess, tempfile
import numpy as np

TYPES = {np.float32: b" f32", np.int32: b" i32"}


def write(f, a):
    f.write(b"b" + bytes([2, a.ndim]) + TYPES[a.dtype.type])
    f.write(struct.pack("<%dQ" % a.ndim, *a.shape))
    f.write(a.tobytes())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("-n", type=int, default=10**8)
    args = ap.parse_args()
    d = os.path.abspath(args.dir)
    tmp = tempfile.mkdtemp()
    rng = np.random.default_rng(1)
    data = {"f32": rng.random(args.n, dtype=np.float32),
            "i32": rng.integers(-100, 100, args.n, dtype=np.int32)}
    ys = rng.random(args.n, dtype=np.float32)
    for t, a in data.items():
        with open(os.path.join(tmp, t), "wb") as f:
            write(f, a)
    with open(os.path.join(tmp, "f32x2"), "wb") as f:
        write(f, data["f32"])
        write(f, ys)
    settings = [[]] + [sum((["--param", p] for p in s.split(",")), []) for s in args.param]
    for name in sorted(os.listdir(d)):
        if "_" not in name or name.endswith((".py", ".so")):
            continue
        kind = "i32" if name.startswith("scan") else "f32x2" if name.startswith("dot") else "f32"
        inp = os.path.join(tmp, kind)
        tf = os.path.join(tmp, name + ".t")
        exe = os.path.join(d, name)
        for extra in settings:
            for _ in range(2):
                with open(inp, "rb") as f:
                    subprocess.run([exe, "-r", "20", "-t", tf, "-n"] + extra, stdin=f, check=True)
                ts = [float(x) for x in open(tf).read().split()]
                label = name + (" " + " ".join(extra[1::2]) if extra else "")
                print(f"{label:40s} median {statistics.median(ts):8.1f} min {min(ts):8.1f}", flush=True)
        with open(inp, "rb") as f:
            out = subprocess.run([exe, "-b"], stdin=f, check=True, capture_output=True).stdout
        print("   result", hashlib.md5(out).hexdigest(), len(out))


if __name__ == "__main__":
    main()
