-- A first-order function becomes one soac.func, called twice with
-- soac.apply: its size parameter comes first, and the result's size, which
-- is the parameter's, is the argument's at each call.
-- RUN: futmlir opt %s
-- CHECK: sym_name = "scale", function_type = (i64, f32, !fut.array<[?]f32>) -> !fut.array<[?]f32>} ({
-- CHECK-NEXT: ^bb0(%0: i64, %1: f32, %2: [%0]f32):
-- CHECK-NEXT: %3 = soac.map(%0, %2) ({
-- CHECK: soac.return(%3) : ([%0]f32) -> ()
-- CHECK-LABEL: sym_name = "main"
-- CHECK: %10 = soac.apply(%6, %9, %7) {callee = @scale} : (i64, f32, [%6]f32) -> [%6]f32
-- CHECK-NEXT: %11 = soac.apply(%6, %8, %10) {callee = @scale} : (i64, f32, [%6]f32) -> [%6]f32
-- CHECK-NEXT: soac.return(%11) : ([%6]f32) -> ()
-- CHECK-NOT: sym_name

def scale [n] (k: f32) (xs: [n]f32): [n]f32 = map (* k) xs

entry main [n] (xs: [n]f32): [n]f32 = scale 2 (scale 3 xs)
