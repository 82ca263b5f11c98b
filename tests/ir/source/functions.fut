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
-- CHECK-NEXT: ^bb0(%12: i64, %13: i64, %14: [%12]f32, %15: [%13]f32):
-- CHECK-NEXT: source.apply(%12, %14) {callee = @total} : (i64, [%12]f32) -> f32
-- CHECK: %21 = source.soac_call(%18, %15) {soac = "filter"} : ((f32) -> bool, [%13]f32) -> [?]f32
-- CHECK-NEXT: %22 = source.size(%21) {dim = 0 : i64} : ([?]f32) -> i64
-- CHECK-NEXT: source.apply(%22, %21) {callee = @total} : (i64, [?]f32) -> f32
-- CHECK: %26 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%27: f32):
-- CHECK-NEXT: source.apply(%25, %27) {callee = @scale} : (f32, f32) -> f32
-- CHECK: %29 = source.apply() {callee = @limit} : () -> i64
-- CHECK-NEXT: %30 = source.apply(%29, %14) {callee = @take} : (i64, [%12]f32) -> [?]f32
-- CHECK-NEXT: %31 = source.coerce(%30) : ([?]f32) -> [%12]f32
-- CHECK-NEXT: source.soac_call(%26, %31) {soac = "map"} : ((f32) -> f32, [%12]f32) -> [%12]f32

def scale (k: f32) (x: f32): f32 = k * x

def total [n] (xs: [n]f32): f32 = reduce (+) 0 xs

def limit: i64 = 3

entry main [n] (xs: [n]f32) (ys: []f32): (f32, [n]f32) =
  let s = total xs + total (filter (> 0) ys)
  in (s, map (scale 2) (take limit xs :> [n]f32))
