-- Top-level definitions become source.funcs: size parameters are leading
-- i64 inputs that the parameter types name; a call passes them first,
-- read from the arguments' types (or with source.size). A constant is a
-- function without inputs; a partial application is a lambda.
-- RUN: futmlir opt %s --emit=source
-- CHECK-LABEL: sym_name = "scale", function_type = (f32, f32) -> f32}
-- CHECK-LABEL: sym_name = "total", function_type = (i64, !fut.array<[?]f32>) -> f32}
-- CHECK-NEXT: ^bb0(%3: i64, %4: [%3]f32):
-- CHECK: source.soac_call(%5, %9, %4) {soac = "reduce"} : ((f32, f32) -> f32, f32, [%3]f32) -> f32
-- CHECK-LABEL: sym_name = "limit", function_type = () -> i64}
-- CHECK-LABEL: sym_name = "main"
-- CHECK-SAME: entry}
-- CHECK-NEXT: ^bb0(%12: i64, %13: [%12]f32, %14: [?]f32):
-- CHECK-NEXT: source.apply(%12, %13) {callee = @total} : (i64, [%12]f32) -> f32
-- CHECK: %20 = source.soac_call(%17, %14) {soac = "filter"} : ((f32) -> bool, [?]f32) -> [?]f32
-- CHECK-NEXT: %21 = source.size(%20) {dim = 0 : i64} : ([?]f32) -> i64
-- CHECK-NEXT: source.apply(%21, %20) {callee = @total} : (i64, [?]f32) -> f32
-- CHECK: %25 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%26: f32):
-- CHECK-NEXT: source.apply(%24, %26) {callee = @scale} : (f32, f32) -> f32
-- CHECK: %28 = source.apply() {callee = @limit} : () -> i64
-- CHECK-NEXT: %29 = source.apply(%28, %13) {callee = @take} : (i64, [%12]f32) -> [?]f32
-- CHECK-NEXT: %30 = source.coerce(%29) : ([?]f32) -> [%12]f32
-- CHECK-NEXT: source.soac_call(%25, %30) {soac = "map"} : ((f32) -> f32, [%12]f32) -> [%12]f32

def scale (k: f32) (x: f32): f32 = k * x

def total [n] (xs: [n]f32): f32 = reduce (+) 0 xs

def limit: i64 = 3

entry main [n] (xs: [n]f32) (ys: []f32): (f32, [n]f32) =
  let s = total xs + total (filter (> 0) ys)
  in (s, map (scale 2) (take limit xs :> [n]f32))
