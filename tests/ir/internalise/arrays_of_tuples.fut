-- An array of tuples is a tuple of arrays (one per component, with the
-- same outer size); zip and unzip cost nothing, but zip checks that the
-- sizes agree and gives the second array the first one's size.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "main"
-- CHECK-NEXT: ^bb0(%0: i64, %1: i64, %2: [%0]i32, %3: [%1]f32):
-- CHECK-NEXT: %4 = soac.cmpop(%1, %0) {kind = "eq"}
-- CHECK-NEXT: soac.assert(%4) {message = "`zip` of arrays of different sizes
-- CHECK-NEXT: %5 = soac.reshape(%3, %0) : ([%1]f32, i64) -> [%0]f32
-- CHECK-NEXT: %6:2 = soac.map(%0, %2, %5) ({
-- CHECK-NEXT: ^bb0(%7: i32, %8: f32):
-- CHECK: soac.yield(%8, %10) : (f32, i32) -> ()
-- CHECK-NEXT: }) : (i64, [%0]i32, [%0]f32) -> ([%0]f32, [%0]i32)
-- CHECK-NEXT: soac.return(%6#0, %6#1) : ([%0]f32, [%0]i32) -> ()
entry main (xs: []i32) (ys: []f32): ([]f32, []i32) =
  let ps = zip xs ys
  let qs = map (\(x, y) -> (y, x + 1)) ps
  in unzip qs
