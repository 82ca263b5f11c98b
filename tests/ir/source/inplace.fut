-- In-place updates: source.update at fixed indices; an update of a slice
-- is a loop of element updates over the slice.
-- RUN: futmlir opt %s --emit=source
-- CHECK-LABEL: sym_name = "main"
-- CHECK-NEXT: ^bb0(%0: i64, %1: [%0]i32, %2: [2]i32, %3: i64):
-- CHECK-NEXT: %4 = source.constant() {value = 7 : i32} : () -> i32
-- CHECK-NEXT: %5 = source.update(%1, %3, %4) : ([%0]i32, i64, i32) -> [%0]i32
-- CHECK: %9 = source.binop(%7, %6) {kind = "sub"} : (i64, i64) -> i64
-- CHECK-NEXT: %10 = source.loop(%9, %5) {form = "for"} ({
-- CHECK-NEXT: ^bb0(%11: i64, %12: [%0]i32):
-- CHECK-NEXT: %13 = source.binop(%11, %8) {kind = "mul"}
-- CHECK-NEXT: %14 = source.binop(%6, %13) {kind = "add"}
-- CHECK-NEXT: %15 = source.index(%2, %11) : ([2]i32, i64) -> i32
-- CHECK-NEXT: %16 = source.update(%12, %14, %15) : ([%0]i32, i64, i32) -> [%0]i32
-- CHECK-NEXT: source.yield(%16) : ([%0]i32) -> ()
-- CHECK-NEXT: }) : (i64, [%0]i32) -> [%0]i32
-- CHECK-NEXT: source.return(%10) : ([%0]i32) -> ()
entry main [n] (xs: *[n]i32) (ys: [2]i32) (i: i64): [n]i32 =
  let xs[i] = 7
  in xs with [1:3] = ys
