#!/usr/bin/env python3
"""A generated Futhark program with N SOACs in chains and diamonds, for
the soac pipeline's fusion benchmark (README, "Fusion benchmark").

    python3 scripts/gen-fusion-bench.py 5000 > /tmp/fuse5000.fut
    futmlir opt /tmp/fuse5000.fut --timing >/dev/null \
      --pass-pipeline='soac-inline,soac-rewrite,ir-cse,ir-dce,soac-fuse{stats},ir-cse,ir-dce'

Each group of five SOACs is a diamond (one map feeding two maps, joined
by a map2) and a reduction of the join; groups chain through the join.
"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
groups = max(1, n // 5)
out = ["def main [n] (xs: [n]f32): (f32, [n]f32) ="]
out.append("  let j0 = xs")
out.append("  let s0 = 0f32")
for g in range(1, groups + 1):
    p = g - 1
    out.append(f"  let a{g} = map (\\x -> x * 1.5f32 + {g % 7}f32) j{p}")
    out.append(f"  let b{g} = map (+ 1f32) a{g}")
    out.append(f"  let c{g} = map (* 0.5f32) a{g}")
    out.append(f"  let j{g} = map2 (\\u v -> u - v) b{g} c{g}")
    out.append(f"  let s{g} = s{p} + reduce (+) 0f32 j{g}")
out.append(f"  in (s{groups}, j{groups})")
print("\n".join(out))
