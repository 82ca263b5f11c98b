-- An array of tuples is a tuple of arrays (one per component, with the
-- same outer size); zip and unzip cost nothing. The anonymous sizes of
-- the two parameters are one size, inferred from `zip` (language
-- reference: "the size will be inferred"), so no check is needed.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "main"
-- CHECK-SAME: size_params = 1
-- CHECK-NEXT: ^bb0(%0: i64, %1: [%0]i32, %2: [%0]f32):
-- CHECK-NEXT: %3:2 = soac.map(%0, %1, %2) ({
-- CHECK-NEXT: ^bb0(%4: i32, %5: f32):
-- CHECK: soac.yield(%5, %7) : (f32, i32) -> ()
-- CHECK-NEXT: }) : (i64, [%0]i32, [%0]f32) -> ([%0]f32, [%0]i32)
-- CHECK-NEXT: soac.return(%3#0, %3#1) : ([%0]f32, [%0]i32) -> ()
entry main (xs: []i32) (ys: []f32): ([]f32, []i32) =
  let ps = zip xs ys
  let qs = map (\(x, y) -> (y, x + 1)) ps
  in unzip qs
