-- Sizes the checker leaves to run time are checked by the internaliser:
-- `:>` (also to a size expression), the arguments of a function with a
-- shared size parameter, and sizes the program gives (`iota n`), which
-- must not be negative.
-- RUN: futmlir opt %s
-- Callees are internalised before their callers.
-- CHECK: sym_name = "dot", function_type = (i64, !fut.array<[?]f32>, !fut.array<[?]f32>) -> f32} ({
-- CHECK-NEXT: ^bb0(%0: i64, %1: [%0]f32, %2: [%0]f32):
-- CHECK-LABEL: sym_name = "coerce"
-- CHECK-NEXT: ^bb0(%12: i64, %13: i64, %14: [%12]i32):
-- CHECK-NEXT: %15 = soac.cmpop(%12, %13) {kind = "eq"}
-- CHECK-NEXT: soac.assert(%15, %12, %13) {message = "Value of shape [{0}] cannot match shape of type \"[{1}]i32\".
-- CHECK-NEXT: %16 = soac.reshape(%14, %13) : ([%12]i32, i64) -> [%13]i32
-- CHECK-LABEL: sym_name = "call"
-- CHECK-NEXT: ^bb0(%17: i64, %18: i64, %19: [%17]f32, %20: [%18]f32):
-- CHECK: %25 = soac.size(%22) {dim = 0 : i64} : ([?]f32) -> i64
-- CHECK-NEXT: %26 = soac.reshape(%22, %25) : ([?]f32, i64) -> [%25]f32
-- CHECK-NEXT: %27 = soac.cmpop(%25, %17) {kind = "eq"}
-- CHECK-NEXT: soac.assert(%27) {message = "the arguments of `dot` do not have the sizes its parameters require
-- CHECK-NEXT: %28 = soac.reshape(%26, %17) : ([%25]f32, i64) -> [%17]f32
-- CHECK-NEXT: %29 = soac.apply(%17, %19, %28) {callee = @dot} : (i64, [%17]f32, [%17]f32) -> f32
-- CHECK-LABEL: sym_name = "product"
-- CHECK: %34 = soac.binop(%31, %32) {kind = "mul"}
-- CHECK-NEXT: %35 = soac.cmpop(%30, %34) {kind = "eq"}
-- CHECK-NEXT: soac.assert(%35, %30, %34) {message = "Value of shape [{0}] cannot match shape of type \"[{1}]i32\".
-- CHECK-LABEL: sym_name = "count"
-- CHECK: %47 = soac.cmpop(%45, %46) {kind = "ge"}
-- CHECK-NEXT: soac.assert(%47, %45) {message = "Range 0..1..<{0} is invalid.
-- CHECK-NEXT: soac.iota(%45)
-- CHECK-NOT: is invalid

entry coerce [n] (m: i64) (xs: [n]i32): [m]i32 = xs :> [m]i32

def dot [n] (xs: [n]f32) (ys: [n]f32): f32 = reduce (+) 0 (map2 (*) xs ys)

entry call (xs: []f32) (ys: []f32): f32 = dot xs (filter (> 0) ys)

entry product [k] (n: i64) (m: i64) (xs: [k]i32): [n][m]i32 = unflatten (xs :> [n*m]i32)

entry count (n: i64) = (iota n, iota 3)
