-- The basis library's SOACs are source.soac_call with their function
-- arguments as values (lambdas, sections, named functions); other
-- prelude functions (`map2`, `all`) and built-ins are called by name, as
-- written.
-- RUN: futmlir opt %s --emit=source
-- CHECK-LABEL: sym_name = "main"
-- CHECK-NEXT: ^bb0(%0: i64, %1: [%0]f32, %2: [%0]i64):
-- CHECK-NEXT: %3 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%4: f32, %5: i64):
-- CHECK-NEXT: %6 = source.apply(%5) {callee = @f32.i64} : (i64) -> f32
-- CHECK: }) : () -> ((f32, i64) -> f32)
-- CHECK-NEXT: %8 = source.apply(%3, %1, %2) {callee = @map2} : ((f32, i64) -> f32, [%0]f32, [%0]i64) -> [%0]f32
-- CHECK: %14 = source.soac_call(%9, %13, %8) {soac = "reduce_comm"} : ((f32, f32) -> f32, f32, [%0]f32) -> f32
-- CHECK: %20 = source.soac_call(%15, %19, %1) {soac = "scan"} : ((f32, f32) -> f32, f32, [%0]f32) -> [%0]f32
-- CHECK: source.binop(%22, %23) {kind = "max"}
-- CHECK: %25 = source.apply() {callee = @f32.impl.arg.lowest} : () -> f32
-- CHECK: %27 = source.soac_call(%21, %25, %26, %2, %1) {soac = "hist"} : ((f32, f32) -> f32, f32, i64, [%0]i64, [%0]f32) -> [4]f32
-- CHECK: %30 = source.apply(%28, %29) {callee = @replicate} : (i64, f32) -> [3]f32
-- CHECK-NEXT: %31 = source.soac_call(%30, %2, %1) {soac = "scatter"} : ([3]f32, [%0]i64, [%0]f32) -> [3]f32
-- CHECK: %35 = source.soac_call(%32, %20) {soac = "filter"} : ((f32) -> bool, [%0]f32) -> [?]f32
-- CHECK: source.apply(%36, %41) {callee = @all} : ((f32) -> bool, [%0]f32) -> bool
-- CHECK: source.apply(%1, %40) {callee = @"|>"} : ([%0]f32, ([%0]f32) -> bool) -> bool
entry main [n] (xs: [n]f32) (is: [n]i64): ([n]f32, f32, []f32, [4]f32, [3]f32, bool) =
  let ys = map2 (\x i -> x * f32.i64 i) xs is
  let s = reduce_comm (+) 0 ys
  let ps = scan (*) 1 xs
  let h = hist f32.max f32.lowest 4 is xs
  let d = scatter (replicate 3 0) is xs
  in (ys, s, filter (> s) ps, h, d, xs |> all (\x -> x > 0))
