-- Tuples and records stay values: built, projected, updated; patterns
-- project the parts they bind.
-- RUN: futmlir opt %s --emit=source
-- CHECK-LABEL: sym_name = "main", function_type = (tuple<i32, f32>, !source.record<{x: i32, y: !source.record<{z: f32}>}>) -> tuple<tuple<f32, i32>, !source.record<{x: i32, y: !source.record<{z: f32}>}>, f32>, entry}
-- CHECK-NEXT: ^bb0(%0: tuple<i32, f32>, %1: !source.record<{x: i32, y: !source.record<{z: f32}>}>):
-- CHECK-NEXT: %2 = source.tuple_get(%0) {index = 0 : i64} : (tuple<i32, f32>) -> i32
-- CHECK-NEXT: %3 = source.tuple_get(%0) {index = 1 : i64} : (tuple<i32, f32>) -> f32
-- CHECK-NEXT: %4 = source.record_get(%1) {field = "x"}
-- CHECK-NEXT: %5 = source.record_get(%1) {field = "y"}
-- CHECK-NEXT: %6 = source.record_get(%5) {field = "z"} : (!source.record<{z: f32}>) -> f32
-- CHECK: %9 = source.record_update(%8, %7) {field = "z"} : (!source.record<{z: f32}>, f32) -> !source.record<{z: f32}>
-- CHECK-NEXT: %10 = source.record_update(%1, %9) {field = "y"}
-- CHECK-NEXT: %11 = source.tuple(%2, %3) : (i32, f32) -> tuple<i32, f32>
-- CHECK-NEXT: %12 = source.constant() {value = 2.0 : f32} : () -> f32
-- CHECK-NEXT: %13 = source.tuple_get(%11) {index = 0 : i64}
-- CHECK-NEXT: %14 = source.tuple(%13, %12) : (i32, f32) -> tuple<i32, f32>
-- CHECK: %17 = source.lambda() ({
-- CHECK: source.record_get(%18) {field = "y"}
entry main (p: (i32, f32)) (r: {x: i32, y: {z: f32}}): ((f32, i32), {x: i32, y: {z: f32}}, f32) =
  let (a, b) = p
  let {x, y = {z}} = r
  let r2 = r with y.z = b + z
  let t = (a, b) with 1 = 2
  in ((t.1, x), r2, (.y.z) r2)
