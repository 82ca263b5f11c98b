-- RUN: futmlir build %s --target=cuda --emit=imp

-- Note [Vector accesses] in lowering/src/segop_to_imp/gpu/segmap.rs: a
-- map kernel tests (the same in all threads) whether the innermost size
-- and the LMADs of what it reads at the point and writes allow 16-byte
-- accesses; if so, each thread reads the four consecutive elements of
-- `xs` and of `ys` at its point in one access each, computes its four
-- points, and writes them in one access; else it takes four points
-- `threads` apart with scalar accesses. The read at `j + 1` (not the
-- point itself) stays a scalar read in both versions.
-- CHECK-LABEL: imp.kernel() {sym_name = "k0"
-- CHECK: imp.if(
-- CHECK: imp.load({{%[0-9]+}}, {{%[0-9]+}}) {width = 4 : i64} : (!mem.block<device>, i64) -> (f32, f32, f32, f32)
-- CHECK: imp.load({{%[0-9]+}}, {{%[0-9]+}}) {width = 4 : i64} : (!mem.block<device>, i64) -> (f32, f32, f32, f32)
-- CHECK: imp.store({{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}) {width = 4 : i64}
-- CHECK: }, {
-- CHECK: }, {
-- CHECK-NOT: width
-- CHECK: imp.store(
-- CHECK: imp.return(

def main [n][m] (xs: [n][m]f32) (ys: [n][m]f32): [n][m]f32 =
  tabulate_2d n m (\i j -> xs[i, j] * 2 + ys[i, j] + xs[i, (j + 1) % m])
