-- `with` and `let xs[i] = v` become soac.update, which consumes the array
-- (after a bounds check); a slice update is a loop of updates.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "update"
-- CHECK: soac.assert(%7, %2, %0) {message = "Index [{0}] out of bounds for array of shape [{1}].
-- CHECK-NEXT: %8 = soac.update(%1, %2, %3) : ([%0]i32, i64, i32) -> [%0]i32
-- CHECK-NEXT: soac.return(%8)
-- CHECK-LABEL: sym_name = "let_update"
-- CHECK: soac.update(%10, %12, %11) : ([%9]i32, i64, i32) -> [%9]i32
-- CHECK-LABEL: sym_name = "rows"
-- CHECK: soac.update(%17, %19, %18) : ([%15][%16]f32, i64, [%16]f32) -> [%15][%16]f32
-- CHECK-LABEL: sym_name = "slice"
-- CHECK: message = "the value does not have the size of the updated part of the array
-- CHECK: soac.loop(
-- CHECK-SAME: {form = "for"}
-- CHECK: soac.update(
-- CHECK: }) : (i64, [%22]i32) -> [%22]i32

entry update [n] (xs: *[n]i32) (i: i64) (v: i32): [n]i32 = xs with [i] = v

entry let_update [n] (xs: *[n]i32): [n]i32 =
  let xs[0] = 42
  in xs

entry rows [n][m] (a: *[n][m]f32) (r: [m]f32): [n][m]f32 = a with [0] = r

entry slice (xs: *[]i32) (ys: []i32): []i32 = xs with [1:3] = ys
